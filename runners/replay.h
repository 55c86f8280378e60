// The replay engine: verify the corpus manifest, stream each selected suite through a target in
// batches, and judge every case. Its results (runners/results.h) are plain data for the text, JSON,
// JUnit and certificate writers.
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
#include "runners/results.h"
#include "runners/target.h"
#include "runners/verdict.h"

namespace nc::runners {

struct ReplayOptions {
  std::string corpus_dir;
  std::string suite_glob = "*";  // a comma list of globs: a suite matching any is replayed
  std::string tag;               // only records carrying this tag ("" = all)
  JudgeOptions judge;
  size_t batch = 4096;  // elements per request (PIPE.md's limit)
  // Element-wise cases are presented a second time in requests of this many elements (0: not),
  // so each is once outside a full vector of 8 or more lanes (runners/README.md, "Batch geometry").
  size_t tail_batch = 7;
  // Suites replayed at once, each worker with its own target; results do not depend on it.
  unsigned jobs = 1;
  std::function<std::unique_ptr<Target>()> make_target;  // targets for workers 2..jobs
  std::function<void(const std::string& suite, size_t done, size_t total)> progress;
};

// Reads and verifies <dir>/MANIFEST.json through corpus/manifest.h: every listed file present with
// the listed size and compressed SHA-256. Fills the hash of the manifest's bytes and its suites,
// or false with *error naming the file and what did not match. With `contents`, keeps the suite
// files' bytes as verified (in entry order): replay() decompresses those and checks each suite's
// text size and record count as it streams it, so each file is read and hashed once; `threads`
// files at a time (replay uses its --jobs).
bool verify_manifest(const std::string& dir, std::string* manifest_sha256, std::vector<corpus::ManifestEntry>* entries,
                     std::string* error, std::vector<std::string>* contents = nullptr, unsigned threads = 1);

// The position-dependent cases of a suite in words: how many, the vector width whose full groups
// and tails separate them (when one does: "lanes 0-7 of each full group of 8 give ..., the tail
// gives ..."), and the first case. "" for none.
std::string describe_position_dependence(const std::vector<PositionCase>& cases);

// false (exit 2) on a corpus or target start error, with *error; otherwise fills *out. With
// options.jobs > 1 suites run on that many threads, largest first, each worker on its own target
// from options.make_target; the result is the same as with one.
bool replay(Target& target, const ReplayOptions& options, ReplayResult* out, std::string* error);

// Streams one open suite through the target (the benchmark calls it directly). false with *error
// when the suite file itself is broken (a corpus error, exit 2).
bool replay_suite(Target& target, corpus::SuiteReader& suite, const ReplayOptions& options, SuiteResult* out,
                  std::string* error);

}  // namespace nc::runners
