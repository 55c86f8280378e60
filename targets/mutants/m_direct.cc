// Direct-format, recipe and registry mutants (spec 3.1, 3.2, docs/recipes.md).
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "registry/registry.h"
#include "targets/mutants/mutant.h"
#include "targets/mutants/words.h"

namespace nc::mutants {
namespace {

bool is_f32_nan(uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x007fffffu); }

// BF16 NaNs canonicalised to 0x7fc00000 on the way through (a float round trip through a
// library that "normalises" NaN); spec 3.1 requires the payload and quiet bit kept.
int decode_bf16_canonical_nan(nc_word_type wt, const uint32_t* w, size_t n, uint32_t* out, uint8_t* valid) {
  if (wt != NC_WT_BF16) return base().decode ? base().decode(wt, w, n, out, valid) : NC_EUNSUPPORTED;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t x = (w[i] & 0xffffu) << 16;
    out[i] = is_f32_nan(x) ? 0x7fc00000u : x;
    valid[i] = 1;
  }
  return NC_OK;
}

// What a convert_one returns for a word it leaves to the base table.
constexpr uint32_t kDelegate = ~0u;

// Applies `convert_one` for `recipe` and delegates every other recipe.
template <nc_recipe recipe, uint32_t (*convert_one)(uint32_t)>
int convert_with(nc_recipe r, const uint32_t* src, size_t n, uint32_t* out) {
  if (r != recipe) return base().convert ? base().convert(r, src, n, out) : NC_EUNSUPPORTED;
  // Words this mutant does not handle itself go to the base one at a time.
  for (size_t i = 0; i < n; ++i) {
    out[i] = convert_one(src[i]);
    if (out[i] == kDelegate) {
      if (!base().convert) return NC_EUNSUPPORTED;
      const int rc = base().convert(r, &src[i], 1, &out[i]);
      if (rc != NC_OK) return rc;
    }
  }
  return NC_OK;
}
// F32_TO_BF16 by dropping the low half: rounds toward zero, and a NaN whose payload sits only in
// the low 16 bits becomes infinity.
uint32_t bf16_truncate(uint32_t w) { return w >> 16; }

// (w + 0x8000) >> 16: the usual "round" that forgets the tie-to-even term, so ties go away from
// zero. NaNs are left to the base (this mutant's bug is the tie only).
uint32_t bf16_ties_away(uint32_t w) { return is_f32_nan(w) ? kDelegate : (w + 0x8000u) >> 16; }

// Binary16 overflow taken at the largest finite value: anything above 65504 becomes infinity,
// though values below 65520 round to 65504 under RNE.
uint32_t f16_overflow_at_max_finite(uint32_t w) {
  const float x = f32_from_bits(w);
  if (std::isfinite(x) && std::fabs(x) > 65504.0f) return (w & 0x80000000u ? 0x8000u : 0u) | 0x7c00u;
  return kDelegate;
}

// F32_TO_F16_RNE with subnormal results flushed to a signed zero: a vector path run with the FPU's
// flush-to-zero mode on.
int convert_f16_ftz(nc_recipe r, const uint32_t* src, size_t n, uint32_t* out) {
  if (!base().convert) return NC_EUNSUPPORTED;
  const int rc = base().convert(r, src, n, out);
  if (rc != NC_OK || r != NC_RECIPE_F32_TO_F16_RNE) return rc;
  for (size_t i = 0; i < n; ++i)
    if ((out[i] & 0x7c00u) == 0) out[i] &= 0x8000u;  // a subnormal (or zero) result: keep only the sign
  return NC_OK;
}

// F32_TO_E4M3FN_RNE_SATFINITE served by the overflow-to-NaN rule (the OVF/SAT swap: the two
// recipes share everything but overflow, and a table that picks the wrong one passes the rest).
int convert_e4m3_sat_as_ovf(nc_recipe r, const uint32_t* src, size_t n, uint32_t* out) {
  if (!base().convert) return NC_EUNSUPPORTED;
  return base().convert(r == NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE ? NC_RECIPE_F32_TO_E4M3FN_RNE_OVF_NAN : r, src, n,
                        out);
}

// F32_TO_E4M3FN_RNE_SATFINITE by way of binary16 (a library that only has a half -> fp8 kernel):
// two roundings, so an input just above an E4M3FN tie can land on the tie and round to even.
int convert_e4m3_through_f16(nc_recipe r, const uint32_t* src, size_t n, uint32_t* out) {
  if (!base().convert || !base().decode) return NC_EUNSUPPORTED;
  if (r != NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE) return base().convert(r, src, n, out);
  std::vector<uint32_t> half(n), wide(n);
  std::vector<uint8_t> valid(n);
  int rc = base().convert(NC_RECIPE_F32_TO_F16_RNE, src, n, half.data());
  if (rc == NC_OK) rc = base().decode(NC_WT_F16, half.data(), n, wide.data(), valid.data());
  if (rc == NC_OK) rc = base().convert(r, wide.data(), n, out);
  return rc;
}

// Execution QType names and prose abbreviations accepted as aliases (spec 3.1 and 3.2 forbid it).
int parse_with_aliases(const char* name, size_t len, int32_t* out) {
  static constexpr struct {
    std::string_view alias;
    nc_format format;
  } kAliases[] = {{"INT32", NC_FORMAT_I32},
                  {"I32_CTRL", NC_FORMAT_I32},
                  {"BF16_CTRL", NC_FORMAT_BF16},
                  {"FP32_CTRL", NC_FORMAT_FP32},
                  {"W8G32", NC_FORMAT_W8G32_F16S}};
  const std::string_view s(name, len);
  for (const auto& a : kAliases)
    if (s == a.alias) return *out = a.format, NC_OK;
  return base().parse_format ? base().parse_format(name, len, out) : NC_EUNSUPPORTED;
}

// Names compared case-insensitively ("bf16" accepted): identifiers treated as spellings.
int parse_case_insensitive(const char* name, size_t len, int32_t* out) {
  const std::string_view s(name, len);
  for (const FormatInfo& f : kFormats) {
    if (f.name.size() != s.size()) continue;
    bool same = true;
    for (size_t i = 0; i < s.size() && same; ++i)
      same = std::toupper(static_cast<unsigned char>(s[i])) == static_cast<unsigned char>(f.name[i]);
    if (same) return *out = int32_t(f.id), NC_OK;
  }
  *out = -1;
  return NC_OK;
}

// Grouped names read by a grammar, [QW]<bits>G<group>_F16S with both numbers parsed as integers,
// then checked against the registered triples: "Q4G064_F16S" and "Q+4G64_F16S" resolve. Spec 3.2:
// the names are identifiers, not a grammar. Every other name goes to the base table.
int parse_grouped_grammar(const char* name, size_t len, int32_t* out) {
  const std::string s(name, len);
  const bool shaped = len > 6 && (s[0] == 'Q' || s[0] == 'W') && s.compare(len - 5, 5, "_F16S") == 0;
  auto number_starts = [](const char* p) { return std::isdigit(static_cast<unsigned char>(*p)) || *p == '+'; };
  if (shaped && number_starts(s.c_str() + 1)) {
    char* g_at;
    const unsigned long bits = std::strtoul(s.c_str() + 1, &g_at, 10);
    if (*g_at == 'G' && number_starts(g_at + 1)) {
      char* end;
      const unsigned long group = std::strtoul(g_at + 1, &end, 10);
      if (end == s.c_str() + len - 5) {
        *out = -1;
        if (s[0] == 'Q' && group == 64 && bits >= 4 && bits <= 6)
          *out = int32_t(NC_FORMAT_Q4G64_F16S) + int32_t(bits - 4);
        if (s[0] == 'W' && group == 32 && bits == 8) *out = NC_FORMAT_W8G32_F16S;
        return NC_OK;
      }
    }
  }
  return base().parse_format ? base().parse_format(name, len, out) : NC_EUNSUPPORTED;
}

void install_bf16_nan(nc_plugin_v1* t) { t->decode = decode_bf16_canonical_nan; }
void install_truncate(nc_plugin_v1* t) { t->convert = convert_with<NC_RECIPE_F32_TO_BF16_RNE, bf16_truncate>; }
void install_ties_away(nc_plugin_v1* t) { t->convert = convert_with<NC_RECIPE_F32_TO_BF16_RNE, bf16_ties_away>; }
void install_f16_overflow(nc_plugin_v1* t) {
  t->convert = convert_with<NC_RECIPE_F32_TO_F16_RNE, f16_overflow_at_max_finite>;
}
void install_f16_ftz(nc_plugin_v1* t) { t->convert = convert_f16_ftz; }
void install_e4m3_sat_as_ovf(nc_plugin_v1* t) { t->convert = convert_e4m3_sat_as_ovf; }
void install_e4m3_through_f16(nc_plugin_v1* t) { t->convert = convert_e4m3_through_f16; }
// A leading UTF-8 byte-order mark dropped before the lookup, as a text reader that decodes with
// Python's "utf-8-sig" or skips a BOM at the start of a field does: "\xef\xbb\xbfBF16" accepted.
int parse_bom_stripped(const char* name, size_t len, int32_t* out) {
  if (len >= 3 && std::string_view(name, 3) == "\xef\xbb\xbf") name += 3, len -= 3;
  return base().parse_format ? base().parse_format(name, len, out) : NC_EUNSUPPORTED;
}

void install_aliases(nc_plugin_v1* t) { t->parse_format = parse_with_aliases; }
void install_bom_stripped(nc_plugin_v1* t) { t->parse_format = parse_bom_stripped; }
void install_case_insensitive(nc_plugin_v1* t) { t->parse_format = parse_case_insensitive; }
void install_grouped_grammar(nc_plugin_v1* t) { t->parse_format = parse_grouped_grammar; }

}  // namespace

std::span<const Mutant> direct_mutants() {
  static const Mutant kMutants[] = {
      {{"bf16-nan-canonicalized", "direct", "decode", "BF16 NaN words decoded as canonical 0x7fc00000", "decode.BF16",
        "nan-payload", "nan payload"},
       install_bf16_nan},
      {{"f32-to-bf16-truncate", "direct", "convert", "F32_TO_BF16_RNE by truncation", "convert.F32_TO_BF16_RNE", "tie",
        "round"},
       install_truncate},
      {{"f32-to-bf16-ties-away", "direct", "convert", "F32_TO_BF16_RNE ties away from zero", "convert.F32_TO_BF16_RNE",
        "tie", "tie even"},
       install_ties_away},
      {{"f32-to-f16-overflow-65504", "direct", "convert", "F32_TO_F16_RNE overflows above 65504 instead of at 65520",
        "convert.F32_TO_F16_RNE", "overflow", "overflow"},
       install_f16_overflow},
      {{"f32-to-f16-ftz", "direct", "convert", "F32_TO_F16_RNE with subnormal results flushed to zero (FTZ)",
        "convert.F32_TO_F16_RNE", "subnormal", "subnormal"},
       install_f16_ftz},
      {{"e4m3-satfinite-as-ovf-nan", "direct", "convert",
        "F32_TO_E4M3FN_RNE_SATFINITE served by the OVF_NAN recipe (overflow gives NaN)",
        "convert.F32_TO_E4M3FN_RNE_SATFINITE", "overflow", "overflow"},
       install_e4m3_sat_as_ovf},
      {{"f32-to-e4m3-through-f16", "direct", "convert",
        "F32_TO_E4M3FN_RNE_SATFINITE rounded to binary16 first (double rounding)",
        "convert.F32_TO_E4M3FN_RNE_SATFINITE", "tie", "tie round"},
       install_e4m3_through_f16},
      {{"registry-aliases", "direct", "parse", "INT32, *_CTRL and W8G32 accepted as aliases", "parse*", "alias",
        "alias look-alike"},
       install_aliases},
      {{"registry-case-insensitive", "direct", "parse", "format names matched case-insensitively", "parse*", "case",
        "case"},
       install_case_insensitive},
      {{"registry-integer-fields", "direct", "parse",
        "grouped names parsed as [QW]<int>G<int>_F16S: Q4G064_F16S, Q+4G64_F16S accepted", "parse*", "numeric-field",
        "integer grammar"},
       install_grouped_grammar},
      {{"registry-bom-stripped", "direct", "parse", "a leading UTF-8 byte-order mark skipped before the lookup",
        "parse*", "bom", "byte-order mark bom"},
       install_bom_stripped},
  };
  return kMutants;
}

}  // namespace nc::mutants
