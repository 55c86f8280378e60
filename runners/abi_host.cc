#include "runners/abi_host.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>
#include <vector>

#include "registry/registry.h"

#include "runners/tokens.h"
#include "runners/vocabulary.h"

namespace nc::runners {
namespace {

// Each entry point writes its answer onto the caller's line, which a caller reuses from request to
// request. Replay sends millions of words: the per-word entry points read them in place and write
// their results through a cursor (AnswerWriter), with no temporary or call per token.
using Tokens = std::vector<std::string_view>;

// Fills an answer line: sized once for the longest answer it may hold, written through a cursor,
// then cut to what was written.
class AnswerWriter {
 public:
  AnswerWriter(std::string* line, size_t most) : line_(line) {
    line->resize(most);
    at_ = line->data();
  }
  void put(char c) { *at_++ = c; }
  void put(std::string_view s) { at_ = std::copy(s.begin(), s.end(), at_); }
  void hex(uint32_t w, int digits) { at_ = write_hex_word(at_, w, digits); }
  void decimal(int32_t v) { at_ = std::to_chars(at_, at_ + 11, v).ptr; }
  void finish() { line_->resize(size_t(at_ - line_->data())); }

 private:
  std::string* line_;
  char* at_;
};

void error(std::string* line, std::string_view why) {
  line->assign("error ");
  *line += why;
}

void unsupported(std::string* line) { line->assign("unsupported"); }

template <typename Int>
void append_decimal(std::string* line, Int v) {
  char digits[24];
  line->append(digits, size_t(std::to_chars(digits, digits + sizeof digits, v).ptr - digits));
}

// hello's NAME and VERSION are single tokens: a table's spaces become '_'.
std::string single_token(const char* s, const char* fallback) {
  std::string t = s && *s ? s : fallback;
  for (char& c : t)
    if (c == ' ' || c == '\n') c = '_';
  return t;
}

// NC_EUNSUPPORTED -> "unsupported"; NC_EINVALID or anything else -> an error line.
bool status_ok(int st, std::string* line) {
  if (st == NC_OK) return true;
  if (st == NC_EUNSUPPORTED) unsupported(line);
  else error(line, "entry point returned status " + std::to_string(st));
  return false;
}

// Output buffers are filled with a poison word before each call, as the GPU runner's guarded buffers
// are: an entry point that returns NC_OK and leaves an answer unwritten must not be judged on
// whatever the buffer held (zeros pass many cases). Any word can be a real answer, so a word still
// holding the first poison is checked by a second call over a buffer holding the other: a word
// that holds each poison after the call that set it was not written, and the batch is a target
// error of its own. Validity bytes are poisoned with 0xa5, which no answer (0 or 1) is.
constexpr uint32_t kPoison[2] = {0x7fa5a5a5u, 0xa55a5a5au};
constexpr uint8_t kPoisonValid = 0xa5;

// call(out) fills out (out.size() words); `wanted(i)` says whether word i is an answer.
template <typename Call, typename Wanted>
int poisoned_call(Call call, std::vector<uint32_t>& out, Wanted wanted, size_t* unwritten) {
  *unwritten = 0;
  std::fill(out.begin(), out.end(), kPoison[0]);
  int st = call(out.data());
  if (st != NC_OK || std::find(out.begin(), out.end(), kPoison[0]) == out.end()) return st;
  std::vector<uint32_t> again(out.size(), kPoison[1]);
  if ((st = call(again.data())) != NC_OK) return st;
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] == kPoison[0] && wanted(i)) {
      if (again[i] == kPoison[1]) ++*unwritten;
      else out[i] = again[i];
    }
  return st;
}

// The words [from, to) of a request, copied for one call: an entry point may write into what it is
// handed (a Python target's NumPy views are read-only, but a torch tensor over one is writable),
// and the poison check's second call and the halving retries must hand over the request's words,
// not what an earlier call left.
template <typename T>
T* handed(const std::vector<T>& words, size_t from, size_t to, std::vector<T>* copy) {
  copy->assign(words.begin() + ptrdiff_t(from), words.begin() + ptrdiff_t(to));
  return copy->data();
}

// The ABI has no per-element validity for reconstruct and layout: a batch holding one element
// without an answer fails whole (NC_EINVALID). Such a batch is retried in halves, down to single
// elements, so the few refused elements of a large batch cost a few calls each. call(from, to)
// runs the entry point on elements [from, to); *refused marks each element refused alone (answered
// `invalid`). Returns NC_OK, or the first other status.
template <typename Call>
int call_in_halves(Call call, size_t n, std::vector<uint8_t>* refused) {
  refused->assign(n, 0);
  auto halves = [&](auto& self, size_t from, size_t to) -> int {
    const int st = call(from, to);
    if (st != NC_EINVALID) return st;
    if (to - from <= 1) {
      if (to > from) (*refused)[from] = 1;
      return NC_OK;
    }
    const size_t half = from + (to - from) / 2;
    const int first = self(self, from, half);
    return first == NC_OK ? self(self, half, to) : first;
  };
  return halves(halves, 0, n);
}

bool all_written(size_t unwritten, size_t total, std::string* line) {
  if (unwritten == 0) return true;
  error(line, "unwritten output: entry point returned NC_OK without writing " + std::to_string(unwritten) + " of its " +
                  std::to_string(total) + " answers");
  return false;
}

// The scalar outputs (parse's format, encode's outcome, validate-tensor's rule and place) and the
// outputs no real answer can fill with a poison (encode's scale words are at most 16 bits and its
// codes at most 8; layout offsets are byte offsets far below 2^63) are poisoned once: a value still
// holding its poison after NC_OK was not written.
constexpr int32_t kPoisonScalar = int32_t(0xa55a5aa5u);
constexpr int64_t kPoisonWhere = int64_t(0xa55a5aa5a55a5aa5u);
constexpr uint64_t kPoisonOffset = 0xa5a5a5a5a5a5a5a5u;

bool scalar_written(bool written, const char* what, std::string* line) {
  if (written) return true;
  error(line, std::string("unwritten output: entry point returned NC_OK without writing ") + what);
  return false;
}

// A word of 1 to 8 hex digits (any case) read 8 bytes at once, where `p` has 8 bytes to read: the
// word ends at the first space among them, or after all eight when `ends_after` (a space or the
// end of the request follows). Its length in *n and value in *v; false when it is not such a word
// or one of its bytes is not a hex digit, and the digit-by-digit loop then decides.
bool hex_word8(const char* p, bool ends_after, size_t* n, uint32_t* v) {
  if constexpr (std::endian::native != std::endian::little) return false;
  constexpr uint64_t kOnes = 0x0101010101010101u, kTop = 0x80 * kOnes;
  uint64_t x;
  std::memcpy(&x, p, 8);
  // Spaces as zero bytes; the lowest top bit of (y - 1) & ~y marks the first of them exactly.
  const uint64_t y = x ^ (0x20 * kOnes), zero = (y - kOnes) & ~y & kTop;
  const size_t len = zero ? size_t(__builtin_ctzll(zero)) / 8 : 8;
  if (len == 0 || (len == 8 && !ends_after)) return false;
  if (len < 8) x = x << (8 * (8 - len)) | (0x30 * kOnes) >> (8 * len);  // "7e" -> "0000007e"
  // Per byte (none borrows from its neighbour: each is 0x80 or more before the subtraction):
  // a digit is 0x30..0x39; a letter, lowercased, 0x61..0x66.
  const uint64_t t = x | kTop, lower = x | (0x20 * kOnes) | kTop;
  const uint64_t digit = (t - 0x30 * kOnes) & ~(t - 0x3a * kOnes) & kTop;
  const uint64_t letter = (lower - 0x61 * kOnes) & ~(lower - 0x67 * kOnes) & kTop;
  if ((x & kTop) != 0 || (digit | letter) != kTop) return false;
  // Digit values, the first digit in the top byte, then pairs of nibbles into bytes, and so on.
  uint64_t d = __builtin_bswap64((x & (0x0f * kOnes)) + (letter >> 7) * 9);
  d = (d | d >> 4) & 0x00ff00ff00ff00ffu;
  d = (d | d >> 8) & 0x0000ffff0000ffffu;
  d = (d | d >> 16) & 0xffffffffu;
  *n = len, *v = uint32_t(d);
  return true;
}

// The selector (second token) of a decode, validate or convert request and the words after it,
// read in place. false when the selector is missing or a word is not hex (at most 16 digits, as
// parse_hex) of at most 32 bits.
bool selector_and_words(std::string_view request, std::string_view* selector, std::vector<uint32_t>* words) {
  const size_t sp = request.find(' ');
  if (sp == request.npos) return false;
  const size_t end = request.find(' ', sp + 1);
  *selector = request.substr(sp + 1, end == request.npos ? request.npos : end - sp - 1);
  words->clear();
  if (end == request.npos) return true;
  for (size_t at = end + 1;;) {
    size_t n;
    uint32_t w;
    if (at + 8 <= request.size() &&
        hex_word8(request.data() + at, at + 8 == request.size() || request[at + 8] == ' ', &n, &w)) {
      words->push_back(w);
      if (at + n == request.size()) return true;
      at += n + 1;
      continue;
    }
    // Otherwise (a longer word, or one near the end of the request) as parse_hex reads any word.
    const size_t end_of_word = std::min(request.find(' ', at), request.size());
    uint64_t v;
    if (!parse_hex(request.substr(at, end_of_word - at), &v) || v > 0xffffffffu) return false;
    words->push_back(uint32_t(v));
    if (end_of_word == request.size()) return true;
    at = end_of_word + 1;
  }
}

void decode(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  if (!p.decode) return unsupported(line);
  std::string_view selector;
  std::vector<uint32_t> in;
  const bool ok = selector_and_words(request, &selector, &in);
  auto wt = ok ? word_type_token(selector) : std::nullopt;
  if (!wt) return error(line, "malformed decode request");
  std::vector<uint32_t> out(in.size());
  std::vector<uint8_t> valid(in.size());
  size_t unwritten = 0;
  std::vector<uint32_t> sent;
  auto call = [&](uint32_t* dst) {
    std::fill(valid.begin(), valid.end(), kPoisonValid);
    return p.decode(*wt, handed(in, 0, in.size(), &sent), in.size(), dst, valid.data());
  };
  if (!status_ok(poisoned_call(
                     call, out, [&](size_t i) { return valid[i] != 0; }, &unwritten),
                 line))
    return;
  unwritten += size_t(std::count(valid.begin(), valid.end(), kPoisonValid));
  if (!all_written(unwritten, in.size(), line)) return;
  AnswerWriter a(line, 2 + in.size() * 12);  // " -2147483648" is the longest token
  a.put("ok");
  const bool is_float = word_type_is_float(*wt);
  for (size_t i = 0; i < in.size(); ++i) {
    a.put(' ');
    if (!valid[i]) a.put("invalid");
    else if (is_float) a.hex(out[i], 8);
    else a.decimal(int32_t(out[i]));
  }
  a.finish();
}

void validate(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  if (!p.validate_word) return unsupported(line);
  std::string_view selector;
  std::vector<uint32_t> in;
  std::optional<nc_format> fmt;
  std::optional<nc_component> comp;
  if (selector_and_words(request, &selector, &in)) {
    size_t dot = selector.find('.');
    if (dot != std::string_view::npos) {
      fmt = format_token(selector.substr(0, dot));
      comp = component_token(selector.substr(dot + 1));
    }
  }
  if (!fmt || !comp) return error(line, "malformed validate request");
  std::vector<uint8_t> valid(in.size(), kPoisonValid);
  if (!status_ok(p.validate_word(*fmt, *comp, in.data(), in.size(), valid.data()), line)) return;
  if (!all_written(size_t(std::count(valid.begin(), valid.end(), kPoisonValid)), in.size(), line)) return;
  AnswerWriter a(line, 2 + in.size() * 8);
  a.put("ok");
  for (uint8_t v : valid) a.put(v ? " valid" : " invalid");
  a.finish();
}

void parse(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  if (!p.parse_format) return unsupported(line);
  const Tokens t = split(request, ' ');
  line->assign("ok");
  for (size_t i = 1; i < t.size(); ++i) {
    std::string bytes;
    if (t[i] != "\"\"") {
      if (t[i].size() % 2) return error(line, "malformed parse name");
      for (size_t j = 0; j < t[i].size(); j += 2) {
        uint64_t b;
        if (!parse_hex(t[i].substr(j, 2), &b)) return error(line, "malformed parse name");
        bytes += char(b);
      }
    }
    int32_t f = kPoisonScalar;
    if (!status_ok(p.parse_format(bytes.data(), bytes.size(), &f), line) ||
        !scalar_written(f != kPoisonScalar, "its format (or -1)", line))
      return;
    *line += ' ';
    *line += (f >= 0 && f < 9) ? format_name(nc_format(f)) : "reject";
  }
}

void reconstruct(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  if (!p.reconstruct) return unsupported(line);
  const Tokens t = split(request, ' ');
  auto fmt = t.size() > 1 ? format_token(t[1]) : std::nullopt;
  if (!fmt) return error(line, "malformed reconstruct request");
  const bool has_div = *fmt == NC_FORMAT_NVFP4;
  std::vector<uint32_t> code, scale, div;
  for (size_t i = 2; i < t.size(); ++i) {
    // C:S, or C:S:D for NVFP4; found in place, as one request holds thousands.
    const std::string_view e = t[i];
    const size_t c1 = e.find(':'), c2 = c1 == e.npos ? e.npos : e.find(':', c1 + 1);
    const size_t s_end = has_div ? c2 : e.size();
    uint64_t c, s, d = 0;
    if (c1 == e.npos || (has_div ? c2 == e.npos || e.find(':', c2 + 1) != e.npos : c2 != e.npos) ||
        !parse_hex(e.substr(0, c1), &c) || !parse_hex(e.substr(c1 + 1, s_end - c1 - 1), &s) ||
        (has_div && !parse_hex(e.substr(c2 + 1), &d)))
      return error(line, "malformed reconstruct element");
    code.push_back(uint32_t(c));
    scale.push_back(uint32_t(s));
    div.push_back(uint32_t(d));
  }
  // An element refused alone is a pair without a value (W8 0x80; a nonzero code under a +0 scale,
  // FORMAT.md "Invalid pairs"), judged against the record's !code-illegal or !zero-scale-codes.
  std::vector<uint32_t> out(code.size());
  std::vector<uint8_t> refused;
  size_t unwritten = 0;
  std::vector<uint32_t> sent_code, sent_scale, sent_div;
  auto whole = [&](uint32_t* dst) {
    return call_in_halves(
        [&](size_t from, size_t to) {
          return p.reconstruct(*fmt, handed(code, from, to, &sent_code), handed(scale, from, to, &sent_scale),
                               has_div ? handed(div, from, to, &sent_div) : nullptr, to - from, dst + from);
        },
        code.size(), &refused);
  };
  const int st = poisoned_call(
      whole, out, [&](size_t i) { return !refused[i]; }, &unwritten);
  if (!status_ok(st, line) || !all_written(unwritten, out.size(), line)) return;
  AnswerWriter a(line, 2 + out.size() * 9);
  a.put("ok");
  for (size_t i = 0; i < out.size(); ++i) {
    a.put(' ');
    if (refused[i]) a.put("invalid");
    else a.hex(out[i], 8);
  }
  a.finish();
}

void convert(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  if (!p.convert) return unsupported(line);
  std::string_view selector;
  std::vector<uint32_t> in;
  const bool ok = selector_and_words(request, &selector, &in);
  auto r = ok ? recipe_token(selector) : std::nullopt;
  if (!r) return error(line, "malformed convert request");
  std::vector<uint32_t> out(in.size());
  size_t unwritten = 0;
  std::vector<uint32_t> sent;
  auto call = [&](uint32_t* dst) { return p.convert(*r, handed(in, 0, in.size(), &sent), in.size(), dst); };
  if (!status_ok(poisoned_call(
                     call, out, [](size_t) { return true; }, &unwritten),
                 line) ||
      !all_written(unwritten, out.size(), line))
    return;
  const int digits = recipe_result_hex_digits(*r);
  AnswerWriter a(line, 2 + out.size() * size_t(1 + digits));
  a.put("ok");
  for (uint32_t w : out) a.put(' '), a.hex(w, digits);
  a.finish();
}

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

void encode(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  if (!p.encode) return unsupported(line);
  const Tokens t = split(request, ' ');
  if (t.size() != 5) return error(line, "encode takes FMT SRCTYPE SHAPE WORDS");
  auto fmt = format_token(t[1]);
  auto src = source_type_token(t[2]);
  std::vector<uint64_t> shape, words;
  if (!fmt || !src || !parse_shape(t[3], &shape) || shape.empty() || !parse_hex_list(t[4], &words))
    return error(line, "malformed encode request");
  // Every leading coordinate is an independent row (spec 4): [K] is one row, [E,N,K] is E*N rows.
  const uint64_t k = shape.back();
  uint64_t rows = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) rows *= shape[i];
  const uint32_t g = nc::info(Format(int(*fmt))).group_size;
  if (!g || rows * k != words.size()) return error(line, "encode shape does not match the words");
  std::vector<uint32_t> scales(rows * ceil_div(k, g), kPoison[0]);
  std::vector<int32_t> codes(rows * k, int32_t(kPoison[0]));
  int32_t outcome = kPoisonScalar;
  if (!status_ok(p.encode(*fmt, *src, words.data(), rows, k, scales.data(), codes.data(), nullptr, &outcome), line) ||
      !scalar_written(outcome != kPoisonScalar, "its outcome", line))
    return;
  if (outcome == NC_ENCODE_FAIL_NONFINITE) return void(line->assign("ok !nonfinite"));
  if (outcome == NC_ENCODE_FAIL_SCALE_OVERFLOW) return void(line->assign("ok !scale-overflow"));
  if (outcome != NC_ENCODE_OK) return error(line, "encode returned outcome " + std::to_string(outcome));
  // On success every scale word and code is an answer (on failure the arrays are unspecified).
  const size_t unwritten = size_t(std::count(scales.begin(), scales.end(), kPoison[0])) +
                           size_t(std::count(codes.begin(), codes.end(), int32_t(kPoison[0])));
  if (!all_written(unwritten, scales.size() + codes.size(), line)) return;
  line->assign("ok ");
  for (size_t i = 0; i < scales.size(); ++i) {
    if (i) *line += ',';
    append_hex_word(line, scales[i], 4);
  }
  *line += '/';
  for (size_t i = 0; i < codes.size(); ++i) {
    if (i) *line += ',';
    append_decimal(line, codes[i]);
  }
}

// validate-tensor and dequantize share FMT SHAPE CODES SCALES DIVISOR.
struct Tensor {
  nc_format fmt;
  std::vector<uint64_t> shape, codes64, scales64;
  std::vector<uint32_t> codes, scales;
  uint32_t divisor = 0;
  bool has_divisor = false;
};

bool tensor_of(const Tokens& t, Tensor* x) {
  if (t.size() != 6) return false;
  auto fmt = format_token(t[1]);
  if (!fmt || !parse_shape(t[2], &x->shape) || !parse_hex_list(t[3], &x->codes64) ||
      !parse_hex_list(t[4], &x->scales64))
    return false;
  x->fmt = *fmt;
  x->codes.assign(x->codes64.begin(), x->codes64.end());
  x->scales.assign(x->scales64.begin(), x->scales64.end());
  if (t[5] != "-") {
    uint64_t d;
    if (!parse_hex(t[5], &d)) return false;
    x->divisor = uint32_t(d);
    x->has_divisor = true;
  }
  return true;
}

void validate_tensor(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  if (!p.validate_tensor) return unsupported(line);
  const Tokens t = split(request, ' ');
  Tensor x;
  if (!tensor_of(t, &x)) return error(line, "malformed validate-tensor request");
  int32_t rule = kPoisonScalar;
  int64_t where = kPoisonWhere;
  if (!status_ok(
          p.validate_tensor(x.fmt, x.shape.size(), x.shape.data(), x.codes.data(), x.codes.size(), x.scales.data(),
                            x.scales.size(), x.has_divisor ? &x.divisor : nullptr, &rule, &where),
          line) ||
      !scalar_written(rule != kPoisonScalar, "its rule", line))
    return;
  if (rule == NC_RULE_NONE) return void(line->assign("ok valid"));
  if (!scalar_written(where != kPoisonWhere, "where the rule is broken (or -1)", line)) return;
  line->assign("ok !");
  *line += rule_name(nc_rule(rule));
  *line += '@';
  const char plane = rule_plane(nc_rule(rule));
  if (plane && where >= 0) *line += plane, append_decimal(line, where);
  else *line += '-';
}

void dequantize(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  if (!p.dequantize) return unsupported(line);
  const Tokens t = split(request, ' ');
  Tensor x;
  if (!tensor_of(t, &x)) return error(line, "malformed dequantize request");
  std::vector<uint32_t> out(x.codes.size());
  size_t unwritten = 0;
  std::vector<uint64_t> sent_shape;
  std::vector<uint32_t> sent_codes, sent_scales;
  auto call = [&](uint32_t* dst) {
    uint32_t divisor = x.divisor;
    return p.dequantize(x.fmt, x.shape.size(), handed(x.shape, 0, x.shape.size(), &sent_shape),
                        handed(x.codes, 0, x.codes.size(), &sent_codes), x.codes.size(),
                        handed(x.scales, 0, x.scales.size(), &sent_scales), x.scales.size(),
                        x.has_divisor ? &divisor : nullptr, dst);
  };
  if (!status_ok(poisoned_call(
                     call, out, [](size_t) { return true; }, &unwritten),
                 line) ||
      !all_written(unwritten, out.size(), line))
    return;
  line->assign("ok ");
  for (size_t i = 0; i < out.size(); ++i) {
    if (i) *line += ',';
    append_hex_word(line, out[i], 8);
  }
}

bool parse_decimal(std::string_view s, uint64_t* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// layout FMT LAYOUT NxK:ROW:BLOCK... -> ok OFFSET/PLANE_BYTES... A version 1 table has no
// layout_offsets field (its memory ends before it), so it is not read there.
void layout(const nc_plugin_v1& p, std::string_view request, std::string* line) {
  auto fn = p.abi_version >= 2 ? p.layout_offsets : nullptr;
  if (!fn) return unsupported(line);
  const Tokens t = split(request, ' ');
  auto fmt = t.size() > 2 ? format_token(t[1]) : std::nullopt;
  auto lay = t.size() > 2 ? layout_token(t[2]) : std::nullopt;
  if (!fmt || !lay) return error(line, "malformed layout request");
  const size_t n = t.size() - 3;
  std::vector<uint64_t> rows(n), k(n), row(n), block(n), offset(n, kPoisonOffset), plane(n, kPoisonOffset);
  for (size_t i = 0; i < n; ++i) {
    auto parts = split(t[3 + i], ':');
    std::vector<uint64_t> shape;
    if (parts.size() != 3 || !parse_shape(parts[0], &shape) || shape.size() != 2 || !parse_decimal(parts[1], &row[i]) ||
        !parse_decimal(parts[2], &block[i]))
      return error(line, "malformed layout element");
    rows[i] = shape[0], k[i] = shape[1];
  }
  // An element refused alone has no position (K not a multiple of 16, a coordinate outside the
  // scale matrix), judged against the record's !shape or !index (FORMAT.md "Layout refusals").
  std::vector<uint8_t> refused;
  std::vector<uint64_t> sent_rows, sent_k, sent_row, sent_block;
  const int st = call_in_halves(
      [&](size_t from, size_t to) {
        return fn(*fmt, *lay, handed(rows, from, to, &sent_rows), handed(k, from, to, &sent_k),
                  handed(row, from, to, &sent_row), handed(block, from, to, &sent_block), to - from,
                  offset.data() + from, plane.data() + from);
      },
      n, &refused);
  if (!status_ok(st, line)) return;
  // A refused element's outputs are not read; every other one must have been written.
  size_t unwritten = 0;
  for (size_t i = 0; i < n; ++i)
    if (!refused[i]) unwritten += size_t(offset[i] == kPoisonOffset) + size_t(plane[i] == kPoisonOffset);
  if (!all_written(unwritten, 2 * (n - size_t(std::count(refused.begin(), refused.end(), 1))), line)) return;
  line->assign("ok");
  for (size_t i = 0; i < n; ++i) {
    *line += ' ';
    if (refused[i]) {
      *line += "invalid";
      continue;
    }
    append_decimal(line, offset[i]);
    *line += '/';
    append_decimal(line, plane[i]);
  }
}

}  // namespace

void abi_answer(const nc_plugin_v1& table, std::string_view request, std::string* line) {
  const std::string_view verb = request.substr(0, request.find(' '));
  if (verb == "hello") {
    line->assign("ok ");
    *line += single_token(table.name, "unnamed");
    *line += ' ';
    *line += single_token(table.version, "0");
    return;
  }
  if (verb == "decode") return decode(table, request, line);
  if (verb == "validate") return validate(table, request, line);
  if (verb == "parse") return parse(table, request, line);
  if (verb == "reconstruct") return reconstruct(table, request, line);
  if (verb == "convert") return convert(table, request, line);
  if (verb == "encode") return encode(table, request, line);
  if (verb == "validate-tensor") return validate_tensor(table, request, line);
  if (verb == "dequantize") return dequantize(table, request, line);
  if (verb == "layout") return layout(table, request, line);
  unsupported(line);
}

}  // namespace nc::runners
