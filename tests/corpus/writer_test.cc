#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <set>

#include "corpus/case_id.h"
#include "corpus/writer.h"
#include "corpus/zstd_io.h"
#include "corpus_fixture.h"

using namespace nc::corpus;
using nc::corpus::test::demo_text;

namespace {

SuiteHeader demo_header() {
  SuiteHeader h;
  h.suite = "t.demo";
  h.op = "decode E4M3FN";
  h.about = "A demo.";
  h.spec = "3.3";
  h.columns = {"id", "word", "expect", "accept", "value", "class", "tags", "comment"};
  h.tags = {{"subnormal", "e == 0, m != 0"}};
  h.policies = {{"nan-any", "any NaN"}};
  return h;
}

std::vector<std::vector<std::string>> demo_records() {
  // Deliberately not in id order: the writer sorts.
  return {
      {case_id("t.demo", {"02"}), "02", "3b800000", "nan-any", "0x1p-8", "subnormal", "subnormal", ""},
      {case_id("t.demo", {"00"}), "00", "00000000", "-", "0x0p+0", "zero", "-", "positive zero"},
      {case_id("t.demo", {"01"}), "01", "3b000000", "-", "0x1p-9", "subnormal", "subnormal",
       "smallest positive subnormal"},
  };
}

}  // namespace

TEST_CASE("writer renders the canonical text of FORMAT.md byte for byte", "[corpus][writer]") {
  Result<RenderedSuite> r = render_suite(demo_header(), demo_records());
  REQUIRE(r.ok());
  r->compress();
  CHECK(r->text == demo_text());  // hand-written fixture
  CHECK(r->records == 3);
  Result<std::string> back = zstd_decompress(r->compressed, "x");
  REQUIRE(back.ok());
  CHECK(*back == r->text);
}

TEST_CASE("writer output is deterministic", "[corpus][writer]") {
  auto a = render_suite(demo_header(), demo_records());
  auto recs = demo_records();
  std::reverse(recs.begin(), recs.end());
  auto b = render_suite(demo_header(), recs);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  a->compress();
  b->compress();
  CHECK(a->text == b->text);
  CHECK(a->compressed == b->compressed);
}

TEST_CASE("writer refuses what the reader would refuse", "[corpus][writer]") {
  auto recs = demo_records();
  recs[1][6] = "undeclared";
  auto r = render_suite(demo_header(), recs);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message(), Catch::Contains("tag `undeclared` is not declared"));
  recs = demo_records();
  recs.push_back(recs[0]);
  r = render_suite(demo_header(), recs);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message(), Catch::Contains("duplicate id"));
  recs = demo_records();
  recs[0].pop_back();
  CHECK_FALSE(render_suite(demo_header(), recs).ok());
}

TEST_CASE("write_corpus writes suites then the manifest, and keeps other suites' entries", "[corpus][writer]") {
  nc::corpus::test::ScratchDir dir;
  auto r = render_suite(demo_header(), demo_records());
  REQUIRE(r.ok());
  Manifest m;
  CHECK(write_corpus(dir.path, {*r}, m).has_value());  // not compressed yet: refused
  r->compress();
  m.schema = kSchemaVersion;
  m.generator_version = "test";
  m.seed = "0x1";
  m.suites.push_back({"a.other", "a.other.vec.zst", 1, 2, 3, "aa", "bb"});
  REQUIRE_FALSE(write_corpus(dir.path, {*r}, m).has_value());
  auto back = read_manifest(dir.path);
  REQUIRE(back.ok());
  REQUIRE(back->suites.size() == 2);
  CHECK(back->suites[0].suite == "a.other");
  CHECK(back->suites[1].compressed_sha256 == r->entry().compressed_sha256);
  // A failed run (a suite that was never compressed) changes nothing on disk.
  const std::string before = nc::corpus::test::read_bytes(dir.file("MANIFEST.json"));
  auto fresh = render_suite(demo_header(), demo_records());
  REQUIRE(fresh.ok());
  CHECK(write_corpus(dir.path, {*r, *fresh}, m).has_value());
  CHECK(nc::corpus::test::read_bytes(dir.file("MANIFEST.json")) == before);
  // No temp files are left behind.
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) CHECK(e.path().filename().string()[0] != '.');
}

TEST_CASE("a partial write_corpus merges into the manifest read under its lock, not the caller's stale copy",
          "[corpus][writer]") {
  nc::corpus::test::ScratchDir dir;
  auto r = render_suite(demo_header(), demo_records());
  REQUIRE(r.ok());
  r->compress();
  Manifest m;
  m.schema = kSchemaVersion;
  m.generator_version = "test";
  m.seed = "0x1";
  Manifest with_other = m;
  with_other.suites.push_back({"a.other", "a.other.vec.zst", 1, 2, 3, "aa", "bb"});
  REQUIRE_FALSE(write_corpus(dir.path, {*r}, with_other).has_value());
  // A file that is not generate's keeps its bytes and its mode.
  nc::corpus::test::write_bytes(dir.file("notes.txt"), "mine\n");
  std::filesystem::permissions(dir.file("notes.txt"),
                               std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  // A second run that read the manifest before the first wrote it passes a copy without a.other.
  REQUIRE_FALSE(write_corpus(dir.path, {*r}, m).has_value());
  auto back = read_manifest(dir.path);
  REQUIRE(back.ok());
  REQUIRE(back->suites.size() == 2);
  CHECK(back->suites[0].suite == "a.other");
  CHECK(nc::corpus::test::read_bytes(dir.file("notes.txt")) == "mine\n");
  CHECK(std::filesystem::status(dir.file("notes.txt")).permissions() ==
        (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
}

TEST_CASE("write_corpus replaces the folder as a whole: kept files, dropped suites, one writer at a time",
          "[corpus][writer]") {
  nc::corpus::test::ScratchDir parent;
  const std::string dir = parent.file("vectors");
  auto r = render_suite(demo_header(), demo_records());
  REQUIRE(r.ok());
  r->compress();
  Manifest m;
  m.schema = kSchemaVersion;
  m.generator_version = "test";
  m.seed = "0x1";
  std::filesystem::create_directory(dir);
  nc::corpus::test::write_bytes(dir + "/FORMAT.md", "schema notes\n");
  nc::corpus::test::write_bytes(dir + "/z.gone.vec.zst", "old suite");
  REQUIRE_FALSE(write_corpus(dir, {*r}, m).has_value());
  CHECK(nc::corpus::test::read_bytes(dir + "/FORMAT.md") == "schema notes\n");  // not generate's: kept
  CHECK(std::filesystem::exists(dir + "/z.gone.vec.zst"));                      // partial run: kept
  REQUIRE_FALSE(write_corpus(dir, {*r}, m, /*drop_unlisted=*/true).has_value());
  CHECK_FALSE(std::filesystem::exists(dir + "/z.gone.vec.zst"));  // full run: dropped
  CHECK(std::filesystem::exists(dir + "/FORMAT.md"));
  CHECK(std::filesystem::exists(dir + "/t.demo.vec.zst"));
  // Only the corpus folder and its lock file are left in the parent: the staging folder went with
  // the old corpus.
  std::set<std::string> entries;
  for (const auto& e : std::filesystem::directory_iterator(parent.path)) entries.insert(e.path().filename().string());
  CHECK(entries == std::set<std::string>{".vectors.lock", "vectors"});

  // While another process holds the corpus's lock file, a write is refused and changes nothing.
  const std::string lock_file = parent.file(".vectors.lock");
  const std::string before = nc::corpus::test::read_bytes(dir + "/MANIFEST.json");
  int fd = ::open(lock_file.c_str(), O_RDONLY);
  REQUIRE(fd >= 0);
  pid_t child = ::fork();
  if (child == 0) {  // flock locks belong to the open file description: take it in another process
    int cfd = ::open(lock_file.c_str(), O_RDONLY);
    ::flock(cfd, LOCK_EX);
    ::pause();
    ::_exit(0);
  }
  // Wait until the child holds it (a probe lock on our own descriptor fails then).
  while (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
    ::flock(fd, LOCK_UN);
    ::usleep(1000);
  }
  m.generator_version = "changed";
  Status st = write_corpus(dir, {*r}, m);
  // A second corpus in the same parent is not held up by that lock.
  Status beside = write_corpus(parent.file("other-vectors"), {*r}, m);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::close(fd);
  REQUIRE(st.has_value());
  CHECK_THAT(st->message(), Catch::Contains("another process is writing this corpus"));
  CHECK(nc::corpus::test::read_bytes(dir + "/MANIFEST.json") == before);
  CHECK_FALSE(beside.has_value());
}
