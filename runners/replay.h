// The replay engine: verify the corpus manifest, stream each selected suite through a target in
// batches, and judge every case. Results are plain data for the text, JSON, JUnit and certificate
// writers.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
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
  // Suites replayed at once, each worker with its own target; results do not depend on it.
  unsigned jobs = 1;
  std::function<std::unique_ptr<Target>()> make_target;  // targets for workers 2..jobs
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
  // Under --tolerance ulp:N, the judged cases whose results are both binary32 numbers, by their
  // ULP distance from the expectation (the certificate's histogram); empty without a tolerance.
  std::map<uint64_t, size_t> ulp_errors;
  bool declares_tag = false;             // the suite declares the --tag replayed (none: every suite does)
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
// the listed size and compressed SHA-256. Fills the hash of the manifest's bytes and its suites,
// or false with *error naming the file and what did not match. With `contents`, keeps the suite
// files' bytes as verified (in entry order): replay() decompresses those and checks each suite's
// text size and record count as it streams it, so each file is read and hashed once; `threads`
// files at a time (replay uses its --jobs).
bool verify_manifest(const std::string& dir, std::string* manifest_sha256, std::vector<corpus::ManifestEntry>* entries,
                     std::string* error, std::vector<std::string>* contents = nullptr, unsigned threads = 1);

// false (exit 2) on a corpus or target start error, with *error; otherwise fills *out. With
// options.jobs > 1 suites run on that many threads, largest first, each worker on its own target
// from options.make_target; the result is the same as with one.
bool replay(Target& target, const ReplayOptions& options, ReplayResult* out, std::string* error);

// Streams one open suite through the target (the benchmark calls it directly). false with *error
// when the suite file itself is broken (a corpus error, exit 2).
bool replay_suite(Target& target, corpus::SuiteReader& suite, const ReplayOptions& options, SuiteResult* out,
                  std::string* error);

}  // namespace nc::runners
