// Canonical suite text and atomic corpus writes (vectors/FORMAT.md). One corpus, one byte
// sequence: records sorted by id, headers in the fixed order, tags and policies sorted, the
// `#records` count filled in. Files are written through temp files renamed into place, the
// manifest last, so an interrupted run never leaves a half-written file under a real name.
#pragma once

#include <string>
#include <vector>

#include "corpus/error.h"
#include "corpus/manifest.h"
#include "corpus/reader.h"

namespace nc::corpus {

struct RenderedSuite {
  std::string name;
  std::string text;        // canonical uncompressed text
  std::string compressed;  // zstd frame of `text`; empty until compress() (slow at level 19)
  uint64_t records = 0;
  void compress();
  ManifestEntry entry() const;  // sizes and hashes for the manifest; needs compress()
};

// Sorts records by id (fields[0]), sorts header tags/policies, sets header.records, renders
// the text and reads it back through SuiteReader, so whatever is rendered is also valid: a bad
// column count, an undeclared tag, a duplicate id or a wrong id is an Error here, not in a user's
// hands.
Result<RenderedSuite> render_suite(SuiteHeader header, std::vector<std::vector<std::string>> records);

// Writes `bytes` to `path` via a temp file in the same directory, fsync, rename.
Status write_file_atomic(const std::string& path, const std::string& bytes);

// Writes the suites (in name order) and then the manifest into `dir`, which is created if
// needed. All suite files are first written to temp files; only when every one is on disk are
// they renamed into place, then the manifest. `manifest.suites` is replaced by the entries of
// `suites` merged with any entries already in it for suites not being written.
Status write_corpus(const std::string& dir, const std::vector<RenderedSuite>& suites, Manifest manifest);

}  // namespace nc::corpus
