// Shards from scheduler environments and the refusals of merge. Expected shards are derived from
// each engine's documented counting (Slurm: task IDs MIN, MIN+STEP, ..., MAX; Kubernetes and
// GoogleTest: 0-based; GitLab CI_NODE_INDEX: 1-based), not from the table under test.
#include <catch2/catch.hpp>

#include <map>

#include <nlohmann/json.hpp>

#include "runners/sweep/shard.h"

using Catch::Matchers::Contains;
using nc::sweep::EnvShard;
using nc::sweep::Report;
using nc::sweep::Shard;
using nc::sweep::ShardReport;

namespace {

struct Env {
  std::map<std::string, std::string> vars;
  std::optional<EnvShard> shard;
  std::string error;
  explicit Env(std::map<std::string, std::string> v) : vars(std::move(v)) {
    shard = nc::sweep::shard_from_environment(
        [this](const char* name) { return vars.count(name) ? vars.at(name).c_str() : nullptr; }, &error);
  }
  bool is(uint64_t k, uint64_t n) const { return shard && shard->shard.index == k && shard->shard.count == n; }
};

Env env(std::map<std::string, std::string> vars) { return Env(std::move(vars)); }

std::map<std::string, std::string> slurm(const std::string& id, const std::string& min, const std::string& max,
                                         const std::string& step, const std::string& count) {
  return {{"SLURM_ARRAY_TASK_ID", id},
          {"SLURM_ARRAY_TASK_MIN", min},
          {"SLURM_ARRAY_TASK_MAX", max},
          {"SLURM_ARRAY_TASK_STEP", step},
          {"SLURM_ARRAY_TASK_COUNT", count}};
}

}  // namespace

TEST_CASE("shard text K/N", "[shard]") {
  Shard s;
  CHECK(nc::sweep::parse_shard("0/1", &s));
  CHECK((nc::sweep::parse_shard("2/3", &s) && s.index == 2 && s.count == 3));
  for (const char* bad : {"1/1", "3/2", "0/0", "a/2", "-1/2", "1/", "/2", "1", "1/2/3", " 1/2"})
    CHECK_FALSE(nc::sweep::parse_shard(bad, &s));
}

TEST_CASE("no scheduler variables: no shard, no error", "[shard]") {
  Env e = env({{"HOME", "/root"}});
  CHECK_FALSE(e.shard);
  CHECK(e.error.empty());
}

TEST_CASE("Slurm arrays: any first index, with or without a step", "[shard]") {
  CHECK(env(slurm("1", "1", "8", "1", "8")).is(0, 8));  // --array=1-8
  CHECK(env(slurm("8", "1", "8", "1", "8")).is(7, 8));
  CHECK(env(slurm("0", "0", "15", "1", "16")).is(0, 16));     // --array=0-15
  CHECK(env(slurm("105", "100", "107", "1", "8")).is(5, 8));  // --array=100-107
  CHECK(env(slurm("8", "0", "12", "4", "4")).is(2, 4));       // --array=0-15:4 runs 0, 4, 8, 12
  CHECK(env(slurm("8", "0", "15", "4", "4")).is(2, 4));       // the same if MAX were the range's bound
  CHECK(env(slurm("7", "1", "7", "2", "4")).is(3, 4));        // --array=1-7:2 runs 1, 3, 5, 7
  // Only ID, MIN and COUNT (or MAX) are needed; STEP defaults to 1.
  CHECK(env({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}).is(2, 4));
  CHECK(env({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_MAX", "4"}}).is(2, 4));
}

TEST_CASE("Slurm arrays that are not one evenly spaced range are refused", "[shard]") {
  Env list = env(slurm("3", "1", "8", "1", "3"));  // --array=1,3,8
  CHECK_FALSE(list.shard);
  CHECK_THAT(list.error, Contains("not one evenly spaced range") && Contains("--shard"));
  Env off_step = env(slurm("6", "0", "12", "4", "4"));
  CHECK_THAT(off_step.error, Contains("SLURM_ARRAY_TASK_ID is not on the array's step"));
  Env below = env(slurm("0", "1", "8", "1", "8"));
  CHECK_THAT(below.error, Contains("below the first index 1"));
  Env no_min = env({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "4"}});
  CHECK_THAT(no_min.error, Contains("SLURM_ARRAY_TASK_MIN is not set"));
  Env no_count = env({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MIN", "1"}});
  CHECK_THAT(no_count.error, Contains("SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX is not set"));
}

TEST_CASE("Kubernetes Indexed Jobs: 0-based index, count in JOB_COMPLETIONS", "[shard]") {
  CHECK(env({{"JOB_COMPLETION_INDEX", "0"}, {"JOB_COMPLETIONS", "4"}}).is(0, 4));
  CHECK(env({{"JOB_COMPLETION_INDEX", "3"}, {"JOB_COMPLETIONS", "4"}}).is(3, 4));
  Env no_count = env({{"JOB_COMPLETION_INDEX", "3"}});
  CHECK_FALSE(no_count.shard);
  CHECK_THAT(no_count.error, Contains("JOB_COMPLETIONS is not set"));
  Env past = env({{"JOB_COMPLETION_INDEX", "4"}, {"JOB_COMPLETIONS", "4"}});
  CHECK_THAT(past.error, Contains("past the last of 4 tasks"));
}

TEST_CASE("CI_NODE_INDEX counts from 1 (GitLab parallel), the others from 0", "[shard]") {
  CHECK(env({{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", "4"}}).is(0, 4));
  CHECK(env({{"CI_NODE_INDEX", "4"}, {"CI_NODE_TOTAL", "4"}}).is(3, 4));
  Env zero = env({{"CI_NODE_INDEX", "0"}, {"CI_NODE_TOTAL", "4"}});
  CHECK_THAT(zero.error, Contains("CI_NODE_INDEX counts from 1"));
  CHECK(env({{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", "2"}}).is(0, 2));
  CHECK(env({{"CIRCLE_NODE_INDEX", "0"}, {"CIRCLE_NODE_TOTAL", "2"}}).is(0, 2));
  CHECK(env({{"BUILDKITE_PARALLEL_JOB", "1"}, {"BUILDKITE_PARALLEL_JOB_COUNT", "2"}}).is(1, 2));
}

TEST_CASE("malformed values are errors naming the variable", "[shard]") {
  for (const char* v : {"abc", "-1", "", "1.5", "+2"}) {
    Env e = env({{"CI_NODE_INDEX", "1"}, {"CI_NODE_TOTAL", v}});
    CHECK_FALSE(e.shard);
    CHECK_THAT(e.error, Contains("CI_NODE_TOTAL is not a non-negative integer"));
  }
  Env zero_count = env({{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", "0"}});
  CHECK_THAT(zero_count.error, Contains("GTEST_TOTAL_SHARDS is 0"));
}

TEST_CASE("two engines: the same shard is fine, different shards are an error naming both", "[shard]") {
  CHECK(env({{"GTEST_SHARD_INDEX", "1"}, {"GTEST_TOTAL_SHARDS", "4"}, {"CI_NODE_INDEX", "2"}, {"CI_NODE_TOTAL", "4"}})
            .is(1, 4));
  Env clash = env({{"GTEST_SHARD_INDEX", "0"},
                   {"GTEST_TOTAL_SHARDS", "4"},
                   {"JOB_COMPLETION_INDEX", "2"},
                   {"JOB_COMPLETIONS", "4"}});
  CHECK_FALSE(clash.shard);
  CHECK_THAT(clash.error, Contains("GTEST_SHARD_INDEX=0") && Contains("JOB_COMPLETION_INDEX=2") && Contains("0/4") &&
                              Contains("2/4"));
}

namespace {

// A shard report of a 100-input domain "d" whose every input of the shard was judged.
ShardReport part(const std::string& file, uint64_t k, uint64_t n, const std::string& domain = "d") {
  ShardReport s{file, {}};
  Report& r = s.report;
  r.domain = domain;
  r.op = "decode F16";
  r.target = "cpu";
  r.reference = "ninfer-conform test";
  r.domain_size = 100;
  r.shard = {k, n};
  auto [b, e] = nc::sweep::shard_range(100, r.shard);
  r.tally.covered = e - b;
  return s;
}

std::string refusal(std::vector<ShardReport> shards) {
  std::vector<Report> out;
  std::string error;
  CHECK_FALSE(nc::sweep::merge(shards, &out, &error));
  return error;
}

}  // namespace

TEST_CASE("merge joins shards that tile the domain, in any order and of mixed counts", "[merge]") {
  std::vector<Report> out;
  std::string error;
  REQUIRE(nc::sweep::merge({part("c", 2, 3), part("a", 0, 3), part("b", 1, 3)}, &out, &error));
  REQUIRE(out.size() == 1);
  CHECK(out[0].tally.covered == 100);
  CHECK((out[0].shard.index == 0 && out[0].shard.count == 1));
  out.clear();
  // 0/2 is [0, 50), 2/4 is [50, 75), 3/4 is [75, 100).
  REQUIRE(nc::sweep::merge({part("h", 0, 2), part("q2", 2, 4), part("q3", 3, 4)}, &out, &error));
  CHECK(out[0].tally.covered == 100);
  out.clear();
  // Two domains, each in two shards: two reports, in the order the domains first appear.
  REQUIRE(nc::sweep::merge({part("s0", 0, 2, "y"), part("s0", 0, 2, "x"), part("s1", 1, 2, "x"), part("s1", 1, 2, "y")},
                           &out, &error));
  REQUIRE(out.size() == 2);
  CHECK((out[0].domain == "y" && out[1].domain == "x"));
}

TEST_CASE("merge refuses missing, duplicated and overlapping shards, naming them", "[merge]") {
  CHECK_THAT(refusal({part("a", 0, 4), part("c", 2, 4)}), Contains("missing shards 1/4, 3/4"));
  CHECK_THAT(refusal({part("a", 0, 2), part("b", 1, 2), part("b2", 1, 2)}),
             Contains("shard 1/2 is duplicated in b and b2"));
  CHECK_THAT(refusal({part("a", 0, 2), part("b", 1, 2), part("q", 1, 4)}),
             Contains("q (shard 1/4), inputs [25, 50), overlaps a (shard 0/2), inputs [0, 50)"));
  CHECK_THAT(refusal({part("a", 0, 2), part("q", 3, 4)}), Contains("missing inputs [50, 75)"));
  // A domain one file lacks (its process died) is missing that file's shard.
  CHECK_THAT(refusal({part("s0", 0, 2, "x"), part("s0", 0, 2, "y"), part("s1", 1, 2, "x")}),
             Contains("y: missing shards 1/2"));
}

TEST_CASE("merge refuses shards of another target, build, size or stride, naming the files", "[merge]") {
  ShardReport other = part("b", 1, 2);
  other.report.target = "plugin:x.so";
  CHECK_THAT(refusal({part("a", 0, 2), other}),
             Contains("a and b are of a different target ('cpu' and 'plugin:x.so')"));
  other = part("b", 1, 2);
  other.report.reference = "ninfer-conform 9";
  CHECK_THAT(refusal({part("a", 0, 2), other}), Contains("different reference"));
  other = part("b", 1, 2);
  other.report.domain_size = 200;  // e.g. encode.* swept with another --groups
  CHECK_THAT(refusal({part("a", 0, 2), other}), Contains("different domain size"));
  other = part("b", 1, 2);
  other.report.stride = 3;
  CHECK_THAT(refusal({part("a", 0, 2), other}), Contains("different stride"));
}

TEST_CASE("merge refuses a shard that carries only a target error", "[merge]") {
  ShardReport dead = part("b", 1, 2);
  dead.report.tally.covered = 0;
  dead.report.tally.errored = 50;
  dead.report.tally.target_error = "adapter failed: wrong token count";
  CHECK_THAT(refusal({part("a", 0, 2), dead}),
             Contains("b (shard 1/2) judged nothing") && Contains("wrong token count"));
  // A shard whose target declined every input judged nothing too, but that is an answer: kept.
  ShardReport declined = part("b", 1, 2);
  declined.report.tally.covered = 0;
  declined.report.tally.unsupported = 50;
  std::vector<Report> out;
  std::string error;
  CHECK(nc::sweep::merge({part("a", 0, 2), declined}, &out, &error));
}

namespace {

// A report as sweep --json writes it, of shard 1/2 of the 100-input domain with stride 3: inputs
// 51, 54, ..., 99 (17 of them), 2 judged wrong (one kept) and 1 accepted under nan-any.
nlohmann::json report_json() {
  Report r = part("f", 1, 2).report;
  r.stride = 3;
  r.keep = 1;
  r.tally.covered = 17;
  r.tally.class_counts = {{"word:wrong-value", 2}};
  r.tally.accepted = {{"nan-any", 1}};
  r.tally.first = {{54, "word:wrong-value", {"0036"}, "0037", "0038"}};
  return nlohmann::json::parse(nc::sweep::to_json(r));
}

std::string parse_error(const nlohmann::json& j) {
  Report r;
  std::string error;
  CHECK_FALSE(nc::sweep::from_json(j.dump(), &r, &error));
  return error;
}

}  // namespace

TEST_CASE("a sweep report reads back as written, and one of wrong types or impossible counts is refused", "[merge]") {
  Report back;
  std::string error;
  REQUIRE(nc::sweep::from_json(report_json().dump(), &back, &error));
  CHECK(back.tally.covered == 17);
  CHECK(back.tally.mismatches() == 2);
  REQUIRE(back.tally.first.size() == 1);
  CHECK(back.tally.first[0].input == std::vector<std::string>{"0036"});

  auto with = [](const char* key, nlohmann::json value) {
    nlohmann::json j = report_json();
    j[key] = std::move(value);
    return j;
  };
  // Each used to be read as something else or to end the program on an uncaught type error.
  CHECK_THAT(parse_error(with("schema", 1)), Contains("not a ninfer-conform sweep report"));
  CHECK_THAT(parse_error(nlohmann::json::array({1})), Contains("not a ninfer-conform sweep report"));
  CHECK_THAT(parse_error(with("target", 7)), Contains("\"target\" is not a string"));
  CHECK_THAT(parse_error(with("covered", -1)), Contains("\"covered\" is not a count"));
  CHECK_THAT(parse_error(with("covered", 1.5)), Contains("\"covered\" is not a count"));
  CHECK_THAT(parse_error(with("classes", "many")), Contains("\"classes\" is not an object of counts"));
  CHECK_THAT(parse_error(with("first", nlohmann::json::array({1}))), Contains("not an object"));
  nlohmann::json no_domain = report_json();
  no_domain.erase("domain");
  CHECK_THAT(parse_error(no_domain), Contains("\"domain\" is missing"));
  // Counts that no sweep of shard 1/2, stride 3 can produce.
  CHECK_THAT(parse_error(with("covered", 18)), Contains("exceed the 17 inputs shard 1/2 reaches with stride 3"));
  CHECK_THAT(parse_error(with("errored", 1)), Contains("exceed the 17 inputs"));
  CHECK_THAT(parse_error(with("invalid", 1)),
             Contains("covered + unsupported + errored + invalid exceed the 17 inputs"));
  CHECK_THAT(parse_error(with("stride", 0)), Contains("at least 1"));
  CHECK_THAT(parse_error(with("mismatches", 3)), Contains("\"mismatches\" is not the sum of \"classes\""));
  CHECK_THAT(parse_error(with("accepted", {{"nan-any", 16}})), Contains("exceed \"covered\""));
  nlohmann::json wrong_index = report_json();
  wrong_index["first"][0]["index"] = 55;  // not on the stride-3 lattice
  CHECK_THAT(parse_error(wrong_index), Contains("kept mismatch index 55 is not an input of shard 1/2"));
  nlohmann::json wrong_class = report_json();
  wrong_class["first"][0]["class"] = "word:flushed";
  CHECK_THAT(parse_error(wrong_class), Contains("which \"classes\" does not count"));
  // A member given twice: refused, not read as whichever one the JSON library keeps.
  std::string text = report_json().dump(2);
  text.insert(text.find("\"covered\""), "\"covered\": 1,\n  ");
  CHECK_FALSE(nc::sweep::from_json(text, &back, &error));
  CHECK_THAT(error, Contains("malformed sweep report: key \"covered\" appears twice in one object"));
  nlohmann::json too_many = report_json();
  too_many["first"].push_back(too_many["first"][0]);  // keep is 1
  CHECK_THAT(parse_error(too_many), Contains("more mismatches of class \"word:wrong-value\" are kept"));
}
