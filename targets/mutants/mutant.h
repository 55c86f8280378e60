// The mutant catalogue: realistic wrong implementations, each the correct plugin table with ONE
// entry point replaced by a version carrying one documented mistake. Everything a mutant does not
// break is delegated to the base table (the codec's, in the built plugins), so a kill can only
// come from that mistake.
#pragma once

#include <span>
#include <string_view>

#include "ninfer_conform/plugin.h"
#include "ninfer_conform/mutant_info.h"

namespace nc::mutants {

struct Mutant {
  nc_mutant_info_v1 info;
  // Replaces one entry point of *table (a copy of the base table).
  void (*install)(nc_plugin_v1* table);
  // Non-null for an equivalent mutant: why no input can tell it from the correct table. It is
  // listed (docs/mutants.md) but never built as a plugin nor counted as a survivor.
  const char* equivalence_proof = nullptr;
};

// The correct table mutants delegate to. Set once before any mutant entry point runs (the plugin
// entry sets the codec's table; tests may set a table of their own).
void set_base(const nc_plugin_v1* base);
const nc_plugin_v1& base();

// Every mutant, area by area, in catalogue order.
std::span<const Mutant> encoder_mutants();
std::span<const Mutant> grouped_mutants();
std::span<const Mutant> minifloat_mutants();
std::span<const Mutant> nvfp4_mutants();
std::span<const Mutant> fp8_row_mutants();
std::span<const Mutant> tensor_mutants();
std::span<const Mutant> direct_mutants();

const Mutant* find_mutant(std::string_view name);
// Calls f(m) for every mutant in catalogue order.
template <class F>
void for_each_mutant(F&& f) {
  for (auto area : {encoder_mutants(), grouped_mutants(), minifloat_mutants(), nvfp4_mutants(), fp8_row_mutants(),
                    tensor_mutants(), direct_mutants()})
    for (const Mutant& m : area) f(m);
}

// A table from base with m's entry replaced (and its name set to the mutant's).
nc_plugin_v1 mutant_table(const Mutant& m, const nc_plugin_v1& base_table);

}  // namespace nc::mutants
