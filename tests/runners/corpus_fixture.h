// A small hand-made corpus for the runner tests, in vectors/FORMAT.md syntax. Every expected value
// is derived by hand from the spec (E4M3FN: numeric-formats.txt 3.3; W8 codes: section 5) and
// noted beside its record, never produced by code under test.
#pragma once

#include <string>

namespace nc::runners::test {

// Writes the suites and MANIFEST.json into a fresh temporary directory and returns its path.
std::string make_corpus();
// One suite, convert.F32_TO_BF16_RNE: a normal number and five NaN sources, each expectation by hand
// from docs/recipes.md's BF16 NaN rule, every NaN record granting nan-any.
std::string make_nan_corpus();
// A fresh folder beside the corpus (CORPUS.out) for the reports and certificates of a run on it:
// the runner refuses any output inside the corpus folder it reads. The same folder on every call.
std::string reports_dir(const std::string& corpus);
std::string read_text(const std::string& path);
void write_text(const std::string& path, const std::string& bytes);
// Runs a shell command; returns its exit status (-1 if it did not exit normally).
int run_status(const std::string& command);

}  // namespace nc::runners::test
