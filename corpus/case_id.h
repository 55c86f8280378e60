// Content-derived case ids (vectors/FORMAT.md, column `id`): adding or reordering cases never
// renames one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nc::corpus {

// "<suite>:<first 12 hex of SHA-256 over `<suite>\n<inputs joined by one space>`>".
std::string case_id(std::string_view suite, const std::vector<std::string>& inputs);

}  // namespace nc::corpus
