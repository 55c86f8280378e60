// Writers for a replay's results: the terminal summary, --json and --junit. Files are written to a
// temporary name and renamed, so a report is whole or absent.
#pragma once

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "runners/results.h"

namespace nc::runners {

// Per-suite summary, then up to max_failures failures per suite, then the diagnosis lines.
void print_summary(FILE* out, const ReplayResult& r, size_t max_failures);
std::string report_json(const ReplayResult& r);
// The "scope" object of --json and certificate.json: runners/scope.h's Scope and the requirements.
nlohmann::ordered_json scope_json(const ReplayResult& r);
// A suite's batch geometry (short requests, position-dependent cases, at most max_listed of them).
nlohmann::ordered_json suite_geometry_json(const SuiteResult& s, size_t max_listed);
std::string report_junit(const ReplayResult& r);
// Readable form of a result token: a binary32 word's exact value, else the token itself.
std::string decoded(ResultType type, const std::string& token);

}  // namespace nc::runners
