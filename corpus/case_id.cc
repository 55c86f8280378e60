#include "corpus/case_id.h"

#include "corpus/sha256.h"

namespace nc::corpus {

std::string case_id(std::string_view suite, const std::vector<std::string>& inputs) {
  std::string text(suite);
  text += '\n';
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i) text += ' ';
    text += inputs[i];
  }
  return std::string(suite) + ":" + sha256_hex(text).substr(0, 12);
}

}  // namespace nc::corpus
