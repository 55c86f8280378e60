#include "corpus/reader.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "corpus/same_bytes.h"
#include "corpus/sha256.h"
#include "corpus/zstd_io.h"

namespace nc::corpus {

int SuiteHeader::column(std::string_view name) const {
  for (size_t i = 0; i < columns.size(); ++i)
    if (columns[i] == name) return static_cast<int>(i);
  return -1;
}

size_t SuiteHeader::input_count() const {
  int e = column("expect");
  return e > 0 ? static_cast<size_t>(e) - 1 : 0;
}

std::string_view SuiteHeader::op_name() const {
  std::string_view o = op;
  return o.substr(0, o.find(' '));
}

namespace {

// Bits k where text[base + k] is a space, and where it is a newline, for the up to 64 bytes
// from `base` (a record line is about 100 bytes: two steps).
void spaces_and_newlines_at(std::string_view text, size_t base, uint64_t* spaces, uint64_t* newlines) {
#if defined(__SSE2__)
  if (base + 64 <= text.size()) {
    uint64_t sp = 0, nl = 0;
    for (int q = 0; q < 4; ++q) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + base + 16 * size_t(q)));
      sp |= uint64_t(uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(' '))))) << (16 * q);
      nl |= uint64_t(uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('\n'))))) << (16 * q);
    }
    *spaces = sp, *newlines = nl;
    return;
  }
#endif
  *spaces = *newlines = 0;
  for (size_t k = base; k < text.size() && k < base + 64; ++k) {
    *spaces |= uint64_t(text[k] == ' ') << (k - base);
    *newlines |= uint64_t(text[k] == '\n') << (k - base);
  }
}

std::string empty_field(size_t i) {
  return "empty field " + std::to_string(i + 1) + " (only `comment` may be empty; write `-` for an absent value)";
}

// Splits the line that starts at text[pos] into `ncolumns` fields (as split_record_into) and
// returns where it ends: the index of its '\n', or npos when the text ends first (the line is
// then the rest of the text). What is wrong with its fields goes to *why. The spaces and the line
// end are found in one pass, 64 bytes at a time, reading on past the line within the text.
size_t split_line(std::string_view text, size_t pos, size_t ncolumns, std::vector<std::string_view>& fields,
                  std::string* why) {
  if (fields.size() != ncolumns) fields.resize(ncolumns);
  // Locals, not the vector and *why: stores through them would make the compiler reload both.
  std::string_view* const out = fields.data();
  const size_t last = ncolumns - 1;
  size_t i = 0, start = pos, end = std::string_view::npos;
  bool empty = false;
  for (size_t base = pos; base < text.size(); base += 64) {
    uint64_t spaces, newlines;
    spaces_and_newlines_at(text, base, &spaces, &newlines);
    if (newlines) {
      const unsigned at = unsigned(__builtin_ctzll(newlines));
      end = base + at;
      spaces &= (uint64_t(1) << at) - 1;  // spaces of later lines are not this line's
    }
    // Field i ends at the i-th space; the comment is the rest of the line.
    for (; spaces != 0 && i < last && !empty; spaces &= spaces - 1) {
      const size_t sp = base + size_t(__builtin_ctzll(spaces));
      empty = sp == start;
      out[i++] = std::string_view(text.data() + start, sp - start);
      start = sp + 1;
    }
    if (end != std::string_view::npos) break;
  }
  if (empty) *why = empty_field(i - 1);
  const size_t line_end = end == std::string_view::npos ? text.size() : end;
  if (why->empty() && i + 1 < ncolumns) {
    // Out of spaces: only the comment may be missing, empty, with its separating space.
    if (i + 2 != ncolumns)
      *why = "record has " + std::to_string(i + 1) + " fields, the header declares " + std::to_string(ncolumns) +
             " columns";
    else if (start == line_end) *why = empty_field(i);
    else fields[i++] = std::string_view(text.data() + start, line_end - start), start = line_end;
  }
  if (why->empty()) fields[ncolumns - 1] = std::string_view(text.data() + start, line_end - start);
  return end;
}

}  // namespace

std::string split_record_into(std::string_view line, size_t ncolumns, std::vector<std::string_view>& fields) {
  std::string why;
  split_line(line, 0, ncolumns, fields, &why);
  return why;
}

Result<std::vector<std::string>> split_record(std::string_view line, size_t ncolumns) {
  std::vector<std::string_view> fields;
  std::string why = split_record_into(line, ncolumns, fields);
  if (!why.empty()) return Error{"", 0, "", why};
  return std::vector<std::string>(fields.begin(), fields.end());
}

Error SuiteReader::error(size_t line, std::string case_id, std::string rule) const {
  return Error{name_, line, std::move(case_id), std::move(rule)};
}

namespace {

// The first byte of `text` that is neither printable ASCII (0x20-0x7e) nor '\n', or npos. Sixteen
// bytes at a time: as signed bytes, everything below 0x20 (0x80-0xff included) is bad but '\n',
// and so is 0x7f. A pass over a suite then costs a few percent of reading it.
size_t first_unprintable(std::string_view text) {
  const auto bad = [](unsigned char c) { return uint8_t(c - 0x20) > 0x5e && c != '\n'; };
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20), newline = _mm_set1_epi8('\n'), del = _mm_set1_epi8(0x7f);
  for (; i + 16 <= text.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + i));
    const __m128i low = _mm_andnot_si128(_mm_cmpeq_epi8(v, newline), _mm_cmplt_epi8(v, space));
    if (_mm_movemask_epi8(_mm_or_si128(low, _mm_cmpeq_epi8(v, del)))) break;
  }
#endif
  for (; i < text.size(); ++i)
    if (bad(static_cast<unsigned char>(text[i]))) return i;
  return std::string_view::npos;
}

}  // namespace

Status SuiteReader::start(std::string text, bool hash_text) {
  totals_.text_bytes = text.size();
  if (hash_text) totals_.text_sha256 = sha256_hex(text);
  unprintable_ = first_unprintable(text);
  text_ = std::make_shared<const std::string>(std::move(text));
  return read_header();
}

Result<bool> SuiteReader::next_line(std::string_view& line) {
  const std::string_view text = *text_;
  if (pos_ == text.size()) return false;
  if (Status s = take_line(text.find('\n', pos_), line)) return *s;
  return true;
}

Status SuiteReader::take_line(size_t end, std::string_view& line) {
  const std::string_view text = *text_;
  ++line_no_;
  if (end == std::string_view::npos)
    return error(line_no_, "", "last line has no terminating newline (file truncated?)");
  line = std::string_view(text.data() + pos_, end - pos_);
  const size_t start = pos_;
  pos_ = end + 1;
  if (unprintable_ >= end) return std::nullopt;
  if (unprintable_ == end - 1 && line.back() == '\r')
    return error(line_no_, "", "carriage return at end of line (lines end with \\n only)");
  char byte[8];
  std::snprintf(byte, sizeof byte, "0x%02x", unsigned(static_cast<unsigned char>(text[unprintable_])));
  return error(line_no_, "",
               std::string("byte ") + byte + " at column " + std::to_string(unprintable_ - start + 1) +
                   ": a suite's lines are printable ASCII (0x20 to 0x7e)");
}

namespace {

bool sorted_unique_names(const std::vector<std::pair<std::string, std::string>>& v) {
  for (size_t i = 1; i < v.size(); ++i)
    if (!(v[i - 1].first < v[i].first)) return false;
  return true;
}

bool parse_u64(std::string_view s, uint64_t& out) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// The two lowercase hex digits of every byte, looked up rather than computed per digit.
struct HexPairs {
  char digits[256][2];
  constexpr HexPairs() : digits{} {
    constexpr char kHex[] = "0123456789abcdef";
    for (int b = 0; b < 256; ++b) digits[b][0] = kHex[b >> 4], digits[b][1] = kHex[b & 15];
  }
};
constexpr HexPairs kHexPairs;

bool is_lower_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

Status SuiteReader::read_header() {
  // Header keys in their required order; tag and policy repeat (zero or more times).
  static constexpr std::string_view kOrder[] = {
      "ninfer-conform-vectors", "suite", "op", "about", "spec", "columns", "tag", "policy", "records"};
  size_t stage = 0;
  std::string_view line;
  for (;;) {
    Result<bool> got = next_line(line);
    if (!got) return got.error();
    if (!*got)
      return error(line_no_, "", stage == 0 ? "empty suite text (no header)" : "header ends before `#records`");
    if (line.empty() || line[0] != '#') {
      return error(line_no_, "",
                   "expected header line `#" + std::string(kOrder[std::min<size_t>(stage, 8)]) +
                       "`, found a record (headers must end with `#records N`)");
    }
    size_t sp = line.find(' ');
    std::string key(line.substr(1, sp == std::string::npos ? std::string::npos : sp - 1));
    std::string value(sp == std::string::npos ? "" : line.substr(sp + 1));
    size_t at = std::find(std::begin(kOrder), std::end(kOrder), key) - std::begin(kOrder);
    if (at == std::size(kOrder)) return error(line_no_, "", "unknown header `#" + key + "`");
    // A key may repeat only if it is #tag or #policy, and may skip ahead only over those two.
    bool repeatable = key == "tag" || key == "policy";
    bool in_order = line_no_ == 1 ? at == 0 : (at == stage ? repeatable : at > stage);
    for (size_t k = stage + 1; in_order && k < at; ++k) in_order = kOrder[k] == "tag" || kOrder[k] == "policy";
    if (!in_order) {
      // A required header skipped is named as missing; anything else is out of order.
      std::string missing = line_no_ == 1 ? std::string(kOrder[0]) : "";
      for (size_t k = stage + 1; line_no_ > 1 && k < at && missing.empty(); ++k)
        if (kOrder[k] != "tag" && kOrder[k] != "policy") missing = kOrder[k];
      return error(line_no_, "",
                   (missing.empty() ? "header `#" + key + "` out of order"
                                    : "header `#" + missing + "` missing before `#" + key + "`") +
                       " (required order: #ninfer-conform-vectors #suite #op #about #spec #columns #tag* "
                       "#policy* #records)");
    }
    if (value.empty()) return error(line_no_, "", "header `#" + key + "` has no value");
    stage = at;
    if (key == "ninfer-conform-vectors") {
      if (value != std::to_string(kSchemaVersion))
        return error(line_no_, "",
                     "unsupported schema version `" + value + "` (this reader reads version " +
                         std::to_string(kSchemaVersion) + ")");
      header_.version = kSchemaVersion;
    } else if (key == "suite") {
      header_.suite = value;
      id_prefix_ = value + ":";
      id_hash_ = Sha256WithPrefix(value + '\n');
    } else if (key == "op") {
      header_.op = value;
    } else if (key == "about") {
      header_.about = value;
    } else if (key == "spec") {
      header_.spec = value;
    } else if (key == "columns") {
      auto cols = split_record(value, static_cast<size_t>(std::count(value.begin(), value.end(), ' ')) + 1);
      if (!cols) return error(line_no_, "", "bad #columns: " + cols.error().rule);
      header_.columns = *cols;
      const auto& c = header_.columns;
      int e = header_.column("expect");
      if (c.size() < 6 || c.front() != "id" || c.back() != "comment" || c[c.size() - 2] != "tags" || e < 2 ||
          static_cast<size_t>(e) + 1 >= c.size() || c[static_cast<size_t>(e) + 1] != "accept") {
        return error(line_no_, "",
                     "bad #columns `" + value + "` (must be: id <inputs...> expect accept <info...> tags comment)");
      }
      // #op came before: the columns must be the op's, and fix how each field is checked.
      Result<RecordSchema> schema = RecordSchema::compile(header_);
      if (!schema) return error(line_no_, "", schema.error().rule);
      schema_ = *schema;
      accept_col_ = static_cast<size_t>(e) + 1;
    } else if (key == "tag" || key == "policy") {
      size_t s2 = value.find(' ');
      if (s2 == std::string::npos || s2 + 1 >= value.size())
        return error(line_no_, "",
                     "`#" + key + " " + value + "` has no definition (write `#" + key + " NAME what it means`)");
      auto& list = key == "tag" ? header_.tags : header_.policies;
      list.emplace_back(value.substr(0, s2), value.substr(s2 + 1));
      if (!sorted_unique_names(list))
        return error(line_no_, "",
                     "#" + key + " `" + list.back().first + "` is " +
                         (list.size() > 1 && list[list.size() - 2].first == list.back().first
                              ? "defined twice"
                              : "out of order (sorted by name)"));
    } else if (key == "records") {
      if (!parse_u64(value, header_.records))
        return error(line_no_, "", "#records `" + value + "` is not a decimal count");
      return std::nullopt;
    }
  }
}

Result<std::unique_ptr<SuiteReader>> SuiteReader::open(const std::string& path, TextHash text_hash) {
  Result<std::string> compressed = read_file(path);
  if (!compressed) return compressed.error();
  std::string sha = sha256_hex(*compressed);
  return from_compressed(std::move(*compressed), std::move(sha), path, text_hash, FrameChecksum::Verify);
}

Result<std::unique_ptr<SuiteReader>> SuiteReader::from_verified(std::string compressed, std::string compressed_sha256,
                                                                const std::string& path, TextHash text_hash) {
  // The frame checksum is checked all the same: a manifest re-hashed over a damaged file must not get
  // past replay when lint refuses it.
  return from_compressed(std::move(compressed), std::move(compressed_sha256), path, text_hash, FrameChecksum::Verify);
}

Result<std::unique_ptr<SuiteReader>> SuiteReader::from_compressed(std::string compressed, std::string compressed_sha256,
                                                                  const std::string& path, TextHash text_hash,
                                                                  FrameChecksum checksum) {
  std::unique_ptr<SuiteReader> r(new SuiteReader());
  r->name_ = path;
  r->totals_.compressed_bytes = compressed.size();
  r->totals_.compressed_sha256 = std::move(compressed_sha256);
  Result<std::string> text = zstd_decompress(compressed, path, checksum);
  if (!text) return text.error();
  if (Status s = r->start(std::move(*text), text_hash == TextHash::Compute)) return *s;
  std::string stem = std::filesystem::path(path).filename().string();
  if (stem != r->header_.suite + ".vec.zst")
    return r->error(
        2, "",
        "#suite `" + r->header_.suite + "` does not match the file name (expected " + r->header_.suite + ".vec.zst)");
  return r;
}

Result<std::unique_ptr<SuiteReader>> SuiteReader::from_text(std::string text, const std::string& name) {
  std::unique_ptr<SuiteReader> r(new SuiteReader());
  r->name_ = name;
  if (Status s = r->start(std::move(text), true)) return *s;
  return r;
}

Status SuiteReader::check_names(std::string_view field,
                                const std::vector<std::pair<std::string, std::string>>& declared, const char* what,
                                size_t line, std::string_view id) const {
  if (field == "-") return std::nullopt;
  std::string_view prev, rest = field;
  for (bool first = true;; first = false) {
    size_t comma = rest.find(',');
    std::string_view n = rest.substr(0, comma);
    if (n.empty() || (!first && !(prev < n)))
      return error(
          line, std::string(id),
          std::string(what) + " list `" + std::string(field) + "` is not a sorted comma list of distinct names");
    auto it = std::lower_bound(declared.begin(), declared.end(), n,
                               [](const auto& p, std::string_view k) { return p.first < k; });
    if (it == declared.end() || it->first != n)
      return error(line, std::string(id),
                   std::string(what) + " `" + std::string(n) + "` is not declared in the header");
    if (comma == std::string_view::npos) return std::nullopt;
    prev = n;
    rest.remove_prefix(comma + 1);
  }
}

[[gnu::noinline]] Status SuiteReader::intern_tag_list(std::string_view tags, size_t line, std::string_view id,
                                                      uint32_t* index) {
  auto it = tag_index_.find(tags);
  if (it == tag_index_.end()) {
    if (Status s = check_names(tags, header_.tags, "tag", line, id)) return s;
    it = tag_index_.emplace(tags, uint32_t(tag_lists_.size())).first;
    tag_lists_.push_back(tags);
  }
  *index = tag_index_cache_.put(tags, it->second);
  return std::nullopt;
}

void SuiteReader::read_ahead() {
  ahead_next_ = ahead_count_ = 0;
  ahead_.resize(kAhead);
  const size_t ncol = header_.columns.size();
  const std::string_view text = *text_;
  std::string why;
  while (ahead_count_ < kAhead) {
    if (pos_ == text.size()) return void(ahead_end_ = true);
    // The line is split as its end is found (one pass); its problems are reported in the order
    // next_line and split_record_into would find them.
    Record& a = ahead_[ahead_count_];
    a.line = line_no_ + 1;
    std::string_view line;
    if (Status s = take_line(split_line(text, pos_, ncol, a.fields, &why), line)) return void(ahead_error_ = *s);
    if (line.empty()) return void(ahead_error_ = error(line_no_, "", "empty line"));
    if (line[0] == '#') return void(ahead_error_ = error(line_no_, "", "header line after #records"));
    if (!why.empty()) return void(ahead_error_ = error(line_no_, std::string(line.substr(0, line.find(' '))), why));
    // What the id hashes after the suite's name: the line's bytes from after the id up to the
    // space before `expect`.
    const std::vector<std::string_view>& f = a.fields;
    size_t inputs_len = 0;
    for (size_t i = 1; i < accept_col_ - 1; ++i) inputs_len += f[i].size() + (i > 1);
    messages_[ahead_count_++] = std::string_view(f[0].data() + f[0].size() + 1, inputs_len);
  }
}

Result<bool> SuiteReader::next(Record& r) {
  // Lines are split and their ids hashed kAhead at a time (hashing several at once is faster);
  // records are then checked and handed out one by one, so a problem on a line is reported only
  // after every record before it, as if read one at a time.
  if (ahead_next_ == ahead_count_) {
    if (!ahead_error_ && !ahead_end_) {
      read_ahead();
      id_hash_.digest_each(messages_, ahead_count_, digests_);
    }
    if (ahead_next_ == ahead_count_) {
      if (ahead_error_) return *ahead_error_;
      if (totals_.records != header_.records)
        return error(
            0, "",
            "declared " + std::to_string(header_.records) + ", found " + std::to_string(totals_.records) + " records");
      return false;
    }
  }
  const size_t k = ahead_next_++;
  std::swap(r.fields, ahead_[k].fields);
  r.line = ahead_[k].line;
  const size_t line = r.line;
  const unsigned char* digest = digests_[k];
  const std::string_view id = r.id();
  // Syntax, then content: the id must be this suite's hash of this record's inputs. Digits equal
  // to the hash's are lowercase hex, so the digits' syntax is checked only when they differ.
  const size_t p = id_prefix_.size();
  auto malformed = [&] {
    return error(line, std::string(id), "malformed id (expected `" + id_prefix_ + "` and 12 lowercase hex digits)");
  };
  if (id.size() != p + 12 || !same_bytes(id.data(), id_prefix_.data(), p)) return malformed();
  char want[12];
  for (size_t i = 0; i < 6; ++i) std::memcpy(want + 2 * i, kHexPairs.digits[digest[i]], 2);
  if (std::memcmp(want, id.data() + p, 12) != 0) {
    if (!is_lower_hex(id.substr(p))) return malformed();
    return error(line, std::string(id),
                 "id does not match the record's inputs (expected " + id_prefix_ + std::string(want, 12) + ")");
  }
  // Both ids are this suite's prefix and the hex of their hash's first 6 bytes: lowercase hex
  // sorts as the bytes it spells, so the ids' order is that of those bytes as one number.
  uint64_t digits = 0;
  for (size_t i = 0; i < 6; ++i) digits = digits << 8 | digest[i];
  if (!prev_id_.empty()) {
    if (digits == prev_digits_)
      return error(line, std::string(id), "duplicate id (first at line " + std::to_string(prev_line_) + ")");
    if (digits < prev_digits_)
      return error(line, std::string(id), "records not sorted by id (follows " + std::string(prev_id_) + ")");
  }
  prev_id_ = id;
  prev_digits_ = digits;
  prev_line_ = line;
  if (std::string why = schema_.check(r.fields); !why.empty()) return error(line, std::string(id), why);
  // Tags and policies: each used name declared, lists sorted and unique.
  const std::string_view tags = r.fields[r.fields.size() - 2];
  if (const uint32_t* index = tag_index_cache_.find(tags)) r.tag_list = *index;
  else if (Status s = intern_tag_list(tags, line, id, &r.tag_list)) return *s;
  const std::string_view accept = r.fields[accept_col_];
  const bool no_policy = accept.size() == 1 && accept[0] == '-';  // most records name none
  if (!no_policy && !good_accept_.find(accept)) {
    if (Status s = check_names(accept, header_.policies, "policy", line, id)) return *s;
    good_accept_.put(accept, true);
  }
  ++totals_.records;
  return true;
}

namespace {
Result<SuiteFile> drain(Result<std::unique_ptr<SuiteReader>> opened) {
  if (!opened) return opened.error();
  SuiteReader& r = **opened;
  SuiteFile out;
  out.header = r.header();
  out.text = r.text();
  for (;;) {
    Record rec;
    Result<bool> more = r.next(rec);
    if (!more) return more.error();
    if (!*more) break;
    out.records.push_back(std::move(rec));
  }
  out.totals = r.totals();
  return out;
}
}  // namespace

Result<SuiteFile> read_suite(const std::string& path) { return drain(SuiteReader::open(path)); }
Result<SuiteFile> read_suite_text(std::string text, const std::string& name) {
  return drain(SuiteReader::from_text(std::move(text), name));
}

}  // namespace nc::corpus
