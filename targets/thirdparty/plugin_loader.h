// Loads one adapter plugin in-process (dlopen) and runs its batch entry points on small arrays.
#pragma once

#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "ninfer_conform/plugin.h"

namespace nc_tp_test {

// The table of the plugin at `path`; the handle stays open for the test process's life (plugins
// are never unloaded, as in the runner's plugin host).
inline const nc_plugin_v1& load_plugin(const char* path) {
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  INFO("dlopen " << path << ": " << (handle ? "ok" : dlerror()));
  REQUIRE(handle != nullptr);
  auto entry = reinterpret_cast<nc_plugin_entry_v1>(dlsym(handle, NC_PLUGIN_ENTRY_SYMBOL));
  REQUIRE(entry != nullptr);
  const nc_plugin_v1* table = entry();
  REQUIRE(table != nullptr);
  REQUIRE(table->abi_version == NC_PLUGIN_ABI_VERSION);
  return *table;
}

struct Batch {
  int status;
  std::vector<uint32_t> out;
};

inline Batch decode(const nc_plugin_v1& p, nc_word_type wt, const std::vector<uint32_t>& in) {
  REQUIRE(p.decode != nullptr);
  Batch b{0, std::vector<uint32_t>(in.size(), 0xdeadbeefu)};
  std::vector<uint8_t> valid(in.size(), 7);
  b.status = p.decode(wt, in.data(), in.size(), b.out.data(), valid.data());
  if (b.status == NC_OK) {
    for (uint8_t v : valid) CHECK(v == 1);  // every word of these types has a value
  }
  return b;
}

inline Batch convert(const nc_plugin_v1& p, nc_recipe r, const std::vector<uint32_t>& in) {
  REQUIRE(p.convert != nullptr);
  Batch b{0, std::vector<uint32_t>(in.size(), 0xdeadbeefu)};
  b.status = p.convert(r, in.data(), in.size(), b.out.data());
  return b;
}

}  // namespace nc_tp_test
