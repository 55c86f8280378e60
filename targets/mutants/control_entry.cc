// The control plugin: the codec's correct table, unchanged, served through the same plugin path as
// the mutants. `ninfer-conform mutants` replays it first on every suite glob, and counts as a kill
// only a case the control passes: a failure the correct table shares (a runner or corpus problem)
// is never credited to a mutant.
#include "codec/codec_plugin.h"

extern "C" const nc_plugin_v1* ninfer_conform_plugin_v1(void) { return nc_codec_plugin_table(); }
