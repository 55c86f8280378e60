// What a replay found: per case, per suite and for the run. Plain data, written by the replay
// engine (runners/replay.h) and read by the scope, diagnosis, report and certificate writers,
// none of which needs the engine itself.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runners/target.h"
#include "runners/verdict.h"

namespace nc::runners {

struct CaseResult {
  std::string id, inputs, expect, actual, tags, note, policy;
  Verdict verdict = Verdict::Fail;
  std::optional<uint64_t> ulp;
};

struct SuiteResult {
  std::string name, op, file;
  Capability cap = Capability::Decode;
  std::array<size_t, kVerdictCount> counts{};
  std::set<std::string> policies_used;   // policies some case needed
  std::vector<CaseResult> failures;      // every Fail and TargetError, in record order
  std::map<std::string, size_t> judged_tags;  // tag -> judged cases (Untested excluded) carrying it
  std::string target_problem;            // the target died/hung/lied: why, naming the first case ID
  std::vector<std::string> diagnosis;    // lines grouping failures by tag with the likely cause
  bool declares_tag = false;             // the suite declares the --tag replayed (none: every suite does)
  size_t total() const {
    size_t t = 0;
    for (size_t c : counts) t += c;
    return t;
  }
  size_t failed() const { return counts[size_t(Verdict::Fail)] + counts[size_t(Verdict::TargetError)]; }
};

struct ReplayResult {
  std::string manifest_sha256;           // of MANIFEST.json's bytes
  std::string target_name, target_version;
  std::vector<SuiteResult> suites;
  std::vector<std::string> required;     // --require entries (runners/scope.h): unmet is not conformant
  // Some case judged; no failure or target error in any suite; every requirement met (scope.cc).
  bool conformant() const;
};

}  // namespace nc::runners
