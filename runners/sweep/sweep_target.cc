#include "runners/sweep/sweep_target.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <type_traits>

#include "runners/children.h"
#include "runners/sweep/pipe_table.h"
#include "runners/target.h"
#include "runners/target_factory.h"
#ifdef NC_HAVE_CODEC_PLUGIN
#include "codec/codec_plugin.h"
#endif

namespace nc::sweep {
namespace {

// The calls a plugin swept in a forked child has begun and ended, in memory the runner shares with
// the child: a call still running `timeout` seconds after the last one ended is a hang, and the
// runner ends the child (a plugin's call cannot be interrupted from inside its process).
struct CallCounts {
  std::atomic<uint64_t> begun{0}, ended{0};
};
static_assert(std::atomic<uint64_t>::is_always_lock_free, "the counts cross a fork in shared memory");

// The child's plugin table and counts: one target a process, set before its sweep runs.
const nc_plugin_v1* watched_table = nullptr;
CallCounts* watched_counts = nullptr;

// A table entry that counts its calls around the plugin's own: Counted<int (*)(A...)>::call<&field>.
template <typename Fn>
struct Counted;
template <typename... A>
struct Counted<int (*)(A...)> {
  template <int (*nc_plugin_v1::*Field)(A...)>
  static int call(A... a) {
    watched_counts->begun.fetch_add(1, std::memory_order_relaxed);
    const int rc = (watched_table->*Field)(a...);
    watched_counts->ended.fetch_add(1, std::memory_order_relaxed);
    return rc;
  }
};
template <auto Field>
void count_calls(nc_plugin_v1* t) {
  if (t->*Field) t->*Field = &Counted<std::remove_reference_t<decltype(t->*Field)>>::template call<Field>;
}

// A copy of the table whose every entry counts its calls in `counts`. A version 1 table ends
// before layout_offsets: only what its version has is read.
nc_plugin_v1 counting_table(const nc_plugin_v1& t, CallCounts* counts) {
  watched_table = &t;
  watched_counts = counts;
  nc_plugin_v1 c{};
  std::memcpy(&c, &t, t.abi_version >= 2 ? sizeof c : offsetof(nc_plugin_v1, layout_offsets));
  count_calls<&nc_plugin_v1::decode>(&c);
  count_calls<&nc_plugin_v1::validate_word>(&c);
  count_calls<&nc_plugin_v1::parse_format>(&c);
  count_calls<&nc_plugin_v1::reconstruct>(&c);
  count_calls<&nc_plugin_v1::convert>(&c);
  count_calls<&nc_plugin_v1::encode>(&c);
  count_calls<&nc_plugin_v1::validate_tensor>(&c);
  count_calls<&nc_plugin_v1::dequantize>(&c);
  count_calls<&nc_plugin_v1::layout_offsets>(&c);
  return c;
}

// Runs fn(counts) in a forked child and returns what it wrote, so a crashing plugin cannot take the
// runner down, nor a hanging one hold it: the child is killed when a call it counts in `counts`
// has not returned timeout_s seconds after the last one did. *status describes how the child ended.
bool run_isolated(const std::function<std::string(CallCounts*)>& fn, double timeout_s, std::string* text,
                  std::string* status) {
  void* shared = mmap(nullptr, sizeof(CallCounts), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) return *status = std::string("mmap: ") + std::strerror(errno), false;
  struct Unmap {
    void* p;
    ~Unmap() { munmap(p, sizeof(CallCounts)); }
  } unmap{shared};
  CallCounts* counts = new (shared) CallCounts;
  int fds[2];
  if (pipe(fds) != 0) return *status = std::string("pipe: ") + std::strerror(errno), false;
  const pid_t runner = getpid();
  pid_t pid = fork();
  if (pid < 0) return *status = std::string("fork: ") + std::strerror(errno), false;
  if (pid == 0) {
    die_with_parent(runner);
    // A crash in the child is the target's: it ends the child with its signal, which the runner
    // reports, not through a handler the runner's process had (a test framework's reports it
    // as a failure of its own).
    for (int sig : {SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGSEGV}) signal(sig, SIG_DFL);
    close(fds[0]);
    std::string out = fn(counts);
    size_t off = 0;
    while (off < out.size()) {
      ssize_t w = write(fds[1], out.data() + off, out.size() - off);
      if (w <= 0) _exit(3);
      off += size_t(w);
    }
    _exit(0);
  }
  register_child(pid);  // killed with the runner if a signal ends it
  close(fds[1]);
  // Until end of file or the child's exit, whichever comes first: a process the plugin forked holds
  // the write end as long as it lives (a daemon in a session of its own, say), and end of file
  // would wait for it. The child writes everything before it exits, so once it has exited what is
  // in the pipe is all of it.
  char buf[65536];
  bool hung = false;
  uint64_t last_ended = 0;
  using Clock = std::chrono::steady_clock;
  const auto timeout = std::chrono::duration<double>(timeout_s);
  Clock::time_point quiet_since = Clock::now();  // when a call last ended, or none was running
  for (bool exited = false;;) {
    pollfd pfd{fds[0], POLLIN, 0};
    if (!exited && poll(&pfd, 1, 100) == 0) {
      exited = child_has_ended(pid);
      if (exited) fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
      const uint64_t ended = counts->ended.load(std::memory_order_relaxed);
      if (ended != last_ended || counts->begun.load(std::memory_order_relaxed) == ended) {
        last_ended = ended, quiet_since = Clock::now();
      } else if (!hung && Clock::now() - quiet_since > timeout) {
        hung = true;
        kill(pid, SIGKILL);  // its end of the pipe closes with it
      }
      continue;
    }
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of file, or (after the exit) nothing more
    text->append(buf, size_t(n));
  }
  close(fds[0]);
  int ws = 0;
  unregister_child(pid);  // it has closed its end: it is exiting, or will be reaped below
  waitpid(pid, &ws, 0);
  if (hung) {
    *status = "the target hangs: a call had not returned " + std::to_string(int(timeout_s)) +
              " s after the last one did, and its process was killed (--timeout gives a slow target longer)";
    return false;
  }
  if (WIFSIGNALED(ws)) {
    *status = std::string("the target crashed (signal ") + strsignal(WTERMSIG(ws)) + ")";
    return false;
  }
  if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
    *status = "the target's process exited with status " + std::to_string(WEXITSTATUS(ws));
    return false;
  }
  return true;
}

struct DlHandle {
  void* handle = nullptr;
  ~DlHandle() {
    if (handle) dlclose(handle);
  }
};

// The domains a pipe target can be swept on: the word domains (binary batches) and the tensor and
// name domains (one text request per tensor or name, PIPE.md).
bool is_pipe_domain(const std::string& name) {
  return name.rfind("convert.", 0) == 0 || name.rfind("decode.", 0) == 0 || name.rfind("validate-tensor.", 0) == 0 ||
         name.rfind("parse.", 0) == 0;
}

}  // namespace

std::vector<std::string> expand_domains(const std::vector<std::string>& args, std::string* bad) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    bool any = false;
    for (const std::string& n : domain_names())
      if (a == "all" || n == a || n.rfind(a + ".", 0) == 0) {
        out.push_back(n);
        any = true;
      }
    if (!any) {
      *bad = a;
      return {};
    }
  }
  return out;
}

bool sweep_target(const std::string& target_spec, const std::vector<std::string>& domains, const Options& opts,
                  double timeout_s, std::vector<Outcome>* out, std::string* why) {
  const std::string spec = runners::named_plugin_target(target_spec);
  const nc_plugin_v1* table = nullptr;
  DlHandle dl;
  bool isolate = false, pipe = false;
  Options options = opts;
  runners::TableCalls calls;
  if (const nc_plugin_v1* registered = runners::registered_table_target(spec, &calls)) {
    table = registered;  // in process, as cpu (the Python module's targets)
    if (calls.sweep_batch) options.calls.batch = calls.sweep_batch;
    options.calls.convert_words = calls.convert_words;
  } else if (spec == "cpu") {
#ifdef NC_HAVE_CODEC_PLUGIN
    table = nc_codec_plugin_table();
#else
    return *why = "this build has no codec (target cpu)", false;
#endif
  } else if (spec.rfind("plugin:", 0) == 0) {
    std::string path = spec.substr(7);
    dl.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    auto entry = dl.handle ? reinterpret_cast<nc_plugin_entry_v1>(dlsym(dl.handle, NC_PLUGIN_ENTRY_SYMBOL)) : nullptr;
    table = entry ? entry() : nullptr;
    if (!table || table->abi_version < NC_PLUGIN_ABI_VERSION_MIN || table->abi_version > NC_PLUGIN_ABI_VERSION)
      return *why = path + " is not a ninfer-conform plugin (ABI " + std::to_string(NC_PLUGIN_ABI_VERSION_MIN) +
                    " to " + std::to_string(NC_PLUGIN_ABI_VERSION) +
                    "): " + (dl.handle ? "entry point missing or wrong version" : dlerror()),
             false;
    isolate = true;
  } else if (spec.rfind("pipe:", 0) == 0) {
    for (const std::string& d : domains)
      if (!is_pipe_domain(d))
        return *why = "a pipe target sweeps the convert.*, decode.*, validate-tensor.* and parse.* domains only, not " +
                      d + " (replay covers the rest)",
               false;
    table = pipe_table(spec.substr(5), timeout_s, why);
    if (!table) return false;
    pipe = true;
  } else {
    return *why = "target '" + spec + "' cannot be swept (use cpu, cuda, plugin:PATH.so or pipe:COMMAND)", false;
  }

  for (const std::string& name : domains) {
    auto d = make_domain(name);
    Outcome outcome{name, std::nullopt, ""};
    if (isolate) {
      std::string json, status, err;
      auto work = [&](CallCounts* counts) {
        const nc_plugin_v1 counting = counting_table(*table, counts);
        return to_json(run(*d, counting, spec, options));
      };
      Report r;
      if (!run_isolated(work, timeout_s, &json, &status)) outcome.failure = status;
      else if (!from_json(json, &r, &err)) outcome.failure = "the target's process returned no report: " + err;
      else outcome.report = std::move(r);
    } else {
      outcome.report = run(*d, *table, spec, options);
      std::string adapter_error = pipe ? take_pipe_table_error() : "";
      if (!adapter_error.empty()) outcome.report->tally.target_error += ": " + adapter_error;
    }
    out->push_back(std::move(outcome));
  }
  return true;
}

}  // namespace nc::sweep
