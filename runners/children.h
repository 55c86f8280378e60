// The processes this runner started and must not outlive it: pipe adapters (each in its own process
// group, so that a terminal's Ctrl-C does not reach them in the middle of a batch) and the forked
// child that sweeps a plugin. On SIGINT, SIGTERM or SIGHUP the runner kills every one still
// registered, then dies of the signal as it would have; a signal the runner was started with
// ignored (nohup) stays ignored. SIGKILL runs no handler: die_with_parent and keep_shell cover it.
#pragma once

#include <sys/types.h>

namespace nc {

// `target` as kill(2) takes it: -pgid for a whole process group, pid for one process. Safe from
// any thread. A full table (more than 256 at once) only loses this clean-up for the extra ones.
void register_child(pid_t target);
// Before the child is reaped, so that a reused pid is never killed.
void unregister_child(pid_t target);

// In a child right after fork, `runner` being getpid() taken before the fork: the kernel kills
// the child (SIGKILL) when the thread that forked it ends, so that a runner killed by SIGKILL, which
// runs no handler, does not leave it running. If the runner is already gone, the child exits.
void die_with_parent(pid_t runner);

// In a child right after fork, set up as the adapter's process group leader with the adapter's
// descriptors: runs `sh -c command` as its own child and ends as that ends (same exit status or
// signal). If the runner dies first, even by SIGKILL, it kills its whole process group: the shell,
// the adapter and whatever they started (a shell does not exec its last command, so the kernel's
// parent-death signal alone would reach only the shell). Never returns.
[[noreturn]] void keep_shell(pid_t runner, const char* command);

// Whether `pid`, a child of this process, has ended, without reaping it: an unreaped child's pid
// and process group id cannot be reused, so it can still be killed and unregistered safely.
bool child_has_ended(pid_t pid);

// Makes this process the child subreaper (PR_SET_CHILD_SUBREAPER): a descendant that leaves its
// process group or session (setsid) and loses its parent is re-parented here, not to init, so
// end_descendants() can still find it. Called by main() before any command runs.
void become_subreaper();
// Kills (SIGKILL) and reaps every process still a child of this one, then the descendants that
// become its children as those die, until none is left; how many were ended. main() calls it when
// the command has returned, when every target it ran has ended: a plugin that setsid()s and
// spins, or an adapter's daemon that left its group, does not outlive the run.
size_t end_descendants();

}  // namespace nc
