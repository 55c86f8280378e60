#include <catch2/catch.hpp>

#include "corpus/reader.h"
#include "corpus/zstd_io.h"
#include "corpus_fixture.h"

using namespace nc::corpus;
using nc::corpus::test::demo_text;

namespace {

std::string replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// The message of the error reading `text` must contain `needle`.
std::string error_of(const std::string& text) {
  Result<SuiteFile> r = read_suite_text(text, "demo.txt");
  REQUIRE_FALSE(r.ok());
  return r.error().message();
}

}  // namespace

TEST_CASE("reader parses a canonical suite into header and columns", "[corpus][reader]") {
  Result<SuiteFile> r = read_suite_text(demo_text(), "demo.txt");
  REQUIRE(r.ok());
  const SuiteHeader& h = r->header;
  CHECK(h.suite == "t.demo");
  CHECK(h.op == "decode E4M3FN");
  CHECK(h.op_name() == "decode");
  CHECK(h.input_count() == 1);
  CHECK(h.tags.size() == 1);
  CHECK(h.policies.at(0).first == "nan-any");
  REQUIRE(r->records.size() == 3);
  const Record& first = r->records[0];
  CHECK(first.line == 10);
  CHECK(first.id() == "t.demo:15268960c690");
  CHECK(first.fields.size() == 8);
  CHECK(first.fields[7] == "smallest positive subnormal");  // the comment keeps its spaces
  CHECK(r->records[2].fields[7].empty());                   // an empty comment is allowed
  CHECK(r->totals.records == 3);
}

TEST_CASE("reader: wrong record count says declared and found", "[corpus][reader]") {
  CHECK_THAT(error_of(replace(demo_text(), "#records 3", "#records 4")), Catch::Contains("declared 4, found 3"));
  CHECK_THAT(error_of(replace(demo_text(), "#records 3", "#records 2")), Catch::Contains("declared 2, found 3"));
}

TEST_CASE("reader: duplicate and unsorted ids name the line and the case", "[corpus][reader]") {
  std::string dup = replace(demo_text(), "#records 3", "#records 4") +
                    "t.demo:76d288f8aea0 02 3b800000 - 0x1p-8 subnormal subnormal again\n";
  std::string msg = error_of(dup);
  CHECK_THAT(msg, Catch::Contains("demo.txt:13"));
  CHECK_THAT(msg, Catch::Contains("case t.demo:76d288f8aea0"));
  CHECK_THAT(msg, Catch::Contains("duplicate id (first at line 12)"));
  std::string t = demo_text();
  std::string l10 = "t.demo:15268960c690 01 3b000000 - 0x1p-9 subnormal subnormal smallest positive subnormal\n";
  std::string swapped = replace(t, l10, "") + l10;
  CHECK_THAT(error_of(swapped), Catch::Contains("not sorted by id"));
}

TEST_CASE("reader: bad headers are named", "[corpus][reader]") {
  CHECK_THAT(error_of(replace(demo_text(), "#ninfer-conform-vectors 1", "#ninfer-conform-vectors 2")), Catch::Contains("unsupported schema version"));
  CHECK_THAT(error_of(replace(demo_text(), "#suite t.demo\n#op decode E4M3FN\n", "#op decode E4M3FN\n#suite t.demo\n")), Catch::Contains("out of order"));
  CHECK_THAT(error_of(replace(demo_text(), "#about A demo.\n", "")), Catch::Contains("demo.txt:4: header `#spec` out of order"));
  CHECK_THAT(error_of(replace(demo_text(), "#tag subnormal", "#bogus subnormal")), Catch::Contains("unknown header `#bogus`"));
  CHECK_THAT(error_of(replace(demo_text(), "#columns id word", "#columns word id")), Catch::Contains("bad #columns"));
  CHECK_THAT(error_of(replace(demo_text(), "#records 3", "#records three")), Catch::Contains("not a decimal count"));
  CHECK_THAT(error_of(replace(demo_text(), "#tag subnormal e == 0, m != 0\n", "#tag zz later\n#tag subnormal e == 0, m != 0\n")), Catch::Contains("out of order"));
  CHECK_THAT(error_of(""), Catch::Contains("empty suite text"));
}

TEST_CASE("reader: record-level rules", "[corpus][reader]") {
  CHECK_THAT(error_of(replace(demo_text(), "0x0p+0 zero - positive", "0x0p+0 zero positive")), Catch::Contains("tag `positive` is not declared"));
  CHECK_THAT(error_of(replace(demo_text(), "3b800000 nan-any", "3b800000 nan-some")), Catch::Contains("policy `nan-some` is not declared"));
  CHECK_THAT(error_of(replace(demo_text(), "t.demo:6d6142a2f3da 00", "t.demo:6d6142a2f3da 03")), Catch::Contains("id does not match the record's inputs"));
  CHECK_THAT(error_of(replace(demo_text(), "t.demo:6d6142a2f3da 00 00000000", "t.demo:6d6142a2f3da 00  00000000")), Catch::Contains("empty field"));
  CHECK_THAT(error_of(replace(demo_text(), "t.demo:6d6142a2f3da", "t.demo:6D6142A2F3DA")), Catch::Contains("malformed id"));
  std::string noeol = demo_text();
  noeol.pop_back();
  CHECK_THAT(error_of(noeol), Catch::Contains("no terminating newline"));
  CHECK_THAT(error_of(replace(demo_text(), "positive zero\n", "positive zero\r\n")), Catch::Contains("carriage return"));
}

TEST_CASE("reader: truncated and corrupted zstd files", "[corpus][reader][zstd]") {
  nc::corpus::test::ScratchDir dir;
  std::string z = zstd_compress(demo_text());
  SECTION("intact file reads, and the file name must match #suite") {
    nc::corpus::test::write_bytes(dir.file("t.demo.vec.zst"), z);
    CHECK(read_suite(dir.file("t.demo.vec.zst")).ok());
    nc::corpus::test::write_bytes(dir.file("other.vec.zst"), z);
    Result<SuiteFile> r = read_suite(dir.file("other.vec.zst"));
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error().message(), Catch::Contains("does not match the file name"));
  }
  SECTION("truncated") {
    nc::corpus::test::write_bytes(dir.file("t.demo.vec.zst"), z.substr(0, z.size() - 5));
    Result<SuiteFile> r = read_suite(dir.file("t.demo.vec.zst"));
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error().message(), Catch::Contains("t.demo.vec.zst") && Catch::Contains("truncated"));
  }
  SECTION("one corrupted byte is caught by the frame checksum or the decoder") {
    std::string bad = z;
    bad[bad.size() / 2] ^= 0x40;
    nc::corpus::test::write_bytes(dir.file("t.demo.vec.zst"), bad);
    Result<SuiteFile> r = read_suite(dir.file("t.demo.vec.zst"));
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error().message(), Catch::Contains("t.demo.vec.zst"));
  }
  SECTION("missing file and empty file") {
    CHECK_THAT(read_suite(dir.file("none.vec.zst")).error().message(), Catch::Contains("cannot open"));
    nc::corpus::test::write_bytes(dir.file("t.demo.vec.zst"), "");
    CHECK_THAT(read_suite(dir.file("t.demo.vec.zst")).error().message(), Catch::Contains("empty file"));
  }
}

TEST_CASE("reader streams a suite larger than one zstd chunk", "[corpus][reader][zstd]") {
  // 3 records repeated would duplicate ids, so build a long valid comment instead.
  std::string t = demo_text();
  std::string big = replace(t, "positive zero\n", std::string(300000, 'x') + "\n");
  nc::corpus::test::ScratchDir dir;
  nc::corpus::test::write_bytes(dir.file("t.demo.vec.zst"), zstd_compress(big));
  Result<SuiteFile> r = read_suite(dir.file("t.demo.vec.zst"));
  REQUIRE(r.ok());
  CHECK(r->records[1].fields[7].size() == 300000);
  CHECK(r->totals.text_bytes == big.size());
}
