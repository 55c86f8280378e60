// `ninfer-conform mutants`: the kill matrix of runners/kill_matrix.h over the mutant plugins of
// targets/mutants/ (docs/mutants.md). A surviving mutant means the corpus misses a bug class: exit 1.
#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/output_file.h"
#include "runners/kill_matrix.h"

namespace nc::cli {
namespace {

const char kUsage[] =
    "usage: ninfer-conform mutants [--corpus DIR] [--dir DIR] [--only NAME] [--json FILE]\n"
    "                              [--markdown FILE] [--timeout S]\n"
    "Replays the corpus suites each mutant names against that mutant plugin and prints the kill\n"
    "matrix: mutant x suite, the first killing case ID and its tags, the runner's diagnosis line.\n"
    "  --dir DIR   where the mutant-*.so plugins are (default: mutants/ beside this binary)\n"
    "  --only NAME replay one mutant\n"
    "  --json FILE, --markdown FILE  write the kill matrix; - is standard output\n"
    "exit 0 every mutant killed, 1 a mutant survived, 2 usage or corpus error\n";

struct Args {
  std::string corpus, dir, only, json, markdown, timeout;
};

std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

bool parse_args(int argc, char** argv, Args* a) {
  static constexpr std::pair<OptionSpec, std::string Args::*> kOptions[] = {
      {{"--corpus", OptionSpec::Takes::Value}, &Args::corpus},
      {{"--dir", OptionSpec::Takes::Value}, &Args::dir},
      {{"--only", OptionSpec::Takes::Value}, &Args::only},
      {{"--json", OptionSpec::Takes::Value}, &Args::json},
      {{"--markdown", OptionSpec::Takes::Value}, &Args::markdown},
      {{"--timeout", OptionSpec::Takes::Value}, &Args::timeout}};
  std::vector<OptionSpec> spec;
  for (const auto& [option, field] : kOptions) spec.push_back(option);
  Options o;
  std::string why;
  if (!o.parse(argc, argv, spec, false, &why))
    return std::fprintf(stderr, "ninfer-conform mutants: %s\n%s", why.c_str(), kUsage), false;
  for (const auto& [option, field] : kOptions) a->*field = o.get(option.name);
  // Passed on to each replay as text: checked here, once, as replay would check it.
  if (uint64_t seconds; !o.count("--timeout", 1, kNoLimit, &seconds, &why))
    return std::fprintf(stderr, "ninfer-conform mutants: %s\n", why.c_str()), false;
  return true;
}

int mutants_command(int argc, char** argv) {
  if (wants_help(argc, argv)) return std::fputs(kUsage, stdout), kExitOk;
  Args a;
  if (!parse_args(argc, argv, &a)) return kExitUsage;
  std::string why;
  if (!check_outputs({&a.json, &a.markdown}, &why, a.corpus.empty() ? std::string(NC_DEFAULT_CORPUS_DIR) : a.corpus))
    return std::fprintf(stderr, "ninfer-conform mutants: %s\n", why.c_str()), kExitUsage;
  const std::string self = self_path();
  if (a.dir.empty()) a.dir = self.substr(0, self.rfind('/')) + "/mutants";
  std::vector<runners::MutantPlugin> plugins;
  std::string error;
  if (!runners::discover_mutants(a.dir, &plugins, &error))
    return std::fprintf(stderr, "ninfer-conform mutants: %s\n", error.c_str()), kExitUsage;
  if (!a.only.empty()) {
    std::erase_if(plugins, [&](const runners::MutantPlugin& m) { return m.name != a.only; });
    if (plugins.empty())
      return std::fprintf(stderr, "ninfer-conform mutants: no mutant named %s\n", a.only.c_str()), kExitUsage;
  }
  const runners::KillMatrix km = runners::run_kill_matrix(
      {self, a.corpus, a.timeout}, plugins, a.dir + "/control-codec.so",
      [](const std::string& w) { std::fprintf(stderr, "ninfer-conform mutants: %s\n", w.c_str()); },
      [](const runners::Row& r) {
        const runners::Kill* k = r.first_kill();
        std::printf("%-30s %-8s %s\n", r.m.name.c_str(), k ? "killed" : "SURVIVED",
                    k ? (k->suite + " " + k->case_id + " [" + k->tags + "] " + k->diagnosis).c_str()
                      : (r.kills.empty() ? "" : r.kills.back().problem.c_str()));
        std::fflush(stdout);
      });

  const std::string md = runners::kill_matrix_markdown(km.rows);
  std::printf("\n%s", md.substr(md.rfind("\n", md.size() - 2) + 1).c_str());
  if ((!a.markdown.empty() && !write_output(a.markdown, md, &why)) ||
      (!a.json.empty() && !write_output(a.json, runners::kill_matrix_json(km.rows), &why)))
    return std::fprintf(stderr, "ninfer-conform mutants: cannot write the report: %s\n", why.c_str()), kExitUsage;
  if (km.corpus_error) return kExitUsage;
  return km.all_killed() ? kExitOk : kExitNonConformant;
}

}  // namespace

NC_COMMAND("mutants", "replay the corpus against every mutant plugin and print the kill matrix", mutants_command);

}  // namespace nc::cli
