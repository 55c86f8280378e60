#include "corpus/error.h"

namespace nc::corpus {

std::string Error::message() const {
  // Built with append() throughout: GCC 12's -Wrestrict misfires on `s += "x" + t` at -O3.
  std::string out;
  out.append(file);
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
