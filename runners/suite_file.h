// Reads one corpus suite (vectors/FORMAT.md): zstd frames, header lines, records split into their
// columns. Errors are values naming the file, line and rule broken. This is the runner's own
// minimal reader, kept until corpus/reader.h lands and replaces it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nc::runners {

struct SuiteRecord {
  size_t line = 0;                       // 1-based line in the uncompressed text
  std::vector<std::string_view> fields;  // one per #columns entry; the last is the comment
  std::string_view field(const std::vector<std::string>& columns, std::string_view name) const;
};

struct Suite {
  std::string path;
  std::string text;                  // the uncompressed file; records point into it
  std::string name;                  // #suite
  std::string op;                    // #op, e.g. "decode E4M3FN"
  std::vector<std::string> columns;  // #columns
  std::map<std::string, std::string> tags, policies;  // #tag / #policy name -> description
  std::vector<SuiteRecord> records;
  int column(std::string_view name) const;  // index in columns, -1 when absent
};

// Decompresses and parses path; false with a one-line *error ("FILE:LINE: rule broken").
bool read_suite(const std::string& path, Suite* out, std::string* error);
bool parse_suite_text(std::string path, std::string text, Suite* out, std::string* error);
// zstd of the whole buffer (tests write their own small suites with it).
bool zstd_decompress(const std::string& compressed, std::string* out, std::string* error);
std::string zstd_compress(const std::string& text);

}  // namespace nc::runners
