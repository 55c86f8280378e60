// The processes this runner started and must not outlive it: pipe adapters (each in its own process
// group, so that a terminal's Ctrl-C does not reach them in the middle of a batch) and the forked
// child that sweeps a plugin. On SIGINT, SIGTERM or SIGHUP the runner kills every one still
// registered, then dies of the signal as it would have; a signal the runner was started with
// ignored (nohup) stays ignored.
#pragma once

#include <sys/types.h>

namespace nc {

// `target` as kill(2) takes it: -pgid for a whole process group, pid for one process. Safe from
// any thread. A full table (more than 256 at once) only loses this clean-up for the extra ones.
void register_child(pid_t target);
// Before the child is reaped, so that a reused pid is never killed.
void unregister_child(pid_t target);

}  // namespace nc
