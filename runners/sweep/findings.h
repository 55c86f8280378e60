// Turns a sweep's first mismatches into a replayable corpus: one suite in the corpus format
// (vectors/FORMAT.md) plus its manifest, so `replay --corpus DIR` runs exactly those cases.
#pragma once

#include <string>
#include <vector>

#include "corpus/error.h"
#include "runners/sweep/sweep.h"

namespace nc::sweep {

// Writes DIR/<suite>.vec.zst and DIR/MANIFEST.json (merged with suites already listed there).
// The suite is named "sweep.<domain>", or "sweep.<domain>.shard-K-of-N" for shard K of N (so that
// the shards of one sweep can share a folder); each record's expectation is the reference's.
nc::corpus::Status write_findings(const std::string& dir, const std::vector<Report>& reports);

}  // namespace nc::sweep
