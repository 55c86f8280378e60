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
  void finish_suite() override { stop(); }
  std::string name() const override { return name_; }
  std::string version() const override { return version_; }

 private:
  // One line from the child, or false with *why (timeout, end of file, read error).
  bool read_line(std::string* line, std::string* why);
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
};

}  // namespace nc::runners
