#include "runners/pipe_target.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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
}  // namespace

PipeTarget::~PipeTarget() { stop(); }

bool PipeTarget::start(std::string* why) {
  if (pid_ > 0) return true;
  // A write to a dead adapter must be an error return, not a SIGPIPE that kills the runner.
  signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) return *why = std::string("pipe: ") + strerror(errno), false;
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]), close(in[1]);
    return *why = std::string("pipe: ") + strerror(errno), false;
  }
  pid_t pid = fork();
  if (pid < 0) {
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    return *why = std::string("fork: ") + strerror(errno), false;
  }
  if (pid == 0) {
    // Its own process group, so a hung adapter and everything the shell started die together.
    setpgid(0, 0);
    dup2(in[0], 0);
    dup2(out[1], 1);
    execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group exists before any kill
  close(in[0]);
  close(out[1]);
  pid_ = pid;
  to_child_ = in[1];
  from_child_ = out[0];
  buffer_.clear();
  std::string line;
  if (!write_all("hello 1\n", why) || !read_line(&line, why)) {
    *why = "adapter '" + command_ + "' did not answer hello: " + *why;
    stop();
    return false;
  }
  auto t = split(line, ' ');
  if (t.size() != 3 || t[0] != "ok") {
    *why = "adapter '" + command_ + "' answered hello with '" + line.substr(0, 80) + "'";
    stop();
    return false;
  }
  name_ = t[1];
  version_ = t[2];
  return true;
}

bool PipeTarget::write_all(const std::string& s, std::string* why) {
  size_t done = 0;
  while (done < s.size()) {
    ssize_t n = write(to_child_, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return *why = std::string("write to adapter failed: ") + strerror(errno), false;
    done += size_t(n);
  }
  return true;
}

bool PipeTarget::fill(double deadline, std::string* why) {
  for (;;) {
    double left = deadline - now_s();
    if (left <= 0) return *why = "no answer within " + std::to_string(int(timeout_s_)) + " s (hang)", false;
    pollfd pfd{from_child_, POLLIN, 0};
    int r = poll(&pfd, 1, int(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return *why = std::string("poll: ") + strerror(errno), false;
    if (r == 0) continue;
    char chunk[65536];
    ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return *why = "adapter closed its output", false;
    buffer_.append(chunk, size_t(n));
    return true;
  }
}

bool PipeTarget::read_line(std::string* line, std::string* why) {
  const double deadline = now_s() + timeout_s_;
  for (;;) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      *line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return true;
    }
    if (!fill(deadline, why)) return false;
  }
}

bool PipeTarget::read_bytes(void* dst, size_t n, std::string* why) {
  const double deadline = now_s() + timeout_s_;
  while (buffer_.size() < n)
    if (!fill(deadline, why)) return false;
  std::memcpy(dst, buffer_.data(), n);
  buffer_.erase(0, n);
  return true;
}

void PipeTarget::stop() {
  binary_ = -1;
  if (pid_ <= 0) return;
  close(to_child_);
  close(from_child_);
  to_child_ = from_child_ = -1;
  // Give a well-behaved adapter a moment to exit on end of input, then kill it.
  int status;
  for (int i = 0; i < 20; ++i) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      kill(-pid_, SIGKILL);  // anything the adapter left behind in its group
      return void(pid_ = -1);
    }
    usleep(5000);
  }
  kill(-pid_, SIGKILL);
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

Response PipeTarget::dead(const std::string& why) {
  Response r;
  r.kind = Response::Kind::Dead;
  r.message = why;
  int status;
  if (pid_ > 0 && waitpid(pid_, &status, WNOHANG) == pid_) {
    r.message += " (adapter " + describe_status(status) + ")";
    kill(-pid_, SIGKILL);
    pid_ = -1;
    close(to_child_);
    close(from_child_);
  }
  stop();
  return r;
}

Response PipeTarget::call(const Request& req) {
  std::string why;
  if (pid_ <= 0) return dead("adapter is not running");
  std::string line;
  if (!write_all(request_line(req) + "\n", &why) || !read_line(&line, &why)) {
    // Let a crashing child finish dying so the reason can name its signal.
    usleep(20000);
    return dead(why);
  }
  if (line.rfind("ok", 0) != 0 || (line.size() > 2 && line[2] != ' ')) return non_ok(line);
  Response r;
  if (line.size() > 3)
    for (std::string_view t : split(std::string_view(line).substr(3), ' ')) r.tokens.emplace_back(t);
  if (r.tokens.size() != req.elements.size())
    return dead("wrong token count: sent " + std::to_string(req.elements.size()) + " elements, got " +
                std::to_string(r.tokens.size()) + " tokens");
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
  return dead("malformed response '" + line.substr(0, 60) + "'");
}

bool PipeTarget::binary() {
  if (binary_ < 0 && pid_ > 0) {
    std::string line, why;
    if (!write_all("binary 1\n", &why) || !read_line(&line, &why)) {
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
  if (pid_ <= 0) return dead("adapter is not running");
  std::string message = header + "\n";
  message.append(static_cast<const char*>(payload), bytes);
  if (!write_all(message, &why) || !read_line(&line, &why)) {
    usleep(20000);
    return dead(why);
  }
  if (line != "ok") return non_ok(line);
  if (!read_bytes(reply, reply_bytes, &why)) {
    usleep(20000);
    return dead("binary answer to '" + header + "' cut short: " + why);
  }
  return Response{};
}

}  // namespace nc::runners
