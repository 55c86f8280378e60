// The CPU codec as a plugin table (include/ninfer_conform/plugin.h): the runner's `cpu` target
// and the base that mutant plugins copy and patch one entry of.
#pragma once

#include "ninfer_conform/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

const nc_plugin_v1* nc_codec_plugin_table(void);

#ifdef __cplusplus
}
#endif
