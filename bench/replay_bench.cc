// Replay speed against the `cpu` target, as records per second and as a ratio to a baseline
// measured in the same run over the same files: zstd decompression plus line splitting alone
// (what any replay must at least do). Usage: replay_bench [CORPUS_DIR] [REPEATS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "corpus/manifest.h"
#include "corpus/reader.h"
#include "corpus/zstd_io.h"
#include "runners/replay.h"

using namespace nc;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Baseline: decompress and count lines, nothing else.
size_t decompress_and_split(const std::string& path) {
  auto s = corpus::ZstdFileStream::open(path);
  if (!s) return std::fprintf(stderr, "%s\n", s.error().message().c_str()), 0;
  std::string buf;
  size_t lines = 0;
  for (;;) {
    buf.clear();
    auto more = (*s)->read(buf);
    if (!more || !*more) break;
    for (char c : buf) lines += c == '\n';
  }
  return lines;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : NC_DEFAULT_CORPUS_DIR;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  auto m = corpus::read_manifest(dir);
  if (!m) return std::fprintf(stderr, "%s\n", m.error().message().c_str()), 2;
  std::string why;
  runners::TargetOptions to;
  auto target = runners::make_target("cpu", to, &why);
  if (!target || !target->start(&why)) return std::fprintf(stderr, "%s\n", why.c_str()), 2;
  uint64_t records = 0;
  for (const auto& e : m->suites) records += e.records;

  double base_best = 1e30, reader_best = 1e30, replay_best = 1e30;
  size_t lines = 0, judged = 0;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = Clock::now();
    lines = 0;
    for (const auto& e : m->suites) lines += decompress_and_split(dir + "/" + e.file);
    base_best = std::min(base_best, seconds_since(t0));

    // The corpus reader alone: it validates every record (syntax, id hash, order) as it streams.
    t0 = Clock::now();
    for (const auto& e : m->suites) {
      auto reader = corpus::SuiteReader::open(dir + "/" + e.file);
      corpus::Record rec;
      while (reader) {
        auto more = (*reader)->next(rec);
        if (!more || !*more) break;
      }
    }
    reader_best = std::min(reader_best, seconds_since(t0));

    t0 = Clock::now();
    judged = 0;
    runners::ReplayOptions o;
    for (const auto& e : m->suites) {
      auto reader = corpus::SuiteReader::open(dir + "/" + e.file);
      if (!reader) return std::fprintf(stderr, "%s\n", reader.error().message().c_str()), 2;
      runners::SuiteResult res;
      if (!runners::replay_suite(*target, **reader, o, &res, &why)) return std::fprintf(stderr, "%s\n", why.c_str()), 2;
      judged += res.total();
    }
    replay_best = std::min(replay_best, seconds_since(t0));
  }
  std::printf("corpus %s: %zu suites, %llu records (%zu lines), best of %d\n", dir.c_str(), m->suites.size(),
              static_cast<unsigned long long>(records), lines, repeats);
  std::printf("%-34s %12s %14s %8s\n", "stage", "seconds", "records/s", "ratio");
  std::printf("%-34s %12.4f %14.0f %8.2f\n", "baseline: zstd decompress + split", base_best,
              double(records) / base_best, 1.0);
  std::printf("%-34s %12.4f %14.0f %8.2f\n", "corpus reader (validating) alone", reader_best,
              double(records) / reader_best, base_best / reader_best);
  std::printf("%-34s %12.4f %14.0f %8.2f\n", "replay against cpu", replay_best, double(judged) / replay_best,
              (double(judged) / replay_best) / (double(records) / base_best));
  return 0;
}
