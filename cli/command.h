// Subcommands of the one ninfer-conform binary. Each cmd_*.cc file registers its commands with
// NC_COMMAND; main() dispatches on argv[1] and prints the table for --help.
#pragma once

#include <string_view>

namespace nc::cli {

// Exit codes shared by every command, so CI can act on them.
inline constexpr int kExitOk = 0;          // success / conformant
inline constexpr int kExitNonConformant = 1;  // the check ran and found a failure
inline constexpr int kExitUsage = 2;       // bad arguments, unknown name, corrupt corpus

// args excludes the program name and the command name.
using CommandFn = int (*)(int argc, char** argv);

struct Command {
  std::string_view name;
  std::string_view summary;  // one line for the top-level --help
  CommandFn run;
};

bool register_command(const Command& c);

// True when argv holds -h or --help; commands print their usage and return kExitOk.
bool wants_help(int argc, char** argv);

}  // namespace nc::cli

#define NC_CONCAT_INNER(a, b) a##b
#define NC_CONCAT(a, b) NC_CONCAT_INNER(a, b)
#define NC_COMMAND(name, summary, fn) \
  static const bool NC_CONCAT(nc_command_registered_, __LINE__) = \
      ::nc::cli::register_command({name, summary, fn})
