// A minimal checker for the GPU suites (a plain main, so the binary can exit 77 when there is no
// device, which ctest reads as "skipped").
#pragma once
#include <cstdint>
#include <string>

#include "ninfer_conform/plugin.h"

namespace nc::kernels::gputest {

// Runs every plugin case against one plugin; returns the names of the failed cases.
std::string run_plugin_cases(const nc_plugin_v1& p, int* n_cases, int* n_failed);
// Runs the GEMV suites (all weight formats x FP32/BF16 activations); returns failures.
int run_gemv_cases();

}  // namespace nc::kernels::gputest
