// Sweeping a target named by its spec, as `sweep` and `certify --sweep` do: `cpu` in process,
// `plugin:PATH.so` (and `cuda`, `cuda-fastmath`) in a forked child per domain (a crash or a
// hang costs that domain, not the run), and `pipe:COMMAND` through pipe_table (its adapters are
// processes of their own).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runners/sweep/sweep.h"

namespace nc::sweep {

struct Outcome {
  std::string domain;
  std::optional<Report> report;  // nullopt: the target's process died before reporting
  std::string failure;           // why there is no report
};

// Sweeps each domain in turn. timeout_s: how long a pipe adapter may take to answer a batch, and
// a plugin's call to return (after the last one did), before it counts as hung. Returns false
// with *why, sweeping nothing, when the spec cannot be swept: an unknown form, a plugin that does
// not load, an adapter that does not answer hello, or a domain other than convert.*, decode.*,
// validate-tensor.* and parse.* for a pipe target.
bool sweep_target(const std::string& spec, const std::vector<std::string>& domains, const Options& opts,
                  double timeout_s, std::vector<Outcome>* out, std::string* why);

// Domain names for arguments that are domain names, a family (`convert`, `decode`, ...) or `all`;
// empty with *bad set to the first argument that names nothing.
std::vector<std::string> expand_domains(const std::vector<std::string>& args, std::string* bad);

}  // namespace nc::sweep
