#include "corpus/error.h"

namespace nc::corpus {

std::string Error::message() const {
  std::string out;
  if (!file.empty()) out += file;
  if (line != 0) out += ":" + std::to_string(line);
  if (!out.empty()) out += ": ";
  if (!case_id.empty()) out += "case " + case_id + ": ";
  out += rule;
  return out;
}

}  // namespace nc::corpus
