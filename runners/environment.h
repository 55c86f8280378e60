// The execution environment a certification judged: the CPU (model and the instruction-set
// features conversions dispatch on), the threads, and what the target reports of its own
// configuration (runners/PIPE.md `info`). A certificate speaks for this path only.
#pragma once

#include <string>
#include <vector>

namespace nc::runners {

struct Environment {
  std::string cpu_model;         // /proc/cpuinfo "model name" (or "-")
  std::vector<std::string> isa;  // the conversion-relevant features the CPU reports, sorted
  unsigned logical_cpus = 0;     // online logical CPUs
  unsigned jobs = 0;             // replay workers and sweep threads (--jobs)
  std::string target_info;       // the target's `info` answer, "" when it gives none
};

// The conversion-relevant features among the CPU's flags (x86: SSE4, AVX, F16C, FMA, AVX-512 and
// its BF16/FP16 extensions, AMX; Arm: fp16, bf16, SVE), in the kernel's spelling.
std::vector<std::string> relevant_isa(const std::vector<std::string>& cpu_flags);
// This machine's CPU (from /proc/cpuinfo; "-" and no features where it cannot be read).
Environment host_environment(unsigned jobs);

}  // namespace nc::runners
