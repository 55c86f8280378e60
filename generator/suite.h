// How a suite of golden cases is described and built. Each suite file under generator/suites/
// registers one or more suites with NC_SUITE; `generate` runs them (in parallel, by suite) and
// writes each through corpus/ in canonical form (records sorted by id, see vectors/FORMAT.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "generator/splitmix64.h"

namespace nc::gen {

// One record. inputs/info are the op's columns in vectors/FORMAT.md order; the id is derived
// from (suite, inputs) by corpus/, never chosen here.
struct Case {
  std::vector<std::string> inputs;
  std::string expect;               // value, "!rule", or "nan*"
  std::vector<std::string> accept;  // policy names, each declared in SuiteInfo::policies
  std::vector<std::string> info;    // op-specific info columns (value class, exact, trace, norm)
  std::vector<std::string> tags;    // each declared in SuiteInfo::tags
  std::string comment;              // one line, what this case tests
};

struct SuiteInfo {
  std::string name;                         // file stem: vectors/<name>.vec.zst
  std::string op;                           // "#op" line, e.g. "decode E4M3FN"
  std::string about;                        // one line
  std::string spec;                         // spec sections, e.g. "3.3"
  std::map<std::string, std::string> tags;  // tag -> the bug it targets
  std::map<std::string, std::string> policies;
};

// Collects cases; a case whose inputs repeat an earlier one is merged (its tags are united) only
// if its expectation agrees, otherwise generation fails: two answers for one input is a bug.
class SuiteBuilder {
 public:
  explicit SuiteBuilder(SuiteInfo info) : info_(std::move(info)) {}
  void add(Case c);
  const SuiteInfo& info() const { return info_; }
  const std::vector<Case>& cases() const { return cases_; }
  // The cases, moved out (the builder is empty afterwards): build_suite renders them without a copy.
  std::vector<Case> take_cases();

 private:
  SuiteInfo info_;
  std::vector<Case> cases_;
  std::unordered_map<std::string, size_t> by_inputs_;
};

// The corpus-wide seed (recorded in MANIFEST.json); each suite derives its own stream from it
// and its name, so adding a suite never changes another's cases.
inline constexpr uint64_t kCorpusSeed = 0x4e496e666572ull;  // "NInfer"
uint64_t suite_seed(const std::string& suite_name);

using SuiteFn = void (*)(SuiteBuilder& out);
struct SuiteRegistration {
  SuiteInfo (*describe)();
  SuiteFn build;
};
bool register_suite(SuiteRegistration r);
const std::vector<SuiteRegistration>& registered_suites();

}  // namespace nc::gen

#define NC_SUITE_CONCAT_INNER(a, b) a##b
#define NC_SUITE_CONCAT(a, b) NC_SUITE_CONCAT_INNER(a, b)
// Usage: NC_SUITE(describe_fn, build_fn); in a generator/suites/*.cc file (linked as objects).
#define NC_SUITE(describe, build) \
  static const bool NC_SUITE_CONCAT(nc_suite_registered_, __LINE__) = ::nc::gen::register_suite({describe, build})
