// `lint`: everything a committed corpus must satisfy, as a list of one-line Errors: the manifest
// parses; every listed file is present with the listed size, hashes and record count; each suite
// passes the reader's rules (schema, header order, ids, duplicates, sort order, declared vs
// found counts, tags/policies); each suite's text is byte-for-byte the canonical rendering of
// its own records; and every tag whose property is checkable holds (corpus/tag_truth.h).
#pragma once

#include <string>
#include <vector>

#include "corpus/error.h"

namespace nc::corpus {

struct LintReport {
  std::vector<Error> errors;
  size_t suites = 0;
  uint64_t records = 0;
};

LintReport lint_corpus(const std::string& dir);

// The first line where two texts differ (1-based), or 0 when equal.
size_t first_differing_line(const std::string& a, const std::string& b);

}  // namespace nc::corpus
