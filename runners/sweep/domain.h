// A sweep domain: a complete, enumerable input space for one capability (every binary32 word for
// a recipe conversion, every word of a small word type, every (scale, code) pair of a
// reconstruction). Index i in [0, size) names one input; the domain runs a target on a range of
// indices and compares each result with the integer reference in oracle/fastref.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ninfer_conform/plugin.h"
#include "runners/table_calls.h"

namespace nc::sweep {

struct Mismatch {
  uint64_t index;
  std::string mismatch_class;      // e.g. "subnormal-input:flushed"
  std::vector<std::string> input;  // the op's input fields (vectors/FORMAT.md)
  std::string expected, actual;
};

// One cell of a domain's picture (runners/html_certificate.h): a block of inputs and what they gave.
struct Cell {
  uint64_t judged = 0, mismatches = 0, accepted = 0;  // accepted: passed under a policy
  bool operator==(const Cell&) const = default;
};

// A sweep thread's counts per cell of the domain's grid (element k: cell k; empty where the domain
// has none), made before the thread's first call and summed over every range it runs. Nothing is
// allocated for them between calls: a map node made there lands in the thread's malloc arena
// among the target's result buffers, so a freed result fits nowhere and each call's result is
// written to fresh pages (an in-process PyTorch F16 sweep's threads took 15 to 75 page faults a call).
using CellCounts = std::vector<Cell>;

// How a domain's inputs fall into cells: a grid of `columns` x `rows`, cell = column * rows + row
// (column-major, so a binary32 cell is its input's top bits). columns == 0: the domain has no picture.
struct Grid {
  std::string layout;  // "binary32", "word", "scale-code"
  uint64_t columns = 0, rows = 0;
  std::string across, down;  // what a column and a row are, in words
  uint64_t cells() const { return columns * rows; }
};

// What a range of a domain produced. Mismatches keep the first `keep` by index, per class.
struct Tally {
  uint64_t covered = 0;
  uint64_t unsupported = 0;  // inputs the target declined (NC_EUNSUPPORTED)
  uint64_t errored = 0;      // inputs of batches the target failed (another error status)
  // Indices of the domain that are no valid input (reconstruct: an invalid scale word, W8's code
  // 0x80), skipped rather than sent: with them, covered can be every valid input.
  uint64_t invalid = 0;
  std::vector<std::pair<std::string, uint64_t>> class_counts;  // sorted by class name
  // Inputs whose result differs from the reference but is the documented alternative of a policy
  // the corpus grants for the same inputs (vectors/FORMAT.md `#policy`), by policy name, sorted.
  // They are not mismatches: replay reports such a target "conformant under policy P".
  std::vector<std::pair<std::string, uint64_t>> accepted;
  // How those inputs' results depart from the reference's NaN ("NaN sign dropped" -> n; one input
  // may count under several), by name, sorted: the sweep's departure profile.
  std::vector<std::pair<std::string, uint64_t>> departures;
  std::vector<Mismatch> first;  // sorted by index
  std::string target_error;     // the first failure; the word domains go on past a failed batch, the others stop
  // The coarse per-cell tally the pictures draw (Domain::grid), by cell; cells nothing reached are absent.
  std::map<uint64_t, Cell> cells;
  uint64_t mismatches() const;  // the sum of class_counts
  void count(const Mismatch& m, size_t keep);
  // The index of cls in class_counts, added with count 0 if new (indices after it move up).
  size_t class_slot(const std::string& cls);
  void accept(const std::string& policy, uint64_t n);
  void depart(const std::string& how, uint64_t n);
  void add_cell(uint64_t cell, const Cell& counts);  // to cells; none added where counts are all 0
  void merge(const Tally& other, size_t keep);
};

// Which known profile a conversion's results on the class sample match (runners/sweep/profiles.h):
// each candidate (the recipes of the same destination, and the recipe with one classic mistake:
// truncation, ties away, FTZ, DAZ, double rounding, NaN canonicalised, saturation, overflow at the
// largest finite value) with the sample inputs it differs on.
struct ProfileResult {
  struct Candidate {
    std::string name, about;
    uint64_t differ = 0;
    std::vector<std::pair<std::string, uint64_t>> by_input;  // differing inputs by input class
  };
  uint64_t sample = 0;                // 0: not identified
  std::vector<Candidate> candidates;  // in catalogue order, the recipes first
  // The first candidate that matches every sample input; failing that, the first that does apart
  // from giving another NaN where it gives a NaN (the summary says which); or "".
  std::string exact;
  std::string nearest;  // otherwise the candidate that differs on the fewest
  std::string summary;  // the above in words
};

// What presenting a sample of a domain in other batch geometries showed (runners/sweep/geometry.cc,
// runners/README.md): the same inputs in batches of every length 1..64 and at unaligned start
// offsets, each result compared with the one the same input got in a full, aligned batch.
struct GeometryResult {
  std::vector<std::string> tried;   // the geometries, in words
  uint64_t sample = 0;              // inputs in the sample (0: no geometry pass ran)
  std::string sample_about;         // which inputs, in words
  uint64_t presented = 0;           // inputs judged over all geometries (the full batch included)
  uint64_t position_dependent = 0;  // sample inputs whose result changes with where they sit
  // Mismatches (results no policy allows) that only other geometries gave, by class.
  std::vector<std::pair<std::string, uint64_t>> classes;
  std::string finding;  // the position dependence in words; "" when none
  struct Example {
    std::string input, full, other, where;  // the result in a full batch, and elsewhere
  };
  std::vector<Example> first;  // the first position-dependent inputs (at most 8)
  std::string target_error;    // a batch the target failed: the pass stopped there
  ProfileResult profile;       // the full-batch results of the sample against the known profiles
  // No mismatch and no failed batch in any geometry. A position-dependent input whose results are
  // all allowed (two NaNs nan-any accepts) is reported in `finding` but does not make it unclean.
  bool clean() const { return classes.empty() && target_error.empty(); }
};

// The batch a word domain's counts are made in: a failed call of a longer batch is asked again
// this many inputs at a time, so a refused input costs the inputs of its unit whatever the batch
// (a report does not depend on it), and the pipe protocol's requests are this long (PIPE.md).
constexpr size_t kUnitBatch = size_t(1) << 16;

// How a word domain calls the target; the reports are the same whatever these are.
struct Calls {
  size_t batch = kUnitBatch;  // the most inputs one call carries: a multiple of kUnitBatch
  // Used by the convert domains instead of the table's convert where set (an in-process target's
  // results judged at their own width; runners/table_calls.h).
  runners::ConvertWords convert_words = nullptr;
};

class Domain {
 public:
  virtual ~Domain() = default;
  virtual std::string name() const = 0;
  virtual uint64_t size() const = 0;
  // The "#op" this domain's mismatches replay as (vectors/FORMAT.md), e.g. "convert F32_TO_F16_RNE".
  virtual std::string op() const = 0;
  // Runs indices begin, begin+stride, ... < end; appends to tally, and counts the inputs per cell in
  // cells (grid().cells() of them), not in tally.cells. calls: how a domain of one
  // word an input (convert.*, decode.*) calls the target; the other domains call as their elements need.
  virtual void run(const nc_plugin_v1& target, uint64_t begin, uint64_t end, uint64_t stride, size_t keep,
                   const Calls& calls, Tally& tally, CellCounts& cells) const = 0;
  // Presents the domain's class sample in other batch geometries; false: this domain has none
  // (reconstruct.*, encode.*: their elements are not SIMD lanes of one word each).
  virtual bool geometry(const nc_plugin_v1& target, GeometryResult* out) const {
    (void)target, (void)out;
    return false;
  }
  // The grid run() tallies cells on; none (columns 0) by default.
  virtual Grid grid() const { return {}; }
};

// Every domain this build knows, by name ("convert.F32_TO_BF16_RNE", "decode.E4M3FN", ...).
std::vector<std::string> domain_names();
std::unique_ptr<Domain> make_domain(const std::string& name);

// The size of the encode.* domains: random groups per scheme (default 65536).
void set_encode_groups(uint64_t groups);

}  // namespace nc::sweep
