// Replay speed as records per second and as a ratio to a baseline measured in the same run over
// the same files: zstd decompression plus line splitting alone (what any replay must at least do).
// Rows: the validating corpus reader alone; `replay --target cpu` with one and two workers (the
// whole command path: manifest check, reading, requests, verdicts); and `replay` through the pipe
// protocol against the example adapter (decode.*) and the ml_dtypes adapter (the suites it
// provides), counting the cases judged. Best of REPEATS wall-clock runs.
// Usage: replay_bench [CORPUS_DIR] [REPEATS] [PYTHON_WITH_ML_DTYPES]
// (default python: <source>/.venv/bin/python from scripts/install-thirdparty; its row is skipped
// when that does not exist).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "corpus/manifest.h"
#include "corpus/reader.h"
#include "corpus/zstd_io.h"
#include "runners/replay.h"

using namespace nc;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Baseline: read the file, decompress it the way the reader does, and find every line end,
// nothing else.
size_t decompress_and_split(const std::string& path) {
  auto compressed = corpus::read_file(path);
  if (!compressed) return std::fprintf(stderr, "%s\n", compressed.error().message().c_str()), 0;
  auto text = corpus::zstd_decompress(*compressed, path);
  if (!text) return std::fprintf(stderr, "%s\n", text.error().message().c_str()), 0;
  size_t lines = 0;
  for (size_t at = 0; (at = text->find('\n', at)) != std::string::npos; ++at) ++lines;
  return lines;
}

// Best wall time of `repeats` runs of f; f returns the records it processed (0 on failure).
struct Timing {
  double seconds = 1e30;
  uint64_t records = 0;
};
Timing best_of(int repeats, const std::function<uint64_t()>& f) {
  Timing t;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = Clock::now();
    uint64_t n = f();
    double s = seconds_since(t0);
    if (n == 0) return Timing{};
    if (s < t.seconds) t = {s, n};
  }
  return t;
}

// One whole replay; returns the cases judged (not untested), 0 on error.
uint64_t replay_once(const std::string& dir, const std::string& spec, const std::string& glob, unsigned jobs) {
  runners::TargetOptions to;
  std::string why;
  auto target = runners::make_target(spec, to, &why);
  if (!target) return std::fprintf(stderr, "%s\n", why.c_str()), 0;
  runners::ReplayOptions o;
  o.corpus_dir = dir;
  o.suite_glob = glob;
  o.jobs = jobs;
  o.make_target = [&] { return runners::make_target(spec, to, &why); };
  runners::ReplayResult r;
  if (!runners::replay(*target, o, &r, &why)) return std::fprintf(stderr, "%s: %s\n", spec.c_str(), why.c_str()), 0;
  uint64_t judged = 0;
  for (const auto& s : r.suites) judged += s.total() - s.counts[size_t(runners::Verdict::Untested)];
  return judged;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : NC_DEFAULT_CORPUS_DIR;
  const int repeats = argc > 2 ? std::max(1, std::atoi(argv[2])) : 3;
  const std::string python = argc > 3 ? argv[3] : NC_SOURCE_DIR "/.venv/bin/python";
  auto m = corpus::read_manifest(dir);
  if (!m) return std::fprintf(stderr, "%s\n", m.error().message().c_str()), 2;
  uint64_t records = 0;
  for (const auto& e : m->suites) records += e.records;

  Timing base = best_of(repeats, [&] {
    uint64_t lines = 0;
    for (const auto& e : m->suites) lines += decompress_and_split(dir + "/" + e.file);
    return lines ? records : 0;
  });
  // The corpus reader alone: it validates every record (field syntax, id hash, order) as it streams.
  Timing reader = best_of(repeats, [&] {
    uint64_t n = 0;
    corpus::Record rec;
    for (const auto& e : m->suites) {
      auto r = corpus::SuiteReader::open(dir + "/" + e.file, corpus::SuiteReader::TextHash::Skip);
      if (!r) return std::fprintf(stderr, "%s\n", r.error().message().c_str()), uint64_t(0);
      for (;;) {
        auto more = (*r)->next(rec);
        if (!more) return std::fprintf(stderr, "%s\n", more.error().message().c_str()), uint64_t(0);
        if (!*more) break;
        ++n;
      }
    }
    return n;
  });
  Timing cpu1 = best_of(repeats, [&] { return replay_once(dir, "cpu", "*", 1); });
  Timing cpu2 = best_of(repeats, [&] { return replay_once(dir, "cpu", "*", 2); });
  const std::string example = "pipe:python3 " NC_SOURCE_DIR "/runners/examples/pipe_adapter.py";
  Timing pipe_example = best_of(repeats, [&] { return replay_once(dir, example, "decode.*", 1); });
  const bool have_ml_dtypes = access(python.c_str(), X_OK) == 0;
  Timing pipe_ml = have_ml_dtypes ? best_of(repeats, [&] {
    return replay_once(dir, "pipe:" + python + " " NC_SOURCE_DIR "/runners/thirdparty/ml_dtypes_adapter.py", "*", 1);
  })
                                  : Timing{};

  std::printf("corpus %s: %zu suites, %llu records, best of %d, %ld cores online\n", dir.c_str(), m->suites.size(),
              static_cast<unsigned long long>(records), repeats, sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("%-46s %10s %10s %12s %8s\n", "stage", "seconds", "records", "records/s", "ratio");
  const double base_rate = double(base.records) / base.seconds;
  auto row = [&](const char* name, const Timing& t) {
    if (t.records == 0) return void(std::printf("%-46s %10s\n", name, "failed"));
    const double rate = double(t.records) / t.seconds;
    std::printf("%-46s %10.4f %10llu %12.0f %8.2f\n", name, t.seconds, static_cast<unsigned long long>(t.records), rate,
                rate / base_rate);
  };
  row("baseline: zstd decompress + split lines", base);
  row("corpus reader (validating) alone", reader);
  row("replay --target cpu --jobs 1", cpu1);
  row("replay --target cpu --jobs 2", cpu2);
  row("replay pipe: example adapter (decode.*)", pipe_example);
  if (have_ml_dtypes) row("replay pipe: ml_dtypes adapter (cases judged)", pipe_ml);
  else std::printf("%-46s %10s (no %s; run scripts/install-thirdparty)\n", "replay pipe: ml_dtypes adapter", "skipped", python.c_str());
  if (cpu1.records && cpu2.records)
    std::printf("replay --jobs 2 speed-up over --jobs 1: %.2fx\n", cpu1.seconds / cpu2.seconds);
  return 0;
}
