// Poison and sentinels around a kernel's output (host side; the plugin copies the whole guarded
// region to the device, launches on the payload, copies it back and checks it here).
//
// Layout: [kGuardWords sentinels][payload, every word = poison][kGuardWords sentinels]. After the
// launch a changed sentinel is an out-of-bounds write; a payload word still equal to the poison is
// *suspected* unwritten. A kernel may legitimately write the poison value (FP32 pass-through of
// that very word), so a suspect is confirmed only if the same element still holds a second,
// different poison after a relaunch: the two-poison protocol (see confirm_unwritten).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace nc::kernels {

inline constexpr size_t kGuardWords = 64;

// Sentinel word i: an index-dependent pattern, so a write that copies one sentinel over another
// (a shifted store) is caught too. Truncated to the word type.
template <typename W>
W sentinel_word(size_t i) {
  return static_cast<W>(0xa5c3e1f7u ^ static_cast<uint32_t>(i * 0x9e3779b1u));
}

// Two poisons that differ in every bit pattern class (NaN payload, sign, low byte).
template <typename W>
W poison_word(int which) {
  return static_cast<W>(which == 0 ? 0x7fa5a5a5u : 0x805a5a5au);
}

template <typename W>
std::vector<W> make_guarded(size_t payload_n, W poison) {
  std::vector<W> whole(payload_n + 2 * kGuardWords, poison);
  for (size_t i = 0; i < kGuardWords; ++i) {
    whole[i] = sentinel_word<W>(i);
    whole[kGuardWords + payload_n + i] = sentinel_word<W>(kGuardWords + i);
  }
  return whole;
}

struct GuardReport {
  std::optional<long long> oob_offset;  // first corrupted sentinel, relative to payload start
  std::vector<size_t> suspects;         // payload indices still holding the poison
};

template <typename W>
GuardReport check_guarded(std::span<const W> whole, size_t payload_n, W poison) {
  GuardReport r;
  for (size_t i = 0; i < kGuardWords && !r.oob_offset; ++i)
    if (whole[i] != sentinel_word<W>(i)) r.oob_offset = static_cast<long long>(i) - static_cast<long long>(kGuardWords);
  for (size_t i = 0; i < kGuardWords && !r.oob_offset; ++i)
    if (whole[kGuardWords + payload_n + i] != sentinel_word<W>(kGuardWords + i))
      r.oob_offset = static_cast<long long>(payload_n + i);
  for (size_t i = 0; i < payload_n; ++i)
    if (whole[kGuardWords + i] == poison) r.suspects.push_back(i);
  return r;
}

// Second run, poisoned with a different word: a suspect of the first run that again holds the
// (second) poison was never written. Returns the confirmed unwritten indices.
template <typename W>
std::vector<size_t> confirm_unwritten(const std::vector<size_t>& suspects, std::span<const W> second_whole,
                                      W second_poison) {
  std::vector<size_t> unwritten;
  for (size_t i : suspects)
    if (second_whole[kGuardWords + i] == second_poison) unwritten.push_back(i);
  return unwritten;
}

// One-line description of a guard failure for stderr, or "" if clean.
std::string describe_guard_failure(const char* what, size_t payload_n, std::optional<long long> oob_offset,
                                   const std::vector<size_t>& unwritten);

}  // namespace nc::kernels
