// The columns of each `#op` (vectors/FORMAT.md "Operations" table, kept in registry/registry.h):
// the inputs, which the case id hashes, and the op-specific info columns.
#pragma once

#include <string>
#include <vector>

#include "corpus/error.h"

namespace nc::gen {

struct OpColumns {
  std::vector<std::string> inputs;
  std::vector<std::string> info;
  // id, inputs..., expect, accept, info..., tags, comment
  std::vector<std::string> all() const;
};

// `op` is the whole #op value ("decode E4M3FN"); only its first word selects the columns.
corpus::Result<OpColumns> op_columns(const std::string& op);

}  // namespace nc::gen
