// A target behind the pipe protocol: a child process started through /bin/sh -c, fed request lines
// on stdin and read with poll() under a timeout. Death, silence and lies (wrong token count,
// malformed line) become Response::Kind::Dead with a one-line reason; the runner never dies with it.
#pragma once

#include <sys/types.h>

#include <string>

#include "runners/target.h"

namespace nc::runners {

class PipeTarget final : public Target {
 public:
  PipeTarget(std::string command, double timeout_s) : command_(std::move(command)), timeout_s_(timeout_s) {}
  ~PipeTarget() override;
  bool start(std::string* why) override;
  Response call(const Request& r) override;
  std::string name() const override { return name_; }
  std::string version() const override { return version_; }

  // Binary batches (PIPE.md): whether the adapter accepts them; asked once per process, after
  // hello, with `binary 1`.
  bool binary();
  // Sends the request line `header` and `bytes` of payload; on `ok` reads reply_bytes into reply.
  // Ok with no tokens, Unsupported, Error or Dead, as call().
  Response call_binary(const std::string& header, const void* payload, size_t bytes, void* reply,
                       size_t reply_bytes);

 private:
  // One line from the child, or false with *why (timeout, end of file, read error).
  bool read_line(std::string* line, std::string* why);
  // Exactly n bytes from the child (after what read_line buffered), under the same timeout.
  bool read_bytes(void* dst, size_t n, std::string* why);
  // Fills buffer_ with what the child has written, waiting until the deadline; false with *why.
  bool fill(double deadline, std::string* why);
  // An answer line that is not `ok`: Unsupported, Error, or Dead for a malformed line.
  Response non_ok(const std::string& line);
  bool write_all(const std::string& s, std::string* why);
  void stop();
  // Kills the child after a failure and reports why, with the child's exit status if it has one.
  Response dead(const std::string& why);

  std::string command_;
  double timeout_s_;
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
  std::string name_, version_;
  int binary_ = -1;  // -1 not asked yet, 0 no, 1 yes
};

}  // namespace nc::runners
