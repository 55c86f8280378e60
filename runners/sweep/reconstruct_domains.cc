// reconstruct.* domains: every valid (code, scale) pair of a quantized format, and for NVFP4
// every (E2M1, E4M3FN scale) pair times a divisor set, against oracle/fastref's exact products.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "oracle/fastref/recipes.h"
#include "registry/registry.h"
#include "runners/departure.h"
#include "runners/sweep/families.h"

namespace nc::sweep {

namespace {

constexpr size_t kBatch = 1 << 14;

struct Element {
  uint32_t code, scale, divisor;
};

struct ReconstructDomain : Domain {
  std::string name_, op_;
  uint64_t size_;
  nc_format abi;
  int code_digits, scale_digits;
  bool has_divisor = false;
  // The element of index i, or false for an index outside the valid language (skipped).
  std::function<bool(uint64_t, Element&)> element;
  std::function<uint32_t(const Element&)> reference;
  // The picture: the cell of a valid element.
  Grid grid_;
  std::function<uint64_t(const Element&)> cell_of;
  // The mismatch class of a wrong result; empty: by result class (subnormal/normal, flushed or not).
  std::function<std::string(uint32_t want, uint32_t got)> classify;

  Grid grid() const override { return grid_; }
  std::string name() const override { return name_; }
  std::string op() const override { return op_; }
  uint64_t size() const override { return size_; }

  void run(const nc_plugin_v1& t, uint64_t begin, uint64_t end, uint64_t stride, size_t keep, const Calls& /*calls*/,
           Tally& tally, CellCounts& cells) const override {
    std::vector<uint32_t> code(kBatch), scale(kBatch), divisor(kBatch), out(kBatch);
    std::vector<uint64_t> index(kBatch);
    // The elements as judged: the target is handed copies, since it may write into what it is
    // handed (a torch tensor over the runner's read-only NumPy view is writable).
    std::vector<Element> elements(kBatch);
    for (uint64_t i = begin; i < end;) {
      size_t n = 0;
      for (; n < kBatch && i < end; i += stride) {
        Element& e = elements[n];
        if (!element(i, e)) {
          ++tally.invalid;
          continue;
        }
        code[n] = e.code, scale[n] = e.scale, divisor[n] = e.divisor, index[n] = i;
        ++n;
      }
      if (n == 0) continue;
      int rc = t.reconstruct ? t.reconstruct(abi, code.data(), scale.data(), has_divisor ? divisor.data() : nullptr, n,
                                             out.data())
                             : NC_EUNSUPPORTED;
      if (rc == NC_EUNSUPPORTED) {
        tally.unsupported += n;
        continue;
      }
      if (rc != NC_OK) {
        tally.target_error = "target returned status " + std::to_string(rc) + " at index " + std::to_string(index[0]);
        return;
      }
      tally.covered += n;
      for (size_t k = 0; k < n; ++k) {
        const Element& e = elements[k];
        Cell& cell = cells[cell_of(e)];
        ++cell.judged;
        uint32_t want = reference(e);
        if (want == out[k]) continue;
        ++cell.mismatches;
        bool flushed = (want & 0x7fffffffu) != 0 && (out[k] & 0x7fffffffu) == 0;
        bool subnormal = (want & 0x7f800000u) == 0;
        std::string cls = classify ? classify(want, out[k])
                                   : std::string(subnormal ? "subnormal-result" : "normal-result") + ":" +
                                         (flushed ? "flushed" : "wrong-value");
        tally.count({index[k],
                     cls,
                     {hex_word(e.code, code_digits), hex_word(e.scale, scale_digits),
                      has_divisor ? hex_word(e.divisor, 8) : "-"},
                     hex_word(want, 8),
                     hex_word(out[k], 8)},
                    keep);
      }
    }
  }
};

uint32_t code_to_binary32(uint32_t word, uint32_t bits) {
  int32_t v = int32_t(word << (32 - bits)) >> (32 - bits);
  return fastref::int_to_binary32(v);
}

std::unique_ptr<Domain> grouped(Format f) {
  const FormatInfo& fi = info(f);
  auto d = std::make_unique<ReconstructDomain>();
  d->name_ = "reconstruct." + std::string(fi.name);
  d->op_ = "reconstruct " + std::string(fi.name);
  const uint32_t bits = fi.code_bits;
  d->size_ = uint64_t(1) << (16 + bits);  // every binary16 scale word x every code word
  d->abi = nc_format(int(f));
  d->code_digits = 2;
  d->scale_digits = 4;
  const bool w8 = f == Format::W8G32_F16S;
  d->element = [bits, w8](uint64_t i, Element& e) {
    e = {uint32_t(i & ((1u << bits) - 1)), uint32_t(i >> bits), 0};
    if (e.scale > 0x7bffu) return false;     // negative, -0, inf, NaN scales are invalid
    if (w8 && e.code == 0x80) return false;  // -128 is not a W8 code
    return !(e.scale == 0 && e.code != 0);   // zero-scale rule
  };
  d->reference = [bits](const Element& e) {
    return fastref::binary32_mul(fastref::f16_to_binary32(e.scale), code_to_binary32(e.code, bits));
  };
  // Codes across; down, the scale's high byte (valid scales are below 0x7c00): 256 scales a cell.
  d->grid_ = {"scale-code", uint64_t(1) << bits, 128, "code word", "binary16 scale's high byte (256 scales a cell)"};
  d->cell_of = [](const Element& e) { return uint64_t(e.code) * 128 + (e.scale >> 8); };
  return d;
}

std::unique_ptr<Domain> fp8_row() {
  auto d = std::make_unique<ReconstructDomain>();
  d->name_ = "reconstruct.FP8_E4M3FN_ROW_BF16S";
  d->op_ = "reconstruct FP8_E4M3FN_ROW_BF16S";
  d->size_ = uint64_t(1) << 24;  // every BF16 scale word x every E4M3FN code word
  d->abi = NC_FORMAT_FP8_E4M3FN_ROW_BF16S;
  constexpr WordType kCode = info(Format::FP8_E4M3FN_ROW_BF16S).code;
  d->code_digits = int(info(kCode).hex_digits);
  d->scale_digits = int(info(*info(Format::FP8_E4M3FN_ROW_BF16S).scale).hex_digits);
  d->element = [](uint64_t i, Element& e) {
    e = {uint32_t(i & 0xff), uint32_t(i >> 8), 0};
    if (runners::is_nan_word(kCode, e.code) || e.scale > 0x7f7fu) return false;  // NaN codes; invalid scales
    return !(e.scale == 0 && (e.code & runners::magnitude_mask(kCode)) != 0);    // zero-scale row rule
  };
  d->reference = [](const Element& e) {
    return fastref::binary32_mul(fastref::e4m3fn_to_binary32(e.code), fastref::bf16_to_binary32(e.scale));
  };
  // Codes across; down, the BF16 scale's high byte (valid scales are at most 0x7f7f): 256 scales a cell.
  d->grid_ = {"scale-code", 256, 128, "E4M3FN code word", "BF16 scale's high byte (256 scales a cell)"};
  d->cell_of = [](const Element& e) { return uint64_t(e.code) * 128 + (e.scale >> 8); };
  return d;
}

// Divisors chosen to give exact, rounded, tie, subnormal and overflowing quotients.
constexpr uint32_t kDivisors[] = {
    0x3f800000u,  // 1: exact
    0x40400000u,  // 3: every quotient rounded
    0x3dcccccdu,  // 0.1: a non-dyadic divisor near a power of ten
    0x40490fdbu,  // pi
    0x3f7fffffu,  // just below 1: quotients just above the operand
    0x3f800001u,  // just above 1: quotients just below the operand
    0x45280000u,  // 2688 = 6 * 448: the largest product maps to 1
    0x00800000u,  // 2^-126: large quotients, some overflow
    0x00000001u,  // 2^-149: every nonzero quotient overflows
    0x7f7fffffu,  // the largest binary32: subnormal quotients
    0x7e800000u,  // 2^126: subnormal quotients with ties
    0x4b000001u,  // 2^23 + 1: long quotients
};

std::unique_ptr<Domain> nvfp4() {
  auto d = std::make_unique<ReconstructDomain>();
  d->name_ = "reconstruct.NVFP4";
  d->op_ = "reconstruct NVFP4";
  constexpr uint64_t kDivisorCount = sizeof kDivisors / sizeof kDivisors[0];
  d->size_ = kDivisorCount << 12;  // divisor x E4M3FN scale word x E2M1 code word
  d->abi = NC_FORMAT_NVFP4;
  constexpr WordType kScale = *info(Format::NVFP4).scale;
  d->code_digits = int(info(info(Format::NVFP4).code).hex_digits);
  d->scale_digits = int(info(kScale).hex_digits);
  d->has_divisor = true;
  d->element = [](uint64_t i, Element& e) {
    e = {uint32_t(i & 0xf), uint32_t((i >> 4) & 0xff), kDivisors[i >> 12]};
    return e.scale <= runners::magnitude_mask(kScale) && !runners::is_nan_word(kScale, e.scale);  // sign-zero finite
  };
  d->reference = [](const Element& e) {
    return fastref::binary32_mul_div(fastref::e2m1_to_binary32(e.code), fastref::e4m3fn_to_binary32(e.scale),
                                     e.divisor);
  };
  // Across, the 12 divisors of 16 E2M1 codes each; down, the 128 positive E4M3FN block scales.
  d->grid_ = {"scale-code", 16 * (sizeof kDivisors / sizeof kDivisors[0]), 128,
              "divisor (16 columns each, in the order of kDivisors) and E2M1 code word", "E4M3FN block scale word"};
  d->cell_of = [](const Element& e) {
    uint64_t div = 0;
    while (kDivisors[div] != e.divisor) ++div;
    return (div * 16 + e.code) * 128 + e.scale;
  };
  return d;
}

// reconstruct.NVFP4.divisors (issue 32, item 7): realistic divisors. A checkpoint's d_w is any
// positive binary32 derived from a tensor's maximum, and the multiplier form
// e2m1 * e4m3 * binary32(1 / d_w) is up to 2 ulp off (one rounding of the reciprocal, one of the
// product) where the 12 divisors of reconstruct.NVFP4 show at most 1. The set, built once:
//   - every binade: one divisor per biased exponent 1..254 (fraction drawn from SplitMix64), and
//     the subnormal divisors 2^-149 .. 2^-127 (one per power) with a drawn fraction each;
//   - 1024 random fractions in the binades 2^-24 .. 2^24 (finite, positive);
//   - the 128 significands whose reciprocal rounds worst (1/m closest to a binary32 rounding
//     midpoint, found by exhaustive search over the 2^23 significands), in binades 2^0, 2^-10, 2^12.
// Every E2M1 code times every valid block scale (00..7e) over each divisor, against
// fastref::binary32_mul_div (the exact quotient rounded once). Mismatches are classed by how many
// binary32 ulps the result is off (a 2-ulp class is the multiplier form's signature).
const std::vector<uint32_t>& realistic_divisors() {
  static const std::vector<uint32_t> kSet = [] {
    std::vector<uint32_t> out;
    uint64_t state = 0x6469766973307273ull;  // SplitMix64 over "divis0rs"
    auto next = [&] {
      uint64_t z = (state += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      return z ^ (z >> 31);
    };
    for (uint32_t e = 1; e <= 254; ++e) out.push_back(e << 23 | uint32_t(next() & 0x7fffffu));
    for (uint32_t b = 0; b < 23; ++b) out.push_back((1u << b) | (uint32_t(next()) & ((1u << b) - 1)));
    for (int i = 0; i < 1024; ++i) out.push_back(uint32_t(127 - 24 + next() % 49) << 23 | uint32_t(next() & 0x7fffffu));
    // 1/m for m = M / 2^23, M in [2^23, 2^24): the reciprocal's significand is 2^47 / M (in [2^23, 2^24]
    // for M > 2^23); its rounding error is the distance of the remainder r = 2^47 mod M from M / 2.
    std::vector<std::pair<uint64_t, uint32_t>> worst;  // (|2r - M|, M)
    for (uint64_t m = (1u << 23) + 1; m < (1u << 24); ++m) {
      const uint64_t r = (uint64_t(1) << 47) % m;
      const uint64_t dist = 2 * r > m ? 2 * r - m : m - 2 * r;
      if (worst.size() < 128 || dist < worst.back().first) {
        worst.emplace_back(dist, uint32_t(m));
        std::sort(worst.begin(), worst.end());
        if (worst.size() > 128) worst.pop_back();
      }
    }
    for (const auto& [dist, m] : worst)
      for (uint32_t e : {127u, 117u, 139u}) out.push_back(e << 23 | (m & 0x7fffffu));
    return out;
  }();
  return kSet;
}

// The distance in binary32 ulps between two results of the same sign, both finite (else "far").
std::string ulp_class(uint32_t want, uint32_t got) {
  const bool finite = (want & 0x7f800000u) != 0x7f800000u && (got & 0x7f800000u) != 0x7f800000u;
  if (!finite || (want >> 31) != (got >> 31)) return "non-finite-or-sign";
  const uint32_t a = want & 0x7fffffffu, b = got & 0x7fffffffu;
  const uint32_t d = a > b ? a - b : b - a;
  if (a != 0 && b == 0) return "flushed";
  return d == 1 ? "1-ulp" : d == 2 ? "2-ulp" : d <= 16 ? "3-16-ulp" : "far";
}

std::unique_ptr<Domain> nvfp4_divisors() {
  auto d = std::make_unique<ReconstructDomain>();
  d->name_ = "reconstruct.NVFP4.divisors";
  d->op_ = "reconstruct NVFP4";
  const std::vector<uint32_t>& set = realistic_divisors();
  d->size_ = uint64_t(set.size()) * 2032;  // divisor x (127 valid block scales x 16 codes)
  d->abi = NC_FORMAT_NVFP4;
  d->code_digits = 1;
  d->scale_digits = 2;
  d->has_divisor = true;
  d->element = [&set](uint64_t i, Element& e) {
    const uint32_t r = uint32_t(i % 2032);
    e = {r & 0xf, r >> 4, set[i / 2032]};
    return true;
  };
  d->reference = [](const Element& e) {
    return fastref::binary32_mul_div(fastref::e2m1_to_binary32(e.code), fastref::e4m3fn_to_binary32(e.scale),
                                     e.divisor);
  };
  d->classify = [](uint32_t want, uint32_t got) {
    return std::string((want & 0x7f800000u) == 0 ? "subnormal-result" : "normal-result") + ":" + ulp_class(want, got);
  };
  // Across, the divisor's biased exponent; down, the block scale word.
  d->grid_ = {"scale-code", 256, 128, "divisor's biased exponent (all divisors and codes of that binade)",
              "E4M3FN block scale word"};
  d->cell_of = [](const Element& e) { return uint64_t(e.divisor >> 23) * 128 + e.scale; };
  return d;
}

constexpr Format kReconstructFormats[] = {Format::Q4G64_F16S, Format::Q5G64_F16S, Format::Q6G64_F16S,
                                          Format::W8G32_F16S, Format::NVFP4,      Format::FP8_E4M3FN_ROW_BF16S};

}  // namespace

Family reconstruct_family() {
  return {[] {
            std::vector<std::string> names;
            for (Format f : kReconstructFormats) names.push_back("reconstruct." + std::string(info(f).name));
            names.push_back("reconstruct.NVFP4.divisors");
            return names;
          },
          [](const std::string& name) -> std::unique_ptr<Domain> {
            if (name == "reconstruct.NVFP4.divisors") return nvfp4_divisors();
            for (Format f : kReconstructFormats) {
              if (name != "reconstruct." + std::string(info(f).name)) continue;
              if (f == Format::NVFP4) return nvfp4();
              if (f == Format::FP8_E4M3FN_ROW_BF16S) return fp8_row();
              return grouped(f);
            }
            return nullptr;
          }};
}

}  // namespace nc::sweep
