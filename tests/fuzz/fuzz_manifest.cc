// libFuzzer harness: the manifest parser (corpus/manifest.cc) on arbitrary JSON text. A manifest
// it accepts must print canonically and parse back to the same canonical text.
#include <cstddef>
#include <cstdint>
#include <string>

#include "corpus/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace nc::corpus;
  std::string text(reinterpret_cast<const char*>(data), size);
  Result<Manifest> m = parse_manifest(text, "fuzz/MANIFEST.json");
  if (!m) {
    if (m.error().message().empty()) __builtin_trap();
    return 0;
  }
  std::string canonical = manifest_json(*m);
  Result<Manifest> back = parse_manifest(canonical, "canonical");
  if (!back || manifest_json(*back) != canonical) __builtin_trap();
  return 0;
}
