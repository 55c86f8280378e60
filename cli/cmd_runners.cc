// replay, certify and plugin-host: drive a target over the corpus (runners/).
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/certificate_identity.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/output_file.h"
#include "corpus/official.h"
#include "corpus/zstd_io.h"
#include "runners/abi_host.h"
#include "runners/certificate.h"
#include "runners/printable.h"
#include "runners/html_certificate.h"
#include "runners/replay.h"
#include "runners/report.h"
#include "runners/scope.h"
#include "runners/sweep/sweep_target.h"
#include "runners/tokens.h"
#include "runners/target_factory.h"

namespace nc::cli {
namespace {
using namespace nc::runners;

const char kReplayUsage[] =
    "usage: ninfer-conform replay --target TARGET [--corpus DIR] [--suite GLOBS]... [--tag T]\n"
    "                             [--tolerance ulp:N] [--timeout S] [--max-failures N]\n"
    "                             [--json FILE] [--junit FILE] [--require LIST] [--jobs N] [--quiet]\n"
    "TARGET: cpu | pipe:COMMAND | plugin:PATH.so | cuda | cuda-fastmath (the last two: builds with\n"
    "        CUDA; our kernels and their --use_fast_math negative control)\n"
    "Verifies the corpus manifest, replays every selected suite and judges each case. The verdict\n"
    "names what it covers (suites judged, suites the target does not provide) and the corpus:\n"
    "official, or MODIFIED when its manifest is not the one this build ships.\n"
    "  --suite GLOBS   the suites to replay: a comma list of names or globs ('convert.*,decode.F16');\n"
    "                  repeatable; a suite matching any of them is replayed (default: all)\n"
    "  --quiet         no progress display (shown only on a terminal anyway)\n"
    "  --require LIST  comma list of what the target must provide in full, else it is not\n"
    "                  conformant: all (every selected suite), a capability (decode, convert,\n"
    "                  ...) or a suite name or glob (decode.E4M3FN, 'convert.*'); one that names\n"
    "                  nothing in the corpus is a usage error\n"
    "  --tail-batch N  present each element-wise case a second time in batches of N (default 7:\n"
    "                  outside any full vector of 8 or more lanes); a case whose result changes is\n"
    "                  position-dependent, a finding of its own (not conformant); 0 skips it\n"
    "  --jobs N        suites replayed at once, each on its own target (a pipe or plugin\n"
    "                  target runs N processes); same results for every N (default: cores;\n"
    "                  1 to 1024)\n"
    "  --timeout S     whole seconds a pipe or plugin target may take per request (default 10)\n"
    "  --json FILE, --junit FILE  write the report as JSON or JUnit XML; - is standard output\n"
    "                  (the summary then goes to standard error)\n"
    "exit 0 conformant, 1 not conformant, 2 usage or corpus error\n";
const char kCertifyUsage[] =
    "usage: ninfer-conform certify --target TARGET --out DIR [--corpus DIR] [--timeout S]\n"
    "                              [--sweep DOMAINS [--stride S] [--jobs N]] [--require LIST]\n"
    "                              [--allow-modified-corpus] [--max-failures N] [--suite GLOBS]...\n"
    "                              [--quiet] [--html FILE]\n"
    "Replays the whole corpus and writes DIR/certificate.md, DIR/certificate.json,\n"
    "DIR/certificate.html (the same certificate as one self-contained page with pictures) and\n"
    "DIR/certificate.sha256 (the digest `verify` checks).\n"
    "  --suite GLOBS   as for replay: certify on these suites only (the certificate names them)\n"
    "  --quiet         no progress display; on a terminal certify otherwise shows the replay's\n"
    "                  progress and each sweep's percentage, rate and time left\n"
    "  --html FILE     write the HTML page to FILE as well\n"
    "  --require LIST  as for replay: what the target must provide in full\n"
    "  --allow-modified-corpus  certify on a corpus other than the official one this build\n"
    "                  ships (refused otherwise); the certificate says MODIFIED\n"
    "  --sweep DOMAINS  also sweep these domains (comma list of names or families, e.g.\n"
    "                   convert,decode; see sweep --list) and certify on those results too;\n"
    "                   domains the target declines are listed as not provided\n"
    "  --no-geometry    skip the sweeps' batch-geometry pass (sweep --help; the certificate then\n"
    "                   lists no geometries)\n"
    "  --tail-batch N   replay each element-wise case a second time in batches of N (default 7,\n"
    "                   outside any full vector of 8 or more lanes) and report a result that\n"
    "                   changes as position-dependent; 0 skips the second presentation\n"
    "  --stride S       sample 1 input in S of the domains over 2^24 inputs (the binary32\n"
    "                   conversions); smaller domains are always swept whole\n"
    "  --jobs N         replay workers and sweep threads (default: number of cores; 1 to 1024)\n"
    "  --sweep-report F certify on the sweep reports in F too (repeatable): whole-domain reports of\n"
    "                   this target, as sweep --json or merge --json of all shards write them\n"
    "                   (docs/scale-out.md)\n"
    "  --max-failures N list at most N failures of each suite in certificate.json (default: all);\n"
    "                   each suite still gives its failure count and the SHA-256 of all its\n"
    "                   failing case IDs, so a shortened list still pins the set\n"
    "exit 0 conformant, 1 not conformant, 2 usage or corpus error\n";

struct Args {
  std::string target, corpus = NC_DEFAULT_CORPUS_DIR, suite = "*", tag, json, junit, out;
  std::optional<uint64_t> tolerance;
  double timeout = 10;
  size_t max_failures = 10;                // replay: failures printed per suite; certify: listed in certificate.json
  std::vector<std::string> sweep;          // certify --sweep: domain names
  std::vector<std::string> sweep_reports;  // certify --sweep-report: files
  std::vector<std::string> require;
  std::string html;  // certify --html
  bool allow_modified_corpus = false;
  bool quiet = false;       // --quiet: no progress display, even on a terminal
  bool geometry = true;     // certify: the sweeps' geometry pass
  uint64_t tail_batch = 7;  // replay's second presentation (0: none)
  uint64_t stride = 1;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

// Domains larger than this are sampled by certify --stride; smaller ones are cheap whole.
constexpr uint64_t kStridedDomainSize = uint64_t(1) << 24;

bool parse_args(int argc, char** argv, bool certify, Args* a) {
  using T = OptionSpec::Takes;
  static constexpr OptionSpec kReplay[] = {
      {"--target", T::Value},    {"--corpus", T::Value},       {"--suite", T::Values},    {"--tag", T::Value},
      {"--json", T::Value},      {"--junit", T::Value},        {"--require", T::Values},  {"--jobs", T::Value},
      {"--timeout", T::Value},   {"--max-failures", T::Value}, {"--tolerance", T::Value}, {"--quiet", T::Nothing},
      {"--tail-batch", T::Value}};
  static constexpr OptionSpec kCertify[] = {{"--target", T::Value},        {"--corpus", T::Value},
                                            {"--out", T::Value},           {"--require", T::Values},
                                            {"--jobs", T::Value},          {"--timeout", T::Value},
                                            {"--sweep", T::Value},         {"--stride", T::Value},
                                            {"--sweep-report", T::Values}, {"--allow-modified-corpus", T::Nothing},
                                            {"--max-failures", T::Value},  {"--suite", T::Values},
                                            {"--quiet", T::Nothing},       {"--no-geometry", T::Nothing},
                                            {"--tail-batch", T::Value},    {"--html", T::Value}};
  const char* const command = certify ? "certify" : "replay";
  auto refuse = [&](const std::string& why) {
    return std::fprintf(stderr, "ninfer-conform %s: %s\n", command, why.c_str()), false;
  };
  Options o;
  std::string why;
  if (!o.parse(argc, argv, certify ? std::span<const OptionSpec>(kCertify) : std::span<const OptionSpec>(kReplay),
               false, &why))
    return refuse(why);
  a->target = o.get("--target");
  a->corpus = o.get("--corpus", a->corpus);
  a->out = o.get("--out");
  // --suite: a comma list of globs, and repeatable; a suite matching any of them is replayed.
  if (o.has("--suite")) {
    a->suite.clear();
    for (const std::string& list : o.all("--suite")) {
      for (std::string_view g : split(list, ','))
        if (!g.empty()) {
          if (!a->suite.empty()) a->suite.push_back(',');
          a->suite.append(g);
        }
    }
    if (a->suite.empty()) return refuse("--suite needs a glob or a comma list of them");
  }
  a->quiet = o.has("--quiet");
  a->tag = o.get("--tag");
  a->json = o.get("--json");
  a->junit = o.get("--junit");
  a->html = o.get("--html");
  for (const std::string& list : o.all("--require")) {
    if (list.empty()) return refuse("--require needs a comma list");
    for (std::string_view e : split(list, ','))
      if (!e.empty()) a->require.emplace_back(e);
  }
  uint64_t timeout = 10, jobs = a->jobs, max_failures = certify ? SIZE_MAX : a->max_failures;
  if (!o.count("--timeout", 1, kNoLimit, &timeout, &why) || !o.count("--jobs", 1, 1024, &jobs, &why) ||
      !o.count("--max-failures", 0, kNoLimit, &max_failures, &why) ||
      !o.count("--stride", 1, kNoLimit, &a->stride, &why) || !o.count("--tail-batch", 0, 4096, &a->tail_batch, &why))
    return refuse(why);
  a->geometry = !o.has("--no-geometry");
  a->timeout = double(timeout);
  a->jobs = unsigned(jobs);
  a->max_failures = size_t(max_failures);
  if (o.has("--tolerance")) {
    const std::string v = o.get("--tolerance");
    int64_t n;
    if (v.rfind("ulp:", 0) != 0 || !parse_dec(v.substr(4), &n) || n < 0)
      return refuse("--tolerance takes ulp:N with N a whole number, not '" + v + "'");
    a->tolerance = uint64_t(n);
  }
  if (o.has("--sweep")) {
    std::string bad;
    std::vector<std::string> names;
    const std::string domains = o.get("--sweep");
    for (std::string_view d : split(domains, ',')) names.emplace_back(d);
    a->sweep = sweep::expand_domains(names, &bad);
    if (a->sweep.empty()) return refuse("unknown sweep domain '" + bad + "' (see sweep --list)");
  }
  a->sweep_reports = o.all("--sweep-report");
  a->allow_modified_corpus = o.has("--allow-modified-corpus");
  if (a->target.empty()) return refuse("--target is required");
  if (o.has("--stride") && a->sweep.empty()) return refuse("--stride samples the --sweep domains; there are none");
  if (certify && a->out.empty()) return refuse("--out is required");
  return true;
}

const std::vector<std::string> kCertificateFiles = {"certificate.json", "certificate.md", "certificate.sha256"};

// Where the results go, checked before the replay rather than after it.
bool outputs_writable(Args& a, bool certify) {
  std::string why;
  const bool ok = check_outputs({&a.json, &a.junit, &a.html}, &why, a.corpus) &&
                  (!certify || (check_output_folder(a.out, &why) && check_not_in_corpus(a.out, a.corpus, &why, true) &&
                                check_unit_destination(a.out, kCertificateFiles, &why)));
  if (!ok) std::fprintf(stderr, "ninfer-conform: %s\n", why.c_str());
  return ok;
}

// A sweep report and the replay of the same certification meet on the corpus cases of "the same
// domain" (README, Bad corpora, bad targets): for a decode.* or convert.* domain (the index of an
// input is its word), the cases of the suites named DOMAIN or DOMAIN.* (the domain's op and word
// type or recipe) whose input word the report covered: inside its shard's range and on its stride
// lattice. Returns the distinct input words of those the replay failed (verdict fail; a target
// error is no value judged), and the first such case in *first.
std::set<uint64_t> replay_failures_in_domain(const ReplayResult& r, const sweep::Report& s, std::string* first) {
  std::set<uint64_t> words;
  const std::string op = s.op.substr(0, s.op.find(' '));
  if (op != "decode" && op != "convert") return words;
  const auto [begin, end] = sweep::shard_range(s.domain_size, s.shard);
  for (const SuiteResult& suite : r.suites) {
    if (suite.name != s.domain && suite.name.rfind(s.domain + ".", 0) != 0) continue;
    for (const CaseResult& c : suite.failures) {
      const size_t eq = c.inputs.find('=');
      uint64_t w;
      if (c.verdict != Verdict::Fail || eq == std::string::npos || c.inputs.find(' ') != std::string::npos ||
          !parse_hex(std::string_view(c.inputs).substr(eq + 1), &w) || w < begin || w >= end || w % s.stride != 0)
        continue;
      if (words.empty()) *first = c.id + " (" + c.inputs + ", expected " + c.expect + ", actual " + c.actual + ")";
      words.insert(w);
    }
  }
  return words;
}

// Runs the replay the two commands share; returns an exit code when it cannot produce a result.
int run_replay(const Args& a, ReplayResult* result) {
  // A --require entry that names nothing in the corpus is a typo, not a requirement the target
  // failed. (A corpus that cannot be read is reported by the replay.)
  if (const auto m = corpus::read_manifest(a.corpus)) {
    std::vector<std::string> suites;
    for (const corpus::ManifestEntry& e : m->suites) suites.push_back(e.suite);
    std::string words = "all";
    for (int c = 0; c < kCapabilityCount; ++c) words += std::string(", ") + capability_verb(Capability(c));
    for (const std::string& entry : a.require)
      if (!require_entry_names_something(entry, suites))
        return std::fprintf(stderr,
                            "ninfer-conform: --require '%s' names no suite of the corpus and no capability (%s)\n",
                            entry.c_str(), words.c_str()),
               kExitUsage;
  }
  TargetOptions to;
  to.timeout_s = a.timeout;
  to.plugin_host = host_executable();
  std::string why;
  auto target = make_target(a.target, to, &why);
  if (!target) return std::fprintf(stderr, "ninfer-conform: %s\n", why.c_str()), kExitUsage;
  ReplayOptions o;
  o.jobs = a.jobs;
  o.make_target = [&a, to] {
    std::string ignored;  // the spec was accepted above; a failing start is reported by replay
    return make_target(a.target, to, &ignored);
  };
  o.corpus_dir = a.corpus;
  o.suite_glob = a.suite;
  o.tag = a.tag;
  o.judge.tolerance_ulp = a.tolerance;
  o.tail_batch = size_t(a.tail_batch);
  if (isatty(2) && !a.quiet)
    o.progress = [](const std::string& suite, size_t done, size_t total) {
      std::fprintf(stderr, "\r\033[K%s %zu/%zu", suite.c_str(), done, total);
      if (done == total) std::fprintf(stderr, "\r\033[K");
    };
  if (!replay(*target, o, result, &why)) return std::fprintf(stderr, "ninfer-conform: %s\n", why.c_str()), kExitUsage;
  result->required = a.require;
  return -1;
}

int replay_command(int argc, char** argv) {
  if (wants_help(argc, argv)) return std::fputs(kReplayUsage, stdout), kExitOk;
  Args a;
  if (!parse_args(argc, argv, false, &a)) return std::fputs(kReplayUsage, stderr), kExitUsage;
  if (!outputs_writable(a, false)) return kExitUsage;
  ReplayResult r;
  if (int rc = run_replay(a, &r); rc >= 0) return rc;
  print_summary(stdout, r, a.max_failures);
  std::string why;
  if (!a.json.empty() && !write_output(a.json, report_json(r), &why))
    return std::fprintf(stderr, "ninfer-conform: %s\n", why.c_str()), kExitUsage;
  if (!a.junit.empty() && !write_output(a.junit, report_junit(r), &why))
    return std::fprintf(stderr, "ninfer-conform: %s\n", why.c_str()), kExitUsage;
  return r.conformant() ? kExitOk : kExitNonConformant;
}

int certify_command(int argc, char** argv) {
  if (wants_help(argc, argv)) return std::fputs(kCertifyUsage, stdout), kExitOk;
  Args a;
  if (!parse_args(argc, argv, true, &a)) return std::fputs(kCertifyUsage, stderr), kExitUsage;
  if (!outputs_writable(a, true)) return kExitUsage;
  // A certificate names the corpus it was made on; one made on anything but the corpus this build
  // ships (an edited copy re-hashed to pass verification, say) is made only on request.
  if (const std::string sha = corpus::manifest_sha256_of(a.corpus);
      !sha.empty() && !corpus::is_official(sha) && !a.allow_modified_corpus)
    return std::fprintf(stderr,
                        "ninfer-conform certify: %s is not the official corpus: its manifest sha256 is %s, the\n"
                        "corpus this build ships has %s. Certify on the official corpus, or pass\n"
                        "--allow-modified-corpus (the certificate then says MODIFIED).\n",
                        printable(a.corpus).c_str(), sha.c_str(), corpus::official_manifest_sha256()),
           kExitUsage;
  ReplayResult r;
  if (int rc = run_replay(a, &r); rc >= 0) return rc;
  std::vector<sweep::Outcome> sweeps;
  for (const std::string& domain : a.sweep) {
    sweep::Options o;
    o.jobs = a.jobs;
    o.stride = sweep::make_domain(domain)->size() > kStridedDomainSize ? a.stride : 1;
    o.progress = isatty(2) && !a.quiet;  // rate and ETA on a terminal; nothing extra otherwise
    o.geometry = a.geometry;
    std::string why;
    if (!sweep::sweep_target(a.target, {domain}, o, a.timeout, &sweeps, &why))
      return std::fprintf(stderr, "ninfer-conform certify: cannot sweep: %s\n", why.c_str()), kExitUsage;
  }
  for (const std::string& file : a.sweep_reports) {
    std::vector<sweep::Report> reports;
    std::string why;
    if (!sweep::read_reports(file, &reports, &why))
      return std::fprintf(stderr, "ninfer-conform certify: %s\n", why.c_str()), kExitUsage;
    for (sweep::Report& s : reports) {
      // Whole, of this target (as the replay just met it) and judged by this build's reference.
      const std::unique_ptr<sweep::Domain> d = sweep::make_domain(s.domain);
      const std::string reference = sweep::reference_name();
      std::string wrong = !d                         ? "a domain this build does not know"
                          : s.op != d->op()          ? "of op '" + s.op + "', not " + d->op()
                          : s.reference != reference ? "judged by " + s.reference + ", not " + reference
                          : s.shard.count != 1       ? "PARTIAL, only shard " + std::to_string(s.shard.index) + "/" +
                                                     std::to_string(s.shard.count)
                          : s.target != named_plugin_target(a.target) ? "of target " + s.target
                          : s.target_name != r.target_name || s.target_version != r.target_version
                              ? "of " + s.target_name + " " + s.target_version + " (the target now says " +
                                    r.target_name + " " + r.target_version + ")"
                              : "";
      if (!wrong.empty())
        return std::fprintf(stderr,
                            "ninfer-conform certify: %s: %s is %s; certify takes whole-domain reports of %s swept by "
                            "this build (merge --json joins shards)\n",
                            file.c_str(), s.domain.c_str(), wrong.c_str(), a.target.c_str()),
               kExitUsage;
      // The report must not contradict the replay just run: every input word of the same domain
      // that the replay failed and the report covered is a mismatch (or in a failed batch) there.
      std::string first;
      const std::set<uint64_t> failed = replay_failures_in_domain(r, s, &first);
      if (failed.size() > s.tally.mismatches() + s.tally.errored)
        return std::fprintf(stderr,
                            "ninfer-conform certify: %s: the sweep report of %s claims %llu mismatches, but this "
                            "certification's\n"
                            "replay failed %zu cases of the same domain on inputs the report covers (first: %s);\n"
                            "a report that contradicts the replay is not certified\n",
                            printable(file).c_str(), s.domain.c_str(),
                            static_cast<unsigned long long>(s.tally.mismatches()), failed.size(),
                            printable(first).c_str()),
               kExitUsage;
      sweeps.push_back({s.domain, std::move(s), ""});
    }
  }
  // The path judged: this CPU, the threads, and what the target says of its configuration.
  r.environment = host_environment(a.jobs);
  {
    TargetOptions to;
    to.timeout_s = a.timeout;
    to.plugin_host = host_executable();
    std::string ignored;
    if (auto t = make_target(a.target, to, &ignored); t && t->start(&ignored)) r.environment.target_info = t->info();
  }
  char stamp[32];
  std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string why;
  // The certificate's files are one unit: all of the new ones or all of the old ones, never a mix.
  // certificate.json carries the run's identity; certificate.sha256 digests the other files (verify).
  // The page is drawn from the JSON just made, as `render` draws it from the file.
  const std::string json =
      with_identity(certificate_json(r, sweeps, stamp, a.max_failures), a.target, argc, argv, "certify");
  const std::string html = certificate_html(nlohmann::json::parse(json));
  std::vector<std::pair<std::string, std::string>> files = {
      {"certificate.json", json},
      {"certificate.md", certificate_markdown(r, sweeps, stamp, a.max_failures)},
      {"certificate.html", html}};
  files.emplace_back("certificate.sha256", digest_file(files));
  if (!write_files_as_unit(a.out, files, &why) || (!a.html.empty() && !write_output(a.html, html, &why)))
    return std::fprintf(stderr, "ninfer-conform certify: %s\n", why.c_str()), kExitUsage;
  const bool conformant = certified_conformant(r, sweeps);
  std::printf("%s\ntarget %s %s, corpus: %s, certificate in %s\n", verdict_line(r, conformant).c_str(),
              r.target_name.c_str(), r.target_version.c_str(), corpus::provenance(r.manifest_sha256).c_str(),
              printable(a.out).c_str());
  return conformant ? kExitOk : kExitNonConformant;
}

const char kRenderUsage[] =
    "usage: ninfer-conform render CERTIFICATE.json --html FILE\n"
    "Draws a certificate.json (as certify wrote it) as the self-contained HTML page certify writes\n"
    "beside it: the same JSON gives the same bytes. FILE - is standard output.\n"
    "exit 0 written, 2 usage error or a file that is not a certificate\n";

int render_command(int argc, char** argv) {
  if (wants_help(argc, argv)) return std::fputs(kRenderUsage, stdout), kExitOk;
  using T = OptionSpec::Takes;
  static constexpr OptionSpec kRender[] = {{"--html", T::Value}};
  Options o;
  std::string why;
  if (!o.parse(argc, argv, kRender, true, &why))
    return std::fprintf(stderr, "ninfer-conform render: %s\n%s", why.c_str(), kRenderUsage), kExitUsage;
  const std::string out = o.get("--html");
  if (o.operands().size() != 1 || out.empty())
    return std::fprintf(stderr, "ninfer-conform render: give one certificate.json and --html FILE\n%s", kRenderUsage),
           kExitUsage;
  const std::string in = o.operands()[0];
  if (!check_outputs({&out}, &why)) return std::fprintf(stderr, "ninfer-conform render: %s\n", why.c_str()), kExitUsage;
  corpus::Result<std::string> text = corpus::read_file(in);
  if (!text) return std::fprintf(stderr, "ninfer-conform render: %s\n", text.error().message().c_str()), kExitUsage;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("schema") || j["schema"] != "ninfer-conform-certificate-1")
    return std::fprintf(stderr,
                        "ninfer-conform render: %s: not a certificate.json (schema ninfer-conform-certificate-1)\n",
                        in.c_str()),
           kExitUsage;
  if (!write_output(out, certificate_html(j), &why))
    return std::fprintf(stderr, "ninfer-conform render: %s\n", why.c_str()), kExitUsage;
  return kExitOk;
}

// The child side of plugin:PATH.so: load the plugin and answer the pipe protocol. The protocol
// keeps the descriptors it came on, moved out of the plugin's way before it is loaded: the plugin's
// fd 1 becomes stderr (which the runner repeats, escaped) and its fd 0 /dev/null, so a plugin that
// prints or reads cannot forge answers or swallow requests.
int plugin_host_command(int argc, char** argv) {
  if (argc != 1 || wants_help(argc, argv))
    return std::fputs("usage: ninfer-conform plugin-host PATH.so  (run by replay --target plugin:PATH.so)\n",
                      argc == 1 ? stdout : stderr),
           argc == 1 ? kExitOk : kExitUsage;
  const int requests_fd = fcntl(0, F_DUPFD_CLOEXEC, 3), answers_fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
  const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  FILE* requests = requests_fd < 0 ? nullptr : fdopen(requests_fd, "r");
  FILE* answers = answers_fd < 0 ? nullptr : fdopen(answers_fd, "w");
  if (!requests || !answers || null_fd < 0 || dup2(2, 1) < 0 || dup2(null_fd, 0) < 0)
    return std::fprintf(stderr, "plugin-host: cannot set up the protocol descriptors: %s\n", strerror(errno)),
           kExitUsage;
  close(null_fd);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a plugin's printf reaches the runner as it happens
  void* h = dlopen(argv[0], RTLD_NOW | RTLD_LOCAL);
  if (!h) return std::fprintf(stderr, "plugin-host: %s\n", dlerror()), kExitUsage;
  auto entry = reinterpret_cast<nc_plugin_entry_v1>(dlsym(h, NC_PLUGIN_ENTRY_SYMBOL));
  if (!entry) return std::fprintf(stderr, "plugin-host: %s has no %s\n", argv[0], NC_PLUGIN_ENTRY_SYMBOL), kExitUsage;
  const nc_plugin_v1* table = entry();
  if (!table || table->abi_version < NC_PLUGIN_ABI_VERSION_MIN || table->abi_version > NC_PLUGIN_ABI_VERSION)
    return std::fprintf(stderr, "plugin-host: %s: ABI version %u, expected %u to %u\n", argv[0],
                        table ? table->abi_version : 0u, NC_PLUGIN_ABI_VERSION_MIN, NC_PLUGIN_ABI_VERSION),
           kExitUsage;
  char* buf = nullptr;
  size_t cap = 0;
  std::string answer;
  for (ssize_t n; (n = getline(&buf, &cap, requests)) > 0;) {
    abi_answer(*table, std::string_view(buf, size_t(n) - (buf[n - 1] == '\n')), &answer);
    answer += '\n';
    std::fwrite(answer.data(), 1, answer.size(), answers);
    std::fflush(answers);
  }
  std::free(buf);
  return kExitOk;
}

NC_COMMAND("replay", "replay the corpus against a target and judge every case", replay_command);
NC_COMMAND("certify", "replay the whole corpus and write a conformance certificate", certify_command);
NC_COMMAND("render", "draw a certificate.json as its self-contained HTML page", render_command);
NC_COMMAND("plugin-host", "serve a plugin .so over the pipe protocol (used by plugin: targets)", plugin_host_command);

}  // namespace
}  // namespace nc::cli
