// validate-tensor.* and parse.* domains (issue 32, items 3 and 4): the tensor check and the name
// lookup judged systematically rather than on hand lists.
//
// validate-tensor.FMT: every scale word of the format's scale plane placed into each of a few
// minimal valid tensors (a lone element, a zero code beside it, the partial final group or the
// last row of a larger tensor), and for NVFP4 also every divisor class (each NaN kind with its
// payload extremes, the infinities, both zeros, subnormals, the extremes of the normal range, and
// negative values) in a valid tensor; each result (the rule and where) against
// oracle::validate_tensor, the project's exact reference (oracle/validity.h; its word rules are
// integer tests, no host float).
//
// parse.registry: every one-edit variant of each canonical name and of each non-name the spec
// lists (insert, delete or substitute any byte at any position, transpose two neighbours, case
// changes, a leading byte-order mark, separators removed, replaced or doubled, and whitespace or
// control bytes around the name); each must be refused except the nine names themselves. The
// accepted list is written out here from spec section 1, not taken from registry/.
#include <algorithm>
#include <array>
#include <set>

#include "corpus/schema.h"
#include "oracle/validity.h"
#include "registry/registry.h"
#include "runners/sweep/families.h"
#include "runners/vocabulary.h"

namespace nc::sweep {

namespace {

// ---------------------------------------------------------------------------------------------
// validate-tensor

// A tensor the domain presents, and what it is (for the mismatch class).
struct Placed {
  oracle::Tensor tensor;
  std::string where;  // "lone", "zero-code", "partial-group", "last-row", "divisor"
};

struct Plane {
  uint32_t words;          // scale words of the plane: 2^bits
  uint32_t one;            // a valid nonzero scale (1.0)
  uint32_t negative_code;  // the most negative legal code (grouped: the sign bit alone; W8 0x81)
  uint32_t nonzero_code;   // a legal nonzero code
};

Plane plane_of(Format f) {
  switch (f) {
    case Format::NVFP4:
      return {256, 0x38, 0x8, 0x1};
    case Format::FP8_E4M3FN_ROW_BF16S:
      return {65536, 0x3f80, 0xfe, 0x01};
    case Format::W8G32_F16S:
      return {65536, 0x3c00, 0x81, 0x01};
    default:
      return {65536, 0x3c00, 1u << (info(info(f).code).bits - 1), 0x01};
  }
}

// NVFP4's divisor classes: every kind of binary32 word a d_w field can hold (spec 3.3: finite and
// strictly positive is valid), each NaN kind with the smallest and largest payload.
constexpr uint32_t kDivisorClasses[] = {
    0x00000000u, 0x80000000u,                                         // +0, -0
    0x00000001u, 0x00000002u, 0x00400000u, 0x007fffffu,               // positive subnormals: valid
    0x80000001u, 0x807fffffu,                                         // negative subnormals
    0x00800000u, 0x3f800000u, 0x3f800001u, 0x7f7ffffeu, 0x7f7fffffu,  // positive normals: valid
    0x80800000u, 0xbf800000u, 0xff7fffffu,                            // negative normals
    0x7f800000u, 0xff800000u,                                         // +inf, -inf
    0x7fc00000u, 0x7fc00001u, 0x7fffffffu,                            // +quiet NaN: payload 0, 1, all ones
    0x7f800001u, 0x7fa00000u, 0x7fbfffffu,  // +signalling NaN: smallest, middle, largest payload
    0xffc00000u, 0xffc00001u, 0xffffffffu,  // -quiet NaN
    0xff800001u, 0xffa00000u, 0xffbfffffu,  // -signalling NaN
};
constexpr uint64_t kDivisorCount = sizeof kDivisorClasses / sizeof kDivisorClasses[0];

std::string divisor_class(uint32_t d) {
  const bool neg = d >> 31;
  const uint32_t e = (d >> 23) & 0xff, m = d & 0x7fffff;
  std::string s = neg ? "negative-" : "positive-";
  if (e == 0xff) return s + (m == 0 ? "infinity" : (m & 0x400000) ? "quiet-nan" : "signalling-nan");
  if (e == 0) return s + (m == 0 ? "zero" : "subnormal");
  return s + (d == 0x7f7fffffu || d == 0xff7fffffu ? "max-finite" : "normal");
}

// The class of a scale word: zero, subnormal, normal, max-finite, infinity, nan, by sign.
std::string scale_class(Format f, uint32_t w) {
  uint32_t sign, e, m, emax, fbits;
  bool has_inf;
  if (f == Format::NVFP4) sign = w >> 7, e = (w >> 3) & 0xf, m = w & 7, emax = 15, fbits = 3, has_inf = false;
  else if (f == Format::FP8_E4M3FN_ROW_BF16S)
    sign = w >> 15, e = (w >> 7) & 0xff, m = w & 0x7f, emax = 255, fbits = 7, has_inf = true;
  else sign = w >> 15, e = (w >> 10) & 0x1f, m = w & 0x3ff, emax = 31, fbits = 10, has_inf = true;
  const uint32_t mmax = (1u << fbits) - 1;
  std::string s = sign ? "negative-" : "positive-";
  if (e == emax && (has_inf || m == mmax)) return s + (has_inf && m == 0 ? "infinity" : "nan");
  if (e == 0) return s + (m == 0 ? "zero" : "subnormal");
  const bool top = has_inf ? (e == emax - 1 && m == mmax) : (e == emax && m == mmax - 1);
  return s + (top ? "max-finite" : "normal");
}

struct TensorDomain : Domain {
  Format format;
  Plane plane;
  uint32_t group = 0;  // elements per scale along K (grouped, NVFP4); 0: FP8 row
  int placements = 0;  // tensors per scale word
  std::string name() const override { return "validate-tensor." + std::string(info(format).name); }
  std::string op() const override { return "validate-tensor " + std::string(info(format).name); }
  uint64_t size() const override {
    return uint64_t(plane.words) * uint64_t(placements) + (format == Format::NVFP4 ? kDivisorCount : 0);
  }

  // The tensor of index i: scale word i / placements in placement i % placements, or a divisor class.
  Placed tensor(uint64_t i) const {
    Placed p;
    oracle::Tensor& t = p.tensor;
    const uint64_t words = uint64_t(plane.words) * uint64_t(placements);
    if (i >= words) {  // NVFP4 divisor classes, each in a valid [1, 16] tensor
      t.shape = {1, 16};
      t.codes.assign(16, plane.nonzero_code);
      t.scales = {plane.one};
      t.divisor = kDivisorClasses[i - words];
      p.where = "divisor";
      return p;
    }
    const uint32_t w = uint32_t(i / uint64_t(placements));
    const int placement = int(i % uint64_t(placements));
    const bool nvfp4 = format == Format::NVFP4, fp8 = format == Format::FP8_E4M3FN_ROW_BF16S;
    if (nvfp4) t.divisor = 0x3f800000u;
    if (placement == 0 || placement == 1) {
      // A lone group (or row): one nonzero code (placement 0) or the signed zero codes (1).
      const uint64_t k = nvfp4 ? 16 : fp8 ? 2 : 1;
      t.shape = {1, k};
      if (!nvfp4 && !fp8) t.shape = {k};  // grouped: rank 1
      if (placement == 0) t.codes.assign(k, plane.nonzero_code);
      else if (fp8) t.codes = {0x80, 0x00};       // both zero words beside the scale
      else t.codes.assign(k, nvfp4 ? 0x8 : 0x0);  // NVFP4: -0 codes; grouped: the zero code
      t.scales = {w};
      p.where = placement == 0 ? "lone" : "zero-code";
      return p;
    }
    // placement 2: a larger tensor, the word as the last scale (grouped: the partial final group of
    // the last row; NVFP4: the last block; FP8 row: the last row), every other scale 1.0; the codes
    // around it are the most negative legal code and a nonzero code, and in the word's own group
    // the most negative legal code (a zero test must see its sign bit).
    if (fp8) {
      t.shape = {3, 2};
      t.codes = {0x01, 0x80, 0xfe, 0x00, 0x80, 0x00};
      t.scales = {plane.one, plane.one, w};
      p.where = "last-row";
    } else if (nvfp4) {
      t.shape = {2, 32};
      t.codes.assign(64, 0x9);
      t.codes.back() = 0x8;
      t.scales = {plane.one, plane.one, plane.one, w};
      p.where = "last-block";
    } else {
      const uint64_t k = uint64_t(group) + 1;
      t.shape = {2, k};
      t.codes.assign(2 * k, plane.nonzero_code);
      t.codes[k] = plane.negative_code;
      t.codes.back() = plane.negative_code;  // the partial group's one element
      t.scales = {plane.one, plane.one, plane.one, w};
      p.where = "partial-group";
    }
    return p;
  }

  void run(const nc_plugin_v1& t, uint64_t begin, uint64_t end, uint64_t stride, size_t keep, const Calls& /*calls*/,
           Tally& tally, CellCounts& /*cells*/) const override {
    const FormatInfo& fi = info(format);
    const int code_digits = corpus::word_hex_digits(fi.code), scale_digits = corpus::word_hex_digits(*fi.scale);
    for (uint64_t i = begin; i < end; i += stride) {
      const Placed p = tensor(i);
      const oracle::Tensor& x = p.tensor;
      int32_t rule = -1;
      int64_t where = -1;
      // The target is handed a copy: it may write into what it is handed (a torch tensor over the
      // runner's read-only NumPy view is writable), and x is what is judged and reported.
      const oracle::Tensor sent = x;
      int rc = t.validate_tensor
                   ? t.validate_tensor(nc_format(int(format)), sent.shape.size(), sent.shape.data(), sent.codes.data(),
                                       sent.codes.size(), sent.scales.data(), sent.scales.size(),
                                       sent.divisor ? &*sent.divisor : nullptr, &rule, &where)
                   : NC_EUNSUPPORTED;
      if (rc == NC_EUNSUPPORTED) {
        ++tally.unsupported;
        continue;
      }
      if (rc != NC_OK) {
        tally.target_error = "target returned status " + std::to_string(rc) + " at index " + std::to_string(i);
        return;
      }
      ++tally.covered;
      const std::string want = oracle::validate_tensor(format, x).text();
      std::string got;
      if (rule == NC_RULE_NONE) {
        got = "valid";
      } else if (rule < NC_RULE_NONE || rule > NC_RULE_DIVISOR) {
        got = "rule " + std::to_string(rule);
      } else {
        got = "!" + std::string(runners::rule_name(nc_rule(rule))) + "@";
        const char plane_letter = runners::rule_plane(nc_rule(rule));
        if (plane_letter && where >= 0) got += plane_letter + std::to_string(where);
        else got += '-';
      }
      if (got == want) continue;
      const std::string what = p.where == "divisor" ? divisor_class(*x.divisor) : scale_class(format, x.scales.back());
      const std::string how = want == "valid"                                                  ? "rejected"
                              : got == "valid"                                                 ? "accepted"
                              : want.substr(0, want.find('@')) == got.substr(0, got.find('@')) ? "wrong-place"
                                                                                               : "wrong-rule";
      std::vector<std::string> codes, scales;
      for (uint32_t c : x.codes) codes.push_back(hex_word(c, code_digits));
      for (uint32_t s : x.scales) scales.push_back(hex_word(s, scale_digits));
      std::string shape;
      for (uint64_t e : x.shape) {  // piecewise: GCC 12 -Wrestrict misfires on "x" + string
        if (!shape.empty()) shape += 'x';
        shape += std::to_string(e);
      }
      auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (const std::string& s : v) {
          if (!out.empty()) out += ',';
          out += s;
        }
        return out;
      };
      tally.count({i,
                   p.where + ":" + what + ":" + how,
                   {shape, join(codes), join(scales), x.divisor ? hex_word(*x.divisor, 8) : "-"},
                   want,
                   got},
                  keep);
    }
  }
};

constexpr Format kTensorFormats[] = {Format::Q4G64_F16S, Format::Q5G64_F16S, Format::Q6G64_F16S,
                                     Format::W8G32_F16S, Format::NVFP4,      Format::FP8_E4M3FN_ROW_BF16S};

std::unique_ptr<Domain> tensor_domain(Format f) {
  auto d = std::make_unique<TensorDomain>();
  d->format = f;
  d->plane = plane_of(f);
  d->group = f == Format::FP8_E4M3FN_ROW_BF16S ? 0 : info(f).group_size;
  d->placements = 3;
  return d;
}

// ---------------------------------------------------------------------------------------------
// parse.registry

// Spec section 1, in its order (the ABI's nc_format numbering follows it).
constexpr const char* kCanonical[] = {"BF16",       "FP32",       "I32",   "Q4G64_F16S",          "Q5G64_F16S",
                                      "Q6G64_F16S", "W8G32_F16S", "NVFP4", "FP8_E4M3FN_ROW_BF16S"};
// The non-names the spec lists: section 1 ("FP16, bare FP8_E4M3FN, I64, Q4G32_F16S, Q6G128_F16S,
// and W8G64_F16S do not become valid"), 3.1 (INT32; the internal *_CTRL names), 3.2 (Q4, Q5, Q6,
// W8G32), 11 (FP64, Q2, Q3, NF4).
constexpr const char* kNonNames[] = {"FP16",  "FP8_E4M3FN", "I64",       "Q4G32_F16S", "Q6G128_F16S", "W8G64_F16S",
                                     "INT32", "BF16_CTRL",  "FP32_CTRL", "I32_CTRL",   "Q4",          "Q5",
                                     "Q6",    "W8G32",      "FP64",      "Q2",         "Q3",          "NF4"};

// How a variant was made (the first half of a mismatch class).
enum Edit : uint8_t { Base, Insert, Delete, Substitute, Transpose, Case, Bom, Separator, Surround, EditCount };
constexpr const char* kEditNames[] = {"as-listed", "insert", "delete",    "substitute", "transpose",
                                      "case",      "bom",    "separator", "surround"};

struct Variant {
  std::string bytes;
  Edit edit;
};

std::vector<Variant> parse_variants() {
  std::vector<Variant> out;
  std::set<std::string> seen;
  auto add = [&](std::string s, Edit e) {
    if (seen.insert(s).second) out.push_back({std::move(s), e});
  };
  std::vector<std::string> bases(std::begin(kCanonical), std::end(kCanonical));
  bases.insert(bases.end(), std::begin(kNonNames), std::end(kNonNames));
  for (const std::string& s : bases) add(s, Base);
  for (const std::string& s : bases) {
    const size_t n = s.size();
    for (size_t p = 0; p <= n; ++p)
      for (int b = 0; b < 256; ++b) add(s.substr(0, p) + char(b) + s.substr(p), Insert);
    for (size_t p = 0; p < n; ++p) add(s.substr(0, p) + s.substr(p + 1), Delete);
    for (size_t p = 0; p < n; ++p)
      for (int b = 0; b < 256; ++b)
        if (char(b) != s[p]) {
          std::string v = s;
          v[p] = char(b);
          add(v, Substitute);
        }
    for (size_t p = 0; p + 1 < n; ++p)
      if (s[p] != s[p + 1]) {
        std::string v = s;
        std::swap(v[p], v[p + 1]);
        add(v, Transpose);
      }
    // Case: all lower, title case, alternating, and each letter's case flipped alone.
    std::string lower = s, title = s, alternate = s;
    for (size_t p = 0; p < n; ++p) {
      const char c = s[p];
      const char l = (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
      lower[p] = l;
      if (p) title[p] = l;
      if (p % 2) alternate[p] = l;
    }
    add(lower, Case), add(title, Case), add(alternate, Case);
    for (size_t p = 0; p < n; ++p)
      if (s[p] >= 'A' && s[p] <= 'Z') {
        std::string v = s;
        v[p] = char(s[p] - 'A' + 'a');
        add(v, Case);
      }
    // Byte-order marks: UTF-8 (EF BB BF), UTF-16 BE and LE, before the name; UTF-8's after it.
    add("\xef\xbb\xbf" + s, Bom), add("\xfe\xff" + s, Bom), add("\xff\xfe" + s, Bom), add(s + "\xef\xbb\xbf", Bom);
    // Separators: every underscore removed, each replaced by another separator, doubled.
    if (s.find('_') != std::string::npos) {
      std::string none, hyphen, dot, space, doubled;
      for (char c : s) {
        if (c != '_') {
          none += c, hyphen += c, dot += c, space += c, doubled += c;
          continue;
        }
        hyphen += '-', dot += '.', space += ' ', doubled += "__";
      }
      add(none, Separator), add(hyphen, Separator), add(dot, Separator), add(space, Separator), add(doubled, Separator);
    }
    // Around the name: each ASCII control byte and the space before, after and on both sides;
    // CR LF; the Unicode spaces a trimming routine may strip (NBSP, NEL, ZWSP, ideographic space).
    for (int b = 0; b <= 0x20; ++b) {
      const std::string c(1, char(b));
      add(c + s, Surround), add(s + c, Surround), add(c + s + c, Surround);
    }
    add(std::string(1, '\x7f') + s, Surround), add(s + '\x7f', Surround);
    add(s + "\r\n", Surround);
    for (const char* u : {"\xc2\xa0", "\xc2\x85", "\xe2\x80\x8b", "\xe3\x80\x80"})
      add(std::string(u) + s, Surround), add(s + u, Surround);
  }
  return out;
}

int32_t canonical_index(const std::string& s) {
  for (int32_t i = 0; i < 9; ++i)
    if (s == kCanonical[i]) return i;
  return -1;
}

std::string printable(const std::string& s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) out += kHex[c >> 4], out += kHex[c & 15];
  return out.empty() ? "\"\"" : out;
}

struct ParseDomain : Domain {
  std::vector<Variant> variants = parse_variants();
  std::string name() const override { return "parse.registry"; }
  std::string op() const override { return "parse"; }
  uint64_t size() const override { return variants.size(); }

  void run(const nc_plugin_v1& t, uint64_t begin, uint64_t end, uint64_t stride, size_t keep, const Calls& /*calls*/,
           Tally& tally, CellCounts& /*cells*/) const override {
    for (uint64_t i = begin; i < end; i += stride) {
      const Variant& v = variants[i];
      int32_t got = -2;
      int rc = t.parse_format ? t.parse_format(v.bytes.data(), v.bytes.size(), &got) : NC_EUNSUPPORTED;
      if (rc == NC_EUNSUPPORTED) {
        ++tally.unsupported;
        continue;
      }
      if (rc != NC_OK) {
        tally.target_error = "target returned status " + std::to_string(rc) + " at index " + std::to_string(i);
        return;
      }
      ++tally.covered;
      const int32_t want = canonical_index(v.bytes);
      if (got == want) continue;
      auto text = [](int32_t f) {
        return f == -1           ? std::string("!unknown-format")
               : f >= 0 && f < 9 ? std::string(kCanonical[f])
                                 : "format " + std::to_string(f);
      };
      const std::string how = want == -1 ? "accepted" : got == -1 ? "rejected" : "wrong-format";
      tally.count({i, std::string(kEditNames[v.edit]) + ":" + how, {printable(v.bytes)}, text(want), text(got)}, keep);
    }
  }
};

}  // namespace

Family tensor_family() {
  return {[] {
            std::vector<std::string> names;
            for (Format f : kTensorFormats) names.push_back("validate-tensor." + std::string(info(f).name));
            names.push_back("parse.registry");
            return names;
          },
          [](const std::string& name) -> std::unique_ptr<Domain> {
            for (Format f : kTensorFormats)
              if (name == "validate-tensor." + std::string(info(f).name)) return tensor_domain(f);
            if (name == "parse.registry") return std::make_unique<ParseDomain>();
            return nullptr;
          }};
}

}  // namespace nc::sweep
