// Says what a suite's failures have in common: failures grouped by tag, each tag mapped to the
// likely cause. The runner's own table names well-known bugs; otherwise the suite's #tag line
// (which states the bug the tag targets) is the cause.
#pragma once

#include <string>
#include <vector>

#include "runners/replay.h"
#include "corpus/reader.h"

namespace nc::runners {

std::vector<std::string> diagnose(const corpus::SuiteHeader& suite, const SuiteResult& result);
// The built-in cause for a tag, or "" when the table has none.
std::string known_cause(const std::string& tag);

}  // namespace nc::runners
