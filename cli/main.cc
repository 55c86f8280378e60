#include <fcntl.h>
#include <fenv.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "cli/command.h"
#include "corpus/official.h"
#include "runners/children.h"

namespace nc::cli {
namespace {
void print_usage(FILE* out) {
  std::fprintf(out,
               "usage: ninfer-conform COMMAND [ARGS...]\n"
               "Conformance vectors and certification for the NInfer numeric formats.\n\n"
               "commands:\n");
  std::vector<Command> sorted = command_table();
  std::sort(sorted.begin(), sorted.end(), [](const Command& a, const Command& b) { return a.name < b.name; });
  for (const Command& c : sorted)
    std::fprintf(out, "  %-12.*s %.*s\n", int(c.name.size()), c.name.data(), int(c.summary.size()), c.summary.data());
  std::fprintf(out,
               "\n'ninfer-conform COMMAND --help' describes one command; --version names this build.\n"
               "exit codes: 0 success, 1 check failed (not conformant), 2 usage or input error\n");
}
// Descriptors 0, 1 and 2 that the caller left closed are taken by /dev/null, opened so that
// writing to it fails (read-only for 1 and 2), before anything else can be given their numbers: a
// report file opened as descriptor 1 would otherwise receive what the command prints, and a
// closed standard output must make the command fail, not succeed in silence.
void occupy_closed_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd)
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      const int got = open("/dev/null", O_RDONLY);
      if (got >= 0 && got != fd) dup2(got, fd), close(got);
    }
}

// What the command printed must have arrived: a full disk (> /dev/full), a closed standard output
// or a vanished reader is exit 2 with the reason, whatever the command's own result.
int finish_standard_output(int rc) {
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  const int why = errno;
  if (!failed) return rc;
  std::fprintf(stderr, "ninfer-conform: cannot write standard output: %s\n", why ? std::strerror(why) : "write error");
  return kExitUsage;
}

}  // namespace
}  // namespace nc::cli

int main(int argc, char** argv) {
  using namespace nc::cli;
  // Correct rounding is the product: whatever a preloaded library or a fast-math constructor left
  // in the floating-point environment (rounding direction, FTZ/DAZ), every command works in
  // IEEE 754's default one; threads started later inherit it (tests/fpenv).
  fesetenv(FE_DFL_ENV);
  occupy_closed_standard_descriptors();
  // Escaped descendants of the targets this command runs come back here, and are ended with it.
  nc::become_subreaper();
  if (argc < 2) {
    print_usage(stderr);
    return kExitUsage;
  }
  std::string_view name = argv[1];
  if (name == "--version") {
    std::printf("ninfer-conform %s\nofficial corpus: manifest sha256 %s\n", nc::corpus::project_version(),
                nc::corpus::official_manifest_sha256());
    return finish_standard_output(kExitOk);
  }
  if (name == "-h" || name == "--help" || name == "help") {
    print_usage(stdout);
    return finish_standard_output(kExitOk);
  }
  if (!find_command(name)) {
    std::fprintf(stderr, "ninfer-conform: unknown command '%s' (see ninfer-conform --help)\n", argv[1]);
    return kExitUsage;
  }
  const int rc = run_command(argc - 1, argv + 1);
  nc::end_descendants();
  return finish_standard_output(rc);
}
