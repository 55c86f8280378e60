// Target construction: a target spec from the command line ("cpu", "cuda", "pipe:COMMAND",
// "plugin:PATH.so") made into a Target (runners/target.h). Kept apart from the interface, which the
// replay engine and the verdicts use without knowing how a target is started.
#pragma once

#include <memory>
#include <string>

#include "runners/table_calls.h"
#include "runners/target.h"

namespace nc::runners {

struct TargetOptions {
  double timeout_s = 10;    // per response, for pipe and plugin targets
  std::string plugin_host;  // the ninfer-conform executable that runs `plugin-host PATH.so`
};

// "cpu" (when the codec plugin table is built in), "pipe:COMMAND", "plugin:PATH.so". The plugin
// form runs `<plugin_host> plugin-host PATH.so` as a pipe target, so a crash or hang in the plugin
// costs it a suite, never the run. nullptr and *why on a bad spec.
std::unique_ptr<Target> make_target(const std::string& spec, const TargetOptions& options, std::string* why);
// "cuda" and "cuda-fastmath" as the plugin:PATH of the CUDA plugins this build made (kernels/);
// any other spec unchanged.
std::string named_plugin_target(const std::string& spec);
// The in-process target over an ABI table (the `cpu` target; tests wrap their own tables).
std::unique_ptr<Target> make_abi_target(const nc_plugin_v1* table);
// In-process ABI tables made at run time and named by a spec of their own (the Python module's
// "python:NAME" targets, python/): while registered, make_target() and sweep::sweep_target() take
// the spec to that table, driven in this process like `cpu`. nullptr unregisters. The caller keeps
// the table alive while it is registered. calls: what it asks of a sweep (runners/table_calls.h).
void register_table_target(const std::string& spec, const nc_plugin_v1* table, const TableCalls& calls = {});
// The table registered under spec (nullptr: none), and its calls where asked.
const nc_plugin_v1* registered_table_target(const std::string& spec, TableCalls* calls = nullptr);
// Quotes s for /bin/sh.
std::string shell_quote(const std::string& s);

}  // namespace nc::runners
