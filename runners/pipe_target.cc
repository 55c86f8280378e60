#include "runners/pipe_target.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "runners/children.h"
#include "runners/printable.h"
#include "runners/tokens.h"

namespace nc::runners {
namespace {
double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "stopped";
}

constexpr const char* kClosedOutput = "adapter closed its output";
// A stderr line longer than this is repeated in pieces, so a flood without newlines cannot grow
// the runner's memory.
constexpr size_t kStderrLineCap = 4096;
// What one target (its adapter processes, restarts included) may have repeated of their stderr in
// all; the rest is counted, so that a chatty adapter cannot bury the run's own output (or a CI log).
constexpr uint64_t kStderrCap = uint64_t(1) << 20;
// The capacity asked for each pipe to the adapter (Linux's unprivileged maximum by default), and so
// the most one read takes from it.
constexpr int kPipeBytes = 1 << 20;
// The longest answer line taken: a thousand times the longest a real answer reaches (4096
// elements of a few bytes, or one dequantized tensor), so that an adapter writing without end
// is a lying adapter within a second, not a runner out of memory before the timeout.
constexpr size_t kAnswerLineCap = size_t(64) << 20;
// What a protocol error quotes of the child's output: its first line, at most 60 bytes, escaped
// (quote) or, for a line read_line has escaped already, as it is (quote_line), never escaped twice.
// (Built piece by piece: GCC 12 -O3 warns, falsely, -Wrestrict on "'" + std::string.)
std::string quote_line(std::string_view line) {
  std::string q(1, '\'');
  q += line.substr(0, 60);
  q += '\'';
  return q;
}
std::string quote(std::string_view raw) {
  return quote_line(printable(raw.substr(0, std::min<size_t>(60, raw.find('\n')))));
}
}  // namespace

PipeTarget::~PipeTarget() { stop(); }

bool PipeTarget::start(std::string* why) {
  if (pid_ > 0) return true;
  // A write to a dead adapter must be an error return, not a SIGPIPE that kills the runner.
  signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) return *why = std::string("pipe: ") + strerror(errno), false;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    return *why = std::string("pipe: ") + strerror(errno), false;
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    return *why = std::string("pipe: ") + strerror(errno), false;
  }
  const pid_t runner = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(err[0]), close(err[1]);
    return *why = std::string("fork: ") + strerror(errno), false;
  }
  if (pid == 0) {
    // Its own process group, so a hung adapter and everything the shell started die together.
    setpgid(0, 0);
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    keep_shell(runner, command_.c_str());
  }
  setpgid(pid, pid);     // also from the parent, so the group exists before any kill
  register_child(-pid);  // killed with the runner if a signal ends it
  close(in[0]);
  close(out[1]);
  close(err[1]);
  // Writes never block: step() waits for room under the deadline instead.
  fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
  // Room for a whole binary batch each way where the system allows it (64 KiB by default: a 1 MiB
  // batch would take 16 wake-ups of each side); a refusal leaves the default, which only costs time.
  fcntl(in[1], F_SETPIPE_SZ, kPipeBytes);
  fcntl(out[0], F_SETPIPE_SZ, kPipeBytes);
  pid_ = pid;
  to_child_ = in[1];
  from_child_ = out[0];
  err_from_child_ = err[0];
  buffer_.clear();
  err_buffer_.clear();
  std::string line;
  if (!exchange("hello 1\n", &line, now_s() + timeout_s_, false, why)) {
    *why = "adapter '" + command_ + "' did not answer hello: " + *why;
    stop();
    return false;
  }
  auto t = split(line, ' ');
  if (t.size() != 3 || t[0] != "ok") {
    *why = "adapter '" + command_ + "' answered hello with " + quote_line(line);
    stop();
    return false;
  }
  name_ = t[1];
  version_ = t[2];
  died_of_.clear();
  return true;
}

bool PipeTarget::step(double deadline, std::string_view out, size_t* written, std::string* why) {
  const bool writing = written && *written < out.size();
  for (;;) {
    double left = deadline - now_s();
    if (left <= 0)
      return *why = "no answer within " + std::to_string(int(timeout_s_)) + " s (hang" +
                    (writing ? ": the adapter stopped reading its input)" : ")"),
             false;
    pollfd pfd[3] = {{from_child_, POLLIN, 0}, {err_from_child_, POLLIN, 0}, {writing ? to_child_ : -1, POLLOUT, 0}};
    int r = poll(pfd, 3, int(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return *why = std::string("poll: ") + strerror(errno), false;
    if (r == 0) continue;
    char chunk[65536];
    if (pfd[1].revents) {
      ssize_t n = read(err_from_child_, chunk, sizeof chunk);
      if (n > 0) {
        err_buffer_.append(chunk, size_t(n));
        forward_stderr(false);
      } else if (n == 0 || errno != EINTR) {
        forward_stderr(true);
        close(err_from_child_);
        err_from_child_ = -1;  // poll ignores a negative fd
      }
    }
    if (pfd[2].revents) {
      ssize_t n = write(to_child_, out.data() + *written, out.size() - *written);
      if (n < 0 && errno != EINTR && errno != EAGAIN)
        return *why = std::string("write to adapter failed: ") + strerror(errno), false;
      if (n > 0) *written += size_t(n);
    }
    if (pfd[0].revents) {
      if (!read_chunk_) read_chunk_ = std::make_unique<char[]>(kPipeBytes);
      ssize_t n = read(from_child_, read_chunk_.get(), kPipeBytes);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return *why = kClosedOutput, false;
      buffer_.append(read_chunk_.get(), size_t(n));
    }
    if (pfd[0].revents || pfd[2].revents) return true;
  }
}

void PipeTarget::forward_stderr(bool flush) {
  for (;;) {
    size_t nl = err_buffer_.find('\n');
    if (nl == std::string::npos && err_buffer_.size() < kStderrLineCap && !(flush && !err_buffer_.empty())) return;
    const size_t n = std::min(nl == std::string::npos ? err_buffer_.size() : nl, kStderrLineCap);
    if (err_shown_ < kStderrCap)
      std::fprintf(stderr, "[target stderr] %s\n", printable(std::string_view(err_buffer_).substr(0, n)).c_str());
    (err_shown_ < kStderrCap ? err_shown_ : err_dropped_) += n + 1;
    err_buffer_.erase(0, n + (n == nl ? 1 : 0));
  }
}

bool PipeTarget::write_all(const std::string& s, double deadline, std::string* why) {
  size_t written = 0;
  while (written < s.size())
    if (!step(deadline, s, &written, why)) return false;
  return true;
}

bool PipeTarget::read_line(std::string* line, double deadline, std::string* why) {
  for (size_t searched = 0;;) {  // bytes of buffer_ known to hold no newline
    size_t nl = buffer_.find('\n', searched);
    if (nl != std::string::npos) {
      *line = printable(std::string_view(buffer_).substr(0, nl));
      buffer_.erase(0, nl + 1);
      return true;
    }
    searched = buffer_.size();
    if (searched > kAnswerLineCap)
      return *why = "answer line longer than " + std::to_string(kAnswerLineCap) + " bytes without a newline (starts " +
                    quote(buffer_) + ")",
             false;
    if (!step(deadline, {}, nullptr, why)) return false;
  }
}

bool PipeTarget::read_bytes(void* dst, size_t n, double deadline, std::string* why) {
  while (buffer_.size() < n)
    if (!step(deadline, {}, nullptr, why)) return false;
  std::memcpy(dst, buffer_.data(), n);
  buffer_.erase(0, n);
  return true;
}

bool PipeTarget::in_step(std::string* why) {
  pollfd pfd{from_child_, POLLIN, 0};
  if (buffer_.empty() && poll(&pfd, 1, 0) == 1) {
    char chunk[4096];
    ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n == 0) return *why = kClosedOutput, false;
    if (n > 0) buffer_.append(chunk, size_t(n));
  }
  if (buffer_.empty()) return true;
  *why = "protocol out of step: the adapter wrote " + quote(buffer_) +
         " that no request asked for (a second answer to the previous request, or output of its own)";
  return false;
}

std::string PipeTarget::finish_suite() {
  if (pid_ <= 0) return {};  // died in the suite: reported there, and start() makes a fresh one
  // The adapter stays for the next suite (an interpreter started per suite costs more than most
  // suites). Whether it wrote anything no request asked for, a second answer to the suite's last
  // request say, is asked by a fresh hello: such output is found before the hello is sent, or is
  // the line read in place of its answer. A problem ends the process; the next suite starts a new one.
  std::string line, why;
  std::string problem;
  if (!exchange("hello 1\n", &line, now_s() + timeout_s_, false, &why)) problem = why;
  else if (line != "ok " + name_ + " " + version_)
    problem = "protocol out of step: the adapter wrote " + quote_line(line) + " after its last answer";
  if (!problem.empty()) stop();
  return problem;
}

bool PipeTarget::exchange(const std::string& request, std::string* line, double deadline, bool payload_follows,
                          std::string* why) {
  if (!in_step(why) || !write_all(request, deadline, why) || !read_line(line, deadline, why)) return false;
  if (payload_follows || buffer_.empty()) return true;
  *why = "protocol out of step: more than one line answered one request (then " + quote(buffer_) + ")";
  return false;
}

void PipeTarget::stop() {
  binary_ = -1;
  if (from_child_ < 0) return;
  close(to_child_);
  close(from_child_);
  to_child_ = from_child_ = -1;
  if (pid_ > 0) {
    // Give a well-behaved adapter a moment to exit on end of input, then kill it. It is reaped
    // last, so that its group id cannot have been reused when the group is killed and unregistered.
    for (int i = 0; i < 20 && !child_has_ended(pid_); ++i) usleep(5000);
    kill(-pid_, SIGKILL);  // the adapter, or anything it left behind in its group
    unregister_child(-pid_);
    int status;
    waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  // What the adapter wrote to stderr before it went; a descendant holding the pipe open must not
  // keep the runner here, so only what is already there is read.
  if (err_from_child_ >= 0) {
    fcntl(err_from_child_, F_SETFL, fcntl(err_from_child_, F_GETFL) | O_NONBLOCK);
    char chunk[65536];
    for (ssize_t n; (n = read(err_from_child_, chunk, sizeof chunk)) > 0;) {
      err_buffer_.append(chunk, size_t(n));
      forward_stderr(false);
    }
    forward_stderr(true);
    close(err_from_child_);
    err_from_child_ = -1;
  }
  if (err_dropped_)
    std::fprintf(stderr, "[target stderr] ... %llu more bytes not shown (at most %llu per target)\n",
                 static_cast<unsigned long long>(err_dropped_), static_cast<unsigned long long>(kStderrCap));
  err_dropped_ = 0;
}

Response PipeTarget::dead(const std::string& why) {
  Response r;
  r.kind = Response::Kind::Dead;
  r.message = why;
  if (pid_ > 0 && child_has_ended(pid_)) {
    kill(-pid_, SIGKILL);  // what it left behind in its group
    unregister_child(-pid_);
    int status;
    waitpid(pid_, &status, 0);
    r.message += " (adapter " + describe_status(status) + ")";
    pid_ = -1;  // reaped: stop() closes the pipes without waiting for it again
  }
  stop();
  died_of_ = r.message;
  return r;
}

Response PipeTarget::not_running() const {
  Response r;
  r.kind = Response::Kind::Dead;
  r.message = died_of_.empty() ? "adapter is not running" : "adapter is not running: it failed earlier, " + died_of_;
  return r;
}

Response PipeTarget::call(const Request& req) {
  std::string why;
  if (pid_ <= 0) return not_running();
  std::string line;
  if (!exchange(request_line(req) + "\n", &line, now_s() + timeout_s_, false, &why)) {
    // Let a crashing child finish dying so the reason can name its signal.
    usleep(20000);
    return dead(why);
  }
  if (line.rfind("ok", 0) != 0 || (line.size() > 2 && line[2] != ' ')) return non_ok(line);
  Response r;
  r.line = std::move(line);
  r.index_tokens();
  if (r.token_count() != req.count)
    return dead("wrong token count: sent " + std::to_string(req.count) + " elements, got " +
                std::to_string(r.token_count()) + " tokens");
  return r;
}

Response PipeTarget::non_ok(const std::string& line) {
  Response r;
  if (line == "unsupported") return r.kind = Response::Kind::Unsupported, r;
  if (line.rfind("error", 0) == 0 && (line.size() == 5 || line[5] == ' ')) {
    r.kind = Response::Kind::Error;
    r.message = line.size() > 6 ? line.substr(6) : "error";
    return r;
  }
  return dead("malformed response " + quote_line(line));
}

std::string PipeTarget::info() {
  std::string line, why;
  if (pid_ <= 0 || !exchange("info 1\n", &line, now_s() + timeout_s_, false, &why)) return {};
  if (line.rfind("ok ", 0) != 0) return {};  // unsupported (an adapter of before `info`), error
  return printable(line.substr(3));
}

bool PipeTarget::binary() {
  if (binary_ < 0 && pid_ > 0) {
    std::string line, why;
    if (!exchange("binary 1\n", &line, now_s() + timeout_s_, false, &why)) {
      usleep(20000);  // as in call(): a dying adapter's status names how it ended
      dead(why);
      return false;
    }
    binary_ = line == "ok";
  }
  return binary_ == 1;
}

Response PipeTarget::call_binary(const std::string& header, const void* payload, size_t bytes, void* reply,
                                 size_t reply_bytes) {
  std::string why, line;
  if (pid_ <= 0) return not_running();
  const double deadline = now_s() + timeout_s_;
  std::string message = header + "\n";
  message.append(static_cast<const char*>(payload), bytes);
  if (!exchange(message, &line, deadline, true, &why)) {
    usleep(20000);
    return dead(why);
  }
  if (line != "ok") {
    if (!buffer_.empty()) return dead("protocol out of step: more than one line answered '" + header + "'");
    return non_ok(line);
  }
  if (!read_bytes(reply, reply_bytes, deadline, &why)) {
    usleep(20000);
    return dead("binary answer to '" + header + "' cut short: " + why);
  }
  if (!buffer_.empty()) return dead("protocol out of step: more output after the binary answer to '" + header + "'");
  return Response{};
}

}  // namespace nc::runners
