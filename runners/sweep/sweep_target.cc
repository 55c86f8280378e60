#include "runners/sweep/sweep_target.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>

#include "runners/children.h"
#include "runners/sweep/pipe_table.h"
#include "runners/target.h"
#include "runners/target_factory.h"
#ifdef NC_HAVE_CODEC_PLUGIN
#include "codec/codec_plugin.h"
#endif

namespace nc::sweep {
namespace {

// Runs fn in a forked child and returns what it wrote, so a crashing plugin cannot take the
// runner down; *status describes how the child ended.
bool run_isolated(const std::function<std::string()>& fn, std::string* text, std::string* status) {
  int fds[2];
  if (pipe(fds) != 0) return *status = std::string("pipe: ") + std::strerror(errno), false;
  const pid_t runner = getpid();
  pid_t pid = fork();
  if (pid < 0) return *status = std::string("fork: ") + std::strerror(errno), false;
  if (pid == 0) {
    die_with_parent(runner);
    close(fds[0]);
    std::string out = fn();
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
  for (bool exited = false;;) {
    pollfd pfd{fds[0], POLLIN, 0};
    if (!exited && poll(&pfd, 1, 100) == 0) {
      exited = child_has_ended(pid);
      if (exited) fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
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
                  double pipe_timeout_s, std::vector<Outcome>* out, std::string* why) {
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
    table = pipe_table(spec.substr(5), pipe_timeout_s, why);
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
      auto work = [&] { return to_json(run(*d, *table, spec, options)); };
      Report r;
      if (!run_isolated(work, &json, &status)) outcome.failure = status;
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
