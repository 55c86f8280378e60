// The poison/sentinel checker that the plugin runs after every launch.
#include <catch2/catch.hpp>

#include "kernels/guarded_buffer.h"

using namespace nc::kernels;

namespace {
std::span<const uint32_t> view(const std::vector<uint32_t>& v) { return {v.data(), v.size()}; }
}  // namespace

TEST_CASE("kernels: a fully written payload is clean") {
  auto b = make_guarded<uint32_t>(10, poison_word<uint32_t>(0));
  for (size_t i = 0; i < 10; ++i) b[kGuardWords + i] = static_cast<uint32_t>(i);
  const GuardReport r = check_guarded<uint32_t>(view(b), 10, poison_word<uint32_t>(0));
  CHECK_FALSE(r.oob_offset.has_value());
  CHECK(r.suspects.empty());
  CHECK(describe_guard_failure("t", 10, r.oob_offset, r.suspects).empty());
}

TEST_CASE("kernels: an unwritten element is found and confirmed by the second poison") {
  auto b0 = make_guarded<uint32_t>(4, poison_word<uint32_t>(0));
  auto b1 = make_guarded<uint32_t>(4, poison_word<uint32_t>(1));
  for (size_t i : {0, 1, 3}) b0[kGuardWords + i] = b1[kGuardWords + i] = 5;
  const GuardReport r = check_guarded<uint32_t>(view(b0), 4, poison_word<uint32_t>(0));
  REQUIRE(r.suspects == std::vector<size_t>{2});
  const auto unwritten = confirm_unwritten<uint32_t>(r.suspects, view(b1), poison_word<uint32_t>(1));
  CHECK(unwritten == std::vector<size_t>{2});
  CHECK(describe_guard_failure("decode out", 4, std::nullopt, unwritten) ==
        "decode out: 1 of 4 output elements not written (first: element 2)");
}

TEST_CASE("kernels: a result that equals the first poison is not reported unwritten") {
  const uint32_t p0 = poison_word<uint32_t>(0);
  auto b0 = make_guarded<uint32_t>(2, p0);
  auto b1 = make_guarded<uint32_t>(2, poison_word<uint32_t>(1));
  b0[kGuardWords + 0] = b1[kGuardWords + 0] = p0;  // FP32 pass-through of the poison word
  b0[kGuardWords + 1] = b1[kGuardWords + 1] = 0;
  const GuardReport r = check_guarded<uint32_t>(view(b0), 2, p0);
  CHECK(r.suspects == std::vector<size_t>{0});
  CHECK(confirm_unwritten<uint32_t>(r.suspects, view(b1), poison_word<uint32_t>(1)).empty());
}

TEST_CASE("kernels: writes past either end hit a sentinel") {
  auto after = make_guarded<uint32_t>(8, poison_word<uint32_t>(0));
  after[kGuardWords + 8] = 0;  // out[8]
  CHECK(check_guarded<uint32_t>(view(after), 8, poison_word<uint32_t>(0)).oob_offset == 8);
  auto before = make_guarded<uint32_t>(8, poison_word<uint32_t>(0));
  before[kGuardWords - 1] = 0;  // out[-1]
  CHECK(check_guarded<uint32_t>(view(before), 8, poison_word<uint32_t>(0)).oob_offset == -1);
  CHECK(describe_guard_failure("x", 8, -1, {}) == "x: out-of-bounds write at offset -1 of a 8-element output");
}

TEST_CASE("kernels: a shifted sentinel copy is caught, and narrow words have distinct poisons") {
  auto b = make_guarded<uint8_t>(3, poison_word<uint8_t>(0));
  b[kGuardWords + 3 + 1] = b[kGuardWords + 3];  // sentinel 1 overwritten by sentinel 0
  std::span<const uint8_t> v(b.data(), b.size());
  CHECK(check_guarded<uint8_t>(v, 3, poison_word<uint8_t>(0)).oob_offset == 4);
  CHECK(poison_word<uint8_t>(0) != poison_word<uint8_t>(1));
  CHECK(poison_word<int32_t>(0) != poison_word<int32_t>(1));
}
