#include "runners/children.h"

#include <signal.h>

#include <atomic>
#include <mutex>

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

void register_child(pid_t target) {
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

}  // namespace nc
