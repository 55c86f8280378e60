// What changed between two corpora (`ninfer-conform diff OLD NEW`): suites added and removed,
// and, per suite present in both, records added and removed (by case id, which hashes a record's
// inputs), records whose expectation (expect or accept) changed, records whose annotations (info
// columns, tags, comment) changed, and header changes. Every file of both corpora is first checked
// against its manifest (size and compressed SHA-256), and the bytes it matched are kept; a suite
// whose verified files are the same bytes in both is identical and not read further; otherwise both
// are decompressed from those bytes (no file is read twice) and walked side by side (records are
// sorted by id), each checked against its manifest's text hash and record count at its end.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "corpus/error.h"

namespace nc::corpus {

struct ExpectationChange {
  std::string id, old_expect, new_expect, old_accept, new_accept, comment;  // comment of the new record
};

struct SuiteDiff {
  std::string suite;
  bool in_old = true, in_new = true;
  uint64_t old_records = 0, new_records = 0;
  uint64_t added = 0, removed = 0, annotated = 0;  // annotated: same expectation, other info/tags/comment
  std::vector<std::string> added_ids, removed_ids, annotated_ids;  // the first `limit` of each, in id order
  std::map<std::string, uint64_t> added_tags, removed_tags;        // tag -> added/removed records carrying it
  std::vector<ExpectationChange> changed;                          // every changed expectation
  std::vector<std::string> header_changes;                         // "#about", "#tag X reworded", ...
  bool identical() const {
    return in_old && in_new && !added && !removed && !annotated && changed.empty() && header_changes.empty();
  }
};

struct CorpusDiff {
  std::string old_dir, new_dir;
  std::vector<SuiteDiff> suites;  // every suite of either corpus, by name (identical ones included)
  bool identical() const;
};

// `limit` bounds the id lists (0: no bound); counts and changed expectations are always complete.
Result<CorpusDiff> diff_corpora(const std::string& old_dir, const std::string& new_dir, size_t limit);

// Human text (identical suites summarised on one line) and JSON (every suite).
std::string diff_text(const CorpusDiff& d);
std::string diff_json(const CorpusDiff& d);

}  // namespace nc::corpus
