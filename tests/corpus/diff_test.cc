// corpus/diff: two small fixture corpora written here (one record changed, one added, one
// removed, one re-commented, one suite added) and the diff's counts, lists and identity verdict.
#include <catch2/catch.hpp>

#include "corpus/case_id.h"
#include "corpus/diff.h"
#include "corpus/manifest.h"
#include "corpus/writer.h"
#include "corpus_fixture.h"

using namespace nc::corpus;
using nc::corpus::test::read_bytes;
using nc::corpus::test::ScratchDir;
using nc::corpus::test::write_bytes;

namespace {

// A decode-style suite: (word, expect, accept, tags, comment) per record.
struct Row {
  std::string word, expect, accept, tags, comment;
};

RenderedSuite suite(const std::string& name, const std::vector<Row>& rows, const std::string& about = "Fixture.") {
  SuiteHeader h;
  h.version = kSchemaVersion;
  h.suite = name;
  h.op = "decode E4M3FN";
  h.about = about;
  h.spec = "3.3";
  h.columns = {"id", "word", "expect", "accept", "value", "class", "tags", "comment"};
  h.tags = {{"subnormal", "e == 0"}, {"zero", "a zero"}};
  h.policies = {{"nan-any", "any NaN"}};
  std::vector<std::vector<std::string>> recs;
  for (const Row& r : rows)
    recs.push_back({case_id(name, {r.word}), r.word, r.expect, r.accept, "-", "-", r.tags, r.comment});
  auto out = render_suite(h, recs);
  REQUIRE(out.ok());
  out->compress();
  return *out;
}

void write(const ScratchDir& dir, const std::vector<RenderedSuite>& suites) {
  Manifest m;
  m.schema = kSchemaVersion;
  m.generator_version = "test";
  m.seed = "0x1";
  m.libraries = {{"gmp", "6"}, {"mpfr", "4"}};
  REQUIRE_FALSE(write_corpus(dir.path, suites, m).has_value());
}

const std::vector<Row> kOld = {{"00", "00000000", "-", "zero", "positive zero"},
                               {"01", "3b000000", "-", "subnormal", "smallest subnormal"},
                               {"02", "3b800000", "-", "subnormal", "two"},
                               {"03", "3bc00000", "-", "subnormal", "three"}};

}  // namespace

TEST_CASE("diff of a corpus with itself is identical", "[corpus][diff]") {
  ScratchDir a;
  write(a, {suite("t.a", kOld)});
  auto d = diff_corpora(a.path, a.path, 0);
  REQUIRE(d.ok());
  CHECK(d->identical());
  REQUIRE(d->suites.size() == 1);
  CHECK(d->suites[0].old_records == 4);
  CHECK(diff_text(*d).find("the corpora are identical") != std::string::npos);
}

TEST_CASE("diff names added, removed, changed and re-annotated records and new suites", "[corpus][diff]") {
  ScratchDir a, b;
  write(a, {suite("t.a", kOld)});
  std::vector<Row> next = kOld;
  next[1].expect = "3b000001";                                         // 01: changed expectation
  next[2].comment = "two, reworded";                                   // 02: annotation only
  next.erase(next.begin() + 3);                                        // 03: removed
  next.push_back({"04", "3c000000", "nan-any", "subnormal", "four"});  // 04: added
  write(b, {suite("t.a", next, "Fixture, reworded."), suite("t.b", {{"00", "00000000", "-", "zero", "z"}})});
  auto d = diff_corpora(a.path, b.path, 0);
  REQUIRE(d.ok());
  CHECK_FALSE(d->identical());
  REQUIRE(d->suites.size() == 2);
  const SuiteDiff& s = d->suites[0];
  CHECK(s.suite == "t.a");
  CHECK(s.old_records == 4);
  CHECK(s.new_records == 4);
  CHECK(s.added == 1);
  CHECK(s.removed == 1);
  CHECK(s.annotated == 1);
  CHECK(s.added_ids == std::vector<std::string>{case_id("t.a", {"04"})});
  CHECK(s.removed_ids == std::vector<std::string>{case_id("t.a", {"03"})});
  CHECK(s.annotated_ids == std::vector<std::string>{case_id("t.a", {"02"})});
  CHECK(s.added_tags == std::map<std::string, uint64_t>{{"subnormal", 1}});
  REQUIRE(s.changed.size() == 1);
  CHECK(s.changed[0].id == case_id("t.a", {"01"}));
  CHECK(s.changed[0].old_expect == "3b000000");
  CHECK(s.changed[0].new_expect == "3b000001");
  CHECK(s.changed[0].comment == "smallest subnormal");
  CHECK(s.header_changes == std::vector<std::string>{"#about reworded"});
  const SuiteDiff& n = d->suites[1];
  CHECK(n.suite == "t.b");
  CHECK_FALSE(n.in_old);
  CHECK(n.added == 1);
  const std::string text = diff_text(*d);
  CHECK(text.find("3b000000 -> 3b000001  (smallest subnormal)") != std::string::npos);
  CHECK(text.find("t.b: new suite, 1 records") != std::string::npos);
  CHECK(diff_json(*d).find("\"identical\": false") != std::string::npos);
}

TEST_CASE("diff bounds id lists by the limit but not the counts", "[corpus][diff]") {
  ScratchDir a, b;
  write(a, {suite("t.a", {kOld[0]})});
  write(b, {suite("t.a", kOld)});
  auto d = diff_corpora(a.path, b.path, 2);
  REQUIRE(d.ok());
  CHECK(d->suites[0].added == 3);
  CHECK(d->suites[0].added_ids.size() == 2);
  CHECK(diff_text(*d).find("(1 more)") != std::string::npos);
}

TEST_CASE("diff of a missing corpus is an error naming the manifest", "[corpus][diff]") {
  ScratchDir a;
  write(a, {suite("t.a", kOld)});
  auto d = diff_corpora(a.path, a.path + "/nothing-here", 0);
  REQUIRE_FALSE(d.ok());
  CHECK(d.error().message().find("MANIFEST.json") != std::string::npos);
}

TEST_CASE("diff checks every file against its manifest before trusting the manifest's hashes", "[corpus][diff]") {
  ScratchDir a, b;
  write(a, {suite("t.a", kOld)});
  std::vector<Row> next = kOld;
  next[1].expect = "3b000001";
  write(b, {suite("t.a", next)});
  const std::string manifest_a = read_bytes(a.file(kManifestName));

  SECTION("a file changed under an unchanged manifest") {
    write_bytes(b.file(kManifestName), manifest_a);  // b now claims a's hashes for other bytes
    auto d = diff_corpora(a.path, b.path, 0);
    REQUIRE_FALSE(d.ok());
    CHECK_THAT(d.error().message(), Catch::Contains("t.a.vec.zst"));
  }
  SECTION("a manifest whose text hash is copied from the other corpus") {
    // b's file and compressed hash are its own, but its text hash is a's: only reading the file
    // shows that the suites differ and that b's manifest is wrong.
    Result<Manifest> ma = read_manifest(a.path), mb = read_manifest(b.path);
    REQUIRE(ma.ok());
    REQUIRE(mb.ok());
    mb->suites[0].text_sha256 = ma->suites[0].text_sha256;
    write_bytes(b.file(kManifestName), manifest_json(*mb));
    auto d = diff_corpora(a.path, b.path, 0);
    REQUIRE_FALSE(d.ok());
    CHECK_THAT(d.error().message(), Catch::Contains("t.a.vec.zst") && Catch::Contains(ma->suites[0].text_sha256));
  }
}
