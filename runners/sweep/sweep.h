// Exhaustive sweeps: run a target over a whole domain (or a deterministic shard or stride of it)
// against the integer reference, count every mismatch by class, keep the first of each class.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "runners/sweep/domain.h"

namespace nc::sweep {

struct Shard {
  uint64_t index = 0, count = 1;  // shard `index` of `count`, zero-based as GTEST_SHARD_INDEX
};

struct Options {
  unsigned jobs = 1;
  Shard shard;
  uint64_t stride = 1;
  size_t keep = 16;  // first mismatches kept per class
  bool progress = false;
  // Also present the domain's class sample at batch lengths 1..64 and unaligned offsets (shard 0
  // of a sharded sweep does it, once); false skips it (sweep --no-geometry, to measure its cost).
  bool geometry = true;
  // How the word domains call the target (domain.h): calls.batch at most a chunk (2^22 inputs).
  // The reports are the same for any; sweep_target sets what a registered table asks for
  // (runners/table_calls.h).
  Calls calls;
};

struct Report {
  // reference: the build whose domains and integer reference judged the target (the sweep's
  // counterpart of a corpus); shards of different references do not merge.
  std::string domain, op, target, target_name, target_version, reference;
  uint64_t domain_size = 0;
  Shard shard;
  uint64_t stride = 1;
  size_t keep = 16;  // first mismatches kept per class
  Grid grid;         // the domain's picture; tally.cells counts on it
  Tally tally;
  GeometryResult geometry;  // sample 0: no geometry pass
};

// The "cells" member of a report and of a certificate's sweep: the grid, and per cell (in cell
// order, column-major) its judged, mismatching and policy-passing inputs, each list run-length
// coded as space-separated "V" or "V*N" (N cells of value V): "524288*8192" is 8192 cells of 524288.
// Null when the domain has no grid.
nlohmann::ordered_json cells_json(const Report& r);
// Reads cells_json's member back into r->grid and r->tally.cells; throws corpus::JsonError.
void cells_from_json(const nlohmann::json& j, Report* r);
std::string encode_runs(const std::vector<uint64_t>& values);
// false when the text is not runs of exactly n values.
bool decode_runs(const std::string& text, size_t n, std::vector<uint64_t>* values);

// What this build's reports name as their reference ("ninfer-conform <version>").
std::string reference_name();

// The index range [begin, end) of a shard: contiguous, so merging shards in order equals one run.
std::pair<uint64_t, uint64_t> shard_range(uint64_t size, Shard s);

// Runs the domain on an in-process ABI table, split over opts.jobs threads.
Report run(const Domain& d, const nc_plugin_v1& target, const std::string& target_spec, const Options& opts);

std::string to_json(const Report& r);
// A geometry pass as reports and certificate.json write it.
nlohmann::ordered_json geometry_json(const GeometryResult& g);
// Parses a report written by to_json; on failure returns false and sets *error.
bool from_json(const std::string& text, Report* r, std::string* error);
// Reads a file sweep --json or merge --json wrote: one report, or an array of them.
bool read_reports(const std::string& path, std::vector<Report>* out, std::string* error);

// A report and the file it came from, which merge's refusals name.
struct ShardReport {
  std::string file;
  Report report;
};
// Joins the shard reports of one sweep into the reports of the unsharded run, one per domain in the
// order the domains first appear. Refuses, with *error naming the files, reports of another
// target, reference, stride, keep or domain size; a shard that judged nothing and carries only a
// target error; and shards whose input ranges leave a gap (missing), repeat (duplicated) or
// overlap. Shards of different counts merge when their ranges tile the domain.
bool merge(const std::vector<ShardReport>& shards, std::vector<Report>* out, std::string* error);

}  // namespace nc::sweep
