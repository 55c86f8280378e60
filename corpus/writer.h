// Canonical suite text and atomic corpus writes (vectors/FORMAT.md). One corpus, one byte
// sequence: records sorted by id, headers in the fixed order, tags and policies sorted, the
// `#records` count filled in. A corpus is replaced as a whole (write_corpus), never half-written.
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

// Writes all of `bytes` to the open descriptor `fd`, resuming after signals; false with errno set.
bool write_all(int fd, const std::string& bytes);

// Writes `bytes` to `path` via a temp file in the same directory, fsync, rename.
Status write_file_atomic(const std::string& path, const std::string& bytes);

// Writes the suites and the manifest into `dir` (created if needed) so that `dir` is always either
// the old corpus byte for byte or the complete new one, whatever kills the process when: the new
// corpus is assembled (files kept from the old one, new suites, manifest; all fsynced) in a
// staging directory beside `dir`, then swapped in with one atomic exchange (renameat2). One writer
// per corpus at a time: a second one, while the first holds the lock file `.<dir name>.lock`
// beside `dir`, is refused and changes nothing. `manifest.suites` is replaced by the entries of `suites` merged with
// any entries already in it for suites not being written; with `drop_unlisted`, *.vec.zst files of the old corpus that
// are not being written are left out (a full regeneration).
Status write_corpus(const std::string& dir, const std::vector<RenderedSuite>& suites, Manifest manifest,
                    bool drop_unlisted = false);

}  // namespace nc::corpus
