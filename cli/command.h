// Subcommands of the one ninfer-conform binary. Each cmd_*.cc file registers its commands with
// NC_COMMAND; main() dispatches on argv[1] and prints the table for --help.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nc::cli {

// Exit codes shared by every command, so CI can act on them.
inline constexpr int kExitOk = 0;             // success / conformant
inline constexpr int kExitNonConformant = 1;  // the check ran and found a failure
inline constexpr int kExitUsage = 2;          // bad arguments, unknown name, corrupt corpus

// args excludes the program name and the command name.
using CommandFn = int (*)(int argc, char** argv);

struct Command {
  std::string_view name;
  std::string_view summary;  // one line for the top-level --help
  CommandFn run;
};

bool register_command(const Command& c);
std::vector<Command>& command_table();
const Command* find_command(std::string_view name);
// Runs argv[0] (a command name) with the rest of argv; kExitUsage for an unknown name.
int run_command(int argc, char** argv);

// The ninfer-conform executable that serves `plugin:` targets (`plugin-host`), and the file whose
// SHA-256 a certificate's identity gives as the build: both this process's executable, unless the
// program that runs the commands is not it (the Python module sets the installed executable and
// its own shared object).
void set_host_paths(const std::string& executable, const std::string& build_object);
std::string host_executable();
std::string build_object();

// True when argv holds -h or --help; commands print their usage and return kExitOk.
bool wants_help(int argc, char** argv);

}  // namespace nc::cli

#define NC_CONCAT_INNER(a, b) a##b
#define NC_CONCAT(a, b) NC_CONCAT_INNER(a, b)
#define NC_COMMAND(name, summary, fn) \
  static const bool NC_CONCAT(nc_command_registered_, __LINE__) = ::nc::cli::register_command({name, summary, fn})
