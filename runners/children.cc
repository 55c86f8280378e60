#include "runners/children.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <vector>

namespace nc {
namespace {

constexpr int kSlots = 256;
// 0 is a free slot. Lock-free atomics: the signal handler reads them.
std::atomic<pid_t> g_children[kSlots];
static_assert(std::atomic<pid_t>::is_always_lock_free);

// Only async-signal-safe calls: kill, sigaction, raise.
void kill_children_and_die(int sig) {
  for (auto& slot : g_children)
    if (pid_t target = slot.load(); target != 0) kill(target, SIGKILL);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, nullptr);
  raise(sig);  // delivered when the handler returns: the runner ends as the signal would have ended it
}

void install_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = kill_children_and_die;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
}

}  // namespace

std::atomic<bool> g_ever_registered{false};

void register_child(pid_t target) {
  g_ever_registered = true;
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  for (auto& slot : g_children) {
    pid_t free_slot = 0;
    if (slot.compare_exchange_strong(free_slot, target)) return;
  }
}

void unregister_child(pid_t target) {
  for (auto& slot : g_children) {
    pid_t mine = target;
    if (slot.compare_exchange_strong(mine, 0)) return;
  }
}

void die_with_parent(pid_t runner) {
#if defined(__linux__)
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != runner) _exit(127);
#else
  (void)runner;
#endif
}

namespace {
void kill_own_group(int) { kill(0, SIGKILL); }
}  // namespace

void keep_shell(pid_t runner, const char* command) {
  // Only async-signal-safe calls from here: the runner may have had other threads when it forked.
  // The runner's handlers are not the keeper's (they would kill the runner's other children).
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) signal(sig, SIG_DFL);
  }
  // Every descriptor but the adapter's three: an inherited write end of its own input pipe (or of
  // another adapter's) held open here would keep it from ever seeing end of input.
  if (close_range(3, ~0U, 0) != 0) {
    rlimit open_files{};
    getrlimit(RLIMIT_NOFILE, &open_files);
    for (rlim_t fd = 3; fd < open_files.rlim_cur; ++fd) close(int(fd));
  }
  struct sigaction on_death {
  }, hangup{};
  on_death.sa_handler = kill_own_group;
  sigemptyset(&on_death.sa_mask);
  sigaction(SIGHUP, &on_death, &hangup);
#if defined(__linux__)
  prctl(PR_SET_PDEATHSIG, SIGHUP);
#endif
  if (getppid() != runner) kill_own_group(0);
  const pid_t shell = fork();
  if (shell < 0) _exit(127);
  if (shell == 0) {
    sigaction(SIGHUP, &hangup, nullptr);  // as the runner had it (ignored under nohup)
    execl("/bin/sh", "sh", "-c", command, static_cast<char*>(nullptr));
    _exit(127);
  }
  // The adapter's pipes are the shell's alone: its end of input and its output are not held open here.
  close(0), close(1), close(2);
  int status = 0;
  while (waitpid(shell, &status, 0) < 0)
    if (errno != EINTR) _exit(127);
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  signal(WTERMSIG(status), SIG_DFL);
  kill(getpid(), WTERMSIG(status));
  _exit(128 + WTERMSIG(status));
}

void become_subreaper() {
#if defined(__linux__)
  prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
}

namespace {
// This process's children, from /proc/self/task/*/children (Linux 3.5 and later).
std::vector<pid_t> own_children() {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream in(task.path() / "children");
    for (long pid; in >> pid;) out.push_back(pid_t(pid));
  }
  return out;
}
}  // namespace

size_t end_descendants() {
  size_t ended = 0;
  bool waited = false;
  for (int round = 0; round < 1000; ++round) {
    const std::vector<pid_t> children = own_children();
    if (children.empty() && !waited && g_ever_registered) {
      // A group killed a moment ago may still be exiting: its escaped members come here as it ends.
      waited = true;
      usleep(20000);
      continue;
    }
    if (children.empty()) break;
    for (pid_t pid : children) kill(pid, SIGKILL);
    // Once a child is reaped, its own children are this process's (the subreaper's).
    for (pid_t pid : children)
      if (waitpid(pid, nullptr, 0) == pid) ++ended;
  }
  return ended;
}

bool child_has_ended(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

}  // namespace nc
