// `sweep` and `merge`: exhaustive domains against the integer reference (runners/sweep).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/output_file.h"
#include "runners/sweep/findings.h"
#include "runners/verdict.h"
#include "runners/sweep/shard.h"
#include "runners/sweep/sweep.h"
#include "runners/sweep/sweep_target.h"

namespace nc::cli {
namespace {

const char* kSweepUsage =
    "usage: ninfer-conform sweep DOMAIN... --target TARGET [options]\n"
    "Runs TARGET over every input of each DOMAIN and compares with the exact integer reference.\n\n"
    "  DOMAIN            a domain name, or convert / decode / reconstruct / encode / validate-tensor /\n"
    "                    parse / all for every domain of that kind\n"
    "                    (--list prints them)\n"
    "  --target T        cpu (our codec), cuda, plugin:PATH.so (run in a child process) or pipe:COMMAND\n"
    "                    (runners/PIPE.md; binary batches when the adapter takes them; convert,\n"
    "                    decode, validate-tensor and parse domains only)\n"
    "  --timeout S       seconds a pipe adapter may take to answer one batch, and a plugin's call\n"
    "                    to return, before the target counts as hung (default 10)\n"
    "  --jobs N          worker threads (default: number of cores; 1 to 1024)\n"
    "  --shard K/N       run shard K (0-based) of N: the contiguous index range [K*size/N, (K+1)*size/N)\n"
    "                    of each domain. Without it, the task index and count a scheduler sets:\n"
    "                    SLURM_ARRAY_TASK_ID/_MIN/_MAX/_STEP/_COUNT, JOB_COMPLETION_INDEX with\n"
    "                    JOB_COMPLETIONS, CI_NODE_INDEX (1-based)/CI_NODE_TOTAL, CIRCLE_NODE_INDEX/_TOTAL,\n"
    "                    BUILDKITE_PARALLEL_JOB/_COUNT, GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS\n"
    "                    (docs/scale-out.md); two that disagree are a usage error\n"
    "  --stride S        sample every S-th input (the report states the coverage)\n"
    "  --keep N          first mismatches kept per class (default 16)\n"
    "  --groups N        random groups per scheme in the encode.* domains (default 65536)\n"
    "  --json FILE       write the report(s) as JSON (one file; several domains: a JSON array);\n"
    "                    - is standard output (the summary then goes to standard error)\n"
    "  --vectors DIR     write the first mismatches of each class as a replayable corpus in DIR\n"
    "                    (suite sweep.DOMAIN, or sweep.DOMAIN.shard-K-of-N: shards may share DIR)\n"
    "                    (replay it with: ninfer-conform replay --corpus DIR --target ...)\n"
    "  --no-geometry     skip the batch-geometry pass: by default each convert.* and decode.* domain's\n"
    "                    class sample is presented again at batch lengths 1..64 and at start offsets\n"
    "                    1..15 words past a 64-byte boundary, and a result that depends on where an\n"
    "                    input sits in a batch is reported as position-dependent (runners/README.md)\n"
    "  --list            list the domains\n"
    "Results that differ from the reference only as a corpus policy allows for the same inputs\n"
    "(nan-any: another NaN for a NaN input) are counted as passed under that policy.\n"
    "exit: 0 no mismatch, 1 mismatches, a target failure, or nothing judged (the target declined\n"
    "every input offered), 2 usage error\n";

const char* kMergeUsage =
    "usage: ninfer-conform merge REPORT.json... [--json OUT]\n"
    "Joins the shard reports of one sweep (each file a report or an array of them, as sweep --json\n"
    "writes) into the reports of the unsharded run, one per domain; --json writes them as sweep\n"
    "would have (an array for several domains; - is standard output).\n"
    "Refused (exit 2, naming the files): missing, duplicated or overlapping shards; shards of\n"
    "another target, reference build, stride or domain size; a shard that judged nothing and\n"
    "carries only a target error.\n"
    "exit: 0 no mismatch, 1 mismatches or target failure, 2 usage error or refused shards\n";

void print_summary(const sweep::Report& r) {
  double coverage = r.domain_size ? 100.0 * double(r.tally.covered) / double(r.domain_size) : 0;
  std::string declined;
  if (r.tally.unsupported) declined += "  " + std::to_string(r.tally.unsupported) + " unsupported";
  if (r.tally.errored) declined += "  " + std::to_string(r.tally.errored) + " in failed batches";
  std::string name = r.domain;
  if (r.shard.count > 1) {
    auto [begin, end] = sweep::shard_range(r.domain_size, r.shard);
    name += " [PARTIAL: shard " + sweep::shard_text(r.shard) + ": " + std::to_string(begin) + ".." +
            std::to_string(end) + "]";
  }
  const std::string skipped =
      r.tally.invalid ? "; " + std::to_string(r.tally.invalid) + " invalid words skipped" : std::string();
  std::printf("%-36s %12lu inputs (%.4g%% of the domain%s)  %lu mismatches%s\n", name.c_str(), r.tally.covered,
              coverage, skipped.c_str(), r.tally.mismatches(), declined.c_str());
  for (const auto& [k, v] : r.tally.class_counts) std::printf("    %-40s %lu\n", k.c_str(), v);
  for (const auto& [k, v] : r.tally.accepted)
    std::printf("    %-40s %lu (not mismatches)\n", ("passed under policy " + k).c_str(), v);
  if (!r.tally.departures.empty())
    std::printf("    departures from the recipe's NaN: %s\n", runners::departure_profile(r.tally.departures).c_str());
  size_t shown = 0;
  for (const sweep::Mismatch& m : r.tally.first) {
    if (shown++ == 5) break;
    std::printf("    first: input %s expected %s actual %s (%s)\n", m.input.empty() ? "-" : m.input[0].c_str(),
                m.expected.c_str(), m.actual.c_str(), m.mismatch_class.c_str());
  }
  if (!r.tally.target_error.empty()) std::printf("    target error: %s\n", r.tally.target_error.c_str());
  const sweep::GeometryResult& g = r.geometry;
  if (g.sample) {
    std::printf("    geometry: %lu sample inputs at batch lengths 1..64 and start offsets 1..15: %s\n", g.sample,
                g.position_dependent == 0 ? "no result depends on position" : "");
    if (!g.finding.empty()) std::printf("    %s\n", g.finding.c_str());
    for (const auto& [k, v] : g.classes) std::printf("    %-40s %lu (only outside a full batch)\n", k.c_str(), v);
    if (!g.target_error.empty()) std::printf("    geometry target error: %s\n", g.target_error.c_str());
    if (g.profile.sample) std::printf("    profile: %s\n", g.profile.summary.c_str());
  }
}

// One report as it is; several as a JSON array (merge reads both).
std::string reports_json(const std::vector<std::string>& jsons) {
  if (jsons.size() == 1) return jsons[0];
  std::string s = "[\n";
  for (size_t i = 0; i < jsons.size(); ++i) s += (i ? ",\n" : "") + jsons[i];
  return s + "]\n";
}

int sweep_command(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(kSweepUsage, stdout);
    return kExitOk;
  }
  using T = OptionSpec::Takes;
  static constexpr OptionSpec kSpec[] = {{"--target", T::Value}, {"--timeout", T::Value},      {"--jobs", T::Value},
                                         {"--shard", T::Value},  {"--stride", T::Value},       {"--keep", T::Value},
                                         {"--groups", T::Value}, {"--json", T::Value},         {"--vectors", T::Value},
                                         {"--list", T::Nothing}, {"--no-geometry", T::Nothing}};
  auto refuse = [](const std::string& why) { return std::fprintf(stderr, "sweep: %s\n", why.c_str()), kExitUsage; };
  Options o;
  std::string why;
  if (!o.parse(argc, argv, kSpec, true, &why)) return refuse(why);
  if (o.has("--list")) {
    if (argc != 1) return refuse("--list takes nothing else");
    for (const std::string& n : sweep::domain_names()) {
      auto d = sweep::make_domain(n);
      std::printf("%-36s %lu inputs\n", n.c_str(), d->size());
    }
    return kExitOk;
  }
  const std::vector<std::string>& names = o.operands();
  const std::string target = o.get("--target"), json_path = o.get("--json"), vectors_dir = o.get("--vectors");
  sweep::Options opts;
  uint64_t timeout_s = 10, jobs = std::max(1u, std::thread::hardware_concurrency()), keep = opts.keep, groups = 0;
  if (!o.count("--timeout", 1, kNoLimit, &timeout_s, &why) || !o.count("--jobs", 1, 1024, &jobs, &why) ||
      !o.count("--stride", 1, kNoLimit, &opts.stride, &why) || !o.count("--keep", 1, kNoLimit, &keep, &why) ||
      !o.count("--groups", 1, kNoLimit, &groups, &why))
    return refuse(why);
  opts.jobs = unsigned(jobs);
  opts.keep = size_t(keep);
  opts.geometry = !o.has("--no-geometry");
  if (o.has("--groups")) sweep::set_encode_groups(groups);
  const bool explicit_shard = o.has("--shard");
  if (explicit_shard && !sweep::parse_shard(o.get("--shard"), &opts.shard))
    return refuse("--shard takes K/N with 0 <= K < N, not '" + o.get("--shard") + "'");
  if (names.empty() || target.empty()) {
    std::fputs(kSweepUsage, stderr);
    return kExitUsage;
  }
  if (!check_outputs({&json_path}, &why)) return refuse(why);
  std::string bad;
  std::vector<std::string> domains = sweep::expand_domains(names, &bad);
  if (domains.empty()) return refuse("unknown domain '" + bad + "' (see sweep --list)");
  std::string shard_source = explicit_shard ? "--shard" : "";
  if (!explicit_shard) {
    auto env = sweep::shard_from_environment([](const char* v) { return std::getenv(v); }, &why);
    if (!why.empty()) return refuse(why);
    if (env) {
      opts.shard = env->shard;
      shard_source = env->source;
      std::printf("shard %s from %s\n", sweep::shard_text(env->shard).c_str(), env->source.c_str());
    }
  }
  opts.progress = isatty(2);

  std::vector<sweep::Outcome> outcomes;
  if (!sweep::sweep_target(target, domains, opts, double(timeout_s), &outcomes, &why)) return refuse(why);
  std::vector<std::string> jsons;
  std::vector<sweep::Report> reports;
  bool any_mismatch = false;
  uint64_t judged = 0, declined = 0;
  for (sweep::Outcome& o : outcomes) {
    if (!o.report) {
      std::printf("%-36s %s\n", o.domain.c_str(), o.failure.c_str());
      any_mismatch = true;
      continue;
    }
    print_summary(*o.report);
    any_mismatch |=
        !o.report->tally.class_counts.empty() || !o.report->tally.target_error.empty() || !o.report->geometry.clean();
    judged += o.report->tally.covered;
    declined += o.report->tally.unsupported;
    jsons.push_back(sweep::to_json(*o.report));
    reports.push_back(std::move(*o.report));
  }
  if (!vectors_dir.empty()) {
    if (auto err = sweep::write_findings(vectors_dir, reports)) {
      std::fprintf(stderr, "sweep: cannot write findings: %s\n", err->message().c_str());
      return kExitUsage;
    }
  }
  if (!json_path.empty() && !write_output(json_path, reports_json(jsons), &why)) {
    std::fprintf(stderr, "sweep: cannot write the report: %s\n", why.c_str());
    return kExitUsage;
  }
  // A shard (from --shard or CI variables) covers part of each domain, and its last line says so:
  // exit 0 over a quarter of a domain is no whole-domain result (certify refuses such a report).
  if (opts.shard.count > 1)
    std::printf(
        "PARTIAL: shard %s (from %s) swept part of each domain; merge --json of every shard's report gives the whole\n",
        sweep::shard_text(opts.shard).c_str(), shard_source.c_str());
  // A sweep in which the target declined every input it was offered tested nothing: not a pass.
  if (judged == 0 && declined > 0) {
    std::fprintf(stderr, "sweep: nothing was judged: the target declined all %lu inputs it was offered\n",
                 static_cast<unsigned long>(declined));
    return kExitNonConformant;
  }
  return any_mismatch ? kExitNonConformant : kExitOk;
}

int merge_command(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::fputs(kMergeUsage, stdout);
    return kExitOk;
  }
  static constexpr OptionSpec kSpec[] = {{"--json", OptionSpec::Takes::Value}};
  Options o;
  std::string why;
  if (!o.parse(argc, argv, kSpec, true, &why)) {
    std::fprintf(stderr, "merge: %s\n", why.c_str());
    return kExitUsage;
  }
  const std::string out_path = o.get("--json");
  std::vector<sweep::ShardReport> shards;
  for (const std::string& a : o.operands()) {
    std::vector<sweep::Report> reports;
    std::string err;
    if (!sweep::read_reports(a, &reports, &err)) {
      std::fprintf(stderr, "merge: %s\n", err.c_str());
      return kExitUsage;
    }
    for (sweep::Report& r : reports) shards.push_back({a, std::move(r)});
  }
  if (shards.empty()) {
    std::fputs(kMergeUsage, stderr);
    return kExitUsage;
  }
  if (!check_outputs({&out_path}, &why)) {
    std::fprintf(stderr, "merge: %s\n", why.c_str());
    return kExitUsage;
  }
  std::vector<sweep::Report> merged;
  std::string err;
  if (!sweep::merge(shards, &merged, &err)) {
    std::fprintf(stderr, "merge: refused:\n%s\n", err.c_str());
    return kExitUsage;
  }
  std::vector<std::string> jsons;
  bool any_mismatch = false;
  for (const sweep::Report& r : merged) {
    size_t n = 0;
    for (const sweep::ShardReport& s : shards) n += s.report.domain == r.domain;
    std::printf("%s: %zu shard reports tile the domain; coverage %lu/%lu = %.6f of the domain\n", r.domain.c_str(), n,
                r.tally.covered, r.domain_size, r.domain_size ? double(r.tally.covered) / double(r.domain_size) : 0.0);
    print_summary(r);
    any_mismatch |= !r.tally.class_counts.empty() || !r.tally.target_error.empty() || !r.geometry.clean();
    jsons.push_back(sweep::to_json(r));
  }
  if (!out_path.empty() && !write_output(out_path, reports_json(jsons), &why)) {
    std::fprintf(stderr, "merge: cannot write the report: %s\n", why.c_str());
    return kExitUsage;
  }
  return any_mismatch ? kExitNonConformant : kExitOk;
}

}  // namespace

NC_COMMAND("sweep", "run a target over a complete input domain against the exact reference", sweep_command);
NC_COMMAND("merge", "join sharded sweep reports into one", merge_command);

}  // namespace nc::cli
