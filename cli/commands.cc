// The command table every cmd_*.cc registers into, and what the commands ask of the program that
// runs them. Apart from main.cc, so the Python module (python/) runs the same commands in process.
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "cli/command.h"

namespace nc::cli {
namespace {
std::string& host_executable_override() {
  static std::string path;
  return path;
}
std::string& build_object_override() {
  static std::string path;
  return path;
}
std::string self_exe() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, size_t(n)) : std::string();
}
}  // namespace

std::vector<Command>& command_table() {
  static std::vector<Command> table;
  return table;
}

bool register_command(const Command& c) {
  command_table().push_back(c);
  return true;
}

const Command* find_command(std::string_view name) {
  for (const Command& c : command_table())
    if (c.name == name) return &c;
  return nullptr;
}

int run_command(int argc, char** argv) {
  const Command* c = argc > 0 ? find_command(argv[0]) : nullptr;
  return c ? c->run(argc - 1, argv + 1) : kExitUsage;
}

bool wants_help(int argc, char** argv) {
  for (int i = 0; i < argc; ++i)
    if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) return true;
  return false;
}

void set_host_paths(const std::string& executable, const std::string& build_object) {
  host_executable_override() = executable;
  build_object_override() = build_object;
}

std::string host_executable() { return host_executable_override().empty() ? self_exe() : host_executable_override(); }

std::string build_object() {
  return build_object_override().empty() ? std::string("/proc/self/exe") : build_object_override();
}

}  // namespace nc::cli
