// Text a target wrote (adapter and plugin stderr, answer lines, names, messages) is repeated on the
// terminal and in reports; printable() makes it safe to repeat, so a hostile target cannot clear the
// screen, move the cursor or forge report lines.
#pragma once

#include <string>
#include <string_view>

namespace nc::runners {

// s with every control character (C0 including newline, DEL, C1), every byte that is not part of
// well-formed UTF-8, and the backslash written as \xNN; all other text unchanged.
std::string printable(std::string_view s);

}  // namespace nc::runners
