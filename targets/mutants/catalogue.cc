#include "targets/mutants/mutant.h"

namespace nc::mutants {
namespace {
const nc_plugin_v1* g_base = nullptr;
// Delegation target before set_base: every entry absent, so a mutant called that way answers
// "unsupported" for whatever it does not break instead of crashing.
const nc_plugin_v1 kNoBase{NC_PLUGIN_ABI_VERSION,
                           "none",
                           "0",
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr,
                           nullptr};
}  // namespace

void set_base(const nc_plugin_v1* b) { g_base = b; }
const nc_plugin_v1& base() { return g_base ? *g_base : kNoBase; }

const Mutant* find_mutant(std::string_view name) {
  const Mutant* found = nullptr;
  for_each_mutant([&](const Mutant& m) {
    if (name == m.info.name) found = &m;
  });
  return found;
}

nc_plugin_v1 mutant_table(const Mutant& m, const nc_plugin_v1& base_table) {
  nc_plugin_v1 t = base_table;
  t.name = m.info.name;
  t.version = "mutant-1";
  m.install(&t);
  return t;
}

}  // namespace nc::mutants
