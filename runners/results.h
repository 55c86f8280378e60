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
#include <utility>
#include <vector>

#include "runners/departure.h"
#include "runners/environment.h"
#include "runners/target.h"
#include "runners/verdict.h"

namespace nc::runners {

struct CaseResult {
  std::string id, inputs, expect, actual, tags, note, policy;
  Verdict verdict = Verdict::Fail;
  std::optional<uint64_t> ulp;
  unsigned departure = 0;  // a pass under a NaN policy: how it departs (runners/departure.h bits)
};

// A case whose result changed with its place in a request: first in a full request, then in a
// short one (ReplayOptions::tail_batch).
struct PositionCase {
  std::string id, inputs, expect, full, tail;  // full, tail: the results in the two requests
  Verdict full_verdict = Verdict::Pass, tail_verdict = Verdict::Pass;
  size_t full_len = 0, full_pos = 0, tail_len = 0, tail_pos = 0;
};

struct SuiteResult {
  std::string name, op, file;
  Capability cap = Capability::Decode;
  std::array<size_t, kVerdictCount> counts{};
  std::set<std::string> policies_used;    // policies some case needed
  std::vector<CaseResult> failures;       // every Fail and TargetError, in record order
  std::vector<CaseResult> policy_passes;  // every PassUnderPolicy with what the target returned, in record order
  std::array<uint64_t, kDepartureCount> departure_counts{};  // policy passes per departure bit
  // The departure profile's counts by name ("NaN sign dropped" -> 12), departures that occurred.
  std::vector<std::pair<std::string, uint64_t>> departures() const;
  std::map<std::string, size_t> judged_tags;  // tag -> judged cases (Untested excluded) carrying it
  std::string target_problem;                 // the target died/hung/lied: why, naming the first case ID
  std::vector<std::string> diagnosis;         // lines grouping failures by tag with the likely cause
  // Under --tolerance ulp:N, the judged cases whose results are both binary32 numbers, by their
  // ULP distance from the expectation (the certificate's histogram); empty without a tolerance.
  std::map<uint64_t, size_t> ulp_errors;
  bool declares_tag = false;  // the suite declares the --tag replayed (none: every suite does)
  // Batch geometry: cases presented again in short requests, those whose result changed (every
  // one, in record order) and the pattern they follow in words ("" when none changed).
  size_t tail_presented = 0, tail_batch = 0;
  std::vector<PositionCase> position_dependent;
  std::string position_finding;
  // Position-dependent cases whose short-request result is not conformant: failures of their own.
  // (A case whose two results are both conformant, two NaNs a policy allows, is reported but
  // costs no verdict.)
  size_t position_failures() const;
  size_t total() const {
    size_t t = 0;
    for (size_t c : counts) t += c;
    return t;
  }
  size_t failed() const { return counts[size_t(Verdict::Fail)] + counts[size_t(Verdict::TargetError)]; }
};

struct ReplayResult {
  std::string manifest_sha256;  // of MANIFEST.json's bytes
  std::string target_name, target_version;
  std::vector<SuiteResult> suites;
  std::vector<std::string> required;  // --require entries (runners/scope.h): unmet is not conformant
  Environment environment;            // certify fills it (cpu_model "" otherwise)
  // Some case judged; no failure or target error in any suite; every requirement met (scope.cc).
  bool conformant() const;
  std::set<std::string> policies() const;  // every suite's policies_used
  bool within_tolerance() const;           // some case passed only within --tolerance
};

}  // namespace nc::runners
