// The kill matrix, its replays and its reports (runners/kill_matrix.h).
#include "runners/kill_matrix.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ninfer_conform/mutant_info.h"

extern char** environ;

namespace nc::runners {
namespace {

std::vector<std::string> words(const char* s) {
  std::vector<std::string> out;
  std::istringstream in(s ? s : "");
  for (std::string w; in >> w;)
    if (w != "-") out.push_back(w);
  return out;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

bool Row::diagnosis_names_bug() const {
  const Kill* k = first_kill();
  if (!k) return false;
  const std::string d = lower(k->diagnosis);
  return std::any_of(m.bug_words.begin(), m.bug_words.end(),
                     [&](const std::string& w) { return d.find(lower(w)) != std::string::npos; });
}

bool KillMatrix::all_killed() const {
  return std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.killed(); });
}

bool discover_mutants(const std::string& dir, std::vector<MutantPlugin>* out, std::string* error) {
  DIR* d = opendir(dir.c_str());
  if (!d) return *error = dir + ": cannot open the mutant plugin folder", false;
  std::vector<std::string> paths;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.rfind("mutant-", 0) == 0 && n.size() > 3 && n.compare(n.size() - 3, 3, ".so") == 0)
      paths.push_back(dir + "/" + n);
  }
  closedir(d);
  std::sort(paths.begin(), paths.end());
  for (const std::string& p : paths) {
    void* h = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) return *error = p + ": " + dlerror(), false;
    auto entry = reinterpret_cast<nc_mutant_info_entry_v1>(dlsym(h, NC_MUTANT_INFO_SYMBOL));
    const nc_mutant_info_v1* info = entry ? entry() : nullptr;
    if (!info) {
      dlclose(h);
      return *error = p + ": no " NC_MUTANT_INFO_SYMBOL " (not a mutant plugin)", false;
    }
    out->push_back({p, info->name, info->area, info->entry, info->mistake, words(info->suites), words(info->kill_tags),
                    words(info->bug_words)});
    dlclose(h);
  }
  if (out->empty()) return *error = dir + ": no mutant-*.so plugins (build the nc_mutant_plugins target)", false;
  return true;
}

namespace {

// Runs argv with stdout and stderr to log; the exit status, or -1.
int run_child(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// One replay of one suite glob against one mutant; fills the first killing case from the JSON.
Kill replay_one(const KillMatrixOptions& a, const std::string& plugin, const std::string& glob, const std::string& tmp,
                const FailSet& control, FailSet* all_failures = nullptr) {
  Kill k;
  k.glob = glob;
  const std::string json = tmp + "/replay.json", log = tmp + "/replay.log";
  std::remove(json.c_str());
  std::vector<std::string> args{a.self, "replay", "--target", "plugin:" + plugin, "--suite",
                                glob,   "--json", json,       "--max-failures",   "1"};
  if (!a.corpus.empty()) args.insert(args.end(), {"--corpus", a.corpus});
  if (!a.timeout.empty()) args.insert(args.end(), {"--timeout", a.timeout});
  k.exit_code = run_child(args, log);
  if (k.exit_code != 0 && k.exit_code != 1) {
    std::string text = read_all(log);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    k.problem = text.substr(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
    return k;
  }
  const nlohmann::json j = nlohmann::json::parse(read_all(json), nullptr, false);
  if (j.is_discarded() || !j.contains("suites")) return k.problem = json + ": no replay report", k;
  for (const auto& s : j["suites"]) {
    const auto& f = s.value("failures", nlohmann::json::array());
    const std::string problem = s.value("target_problem", "");
    const nlohmann::json* first = nullptr;
    for (const auto& c : f) {
      const std::string id = c.value("id", "");
      if (all_failures) all_failures->insert(id);
      if (control.count(id)) continue;
      ++k.failures;
      if (!first) first = &c;
    }
    if (!first && (problem.empty() || !control.empty())) continue;
    if (!first) ++k.failures;        // the mutant killed its plugin host: a kill the control does not share
    if (!k.suite.empty()) continue;  // the first killing suite is reported; later ones only counted
    k.suite = s.value("suite", "");
    if (first) {
      k.case_id = first->value("id", "");
      k.tags = first->value("tags", "");
    }
    if (s.contains("diagnosis") && s["diagnosis"].is_array())
      for (const auto& line : s["diagnosis"])
        if (line.is_string()) k.diagnosis += (k.diagnosis.empty() ? "" : "; ") + line.get<std::string>();
    if (k.diagnosis.empty()) k.diagnosis = problem;
  }
  return k;
}

}  // namespace

KillMatrix run_kill_matrix(const KillMatrixOptions& a, const std::vector<MutantPlugin>& plugins,
                           const std::string& control_path, const std::function<void(const std::string&)>& warn,
                           const std::function<void(const Row&)>& done) {
  KillMatrix out;
  char tmpl[] = "/tmp/ninfer-conform-mutants-XXXXXX";
  if (!mkdtemp(tmpl)) {
    warn(std::string("mkdtemp: ") + std::strerror(errno));
    out.corpus_error = true;
    return out;
  }
  const std::string tmp = tmpl;

  // The control: the correct table over the same path, once per suite glob.
  const bool have_control = !control_path.empty() && access(control_path.c_str(), R_OK) == 0;
  if (!have_control)
    warn("no " + (control_path.empty() ? std::string("control plugin") : control_path) +
         ": every failure counts as a kill");
  std::map<std::string, FailSet> control;
  for (const MutantPlugin& m : plugins)
    for (const std::string& glob : m.suites) {
      if (!have_control || control.count(glob)) continue;
      FailSet& fails = control[glob];
      const Kill c = replay_one(a, control_path, glob, tmp, {}, &fails);
      if (!fails.empty())
        warn("the correct codec fails " + std::to_string(fails.size()) + " case(s) of " + glob + " (first " +
             c.case_id + "); they are not counted as kills");
    }

  for (const MutantPlugin& m : plugins) {
    Row r{m, {}};
    for (const std::string& glob : m.suites) {
      r.kills.push_back(replay_one(a, m.path, glob, tmp, control[glob]));
      const Kill& k = r.kills.back();
      if (k.exit_code == 2 && k.problem.find("no suite matches") == std::string::npos) out.corpus_error = true;
      if (k.killed()) break;  // one kill is enough; the matrix shows the first
    }
    done(r);
    out.rows.push_back(std::move(r));
  }
  std::remove((tmp + "/replay.json").c_str());
  std::remove((tmp + "/replay.log").c_str());
  rmdir(tmp.c_str());
  return out;
}

std::string kill_matrix_markdown(const std::vector<Row>& rows) {
  std::ostringstream o;
  size_t killed = 0, named = 0;
  for (const Row& r : rows) killed += r.killed(), named += r.diagnosis_names_bug();
  o << "| mutant | entry | suite | first killing case | tags | diagnosis | names bug |\n"
    << "|---|---|---|---|---|---|---|\n";
  for (const Row& r : rows) {
    const Kill* k = r.first_kill();
    auto cell = [](std::string s) {
      std::replace(s.begin(), s.end(), '|', '/');
      return s.empty() ? std::string("-") : s;
    };
    if (k)
      o << "| " << r.m.name << " | " << r.m.entry << " | " << cell(k->suite) << " | `" << cell(k->case_id) << "` | "
        << cell(k->tags) << " | " << cell(k->diagnosis) << " | " << (r.diagnosis_names_bug() ? "yes" : "no") << " |\n";
    else {
      std::string why = "SURVIVED";
      for (const Kill& x : r.kills)
        if (!x.problem.empty()) why += " (" + x.glob + ": " + x.problem + ")";
      o << "| " << r.m.name << " | " << r.m.entry << " | " << cell([&] {
        std::string g;
        for (const std::string& s : r.m.suites) g += (g.empty() ? "" : " ") + s;
        return g;
      }())
        << " | - | - | " << cell(why) << " | no |\n";
    }
  }
  o << "\n"
    << killed << " of " << rows.size() << " mutants killed; the diagnosis names the bug class for " << named << " of "
    << killed << ".\n";
  return o.str();
}

std::string kill_matrix_json(const std::vector<Row>& rows) {
  nlohmann::ordered_json j;
  j["mutants"] = nlohmann::ordered_json::array();
  for (const Row& r : rows) {
    nlohmann::ordered_json jr{{"name", r.m.name},     {"area", r.m.area},
                              {"entry", r.m.entry},   {"mistake", r.m.mistake},
                              {"killed", r.killed()}, {"diagnosis_names_bug", r.diagnosis_names_bug()}};
    jr["replays"] = nlohmann::ordered_json::array();
    for (const Kill& k : r.kills)
      jr["replays"].push_back({{"suite_glob", k.glob},
                               {"exit", k.exit_code},
                               {"suite", k.suite},
                               {"case", k.case_id},
                               {"tags", k.tags},
                               {"failures_beyond_control", k.failures},
                               {"diagnosis", k.diagnosis},
                               {"problem", k.problem}});
    j["mutants"].push_back(jr);
  }
  return j.dump(2) + "\n";
}

}  // namespace nc::runners
