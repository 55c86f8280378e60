#include "guarded_buffer.h"

namespace nc::kernels {

std::string describe_guard_failure(const char* what, size_t payload_n, std::optional<long long> oob_offset,
                                   const std::vector<size_t>& unwritten) {
  std::string msg;
  if (oob_offset) {
    msg += std::string(what) + ": out-of-bounds write at offset " + std::to_string(*oob_offset) + " of a " +
           std::to_string(payload_n) + "-element output";
  }
  if (!unwritten.empty()) {
    if (!msg.empty()) msg += "; ";
    msg += std::string(what) + ": " + std::to_string(unwritten.size()) + " of " + std::to_string(payload_n) +
           " output elements not written (first: element " + std::to_string(unwritten.front()) + ")";
  }
  return msg;
}

}  // namespace nc::kernels
