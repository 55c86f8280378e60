#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <zstd.h>

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "corpus/case_id.h"
#include "corpus/reader.h"
#include "corpus/same_bytes.h"
#include "corpus/sha256.h"
#include "corpus/view_cache.h"
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
  CHECK_THAT(error_of(replace(demo_text(), "#ninfer-conform-vectors 1", "#ninfer-conform-vectors 2")),
             Catch::Contains("unsupported schema version"));
  CHECK_THAT(error_of(replace(demo_text(), "#suite t.demo\n#op decode E4M3FN\n", "#op decode E4M3FN\n#suite t.demo\n")),
             Catch::Contains("header `#suite` missing before `#op`"));
  CHECK_THAT(error_of(replace(demo_text(), "#about A demo.\n", "")),
             Catch::Contains("demo.txt:4: header `#about` missing before `#spec`"));
  CHECK_THAT(error_of(replace(demo_text(), "#tag subnormal", "#bogus subnormal")),
             Catch::Contains("unknown header `#bogus`"));
  CHECK_THAT(error_of(replace(demo_text(), "#columns id word", "#columns word id")), Catch::Contains("bad #columns"));
  CHECK_THAT(error_of(replace(demo_text(), "#records 3", "#records three")), Catch::Contains("not a decimal count"));
  CHECK_THAT(error_of(replace(demo_text(), "#tag subnormal e == 0, m != 0\n",
                              "#tag zz later\n#tag subnormal e == 0, m != 0\n")),
             Catch::Contains("out of order"));
  CHECK_THAT(error_of(""), Catch::Contains("empty suite text"));
}

TEST_CASE("reader: a required header left out is named as missing, not as the next one out of order",
          "[corpus][reader]") {
  CHECK_THAT(error_of(replace(demo_text(), "#columns id word expect accept value class tags comment\n", "")),
             Catch::Contains("demo.txt:6: header `#columns` missing before `#tag`"));
  CHECK_THAT(error_of(replace(demo_text(), "#ninfer-conform-vectors 1\n", "")),
             Catch::Contains("demo.txt:1: header `#ninfer-conform-vectors` missing before `#suite`"));
  CHECK_THAT(
      error_of(replace(demo_text(), "#op decode E4M3FN\n#about A demo.\n", "#about A demo.\n#op decode E4M3FN\n")),
      Catch::Contains("header `#op` missing before `#about`"));
  // Going back is out of order.
  CHECK_THAT(error_of(replace(demo_text(), "#records 3\n", "#records 3\n#spec 3.3\n")),
             Catch::Contains("header line after #records"));
  CHECK_THAT(error_of(replace(demo_text(), "#policy nan-any any NaN\n", "#policy nan-any any NaN\n#spec 3.3\n")),
             Catch::Contains("header `#spec` out of order"));
}

TEST_CASE("reader: record-level rules", "[corpus][reader]") {
  CHECK_THAT(error_of(replace(demo_text(), "0x0p+0 zero - positive", "0x0p+0 zero positive")),
             Catch::Contains("tag `positive` is not declared"));
  CHECK_THAT(error_of(replace(demo_text(), "3b800000 nan-any", "3b800000 nan-some")),
             Catch::Contains("policy `nan-some` is not declared"));
  CHECK_THAT(error_of(replace(demo_text(), "t.demo:6d6142a2f3da 00", "t.demo:6d6142a2f3da 03")),
             Catch::Contains("id does not match the record's inputs"));
  CHECK_THAT(error_of(replace(demo_text(), "t.demo:6d6142a2f3da 00 00000000", "t.demo:6d6142a2f3da 00  00000000")),
             Catch::Contains("empty field"));
  CHECK_THAT(error_of(replace(demo_text(), "t.demo:6d6142a2f3da", "t.demo:6D6142A2F3DA")),
             Catch::Contains("malformed id"));
  std::string noeol = demo_text();
  noeol.pop_back();
  CHECK_THAT(error_of(noeol), Catch::Contains("no terminating newline"));
  CHECK_THAT(error_of(replace(demo_text(), "positive zero\n", "positive zero\r\n")),
             Catch::Contains("carriage return"));
}

// Text a terminal would act on (ESC), that cuts C strings (NUL), or that is not ASCII must not
// reach `show` or a report: the line, the byte and its column are named, and no earlier line
// is misjudged for it. Line 11 is "t.demo:6d6142a2f3da 00 00000000 - 0x0p+0 zero - positive zero".
TEST_CASE("reader: suite text is printable ASCII, the first other byte named by line and column", "[corpus][reader]") {
  const std::pair<std::string, std::string> cases[] = {
      {std::string("positive \x1b[2Jzero"), "demo.txt:11:"},   // ESC in a comment
      {std::string("positive \0zero", 14), "demo.txt:11:"},    // NUL
      {std::string("positive \xc3\xa9zero"), "demo.txt:11:"},  // UTF-8 e-acute
      {std::string("positive\tzero"), "demo.txt:11:"},         // tab
      {std::string("positive \x7fzero"), "demo.txt:11:"},      // DEL
  };
  const char* bytes[] = {"byte 0x1b at column 58", "byte 0x00 at column 58", "byte 0xc3 at column 58",
                         "byte 0x09 at column 57", "byte 0x7f at column 58"};
  for (size_t k = 0; k < 5; ++k) {
    INFO(k);
    const std::string message = error_of(replace(demo_text(), "positive zero", cases[k].first));
    CHECK_THAT(message,
               Catch::Contains(cases[k].second) && Catch::Contains(bytes[k]) && Catch::Contains("printable ASCII"));
  }
  // In a header line too.
  CHECK_THAT(error_of(replace(demo_text(), "A demo.", "A d\x80mo.")),
             Catch::Contains("demo.txt:4: byte 0x80 at column 11"));
}

// The reader splits and hashes lines several at a time; a problem on a line must still come only
// after every record before it, on that line's number, wherever the line falls among the batches.
TEST_CASE("reader: a bad line deep in a suite comes after every record before it", "[corpus][reader]") {
  // 40 well-formed records (words 00..27, sorted by id), then one of them spoiled.
  std::vector<std::string> lines;
  for (int w = 0; w < 40; ++w) {
    char word[3];
    std::snprintf(word, sizeof word, "%02x", w);
    lines.push_back(case_id("t.demo", {word}) + " " + word + " 00000000 - 0x0p+0 zero - c");
  }
  std::sort(lines.begin(), lines.end());
  auto suite = [&](const std::vector<std::string>& records) {
    std::string t = replace(demo_text(), "#records 3", "#records " + std::to_string(records.size()));
    t = t.substr(0, t.find("t.demo:"));
    for (const std::string& l : records) t += l + "\n";
    return t;
  };
  // Streams the text; the records handed out before the error, and the error.
  auto stream = [](const std::string& text, std::string* message) {
    auto r = SuiteReader::from_text(text, "demo.txt");
    REQUIRE(r.ok());
    size_t n = 0;
    Record rec;
    for (;;) {
      Result<bool> more = (*r)->next(rec);
      if (!more) return *message = more.error().message(), n;
      if (!*more) return n;
      CHECK(rec.line == 10 + n);
      ++n;
    }
  };
  std::string message;
  REQUIRE(stream(suite(lines), &message) == 40);
  for (size_t bad : {size_t(0), size_t(15), size_t(16), size_t(17), size_t(36), size_t(39)}) {
    const std::string line_no = "demo.txt:" + std::to_string(10 + bad) + ":";
    INFO("record " << bad);
    std::vector<std::string> spoiled = lines;
    spoiled[bad] = replace(spoiled[bad], " 00000000 ", "  00000000 ");  // a split error
    CHECK(stream(suite(spoiled), &message) == bad);
    CHECK_THAT(message, Catch::Contains(line_no) && Catch::Contains("empty field"));
    spoiled = lines;
    spoiled[bad] = replace(spoiled[bad], " 0x0p+0 ", " 0x0 ");  // a field error, after the id checks
    CHECK(stream(suite(spoiled), &message) == bad);
    CHECK_THAT(message, Catch::Contains(line_no) && Catch::Contains("column `value`"));
    spoiled = lines;
    spoiled[bad][8] = spoiled[bad][8] == '0' ? '1' : '0';  // an id that is not its inputs' hash
    CHECK(stream(suite(spoiled), &message) == bad);
    CHECK_THAT(message, Catch::Contains(line_no) && Catch::Contains("id does not match"));
    spoiled = lines;
    spoiled.insert(spoiled.begin() + std::ptrdiff_t(bad), "");  // an empty line
    CHECK(stream(suite(spoiled), &message) == bad);
    CHECK_THAT(message, Catch::Contains(line_no) && Catch::Contains("empty line"));
  }
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
  SECTION("a wrong frame checksum: open() and from_verified (bytes matched to a re-hashed manifest) both say so") {
    std::string bad = z;
    bad.back() ^= 1;
    nc::corpus::test::write_bytes(dir.file("t.demo.vec.zst"), bad);
    Result<std::unique_ptr<SuiteReader>> opened = SuiteReader::open(dir.file("t.demo.vec.zst"));
    REQUIRE_FALSE(opened.ok());
    CHECK_THAT(opened.error().message(), Catch::Contains("t.demo.vec.zst") && Catch::Contains("checksum"));
    Result<std::unique_ptr<SuiteReader>> verified =
        SuiteReader::from_verified(bad, sha256_hex(bad), dir.file("t.demo.vec.zst"), SuiteReader::TextHash::Skip);
    REQUIRE_FALSE(verified.ok());
    CHECK_THAT(verified.error().message(), Catch::Contains("checksum"));
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

TEST_CASE("zstd_decompress: one call into the declared size, streaming for everything else", "[corpus][zstd]") {
  const std::string a = demo_text(), b = "second frame\n";
  SECTION("a frame that declares its size") {
    Result<std::string> t = zstd_decompress(zstd_compress(a), "x");
    REQUIRE(t.ok());
    CHECK(*t == a);
  }
  SECTION("two frames: both read, one after the other") {
    Result<std::string> t = zstd_decompress(zstd_compress(a) + zstd_compress(b), "x");
    REQUIRE(t.ok());
    CHECK(*t == a + b);
  }
  SECTION("a frame that does not declare its size") {
    ZSTD_CCtx* c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 0);
    std::string z(ZSTD_compressBound(a.size()), '\0');
    ZSTD_outBuffer out{z.data(), z.size(), 0};
    ZSTD_inBuffer in{a.data(), a.size(), 0};
    REQUIRE(ZSTD_compressStream2(c, &out, &in, ZSTD_e_end) == 0);
    ZSTD_freeCCtx(c);
    z.resize(out.pos);
    REQUIRE(ZSTD_getFrameContentSize(z.data(), z.size()) == ZSTD_CONTENTSIZE_UNKNOWN);
    Result<std::string> t = zstd_decompress(z, "x");
    REQUIRE(t.ok());
    CHECK(*t == a);
  }
  SECTION("text compressed far beyond tenfold (streamed, not allocated up front)") {
    const std::string big(4 << 20, 'x');
    const std::string z = zstd_compress(big);
    REQUIRE(z.size() * 1024 < big.size());
    Result<std::string> t = zstd_decompress(z, "x");
    REQUIRE(t.ok());
    CHECK(*t == big);
  }
  SECTION("a frame whose checksum is wrong: an error when verified, read as written when skipped") {
    std::string z = zstd_compress(a);
    z.back() ^= 1;  // the frame ends with the low 4 bytes of its text's XXH64
    Result<std::string> verified = zstd_decompress(z, "x.vec.zst");
    REQUIRE_FALSE(verified.ok());
    CHECK_THAT(verified.error().message(), Catch::Contains("x.vec.zst") && Catch::Contains("checksum"));
    Result<std::string> skipped = zstd_decompress(z, "x.vec.zst", FrameChecksum::Skip);
    REQUIRE(skipped.ok());
    CHECK(*skipped == a);
  }
  SECTION("more text than a suite may hold: refused before it is all in memory") {
    const std::string big(100000, 'x');
    Result<std::string> declared = zstd_decompress(zstd_compress(big), "x.vec.zst", FrameChecksum::Verify, 99999);
    REQUIRE_FALSE(declared.ok());
    CHECK_THAT(declared.error().message(),
               Catch::Contains("x.vec.zst") && Catch::Contains("declares 100000 bytes, more than the 99999 bytes"));
    // Two frames, the first declaring 60000: only streaming finds out how much they hold.
    const std::string two = zstd_compress(big.substr(0, 60000)) + zstd_compress(big.substr(0, 60000));
    Result<std::string> streamed = zstd_decompress(two, "x.vec.zst", FrameChecksum::Verify, 99999);
    REQUIRE_FALSE(streamed.ok());
    CHECK_THAT(streamed.error().message(), Catch::Contains("the zstd frames hold, more than the 99999 bytes"));
    CHECK(zstd_decompress(two, "x.vec.zst", FrameChecksum::Verify, 120000).ok());
  }
  SECTION("a frame followed by a cut-off one") {
    const std::string z = zstd_compress(b);
    Result<std::string> t = zstd_decompress(zstd_compress(a) + z.substr(0, z.size() - 3), "x.vec.zst");
    REQUIRE_FALSE(t.ok());
    CHECK_THAT(t.error().message(), Catch::Contains("x.vec.zst") && Catch::Contains("truncated"));
  }
}

TEST_CASE("a suite path that is not a regular file is an error, without reading it", "[corpus][reader]") {
  nc::corpus::test::ScratchDir dir;
  std::filesystem::create_directory(dir.file("dir.vec.zst"));
  REQUIRE(mkfifo(dir.file("fifo.vec.zst").c_str(), 0600) == 0);  // no writer: a blocking read would hang
  for (const std::string& path : {dir.file("dir.vec.zst"), dir.file("fifo.vec.zst"), std::string("/dev/zero")}) {
    Result<SuiteFile> r = read_suite(path);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error().message(), Catch::Contains(path) && Catch::Contains("not a regular file"));
  }
}

TEST_CASE("records view the suite text, which the SuiteFile keeps", "[corpus][reader]") {
  std::optional<SuiteFile> copy;
  {
    Result<SuiteFile> r = read_suite_text(demo_text(), "demo.txt");
    REQUIRE(r.ok());
    copy = *r;
  }  // the reader and the first SuiteFile are gone
  REQUIRE(copy->records.size() == 3);
  CHECK(copy->records[0].id() == "t.demo:15268960c690");
  CHECK(copy->records[0].fields[7] == "smallest positive subnormal");
  CHECK(copy->records[0].id().data() >= copy->text->data());
  CHECK(copy->records[0].id().data() < copy->text->data() + copy->text->size());
}

TEST_CASE("split_record: long fields, comment with spaces, errors", "[corpus][reader]") {
  Result<std::vector<std::string>> f = split_record("aaaaaaaaaaaaaaa bbbbbbbbbbbbbbbbbbbb c dd  the  comment ", 5);
  REQUIRE(f.ok());
  CHECK(*f == std::vector<std::string>{"aaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbb", "c", "dd", " the  comment "});
  f = split_record("a b", 3);  // the comment and its space may both be absent
  REQUIRE(f.ok());
  CHECK(*f == std::vector<std::string>{"a", "b", ""});
  CHECK_THAT(split_record("a", 3).error().rule, Catch::Contains("record has 1 fields"));
  CHECK_THAT(split_record("a b", 5).error().rule, Catch::Contains("record has 2 fields"));
  CHECK_THAT(split_record("aaaaaaaaaaaaaaaa  c", 4).error().rule, Catch::Contains("empty field 2"));
  CHECK_THAT(split_record("a ", 3).error().rule, Catch::Contains("empty field 2"));
}

// The splitter looks at 64 bytes at a time; against a plain field-by-field split, on lines of up
// to 300 bytes whose spaces fall anywhere, including on and next to every 64-byte boundary.
TEST_CASE("split_record agrees with a field-by-field split on random lines", "[corpus][reader]") {
  auto reference = [](const std::string& line, size_t ncol, std::vector<std::string>* out) {
    out->clear();
    size_t start = 0;
    while (out->size() + 1 < ncol) {
      const size_t sp = line.find(' ', start);
      if (sp == std::string::npos) break;
      if (sp == start) return false;  // empty field
      out->push_back(line.substr(start, sp - start));
      start = sp + 1;
    }
    if (out->size() + 1 < ncol) {  // only the comment may be missing
      if (out->size() + 2 != ncol || start == line.size()) return false;
      out->push_back(line.substr(start));
      start = line.size();
    }
    out->push_back(line.substr(start));
    return true;
  };
  uint32_t x = 2463534242u;
  auto next = [&] { return x ^= x << 13, x ^= x >> 17, x ^= x << 5; };
  for (int n = 0; n < 20000; ++n) {
    const size_t len = next() % 300, ncol = 2 + next() % 11;
    std::string line(len, 'a');
    for (char& c : line) c = next() % 5 == 0 ? ' ' : char('a' + next() % 26);
    std::vector<std::string> want;
    const bool ok = reference(line, ncol, &want);
    Result<std::vector<std::string>> got = split_record(line, ncol);
    INFO("line `" << line << "`, " << ncol << " columns");
    REQUIRE(got.ok() == ok);
    if (ok) CHECK(*got == want);
  }
}

TEST_CASE("ViewCache: a hit only for the key stored, a slot's later key replaces it", "[corpus]") {
  ViewCache<int> cache;
  CHECK(cache.find("normal") == nullptr);
  cache.put("normal", 1);
  REQUIRE(cache.find("normal") != nullptr);
  CHECK(*cache.find("normal") == 1);
  CHECK(cache.find(std::string("normal")) != nullptr);  // by content, not by address
  // Keys that differ only inside, as a suite's tag lists do, each get a hit of their own while
  // they do not share a slot; a key that shares one replaces the earlier (the slot function is
  // private, so the sharing key is found by trying: 64 slots, at most 64 keys until one repeats).
  ViewCache<int> lists;
  std::vector<std::string> keys;
  for (int i = 0; i <= 64; ++i) keys.push_back("normal,n" + std::to_string(1000 + i) + ",positive");
  lists.put(keys[0], 0);
  int shared = 0;
  for (int i = 1; i <= 64 && !shared; ++i) {
    lists.put(keys[size_t(i)], i);
    if (lists.find(keys[0]) == nullptr) shared = i;
    else CHECK(*lists.find(keys[0]) == 0);
  }
  REQUIRE(shared > 0);
  REQUIRE(lists.find(keys[size_t(shared)]) != nullptr);
  CHECK(*lists.find(keys[size_t(shared)]) == shared);
  CHECK(*cache.find("normal") == 1);
}

TEST_CASE("each record names its tag list by index: one index per distinct list", "[corpus][reader]") {
  // decode.BF16's records meet their few tag lists in hash order, alternating, so both the cache
  // and the index behind it are used.
  auto r = SuiteReader::open(std::string(NC_DEFAULT_CORPUS_DIR) + "/decode.BF16.vec.zst");
  REQUIRE(r.ok());
  const size_t tags_col = (*r)->header().columns.size() - 2;
  Record rec;
  size_t records = 0;
  for (;;) {
    Result<bool> more = (*r)->next(rec);
    REQUIRE(more.ok());
    if (!*more) break;
    ++records;
    REQUIRE(rec.tag_list < (*r)->tag_lists().size());
    REQUIRE((*r)->tag_lists()[rec.tag_list] == rec.fields[tags_col]);
  }
  CHECK(records == 65536);
  std::vector<std::string_view> lists = (*r)->tag_lists();
  std::sort(lists.begin(), lists.end());
  CHECK(std::adjacent_find(lists.begin(), lists.end()) == lists.end());
  CHECK(lists.size() > 3);
}

TEST_CASE("same_bytes: equal strings of every length up to 40, and one differing byte anywhere", "[corpus]") {
  std::string a, b;
  for (size_t n = 0; n <= 40; ++n) {
    a.assign(n, 'x');
    for (size_t i = 0; i < n; ++i) a[i] = char('a' + i % 26);
    b = a;
    CHECK(same_bytes(a.data(), b.data(), n));
    for (size_t at = 0; at < n; ++at) {
      for (int bit = 0; bit < 8; ++bit) {
        b[at] = char(a[at] ^ (1 << bit));
        INFO(n << " bytes, byte " << at << " bit " << bit);
        CHECK_FALSE(same_bytes(a.data(), b.data(), n));
      }
      b[at] = a[at];
    }
    CHECK(same_bytes(std::string_view(a), std::string_view(b)));
    if (n > 0) CHECK_FALSE(same_bytes(std::string_view(a), std::string_view(b).substr(0, n - 1)));  // sizes differ
  }
}
