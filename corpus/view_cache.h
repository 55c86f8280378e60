// A small direct-mapped cache from strings to values, keyed by views the caller keeps alive. The
// reader and replay use it for tag and policy lists: a suite has a handful of distinct lists, met
// in id (hash) order, so most look-ups hit and a miss costs only the full work it saves.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace nc::corpus {

template <class Value>
class ViewCache {
 public:
  // The value stored for `key`, or nullptr.
  Value* find(std::string_view key) {
    Slot& s = slots_[slot(key)];
    return s.used && s.key == key ? &s.value : nullptr;
  }
  // Stores `value` for `key` (which must outlive the cache), replacing what shared its slot.
  Value& put(std::string_view key, Value value) {
    Slot& s = slots_[slot(key)];
    s = Slot{key, value, true};
    return s.value;
  }

 private:
  static constexpr size_t kSlots = 64;
  static size_t slot(std::string_view k) {
    if (k.empty()) return 0;
    const auto at = [&](size_t i) { return size_t(static_cast<unsigned char>(k[i])); };
    return (k.size() * 131 + at(0) * 31 + at(k.size() / 2) * 7 + at(k.size() - 1)) % kSlots;
  }
  struct Slot {
    std::string_view key;
    Value value{};
    bool used = false;
  };
  std::array<Slot, kSlots> slots_{};
};

}  // namespace nc::corpus
