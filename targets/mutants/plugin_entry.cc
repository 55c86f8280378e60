// The entry points of one mutant plugin .so: built once per mutant with NC_MUTANT_NAME defined.
// The table is the codec's (the correct implementation) with the mutant's one entry replaced.
#include "codec/codec_plugin.h"
#include "targets/mutants/mutant.h"

#ifndef NC_MUTANT_NAME
#error "NC_MUTANT_NAME must name a catalogue entry"
#endif

namespace {
const nc::mutants::Mutant& this_mutant() {
  static const nc::mutants::Mutant* m = nc::mutants::find_mutant(NC_MUTANT_NAME);
  return *m;  // the build only makes plugins for catalogue names (checked by tests/mutants)
}
}  // namespace

extern "C" const nc_plugin_v1* ninfer_conform_plugin_v1(void) {
  static const nc_plugin_v1 table = [] {
    nc::mutants::set_base(nc_codec_plugin_table());
    return nc::mutants::mutant_table(this_mutant(), *nc_codec_plugin_table());
  }();
  return &table;
}

extern "C" const nc_mutant_info_v1* ninfer_conform_mutant_info_v1(void) { return &this_mutant().info; }
