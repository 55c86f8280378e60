#include <catch2/catch.hpp>

#include <filesystem>
#include <unistd.h>

#include "corpus/lint.h"
#include "generator/check.h"
#include "generator/generate.h"

using namespace nc::gen;

namespace {

// Two test-only suites with seeded content, registered in this test binary only.
SuiteInfo describe_a() { return SuiteInfo{"t.gen.a", "decode I32", "test", "3.1", {{"seeded", "random words"}}, {}}; }
SuiteInfo describe_b() { return SuiteInfo{"t.gen.b", "validate FP32.word", "test", "3.1", {}, {}}; }
void build_a(SuiteBuilder& b) {
  SplitMix64 r(suite_seed("t.gen.a"));
  for (int i = 0; i < 500; ++i) {
    char w[9];
    std::snprintf(w, sizeof w, "%08llx", static_cast<unsigned long long>(r.below(1ull << 32)));
    b.add(Case{{w}, "0", {}, {"0", "int"}, {"seeded"}, "not a real expectation"});
  }
}
void build_b(SuiteBuilder& b) {
  for (int i = 0; i < 300; ++i) {
    char w[9];
    std::snprintf(w, sizeof w, "%08x", i * 7919);
    b.add(Case{{w}, "valid", {}, {}, {}, "word"});
  }
}
NC_SUITE(describe_a, build_a);
NC_SUITE(describe_b, build_b);

std::vector<nc::corpus::RenderedSuite> run(unsigned jobs) {
  GenerateOptions o;
  o.glob = "t.gen.*";
  o.jobs = jobs;
  auto r = generate_suites(o);
  REQUIRE(r.ok());
  return *r;
}

}  // namespace

TEST_CASE("generation is byte-identical across runs and thread counts", "[generator][determinism]") {
  auto one = run(1), two = run(2), again = run(2);
  REQUIRE(one.size() == 2);
  CHECK(one[0].name == "t.gen.a");
  for (size_t i = 0; i < one.size(); ++i) {
    CHECK(one[i].compressed == two[i].compressed);
    CHECK(two[i].compressed == again[i].compressed);
  }
}

TEST_CASE("a glob that matches nothing is an error", "[generator]") {
  GenerateOptions o;
  o.glob = "no.such.*";
  auto r = generate_suites(o);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.error().message(), Catch::Contains("no suite matches"));
}

TEST_CASE("check passes on a fresh corpus and names the first differing record", "[generator][check]") {
  std::string dir = (std::filesystem::temp_directory_path() / ("nc-gen-test-" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  auto suites = run(2);
  REQUIRE_FALSE(nc::corpus::write_corpus(dir, suites, provenance_manifest()).has_value());
  CHECK(check_corpus(dir, suites, true).empty());
  CHECK(nc::corpus::lint_corpus(dir).errors.empty());
  // Change one record of suite b in the regenerated set: check must name suite, line, id.
  auto changed = suites;
  std::string& t = changed[1].text;
  size_t at = t.find(" valid ");
  size_t line = 1 + static_cast<size_t>(std::count(t.begin(), t.begin() + static_cast<long>(at), '\n'));
  std::string id = t.substr(t.rfind('\n', at) + 1, t.find(' ', t.rfind('\n', at) + 1) - t.rfind('\n', at) - 1);
  t.replace(at, 7, " !code-illegal ");
  auto errs = check_corpus(dir, changed, true);
  REQUIRE(errs.size() == 1);
  CHECK_THAT(errs[0].message(), Catch::Contains("t.gen.b.vec.zst:" + std::to_string(line)) && Catch::Contains(id));
  // A suite dropped from the registry is reported.
  changed.pop_back();
  errs = check_corpus(dir, changed, true);
  REQUIRE(errs.size() == 1);
  CHECK_THAT(errs[0].message(), Catch::Contains("no longer generated"));
  std::filesystem::remove_all(dir);
}
