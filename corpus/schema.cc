#include "corpus/schema.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <utility>

#include "corpus/reader.h"
#include "registry/registry.h"

namespace nc::corpus {
namespace {

// FORMAT.md "Operations": the storage layouts a layout suite may name, with the format they lay out.
constexpr std::array<std::pair<std::string_view, std::string_view>, 1> kLayouts{{
    {"NVFP4", "blockscale-k16-m128x4-v1"},
}};

constexpr bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }

constexpr uint64_t kOnes = 0x0101010101010101u, kTop = 0x80 * kOnes;

// The top bit of each of the 8 bytes in x that is a lowercase hex digit, all at once: a byte
// v < 0x80 with its top bit set, less c < 0x80, keeps its top bit exactly when v >= c, and
// borrows from no other byte. Bytes of 0x80 and above are not digits.
uint64_t lower_hex_bytes(uint64_t x) {
  const uint64_t t = x | kTop;
  const uint64_t digit = (t - 0x30 * kOnes) & ~(t - 0x3a * kOnes);
  const uint64_t letter = (t - 0x61 * kOnes) & ~(t - 0x67 * kOnes);
  return (digit | letter) & ~x & kTop;
}

bool all_lower_hex8(uint64_t x) { return lower_hex_bytes(x) == kTop; }

bool hex_word(std::string_view s, int digits) {
  if (s.size() != size_t(digits)) return false;
  // Words of up to 8 digits (nearly every field) are checked in one 8-byte test, padded with '0'.
  uint64_t x = 0x3030303030303030u;
  switch (digits) {
    case 8:
      std::memcpy(&x, s.data(), 8);
      return all_lower_hex8(x);
    case 4:
      std::memcpy(&x, s.data(), 4);
      return all_lower_hex8(x);
    case 2:
      std::memcpy(&x, s.data(), 2);
      return all_lower_hex8(x);
    case 1:
      std::memcpy(&x, s.data(), 1);
      return all_lower_hex8(x);
    default:
      for (char c : s)
        if (!is_hex(c)) return false;
      return true;
  }
}

// Unsigned decimal without leading zeros ("0" itself allowed).
bool decimal(std::string_view s) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  for (char c : s)
    if (!is_digit(c)) return false;
  return true;
}

bool signed_decimal(std::string_view s) {
  if (!s.empty() && s[0] == '-') return s.size() > 1 && s[1] != '0' && decimal(s.substr(1));
  return decimal(s);
}

// C99 hex float as the corpus writes it: [-]0x<h>[.<h...>]p(+|-)<decimal>.
bool hex_float(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  if (s.size() < 6 || s[0] != '0' || s[1] != 'x' || !is_hex(s[2])) return false;
  size_t i = 3;
  if (s[i] == '.') {
    const size_t from = ++i;
    // Where 8 bytes follow the point, the digits among them found at once (a binary32 fraction
    // has at most 6): a loop ending after a varying count of digits was mostly mispredictions.
    if constexpr (std::endian::native == std::endian::little) {
      if (from + 8 <= s.size()) {
        uint64_t x;
        std::memcpy(&x, s.data() + from, 8);
        const uint64_t not_hex = ~lower_hex_bytes(x) & kTop;
        i = not_hex ? from + size_t(__builtin_ctzll(not_hex)) / 8 : from + 8;
      }
    }
    while (i < s.size() && is_hex(s[i])) ++i;
    if (i == from) return false;
  }
  if (i + 2 > s.size() || s[i] != 'p' || (s[i + 1] != '+' && s[i + 1] != '-')) return false;
  return decimal(s.substr(i + 2));
}

// FORMAT.md "Exact values": hex float, inf, -inf, nan, signed decimal integer, or p/q (p a
// nonzero signed decimal, q a decimal above 1). The first bytes after the sign say which form a
// value can be, so each is scanned once, as that form only.
bool exact_value(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  const std::string_view m = s.substr(negative ? 1 : 0);  // the magnitude
  if (m.size() >= 2 && m[0] == '0' && m[1] == 'x') return hex_float(s);
  if (!m.empty() && (m[0] == 'i' || m[0] == 'n')) return s == "inf" || s == "-inf" || s == "nan";
  // An integer, or the numerator of p/q: digits, without a leading zero unless it is "0" alone,
  // and not "-0".
  size_t i = 0;
  while (i < m.size() && is_digit(m[i])) ++i;
  if (i == 0 || (m[0] == '0' && (i > 1 || negative))) return false;
  if (i == m.size()) return true;
  const std::string_view q = m.substr(i + 1);
  return m[i] == '/' && m[0] != '0' && decimal(q) && q != "0" && q != "1";
}

bool known_rule(std::string_view r) { return find_rule(r).has_value(); }

// "!rule" (or "!rule@where" when `located`, where is `-`, c<n> or s<n>).
bool rejection(std::string_view s, bool located) {
  if (s.size() < 2 || s[0] != '!') return false;
  s.remove_prefix(1);
  size_t at = s.find('@');
  if (!located) return at == std::string_view::npos && known_rule(s);
  if (at == std::string_view::npos || !known_rule(s.substr(0, at))) return false;
  std::string_view where = s.substr(at + 1);
  return where == "-" || (where.size() > 1 && (where[0] == 'c' || where[0] == 's') && decimal(where.substr(1)));
}

// A comma list whose items each satisfy `item`; its length in *n. `-` is the empty list where
// `dash_empty` (an absent tensor plane).
template <class Item>
bool list(std::string_view s, bool dash_empty, uint64_t* n, Item item) {
  *n = 0;
  if (dash_empty && s == "-") return true;
  for (;;) {
    size_t comma = s.find(',');
    if (!item(s.substr(0, comma))) return false;
    ++*n;
    if (comma == std::string_view::npos) return true;
    s.remove_prefix(comma + 1);
  }
}

struct Shape {
  uint64_t elements = 1, rows = 1, k = 0;
};

// Extents joined by `x`, the last being K. Refuses products past 2^40 elements, which no corpus
// holds and which would overflow the length arithmetic.
bool shape(std::string_view s, Shape* out) {
  *out = Shape{};
  for (;;) {
    size_t x = s.find('x');
    std::string_view e = s.substr(0, x);
    if (!decimal(e) || e.size() > 12) return false;
    uint64_t v = 0;
    for (char c : e) v = v * 10 + uint64_t(c - '0');
    if (v && out->elements > (uint64_t(1) << 40) / v) return false;
    out->elements *= v;
    if (x == std::string_view::npos) {
      out->k = v;
      out->rows = v ? out->elements / v : 0;
      return true;
    }
    s.remove_prefix(x + 1);
  }
}

// A wrong field: "column `NAME`: `VALUE` is not WHAT". Long values are cut.
std::string bad(std::string_view column, std::string_view value, std::string_view what) {
  std::string m = "column `";
  m.append(column);
  m.append("`: `");
  m.append(value.substr(0, 40));
  if (value.size() > 40) m.append("...");
  m.append("` is not ");
  m.append(what);
  return m;
}

std::string hex_what(int digits, std::string_view type) {
  return std::to_string(digits) + " lowercase hex digit" + (digits == 1 ? "" : "s") + " (" + std::string(type) +
         " word)";
}

// "column `C` has 3 items, shape 2x2 needs 4" (`items` may be "scales" or "codes").
std::string count_mismatch(std::string_view column, std::string_view items, uint64_t got, uint64_t want,
                           std::string_view shape_text) {
  std::string m = "column `";
  m.append(column);
  m.append("` has ");
  m.append(std::to_string(got));
  m.append(" ");
  m.append(items);
  m.append(", shape ");
  m.append(shape_text);
  m.append(" needs ");
  m.append(std::to_string(want));
  return m;
}

}  // namespace

int word_hex_digits(WordType w) { return int(info(w).hex_digits); }

Result<RecordSchema> RecordSchema::compile(const SuiteHeader& h) {
  const std::string_view op_name = h.op_name();
  const std::string_view selector =
      h.op.size() > op_name.size() ? std::string_view(h.op).substr(op_name.size() + 1) : "";
  const std::optional<Op> op = find_op(op_name);
  if (!op) return Error{"", 0, "", "unknown #op `" + h.op + "` (see vectors/FORMAT.md Operations)"};
  std::string columns;
  for (const std::string& c : h.columns) columns += (columns.empty() ? "" : " ") + c;
  if (const std::string want = op_columns_line(*op); columns != want)
    return Error{"", 0, "",
                 "#columns `" + columns + "` are not those of #op " + std::string(op_name) + " (`" + want + "`)"};
  RecordSchema s;
  s.op_ = *op;
  auto bad_selector = [&] {
    return Error{"", 0, "", "#op `" + h.op + "`: unknown selector (see vectors/FORMAT.md Operations)"};
  };
  switch (*op) {
    case Op::Decode: {
      auto wt = find_word_type(selector);
      if (!wt) return bad_selector();
      s.word_digits_ = word_hex_digits(*wt);
      s.float_result_ = nc::info(*wt).is_float;
      break;
    }
    case Op::Validate: {
      size_t dot = selector.find('.');
      auto fmt = find_format(selector.substr(0, dot));
      if (!fmt || dot == std::string_view::npos) return bad_selector();
      const FormatInfo& f = nc::info(*fmt);
      std::string_view comp = selector.substr(dot + 1);
      std::optional<WordType> wt;
      if (comp == "word" && f.category == Category::Direct) wt = f.code;
      if (comp == "code" && f.category != Category::Direct) wt = f.code;
      if (comp == "scale") wt = f.scale;
      if (comp == "divisor") wt = f.divisor;
      if (!wt) return bad_selector();
      s.word_digits_ = word_hex_digits(*wt);
      break;
    }
    case Op::Parse:
      if (!selector.empty()) return bad_selector();
      break;
    case Op::Layout: {
      const size_t sp = selector.find(' ');
      const std::pair<std::string_view, std::string_view> named{
          selector.substr(0, sp), sp == std::string_view::npos ? "" : selector.substr(sp + 1)};
      bool known = false;
      for (const auto& l : kLayouts) known = known || l == named;
      if (!known) return bad_selector();
      break;
    }
    case Op::Convert: {
      auto recipe = find_recipe(selector);
      if (!recipe) return bad_selector();
      s.word_digits_ = word_hex_digits(nc::info(*recipe).destination);
      break;
    }
    case Op::Reconstruct:
    case Op::Encode:
    case Op::ValidateTensor:
    case Op::Dequantize: {
      auto fmt = find_format(selector);
      if (!fmt || nc::info(*fmt).category == Category::Direct) return bad_selector();
      const FormatInfo& f = nc::info(*fmt);
      s.word_digits_ = word_hex_digits(f.code);
      s.scale_digits_ = word_hex_digits(*f.scale);
      s.has_divisor_ = f.divisor.has_value();
      s.group_ = f.group_size;
      if (*op == Op::Encode && f.category != Category::GroupedInt) return bad_selector();
      break;
    }
  }
  return s;
}

// Inputs and expect are always present; an info column may be `-`, absent (FORMAT.md: "an absent
// value is `-`"), as in the findings corpora that `sweep --vectors` writes.
std::string RecordSchema::check(const std::vector<std::string_view>& f) const {
  auto word = [](int digits) { return [digits](std::string_view w) { return hex_word(w, digits); }; };
  // binary32 result: a word, `nan*`, or a rejection.
  auto binary32_expect = [](std::string_view e) { return hex_word(e, 8) || e == "nan*" || rejection(e, false); };
  switch (op_) {
    case Op::Decode:
      if (!hex_word(f[1], word_digits_)) return bad("word", f[1], hex_what(word_digits_, "input"));
      if (float_result_ ? !binary32_expect(f[2]) : !(signed_decimal(f[2]) || rejection(f[2], false)))
        return bad("expect", f[2], float_result_ ? "a binary32 word, nan* or !rule" : "a signed decimal or !rule");
      if (!exact_value(f[4]) && f[4] != "-") return bad("value", f[4], "an exact value");
      if (f[5] != "-" && std::find(kValueClassTokens.begin(), kValueClassTokens.end(), f[5]) == kValueClassTokens.end())
        return bad("class", f[5], "one of zero subnormal normal inf nan int");
      return {};
    case Op::Validate:
      if (!hex_word(f[1], word_digits_)) return bad("word", f[1], hex_what(word_digits_, "component"));
      if (f[2] != "valid" && !rejection(f[2], false)) return bad("expect", f[2], "`valid` or !rule");
      return {};
    case Op::Parse: {
      std::string_view n = f[1];
      if (n != "\"\"" && (n.empty() || n.size() % 2 || !hex_word(n, int(n.size()))))
        return bad("name", n, "the lowercase hex of the name's bytes or \"\"");
      if (!find_format(f[2]) && !rejection(f[2], false)) return bad("expect", f[2], "a registry name or !rule");
      return {};
    }
    case Op::Reconstruct:
      if (!hex_word(f[1], word_digits_)) return bad("code", f[1], hex_what(word_digits_, "code"));
      if (!hex_word(f[2], scale_digits_)) return bad("scale", f[2], hex_what(scale_digits_, "scale"));
      if (has_divisor_ ? !hex_word(f[3], 8) : f[3] != "-")
        return bad("divisor", f[3], has_divisor_ ? hex_what(8, "FP32 divisor") : "`-` (this format has no divisor)");
      if (!binary32_expect(f[4])) return bad("expect", f[4], "a binary32 word, nan* or !rule");
      if (!exact_value(f[6]) && f[6] != "-") return bad("exact", f[6], "an exact value or -");
      return {};
    case Op::Convert:
      if (!hex_word(f[1], 8)) return bad("src", f[1], hex_what(8, "FP32"));
      if (!hex_word(f[2], word_digits_) && f[2] != "nan*")
        return bad("expect", f[2], hex_what(word_digits_, "destination"));
      if (!exact_value(f[4]) && f[4] != "-") return bad("exact", f[4], "an exact value or -");
      return {};
    case Op::Encode: {
      const std::string_view type = f[1];
      const int src_digits = type == "FP32" ? 8 : type == "BF16" || type == "F16" ? 4 : type == "F64" ? 16 : 0;
      if (!src_digits) return bad("src_type", type, "FP32, BF16, F16 or F64");
      Shape sh;
      if (!shape(f[2], &sh) || !sh.elements) return bad("shape", f[2], "non-zero extents joined by x");
      uint64_t n;
      if (!list(f[3], false, &n, word(src_digits)))
        return bad("src", f[3], "a comma list of " + hex_what(src_digits, type));
      if (n != sh.elements) return count_mismatch("src", "items", n, sh.elements, f[2]);
      const uint64_t groups = sh.rows * ((sh.k + group_ - 1) / group_);
      const std::string_view e = f[4];
      if (!rejection(e, false)) {
        size_t slash = e.find('/');
        uint64_t ns = 0, nc = 0;
        if (slash == std::string_view::npos || !list(e.substr(0, slash), false, &ns, word(scale_digits_)) ||
            !list(e.substr(slash + 1), false, &nc, signed_decimal))
          return bad("expect", e, "SCALES/CODES (hex scale words / signed decimal codes) or !rule");
        if (ns != groups) return count_mismatch("expect", "scales", ns, groups, f[2]);
        if (nc != sh.elements) return count_mismatch("expect", "codes", nc, sh.elements, f[2]);
      }
      // Diagnostic columns: `-` marks a step not reached.
      uint64_t nt = 0;
      auto step = [](int digits) { return [digits](std::string_view w) { return w == "-" || hex_word(w, digits); }; };
      auto group_trace = [&](std::string_view g) {
        static constexpr int kDigits[] = {8, 8, 4, 8};  // amax32.raw_scale32.scale16.inv32
        for (int i = 0; i < 4; ++i) {
          size_t dot = g.find('.');
          if ((dot == std::string_view::npos) != (i == 3) || !step(kDigits[i])(g.substr(0, dot))) return false;
          g.remove_prefix(dot == std::string_view::npos ? g.size() : dot + 1);
        }
        return true;
      };
      if (f[6] != "-" && !list(f[6], false, &nt, group_trace))
        return bad("trace", f[6], "a comma list of amax.raw.scale.inv groups");
      if (f[7] != "-") {
        uint64_t nn;
        if (!list(f[7], false, &nn, step(8))) return bad("norm", f[7], "a comma list of binary32 words or -");
        if (nn != sh.elements) return count_mismatch("norm", "items", nn, sh.elements, f[2]);
      }
      return {};
    }
    case Op::Layout: {
      Shape sh;
      if (!shape(f[1], &sh) || !sh.elements) return bad("shape", f[1], "non-zero extents joined by x");
      if (!decimal(f[2])) return bad("row", f[2], "a decimal row index");
      if (!decimal(f[3])) return bad("block", f[3], "a decimal block-column index");
      if (f[4] == "!shape" || f[4] == "!index") return {};  // FORMAT.md "Layout refusals"
      const size_t slash = f[4].find('/');
      if (slash == std::string::npos || !decimal(std::string_view(f[4]).substr(0, slash)) ||
          !decimal(std::string_view(f[4]).substr(slash + 1)))
        return bad("expect", f[4], "OFFSET/PLANE_BYTES, both decimal, or !shape or !index");
      return {};
    }
    case Op::ValidateTensor:
    case Op::Dequantize: {
      Shape sh;
      if (!shape(f[1], &sh)) return bad("shape", f[1], "extents joined by x");
      uint64_t ncodes, nscales;
      if (!list(f[2], true, &ncodes, word(word_digits_)))
        return bad("codes", f[2], "a comma list of " + hex_what(word_digits_, "code"));
      if (!list(f[3], true, &nscales, word(scale_digits_)))
        return bad("scales", f[3], "a comma list of " + hex_what(scale_digits_, "scale"));
      if (f[4] != "-" && !hex_word(f[4], 8)) return bad("divisor", f[4], hex_what(8, "FP32 divisor") + " or -");
      const std::string_view e = f[5];
      const bool located_rejection = rejection(e, true);
      if (op_ == Op::ValidateTensor && e != "valid" && !located_rejection)
        return bad("expect", e, "`valid` or !rule@where");
      uint64_t nout = 0;
      if (op_ == Op::Dequantize && !located_rejection && !list(e, false, &nout, word(8)))
        return bad("expect", e, "a comma list of binary32 words or !rule@where");
      // A tensor the spec rejects for its shape may break any count; every other one has the
      // planes its shape implies (rule precedence: shape first).
      if (e.substr(0, 7) == "!shape@") return {};
      const uint64_t scales = group_ ? sh.rows * ((sh.k + group_ - 1) / group_) : sh.rows;
      if (ncodes != sh.elements) return count_mismatch("codes", "items", ncodes, sh.elements, f[1]);
      if (nscales != scales) return count_mismatch("scales", "items", nscales, scales, f[1]);
      if ((f[4] != "-") != has_divisor_)
        return bad("divisor", f[4], has_divisor_ ? "present (NVFP4 has one)" : "`-` (this format has no divisor)");
      if (op_ == Op::Dequantize && !located_rejection && nout != sh.elements)
        return count_mismatch("expect", "items", nout, sh.elements, f[1]);
      return {};
    }
  }
  return {};
}

}  // namespace nc::corpus
