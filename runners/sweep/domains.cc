#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <optional>

#include "oracle/fastref/recipes.h"
#include "registry/registry.h"
#include "runners/departure.h"
#include "runners/sweep/domain.h"
#include "runners/sweep/families.h"
#include "runners/sweep/geometry.h"
#include "runners/sweep/profiles.h"

namespace nc::sweep {

namespace {

constexpr size_t kJudgeBlock = 1 << 12;  // inputs whose expectation is made at once (16 KiB)
constexpr int kMaxFailingBatches = 16;   // of kUnitBatch inputs

std::string hex(uint32_t w, int digits) { return hex_word(w, digits); }

// in[k] = first + k * stride (index = input word), in 32-bit arithmetic: each word is below 2^32,
// so the sums modulo 2^32 are the words. A running sum (word += stride) makes each vector of words
// wait for the one before: that loop took 9% of an in-process PyTorch sweep's CPU (perf, issue
// 31). Each word is first plus its precomputed offset instead, and the loop is cloned for AVX-512
// and AVX2 (four and two times the words a store); integer code only, so no clone can change a word.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void fill_lattice(uint32_t* __restrict in, size_t n, uint32_t first, uint32_t stride) {
  constexpr size_t kStep = 64;
  uint32_t offset[kStep];
  for (size_t j = 0; j < kStep; ++j) offset[j] = uint32_t(j) * stride;
  size_t k = 0;
  for (; k + kStep <= n; k += kStep, first += uint32_t(kStep) * stride)
    for (size_t j = 0; j < kStep; ++j) in[k + j] = first + offset[j];
  for (; k < n; ++k, first += stride) in[k] = first;
}

// A binary32 NaN, as the judge reads every word type's NaNs (runners/departure.h).
constexpr runners::NanTest is_nan32 = runners::nan_test(WordType::FP32);

// The buffers of a word domain's batch: inputs, results, and a block's expectation, input words and
// results widened (where the target's own words are narrower).
struct WordBuffers {
  std::vector<uint32_t> in, out, want = std::vector<uint32_t>(kJudgeBlock), words = std::vector<uint32_t>(kJudgeBlock),
                                 got = std::vector<uint32_t>(kJudgeBlock);
};

// The n results at r.data, as 32-bit words: the words themselves, or widened into `got`.
const uint32_t* widened(const runners::WordResults& r, size_t n, std::vector<uint32_t>& got) {
  if (r.bytes == 4) return static_cast<const uint32_t*>(r.data);
  if (r.bytes == 2) std::copy_n(static_cast<const uint16_t*>(r.data), n, got.begin());
  else std::copy_n(static_cast<const uint8_t*>(r.data), n, got.begin());
  return got.data();
}

// The calling thread's, kept from chunk to chunk (grown to the longest batch asked for): fresh
// ones each chunk cost an in-process sweep 1.9 µs a batch in page faults and zeroing. Reached
// through a call that is not inlined: in a shared library GCC looks a thread_local's address up
// again (__tls_get_addr) after each opaque call in a loop, which made the sweep of a wrong target a
// fifth slower.
[[gnu::noinline]] WordBuffers& thread_word_buffers(size_t batch) {
  thread_local WordBuffers buffers;
  if (buffers.in.size() < batch) buffers.in.resize(batch), buffers.out.resize(batch);
  return buffers;
}

// How a wrong binary32-producing result relates to the right one, for counting by class.
const char* result_kind(uint32_t expected, uint32_t actual, int width) {
  const uint32_t sign = 1u << (width - 1), mag = sign - 1;
  uint32_t em = expected & mag, am = actual & mag;
  if (em != 0 && am == 0) return "flushed";
  if ((expected ^ actual) == sign) return "sign";
  int64_t e = (expected & sign) ? -int64_t(em) : int64_t(em);
  int64_t a = (actual & sign) ? -int64_t(am) : int64_t(am);
  if (e - a == 1 || a - e == 1) return "off-by-one-ulp";
  return "other";
}

std::string input_kind32(uint32_t w) {
  uint32_t e = (w >> 23) & 0xff, f = w & 0x7fffff;
  if (e == 0xff) return f ? "nan-input" : "inf-input";
  if (e == 0) return f ? "subnormal-input" : "zero-input";
  return "normal-input";
}

// Runs a domain whose inputs are one word each and whose target call fills one word per input.
// The input word of index i is i; call(in, n, out) runs the target; reference(in, n, stride, want)
// the expectation, a batch at a time (in[k] = in[0] + k * stride); accepted(expected, actual) decides
// a difference that the domain allows (none unless the domain says).
struct WordDomain : Domain {
  std::string name_, op_;
  uint64_t size_;
  int in_digits, out_digits, out_width;
  std::function<int(const nc_plugin_v1&, const uint32_t*, size_t, uint32_t*)> call;
  // The same call through Calls::convert_words, which answers with the target's own words (set
  // by the convert domains; used where the sweep has one).
  std::function<int(runners::ConvertWords, const uint32_t*, size_t, runners::WordResults*)> call_words;
  std::function<void(const uint32_t*, size_t, uint64_t, uint32_t*)> reference;
  // Whether the result word k (of `bytes` bytes at actual) is the expected result of first + k *
  // stride for every k < n, judged without writing the expectation or widening the results (set
  // where the reference can: convert's runs of equal results); the blocks it passes skip
  // `reference` and its compare, which wrote and read a buffer a block.
  std::function<bool(uint32_t, size_t, uint64_t, const void*, unsigned)> matches;
  // Whether an expected binary32 NaN is met by any binary32 NaN: a NaN without payload (E4M3FN's)
  // has none to expand, so no binary32 NaN is more right than another.
  bool any_nan_for_nan = false;
  // The NaN latitude the registry grants (a recipe's nan_latitude, a word type's
  // decode_nan_latitude; the corpus's #policy lines are written from the same rows): a NaN input
  // passes with any NaN of the result type. Tests, not calls: a target that answers every NaN
  // input with one NaN word (PyTorch's BF16 cast) sends a convert sweep's 2^24 NaN inputs through
  // judge's loop of single inputs, a tenth of that sweep's perf samples, a third of them in two
  // std::function calls an input.
  struct NanLatitude {
    runners::NanTest input, result;
  };
  std::optional<NanLatitude> nan_any;
  std::string_view latitude;                                            // its policy name
  runners::NanLayout nan_layout = runners::nan_layout(WordType::FP32);  // of the result, for the departure profile
  std::function<std::string(uint32_t)> kind_of_input = [](uint32_t) { return std::string("word"); };
  // The expected result as the corpus writes it (vectors/FORMAT.md); hex by default.
  std::function<std::string(uint32_t)> expect_token;
  // Which known profile the full-batch results of the class sample match (profiles.h); none: not identified.
  std::function<ProfileResult(const std::vector<uint32_t>&, const std::vector<uint32_t>&)> identify;
  // The picture: cell = index >> cell_shift.
  Grid grid_;
  unsigned cell_shift = 0;

  Grid grid() const override { return grid_; }

  bool accepted(uint32_t want, uint32_t actual) const { return any_nan_for_nan && is_nan32(want) && is_nan32(actual); }
  bool passes_nan_latitude(uint32_t in, uint32_t actual) const {
    return nan_any && nan_any->input(in) && nan_any->result(actual);
  }

  std::string name() const override { return name_; }
  std::string op() const override { return op_; }
  uint64_t size() const override { return size_; }

  // Adds the n inputs first, first + stride, ... to their cells' judged counts, a cell at a time.
  void judge_cells(CellCounts& cells, uint64_t first, uint64_t n, uint64_t stride) const {
    for (uint64_t k = 0; k < n;) {
      const uint64_t index = first + k * stride, cell = index >> cell_shift;
      const uint64_t next_cell = (cell + 1) << cell_shift;  // first index of the next cell
      const uint64_t m = std::min(n - k, (next_cell - index + stride - 1) / stride);
      cells[cell].judged += m;
      k += m;
    }
  }

  void run(const nc_plugin_v1& t, uint64_t begin, uint64_t end, uint64_t stride, size_t keep, const Calls& calls,
           Tally& tally, CellCounts& cells) const override {
    WordBuffers& buffers = thread_word_buffers(calls.batch);
    std::vector<uint32_t>&in = buffers.in, &out = buffers.out;
    runners::WordResults results;
    auto call_target = [&](size_t n) {
      if (call_words && calls.convert_words) return call_words(calls.convert_words, in.data(), n, &results);
      results = {out.data(), 4};
      return call(t, in.data(), n, out.data());
    };
    int failing = 0;  // failed units in a row
    for (uint64_t i = begin; i < end;) {
      const uint64_t first = i;
      const size_t n = size_t(std::min<uint64_t>(calls.batch, (end - i + stride - 1) / stride));
      fill_lattice(in.data(), n, uint32_t(first), uint32_t(stride));
      i += n * stride;
      int rc = call_target(n);
      if (rc == NC_OK) {
        failing = 0;
        judge(first, n, stride, keep, results, buffers, tally, cells);
        continue;
      }
      // A failed call of more than a unit is made again a unit at a time: what a refused input
      // costs, and where the report says the target failed, are the same for every batch.
      for (size_t at = 0; at < n; at += kUnitBatch) {
        const size_t m = std::min(kUnitBatch, n - at);
        const uint64_t unit_first = first + at * stride;
        if (n > kUnitBatch) {
          fill_lattice(in.data(), m, uint32_t(unit_first), uint32_t(stride));
          rc = call_target(m);
        }
        if (rc == NC_EUNSUPPORTED) {  // the ABI declines a selector as a whole: skip the rest
          tally.unsupported += (end - unit_first + stride - 1) / stride;
          return;
        }
        if (rc == NC_OK) {
          failing = 0;
          judge(unit_first, m, stride, keep, results, buffers, tally, cells);
          continue;
        }
        // A failed unit (a pipe adapter's `error` answer, or its death: the next call restarts it)
        // costs its own inputs, so one refused input does not hide the rest of the range; a
        // target that keeps failing costs the range.
        tally.errored += m;
        if (tally.target_error.empty())
          tally.target_error =
              "target returned status " + std::to_string(rc) + " at index " + std::to_string(unit_first);
        if (++failing == kMaxFailingBatches) {
          tally.target_error += "; the range was abandoned at index " + std::to_string(unit_first) + " after " +
                                std::to_string(kMaxFailingBatches) + " failed batches in a row";
          return;
        }
      }
    }
  }

  // Judges the results of the n inputs first, first + stride, ...
  void judge(uint64_t first, size_t n, uint64_t stride, size_t keep, const runners::WordResults& results,
             WordBuffers& buffers, Tally& tally, CellCounts& cells) const {
    std::vector<uint32_t>&want = buffers.want, &words = buffers.words;
    tally.covered += n;
    judge_cells(cells, first, n, stride);
    // Passes under the latitude (nan-any), reported by the finer one that holds: nan-payload
    // where the sign is the reference's (vectors/FORMAT.md), and how each departs.
    uint64_t under_nan_any = 0, under_nan_payload = 0;
    // How many passes departed in each combination of ways (a bit a way): one count an input, not one
    // a way (PyTorch's BF16 cast answers 2^24 NaN inputs with one NaN).
    uint64_t departs[1u << runners::kDepartureCount] = {};
    const uint32_t sign = 1u << (out_width - 1);
    // Billions of mismatches (a truncating conversion) cost a count each: the class of the last
    // one and its cell are looked up again only when they change, and the strings of a kept
    // mismatch are made only for the first `keep` of a class.
    std::string last_input_kind;
    const char* last_result_kind = nullptr;
    size_t slot = 0;
    uint64_t cell_key = UINT64_MAX;
    Cell* cell = nullptr;
    // A block at a time: first `matches`, which reads the results once; where it fails (or the
    // domain has none) the expectation is made in a buffer that stays in the L1 cache: a third
    // batch-long buffer, written and read again beside the batch's inputs and results, cost an
    // in-process PyTorch sweep more than the cast itself (perf).
    // The words are judged as their indices give them, never read back from `in`: a target may
    // write into the buffer it was handed (torch.from_numpy over the runner's read-only view is
    // a writable tensor, and an in-place op reaches the runner's words), and its results answer
    // the words it was given.
    for (size_t at = 0; at < n; at += kJudgeBlock) {
      const size_t m = std::min(kJudgeBlock, n - at);
      const uint32_t block_first = uint32_t(first + at * stride);
      const void* block = static_cast<const uint8_t*>(results.data) + at * results.bytes;
      if (matches && matches(block_first, m, stride, block, results.bytes)) continue;
      const uint32_t* got = widened({block, results.bytes}, m, buffers.got);
      fill_lattice(words.data(), m, block_first, uint32_t(stride));
      reference(words.data(), m, stride, want.data());
      if (std::equal(want.begin(), want.begin() + ptrdiff_t(m), got)) continue;
      for (size_t j = 0; j < m; ++j) {
        if (want[j] == got[j] || accepted(want[j], got[j])) continue;
        const uint64_t index = first + (at + j) * stride;
        if ((index >> cell_shift) != cell_key) cell_key = index >> cell_shift, cell = &cells[cell_key];
        if (passes_nan_latitude(words[j], got[j])) {
          ++((want[j] ^ got[j]) & sign ? under_nan_any : under_nan_payload);
          const unsigned d = runners::nan_departure(want[j], got[j], nan_layout);
          ++departs[d];
          ++cell->accepted;
          continue;
        }
        ++cell->mismatches;
        std::string input_kind = kind_of_input(words[j]);
        const char* kind = result_kind(want[j], got[j], out_width);
        if (kind != last_result_kind || input_kind != last_input_kind) {
          slot = tally.class_slot(input_kind + ":" + kind);
          last_input_kind = std::move(input_kind);
          last_result_kind = kind;
        }
        if (tally.class_counts[slot].second++ < keep)
          tally.first.push_back({index,
                                 tally.class_counts[slot].first,
                                 {hex(words[j], in_digits)},
                                 expect_token ? expect_token(want[j]) : hex(want[j], out_digits),
                                 hex(got[j], out_digits)});
      }
    }
    if (under_nan_any) tally.accept(std::string(latitude), under_nan_any);
    if (under_nan_payload) tally.accept(std::string(kPolicyNanPayload), under_nan_payload);
    for (int b = 0; b < runners::kDepartureCount; ++b) {
      uint64_t count = 0;
      for (unsigned d = 0; d < std::size(departs); ++d) count += d >> b & 1 ? departs[d] : 0;
      if (count) tally.depart(runners::kDepartureNames[b], count);
    }
  }

  bool geometry(const nc_plugin_v1& t, GeometryResult* out) const override {
    WordJudge j;
    j.call = [&](const uint32_t* in, size_t n, uint32_t* o) { return call(t, in, n, o); };
    j.reference = [&](const uint32_t* in, size_t n, uint32_t* o) { reference(in, n, 0, o); };  // not consecutive
    j.judge = [&](uint32_t in, uint32_t want, uint32_t actual, bool* allowed) -> std::string {
      *allowed = false;
      if (want == actual) return "";
      *allowed = accepted(want, actual) || passes_nan_latitude(in, actual);
      return kind_of_input(in) + ":" + result_kind(want, actual, out_width);
    };
    j.in_digits = in_digits;
    j.out_digits = out_digits;
    std::vector<uint32_t> sample, core, full;
    std::string about;
    if (size_ == uint64_t(1) << 32) {
      sample = class_sample32();
      for (uint32_t w : sample)
        if (in_geometry_core32(w)) core.push_back(w);
      about =
          "the binary32 class sample's core: both signs and the exponents of zeros, subnormals, NaNs and "
          "infinities and at each destination's edges, with the fractions of zero, the extremes, the quiet bit, "
          "each destination's ties, their neighbours and the word above its largest finite value, every tie "
          "position where a result is subnormal, and one random fraction";
    } else {
      unsigned bits = 0;
      while ((uint64_t(1) << bits) < size_) ++bits;
      sample = core = class_sample_words(bits);
      about = bits <= 12 ? "every word"
                         : "every 61st word and the words around zero, the subnormal/normal "
                           "boundaries, infinity and both NaN kinds";
    }
    run_geometry(j, core, about, out);
    std::string why;
    if (identify && out->target_error.empty() && present_full(j, sample, &full, &why)) {
      out->profile = identify(sample, full);
    }
    return true;
  }
};

// One domain per registry recipe: its destination word type gives the result's width, digits and
// NaNs; its nan_latitude whether another NaN for a NaN source passes (as in the corpus suites:
// E2M1 has no NaN, and an E4M3FN NaN's only freedom, its sign, is fixed by the recipe).
std::unique_ptr<Domain> convert_domain(const RecipeInfo& r) {
  auto d = std::make_unique<WordDomain>();
  const WordType dest = r.destination;
  d->name_ = "convert." + std::string(r.name);
  d->op_ = "convert " + std::string(r.name);
  d->size_ = uint64_t(1) << 32;
  d->in_digits = 8;
  d->out_digits = int(info(dest).hex_digits);
  d->out_width = int(info(dest).bits);
  nc_recipe abi = nc_recipe(int(r.id));  // the ABI numbers recipes in registry order (runners/vocabulary.cc)
  d->call = [abi](const nc_plugin_v1& t, const uint32_t* in, size_t n, uint32_t* out) {
    return t.convert ? t.convert(abi, in, n, out) : NC_EUNSUPPORTED;
  };
  d->call_words = [abi](runners::ConvertWords convert, const uint32_t* in, size_t n, runners::WordResults* out) {
    return convert(abi, in, n, out);
  };
  fastref::Recipe ref = r.id;
  d->reference = [ref](const uint32_t* in, size_t n, uint64_t stride, uint32_t* out) {
    // Words on a lattice (in[k] = in[0] + k * stride): bisection, much faster; any words: one by one.
    if (stride >= 1) fastref::convert_range(ref, in[0], n, out, stride);
    else fastref::convert_batch(ref, in, n, out);
  };
  d->matches = [ref](uint32_t first, size_t n, uint64_t stride, const void* actual, unsigned bytes) {
    if (bytes == 1) return fastref::convert_range_matches(ref, first, n, static_cast<const uint8_t*>(actual), stride);
    if (bytes == 2) return fastref::convert_range_matches(ref, first, n, static_cast<const uint16_t*>(actual), stride);
    return fastref::convert_range_matches(ref, first, n, static_cast<const uint32_t*>(actual), stride);
  };
  d->kind_of_input = input_kind32;
  d->nan_layout = runners::nan_layout(dest);
  d->identify = [ref](const std::vector<uint32_t>& in, const std::vector<uint32_t>& got) {
    return identify_convert(ref, in, got);
  };
  // 512 columns (sign and exponent) of 16 rows (the top 4 fraction bits): a cell is 2^19 inputs.
  d->cell_shift = 19;
  d->grid_ = {"binary32", 512, 16, "sign and exponent (column = sign * 256 + biased exponent)", "top 4 fraction bits"};
  if (!r.nan_latitude.empty()) {
    d->latitude = r.nan_latitude;
    d->nan_any = {{is_nan32, runners::nan_test(dest)}};
  }
  return d;
}

// Decoding of a small word type to binary32 (or, for codes, to a signed integer).
std::unique_ptr<Domain> decode_domain(WordType wt) {
  auto d = std::make_unique<WordDomain>();
  const WordTypeInfo& info = nc::info(wt);
  d->name_ = "decode." + std::string(info.name);
  d->op_ = "decode " + std::string(info.name);
  d->size_ = uint64_t(1) << info.bits;
  d->in_digits = int((info.bits + 3) / 4);
  d->out_digits = 8;
  d->out_width = 32;
  nc_word_type abi = nc_word_type(int(wt));
  d->call = [abi](const nc_plugin_v1& t, const uint32_t* in, size_t n, uint32_t* out) {
    if (!t.decode) return int(NC_EUNSUPPORTED);
    std::vector<uint8_t> valid(n);
    int rc = t.decode(abi, in, n, out, valid.data());
    // An invalid word compares as 0xdeadbeef, which no word of these types decodes to.
    for (size_t k = 0; k < n; ++k)
      if (!valid[k]) out[k] = 0xdeadbeefu;
    return rc;
  };
  const uint32_t bits = info.bits;
  if (info.is_float)  // every float word type with a decode domain (16 bits or fewer)
    d->identify = [wt](const std::vector<uint32_t>& in, const std::vector<uint32_t>& got) {
      return identify_decode(wt, in, got);
    };
  // One cell a word: the high half of its bits across, the low half down (16 x 16 for 8 bits).
  d->grid_ = {"word", uint64_t(1) << ((bits + 1) / 2), uint64_t(1) << (bits / 2),
              "the high " + std::to_string((bits + 1) / 2) + " bits of the word",
              "the low " + std::to_string(bits / 2) + " bits"};
  if (!info.decode_nan_latitude.empty()) {  // F16: any binary32 NaN for a NaN word
    d->latitude = info.decode_nan_latitude;
    d->nan_any = {{runners::nan_test(wt), is_nan32}};
  }
  if (info.nan == NanSpelling::AllOnes) {
    d->any_nan_for_nan = true;
    d->expect_token = [](uint32_t e) { return is_nan32(e) ? std::string("nan*") : hex(e, 8); };
  }
  // The reference: oracle/fastref's decode of each float word type.
  if (const fastref::WordDecode decode = fastref::word_decode(wt)) {
    d->reference = [decode](const uint32_t* in, size_t n, uint64_t, uint32_t* out) {
      for (size_t k = 0; k < n; ++k) out[k] = decode(in[k]);
    };
  } else {  // two's-complement codes (spec 5); W8 0x80 has no value
    d->reference = [bits, wt](const uint32_t* in, size_t n, uint64_t, uint32_t* out) {
      for (size_t k = 0; k < n; ++k) {
        int32_t v = int32_t(in[k] << (32 - bits)) >> (32 - bits);
        out[k] = wt == WordType::W8_CODE && in[k] == 0x80 ? 0xdeadbeefu : uint32_t(v);
      }
    };
    d->expect_token = [](uint32_t e) {
      return e == 0xdeadbeefu ? std::string("!code-illegal") : std::to_string(int32_t(e));
    };
  }
  return d;
}

// Adds n to key's count in a vector of (key, count) kept sorted by key; returns the count before.
uint64_t add_count(std::vector<std::pair<std::string, uint64_t>>& counts, const std::string& key, uint64_t n) {
  auto it = std::lower_bound(counts.begin(), counts.end(), key,
                             [](const auto& p, const std::string& k) { return p.first < k; });
  if (it != counts.end() && it->first == key) {
    uint64_t before = it->second;
    it->second += n;
    return before;
  }
  counts.insert(it, {key, n});
  return 0;
}
}  // namespace

uint64_t Tally::mismatches() const {
  uint64_t n = 0;
  for (const auto& [cls, count] : class_counts) n += count;
  return n;
}

void Tally::count(const Mismatch& m, size_t keep) {
  if (add_count(class_counts, m.mismatch_class, 1) < keep) first.push_back(m);
}

void Tally::accept(const std::string& policy, uint64_t n) { add_count(accepted, policy, n); }
void Tally::depart(const std::string& how, uint64_t n) { add_count(departures, how, n); }

size_t Tally::class_slot(const std::string& cls) {
  add_count(class_counts, cls, 0);
  return size_t(std::lower_bound(class_counts.begin(), class_counts.end(), cls,
                                 [](const auto& p, const std::string& k) { return p.first < k; }) -
                class_counts.begin());
}

void Tally::add_cell(uint64_t cell, const Cell& c) {
  if (c == Cell{}) return;
  Cell& mine = cells[cell];
  mine.judged += c.judged, mine.mismatches += c.mismatches, mine.accepted += c.accepted;
}

void Tally::merge(const Tally& o, size_t keep) {
  covered += o.covered;
  unsupported += o.unsupported;
  errored += o.errored;
  invalid += o.invalid;
  if (target_error.empty()) target_error = o.target_error;
  for (const auto& [k, v] : o.class_counts) add_count(class_counts, k, v);
  for (const auto& [k, v] : o.accepted) add_count(accepted, k, v);
  for (const auto& [k, v] : o.departures) add_count(departures, k, v);
  for (const auto& [k, c] : o.cells) add_cell(k, c);
  first.insert(first.end(), o.first.begin(), o.first.end());
  std::sort(first.begin(), first.end(), [](const Mismatch& a, const Mismatch& b) { return a.index < b.index; });
  // Keep the first `keep` of each class by index, as one range over the union would have.
  std::vector<Mismatch> kept;
  std::vector<std::pair<std::string, size_t>> per_class;
  for (const Mismatch& m : first) {
    auto it =
        std::find_if(per_class.begin(), per_class.end(), [&](const auto& p) { return p.first == m.mismatch_class; });
    if (it == per_class.end()) it = per_class.insert(per_class.end(), {m.mismatch_class, 0});
    if (it->second++ < keep) kept.push_back(m);
  }
  first = std::move(kept);
}

std::string hex_word(uint32_t w, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*" PRIx32, digits, w);
  return buf;
}

Family word_family() {
  return {[] {
            std::vector<std::string> names;
            for (const RecipeInfo& r : kRecipes) names.push_back("convert." + std::string(r.name));
            for (const WordTypeInfo& w : kWordTypes)
              if (w.bits <= 16) names.push_back("decode." + std::string(w.name));
            return names;
          },
          [](const std::string& name) -> std::unique_ptr<Domain> {
            for (const RecipeInfo& r : kRecipes)
              if (name == "convert." + std::string(r.name)) return convert_domain(r);
            for (const WordTypeInfo& w : kWordTypes)
              if (w.bits <= 16 && name == "decode." + std::string(w.name)) return decode_domain(w.id);
            return nullptr;
          }};
}

namespace {
uint64_t g_encode_groups = 65536;
std::vector<Family> families() { return {word_family(), reconstruct_family(), encode_family(), tensor_family()}; }
}  // namespace

uint64_t encode_groups() { return g_encode_groups; }
void set_encode_groups(uint64_t groups) { g_encode_groups = groups; }

std::vector<std::string> domain_names() {
  std::vector<std::string> names;
  for (const Family& f : families())
    for (std::string& n : f.names()) names.push_back(std::move(n));
  return names;
}

std::unique_ptr<Domain> make_domain(const std::string& name) {
  for (const Family& f : families())
    if (auto d = f.make(name)) return d;
  return nullptr;
}

}  // namespace nc::sweep
