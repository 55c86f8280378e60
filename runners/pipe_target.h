// A target behind the pipe protocol: a child process started through /bin/sh -c, fed request lines
// on stdin and read with poll() under a timeout. Death, silence, lies (wrong token count, malformed
// line) and a protocol out of step (output no request asked for, a second answer) become
// Response::Kind::Dead with a one-line reason; the runner never dies or hangs with it. Every request
// is bounded by the timeout as a whole: writing it, reading its line and any binary payload. The
// child's stderr is read too and repeated on the runner's, line by line, through printable().
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "runners/target.h"

namespace nc::runners {

class PipeTarget final : public Target {
 public:
  PipeTarget(std::string command, double timeout_s) : command_(std::move(command)), timeout_s_(timeout_s) {}
  ~PipeTarget() override;
  bool start(std::string* why) override;
  Response call(const Request& r) override;
  std::string finish_suite() override;
  std::string name() const override { return name_; }
  std::string version() const override { return version_; }
  // `info 1` -> `ok KEY=VALUE...` (printable); "" for `unsupported`, an error or no answer.
  std::string info() override;

  // Binary batches (PIPE.md): whether the adapter accepts them; asked once per process, after
  // hello, with `binary 1`.
  bool binary();
  // Sends the request line `header` and `bytes` of payload; on `ok` reads reply_bytes into reply.
  // Ok with no tokens, Unsupported, Error or Dead, as call().
  Response call_binary(const std::string& header, const void* payload, size_t bytes, void* reply, size_t reply_bytes);

 private:
  // One round of I/O until the deadline: waits until the child's output can be read or, while
  // *written < out.size(), its input written; then reads (stderr is forwarded) and writes what it
  // can. Reading while writing keeps an adapter that answers before reading a whole request from
  // deadlocking both sides. false with *why on timeout, end of output or an I/O error.
  bool step(double deadline, std::string_view out, size_t* written, std::string* why);
  // Writes s to the child before the deadline.
  bool write_all(const std::string& s, double deadline, std::string* why);
  // One line from the child before the deadline, or false with *why. The line is printable().
  bool read_line(std::string* line, double deadline, std::string* why);
  // Exactly n bytes from the child (after what read_line buffered) before the deadline.
  bool read_bytes(void* dst, size_t n, double deadline, std::string* why);
  // Sends a request and reads its answer line; false with *why when the child dies, hangs, or the
  // protocol is out of step (output before the request, or more than one line after it).
  bool exchange(const std::string& request, std::string* line, double deadline, bool payload_follows, std::string* why);
  // Nothing unread from the child: false with *why naming what it wrote that nobody asked for.
  bool in_step(std::string* why);
  // Repeats complete stderr lines (all of it when flush), printable(), on the runner's stderr.
  void forward_stderr(bool flush);
  // An answer line that is not `ok`: Unsupported, Error, or Dead for a malformed line.
  Response non_ok(const std::string& line);
  void stop();
  // Kills the child after a failure and reports why, with the child's exit status if it has one.
  Response dead(const std::string& why);
  // The answer to a call that finds no adapter, naming what ended the last one.
  Response not_running() const;

  std::string command_;
  double timeout_s_;
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1, err_from_child_ = -1;
  std::string buffer_, err_buffer_;
  uint64_t err_shown_ = 0;              // bytes of the adapters' stderr repeated, restarts included
  uint64_t err_dropped_ = 0;            // past the cap since the last adapter process ended
  std::unique_ptr<char[]> read_chunk_;  // what step() reads the adapter's output into
  std::string name_, version_;
  int binary_ = -1;      // -1 not asked yet, 0 no, 1 yes
  std::string died_of_;  // why dead() last ended the adapter: a later call names it
};

}  // namespace nc::runners
