#include "corpus/error.h"

namespace nc::corpus {
namespace {

// A path is printed with its control characters and backslashes as \xNN: a file name holding a
// newline cannot forge a line of output (a verdict, say).
void append_escaped(std::string& out, const std::string& path) {
  static const char kHex[] = "0123456789abcdef";
  for (const unsigned char c : path) {
    if (c >= 0x20 && c != 0x7f && c != '\\') {
      out.push_back(char(c));
    } else {
      out.append("\\x");
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
}

}  // namespace

std::string Error::message() const {
  // Built with append() throughout: GCC 12's -Wrestrict misfires on `s += "x" + t` at -O3.
  std::string out;
  append_escaped(out, file);
  if (line != 0) {
    out.append(":");
    out.append(std::to_string(line));
  }
  if (!out.empty()) out.append(": ");
  if (!case_id.empty()) {
    out.append("case ");
    out.append(case_id);
    out.append(": ");
  }
  out.append(rule);
  return out;
}

}  // namespace nc::corpus
