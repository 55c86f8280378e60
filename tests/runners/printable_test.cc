// printable(): what a target wrote, made safe to repeat on a terminal. Expected strings are
// written out by hand from the rule in runners/printable.h.
#include <catch2/catch.hpp>

#include "runners/printable.h"

using nc::runners::printable;

TEST_CASE("printable escapes control characters, stray bytes and the backslash", "[printable]") {
  CHECK(printable("ok 3f800000 name-1.2") == "ok 3f800000 name-1.2");
  CHECK(printable("\033[2J\033[H") == "\\x1b[2J\\x1b[H");            // clear screen, cursor home
  CHECK(printable("a\nb\rc\td\x7f") == "a\\x0ab\\x0dc\\x09d\\x7f");  // C0 and DEL
  CHECK(printable("back\\slash") == "back\\x5cslash");               // so every \x is an escape
  CHECK(printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  CHECK(printable("\xc2\x9b"
                  "2J") == "\\xc2\\x9b2J");  // U+009B, the C1 control sequence introducer
  CHECK(printable("\x9b"
                  "2J") == "\\x9b2J");                    // the same as a lone byte: not UTF-8
  CHECK(printable("\xc3") == "\\xc3");                    // truncated sequence
  CHECK(printable("\xe0\x80\x80") == "\\xe0\\x80\\x80");  // overlong
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // UTF-16 surrogate
  CHECK(printable(std::string("nul\0byte", 8)) == "nul\\x00byte");
}
