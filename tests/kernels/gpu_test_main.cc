// GPU suites: the plugin's bit-parity cases on the default build (must all pass) and on the
// --use_fast_math build (the negative control: must fail, at least on the FTZ-sensitive cases),
// then GEMV against the exact criterion. Exit 77 without a device (ctest: skipped).
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <cstdio>
#include <string>

#include "tests/kernels/gpu_test.h"

namespace {
const nc_plugin_v1* load(const char* path) {
  void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) return nullptr;
  auto entry = reinterpret_cast<nc_plugin_entry_v1>(dlsym(h, NC_PLUGIN_ENTRY_SYMBOL));
  return entry ? entry() : nullptr;
}
}  // namespace

int main(int argc, char** argv) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    std::printf("SKIPPED: no CUDA device (%s); GPU suites not run\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 77;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s libnc_cuda_plugin.so libnc_cuda_plugin_fastmath.so\n", argv[0]);
    return 2;
  }
  const nc_plugin_v1* exact = load(argv[1]);
  const nc_plugin_v1* fast = load(argv[2]);
  if (!exact || !fast) {
    std::fprintf(stderr, "cannot load the plugins: %s\n", dlerror());
    return 1;
  }
  using namespace nc::kernels::gputest;
  int n = 0, failed = 0, failures = 0;
  const std::string exact_failed = run_plugin_cases(*exact, &n, &failed);
  std::printf("default build: %d/%d cases pass%s%s\n", n - failed, n, failed ? "; FAILED:" : "", exact_failed.c_str());
  failures += failed;
  int fn = 0, ffailed = 0;
  const std::string fast_failed = run_plugin_cases(*fast, &fn, &ffailed);
  std::printf("fast-math control: %d/%d cases fail:%s\n", ffailed, fn, fast_failed.c_str());
  for (const char* must :
       {" encode.q5_subnormal_rescue", " reconstruct.fp8_subnormal_product", " reconstruct.nvfp4_subnormal_quotient"})
    if (fast_failed.find(must) == std::string::npos) {
      std::printf("FAILED: the fast-math control passed%s (FTZ should break it)\n", must);
      ++failures;
    }
  failures += run_gemv_cases();
  std::printf(failures ? "FAILED: %d\n" : "all GPU suites passed\n", failures);
  return failures ? 1 : 0;
}
