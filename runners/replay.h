// The replay engine: verify the corpus manifest, stream each selected suite through a target in
// batches, and judge every case. Results are plain data for the text, JSON, JUnit and certificate
// writers.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "corpus/manifest.h"
#include "corpus/reader.h"
#include "runners/target.h"
#include "runners/verdict.h"

namespace nc::runners {

struct ReplayOptions {
  std::string corpus_dir;
  std::string suite_glob = "*";
  std::string tag;                // only records carrying this tag ("" = all)
  JudgeOptions judge;
  size_t batch = 4096;            // elements per request (PIPE.md's limit)
  std::function<void(const std::string& suite, size_t done, size_t total)> progress;
};

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
  size_t total() const;
  size_t failed() const { return counts[size_t(Verdict::Fail)] + counts[size_t(Verdict::TargetError)]; }
};

struct ReplayResult {
  std::string manifest_sha256;           // of MANIFEST.json's bytes
  std::string target_name, target_version;
  std::vector<SuiteResult> suites;
  std::vector<std::string> required;     // --require entries (runners/scope.h): unmet is not conformant
  // Some case judged; no failure or target error in any suite; every requirement met.
  bool conformant() const;
};

// Reads and verifies <dir>/MANIFEST.json through corpus/manifest.h: every listed file present with
// the listed sizes, hashes and record counts. Fills the hash of the manifest's bytes and its
// suites, or false with *error naming the file and what did not match.
bool verify_manifest(const std::string& dir, std::string* manifest_sha256, std::vector<corpus::ManifestEntry>* entries,
                     std::string* error);

// false (exit 2) on a corpus or target start error, with *error; otherwise fills *out.
bool replay(Target& target, const ReplayOptions& options, ReplayResult* out, std::string* error);

// Streams one open suite through the target (the benchmark calls it directly). false with *error
// when the suite file itself is broken (a corpus error, exit 2).
bool replay_suite(Target& target, corpus::SuiteReader& suite, const ReplayOptions& options, SuiteResult* out,
                  std::string* error);

}  // namespace nc::runners
