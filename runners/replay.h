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
  std::string target_problem;            // the target died/hung/lied: why, naming the first case ID
  std::vector<std::string> diagnosis;    // lines grouping failures by tag with the likely cause
  size_t total() const;
  size_t failed() const { return counts[size_t(Verdict::Fail)] + counts[size_t(Verdict::TargetError)]; }
};

struct ReplayResult {
  std::string manifest_sha256;           // of MANIFEST.json's bytes
  std::string target_name, target_version;
  std::vector<SuiteResult> suites;
  bool conformant() const;               // no failure, no target error in any suite
};

// Reads and verifies <dir>/MANIFEST.json: every listed file present with the listed hashes and
// record counts. Fills the manifest hash and the list of suites (name -> file), or false with
// *error naming the file and what did not match.
struct ManifestEntry {
  std::string suite, file;
  std::string sha256_compressed, sha256_text;
  long records = -1;
};
bool verify_manifest(const std::string& dir, std::string* manifest_sha256, std::vector<ManifestEntry>* entries,
                     std::string* error);
std::string sha256_hex(const std::string& bytes);

// false (exit 2) on a corpus or target start error, with *error; otherwise fills *out.
bool replay(Target& target, const ReplayOptions& options, ReplayResult* out, std::string* error);

// Judges one suite already read into memory (tests and the benchmark call it directly).
struct Suite;
SuiteResult replay_suite(Target& target, const Suite& suite, const ReplayOptions& options);

}  // namespace nc::runners
