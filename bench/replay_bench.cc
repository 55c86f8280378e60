// Replay speed as records per second and as a ratio to a baseline measured in the same run over
// the same files: zstd decompression plus line splitting alone (what any replay must at least do).
// Rows: the validating corpus reader alone; `replay --target cpu` with one and two workers (the
// whole command path: manifest check, reading, requests, verdicts); `certify --target cpu` the
// same, then both certificate texts (written nowhere); and `replay` through the pipe
// protocol against the example adapter (decode.*) and the ml_dtypes adapter (the suites it
// provides), counting the cases judged. Each repeat runs every stage once, in turn, so a busy
// moment on a shared machine hits all stages alike; each figure is the best of REPEATS. Besides
// wall time, the CPU time of this process (all threads) is shown: on a loaded machine it is the
// steadier measure of the work done, and for --jobs 2 the ratio CPU/wall is the cores it got.
// Usage: replay_bench [CORPUS_DIR] [REPEATS] [PYTHON_WITH_ML_DTYPES]
// (default python: <source>/.venv/bin/python from scripts/install-thirdparty; its row is skipped
// when that does not exist).
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

#include "corpus/manifest.h"
#include "corpus/reader.h"
#include "corpus/zstd_io.h"
#include "runners/certificate.h"
#include "runners/replay.h"
#include "runners/target_factory.h"

using namespace nc;
using Clock = std::chrono::steady_clock;

namespace {
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Baseline: read the file, decompress it the way replay's reader does (bytes matched to the
// manifest's SHA-256, so without zstd's frame checksum), and find every line end, nothing else.
size_t decompress_and_split(const std::string& path) {
  auto compressed = corpus::read_file(path);
  if (!compressed) return std::fprintf(stderr, "%s\n", compressed.error().message().c_str()), 0;
  auto text = corpus::zstd_decompress(*compressed, path, corpus::FrameChecksum::Skip);
  if (!text) return std::fprintf(stderr, "%s\n", text.error().message().c_str()), 0;
  size_t lines = 0;
  for (size_t at = 0; (at = text->find('\n', at)) != std::string::npos; ++at) ++lines;
  return lines;
}

// CPU seconds of this process, every thread, and of its waited-for children (pipe adapters).
double cpu_seconds() {
  double t = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    getrusage(who, &u);
    t += double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  return t;
}

// Page faults of this process so far: a stage that gets fresh pages from the kernel (each one
// zeroed first) pays for them, one that reuses freed memory does not.
long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// Best wall and best CPU time of the runs of one stage, and the page faults of its fastest run;
// the stage returns the records it processed (0 on failure, which marks the stage failed).
struct Timing {
  double seconds = 1e30, cpu = 1e30;
  long faults = 0;
  uint64_t records = 0;
  bool failed = false;
  void run(const std::function<uint64_t()>& f) {
    if (failed) return;
    const double c0 = cpu_seconds();
    const long f0 = minor_faults();
    const auto t0 = Clock::now();
    const uint64_t n = f();
    const double s = seconds_since(t0), c = cpu_seconds() - c0;
    if (n == 0) return void(failed = true);
    records = n;
    if (s < seconds) faults = minor_faults() - f0;
    seconds = std::min(seconds, s);
    cpu = std::min(cpu, c);
  }
  bool ok() const { return !failed && records > 0; }
};

// Control for the --jobs rows: the cores two independent busy threads get together right now
// (CPU seconds over wall seconds). On an idle 2-core machine it is 2; a shared one gives less,
// and no replay can scale beyond it.
double cores_for_two_threads() {
  const double c0 = cpu_seconds();
  const auto t0 = Clock::now();
  auto spin = [] {
    volatile uint64_t x = 0;
    for (uint64_t i = 0; i < 300'000'000; ++i) x = x + i;
  };
  std::thread other(spin);
  spin();
  other.join();
  return (cpu_seconds() - c0) / seconds_since(t0);
}

// One whole replay; returns the cases judged (not untested), 0 on error. With `certificate`,
// then both certificate texts as `certify` makes them (writing them to files aside).
uint64_t replay_once(const std::string& dir, const std::string& spec, const std::string& glob, unsigned jobs,
                     bool certificate = false) {
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
  if (certificate &&
      (runners::certificate_json(r, {}, "bench").empty() || runners::certificate_markdown(r, {}, "bench").empty()))
    return 0;
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

  auto base_stage = [&] {
    uint64_t lines = 0;
    for (const auto& e : m->suites) lines += decompress_and_split(dir + "/" + e.file);
    return lines ? records : 0;
  };
  // The corpus reader alone, as replay reads: the files read and matched to the manifest, then
  // every record validated (field syntax, id hash, order) as it is streamed.
  auto reader_stage = [&] {
    uint64_t n = 0;
    corpus::Record rec;
    std::vector<std::string> contents;
    if (auto problems = corpus::verify_files(dir, *m, &contents); !problems.empty())
      return std::fprintf(stderr, "%s\n", problems[0].message().c_str()), uint64_t(0);
    for (size_t i = 0; i < m->suites.size(); ++i) {
      const corpus::ManifestEntry& e = m->suites[i];
      auto r = corpus::SuiteReader::from_verified(std::move(contents[i]), e.compressed_sha256, dir + "/" + e.file,
                                                  corpus::SuiteReader::TextHash::Skip);
      if (!r) return std::fprintf(stderr, "%s\n", r.error().message().c_str()), uint64_t(0);
      for (;;) {
        auto more = (*r)->next(rec);
        if (!more) return std::fprintf(stderr, "%s\n", more.error().message().c_str()), uint64_t(0);
        if (!*more) break;
        ++n;
      }
    }
    return n;
  };
  const std::string example = "pipe:python3 " NC_SOURCE_DIR "/targets/examples/pipe_adapter.py";
  const bool have_ml_dtypes = access(python.c_str(), X_OK) == 0;
  const std::string ml_dtypes = "pipe:" + python + " " NC_SOURCE_DIR "/targets/thirdparty/ml_dtypes_adapter.py";
  Timing base, reader, cpu1, cpu2, cert1, cert2, pipe_example, pipe_ml;
  double two_thread_cores = 0;
  for (int r = 0; r < repeats; ++r) {
    two_thread_cores = std::max(two_thread_cores, cores_for_two_threads());
    // Untimed first: the stages before (and the last repeat's) may have handed their memory back
    // to the kernel, and the baseline, were it first, would pay for fresh pages that the reader
    // after it then reuses. The faults column shows what each stage's fastest run still paid.
    base_stage();
    base.run(base_stage);
    reader.run(reader_stage);
    cpu1.run([&] { return replay_once(dir, "cpu", "*", 1); });
    cpu2.run([&] { return replay_once(dir, "cpu", "*", 2); });
    cert1.run([&] { return replay_once(dir, "cpu", "*", 1, true); });
    cert2.run([&] { return replay_once(dir, "cpu", "*", 2, true); });
    pipe_example.run([&] { return replay_once(dir, example, "decode.*", 1); });
    if (have_ml_dtypes) pipe_ml.run([&] { return replay_once(dir, ml_dtypes, "*", 1); });
  }

  std::printf("corpus %s: %zu suites, %llu records, best of %d, %ld cores online\n", dir.c_str(), m->suites.size(),
              static_cast<unsigned long long>(records), repeats, sysconf(_SC_NPROCESSORS_ONLN));
  std::printf("%-46s %9s %9s %10s %12s %7s %9s %8s\n", "stage", "wall s", "cpu s", "records", "records/s", "ratio",
              "cpu ratio", "faults");
  const double base_rate = double(base.records) / base.seconds, base_cpu_rate = double(base.records) / base.cpu;
  auto row = [&](const char* name, const Timing& t) {
    if (!t.ok()) return void(std::printf("%-46s %9s\n", name, "failed"));
    const double rate = double(t.records) / t.seconds;
    std::printf("%-46s %9.4f %9.4f %10llu %12.0f %7.2f %9.2f %8ld\n", name, t.seconds, t.cpu,
                static_cast<unsigned long long>(t.records), rate, rate / base_rate,
                double(t.records) / t.cpu / base_cpu_rate, t.faults);
  };
  row("baseline: zstd decompress + split lines", base);
  row("corpus reader (validating, as replay reads)", reader);
  row("replay --target cpu --jobs 1", cpu1);
  row("replay --target cpu --jobs 2", cpu2);
  row("certify --target cpu --jobs 1 (no files)", cert1);
  row("certify --target cpu --jobs 2 (no files)", cert2);
  row("replay pipe: example adapter (decode.*)", pipe_example);
  if (have_ml_dtypes) row("replay pipe: ml_dtypes adapter (cases judged)", pipe_ml);
  else
    std::printf("%-46s %9s (no %s; run scripts/install-thirdparty)\n", "replay pipe: ml_dtypes adapter", "skipped",
                python.c_str());
  if (cpu1.ok() && cpu2.ok())
    std::printf(
        "replay --jobs 2 over --jobs 1: %.2fx wall; --jobs 2 kept %.2f cores busy (cpu s / wall s);\n"
        "control: two independent busy threads got %.2f cores at best\n",
        cpu1.seconds / cpu2.seconds, cpu2.cpu / cpu2.seconds, two_thread_cores);
  if (cert1.ok() && cert2.ok())
    std::printf("certify --jobs 2 over --jobs 1: %.2fx wall\n", cert1.seconds / cert2.seconds);
  return 0;
}
