#include "runners/environment.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>
#include <thread>

namespace nc::runners {

std::vector<std::string> relevant_isa(const std::vector<std::string>& cpu_flags) {
  static const char* const kRelevant[] = {"sse4_1",      "sse4_2",      "avx",      "avx2",        "fma",
                                          "f16c",        "avx512f",     "avx512bw", "avx512vl",    "avx512dq",
                                          "avx512_bf16", "avx512_fp16", "avx_vnni", "avx512_vnni", "amx_tile",
                                          "amx_bf16",    "amx_fp16",    "amx_int8", "asimd",       "fphp",
                                          "asimdhp",     "bf16",        "sve",      "sve2",        "i8mm"};
  std::vector<std::string> out;
  for (const std::string& f : cpu_flags)
    if (std::find(std::begin(kRelevant), std::end(kRelevant), f) != std::end(kRelevant)) out.push_back(f);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Environment host_environment(unsigned jobs) {
  Environment e;
  std::string model;
  e.jobs = jobs;
  e.logical_cpus = std::thread::hardware_concurrency();
  std::ifstream f("/proc/cpuinfo");
  std::vector<std::string> flags;
  bool have_flags = false;
  for (std::string line; std::getline(f, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string_view key(line.data(), colon);
    while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
    std::string_view value(line);
    value.remove_prefix(std::min(line.size(), colon + 2));
    if (key == "model name" && model.empty()) model = std::string(value);
    if ((key == "flags" || key == "Features") && !have_flags) {  // the first CPU's (x86, Arm)
      std::istringstream words{std::string(value)};
      for (std::string w; words >> w;) flags.push_back(w);
      have_flags = true;
    }
  }
  e.isa = relevant_isa(flags);
  e.cpu_model = model.empty() ? std::string(1, '-') : std::move(model);
  return e;
}

}  // namespace nc::runners
