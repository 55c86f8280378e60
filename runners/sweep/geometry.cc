#include "runners/sweep/geometry.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "ninfer_conform/plugin.h"
#include "runners/sweep/families.h"

namespace nc::sweep {

namespace {

constexpr size_t kFullBatch = 4096;
constexpr size_t kMaxLength = 64;
constexpr size_t kMaxOffset = 15;  // words past a 64-byte boundary
constexpr size_t kExamples = 8;

// A buffer whose word `offset` sits `offset` words past a 64-byte boundary.
struct Buffer {
  std::vector<uint32_t> words;
  uint32_t* base;
  explicit Buffer(size_t n) : words(n + 16 + kMaxOffset + kMaxLength + 1) {
    auto p = reinterpret_cast<uintptr_t>(words.data());
    base = words.data() + ((64 - p % 64) % 64) / 4;
  }
};

std::string described(const std::string& cls, bool allowed) {
  if (cls.empty()) return "the reference result";
  return allowed ? cls + " (a result a policy allows)" : cls;
}

// The most common of a list of descriptions, and whether it is the only one.
std::string summary(const std::vector<std::string>& ds) {
  std::map<std::string, size_t> n;
  for (const std::string& d : ds) ++n[d];
  auto best = std::max_element(n.begin(), n.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return n.size() == 1
             ? best->first
             : "mostly " + best->first + " (" + std::to_string(best->second) + " of " + std::to_string(ds.size()) + ")";
}

}  // namespace

std::vector<uint32_t> class_sample32() {
  static constexpr uint32_t kFractions[] = {
      0,        1,        0x7fffff, 0x400000, 0x3fffff,  // zero, smallest, all ones, quiet bit alone and below it
      0x8000,   0x18000,  0x8001,                        // BF16: tie (even kept part), tie (odd), above the tie
      0x1000,   0x3000,   0x1001,                        // binary16
      0x80000,  0x180000, 0x80001,                       // E4M3FN (3 fraction bits)
      0x200000, 0x600000,                                // E2M1 (1 fraction bit)
      0x7f0001, 0x7fe001, 0x600001,                      // just above the largest finite BF16, binary16, E4M3FN
  };
  std::vector<uint32_t> s;
  uint32_t x = 0x9e3779b9u;  // xorshift32, fixed seed: the same sample in every build
  for (uint32_t sign = 0; sign < 2; ++sign)
    for (uint32_t e = 0; e < 256; ++e) {
      const uint32_t head = sign << 31 | e << 23;
      for (uint32_t f : kFractions) s.push_back(head | f);
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      s.push_back(head | (x & 0x7fffff));
      if (e >= 127 - 24 && e <= 126)  // results subnormal in binary16 / E4M3FN / E2M1
        for (uint32_t k = 0; k < 23; ++k) s.push_back(head | (1u << k)), s.push_back(head | ((3u << k) & 0x7fffff));
    }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

bool in_geometry_core32(uint32_t w) {
  const uint32_t e = (w >> 23) & 0xff;
  return e == 0 || e == 255 || e == 1 || e == 254 ||          // zeros, subnormals, NaN, inf; BF16's ends
         (e >= 101 && e <= 104) || (e >= 112 && e <= 114) ||  // binary16: smallest subnormal; normal edge
         (e >= 116 && e <= 121) || (e >= 125 && e <= 129) ||  // E4M3FN subnormal edge; E2M1, 1.0
         (e >= 134 && e <= 136) || (e >= 141 && e <= 143);    // E4M3FN and binary16 overflow
}

bool present_full(const WordJudge& j, const std::vector<uint32_t>& sample, std::vector<uint32_t>* out,
                  std::string* error) {
  Buffer in(kFullBatch), res(kFullBatch);
  out->assign(sample.size(), 0);
  for (size_t b = 0; b < sample.size(); b += kFullBatch) {
    const size_t m = std::min(kFullBatch, sample.size() - b);
    std::copy(sample.begin() + ptrdiff_t(b), sample.begin() + ptrdiff_t(b + m), in.base);
    const size_t sent = (m + kMaxLength - 1) / kMaxLength * kMaxLength;  // whole groups, as run_geometry
    for (size_t k = m; k < sent; ++k) in.base[k] = sample[(k - m) % sample.size()];
    if (int rc = j.call(in.base, sent, res.base); rc != NC_OK)
      return *error = "the target returned status " + std::to_string(rc) + " on a batch of the class sample", false;
    std::copy(res.base, res.base + m, out->begin() + ptrdiff_t(b));
  }
  return true;
}

std::vector<uint32_t> class_sample_words(unsigned bits) {
  std::vector<uint32_t> s;
  if (bits <= 12) {
    for (uint32_t w = 0; w < (1u << bits); ++w) s.push_back(w);
    return s;
  }
  static constexpr std::pair<uint32_t, uint32_t> kWindows[] = {
      {0x0000, 0x0010}, {0x03f0, 0x0410}, {0x0070, 0x0090},  // zero; binary16 and BF16 subnormal/normal
      {0x7bf0, 0x7c10}, {0x7df0, 0x7e10}, {0x7ff0, 0x8000},  // binary16 max/inf/sNaN, sNaN/qNaN; top NaNs
      {0x7f70, 0x7f90}, {0x7fb8, 0x7fc8},                    // BF16 max/inf/sNaN, sNaN/qNaN
  };
  for (uint32_t w = 0; w < (1u << bits); ++w) {
    const uint32_t m = w & 0x7fff;
    bool in = w % 61 == 0;
    for (auto [lo, hi] : kWindows) in |= m >= lo && m < hi;
    if (in) s.push_back(w);
  }
  return s;
}

void run_geometry(const WordJudge& j, const std::vector<uint32_t>& sample, const std::string& sample_about,
                  GeometryResult* g, std::vector<uint32_t>* full_results) {
  const size_t n = sample.size();
  *g = GeometryResult{};
  g->sample = n;
  g->sample_about = sample_about;
  g->tried = {
      "batches of " + std::to_string(kFullBatch) + " starting on a 64-byte boundary (the reference geometry)",
      "batch lengths 1.." + std::to_string(kMaxLength) + " (the sample cut into consecutive batches of each length)",
      "start offsets 1.." + std::to_string(kMaxOffset) + " words past a 64-byte boundary (batches of " +
          std::to_string(kFullBatch) + ")"};
  Buffer in(kFullBatch), out(kFullBatch);
  // Presents the sample in batches of `len` starting `offset` words past a boundary.
  auto present = [&](size_t len, size_t offset, std::vector<uint32_t>& res) {
    res.assign(n, 0);
    for (size_t b = 0; b < n; b += len) {
      const size_t m = std::min(len, n - b);
      std::copy(sample.begin() + ptrdiff_t(b), sample.begin() + ptrdiff_t(b + m), in.base + offset);
      // A full batch is whole 64-element groups: its last one is filled up with the first sample
      // words (their results ignored), so no sample input of it sits in a tail.
      const size_t sent = len == kFullBatch ? (m + kMaxLength - 1) / kMaxLength * kMaxLength : m;
      for (size_t k = m; k < sent; ++k) in.base[offset + k] = sample[(k - m) % n];
      if (int rc = j.call(in.base + offset, sent, out.base + offset); rc != NC_OK) {
        g->target_error = "the target returned status " + std::to_string(rc) + " on a batch of " + std::to_string(m) +
                          " at offset " + std::to_string(offset) + " (sample index " + std::to_string(b) +
                          "); the geometry pass stopped there";
        return false;
      }
      std::copy(out.base + offset, out.base + offset + m, res.begin() + ptrdiff_t(b));
      g->presented += m;
    }
    return true;
  };
  std::vector<uint32_t> want(n), full, single, res;
  j.reference(sample.data(), n, want.data());
  if (!present(kFullBatch, 0, full)) return;
  if (full_results) *full_results = full;
  std::vector<uint64_t> length_diff(n, 0), offset_diff(n, 0);
  std::vector<std::string> other_where(n);
  std::vector<uint32_t> other(n);
  std::map<std::string, uint64_t> classes;
  auto compare = [&](const std::string& where, uint64_t bit, std::vector<uint64_t>& mask, size_t len) {
    for (size_t k = 0; k < n; ++k) {
      if (res[k] == full[k]) continue;
      if (!length_diff[k] && !offset_diff[k]) {
        other[k] = res[k];
        other_where[k] = len ? "position " + std::to_string(k % len) + " of a batch of " +
                                   std::to_string(std::min(len, n - k / len * len))
                             : where;
      }
      mask[k] |= bit;
      bool allowed = false;
      const std::string cls = j.judge(sample[k], want[k], res[k], &allowed);
      if (!cls.empty() && !allowed) ++classes[cls];
    }
  };
  for (size_t len = 1; len <= kMaxLength; ++len) {
    if (!present(len, 0, res)) return;
    if (len == 1) single = res;
    compare("", uint64_t(1) << (len - 1), length_diff, len);
  }
  for (size_t off = 1; off <= kMaxOffset; ++off) {
    if (!present(kFullBatch, off, res)) return;
    compare("a batch of " + std::to_string(kFullBatch) + " starting " + std::to_string(off) +
                " words past a 64-byte boundary",
            uint64_t(1) << off, offset_diff, 0);
  }
  g->classes.assign(classes.begin(), classes.end());
  std::vector<size_t> dependent;
  for (size_t k = 0; k < n; ++k)
    if (length_diff[k] || offset_diff[k]) dependent.push_back(k);
  g->position_dependent = dependent.size();
  if (dependent.empty()) return;
  for (size_t i = 0; i < dependent.size() && i < kExamples; ++i) {
    const size_t k = dependent[i];
    g->first.push_back({hex_word(sample[k], j.in_digits), hex_word(full[k], j.out_digits),
                        hex_word(other[k], j.out_digits), other_where[k]});
  }
  // The input kinds concerned, and what the full batch and a batch of one give them.
  std::map<std::string, size_t> kinds;
  std::vector<std::string> full_d, tail_d;
  for (size_t k : dependent) {
    bool fa = false, sa = false;
    const std::string fc = j.judge(sample[k], want[k], full[k], &fa), sc = j.judge(sample[k], want[k], single[k], &sa);
    const std::string& any = fc.empty() ? sc : fc;
    ++kinds[any.empty() ? "input" : any.substr(0, any.find(':'))];
    full_d.push_back(described(fc, fa));
    tail_d.push_back(described(sc, sa));
  }
  std::string kind_list;
  for (const auto& [kind, count] : kinds)
    kind_list += (kind_list.empty() ? "" : ", ") + kind + " " + std::to_string(count);
  // The smallest vector width W for which "in a full group of W lanes" decides every result over
  // the lengths 1..64: a full group gives the full batch's result, the tail of a batch (its last
  // L mod W elements) the other.
  size_t width = 0;
  for (size_t w = 2; w <= kMaxLength && !width; w *= 2) {
    bool fits = true;
    for (size_t i = 0; i < dependent.size() && fits; ++i) {
      const size_t k = dependent[i];
      for (size_t len = 1; len <= kMaxLength && fits; ++len) {
        const size_t b = k / len * len, m = std::min(len, n - b), p = k - b;
        const bool in_full_group = p < m - m % w, differs = length_diff[k] >> (len - 1) & 1;
        fits = differs != in_full_group;
      }
    }
    if (fits) width = w;
  }
  const bool offsets = std::any_of(dependent.begin(), dependent.end(), [&](size_t k) { return offset_diff[k] != 0; });
  const bool lengths = std::any_of(dependent.begin(), dependent.end(), [&](size_t k) { return length_diff[k] != 0; });
  std::string f = "position-dependent: " + std::to_string(dependent.size()) + " of " + std::to_string(n) +
                  " sample inputs (" + kind_list + ") give a result that depends on where they sit in a batch";
  if (width)
    f += ": lanes 0-" + std::to_string(width - 1) + " of each full group of " + std::to_string(width) + " give " +
         summary(full_d) + ", the tail (the last L mod " + std::to_string(width) + " of a batch of L) gives " +
         summary(tail_d);
  else if (lengths)
    f += ": a full batch gives " + summary(full_d) + ", a batch of one gives " + summary(tail_d) +
         ", other lengths mix the two";
  if (offsets) f += std::string(lengths ? "; " : ": ") + "the start offset changes results too";
  f += "; first: input " + g->first[0].input + " gives " + g->first[0].full + " in a full batch, " + g->first[0].other +
       " at " + g->first[0].where;
  g->finding = f;
}

}  // namespace nc::sweep
