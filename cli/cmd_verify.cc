#include "cli/certificate_identity.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/command.h"
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

const char kVerifyUsage[] =
    "usage: ninfer-conform verify DIR\n"
    "Checks the certificate in DIR that certify wrote: every file certificate.sha256 lists has that\n"
    "SHA-256 (and certificate.json and certificate.md are listed), certificate.json has its identity\n"
    "(tool, corpus, target, command line, environment), and the files agree with each other: the\n"
    "overall verdict and the verdict line of certificate.md are certificate.json's, `conformant`\n"
    "matches the overall verdict, and `corpus_official` matches the corpus manifest hash.\n"
    "A digest detects damage and edits only when it is itself kept or signed elsewhere\n"
    "(docs/certifications/README.md: ssh-keygen -Y sign).\n"
    "exit 0 the certificate checks, 1 it does not (each problem named), 2 usage or unreadable folder\n";

int verify_command(int argc, char** argv) {
  if (wants_help(argc, argv)) return std::fputs(kVerifyUsage, stdout), kExitOk;
  if (argc != 1 || argv[0][0] == '-') return std::fputs(kVerifyUsage, stderr), kExitUsage;
  const std::string dir = argv[0];
  std::vector<std::string> problems;
  auto read = [&](const std::string& name) { return corpus::read_file(dir + "/" + name, uint64_t(1) << 30); };
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
      problems.push_back("certificate.sha256:" + std::to_string(line_no) + ": not a `HASH  NAME` line of a file in the folder");
      continue;
    }
    const std::string name = line.substr(66);
    listed_json |= name == "certificate.json";
    listed_md |= name == "certificate.md";
    auto bytes = read(name);
    if (!bytes) problems.push_back(bytes.error().message());
    else if (corpus::sha256_hex(*bytes) != line.substr(0, 64))
      problems.push_back(runners::printable(name) + ": sha256 " + corpus::sha256_hex(*bytes) + ", certificate.sha256 says " + line.substr(0, 64));
  }
  if (!listed_json || !listed_md) problems.push_back("certificate.sha256 does not list certificate.json and certificate.md");
  auto json_text = read("certificate.json");
  auto md = read("certificate.md");
  if (!json_text || !md) {
    for (auto* r : {&json_text, &md})
      if (!*r) problems.push_back(r->error().message());
  } else {
    try {
      const nlohmann::json j = nlohmann::json::parse(*json_text);
      const nlohmann::json& id = j.at("identity");
      for (const char* key : {"tool", "corpus_manifest_sha256", "target", "command_line", "environment"})
        if (!id.contains(key)) problems.push_back(std::string("certificate.json: identity has no ") + key);
      const std::string sha = j.at("corpus_manifest_sha256").get<std::string>();
      if (id.value("corpus_manifest_sha256", "") != sha)
        problems.push_back("certificate.json: identity names another corpus than corpus_manifest_sha256");
      if (j.at("corpus_official").get<bool>() != corpus::is_official(sha))
        problems.push_back("certificate.json: corpus_official does not match the corpus manifest hash " + sha);
      const bool conformant = j.at("conformant").get<bool>();
      const std::string overall = j.at("overall").get<std::string>(), verdict = j.at("verdict").get<std::string>();
      if (conformant != (overall.rfind("conformant", 0) == 0))
        problems.push_back("certificate.json: conformant is " + std::string(conformant ? "true" : "false") + ", overall says " + overall);
      if (conformant != (verdict.rfind("CONFORMANT", 0) == 0))
        problems.push_back("certificate.json: conformant is " + std::string(conformant ? "true" : "false") + ", the verdict line says " + verdict);
      if (md->find("| overall | " + overall + " |\n") == std::string::npos)
        problems.push_back("certificate.md: its overall verdict is not certificate.json's (" + overall + ")");
      if (md->find("| verdict | " + verdict + " |\n") == std::string::npos)
        problems.push_back("certificate.md: its verdict line is not certificate.json's");
      for (const auto& s : j.at("suites")) {
        if (conformant && (s.value("fail", 0) != 0 || s.value("target-error", 0) != 0))
          problems.push_back("certificate.json: conformant, but suite " + s.value("suite", std::string("?")) + " has failures");
      }
    } catch (const std::exception& e) {
      problems.push_back(std::string("certificate.json: ") + e.what());
    }
  }
  for (const std::string& p : problems) std::printf("%s\n", p.c_str());
  std::printf("%s\n", problems.empty() ? "certificate checks: digest, identity and consistency" : "certificate does NOT check");
  return problems.empty() ? kExitOk : kExitNonConformant;
}

NC_COMMAND("verify", "check a certificate folder: digest, identity, internal consistency", verify_command);

}  // namespace
}  // namespace nc::cli
