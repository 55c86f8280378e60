#include "cli/certificate_identity.h"

#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <map>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/output_file.h"
#include "corpus/official.h"
#include "corpus/sha256.h"
#include "corpus/zstd_io.h"
#include "runners/printable.h"

namespace nc::cli {
namespace {

std::string file_sha256(const std::string& path) {
  corpus::Result<std::string> bytes = corpus::read_file(path);
  return bytes ? corpus::sha256_hex(*bytes) : std::string();
}

// The file a target spec runs: plugin:PATH, or the first word of pipe:COMMAND that is a file
// (the interpreter's script: `pipe:python3 adapter.py` gives adapter.py), or "" (cpu, cuda).
std::string target_file(const std::string& spec) {
  if (spec.rfind("plugin:", 0) == 0) return spec.substr(7);
  if (spec.rfind("pipe:", 0) != 0) return "";
  std::string last;
  size_t at = 5;
  while (at < spec.size()) {
    const size_t end = std::min(spec.find(' ', at), spec.size());
    const std::string word = spec.substr(at, end - at);
    std::error_code ec;
    if (!word.empty() && std::filesystem::is_regular_file(word, ec)) last = word;
    at = end + 1;
  }
  return last;
}

}  // namespace

std::string with_identity(const std::string& certificate_json, const std::string& target_spec, int argc, char** argv,
                          const std::string& command) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(certificate_json);
  nlohmann::ordered_json id;
  id["tool"] = {{"name", "ninfer-conform"},
                {"version", corpus::project_version()},
                {"build_sha256", file_sha256(build_object())}};
  id["corpus_manifest_sha256"] = j.value("corpus_manifest_sha256", "");
  const std::string kind = target_spec.substr(0, target_spec.find(':'));
  nlohmann::ordered_json t = {{"spec", target_spec}, {"kind", kind}};
  if (const std::string f = target_file(target_spec); !f.empty()) {
    t["file"] = std::filesystem::path(f).filename().string();
    t["file_sha256"] = file_sha256(f);
  }
  if (j.contains("target")) t["reports"] = j["target"];  // the name and version the target gave in hello
  // What the target says of its libraries and configuration (`info 1`, runners/PIPE.md:
  // numpy=1.26.4 blas=openblas-0.3.21 ...), KEY -> VALUE; a plugin's table has only the name and
  // version above, so for it this is empty.
  nlohmann::ordered_json info = nlohmann::ordered_json::object();
  if (j.contains("environment") && j["environment"].contains("target_info")) {
    const std::string text = j["environment"]["target_info"].get<std::string>();
    for (size_t at = 0; at < text.size();) {
      const size_t end = std::min(text.find(' ', at), text.size());
      const std::string token = text.substr(at, end - at);
      const size_t eq = token.find('=');
      if (!token.empty()) info[token.substr(0, eq)] = eq == token.npos ? "" : token.substr(eq + 1);
      at = end + 1;
    }
  }
  t["info"] = info;
  id["target"] = t;
  nlohmann::ordered_json cmd = nlohmann::ordered_json::array({"ninfer-conform", command});
  // Where the certificate was written is not part of what it certifies: --out's value is DIR, so
  // two certifications of one target into two folders give the same bytes, timestamp aside.
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--out=", 0) == 0) cmd.push_back("--out=DIR");
    else if (i > 0 && std::string(argv[i - 1]) == "--out") cmd.push_back("DIR");
    else cmd.push_back(arg);
  }
  id["command_line"] = cmd;
  struct utsname u {};
  uname(&u);
  id["environment"] = {{"os", std::string(u.sysname) + " " + u.release},
                       {"machine", u.machine},
                       {"compiler", __VERSION__},
                       {"cpus", sysconf(_SC_NPROCESSORS_ONLN)}};
  j["identity"] = id;
  return j.dump(2) + "\n";
}

std::string digest_file(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string out;
  for (const auto& [name, bytes] : files) out += corpus::sha256_hex(bytes) + "  " + name + "\n";
  return out;
}

namespace {

// verify --rerun: certify again as the identity's command line says, into a fresh folder, with this
// build; "" and the new certificate.json in *json, or why it could not run.
std::string rerun_certify(const nlohmann::json& identity, std::string* json, std::string* folder) {
  const nlohmann::json& cmd = identity.at("command_line");
  if (!cmd.is_array() || cmd.size() < 2 || cmd[1] != "certify")
    return "the identity's command line is not a certify command";
  char tmpl[] = "/tmp/ninfer-conform-rerun-XXXXXX";
  if (!mkdtemp(tmpl)) return std::string("cannot make a folder for the re-run: ") + std::strerror(errno);
  *folder = tmpl;
  const std::string out = *folder + "/certificate";
  std::vector<std::string> args = {host_executable(), "certify"};
  for (size_t i = 2; i < cmd.size(); ++i) {
    const std::string a = cmd[i].get<std::string>();
    if (a == "--html" || a.rfind("--html=", 0) == 0) {  // a page elsewhere is not the certificate: not written again
      if (a == "--html") ++i;
      continue;
    }
    if (a == "--out=DIR") args.push_back("--out=" + out);
    else if (a == "DIR" && args.back() == "--out") args.push_back(out);
    else args.push_back(a);
  }
  args.push_back("--quiet");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) return std::string("fork: ") + std::strerror(errno);
  if (pid == 0) {
    // Its verdict line is not verify's: standard output goes to standard error.
    dup2(2, 1);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)
    return "the re-run (certify, from this folder's identity) ended without a certificate (exit " +
           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)) + ")";
  corpus::Result<std::string> text = corpus::read_file(out + "/certificate.json", uint64_t(1) << 30);
  if (!text) return text.error().message();
  *json = *text;
  return "";
}

// What differs between the certificate and its re-run, one line each: the findings (verdicts,
// every suite and sweep, capabilities, scope) and what names the run (corpus, target file, the
// target's name, version and info, the tool build). The timestamp, the machine and the command
// line are not compared.
std::vector<std::string> rerun_differences(const nlohmann::json& was, const nlohmann::json& now) {
  std::vector<std::string> out;
  auto text = [](const nlohmann::json& v) {
    std::string t = v.dump();
    return t.size() > 200 ? t.substr(0, 200) + "..." : t;
  };
  auto compare = [&](const std::string& what, const nlohmann::json& a, const nlohmann::json& b) {
    if (a != b) out.push_back("re-run differs: " + what + ": certificate " + text(a) + ", re-run " + text(b));
  };
  auto member = [](const nlohmann::json& j, const char* key) { return j.contains(key) ? j[key] : nlohmann::json(); };
  for (const char* key :
       {"conformant", "overall", "verdict", "corpus_manifest_sha256", "target", "scope", "capabilities"})
    compare(key, member(was, key), member(now, key));
  for (const char* key : {"suites", "sweeps"}) {
    const nlohmann::json a = member(was, key), b = member(now, key);
    const char* name = std::string(key) == "suites" ? "suite" : "domain";
    std::map<std::string, nlohmann::json> by_name;
    if (b.is_array())
      for (const auto& e : b) by_name[e.value(name, std::string())] = e;
    if (a.is_array())
      for (const auto& e : a) {
        const std::string n = e.value(name, std::string());
        auto it = by_name.find(n);
        if (it == by_name.end()) {
          out.push_back(std::string("re-run differs: ") + name + " " + runners::printable(n) + " is not in the re-run");
          continue;
        }
        for (const auto& [k, v] : e.items())
          compare(std::string(name) + " " + runners::printable(n) + " " + k, v, member(it->second, k.c_str()));
        by_name.erase(it);
      }
    for (const auto& [n, e] : by_name)
      out.push_back(std::string("re-run differs: ") + name + " " + runners::printable(n) + " is only in the re-run");
  }
  const nlohmann::json id_a = member(was, "identity"), id_b = member(now, "identity");
  compare("identity target", member(id_a, "target"), member(id_b, "target"));
  compare("identity corpus", member(id_a, "corpus_manifest_sha256"), member(id_b, "corpus_manifest_sha256"));
  compare("identity tool build", member(member(id_a, "tool"), "build_sha256"),
          member(member(id_b, "tool"), "build_sha256"));
  return out;
}

const char kVerifyUsage[] =
    "usage: ninfer-conform verify DIR [--rerun]\n"
    "       ninfer-conform verify --write-digest DIR\n"
    "Checks the certificate in DIR that certify wrote: every file certificate.sha256 lists has that\n"
    "SHA-256 (and certificate.json and certificate.md are listed), certificate.json has its identity\n"
    "(tool, corpus, target, command line, environment), and the files agree with each other: the\n"
    "overall verdict and the verdict line of certificate.md are certificate.json's, `conformant`\n"
    "matches the overall verdict, and `corpus_official` matches the corpus manifest hash.\n"
    "A digest detects damage and edits only when it is itself kept or signed elsewhere\n"
    "(docs/certifications/README.md: ssh-keygen -Y sign).\n"
    "  --write-digest  write DIR/certificate.sha256 as certify writes it, over the folder's\n"
    "                  certificate.json, certificate.md and certificate.html as they are now (for\n"
    "                  a folder copied without its digest), then check the folder as above. It\n"
    "                  binds whatever the files hold now: it attests nothing on its own\n"
    "  --rerun  then certify again as the identity's command line says (same target spec, corpus\n"
    "           and options, run from the current folder, with this build, into a temporary\n"
    "           folder) and compare: every verdict, suite, sweep, capability and the scope, the\n"
    "           corpus, the target's file hash, name, version and info, the tool build. Each\n"
    "           difference is named. The timestamp, the machine and the command line are not\n"
    "           compared.\n"
    "exit 0 the certificate checks (and its re-run agrees), 1 it does not (each problem named),\n"
    "2 usage, unreadable folder, or a re-run that could not certify\n";

int verify_command(int argc, char** argv) {
  if (wants_help(argc, argv)) return std::fputs(kVerifyUsage, stdout), kExitOk;
  bool rerun = false, write_digest = false;
  std::vector<std::string> operands;
  for (int i = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--rerun") rerun = true;
    else if (std::string(argv[i]) == "--write-digest") write_digest = true;
    else operands.push_back(argv[i]);
  }
  if (operands.size() != 1 || operands[0].empty() || operands[0][0] == '-' || (rerun && write_digest))
    return std::fputs(kVerifyUsage, stderr), kExitUsage;
  const std::string dir = operands[0];
  std::vector<std::string> problems;
  auto read = [&](const std::string& name) { return corpus::read_file(dir + "/" + name, uint64_t(1) << 30); };
  if (write_digest) {
    // The files certify digests, in its order (cmd_runners.cc), those of them the folder holds.
    std::vector<std::pair<std::string, std::string>> files;
    for (const char* name : {"certificate.json", "certificate.md", "certificate.html"}) {
      std::error_code ec;
      if (!std::filesystem::exists(dir + "/" + name, ec) && std::string(name) == "certificate.html") continue;
      auto bytes = read(name);
      if (!bytes)
        return std::fprintf(stderr, "ninfer-conform verify: %s\n", bytes.error().message().c_str()), kExitUsage;
      files.emplace_back(name, std::move(*bytes));
    }
    std::string why;
    if (!write_output(dir + "/certificate.sha256", digest_file(files), &why))
      return std::fprintf(stderr, "ninfer-conform verify: %s\n", why.c_str()), kExitUsage;
  }
  auto digest = read("certificate.sha256");
  if (!digest) return std::fprintf(stderr, "ninfer-conform verify: %s\n", digest.error().message().c_str()), kExitUsage;
  bool listed_json = false, listed_md = false;
  size_t line_no = 0;
  for (size_t at = 0; at < digest->size();) {
    const size_t end = std::min(digest->find('\n', at), digest->size());
    const std::string line = digest->substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (line.size() < 67 || line.substr(64, 2) != "  " || line.find('/') != std::string::npos) {
      problems.push_back("certificate.sha256:" + std::to_string(line_no) +
                         ": not a `HASH  NAME` line of a file in the folder");
      continue;
    }
    const std::string name = line.substr(66);
    listed_json |= name == "certificate.json";
    listed_md |= name == "certificate.md";
    auto bytes = read(name);
    if (!bytes) problems.push_back(bytes.error().message());
    else if (corpus::sha256_hex(*bytes) != line.substr(0, 64))
      problems.push_back(runners::printable(name) + ": sha256 " + corpus::sha256_hex(*bytes) +
                         ", certificate.sha256 says " + line.substr(0, 64));
  }
  if (!listed_json || !listed_md)
    problems.push_back("certificate.sha256 does not list certificate.json and certificate.md");
  auto json_text = read("certificate.json");
  auto md = read("certificate.md");
  if (!json_text || !md) {
    for (auto* r : {&json_text, &md})
      if (!*r) problems.push_back(r->error().message());
  } else {
    try {
      const nlohmann::json j = nlohmann::json::parse(*json_text);
      const std::string sha = j.at("corpus_manifest_sha256").get<std::string>();
      if (!j.contains("identity")) {
        problems.push_back("certificate.json: no identity (made before certify bound one; certify again to add it)");
      } else {
        const nlohmann::json& id = j.at("identity");
        for (const char* key : {"tool", "corpus_manifest_sha256", "target", "command_line", "environment"})
          if (!id.contains(key)) problems.push_back(std::string("certificate.json: identity has no ") + key);
        if (id.value("corpus_manifest_sha256", "") != sha)
          problems.push_back("certificate.json: identity names another corpus than corpus_manifest_sha256");
      }
      if (j.at("corpus_official").get<bool>() != corpus::is_official(sha))
        problems.push_back("certificate.json: corpus_official does not match the corpus manifest hash " + sha);
      const bool conformant = j.at("conformant").get<bool>();
      const std::string overall = j.at("overall").get<std::string>(), verdict = j.at("verdict").get<std::string>();
      if (conformant != (overall.rfind("conformant", 0) == 0))
        problems.push_back("certificate.json: conformant is " + std::string(conformant ? "true" : "false") +
                           ", overall says " + overall);
      if (conformant != (verdict.rfind("CONFORMANT", 0) == 0))
        problems.push_back("certificate.json: conformant is " + std::string(conformant ? "true" : "false") +
                           ", the verdict line says " + verdict);
      if (md->find("| overall | " + overall + " |\n") == std::string::npos)
        problems.push_back("certificate.md: its overall verdict is not certificate.json's (" + overall + ")");
      if (md->find("| verdict | " + verdict + " |\n") == std::string::npos)
        problems.push_back("certificate.md: its verdict line is not certificate.json's");
      for (const auto& s : j.at("suites")) {
        if (conformant && (s.value("fail", 0) != 0 || s.value("target-error", 0) != 0))
          problems.push_back("certificate.json: conformant, but suite " + s.value("suite", std::string("?")) +
                             " has failures");
      }
    } catch (const std::exception& e) {
      problems.push_back(std::string("certificate.json: ") + e.what());
    }
  }
  if (rerun && json_text) {
    std::string now, folder;
    try {
      const nlohmann::json was = nlohmann::json::parse(*json_text);
      const std::string why = rerun_certify(was.at("identity"), &now, &folder);
      if (!folder.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(folder, ec);
      }
      if (!why.empty()) return std::fprintf(stderr, "ninfer-conform verify --rerun: %s\n", why.c_str()), kExitUsage;
      for (std::string& d : rerun_differences(was, nlohmann::json::parse(now))) problems.push_back(std::move(d));
    } catch (const std::exception& e) {
      return std::fprintf(stderr, "ninfer-conform verify --rerun: certificate.json: %s\n", e.what()), kExitUsage;
    }
  }
  for (const std::string& p : problems) std::printf("%s\n", p.c_str());
  std::printf("%s\n", problems.empty()
                          ? (rerun ? "certificate checks: digest, identity and consistency; its re-run agrees"
                                   : "certificate checks: digest, identity and consistency")
                          : "certificate does NOT check");
  return problems.empty() ? kExitOk : kExitNonConformant;
}

NC_COMMAND("verify", "check a certificate folder: digest, identity, internal consistency", verify_command);

}  // namespace
}  // namespace nc::cli
