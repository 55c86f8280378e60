// Oracle vs codec (two independent derivations of the spec) over every word of the 4-, 5-, 6-,
// 8- and 16-bit word types, every (binary16 scale, Q4 code) pair, the reconstruction equations,
// the recipes on a dense binary32 sweep, and the canonical encoder on seeded groups. A mismatch
// prints both answers; the first few are reported, then the count.
#include <catch2/catch.hpp>

#include <sstream>

#include "codec/fp8_row.h"
#include "codec/grouped.h"
#include "codec/maxabs_f16_recip_rne_v1.h"
#include "codec/nvfp4.h"
#include "codec/recipes.h"
#include "codec/result.h"
#include "codec/tensor.h"
#include "codec/words.h"
#include "generator/splitmix64.h"
#include "oracle/decode.h"
#include "oracle/maxabs_f16_recip_rne_v1.h"
#include "oracle/recipes.h"
#include "oracle/reconstruct.h"
#include "oracle/validity.h"

using namespace nc;
namespace o = nc::oracle;

namespace {
struct Mismatches {
  int count = 0;
  void add(const std::string& what) {
    if (++count <= 8) FAIL_CHECK(what);
  }
};

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << std::hex << v;
  return s.str();
}

using nc::gen::SplitMix64;  // the project's one seeded PRNG (generator/splitmix64.h)

bool f32_is_nan(uint32_t w) { return (w & 0x7f800000u) == 0x7f800000u && (w & 0x7fffffu) != 0; }
}  // namespace

TEST_CASE("crosscheck: every word of every word type up to 16 bits", "[oracle][codec]") {
  o::Context ctx;
  Mismatches mm;
  const WordType types[] = {WordType::BF16,    WordType::F16,     WordType::E4M3FN,  WordType::E2M1,
                            WordType::Q4_CODE, WordType::Q5_CODE, WordType::Q6_CODE, WordType::W8_CODE};
  for (WordType t : types) {
    const uint32_t n = 1u << info(t).bits;
    for (uint32_t w = 0; w < n; ++w) {
      const o::Decoded d = o::decode(ctx, t, w);
      const std::string where = std::string(info(t).name) + " " + hex(w);
      if (codec::is_float_word(t)) {
        const uint32_t c = codec::float_word_to_f32(t, w);
        if (d.binary32) {
          if (*d.binary32 != c) mm.add(where + ": oracle " + hex(*d.binary32) + " codec " + hex(c));
        } else if (!f32_is_nan(c)) {
          mm.add(where + ": oracle NaN (no payload), codec " + hex(c));
        }
        if (static_cast<int>(codec::float_word_class(t, w)) != static_cast<int>(d.cls))
          mm.add(where + ": class differs");
      } else {
        const auto c = codec::int_word_value(t, w);
        if (c.ok() != d.valid) mm.add(where + ": validity differs");
        if (c.ok() && c.value() != *d.integer)
          mm.add(where + ": oracle " + std::to_string(*d.integer) + " codec " + std::to_string(c.value()));
      }
    }
  }
  CHECK(mm.count == 0);
}

TEST_CASE("crosscheck: every (binary16 scale, Q4 code) reconstruction and scale rule", "[oracle][codec]") {
  o::Context ctx;
  Mismatches mm;
  for (uint32_t s = 0; s < 0x10000; ++s) {
    const auto rule = codec::f16_scale_rule(s);
    const std::string_view orule = o::word_rule(Format::Q4G64_F16S, Component::Scale, s);
    if ((rule ? codec::rule_token(*rule) : std::string_view()) != orule) mm.add("scale " + hex(s) + ": rule differs");
    if (rule) continue;
    for (uint32_t q = 0; q < 16; ++q) {
      const o::Reconstructed r = o::reconstruct_grouped(ctx, Format::Q4G64_F16S, q, s);
      if (r.rule != ((s == 0 && q != 0) ? "zero-scale-codes" : ""))
        mm.add("scale " + hex(s) + " code " + hex(q) + ": oracle rule");
      if (!r.rule.empty()) continue;  // an invalid pair: the plugin refuses it (plugin_test)
      const uint32_t c = codec::grouped_reconstruct(s, o::signed_code(WordType::Q4_CODE, q));
      if (r.binary32 != c)
        mm.add("scale " + hex(s) + " code " + hex(q) + ": oracle " + hex(r.binary32) + " codec " + hex(c));
    }
  }
  CHECK(mm.count == 0);
}

TEST_CASE("crosscheck: NVFP4 and FP8 row reconstruction", "[oracle][codec]") {
  o::Context ctx;
  Mismatches mm;
  SplitMix64 rng{0x4e56465034ull};
  // every (E2M1, E4M3FN scale) pair against 64 divisors: edge ones and seeded random finite ones
  std::vector<uint32_t> divisors{0x3f800000, 0x40400000, 0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0x3eaaaaab};
  while (divisors.size() < 64) {
    const uint32_t d = static_cast<uint32_t>(rng.next()) & 0x7fffffffu;
    if ((d >> 23) != 0xff && d != 0) divisors.push_back(d);
  }
  for (uint32_t d : divisors) {
    if (!codec::nvfp4_divisor_valid(d)) mm.add("divisor " + hex(d) + " rejected by codec");
    for (uint32_t s = 0; s < 256; ++s) {
      const auto rule = codec::e4m3fn_block_scale_rule(s);
      if ((rule ? codec::rule_token(*rule) : std::string_view()) != o::word_rule(Format::NVFP4, Component::Scale, s))
        mm.add("NVFP4 scale " + hex(s) + ": rule differs");
      if (rule) continue;
      for (uint32_t c = 0; c < 16; ++c) {
        const uint32_t ow = o::reconstruct_nvfp4(ctx, c, s, d).binary32;
        const uint32_t cw = codec::nvfp4_reconstruct(c, s, d);
        if (ow != cw)
          mm.add("NVFP4 " + hex(c) + " " + hex(s) + " " + hex(d) + ": oracle " + hex(ow) + " codec " + hex(cw));
      }
    }
  }
  // every E4M3FN code against every 61st BF16 scale word plus the edges
  for (uint32_t s = 0; s < 0x10000; s += (s < 0x0100 || s > 0x7e00) ? 1 : 61) {
    const auto rule = codec::bf16_row_scale_rule(s);
    if ((rule ? codec::rule_token(*rule) : std::string_view()) !=
        o::word_rule(Format::FP8_E4M3FN_ROW_BF16S, Component::Scale, s))
      mm.add("BF16 row scale " + hex(s) + ": rule differs");
    if (rule) continue;
    for (uint32_t c = 0; c < 256; ++c) {
      if (codec::fp8_row_code_valid(c) != o::word_rule(Format::FP8_E4M3FN_ROW_BF16S, Component::Code, c).empty())
        mm.add("FP8 code " + hex(c) + ": validity differs");
      if (!codec::fp8_row_code_valid(c)) continue;
      if (s == 0 && (c & 0x7f) != 0) continue;  // an invalid pair (spec 3.4): refused, no value
      const uint32_t ow = o::reconstruct_fp8_row(ctx, c, s).binary32;
      const uint32_t cw = codec::fp8_row_reconstruct(c, s);
      if (ow != cw) mm.add("FP8 row " + hex(c) + " " + hex(s) + ": oracle " + hex(ow) + " codec " + hex(cw));
    }
  }
  CHECK(mm.count == 0);
}

TEST_CASE("crosscheck: recipes on a dense binary32 sweep", "[oracle][codec]") {
  o::Context ctx;
  Mismatches mm;
  // every high half, with low halves at the BF16 rounding boundaries and a few F16/E4M3/E2M1 ones
  const uint32_t lows[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x7fff, 0x8000, 0x8001, 0xffff};
  for (uint32_t hi = 0; hi < 0x10000; ++hi) {
    for (uint32_t lo : lows) {
      const uint32_t w = (hi << 16) | lo;
      for (int r = 0; r < o::kRecipeCount; ++r) {
        const uint32_t ow = o::convert(ctx, static_cast<o::Recipe>(r), w);
        const uint32_t cw = codec::convert(static_cast<codec::Recipe>(r), w);
        if (ow != cw)
          mm.add(std::string(o::recipe_name(static_cast<o::Recipe>(r))) + " " + hex(w) + ": oracle " + hex(ow) +
                 " codec " + hex(cw));
      }
    }
  }
  CHECK(mm.count == 0);
}

namespace {
// A seeded source value: mostly near the group's scale so codes spread over the interval, with
// ties (k + 1/2 steps), subnormals, zeros and huge values mixed in.
uint32_t sample_f32(SplitMix64& rng, int base_exp) {
  const uint32_t sign = static_cast<uint32_t>(rng.below(2)) << 31;
  switch (rng.below(32)) {
    case 0:
    case 1:
      return sign | static_cast<uint32_t>(rng.below(0x800000));  // subnormal / zero
    case 2:
      return sign;  // signed zero
    case 3:         // huge, rarely: one in a group makes the scale overflow
      if (rng.below(16) == 0) return sign | (0x7f000000u + static_cast<uint32_t>(rng.below(0x7fffff)));
      [[fallthrough]];
    default: {
      const int e = std::clamp(base_exp - static_cast<int>(rng.below(6)), 1, 254);
      return sign | (static_cast<uint32_t>(e) << 23) | static_cast<uint32_t>(rng.below(0x800000));
    }
  }
}
}  // namespace

TEST_CASE("crosscheck: canonical encoder on seeded groups", "[oracle][codec]") {
  o::Context ctx;
  Mismatches mm;
  const Format schemes[] = {Format::Q4G64_F16S, Format::Q5G64_F16S, Format::Q6G64_F16S, Format::W8G32_F16S};
  const int kGroups = 100000;  // per scheme
  for (Format f : schemes) {
    SplitMix64 rng{0x656e636f6465ull + static_cast<uint64_t>(f)};
    const uint32_t g = o::scheme_params(f).group_size;
    std::vector<uint64_t> src;
    int encoded = 0;
    for (int n = 0; n < kGroups; ++n) {
      // one group per encode call, of 1..G values; mostly binades where the scale is finite
      // every 50th call is a multi-row, multi-group matrix (partial tail groups included)
      const bool matrix = n % 50 == 0;
      const uint64_t rows = matrix ? 1 + rng.below(3) : 1;
      const uint64_t k = matrix ? 1 + rng.below(3 * g) : 1 + rng.below(g);
      const int base_exp =
          rng.below(8) == 0 ? static_cast<int>(rng.below(254)) + 1 : 97 + static_cast<int>(rng.below(50));
      const int source_kind = static_cast<int>(rng.below(16));
      o::SourceType ot = o::SourceType::FP32;
      codec::SourceType ct = codec::SourceType::FP32;
      src.assign(rows * k, 0);
      for (auto& w : src) {
        const uint32_t x = sample_f32(rng, base_exp);
        if (source_kind == 0) {  // F64 with random low bits: the source conversion rounds
          ot = o::SourceType::F64;
          ct = codec::SourceType::F64;
          const uint64_t sign = uint64_t{x >> 31} << 63;
          const uint64_t e = (x >> 23) & 0xff;
          w = e == 0 ? sign
                     : (sign | ((e - 127 + 1023) << 52) | (uint64_t{x & 0x7fffff} << 29) |
                        (rng.next() & ((1ull << 29) - 1)));
        } else if (source_kind == 1) {
          ot = o::SourceType::BF16;
          ct = codec::SourceType::BF16;
          w = x >> 16;
        } else {
          w = x;
        }
      }
      if (rng.below(1000) == 0)
        src[0] = ot == o::SourceType::BF16 ? 0x7fc0 : (ot == o::SourceType::F64 ? 0x7ff8000000000000ull : 0x7fc00000);
      const o::EncodeResult orr = o::encode_maxabs_f16_recip_rne_v1(ctx, f, ot, rows, k, src);
      const auto crr = codec::maxabs_f16_recip_rne_v1(f, ct, src, rows, k);
      const std::string where = std::string(info(f).name) + " group " + std::to_string(n);
      if (!crr.ok()) {
        mm.add(where + ": codec error " + crr.error().text());
        continue;
      }
      const codec::Encoding& c = crr.value();
      const std::string_view cfail = c.failure ? codec::rule_token(c.failure->rule) : std::string_view();
      if (cfail != o::failure_rule(orr.failure)) {
        mm.add(where + ": failure oracle '" + std::string(o::failure_rule(orr.failure)) + "' codec '" +
               std::string(cfail) + "'");
        continue;
      }
      if (orr.trace.size() != c.trace.size()) {
        mm.add(where + ": trace length oracle " + std::to_string(orr.trace.size()) + " codec " +
               std::to_string(c.trace.size()));
        continue;
      }
      if (!c.failure) {
        ++encoded;
        if (orr.scales != c.scales || orr.codes != c.codes) {
          mm.add(where + ": scales or codes differ");
          continue;
        }
      }
      for (size_t i = 0; i < orr.trace.size(); ++i) {
        const auto& a = orr.trace[i];
        const auto& b = c.trace[i];
        if (a.amax32 != b.amax32 || a.raw_scale32 != b.raw_scale32 || a.scale16 != b.scale16 || a.inv32 != b.inv32)
          mm.add(where + ": trace differs");
      }
      if (!c.failure && orr.normalized32 != c.normalized32) mm.add(where + ": normalized32 differs");
    }
    CHECK(encoded > kGroups / 2);  // most groups exercised the whole algorithm, not a failure
  }
  CHECK(mm.count == 0);
}

namespace {
// A seeded small tensor of a quantized format: mostly valid words, with an occasional illegal
// code, bad scale, zero scale with nonzero codes, bad divisor or wrong plane size.
o::Tensor random_tensor(SplitMix64& rng, Format f) {
  const FormatInfo& fi = info(f);
  o::Tensor t;
  const uint64_t n = 1 + rng.below(3), k = 1 + rng.below(fi.group_size ? 2 * fi.group_size + 3 : 40);
  t.shape = {n, k};
  const uint64_t span = fi.category == Category::RowScaledFloat ? k : fi.group_size;
  const uint64_t scales = n * ((k + span - 1) / span);
  const uint32_t code_mask = (1u << fi.code_bits) - 1;
  for (uint64_t i = 0; i < n * k; ++i) t.codes.push_back(static_cast<uint32_t>(rng.next()) & code_mask);
  for (uint64_t i = 0; i < scales; ++i) {
    uint32_t s;
    switch (fi.category) {
      case Category::GroupedInt:
        s = static_cast<uint32_t>(rng.below(0x7c00));
        break;
      case Category::BlockScaledFloat:
        s = static_cast<uint32_t>(rng.below(0x7f));
        break;
      default:
        s = static_cast<uint32_t>(rng.below(0x7f80));
        break;
    }
    if (rng.below(40) == 0)
      s = static_cast<uint32_t>(rng.next()) & (fi.category == Category::BlockScaledFloat ? 0xffu : 0xffffu);
    if (rng.below(20) == 0) s = 0;
    t.scales.push_back(s);
  }
  if (fi.category == Category::RowScaledFloat) {
    for (auto& c : t.codes)
      if ((c & 0x7f) == 0x7f && rng.below(4)) c &= 0xfe;
  }
  if (f == Format::W8G32_F16S) {
    for (auto& c : t.codes)
      if (c == 0x80 && rng.below(4)) c = 0x81;
  }
  if (fi.divisor)
    t.divisor = rng.below(10) == 0 ? static_cast<uint32_t>(rng.next())
                                   : 0x3f800000u + static_cast<uint32_t>(rng.below(1u << 23));
  if (rng.below(50) == 0) t.scales.pop_back();
  // In a zero-scale group or row, usually zero the codes so that the tensor is valid.
  for (uint64_t i = 0; i < n * k; ++i) {
    const uint64_t s = (i / k) * ((k + span - 1) / span) + (i % k) / span;
    if (s < t.scales.size() && t.scales[s] == 0 && rng.below(8)) t.codes[i] = 0;
  }
  return t;
}
}  // namespace

TEST_CASE("crosscheck: tensor validity (rule and location) and dequantize", "[oracle][codec]") {
  o::Context ctx;
  Mismatches mm;
  SplitMix64 rng{0x74656e736f72ull};
  const Format formats[] = {Format::Q4G64_F16S, Format::Q5G64_F16S, Format::Q6G64_F16S,
                            Format::W8G32_F16S, Format::NVFP4,      Format::FP8_E4M3FN_ROW_BF16S};
  int valid = 0, invalid = 0;
  for (Format f : formats) {
    for (int n = 0; n < 3000; ++n) {
      const o::Tensor t = random_tensor(rng, f);
      const o::Violation ov = o::validate_tensor(f, t);
      const codec::TensorView view{t.shape, t.codes, t.scales, t.divisor};
      const auto cv = codec::validate_tensor(f, view);
      std::string ctext = "valid";
      if (cv) {
        // Appended piece by piece: GCC 12 -Wrestrict misfires on char + std::string.
        ctext = "!";
        ctext += codec::rule_token(cv->rule);
        ctext += '@';
        if (cv->plane == codec::Plane::None) {
          ctext += '-';
        } else {
          ctext += static_cast<char>(cv->plane);
          ctext += std::to_string(cv->index);
        }
      }
      const std::string where = std::string(info(f).name) + " tensor " + std::to_string(n);
      if (ov.text() != ctext) {
        mm.add(where + ": oracle " + ov.text() + " codec " + ctext);
        continue;
      }
      if (!ov.valid()) {
        ++invalid;
        continue;
      }
      ++valid;
      const auto cd = codec::dequantize(f, view);
      if (!cd.ok() || cd.value() != o::dequantize(ctx, f, t)) mm.add(where + ": dequantize differs");
    }
  }
  CHECK(valid > 1000);
  CHECK(invalid > 1000);
  CHECK(mm.count == 0);
}
