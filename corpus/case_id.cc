#include "corpus/case_id.h"

#include "corpus/sha256.h"

namespace nc::corpus {

std::string case_id(std::string_view suite, const std::vector<std::string>& inputs) {
  std::string joined;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i) joined += ' ';
    joined += inputs[i];
  }
  unsigned char digest[32];
  Sha256WithPrefix(std::string(suite) + '\n').digest(joined, digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(suite);
  id += ':';
  for (size_t k = 0; k < 12; ++k) id += kHex[(digest[k / 2] >> (k % 2 ? 0 : 4)) & 15];
  return id;
}

}  // namespace nc::corpus
