// Streaming reader for one suite file (vectors/FORMAT.md, schema version 1). It validates as it
// goes: header order and syntax, column layout, record field counts, every field's syntax
// (corpus/schema.h), id syntax and content hash, sort order (which also catches duplicate ids),
// tags and policies declared, and the declared record count at the end. Every problem is an Error
// naming file, line, case id and rule. The reader holds the suite's whole text (a file is read and
// decompressed in one go, about ten times its compressed size) and a record's fields are views
// into it, so reading a record copies no bytes and, into a reused Record, allocates nothing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "corpus/error.h"
#include "corpus/schema.h"
#include "corpus/sha256.h"
#include "corpus/view_cache.h"
#include "corpus/zstd_io.h"

namespace nc::corpus {

inline constexpr int kSchemaVersion = 1;
inline constexpr std::string_view kMagic = "#ninfer-conform-vectors";

struct SuiteHeader {
  int version = 0;
  std::string suite;
  std::string op;  // whole "#op" value, e.g. "decode E4M3FN"
  std::string about;
  std::string spec;
  std::vector<std::string> columns;                           // id, inputs..., expect, accept, info..., tags, comment
  std::vector<std::pair<std::string, std::string>> tags;      // sorted by name
  std::vector<std::pair<std::string, std::string>> policies;  // sorted by name
  uint64_t records = 0;                                       // declared count

  // Index of a column by name, or -1.
  int column(std::string_view name) const;
  // The input columns are those between `id` and `expect`: the case id hashes exactly these.
  size_t input_count() const;
  std::string_view op_name() const;  // first word of op: "decode", "validate", ...
};

// One record: views into the text of the reader that filled it (or of the SuiteFile holding it),
// valid as long as that lives.
struct Record {
  size_t line = 0;                       // 1-based line in the uncompressed text
  std::vector<std::string_view> fields;  // one per column; the last (comment) may contain spaces
  uint32_t tag_list = 0;                 // its `tags` field's index in the reader's tag_lists()
  std::string_view id() const { return fields.front(); }
};

// Splits a record line into `ncolumns` fields: ncolumns-1 single-space separated fields, then
// the rest of the line as the comment. Exposed for the writer's round-trip and for tests.
Result<std::vector<std::string>> split_record(std::string_view line, size_t ncolumns);
// The same as views into `line`, reusing `fields`' storage; "" or what is wrong.
std::string split_record_into(std::string_view line, size_t ncolumns, std::vector<std::string_view>& fields);

class SuiteReader {
 public:
  struct Totals {
    uint64_t records = 0;
    uint64_t text_bytes = 0;
    std::string text_sha256;        // "" under TextHash::Skip
    uint64_t compressed_bytes = 0;  // 0 for in-memory text
    std::string compressed_sha256;  // "" for in-memory text
  };

  // Whether the uncompressed text is hashed too: verify_corpus, lint and generate --check compare
  // it with the manifest, and so does replay, so that a manifest whose text_sha256 contradicts its
  // compressed_sha256 is refused by every command alike (issue 35).
  enum class TextHash { Compute, Skip };
  // Opens `path` (a .vec.zst file) and reads and validates the header. The file stem must be
  // the header's suite name.
  static Result<std::unique_ptr<SuiteReader>> open(const std::string& path, TextHash text_hash = TextHash::Compute);
  // The same over a file's bytes already read and matched to the manifest's `compressed_sha256`
  // (by verify_files, which keeps them): decompressed without reading or hashing the file again.
  // zstd's frame checksum is still checked: a manifest re-hashed over a damaged file must not pass
  // replay where lint refuses it.
  static Result<std::unique_ptr<SuiteReader>> from_verified(std::string compressed, std::string compressed_sha256,
                                                            const std::string& path, TextHash text_hash);
  // Reads uncompressed text held in memory; `name` is used in errors.
  static Result<std::unique_ptr<SuiteReader>> from_text(std::string text, const std::string& name);

  const SuiteHeader& header() const { return header_; }
  // Fills `r` with the next record and returns true; false after the last one (once the
  // declared count and the end of the text have been checked). After an Error, stop. Pass the
  // same Record again and its storage is reused.
  Result<bool> next(Record& r);
  // Valid once next() has returned false.
  const Totals& totals() const { return totals_; }
  // The distinct `tags` fields of the records read so far, in the order first met: a suite has a
  // handful, so a record names its own by index (Record::tag_list) and replay counts per index.
  const std::vector<std::string_view>& tag_lists() const { return tag_lists_; }
  // The whole uncompressed text, which every Record's fields view.
  const std::shared_ptr<const std::string>& text() const { return text_; }

 private:
  SuiteReader() = default;
  // open and from_verified: decompresses `compressed` (which hashes to `compressed_sha256`) and
  // reads the header, which must name the file.
  static Result<std::unique_ptr<SuiteReader>> from_compressed(std::string compressed, std::string compressed_sha256,
                                                              const std::string& path, TextHash text_hash,
                                                              FrameChecksum checksum);
  // Checks and hashes the text, then reads the header.
  Status start(std::string text, bool hash_text);
  // The next line of the text.
  Result<bool> next_line(std::string_view& line);
  // The line from pos_ to `end` (its '\n', or npos where the text ends first), counted; what is
  // wrong with how it ends, if anything.
  Status take_line(size_t end, std::string_view& line);
  Status read_header();
  Error error(size_t line, std::string case_id, std::string rule) const;
  // Tag or accept list: every name declared, sorted and distinct.
  Status check_names(std::string_view field, const std::vector<std::pair<std::string, std::string>>& declared,
                     const char* what, size_t line, std::string_view id) const;
  // The index of a tag list the cache did not have: found in tag_index_, or checked and added.
  // Out of line, so that next() stays small enough to be compiled as one piece.
  Status intern_tag_list(std::string_view tags, size_t line, std::string_view id, uint32_t* index);
  // Splits up to kAhead more lines into ahead_ and their hashed bytes into messages_; stops at
  // the end of the text (ahead_end_) or at a line in error (ahead_error_).
  void read_ahead();

  std::shared_ptr<const std::string> text_;
  size_t pos_ = 0;                          // where the next line starts
  size_t unprintable_ = std::string::npos;  // the first byte other than printable ASCII and '\n'
  std::string name_;
  SuiteHeader header_;
  size_t line_no_ = 0;
  RecordSchema schema_;
  std::string id_prefix_;     // "<suite>:"
  Sha256WithPrefix id_hash_;  // ids hash "<suite>\n" then the inputs
  size_t accept_col_ = 0;     // expect is the one before; inputs are 1 .. accept_col_ - 2
  std::string_view prev_id_;
  uint64_t prev_digits_ = 0;  // prev_id_'s hash bytes, which order the ids
  size_t prev_line_ = 0;
  // Records split but not yet handed out, with the SHA-256 of what their ids hash.
  static constexpr size_t kAhead = 16;
  std::vector<Record> ahead_;
  std::string_view messages_[kAhead];
  unsigned char digests_[kAhead][32];
  size_t ahead_next_ = 0, ahead_count_ = 0;
  bool ahead_end_ = false;
  std::optional<Error> ahead_error_;
  // Tag lists found well-formed, by index in tag_lists_, and accept lists found well-formed:
  // records repeat a few. The cache is looked up first; the map (which the cache may have lost
  // a list from) when it misses.
  ViewCache<uint32_t> tag_index_cache_;
  std::map<std::string_view, uint32_t> tag_index_;
  std::vector<std::string_view> tag_lists_;
  ViewCache<bool> good_accept_;
  Totals totals_;
};

// Reads every record of a suite file (convenience for small suites, tests and tools).
struct SuiteFile {
  SuiteHeader header;
  std::shared_ptr<const std::string> text;  // what the records' fields view
  std::vector<Record> records;
  SuiteReader::Totals totals;
};
Result<SuiteFile> read_suite(const std::string& path);
Result<SuiteFile> read_suite_text(std::string text, const std::string& name);

}  // namespace nc::corpus
