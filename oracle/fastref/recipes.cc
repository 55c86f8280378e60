#include "oracle/fastref/recipes.h"

#include <algorithm>

#include "oracle/fastref/minifloat_round.h"

namespace nc::fastref {

namespace {
bool is_nan32(uint32_t w) { return (w & 0x7fffffffu) > 0x7f800000u; }
bool is_inf32(uint32_t w) { return (w & 0x7fffffffu) == 0x7f800000u; }

uint32_t round_binary32_word(uint32_t w, const MinifloatSpec& dst, Overflow overflow) {
  Exact e = binary32_exact(w);
  return round_exact(e.negative, e.m, e.q, false, dst, overflow);
}

// The exact binary32 word of a word of a narrower format (every value of BF16 ... E2M1 is one):
// NaN keeps its sign and its payload's top bits (a format without payload gives the quiet NaN).
uint32_t to_binary32(uint32_t w, const MinifloatSpec& s) {
  const uint32_t sign_mask = s.sign_bit, mag = w & (sign_mask - 1);
  const bool neg = (w & sign_mask) != 0;
  const uint32_t e = mag >> s.man_bits, f = mag & ((1u << s.man_bits) - 1);
  if (s.inf_bits && mag >= s.inf_bits) return (neg ? 0x80000000u : 0u) | 0x7f800000u | (f << (23 - s.man_bits));
  if (s.nan_bits && mag == s.nan_bits) return (neg ? 0x80000000u : 0u) | 0x7fc00000u;
  if (e == 0) return round_exact(neg, f, s.emin - s.man_bits, false, kBinary32);
  return round_exact(neg, (uint64_t(1) << s.man_bits) + f, int(e) - 1 + s.emin - s.man_bits, false, kBinary32);
}

template <Recipe R>
inline uint32_t convert_one(uint32_t w) {
  const bool neg = (w >> 31) != 0;
  switch (R) {
    // NaN: the destination's quiet NaN with the sign and the payload's top bits (BF16, F16), the
    // signed NaN word (E4M3FN), the signed largest finite (E2M1, which has no NaN).
    case Recipe::F32_TO_BF16_RNE:
      if (is_nan32(w)) return (w >> 16) | kBfloat16.nan_bits;  // keep sign and top payload, set quiet
      if (is_inf32(w)) return (w >> 16);
      return round_binary32_word(w, kBfloat16, Overflow::ToInfinity);
    case Recipe::F32_TO_F16_RNE:
      if (is_nan32(w)) return (neg ? kBinary16.sign_bit : 0u) | kBinary16.nan_bits | ((w >> 13) & 0x3ffu);
      if (is_inf32(w)) return (neg ? kBinary16.sign_bit : 0u) | kBinary16.inf_bits;
      return round_binary32_word(w, kBinary16, Overflow::ToInfinity);
    case Recipe::F32_TO_E4M3FN_RNE_SATFINITE:
      if (is_nan32(w)) return (neg ? kE4M3FN.sign_bit : 0u) | kE4M3FN.nan_bits;
      if (is_inf32(w)) return (neg ? kE4M3FN.sign_bit : 0u) | kE4M3FN.max_finite;
      return round_binary32_word(w, kE4M3FN, Overflow::Saturate);
    case Recipe::F32_TO_E4M3FN_RNE_OVF_NAN:
      if (is_nan32(w) || is_inf32(w)) return (neg ? kE4M3FN.sign_bit : 0u) | kE4M3FN.nan_bits;
      return round_binary32_word(w, kE4M3FN, Overflow::ToNaN);
    case Recipe::F32_TO_E2M1_RNE_SATFINITE:
      if (is_nan32(w) || is_inf32(w)) return (neg ? kE2M1.sign_bit : 0u) | kE2M1.max_finite;
      return round_binary32_word(w, kE2M1, Overflow::Saturate);
  }
  return 0;
}

// Calls f.template operator()<R>() with the recipe r as a compile-time constant, so each loop is
// compiled once per recipe with its destination format folded in.
template <class F>
void with_recipe(Recipe r, F&& f) {
  switch (r) {
    case Recipe::F32_TO_BF16_RNE:
      return f.template operator()<Recipe::F32_TO_BF16_RNE>();
    case Recipe::F32_TO_F16_RNE:
      return f.template operator()<Recipe::F32_TO_F16_RNE>();
    case Recipe::F32_TO_E4M3FN_RNE_SATFINITE:
      return f.template operator()<Recipe::F32_TO_E4M3FN_RNE_SATFINITE>();
    case Recipe::F32_TO_E4M3FN_RNE_OVF_NAN:
      return f.template operator()<Recipe::F32_TO_E4M3FN_RNE_OVF_NAN>();
    case Recipe::F32_TO_E2M1_RNE_SATFINITE:
      return f.template operator()<Recipe::F32_TO_E2M1_RNE_SATFINITE>();
  }
}

template <Recipe R>
void convert_all(const uint32_t* src, size_t n, uint32_t* out) {
  for (size_t k = 0; k < n; ++k) out[k] = convert_one<R>(src[k]);
}

}  // namespace

uint32_t convert(Recipe r, uint32_t w) {
  uint32_t out;
  convert_batch(r, &w, 1, &out);
  return out;
}

void convert_batch(Recipe r, const uint32_t* src, size_t n, uint32_t* out) {
  with_recipe(r, [&]<Recipe R>() { convert_all<R>(src, n, out); });
}

namespace {
// Calls emit(k, count, value) for the results of word(k) = base + k * stride, k in [lo, hi), in
// runs of one value, in order, given f_lo = f(word(lo)) and f_hi = f(word(hi)) for f monotone on
// the words from word(lo) to word(hi): where the ends agree, so does everything between. Stops at
// the first emit that returns false, and returns false then.
template <Recipe R, class Emit>
bool monotone_runs(uint64_t base, uint64_t stride, uint64_t lo, uint64_t hi, uint32_t f_lo, uint32_t f_hi, Emit& emit) {
  while (f_lo != f_hi && hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    const uint32_t f_mid = convert_one<R>(uint32_t(base + mid * stride));
    if (!monotone_runs<R>(base, stride, lo, mid, f_lo, f_mid, emit)) return false;
    lo = mid;
    f_lo = f_mid;
  }
  return lo == hi || emit(lo, f_lo == f_hi ? hi - lo : 1, f_lo);
}

// emit(k, count, value) for out[k .. k + count) of the lattice first + k * stride, k < n, in
// order (convert_range's results); false where an emit stopped it.
template <Recipe R, class Emit>
bool lattice_runs(uint32_t first, size_t n, uint64_t stride, Emit&& emit) {
  uint64_t k = 0;
  while (k < n) {
    const uint64_t w = first + k * stride;
    // The monotone stretch holding w: finite words of one sign, [0, 7f7fffff] or [80000000, ff7fffff];
    // the inputs in it are k up to (not including) the first whose word reaches its stop.
    const uint64_t sign_base = w & 0x80000000u;
    const bool finite = (w & 0x7fffffffu) < 0x7f800000u;
    const uint64_t stop = sign_base + (finite ? 0x7f800000u : 0x80000000u);
    const uint64_t end = std::min<uint64_t>(n, k + (stop - w + stride - 1) / stride);
    if (!finite) {  // infinity or NaN: one by one to the end of this half
      for (; k < end; ++k)
        if (!emit(k, 1, convert_one<R>(uint32_t(first + k * stride)))) return false;
      continue;
    }
    const uint32_t f_last = convert_one<R>(uint32_t(first + (end - 1) * stride));
    if (!monotone_runs<R>(first, stride, k, end - 1, convert_one<R>(uint32_t(w)), f_last, emit) ||
        !emit(end - 1, 1, f_last))
      return false;
    k = end;
  }
  return true;
}

// Whether the n words from a all equal v: no early exit inside a run (runs are short where they
// are many). The differences are gathered in kLanes accumulators, so the vectorised loop is not
// one chain of ORs each waiting for the one before (that ran at half the speed of the loads), and
// the tail's in one of its own: ORed into an accumulator, it kept them in memory, and reading them
// back as vectors after its scalar stores stalled (perf: a quarter of the function's time, which
// is most of an in-process PyTorch F16 sweep's judging). A v wider than the words equals none.
template <typename Word>
[[gnu::always_inline]] inline bool words_all_equal(const Word* a, size_t n, uint32_t v) {
  if constexpr (sizeof(Word) < 4)
    if (v > Word(~Word(0))) return false;
  constexpr size_t kLanes = 128 / sizeof(Word);
  const Word w = Word(v);
  Word differ[kLanes] = {};
  size_t k = 0;
  for (; k + kLanes <= n; k += kLanes)
    for (size_t j = 0; j < kLanes; ++j) differ[j] |= Word(a[k + j] ^ w);
  Word any = 0;
  for (; k < n; ++k) any |= Word(a[k] ^ w);
  for (Word d : differ) any |= d;
  return any == 0;
}

// One clone set per width (AVX-512, AVX2, baseline); integer code only.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define NC_CLONED __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define NC_CLONED
#endif
NC_CLONED bool all_equal(const uint32_t* a, size_t n, uint32_t v) { return words_all_equal(a, n, v); }
NC_CLONED bool all_equal(const uint16_t* a, size_t n, uint32_t v) { return words_all_equal(a, n, v); }
NC_CLONED bool all_equal(const uint8_t* a, size_t n, uint32_t v) { return words_all_equal(a, n, v); }
#undef NC_CLONED

template <typename Word>
bool range_matches(Recipe r, uint32_t first, size_t n, const Word* actual, uint64_t stride) {
  bool matches = false;
  with_recipe(r, [&]<Recipe R>() {
    matches = lattice_runs<R>(
        first, n, stride, [actual](uint64_t k, uint64_t count, uint32_t v) { return all_equal(actual + k, count, v); });
  });
  return matches;
}
}  // namespace

void convert_range(Recipe r, uint32_t first, size_t n, uint32_t* out, uint64_t stride) {
  with_recipe(r, [&]<Recipe R>() {
    lattice_runs<R>(first, n, stride, [out](uint64_t k, uint64_t count, uint32_t v) {
      std::fill_n(out + k, count, v);
      return true;
    });
  });
}

bool convert_range_matches(Recipe r, uint32_t first, size_t n, const uint32_t* actual, uint64_t stride) {
  return range_matches(r, first, n, actual, stride);
}
bool convert_range_matches(Recipe r, uint32_t first, size_t n, const uint16_t* actual, uint64_t stride) {
  return range_matches(r, first, n, actual, stride);
}
bool convert_range_matches(Recipe r, uint32_t first, size_t n, const uint8_t* actual, uint64_t stride) {
  return range_matches(r, first, n, actual, stride);
}

uint32_t f16_to_binary32(uint32_t w) { return to_binary32(w & 0xffffu, kBinary16); }
uint32_t bf16_to_binary32(uint32_t w) { return (w & 0xffffu) << 16; }  // BF16 is binary32's high half
uint32_t e4m3fn_to_binary32(uint32_t w) { return to_binary32(w & 0xffu, kE4M3FN); }
uint32_t e2m1_to_binary32(uint32_t w) { return to_binary32(w & 0xfu, kE2M1); }

WordDecode word_decode(WordType w) {
  switch (w) {
    case WordType::F16:
      return f16_to_binary32;
    case WordType::BF16:
      return bf16_to_binary32;
    case WordType::E4M3FN:
      return e4m3fn_to_binary32;
    case WordType::E2M1:
      return e2m1_to_binary32;
    default:
      return nullptr;
  }
}

uint32_t int_to_binary32(int64_t v) {
  return round_exact(v < 0, v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v), 0, false, kBinary32);
}

uint32_t binary32_mul(uint32_t a, uint32_t b) {
  Exact x = binary32_exact(a), y = binary32_exact(b);
  return round_exact(x.negative != y.negative, x.m * y.m, x.q + y.q, false, kBinary32);
}

uint32_t binary32_mul_div(uint32_t a, uint32_t b, uint32_t d) {
  Exact x = binary32_exact(a), y = binary32_exact(b), z = binary32_exact(d);
  auto trim = [](Exact& e) {  // drop trailing zero bits: E2M1 and E4M3FN values have <= 4 left
    if (e.m) {
      int t = __builtin_ctzll(e.m);
      e.m >>= t;
      e.q += t;
    }
  };
  trim(x);
  trim(y);
  // NVFP4 operands are an E2M1 and an E4M3FN value (x.m * y.m < 2^7), so a shift of 56 keeps the
  // quotient below 2^63 and, with z.m < 2^24, over 32 significant bits: enough to round once.
  const int s = 56;
  unsigned __int128 num = (unsigned __int128)(x.m * y.m) << s;
  uint64_t quot = uint64_t(num / z.m);
  bool sticky = (num % z.m) != 0;
  return round_exact(x.negative != y.negative, quot, x.q + y.q - z.q - s, sticky, kBinary32);
}

}  // namespace nc::fastref
