// generate, lint, show: the corpus commands. Thin: the work is in generator/ and corpus/.
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/output_file.h"
#include "corpus/diff.h"
#include "corpus/lint.h"
#include "corpus/manifest.h"
#include "corpus/official.h"
#include "corpus/reader.h"
#include "corpus/writer.h"
#include "generator/check.h"
#include "generator/generate.h"

namespace {

using namespace nc;
using cli::kExitNonConformant;
using cli::kExitOk;
using cli::kExitUsage;

int usage_error(const char* cmd, const std::string& msg) {
  std::fprintf(stderr, "ninfer-conform %s: %s (see --help)\n", cmd, msg.c_str());
  return kExitUsage;
}

int run_generate(int argc, char** argv) {
  if (cli::wants_help(argc, argv)) {
    std::printf(
        "usage: ninfer-conform generate [--out DIR] [--suite GLOB] [--jobs N] [--check]\n"
        "Regenerates the golden corpus from the oracle (default DIR: %s).\n"
        "  --suite GLOB  only suites whose name matches (fnmatch); others keep their manifest entry\n"
        "  --jobs N      suites built in N threads (output is identical for any N)\n"
        "  --check       regenerate in memory and compare with DIR; exit 1 naming the first difference\n",
        NC_DEFAULT_CORPUS_DIR);
    return kExitOk;
  }
  using T = cli::OptionSpec::Takes;
  static constexpr cli::OptionSpec kSpec[] = {{"--out", T::Value},
                                              {"--corpus", T::Value},
                                              {"--suite", T::Value},
                                              {"--jobs", T::Value},
                                              {"--check", T::Nothing}};
  cli::Options o;
  std::string why;
  if (!o.parse(argc, argv, kSpec, false, &why)) return usage_error("generate", why);
  if (o.has("--out") && o.has("--corpus"))
    return usage_error("generate", "--out and --corpus name the same folder; give one");
  const std::string out = o.get("--out", o.get("--corpus", NC_DEFAULT_CORPUS_DIR)), glob = o.get("--suite");
  if (o.has("--suite") && glob.empty()) return usage_error("generate", "--suite needs a glob");
  uint64_t jobs = std::max(1u, std::thread::hardware_concurrency());
  if (!o.count("--jobs", 1, 256, &jobs, &why)) return usage_error("generate", why);
  const bool check = o.has("--check");
  // Where the corpus goes is checked before the oracle's seconds are spent.
  if (!check && !cli::check_output_folder(out, &why)) return usage_error("generate", why);
  gen::GenerateOptions opts;
  opts.glob = glob;
  opts.jobs = unsigned(jobs);
  opts.compress = !check;
  const bool tty = ::isatty(2);
  if (tty)
    opts.progress = [](size_t done, size_t total, const std::string& name) {
      std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total, name.c_str());
    };
  auto t0 = std::chrono::steady_clock::now();
  auto suites = gen::generate_suites(opts);
  if (tty) std::fprintf(stderr, "\r\033[K");
  if (!suites) {
    std::fprintf(stderr, "ninfer-conform generate: %s\n", suites.error().message().c_str());
    return kExitUsage;
  }
  uint64_t records = 0, bytes = 0;
  for (const auto& s : *suites) {
    records += s.records;
    bytes += check ? s.text.size() : s.compressed.size();
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (check) {
    auto errors = gen::check_corpus(out, *suites, glob.empty());
    for (const auto& e : errors) std::fprintf(stderr, "ninfer-conform generate --check: %s\n", e.message().c_str());
    if (!errors.empty()) return kExitNonConformant;
    std::printf("check ok: %zu suites, %llu records match %s (%.1f s)\n", suites->size(),
                static_cast<unsigned long long>(records), out.c_str(), secs);
    return kExitOk;
  }
  corpus::Manifest m = gen::provenance_manifest();
  if (!glob.empty()) {
    // A partial run keeps the other suites' entries; a full run lists exactly what it wrote.
    auto old = corpus::read_manifest(out);
    if (old) m.suites = old->suites;
  }
  // A full run lists exactly what it wrote: suites no longer generated are dropped.
  if (auto err = corpus::write_corpus(out, *suites, m, glob.empty())) {
    std::fprintf(stderr, "ninfer-conform generate: %s\n", err->message().c_str());
    return kExitUsage;
  }
  std::printf("wrote %zu suites, %llu records, %llu bytes compressed to %s (%.1f s, %u jobs)\n", suites->size(),
              static_cast<unsigned long long>(records), static_cast<unsigned long long>(bytes), out.c_str(), secs,
              unsigned(jobs));
  return kExitOk;
}

int run_lint(int argc, char** argv) {
  if (cli::wants_help(argc, argv)) {
    std::printf(
        "usage: ninfer-conform lint [--corpus DIR]\n"
        "Checks a corpus (default %s): manifest, sizes, hashes, schema, duplicate ids, declared vs\n"
        "found record counts, canonical formatting. Exit 2 on any problem.\n",
        NC_DEFAULT_CORPUS_DIR);
    return kExitOk;
  }
  static constexpr cli::OptionSpec kSpec[] = {{"--corpus", cli::OptionSpec::Takes::Value}};
  cli::Options o;
  if (std::string why; !o.parse(argc, argv, kSpec, false, &why)) return usage_error("lint", why);
  const std::string dir = o.get("--corpus", NC_DEFAULT_CORPUS_DIR);
  corpus::LintReport rep = corpus::lint_corpus(dir);
  for (const auto& e : rep.errors) std::fprintf(stderr, "ninfer-conform lint: %s\n", e.message().c_str());
  if (!rep.errors.empty()) return kExitUsage;
  std::printf("lint ok: %zu suites, %llu records in %s\n", rep.suites, static_cast<unsigned long long>(rep.records),
              dir.c_str());
  return kExitOk;
}

// show checks what it prints as lint would, without linting every other suite: lint runs on a
// scratch directory holding only a link to the suite and a manifest of its one entry. Returns
// lint's problems (the manifest's own, or the suite's), naming the real paths.
std::vector<std::string> lint_one_suite(const std::string& dir, const std::string& suite) {
  namespace fs = std::filesystem;
  auto m = corpus::read_manifest(dir);
  if (!m) return {m.error().message()};
  const corpus::ManifestEntry* entry = m->find(suite);
  if (!entry) return {(fs::path(dir) / corpus::kManifestName).string() + ": lists no suite `" + suite + "`"};
  char tmpl[] = "/tmp/nc-show-XXXXXX";
  if (!mkdtemp(tmpl)) return {std::string("cannot make a scratch directory: ") + std::strerror(errno)};
  const std::string scratch = tmpl;
  std::error_code ec;
  corpus::Manifest one = *m;
  one.suites = {*entry};
  fs::create_symlink(fs::absolute(fs::path(dir) / entry->file, ec), fs::path(scratch) / entry->file, ec);
  std::vector<std::string> problems;
  if (ec) problems.push_back("cannot link " + entry->file + " into " + scratch + ": " + ec.message());
  else if (auto err = corpus::write_file_atomic(scratch + "/" + corpus::kManifestName, corpus::manifest_json(one)))
    problems.push_back(err->message());
  else
    for (const corpus::Error& e : corpus::lint_corpus(scratch).errors) {
      std::string msg = e.message();
      for (size_t at; (at = msg.find(scratch)) != std::string::npos;) msg.replace(at, scratch.size(), dir);
      problems.push_back(msg);
    }
  fs::remove_all(scratch, ec);
  return problems;
}

int run_show(int argc, char** argv) {
  if (cli::wants_help(argc, argv)) {
    std::printf(
        "usage: ninfer-conform show SUITE [--case ID | --tag T] [--corpus DIR] [--unverified]\n"
        "Prints a suite's header and its records, one `column: value` per line, after checking the\n"
        "suite as lint does (manifest entry, hashes, schema, canonical form; exit 2 on a problem)\n"
        "and naming the corpus: official (the one this build ships) or MODIFIED.\n"
        "  --unverified  print without checking (the header then says `corpus: unverified`)\n");
    return kExitOk;
  }
  using T = cli::OptionSpec::Takes;
  static constexpr cli::OptionSpec kSpec[] = {
      {"--corpus", T::Value}, {"--case", T::Value}, {"--tag", T::Value}, {"--unverified", T::Nothing}};
  cli::Options o;
  if (std::string why; !o.parse(argc, argv, kSpec, true, &why)) return usage_error("show", why);
  if (o.operands().size() > 1) return usage_error("show", "name one suite, not " + std::to_string(o.operands().size()));
  const std::string dir = o.get("--corpus", NC_DEFAULT_CORPUS_DIR), tag = o.get("--tag");
  const std::string suite = o.operands().empty() ? "" : o.operands()[0];
  std::string case_id = o.get("--case");
  const bool verify = !o.has("--unverified");
  if (suite.empty()) return usage_error("show", "name a suite");
  if (!case_id.empty() && !tag.empty()) return usage_error("show", "--case and --tag exclude each other");
  // An id may be given without its suite prefix.
  if (!case_id.empty() && case_id.find(':') == std::string::npos) case_id = suite + ":" + case_id;
  if (verify) {
    std::vector<std::string> problems = lint_one_suite(dir, suite);
    for (const std::string& p : problems) std::fprintf(stderr, "ninfer-conform show: %s\n", p.c_str());
    if (!problems.empty())
      return std::fprintf(stderr, "ninfer-conform show: not shown (--unverified shows it anyway)\n"), kExitUsage;
  }
  auto opened = corpus::SuiteReader::open((std::filesystem::path(dir) / (suite + ".vec.zst")).string());
  if (!opened) {
    std::fprintf(stderr, "ninfer-conform show: %s\n", opened.error().message().c_str());
    return kExitUsage;
  }
  corpus::SuiteReader& r = **opened;
  const auto& h = r.header();
  std::printf("corpus: %s\n", verify ? corpus::provenance(corpus::manifest_sha256_of(dir)).c_str() : "unverified");
  std::printf("suite %s: %s\nop %s, spec %s, %llu records\n", h.suite.c_str(), h.about.c_str(), h.op.c_str(),
              h.spec.c_str(), static_cast<unsigned long long>(h.records));
  if (!tag.empty()) {
    bool declared = false;
    for (const auto& [k, v] : h.tags) {
      if (k == tag) {
        std::printf("tag %s: %s\n", k.c_str(), v.c_str());
        declared = true;
      }
    }
    if (!declared) return usage_error("show", "suite " + suite + " declares no tag `" + tag + "`");
  }
  size_t shown = 0;
  const size_t tags_col = h.columns.size() - 2;
  const std::string tag_needle = "," + tag + ",";
  for (;;) {
    corpus::Record rec;
    auto more = r.next(rec);
    if (!more) {
      std::fprintf(stderr, "ninfer-conform show: %s\n", more.error().message().c_str());
      return kExitUsage;
    }
    if (!*more) break;
    if (!case_id.empty() && rec.id() != case_id) continue;
    if (!tag.empty()) {
      std::string t = ",";
      t.append(rec.fields[tags_col]).push_back(',');
      if (t.find(tag_needle) == std::string::npos) continue;
    }
    std::printf("\n");
    for (size_t c = 0; c < h.columns.size(); ++c)
      std::printf("  %-8s %.*s\n", h.columns[c].c_str(), int(rec.fields[c].size()), rec.fields[c].data());
    ++shown;
  }
  if (shown == 0 && !case_id.empty()) {
    std::fprintf(stderr, "ninfer-conform show: no case %s in %s\n", case_id.c_str(), suite.c_str());
    return kExitUsage;
  }
  std::printf("\n%zu record(s) shown\n", shown);
  return kExitOk;
}

// `diff OLD NEW`: what a user adopting NEW must know (vectors/CHANGES.md is its output).
int run_diff(int argc, char** argv) {
  if (cli::wants_help(argc, argv)) {
    std::printf(
        "usage: ninfer-conform diff OLD_DIR NEW_DIR [--json] [--limit N]\n"
        "Compares two corpora by case id, per suite: records added and removed, changed expectations\n"
        "(old -> new, with the record's comment), records whose tags/info/comment alone changed, header\n"
        "changes, and suites added or removed.\n"
        "  --json     machine-readable output\n"
        "  --limit N  list at most N ids per suite and kind (default 20, 0 = all); changed expectations\n"
        "             are always listed in full\n"
        "exit 0 identical, 1 the corpora differ, 2 usage or corpus error\n");
    return kExitOk;
  }
  static constexpr cli::OptionSpec kSpec[] = {{"--json", cli::OptionSpec::Takes::Nothing},
                                              {"--limit", cli::OptionSpec::Takes::Value}};
  cli::Options o;
  std::string why;
  if (!o.parse(argc, argv, kSpec, true, &why)) return usage_error("diff", why);
  const std::vector<std::string>& dirs = o.operands();
  const bool json = o.has("--json");
  uint64_t limit = 20;
  if (!o.count("--limit", 0, cli::kNoLimit, &limit, &why)) return usage_error("diff", why);
  if (dirs.size() != 2) return usage_error("diff", "name two corpus directories, OLD_DIR and NEW_DIR");
  auto d = corpus::diff_corpora(dirs[0], dirs[1], size_t(limit));
  if (!d) return std::fprintf(stderr, "ninfer-conform diff: %s\n", d.error().message().c_str()), kExitUsage;
  const std::string out = json ? corpus::diff_json(*d) : corpus::diff_text(*d);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return d->identical() ? kExitOk : kExitNonConformant;
}

NC_COMMAND("generate", "regenerate the golden corpus (or --check it against the committed one)", run_generate);
NC_COMMAND("lint", "check a corpus: schema, ids, counts, hashes, canonical form", run_lint);
NC_COMMAND("show", "print a suite's records (--case ID, --tag T)", run_show);
NC_COMMAND("diff", "compare two corpora by case id: records added, removed, expectations changed", run_diff);

}  // namespace
