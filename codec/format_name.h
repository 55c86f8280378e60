// Registry name parsing for the codec: exact match against the closed table (nc::find_format);
// anything else is an error naming the string. No splitting into components.
#pragma once

#include <string_view>

#include "codec/result.h"
#include "registry/registry.h"

namespace nc::codec {

Result<Format> parse_format(std::string_view name);
Result<WordType> parse_word_type(std::string_view name);

}  // namespace nc::codec
