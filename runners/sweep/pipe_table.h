// A pipe adapter (runners/PIPE.md) seen as an ABI table, so the word domains (convert.*, decode.*)
// can sweep it like a plugin. Batches travel in the binary framing when the adapter accepts it,
// else as text requests. Each calling thread talks to an adapter process of its own, so
// `--jobs N` runs N adapters side by side.
#pragma once

#include <string>

#include "ninfer_conform/plugin.h"

namespace nc::sweep {

// Starts the adapter once (hello: its name and version) and returns a table whose decode and
// convert entries drive COMMAND; the other entries are NULL. nullptr and *why when the adapter
// does not start. The table stays valid until the next call; each call starts fresh adapters.
const nc_plugin_v1* pipe_table(const std::string& command, double timeout_s, std::string* why);

// The failure (death, hang, malformed answer, `error` line) of the batch with the lowest first
// input word since the last call, so the same whatever the thread count; empty when there was
// none. Clears it, so each domain reports its own.
std::string take_pipe_table_error();

}  // namespace nc::sweep
