// Says what a suite's failures have in common: the tags that are over-represented among the
// failures, each mapped to the likely cause. The runner's own table names well-known bugs;
// otherwise the suite's #tag line (which states the bug the tag targets) is the cause.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "runners/results.h"
#include "corpus/reader.h"

namespace nc::runners {

// How often one tag occurs among the failing cases and among all replayed cases of a suite.
struct TagLift {
  std::string tag;
  size_t in_failures = 0, in_replayed = 0;
};

// The tags worth naming, best first. A tag carried by nearly every case of the suite
// (`partial-group` in encode, `rank-2` in validate-tensor) says nothing about a failure, so tags
// are ranked by lift, (in_failures / failures) / (in_replayed / replayed cases), not by raw count
// (the two totals are common to every tag, so only the per-tag counts are needed). Only
// tags carried by at least a quarter of the failures (and at least one) compete, so a rare tag on
// one stray failure cannot outrank the class most failures share; equal lifts rank by count, then
// name. `in_replayed` counts every replayed case (failures included); a failure tag missing from
// it is counted as carried by the failures alone.
std::vector<TagLift> rank_tags_by_lift(const std::map<std::string, size_t>& in_failures, size_t failures,
                                       const std::map<std::string, size_t>& in_replayed);

std::vector<std::string> diagnose(const corpus::SuiteHeader& suite, const SuiteResult& result);
// The built-in cause for a tag, or "" when the table has none.
std::string known_cause(const std::string& tag);

}  // namespace nc::runners
