// A small direct-mapped cache from strings to values, keyed by views the caller keeps alive. The
// reader uses it for tag lists (to their numbers) and policy lists: a suite has a handful of
// distinct lists, met in id (hash) order, so most look-ups hit and a miss costs only the work it
// saves.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "corpus/same_bytes.h"

namespace nc::corpus {

template <class Value>
class ViewCache {
 public:
  // The value stored for `key`, or nullptr.
  Value* find(std::string_view key) {
    Slot& s = slots_[slot(key)];
    return s.used && same_bytes(s.key, key) ? &s.value : nullptr;
  }
  // Stores `value` for `key` (which must outlive the cache), replacing what shared its slot.
  Value& put(std::string_view key, Value value) {
    Slot& s = slots_[slot(key)];
    s = Slot{key, value, true};
    return s.value;
  }

 private:
  static constexpr size_t kSlots = 64;  // slot() keeps 6 bits
  // Lists of one suite often share their length and most of their letters ("normal,negative",
  // "normal,positive"), so every byte counts: eight at a time, the last eight overlapping.
  static size_t slot(std::string_view k) {
    uint64_t h = k.size();
    auto mix = [&h](uint64_t word) { h = (h ^ word) * 0x9e3779b97f4a7c15u, h ^= h >> 29; };
    if (k.size() < 8) {
      uint64_t word = 0;
      for (char c : k) word = word << 8 | static_cast<unsigned char>(c);
      mix(word);
    } else {
      uint64_t word;
      for (size_t at = 0; at + 8 < k.size(); at += 8) std::memcpy(&word, k.data() + at, 8), mix(word);
      std::memcpy(&word, k.data() + k.size() - 8, 8);
      mix(word);
    }
    return size_t(h * 0x9e3779b97f4a7c15u >> 58);  // the top 6 bits: kSlots = 64
  }
  struct Slot {
    std::string_view key;
    Value value{};
    bool used = false;
  };
  std::array<Slot, kSlots> slots_{};
};

}  // namespace nc::corpus
