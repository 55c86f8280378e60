// Loads a cuda plugin and calls each entry point it provides once with one element. Without a
// device they must all answer NC_EUNSUPPORTED (1) and the plugin must have printed why, once.
// Prints "SKIPPED: no CUDA device: statuses ..." and exits 77 then; exits 0 if all returned NC_OK
// (a device is present); 1 otherwise. Everything goes to stderr so the plugin's line comes first.
#include <dlfcn.h>

#include <cstdio>

#include "ninfer_conform/plugin.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  void* h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    std::fprintf(stderr, "cannot load %s: %s\n", argv[1], dlerror());
    return 1;
  }
  auto entry = reinterpret_cast<nc_plugin_entry_v1>(dlsym(h, NC_PLUGIN_ENTRY_SYMBOL));
  if (!entry) return 1;
  const nc_plugin_v1* p = entry();
  // word: E4M3FN 1.0 for decode, BF16 for convert; q4: a Q4 code word (4 bits: reconstruct refuses
  // wider words, as the CPU codec does).
  uint32_t word = 0x38, q4 = 0x7, scale = 0x3c00, out = 0, scales[1];
  uint64_t src = 0x3f800000, shape = 1;
  uint8_t valid = 0;
  int32_t codes[1], outcome = 0;
  const int st[5] = {
      p->decode(NC_WT_E4M3FN, &word, 1, &out, &valid),
      p->reconstruct(NC_FORMAT_Q4G64_F16S, &q4, &scale, nullptr, 1, &out),
      p->convert(NC_RECIPE_F32_TO_BF16_RNE, &word, 1, &out),
      p->encode(NC_FORMAT_Q4G64_F16S, NC_SRC_FP32, &src, 1, 1, scales, codes, nullptr, &outcome),
      p->dequantize(NC_FORMAT_Q4G64_F16S, 1, &shape, &q4, 1, &scale, 1, nullptr, &out),
  };
  char list[64];
  std::snprintf(list, sizeof list, "%d %d %d %d %d", st[0], st[1], st[2], st[3], st[4]);
  bool all_unsupported = true, all_ok = true;
  for (int s : st) {
    all_unsupported &= s == NC_EUNSUPPORTED;
    all_ok &= s == NC_OK;
  }
  if (all_unsupported) {
    std::fprintf(stderr, "SKIPPED: no CUDA device: statuses %s\n", list);
    return 77;
  }
  std::fprintf(stderr, "statuses %s\n", list);
  return all_ok ? 0 : 1;
}
