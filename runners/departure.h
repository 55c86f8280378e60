// How a result passed under a NaN policy departs from the required NaN, in words a user can act on
// ("NaN sign dropped", "signalling NaN kept signalling"). The replay (per corpus case) and the
// sweeps (per input) classify their policy passes with the same function, so a certificate's
// departure profile reads the same for both. Pure and header-only: nc_runners and nc_sweep use it.
#pragma once

#include <cstdint>
#include <optional>

#include "registry/registry.h"

namespace nc::runners {

// The judge's one reading of a float word type's NaNs, from the registry's identity facts (width,
// field widths, NaN spelling) alone: never from codec/, the code under test, and without the
// oracle's bit-level description. The replay's verdicts and the sweeps both use these.
struct NanLayout {
  int width, fraction_bits;
  bool quiet_bit;  // IEEE NaNs: the top fraction bit is the quiet bit, the rest the payload
};
constexpr NanLayout nan_layout(WordType w) {
  const WordTypeInfo& i = info(w);
  return {int(i.bits), int(i.fraction_bits), i.nan == NanSpelling::Ieee};
}
constexpr uint32_t magnitude_mask(WordType w) { return uint32_t((uint64_t(1) << (info(w).bits - 1)) - 1); }
constexpr uint32_t exponent_ones(WordType w) { return ((1u << info(w).exponent_bits) - 1) << info(w).fraction_bits; }
// Whether a word is a NaN of a type, as two numbers for the loops that ask it of every input: x is
// one when (x & magnitude) >= lowest, the smallest NaN magnitude (its bits above the width are
// ignored); for a type without NaN, lowest is above every magnitude.
struct NanTest {
  uint32_t magnitude, lowest;
  constexpr bool operator()(uint32_t x) const { return (x & magnitude) >= lowest; }
};
constexpr NanTest nan_test(WordType w) {
  switch (info(w).nan) {
    case NanSpelling::Ieee:
      return {magnitude_mask(w), exponent_ones(w) + 1};
    case NanSpelling::AllOnes:
      return {magnitude_mask(w), magnitude_mask(w)};
    case NanSpelling::None:
      break;
  }
  return {0, 1};
}
// A NaN word of the type.
constexpr bool is_nan_word(WordType w, uint32_t x) { return nan_test(w)(x); }
// The canonical quiet NaN: sign 0, exponent all ones, quiet bit only (the all-ones word where the
// type has no quiet bit); none for a type without NaN.
constexpr std::optional<uint32_t> canonical_nan_word(WordType w) {
  switch (info(w).nan) {
    case NanSpelling::Ieee:
      return exponent_ones(w) | (1u << (info(w).fraction_bits - 1));
    case NanSpelling::AllOnes:
      return magnitude_mask(w);
    case NanSpelling::None:
      break;
  }
  return std::nullopt;
}

// One bit per way of departing; a result may depart in several ways at once.
enum Departure : unsigned {
  kSignDropped = 1u << 0,     // the required NaN is negative, the result positive
  kSignSet = 1u << 1,         // the required NaN is positive, the result negative
  kKeptSignalling = 1u << 2,  // the required NaN is quiet (the recipe quiets), the result signalling
  kQuieted = 1u << 3,         // the required NaN is signalling (decode keeps it), the result quiet
  kPayloadDropped = 1u << 4,  // the required payload is not zero, the result's is
  kPayloadChanged = 1u << 5,  // the payloads differ otherwise
};
inline constexpr int kDepartureCount = 6;
inline constexpr const char* kDepartureNames[kDepartureCount] = {
    "NaN sign dropped",       "NaN sign set",        "signalling NaN kept signalling",
    "signalling NaN quieted", "NaN payload dropped", "NaN payload changed"};

// expected and actual are both NaN words of the layout. Types whose NaN has no quiet bit or
// payload (E4M3FN: all fraction bits are set) can only depart by sign.
inline unsigned nan_departure(uint32_t expected, uint32_t actual, NanLayout l) {
  const uint32_t sign = 1u << (l.width - 1), quiet = 1u << (l.fraction_bits - 1);
  const uint32_t payload_mask = quiet - 1;
  unsigned d = 0;
  if ((expected & sign) && !(actual & sign)) d |= kSignDropped;
  if (!(expected & sign) && (actual & sign)) d |= kSignSet;
  if (!l.quiet_bit || (expected & (sign - 1)) == (actual & (sign - 1))) return d;
  const bool eq = expected & quiet, aq = actual & quiet;
  if (eq && !aq) d |= kKeptSignalling;
  if (!eq && aq) d |= kQuieted;
  const uint32_t ep = expected & payload_mask, ap = actual & payload_mask;
  // A NaN kept signalling needs a payload to stay a NaN: not a departure of its own when the
  // required (quiet) NaN has none.
  if (ep != ap && !((d & kKeptSignalling) && ep == 0)) d |= (ap == 0 ? kPayloadDropped : kPayloadChanged);
  return d;
}

}  // namespace nc::runners
