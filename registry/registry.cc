#include "registry/registry.h"

namespace nc {

std::optional<Format> find_format(std::string_view name) {
  for (const FormatInfo& f : kFormats)
    if (f.name == name) return f.id;
  return std::nullopt;
}

std::optional<WordType> find_word_type(std::string_view name) {
  for (const WordTypeInfo& w : kWordTypes)
    if (w.name == name) return w.id;
  return std::nullopt;
}

}  // namespace nc
