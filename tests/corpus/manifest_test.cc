#include <catch2/catch.hpp>

#include <filesystem>

#include "corpus/manifest.h"
#include "corpus/writer.h"
#include "corpus_fixture.h"

using namespace nc::corpus;
using namespace nc::corpus::test;

namespace {

// Writes the demo suite and its manifest into `dir`; returns the manifest.
Manifest write_demo(const ScratchDir& dir) {
  auto parsed = read_suite_text(demo_text(), "demo");
  REQUIRE(parsed.ok());
  std::vector<std::vector<std::string>> recs;
  for (const Record& r : parsed->records) recs.emplace_back(r.fields.begin(), r.fields.end());
  auto r = render_suite(parsed->header, recs);
  REQUIRE(r.ok());
  r->compress();
  Manifest m;
  m.schema = kSchemaVersion;
  m.generator_version = "test";
  m.seed = "0x1";
  m.libraries = {{"gmp", "6"}, {"mpfr", "4"}};
  REQUIRE_FALSE(write_corpus(dir.path, {*r}, m).has_value());
  auto back = read_manifest(dir.path);
  REQUIRE(back.ok());
  return *back;
}

}  // namespace

TEST_CASE("manifest JSON round-trips", "[corpus][manifest]") {
  ScratchDir dir;
  Manifest m = write_demo(dir);
  CHECK(m.libraries.at("mpfr") == "4");
  CHECK(m.suites.at(0).records == 3);
  auto again = parse_manifest(manifest_json(m), "m");
  REQUIRE(again.ok());
  CHECK(manifest_json(*again) == manifest_json(m));
  CHECK_THAT(parse_manifest("{", "m.json").error().message(),
             Catch::Contains("m.json: bad manifest: not valid JSON (at byte 2)"));
  CHECK_THAT(parse_manifest("{}", "m.json").error().message(), Catch::Contains("bad manifest: \"schema\" is missing"));
}

// A key twice in one object is refused, not resolved the JSON library's way (the last one wins in
// nlohmann, the first in others): two readers of one manifest must not see two corpora.
TEST_CASE("manifest: a key given twice in one object is an error naming the key", "[corpus][manifest]") {
  ScratchDir dir;
  const std::string text = manifest_json(write_demo(dir));
  auto twice = [&](const std::string& key) {
    const size_t at = text.find("\"" + key + "\":");
    REQUIRE(at != std::string::npos);
    const size_t end = text.find('\n', at);
    std::string doubled = text;
    return doubled.insert(end + 1, text.substr(at, end - at) + "\n");  // the member's line again, comma included
  };
  CHECK_THAT(parse_manifest(twice("seed"), "m.json").error().message(),
             Catch::Contains("m.json: bad manifest: key \"seed\" appears twice in one object"));
  CHECK_THAT(parse_manifest(twice("compressed_sha256"), "m.json").error().message(),
             Catch::Contains("key \"compressed_sha256\" appears twice"));
  // The same key in two different objects is fine: every suite entry has a "suite".
  CHECK(parse_manifest(text, "m.json").ok());
}

TEST_CASE("manifest counts must be non-negative JSON integers", "[corpus][manifest]") {
  // Found by tests/fuzz/fuzz_manifest: a float schema far outside int's range was converted with
  // undefined behaviour. Floats, negatives and strings are structure errors, never converted.
  const std::string suite = R"({"suite": "decode.E2M1", "file": "decode.E2M1.vec.zst", "records": RECORDS,
    "compressed_bytes": 1, "compressed_sha256": "x", "text_bytes": 1, "text_sha256": "y"})";
  auto manifest = [&](const std::string& schema, const std::string& records) {
    std::string s = suite;
    s.replace(s.find("RECORDS"), 7, records);
    return R"({"schema": )" + schema +
           R"(, "generator_version": "g", "oracle_libraries": {}, "seed": "s", "suites": [)" + s + "]}";
  };
  CHECK(parse_manifest(manifest("1", "16"), "m.json").ok());
  for (const std::string bad : {"266666666666.66331", "1.0", "-1", "\"1\""})
    CHECK_THAT(parse_manifest(manifest(bad, "16"), "m.json").error().message(), Catch::Contains("schema"));
  for (const std::string bad : {"2.5e11", "-16", "16.0"})
    CHECK_THAT(parse_manifest(manifest("1", bad), "m.json").error().message(), Catch::Contains("records"));
  CHECK_THAT(parse_manifest(manifest("2", "16"), "m.json").error().message(), Catch::Contains("unsupported schema 2"));
  // Found by tests/fuzz/fuzz_manifest: a number past a double's range ended the strict parser on an
  // uncaught nlohmann out_of_range.
  CHECK_THAT(parse_manifest(manifest("1", "5387193e886"), "m.json").error().message(),
             Catch::Contains("beyond the range of a double"));
}

TEST_CASE("verify_corpus accepts an intact corpus and names tampered files", "[corpus][manifest]") {
  ScratchDir dir;
  Manifest m = write_demo(dir);
  CHECK(verify_corpus(dir.path, m).empty());
  const std::string path = dir.file("t.demo.vec.zst");
  const std::string good = read_bytes(path);
  const std::string& want = m.suites[0].compressed_sha256;

  SECTION("truncated") {
    write_bytes(path, good.substr(0, good.size() - 1));
    auto errs = verify_corpus(dir.path, m);
    REQUIRE(errs.size() == 1);
    CHECK_THAT(errs[0].message(), Catch::Contains("t.demo.vec.zst") && Catch::Contains(want));
  }
  SECTION("same size, one byte changed") {
    std::string bad = good;
    bad[bad.size() - 1] ^= 1;  // inside the frame checksum
    write_bytes(path, bad);
    auto errs = verify_corpus(dir.path, m);
    REQUIRE(errs.size() == 1);
    CHECK_THAT(errs[0].message(), Catch::Contains("t.demo.vec.zst") && Catch::Contains(want));
  }
  SECTION("missing") {
    std::filesystem::remove(path);
    auto errs = verify_corpus(dir.path, m);
    REQUIRE(errs.size() == 1);
    CHECK_THAT(errs[0].message(), Catch::Contains("missing") && Catch::Contains(want));
  }
  SECTION("record count in the manifest differs") {
    m.suites[0].records = 4;
    auto errs = verify_corpus(dir.path, m);
    REQUIRE(errs.size() == 1);
    CHECK_THAT(errs[0].message(), Catch::Contains("manifest declares 4 records, found 3"));
  }
  SECTION("an unlisted suite file") {
    write_bytes(dir.file("extra.vec.zst"), good);
    auto errs = verify_corpus(dir.path, m);
    REQUIRE(errs.size() == 1);
    CHECK_THAT(errs[0].message(), Catch::Contains("not listed"));
  }
}

TEST_CASE("verify_files keeps the bytes it verified, which a reader then decompresses", "[corpus][manifest]") {
  ScratchDir dir;
  Manifest m = write_demo(dir);
  const std::string path = dir.file("t.demo.vec.zst");
  const std::string good = read_bytes(path);
  std::vector<std::string> contents;
  REQUIRE(verify_files(dir.path, m, &contents).empty());
  REQUIRE(contents.size() == 1);
  CHECK(contents[0] == good);
  auto reader =
      SuiteReader::from_verified(contents[0], m.suites[0].compressed_sha256, path, SuiteReader::TextHash::Compute);
  REQUIRE(reader.ok());
  Record rec;
  for (Result<bool> more = (*reader)->next(rec); more.ok() && *more;) more = (*reader)->next(rec);
  CHECK_FALSE(check_totals(path, m.suites[0], (*reader)->totals()).has_value());

  std::string bad = good;
  bad[bad.size() - 1] ^= 1;
  write_bytes(path, bad);
  auto errs = verify_files(dir.path, m, &contents);
  REQUIRE(errs.size() == 1);
  CHECK_THAT(errs[0].message(), Catch::Contains("t.demo.vec.zst") && Catch::Contains(m.suites[0].compressed_sha256));
  CHECK(contents[0].empty());  // nothing of a file that did not match is kept
}

TEST_CASE("verify_files on several threads: the same problems in manifest order, the same bytes kept",
          "[corpus][manifest]") {
  // Ten suites of the committed corpus, two tampered with, one missing, and a file not listed.
  Result<Manifest> full = read_manifest(NC_DEFAULT_CORPUS_DIR);
  REQUIRE(full.ok());
  ScratchDir dir;
  Manifest m = *full;
  m.suites.resize(10);
  for (const ManifestEntry& e : m.suites)
    write_bytes(dir.file(e.file), read_bytes(std::string(NC_DEFAULT_CORPUS_DIR) + "/" + e.file));
  std::string bytes = read_bytes(dir.file(m.suites[2].file));
  bytes[bytes.size() / 2] ^= 1;
  write_bytes(dir.file(m.suites[2].file), bytes);
  write_bytes(dir.file(m.suites[7].file), read_bytes(dir.file(m.suites[7].file)) + "x");
  std::filesystem::remove(dir.file(m.suites[5].file));
  write_bytes(dir.file("unlisted.vec.zst"), bytes);

  std::vector<std::string> one_contents;
  const std::vector<Error> one = verify_files(dir.path, m, &one_contents, 1);
  REQUIRE(one.size() == 4);
  CHECK_THAT(one[0].message(), Catch::Contains(m.suites[2].file));
  CHECK_THAT(one[1].message(), Catch::Contains(m.suites[5].file) && Catch::Contains("missing"));
  CHECK_THAT(one[2].message(), Catch::Contains(m.suites[7].file));
  CHECK_THAT(one[3].message(), Catch::Contains("unlisted.vec.zst") && Catch::Contains("not listed"));
  for (unsigned threads : {2u, 3u, 16u}) {
    std::vector<std::string> contents;
    const std::vector<Error> many = verify_files(dir.path, m, &contents, threads);
    REQUIRE(many.size() == one.size());
    for (size_t i = 0; i < one.size(); ++i) CHECK(many[i].message() == one[i].message());
    CHECK(contents == one_contents);
  }
  size_t kept = 0;
  for (const std::string& c : one_contents) kept += !c.empty();
  CHECK(kept == 7);
}
