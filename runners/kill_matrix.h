// The kill matrix (docs/mutants.md): every mutant plugin (targets/mutants/) replayed on the suites it
// names, against a control (the correct codec over the same plugin path) so that a case the correct
// table itself fails is never counted as a kill. Each (mutant, suite glob) pair is one
// `ninfer-conform replay --target plugin:PATH.so` child process, so a mutant that crashes costs only
// its own row. `ninfer-conform mutants` is the command line over this.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace nc::runners {

struct MutantPlugin {
  std::string path, name, area, entry, mistake;
  std::vector<std::string> suites, kill_tags, bug_words;
};

struct Kill {  // one (mutant, suite glob) replay
  std::string glob;
  int exit_code = -1;
  std::string suite, case_id, tags, diagnosis, problem;
  size_t failures = 0;  // failing cases the control passes
  bool killed() const { return exit_code == 1 && failures > 0; }
};

// The control's failing case IDs per suite glob: cases the correct table itself fails.
using FailSet = std::set<std::string>;

struct Row {  // one mutant: its replays, up to the first kill
  MutantPlugin m;
  std::vector<Kill> kills;
  bool killed() const {
    return std::any_of(kills.begin(), kills.end(), [](const Kill& k) { return k.killed(); });
  }
  const Kill* first_kill() const {
    for (const Kill& k : kills)
      if (k.killed()) return &k;
    return nullptr;
  }
  // Does the diagnosis line of the first kill name the mutant's bug class (any of its words)?
  bool diagnosis_names_bug() const;
};

struct KillMatrixOptions {
  std::string self;     // the ninfer-conform executable that runs each replay
  std::string corpus;   // --corpus for each replay ("" = the default corpus)
  std::string timeout;  // --timeout for each replay ("" = replay's default)
};

struct KillMatrix {
  std::vector<Row> rows;
  bool corpus_error = false;  // a replay ended on a corpus error (exit 2), not a verdict
  bool all_killed() const;
};

// The mutant-*.so plugins in dir, sorted by path, each opened only to read its self-description
// (include/ninfer_conform/mutant_info.h). false with *error when the folder or a plugin is unusable.
bool discover_mutants(const std::string& dir, std::vector<MutantPlugin>* out, std::string* error);

// Replays each mutant's suites until one kills it. `control_path` is the correct codec's plugin
// ("" or unreadable: every failure counts as a kill, and `warn` says so); `warn` also reports
// cases the control itself fails; `done` is called after each row.
KillMatrix run_kill_matrix(const KillMatrixOptions& options, const std::vector<MutantPlugin>& mutants,
                           const std::string& control_path, const std::function<void(const std::string&)>& warn,
                           const std::function<void(const Row&)>& done);

// The matrix as Markdown (a table and a closing count line) and as JSON.
std::string kill_matrix_markdown(const std::vector<Row>& rows);
std::string kill_matrix_json(const std::vector<Row>& rows);

}  // namespace nc::runners
