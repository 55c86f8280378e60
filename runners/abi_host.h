// Answers one pipe-protocol request line (runners/PIPE.md) by calling an nc_plugin_v1 table. The
// one translation between the text protocol and the C ABI: used in-process by the `cpu` target and
// in a child process by `ninfer-conform plugin-host PATH.so`.
#pragma once

#include <string>
#include <string_view>

#include "ninfer_conform/plugin.h"

namespace nc::runners {

// The response line without its newline, "ok ...", "unsupported" or "error MESSAGE", into *line
// (replacing what it held: a caller answering many requests reuses one buffer).
void abi_answer(const nc_plugin_v1& table, std::string_view request, std::string* line);

}  // namespace nc::runners
