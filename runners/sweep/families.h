// The families of sweep domains, each in its own file; domains.cc lists them in one place.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runners/sweep/domain.h"

namespace nc::sweep {

struct Family {
  std::vector<std::string> (*names)();
  std::unique_ptr<Domain> (*make)(const std::string& name);  // nullptr: not this family's
};

Family word_family();         // convert.*, decode.*          (domains.cc)
Family reconstruct_family();  // reconstruct.*                (reconstruct_domains.cc)
Family encode_family();       // encode.*                     (encode_domains.cc)
Family tensor_family();       // validate-tensor.*, parse.*   (tensor_domains.cc)

std::string hex_word(uint32_t w, int digits);

// Number of random groups per scheme in the encode.* domains (sweep --groups).
uint64_t encode_groups();

}  // namespace nc::sweep
