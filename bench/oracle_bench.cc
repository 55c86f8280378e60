// The oracle's cost next to MPFR's (or GMP's) own cost for the same exact work, and next to the
// codec's, all measured in the same run: ns per decoded word, per rounded value (binary32 ->
// binary16 RNE) and per encoded 64-value Q4 group; then the wall time of `generate` and
// `generate --check` over the whole corpus, per record. Each figure is the fastest of REPEATS
// runs (the machine may be shared). A table for people, not a test: nothing here asserts a time.
// Usage: nc_oracle_bench [REPEATS] [JOBS] [CORPUS_DIR]
#include <gmpxx.h>
#include <mpfr.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "codec/maxabs_f16_recip_rne_v1.h"
#include "codec/recipes.h"
#include "codec/words.h"
#include "corpus/writer.h"
#include "generator/check.h"
#include "generator/generate.h"
#include "generator/splitmix64.h"
#include "oracle/decode.h"
#include "oracle/maxabs_f16_recip_rne_v1.h"
#include "oracle/recipes.h"

using namespace nc;
namespace o = nc::oracle;
using Clock = std::chrono::steady_clock;

namespace {
volatile uint64_t g_sink;  // keeps results observable so the loops are not removed
int g_repeats = 5;

// Fastest of g_repeats runs of body(), in ns per item.
template <class F>
double ns_per_item(uint64_t items, F&& body) {
  double best = 1e300;
  for (int r = 0; r < g_repeats; ++r) {
    const auto t0 = Clock::now();
    body();
    best = std::min(best, std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
  }
  return best / static_cast<double>(items);
}

// CPU time of the whole process (every thread), in seconds.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

float as_float(uint32_t w) {
  float f;
  std::memcpy(&f, &w, sizeof f);
  return f;
}

// MPFR's own cost, the baselines: variables initialised once, the exponent range set once outside
// the loop (the binary16 or binary32 range of oracle/README.md), no word assembly.
class MpfrRange {
 public:
  MpfrRange(mpfr_exp_t emin, mpfr_exp_t emax) : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
  }
  ~MpfrRange() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }

 private:
  mpfr_exp_t emin_, emax_;
};

void row(const char* work, double oracle, double base, double codec) {
  std::printf("| %-34s | %10.1f | %10.1f | %6.2f | %8.2f | %6.0f |\n", work, oracle, base, oracle / base, codec,
              oracle / codec);
}
}  // namespace

int main(int argc, char** argv) {
  g_repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const unsigned jobs = argc > 2 ? static_cast<unsigned>(std::max(1, std::atoi(argv[2]))) : 2;
  const std::string corpus_dir = argc > 3 ? argv[3] : NC_DEFAULT_CORPUS_DIR;
  o::Context ctx;

  // Decode: every BF16 word, 8 times, into a fresh Decoded (allocates its rational) and into a reused
  // one. Baseline: GMP building the exact value into a reused mpq.
  const uint64_t decode_n = 8 * 65536;
  const double dec_o = ns_per_item(decode_n, [&] {
    uint64_t acc = 0;
    for (int r = 0; r < 8; ++r)
      for (uint32_t w = 0; w < 65536; ++w) acc += o::decode(ctx, WordType::BF16, w).binary32.value_or(0);
    g_sink = acc;
  });
  const double dec_r = ns_per_item(decode_n, [&] {
    o::Decoded d;
    uint64_t acc = 0;
    for (int r = 0; r < 8; ++r)
      for (uint32_t w = 0; w < 65536; ++w) {
        o::decode(ctx, WordType::BF16, w, d);
        acc += d.binary32.value_or(0);
      }
    g_sink = acc;
  });
  const double dec_b = ns_per_item(decode_n, [&] {
    mpq_class q;
    uint64_t acc = 0;
    for (int r = 0; r < 8; ++r)
      for (uint32_t w = 0; w < 65536; ++w) {
        const long e = (w >> 7) & 0xffu, scale = (e ? e : 1) - 134;  // value = significand * 2^scale
        mpq_set_ui(q.get_mpq_t(), e ? (w & 0x7fu) | 0x80u : w & 0x7fu, 1);
        if (scale < 0) mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<unsigned long>(-scale));
        else mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<unsigned long>(scale));
        acc += mpz_size(q.get_den_mpz_t());
      }
    g_sink = acc;
  });
  const double dec_c = ns_per_item(decode_n, [&] {
    uint64_t acc = 0;
    for (int r = 0; r < 8; ++r)
      for (uint32_t w = 0; w < 65536; ++w) acc += codec::float_word_to_f32(WordType::BF16, w);
    g_sink = acc;
  });

  // Rounding: 2^20 seeded binary32 words -> binary16 (F32_TO_F16_RNE). Baseline: mpfr_set_flt,
  // mpfr_subnormalize, mpfr_get_flt (the word read back) in the binary16 range.
  nc::gen::SplitMix64 rng(1);
  std::vector<uint32_t> words(1 << 20);
  for (auto& w : words) w = static_cast<uint32_t>(rng.next());
  const double rnd_o = ns_per_item(words.size(), [&] {
    uint64_t acc = 0;
    for (uint32_t w : words) acc += o::convert(ctx, o::Recipe::F32_TO_F16_RNE, w);
    g_sink = acc;
  });
  const double rnd_b = ns_per_item(words.size(), [&] {
    mpfr_t x;
    mpfr_init2(x, 11);
    double acc = 0;
    {
      MpfrRange range(-23, 17);
      for (uint32_t w : words) {
        const int t = mpfr_set_flt(x, as_float(w), MPFR_RNDN);
        mpfr_subnormalize(x, t, MPFR_RNDN);
        acc += mpfr_get_flt(x, MPFR_RNDN);
      }
    }
    mpfr_clear(x);
    g_sink = static_cast<uint64_t>(acc != 0);
  });
  const double rnd_c = ns_per_item(words.size(), [&] {
    uint64_t acc = 0;
    for (uint32_t w : words) acc += codec::convert(codec::Recipe::F32_TO_F16_RNE, w);
    g_sink = acc;
  });

  // Encoding: 2000 seeded Q4 groups of 64 FP32 values in [-4, 4). Baseline: MPFR's operations of
  // the same group in the binary32 range: amax / 7 and 1 / scale (mpfr_ui_div), the binary16
  // scale (mpfr_set + subnormalize, binary16 range), then per value mpfr_mul, subnormalize and
  // mpfr_rint.
  const uint64_t groups = 2000;
  std::vector<uint64_t> src(groups * 64);
  for (auto& w : src) w = (rng.next() & 0x807fffffu) | (0x7cu << 23) | (static_cast<uint32_t>(rng.next() % 5) << 23);
  const double enc_o = ns_per_item(groups, [&] {
    const auto r = o::encode_maxabs_f16_recip_rne_v1(ctx, Format::Q4G64_F16S, o::SourceType::FP32, groups, 64, src);
    g_sink = r.scales.size();
  });
  const double enc_b = ns_per_item(groups, [&] {
    mpfr_t x, s32, s16, inv, n, i;
    mpfr_inits2(24, x, s32, inv, n, i, static_cast<mpfr_ptr>(nullptr));
    mpfr_init2(s16, 11);
    int64_t acc = 0;
    for (uint64_t g = 0; g < groups; ++g) {
      const uint64_t* v = src.data() + g * 64;
      uint32_t amax = 0;
      for (int k = 0; k < 64; ++k) amax = std::max(amax, static_cast<uint32_t>(v[k]) & 0x7fffffffu);
      {
        MpfrRange range(-148, 129);
        mpfr_set_flt(x, as_float(amax), MPFR_RNDN);
        mpfr_subnormalize(s32, mpfr_div_ui(s32, x, 7, MPFR_RNDN), MPFR_RNDN);
      }
      {
        MpfrRange range(-23, 17);
        mpfr_subnormalize(s16, mpfr_set(s16, s32, MPFR_RNDN), MPFR_RNDN);
      }
      MpfrRange range(-148, 129);
      mpfr_subnormalize(inv, mpfr_ui_div(inv, 1, s16, MPFR_RNDN), MPFR_RNDN);
      for (int k = 0; k < 64; ++k) {
        mpfr_set_flt(x, as_float(static_cast<uint32_t>(v[k])), MPFR_RNDN);
        mpfr_subnormalize(n, mpfr_mul(n, x, inv, MPFR_RNDN), MPFR_RNDN);
        mpfr_rint(i, n, MPFR_RNDN);
        acc += mpfr_get_si(i, MPFR_RNDN);
      }
    }
    mpfr_clears(x, s32, s16, inv, n, i, static_cast<mpfr_ptr>(nullptr));
    g_sink = static_cast<uint64_t>(acc);
  });
  const double enc_c = ns_per_item(groups, [&] {
    const auto r = codec::maxabs_f16_recip_rne_v1(Format::Q4G64_F16S, codec::SourceType::FP32, src, groups, 64);
    g_sink = r.ok() ? r.value().scales.size() : 0;
  });

  std::printf("| %-34s | %10s | %10s | %6s | %8s | %6s |\n", "work (ns per item)", "oracle", "MPFR/GMP", "ratio",
              "codec", "ratio");
  std::printf("|%s|%s|%s|%s|%s|%s|\n", std::string(36, '-').c_str(), std::string(12, '-').c_str(),
              std::string(12, '-').c_str(), std::string(8, '-').c_str(), std::string(10, '-').c_str(),
              std::string(8, '-').c_str());
  row("decode BF16 word", dec_o, dec_b, dec_c);
  row("decode BF16 word, reused Decoded", dec_r, dec_b, dec_c);
  row("round binary32 -> binary16 (RNE)", rnd_o, rnd_b, rnd_c);
  row("encode Q4G64 group (64 values)", enc_o, enc_b, enc_c);

  // The whole corpus: generate (build, compress, write to a scratch directory) and generate
  // --check (build, compare with CORPUS_DIR), with JOBS threads.
  struct Whole {
    const char* name;
    double wall, cpu;  // seconds; cpu is all threads together, what the run costs on a busy machine
  };
  std::vector<Whole> walls;
  uint64_t records = 0;
  std::string failure;
  const auto scratch = std::filesystem::temp_directory_path() / ("nc_oracle_bench." + std::to_string(::getpid()));
  for (const bool check : {false, true}) {
    double best = 1e300, best_cpu = 1e300;
    for (int r = 0; r < std::min(g_repeats, 3) && failure.empty(); ++r) {
      const auto t0 = Clock::now();
      const double c0 = cpu_seconds();
      gen::GenerateOptions opts;
      opts.jobs = jobs;
      opts.compress = !check;
      auto suites = gen::generate_suites(opts);
      if (!suites) {
        failure = suites.error().message();
        break;
      }
      records = 0;
      for (const auto& s : *suites) records += s.records;
      if (check) {
        const auto errors = gen::check_corpus(corpus_dir, *suites, true);
        if (!errors.empty()) failure = errors.front().message();
      } else if (auto err = corpus::write_corpus(scratch.string(), *suites, gen::provenance_manifest())) {
        failure = err->message();
      }
      best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
      best_cpu = std::min(best_cpu, cpu_seconds() - c0);
    }
    walls.push_back({check ? "generate --check" : "generate", best, best_cpu});
  }
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
  if (!failure.empty()) return std::fprintf(stderr, "nc_oracle_bench: %s\n", failure.c_str()), 1;
  std::printf("\n| %-18s | %8s | %8s | %9s | %12s |\n", "whole corpus", "wall s", "cpu s", "records", "cpu us/record");
  std::printf("|%s|%s|%s|%s|%s|\n", std::string(20, '-').c_str(), std::string(10, '-').c_str(),
              std::string(10, '-').c_str(), std::string(11, '-').c_str(), std::string(14, '-').c_str());
  for (const auto& w : walls)
    std::printf("| %-18s | %8.2f | %8.2f | %9llu | %12.2f |\n", w.name, w.wall, w.cpu,
                static_cast<unsigned long long>(records), 1e6 * w.cpu / static_cast<double>(records));
  std::printf("(%u jobs, fastest of %d)\n", jobs, std::min(g_repeats, 3));
  return 0;
}
