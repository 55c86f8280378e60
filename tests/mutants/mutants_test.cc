// Every mutant is shown non-equivalent: on one hand-chosen input its replaced entry point gives a
// result other than the spec's, and the spec's result is derived by hand in the comment (and, where
// the codec is built, the codec's table is checked to give it). The two equivalent mutants are
// checked to agree with the spec on samples, which supports (not replaces) their written proofs.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "targets/mutants/encoder_skeleton.h"
#include "targets/mutants/mutant.h"
#include "targets/mutants/words.h"
#ifdef NC_TEST_HAVE_CODEC
#include "codec/codec_plugin.h"
#endif

namespace {
using namespace nc::mutants;

// The table under test: the mutant over the codec's table where built, else over no base.
nc_plugin_v1 table_of(const char* name) {
  const Mutant* m = find_mutant(name);
  REQUIRE(m != nullptr);
#ifdef NC_TEST_HAVE_CODEC
  set_base(nc_codec_plugin_table());
  return mutant_table(*m, *nc_codec_plugin_table());
#else
  set_base(nullptr);
  return mutant_table(*m, base());
#endif
}
// The correct table, or nullptr when the codec is not built.
const nc_plugin_v1* correct() {
#ifdef NC_TEST_HAVE_CODEC
  return nc_codec_plugin_table();
#else
  return nullptr;
#endif
}

struct Encoded {
  int32_t outcome = -1;
  std::vector<uint32_t> scales;
  std::vector<int32_t> codes;
  bool operator==(const Encoded& o) const {
    return outcome == o.outcome && (outcome != NC_ENCODE_OK || (scales == o.scales && codes == o.codes));
  }
};
std::ostream& operator<<(std::ostream& os, const Encoded& e) {
  os << "outcome " << e.outcome << " scales";
  for (uint32_t s : e.scales) os << ' ' << std::hex << s << std::dec;
  os << " codes";
  for (int32_t c : e.codes) os << ' ' << c;
  return os;
}

Encoded encode(const nc_plugin_v1& t, nc_format f, std::vector<uint64_t> src, size_t rows = 1,
               nc_source_type type = NC_SRC_FP32) {
  const size_t k = src.size() / rows, g = f == NC_FORMAT_W8G32_F16S ? 32 : 64;
  Encoded e;
  e.scales.assign(rows * ((k + g - 1) / g), 0);
  e.codes.assign(rows * k, 0);
  REQUIRE(t.encode(f, type, src.data(), rows, k, e.scales.data(), e.codes.data(), nullptr, &e.outcome) == NC_OK);
  return e;
}
Encoded ok(std::vector<uint32_t> scales, std::vector<int32_t> codes) { return {NC_ENCODE_OK, scales, codes}; }
Encoded fails(int32_t outcome) { return {outcome, {}, {}}; }

// The spec's result `want` and the mutant's `mutant_gives` on one input; both must hold.
void check_encode(const char* name, nc_format f, std::vector<uint64_t> src, const Encoded& want,
                  const Encoded& mutant_gives, size_t rows = 1, nc_source_type type = NC_SRC_FP32) {
  INFO(name);
  const Encoded got = encode(table_of(name), f, src, rows, type);
  CHECK(got == mutant_gives);
  CHECK_FALSE(got == want);
  if (correct()) CHECK(encode(*correct(), f, src, rows, type) == want);
}

uint32_t decode1(const nc_plugin_v1& t, nc_word_type wt, uint32_t w, uint8_t* valid = nullptr) {
  uint32_t out = 0;
  uint8_t v = 0;
  REQUIRE(t.decode(wt, &w, 1, &out, &v) == NC_OK);
  if (valid) *valid = v;
  return out;
}
void check_decode(const char* name, nc_word_type wt, uint32_t word, uint32_t want, uint32_t mutant_gives) {
  INFO(name << " word " << std::hex << word);
  CHECK(decode1(table_of(name), wt, word) == mutant_gives);
  CHECK(want != mutant_gives);
  if (correct()) CHECK(decode1(*correct(), wt, word) == want);
}

uint8_t validate1(const nc_plugin_v1& t, nc_format f, nc_component c, uint32_t w) {
  uint8_t v = 2;
  REQUIRE(t.validate_word(f, c, &w, 1, &v) == NC_OK);
  return v;
}
void check_accepts_invalid(const char* name, nc_format f, nc_component c, uint32_t word) {
  INFO(name << " word " << std::hex << word);
  CHECK(validate1(table_of(name), f, c, word) == 1);
  if (correct()) CHECK(validate1(*correct(), f, c, word) == 0);
}

uint32_t reconstruct1(const nc_plugin_v1& t, nc_format f, uint32_t code, uint32_t scale, const uint32_t* d) {
  uint32_t out = 0;
  REQUIRE(t.reconstruct(f, &code, &scale, d, 1, &out) == NC_OK);
  return out;
}
void check_reconstruct(const char* name, nc_format f, uint32_t code, uint32_t scale, const uint32_t* d, uint32_t want,
                       uint32_t mutant_gives) {
  INFO(name);
  CHECK(reconstruct1(table_of(name), f, code, scale, d) == mutant_gives);
  CHECK(want != mutant_gives);
  if (correct()) CHECK(reconstruct1(*correct(), f, code, scale, d) == want);
}

uint32_t convert1(const nc_plugin_v1& t, nc_recipe r, uint32_t w) {
  uint32_t out = 0;
  REQUIRE(t.convert(r, &w, 1, &out) == NC_OK);
  return out;
}
int32_t parse1(const nc_plugin_v1& t, const std::string& s) {
  int32_t f = -2;
  REQUIRE(t.parse_format(s.data(), s.size(), &f) == NC_OK);
  return f;
}

struct Validity {
  int32_t rule = -1;
  int64_t where = -2;
};
Validity validate_tensor(const nc_plugin_v1& t, nc_format f, std::vector<uint64_t> shape, std::vector<uint32_t> codes,
                         std::vector<uint32_t> scales, const uint32_t* d = nullptr) {
  Validity v;
  REQUIRE(t.validate_tensor(f, shape.size(), shape.data(), codes.data(), codes.size(), scales.data(), scales.size(), d,
                            &v.rule, &v.where) == NC_OK);
  return v;
}
std::vector<uint32_t> dequantize(const nc_plugin_v1& t, nc_format f, std::vector<uint64_t> shape,
                                 std::vector<uint32_t> codes, std::vector<uint32_t> scales,
                                 const uint32_t* d = nullptr) {
  std::vector<uint32_t> out(codes.size());
  REQUIRE(t.dequantize(f, shape.size(), shape.data(), codes.data(), codes.size(), scales.data(), scales.size(), d,
                       out.data()) == NC_OK);
  return out;
}
}  // namespace

TEST_CASE("catalogue: at least 30 distinct non-equivalent mutants, each documented", "[mutants]") {
  std::set<std::string> names, live;
  for_each_mutant([&](const Mutant& m) {
    INFO(m.info.name);
    CHECK(names.insert(m.info.name).second);
    CHECK(std::string(m.info.mistake).size() > 10);
    CHECK(std::string(m.info.suites).size() > 0);
    CHECK(m.install != nullptr);
    if (!m.equivalence_proof) live.insert(m.info.name);
  });
  CHECK(live.size() >= 30);
  // The build's plugin list (targets/mutants/CMakeLists.txt) is exactly the non-equivalent set.
  std::set<std::string> built;
  std::istringstream in(NC_MUTANT_PLUGIN_LIST);
  for (std::string s; in >> s;) built.insert(s);
  CHECK(built == live);
}

TEST_CASE("each mutant replaces exactly one entry point", "[mutants]") {
  static const nc_plugin_v1 marker{
      NC_PLUGIN_ABI_VERSION, "m", "0", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
  for_each_mutant([&](const Mutant& m) {
    INFO(m.info.name);
    const nc_plugin_v1 t = mutant_table(m, marker);
    const int replaced = (t.decode != nullptr) + (t.validate_word != nullptr) + (t.parse_format != nullptr) +
                         (t.reconstruct != nullptr) + (t.convert != nullptr) + (t.encode != nullptr) +
                         (t.validate_tensor != nullptr) + (t.dequantize != nullptr) + (t.layout_offsets != nullptr);
    CHECK(replaced == 1);
  });
}

// ---- canonical encoder (spec 7). Sources are FP32 words; results are (scales, codes). ----

TEST_CASE("encoder mutants differ from the spec", "[mutants][encoder]") {
  // Q4, amax 0x3f80060b: scale16 0x3093, inv32 0x40dfdd05; x = 0x3f6ddc01 sits next to 6.5 * scale32:
  // round_f32(x * inv32) is just below 6.5 (code 6), round_f32(x / scale32) is not (code 7). Derived
  // with binary32 arithmetic in Python's struct module, independently of this code.
  check_encode("enc-direct-division", NC_FORMAT_Q4G64_F16S, {0x3f80060b, 0x3f6ddc01}, ok({0x3093}, {7, 6}),
               ok({0x3093}, {7, 7}));
  // examples.md group 1; with denominator 8: raw 1/8 = 0x3000 exactly, codes 8 -> clamped 7, -4, 2.
  check_encode("enc-abs-qmin-denominator", NC_FORMAT_Q4G64_F16S, {0x3f800000, 0xbf000000, 0x3e800000},
               ok({0x3092}, {7, -4, 2}), ok({0x3000}, {7, -4, 2}));
  // amax 7 -> raw 1.0 -> scale 0x3c00, inv 1: 2.5 is a tie, even -> 2; away -> 3.
  check_encode("enc-round-half-away", NC_FORMAT_Q4G64_F16S, {0x40e00000, 0x40200000}, ok({0x3c00}, {7, 2}),
               ok({0x3c00}, {7, 3}));
  // Same scale: -1.5 ties to -2; floor(-1.5 + 0.5) = -1.
  check_encode("enc-round-half-up", NC_FORMAT_Q4G64_F16S, {0x40e00000, 0xbfc00000}, ok({0x3c00}, {7, -2}),
               ok({0x3c00}, {7, -1}));
  // examples.md Q5 rescue group: raw rounds to binary16 +0, rescued to 0x0001 with codes 0 0. Without
  // the rescue: scale 0, inv = 1/0 = inf, codes clamp(+inf) = 15 and clamp(-inf) = -16.
  check_encode("enc-no-rescue", NC_FORMAT_Q5G64_F16S, {0x00000005, 0x80000002}, ok({0x0001}, {0, 0}),
               ok({0x0000}, {15, -16}));
  // examples.md group 1: raw 0x3e124925 -> BF16 0x3e12 (0.142578125) -> binary16 0x3090, inv ~7.0137.
  check_encode("enc-scale-through-bf16", NC_FORMAT_Q4G64_F16S, {0x3f800000, 0xbf000000, 0x3e800000},
               ok({0x3092}, {7, -4, 2}), ok({0x3090}, {7, -4, 2}));
  // [0.5, -1.0]: amax 1 -> 0x3092, inv 0x40e00e01: 0.5 * inv = 3.5009 -> 4, -7.0019 -> -7.
  // Signed max 0.5 -> raw 0x3d924925 -> 0x2c92, inv ~14.004: 7.002 -> 7, -14.004 -> -8 (clamped).
  check_encode("enc-amax-signed-max", NC_FORMAT_Q4G64_F16S, {0x3f000000, 0xbf800000}, ok({0x3092}, {4, -7}),
               ok({0x2c92}, {7, -8}));
  // DAZ reads both subnormal sources as zero: the all-zero path, scale +0, instead of the rescue.
  check_encode("enc-daz-sources", NC_FORMAT_Q5G64_F16S, {0x00000005, 0x80000002}, ok({0x0001}, {0, 0}),
               ok({0x0000}, {0, 0}));
  // binary64 0x3690000000000008 = 2^-150 * (1 + 2^-49): above half of 2^-149, so one rounding to
  // binary32 gives 2^-149 (0x00000001); amax / 7 rounds to binary32 +0, binary16 +0, rescued to
  // 0x0001; 2^-149 * 2^24 = 2^-125 rounds to code 0. Rounded to 24 bits first it is exactly 2^-150,
  // the tie, which goes to even (+0): an all-zero group, scale +0.
  check_encode("enc-f64-subnormal-double-round", NC_FORMAT_Q4G64_F16S, {0x3690000000000008ull}, ok({0x0001}, {0}),
               ok({0x0000}, {0}), 1, NC_SRC_F64);
  // Q4 binary64 {14, (2 - 2^-24) = 0x3ffffffff0000000}: amax 14 -> raw 2.0 -> scale 0x4000, inv 0.5.
  // The second source is the binary32 tie between 2 - 2^-23 (odd significand) and 2: RNE carries
  // into the exponent, 2.0, code 1. Dropping the carry gives 1.0, normalized 0.5, the tie to even 0.
  check_encode("enc-f64-carry-dropped", NC_FORMAT_Q4G64_F16S, {0x402c000000000000ull, 0x3ffffffff0000000ull},
               ok({0x4000}, {7, 1}), ok({0x4000}, {7, 0}), 1, NC_SRC_F64);
  // examples.md NaN group must fail; the mutant skips the NaN in amax (1.0 -> 0x3092) and codes it 0.
  check_encode("enc-nan-quantized", NC_FORMAT_Q4G64_F16S, {0x7fc00000, 0x3f800000}, fails(NC_ENCODE_FAIL_NONFINITE),
               ok({0x3092}, {0, 7}));
  // examples.md overflow group: 0x4afe213e / 127 > 65520 rounds to binary16 infinity: must fail.
  // The mutant stores 0x7c00; inv = 1/inf = 0, so the code is 0.
  check_encode("enc-infinite-scale-stored", NC_FORMAT_W8G32_F16S, {0x4afe213e}, fails(NC_ENCODE_FAIL_SCALE_OVERFLOW),
               ok({0x7c00}, {0}));
  // W8, x = -158.75 * 2^-24 (0xb71ec000): raw = 1.25 * 2^-24 exactly, binary16 subnormal rounding
  // gives 2^-24 (0x0001), inv 2^24, normalized -158.75 -> -159 -> clamp -127 (or -128).
  check_encode("enc-w8-minus-128", NC_FORMAT_W8G32_F16S, {0xb71ec000}, ok({0x0001}, {-127}), ok({0x0001}, {-128}));
  // Q4 1x65: 64 x 7.0 then 1.0. The partial group's own amax is 1 -> 0x3092, code 7; with the stale
  // buffer (entries 1..63 still 7.0) its amax is 7 -> 0x3c00, code 1.
  std::vector<uint64_t> src(65, 0x40e00000);
  src[64] = 0x3f800000;
  std::vector<int32_t> sevens(64, 7), want_codes = sevens, mutant_codes = sevens;
  want_codes.push_back(7);
  mutant_codes.push_back(1);
  check_encode("enc-partial-group-stale", NC_FORMAT_Q4G64_F16S, src, ok({0x3c00, 0x3092}, want_codes),
               ok({0x3c00, 0x3c00}, mutant_codes));
}

TEST_CASE("equivalent encoder mutants agree with the spec on samples", "[mutants][encoder]") {
  const Mutant* clamp = find_mutant("enc-clamp-before-round");
  const Mutant* f64 = find_mutant("enc-scale-in-binary64");
  REQUIRE(clamp);
  REQUIRE(f64);
  CHECK(clamp->equivalence_proof != nullptr);
  CHECK(f64->equivalence_proof != nullptr);
  const nc_plugin_v1 c = mutant_table(*clamp, base()), d = mutant_table(*f64, base());
  const EncoderSteps spec = canonical_steps();
  // Groups [amax, x] over a spread of binary32 amax (normal and subnormal) and x near code ties.
  for (uint32_t a = 0x00000001; a < 0x47000000; a += 0x000f4243) {
    for (nc_format f : {NC_FORMAT_Q4G64_F16S, NC_FORMAT_Q5G64_F16S, NC_FORMAT_Q6G64_F16S, NC_FORMAT_W8G32_F16S}) {
      const float amax = f32_from_bits(a);
      const float x = -amax * 0.61803f;
      std::vector<uint64_t> g{a, bits_of(x)};
      Encoded want;
      want.scales.assign(1, 0);
      want.codes.assign(2, 0);
      REQUIRE(encode_with(spec, f, NC_SRC_FP32, g.data(), 1, 2, want.scales.data(), want.codes.data(), nullptr,
                          &want.outcome) == NC_OK);
      INFO("amax " << std::hex << a << " format " << int(f));
      CHECK(encode(c, f, g) == want);
      CHECK(encode(d, f, g) == want);
    }
  }
}

// ---- grouped codes and scales (spec 4-6) ----

TEST_CASE("grouped mutants differ from the spec", "[mutants][grouped]") {
  // Q4 word 0xF is two's-complement -1; sign-magnitude reads -7.
  check_decode("grp-sign-magnitude-codes", NC_WT_Q4_CODE, 0xf, 0xffffffffu, uint32_t(-7));
  // Q4 code word 0x0 (0) at scale 1.0 is 0.0; offset binary reads 0 - 8 = -8 -> -8.0.
  check_reconstruct("grp-offset-binary-codes", NC_FORMAT_Q4G64_F16S, 0x0, 0x3c00, nullptr, 0x00000000, 0xc1000000);
  // code 2 at scale 2.0 is 4.0; 2 / 2.0 is 1.0.
  check_reconstruct("grp-code-over-scale", NC_FORMAT_Q4G64_F16S, 0x2, 0x4000, nullptr, 0x40800000, 0x3f800000);
  // Q4 code 0x1 (1) under a +0 scale: spec 6.1 makes the pair invalid (refused, NC_EINVALID); the
  // mutant answers 1 * +0 = +0.
  {
    const nc_plugin_v1 t = table_of("grp-zero-scale-pair-value");
    const uint32_t code = 0x1, scale = 0x0000;
    uint32_t out = 0xdeadbeefu;
    if (t.reconstruct(NC_FORMAT_Q4G64_F16S, &code, &scale, nullptr, 1, &out) == NC_OK) CHECK(out == 0u);
    if (correct()) CHECK(correct()->reconstruct(NC_FORMAT_Q4G64_F16S, &code, &scale, nullptr, 1, &out) == NC_EINVALID);
#ifdef NC_TEST_HAVE_CODEC
    CHECK(t.reconstruct(NC_FORMAT_Q4G64_F16S, &code, &scale, nullptr, 1, &out) == NC_OK);
#endif
  }
  // -0 is not a valid scale (spec 6).
  check_accepts_invalid("grp-negative-zero-scale", NC_FORMAT_Q4G64_F16S, NC_COMP_SCALE, 0x8000);
  // A valid 1x65 Q4 tensor has ceil_div(65, 64) = 2 scales: the floor count wants 1 and rejects it.
  {
    const nc_plugin_v1 t = table_of("grp-floor-scale-count");
    std::vector<uint32_t> codes(65, 0x1);
    CHECK(validate_tensor(t, NC_FORMAT_Q4G64_F16S, {1, 65}, codes, {0x3c00, 0x3c00}).rule == NC_RULE_SHAPE);
    CHECK(validate_tensor(t, NC_FORMAT_Q4G64_F16S, {1, 65}, codes, {0x3c00}).rule == NC_RULE_NONE);
    if (correct())
      CHECK(validate_tensor(*correct(), NC_FORMAT_Q4G64_F16S, {1, 65}, codes, {0x3c00, 0x3c00}).rule == NC_RULE_NONE);
  }
  // 2x65 Q4, every code 1, scales 1, 2 (row 0) and 3, 4 (row 1): element (1, 0) is 1 * 3.0. The flat
  // index 65 / 64 = 1 reads row 0's second scale, 2.0.
  {
    std::vector<uint32_t> codes(130, 0x1), scales{0x3c00, 0x4000, 0x4200, 0x4400};
    const std::vector<uint32_t> got =
        dequantize(table_of("grp-group-across-rows"), NC_FORMAT_Q4G64_F16S, {2, 65}, codes, scales);
    CHECK(got[0] == 0x3f800000);
    CHECK(got[64] == 0x40000000);
    CHECK(got[65] == 0x40000000);  // spec: 0x40400000
    if (correct()) CHECK(dequantize(*correct(), NC_FORMAT_Q4G64_F16S, {2, 65}, codes, scales)[65] == 0x40400000);
  }
}

#ifdef NC_TEST_HAVE_CODEC
// These mutants reuse the base validator for everything but the rule they drop.
TEST_CASE("zero-scale-rule mutants accept what the spec rejects", "[mutants][grouped][fp8-row]") {
  // Q4 1x2, scale +0 with a nonzero code: zero-scale-codes (spec 6).
  const Validity q = validate_tensor(*correct(), NC_FORMAT_Q4G64_F16S, {1, 2}, {0x0, 0x1}, {0x0000});
  CHECK(q.rule == NC_RULE_ZERO_SCALE_CODES);
  CHECK(
      validate_tensor(table_of("grp-zero-scale-unchecked"), NC_FORMAT_Q4G64_F16S, {1, 2}, {0x0, 0x1}, {0x0000}).rule ==
      NC_RULE_NONE);
  // Q4 1x2, scale +0 with code word 0x8: the sign bit alone is q = 8 - 16 = -8 (spec 5), not a
  // zero, so zero-scale-codes at c1; masking the sign bit off reads it as 0.
  const Validity s8 = validate_tensor(*correct(), NC_FORMAT_Q4G64_F16S, {1, 2}, {0x0, 0x8}, {0x0000});
  CHECK(s8.rule == NC_RULE_ZERO_SCALE_CODES);
  CHECK(s8.where == 1);
  CHECK(
      validate_tensor(table_of("grp-zero-scale-sign-blind"), NC_FORMAT_Q4G64_F16S, {1, 2}, {0x0, 0x8}, {0x0000}).rule ==
      NC_RULE_NONE);
  // FP8 row 1x2, row scale +0 with code 0x38 (1.0): zero-scale-codes (spec 3.4).
  const Validity r = validate_tensor(*correct(), NC_FORMAT_FP8_E4M3FN_ROW_BF16S, {1, 2}, {0x80, 0x38}, {0x0000});
  CHECK(r.rule == NC_RULE_ZERO_SCALE_CODES);
  CHECK(validate_tensor(table_of("fp8row-zero-scale-unchecked"), NC_FORMAT_FP8_E4M3FN_ROW_BF16S, {1, 2}, {0x80, 0x38},
                        {0x0000})
            .rule == NC_RULE_NONE);
}

// Whole-tensor order and bulk-path mutants (spec 3.3, 3.4, 4 to 6). Hand-derived expectations.
TEST_CASE("tensor mutants differ from the spec", "[mutants][tensor][nvfp4]") {
  const uint32_t one = 0x3f800000;
  // NVFP4 [1, 17] with ceil(17/16) = 2 block scales: spec 3.3 gives every K-axis group 16 codes,
  // so K = 17 is a shape error; the partial-block mutant accepts it.
  const std::vector<uint32_t> c17(17, 0x2);
  CHECK(validate_tensor(table_of("nvfp4-partial-block"), NC_FORMAT_NVFP4, {1, 17}, c17, {0x38, 0x38}, &one).rule ==
        NC_RULE_NONE);
  CHECK(validate_tensor(*correct(), NC_FORMAT_NVFP4, {1, 17}, c17, {0x38, 0x38}, &one).rule == NC_RULE_SHAPE);
  // Q4 [1, 65]: group 0 has scale +0 and code 1 at c1 (zero-scale-codes), group 1 has scale -1
  // (0xbc00, scale-negative at s1). Every scale is checked before any code: s1 is named; a one-pass
  // validator reaches c1 first.
  std::vector<uint32_t> q(65, 0);
  q[1] = 0x1;
  const Validity spec = validate_tensor(*correct(), NC_FORMAT_Q4G64_F16S, {1, 65}, q, {0x0000, 0xbc00});
  CHECK(spec.rule == NC_RULE_SCALE_NEGATIVE);
  CHECK(spec.where == 1);
  const Validity one_pass =
      validate_tensor(table_of("tensor-one-pass-validator"), NC_FORMAT_Q4G64_F16S, {1, 65}, q, {0x0000, 0xbc00});
  CHECK(one_pass.rule == NC_RULE_ZERO_SCALE_CODES);
  CHECK(one_pass.where == 1);
  // Q4 [1, 66]: codes 1, scales 1.0 (group 0) and 2.0 (group 1, the partial group of 2): elements
  // 64 and 65 are 1 * 2.0 = 2.0 (0x40000000); the even-tail mutant leaves them +0.
  {
    const std::vector<uint32_t> codes(66, 0x1);
    const std::vector<uint32_t> got =
        dequantize(table_of("tensor-dequantize-even-tail"), NC_FORMAT_Q4G64_F16S, {1, 66}, codes, {0x3c00, 0x4000});
    CHECK(got[65] == 0u);
    CHECK(got[63] == one);
    CHECK(dequantize(*correct(), NC_FORMAT_Q4G64_F16S, {1, 66}, codes, {0x3c00, 0x4000})[65] == 0x40000000u);
    // An odd partial group (K = 67) is right.
    CHECK(dequantize(table_of("tensor-dequantize-even-tail"), NC_FORMAT_Q4G64_F16S, {1, 67},
                     std::vector<uint32_t>(67, 0x1), {0x3c00, 0x4000})[66] == 0x40000000u);
  }
  // FP8 row [1, 1]: code 0x38 (1.0) times BF16 scale 0x0040 (2^-127, subnormal) is 2^-127, the
  // binary32 subnormal 0x00400000. FTZ gives +0; DAZ on the scale gives +0 too.
  CHECK(dequantize(*correct(), NC_FORMAT_FP8_E4M3FN_ROW_BF16S, {1, 1}, {0x38}, {0x0040})[0] == 0x00400000);
  CHECK(dequantize(table_of("tensor-dequantize-ftz"), NC_FORMAT_FP8_E4M3FN_ROW_BF16S, {1, 1}, {0x38}, {0x0040})[0] ==
        0x00000000);
  // Q4 [1, 1]: code 1 times binary16 scale 0x0001 (2^-24) is 2^-24 = 0x33800000; DAZ gives +0.
  CHECK(dequantize(*correct(), NC_FORMAT_Q4G64_F16S, {1, 1}, {0x1}, {0x0001})[0] == 0x33800000);
  CHECK(dequantize(table_of("tensor-dequantize-daz-scales"), NC_FORMAT_Q4G64_F16S, {1, 1}, {0x1}, {0x0001})[0] ==
        0x00000000);
}
#endif

// ---- E4M3FN and E2M1 (spec 3.3) ----

TEST_CASE("minifloat mutants differ from the spec", "[mutants][e4m3fn]") {
  // 0x78: e = 15, m = 0 -> (1 + 0/8) * 2^8 = 256.0.
  check_decode("e4m3-ieee-infinities", NC_WT_E4M3FN, 0x78, 0x43800000, 0x7f800000);
  const uint32_t nan_bits = decode1(table_of("e4m3-top-binade-nan"), NC_WT_E4M3FN, 0x78);
  CHECK(std::isnan(f32_from_bits(nan_bits)));
  if (correct()) CHECK(decode1(*correct(), NC_WT_E4M3FN, 0x78) == 0x43800000);
  // 0x01: e = 0, m = 1 -> 2^-9 (0x3b000000); the off-by-one bias gives 2^-10.
  check_decode("e4m3-subnormal-bias", NC_WT_E4M3FN, 0x01, 0x3b000000, 0x3a800000);
  // E2M1 0x5 is 3.0.
  check_decode("e2m1-wrong-entry", NC_WT_E2M1, 0x5, 0x40400000, 0x40200000);
}

// ---- NVFP4 (spec 3.3) ----

TEST_CASE("NVFP4 mutants differ from the spec", "[mutants][nvfp4]") {
  // code 0x2 (1.0), scale 0x38 (1.0), d_w 2.0: W = 0.5; multiplying gives 2.0.
  const uint32_t two = 0x40000000;
  check_reconstruct("nvfp4-multiply-divisor", NC_FORMAT_NVFP4, 0x2, 0x38, &two, 0x3f000000, 0x40000000);
  check_accepts_invalid("nvfp4-negative-zero-scale", NC_FORMAT_NVFP4, NC_COMP_SCALE, 0x80);
  check_accepts_invalid("nvfp4-nonpositive-divisor", NC_FORMAT_NVFP4, NC_COMP_DIVISOR, 0x00000000);
  check_accepts_invalid("nvfp4-nonpositive-divisor", NC_FORMAT_NVFP4, NC_COMP_DIVISOR, 0xbf800000);
  // 1x32, codes 1.0, scales 1.0 (k < 16) and 2.0 (k >= 16), d_w 1.0: element 16 is 2.0; with blocks
  // of 32 it reads the first scale, 1.0.
  const uint32_t one = 0x3f800000;
  std::vector<uint32_t> codes(32, 0x2);
  const std::vector<uint32_t> got =
      dequantize(table_of("nvfp4-group-32"), NC_FORMAT_NVFP4, {1, 32}, codes, {0x38, 0x40}, &one);
  CHECK(got[16] == 0x3f800000);  // spec: 0x40000000
  if (correct()) CHECK(dequantize(*correct(), NC_FORMAT_NVFP4, {1, 32}, codes, {0x38, 0x40}, &one)[16] == two);
  // 1x16, code 0xf (-6.0) at k = 0, scale 0x38 (1.0), d_w = 0x3f800001 (1 + 2^-23). Exact:
  // -6 / (1 + 2^-23) = -(6 - 6 * 2^-23 + 6 * 2^-46 - ...); the binary32 ulp in [4, 8) is 2^-21 and
  // 6 * 2^-23 = 1.5 ulp, so |W| lies just above 6 - 1.5 ulp: nearest is 6 - 1 ulp, 0x40bfffff,
  // W = 0xc0bfffff. Folded: 1 / (1 + 2^-23) = 1 - 2^-23 + 2^-46 - ... rounds (ulp 2^-24 below 1) to
  // 1 - 2^-23; -6 times that is -(6 - 1.5 ulp) exactly, a tie, to even: 0xc0bffffe.
  const uint32_t near_one = 0x3f800001;
  std::vector<uint32_t> c16(16, 0x0);
  c16[0] = 0xf;
  CHECK(dequantize(table_of("nvfp4-folded-divisor"), NC_FORMAT_NVFP4, {1, 16}, c16, {0x38}, &near_one)[0] ==
        0xc0bffffe);
  if (correct()) CHECK(dequantize(*correct(), NC_FORMAT_NVFP4, {1, 16}, c16, {0x38}, &near_one)[0] == 0xc0bfffff);
  // Layout blockscale-k16-m128x4-v1, [1, 17]: K is not a multiple of 16, refused (NC_EINVALID); the
  // ceil mutant lays out 2 block columns: scale (0, 1) at byte 1 of the 512-byte tile. [1, 16]: scale
  // (0, 1) is outside the one-column scale matrix, refused; the padded mutant answers byte 1 too.
  {
    uint64_t rows = 1, k17 = 17, k16 = 16, row = 0, block = 1, off = 0, plane = 0;
    CHECK(table_of("nvfp4-layout-ceil-blocks")
              .layout_offsets(NC_FORMAT_NVFP4, NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1, &rows, &k17, &row, &block, 1, &off,
                              &plane) == NC_OK);
    CHECK((off == 1 && plane == 512));
    CHECK(table_of("nvfp4-layout-padded-index")
              .layout_offsets(NC_FORMAT_NVFP4, NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1, &rows, &k16, &row, &block, 1, &off,
                              &plane) == NC_OK);
    CHECK((off == 1 && plane == 512));
    if (correct()) {
      CHECK(correct()->layout_offsets(NC_FORMAT_NVFP4, NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1, &rows, &k17, &row, &block, 1,
                                      &off, &plane) == NC_EINVALID);
      CHECK(correct()->layout_offsets(NC_FORMAT_NVFP4, NC_LAYOUT_BLOCKSCALE_K16_M128X4_V1, &rows, &k16, &row, &block, 1,
                                      &off, &plane) == NC_EINVALID);
    }
  }
}

// ---- FP8_E4M3FN_ROW_BF16S (spec 3.4) ----

TEST_CASE("FP8 row mutants differ from the spec", "[mutants][fp8-row]") {
  // code 0x40 (e = 8: 2.0) times row scale BF16 0x4000 (2.0) is 4.0; dividing gives 1.0.
  check_reconstruct("fp8row-divide-by-scale", NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0x40, 0x4000, nullptr, 0x40800000,
                    0x3f800000);
  check_accepts_invalid("fp8row-negative-zero-scale", NC_FORMAT_FP8_E4M3FN_ROW_BF16S, NC_COMP_SCALE, 0x8000);
  // 0x39 (1.125) * BF16 0x3f81 (1 + 2^-7) = 1.1337890625 exactly (0x3f912000); in BF16 that is
  // 1.1328125 (0x3f910000).
  check_reconstruct("fp8row-product-in-bf16", NC_FORMAT_FP8_E4M3FN_ROW_BF16S, 0x39, 0x3f81, nullptr, 0x3f912000,
                    0x3f910000);
}

// ---- direct formats, recipes, registry (spec 3.1, 3.2) ----

TEST_CASE("direct, recipe and registry mutants differ from the spec", "[mutants][direct]") {
  // BF16 0x7f81 (signalling NaN, payload 1) expands to 0x7f810000 exactly.
  check_decode("bf16-nan-canonicalized", NC_WT_BF16, 0x7f81, 0x7f810000, 0x7fc00000);
  // 0x3f80ffff: low half above the midpoint -> RNE 0x3f81; truncation 0x3f80.
  CHECK(convert1(table_of("f32-to-bf16-truncate"), NC_RECIPE_F32_TO_BF16_RNE, 0x3f80ffff) == 0x3f80);
  // 0x3f808000: an exact tie with an even low bit -> RNE 0x3f80; away from zero 0x3f81.
  CHECK(convert1(table_of("f32-to-bf16-ties-away"), NC_RECIPE_F32_TO_BF16_RNE, 0x3f808000) == 0x3f81);
  // 65510.0 (0x477fe600) is below the overflow midpoint 65520: RNE gives 65504 (0x7bff), not inf.
  CHECK(convert1(table_of("f32-to-f16-overflow-65504"), NC_RECIPE_F32_TO_F16_RNE, 0x477fe600) == 0x7c00);
  // 2^-24 (0x33800000) is the smallest binary16 subnormal, 0x0001; flushed it is +0.
  CHECK(convert1(table_of("f32-to-f16-ftz"), NC_RECIPE_F32_TO_F16_RNE, 0x33800000) == 0x0000);
  // 1000.0 (0x447a0000) is beyond 448: SATFINITE gives 0x7e (448), OVF_NAN the NaN 0x7f.
  CHECK(convert1(table_of("e4m3-satfinite-as-ovf-nan"), NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE, 0x447a0000) == 0x7f);
  // 1.0625 + 2^-20 (0x3f880008) lies just above the E4M3FN tie 1.0625 between 1.0 (0x38) and
  // 1.125 (0x39): RNE gives 0x39. Rounded to binary16 first (ulp 2^-10 at 1) it becomes 1.0625
  // exactly, a tie, which goes to the even 0x38.
  CHECK(convert1(table_of("f32-to-e4m3-through-f16"), NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE, 0x3f880008) == 0x38);
  // INT32 and bf16 are not registry names (spec 3.1, 3.2).
  CHECK(parse1(table_of("registry-aliases"), "INT32") == NC_FORMAT_I32);
  CHECK(parse1(table_of("registry-case-insensitive"), "bf16") == NC_FORMAT_BF16);
  // Spec 3.2: the grouped names are identifiers; a zero-padded group size or a signed bit width is
  // not one of them.
  CHECK(parse1(table_of("registry-integer-fields"), "Q4G064_F16S") == NC_FORMAT_Q4G64_F16S);
  CHECK(parse1(table_of("registry-integer-fields"), "W8G+32_F16S") == NC_FORMAT_W8G32_F16S);
  if (correct()) {
    CHECK(convert1(*correct(), NC_RECIPE_F32_TO_BF16_RNE, 0x3f80ffff) == 0x3f81);
    CHECK(convert1(*correct(), NC_RECIPE_F32_TO_BF16_RNE, 0x3f808000) == 0x3f80);
    CHECK(convert1(*correct(), NC_RECIPE_F32_TO_F16_RNE, 0x477fe600) == 0x7bff);
    CHECK(parse1(*correct(), "INT32") == -1);
    CHECK(parse1(*correct(), "bf16") == -1);
    CHECK(parse1(*correct(), "Q4G064_F16S") == -1);
    CHECK(parse1(*correct(), "W8G+32_F16S") == -1);
  }
}

#ifdef NC_TEST_HAVE_CODEC
// Issue 32: the classes of the validate-tensor and parse sweeps and of the NVFP4 divisor sweep.
// Hand-derived expectations (the reconstruction with exact rationals in Python's fractions and a
// binary32 rounding written from IEEE's rule, independently of this code).
TEST_CASE("issue 32 mutants differ from the spec", "[mutants][tensor][nvfp4][direct]") {
  // Q4 [1], code 1, scale 0x7bff: 65504, the largest finite binary16, is a valid scale (spec 6.1).
  const Validity top =
      validate_tensor(table_of("tensor-max-scale-nonfinite"), NC_FORMAT_Q4G64_F16S, {1}, {0x1}, {0x7bff});
  CHECK(top.rule == NC_RULE_SCALE_NONFINITE);
  CHECK(top.where == 0);
  // FP8 row [1, 1], scale 0x7f7f: the largest finite BF16, valid (spec 3.4).
  CHECK(
      validate_tensor(table_of("tensor-max-scale-nonfinite"), NC_FORMAT_FP8_E4M3FN_ROW_BF16S, {1, 1}, {0x38}, {0x7f7f})
          .rule == NC_RULE_SCALE_NONFINITE);
  // NVFP4 [1, 16] over d_w = 0x7f800001: exponent all ones, fraction nonzero, a (signalling) NaN:
  // not finite, so the divisor rule (spec 3.3); the quiet-bit NaN test lets it through.
  const uint32_t snan = 0x7f800001u;
  const std::vector<uint32_t> c16(16, 0x2);
  CHECK(validate_tensor(table_of("tensor-snan-divisor"), NC_FORMAT_NVFP4, {1, 16}, c16, {0x38}, &snan).rule ==
        NC_RULE_NONE);
  // "\xef\xbb\xbfBF16" is seven bytes, not the four of BF16 (spec 1: a closed list of identifiers).
  CHECK(parse1(table_of("registry-bom-stripped"),
               "\xef\xbb\xbf"
               "BF16") == NC_FORMAT_BF16);
  // NVFP4 code 7 (6.0), scale 0x37 (0.9375), d_w 0x7ec4033c: 5.625 / d_w rounds to 0x016b163e;
  // binary32(1 / d_w) is the subnormal 0x00539622, and 5.625 times it rounds to 0x016b1640, 2 ulp up.
  const uint32_t dw = 0x7ec4033cu;
  check_reconstruct("nvfp4-reciprocal-multiplier", NC_FORMAT_NVFP4, 0x7, 0x37, &dw, 0x016b163eu, 0x016b1640u);
  if (correct()) {
    CHECK(validate_tensor(*correct(), NC_FORMAT_Q4G64_F16S, {1}, {0x1}, {0x7bff}).rule == NC_RULE_NONE);
    CHECK(validate_tensor(*correct(), NC_FORMAT_FP8_E4M3FN_ROW_BF16S, {1, 1}, {0x38}, {0x7f7f}).rule == NC_RULE_NONE);
    CHECK(validate_tensor(*correct(), NC_FORMAT_NVFP4, {1, 16}, c16, {0x38}, &snan).rule == NC_RULE_DIVISOR);
    CHECK(parse1(*correct(),
                 "\xef\xbb\xbf"
                 "BF16") == -1);
  }
}
#endif
