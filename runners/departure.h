// How a result passed under a NaN policy departs from the required NaN, in words a user can act on
// ("NaN sign dropped", "signalling NaN kept signalling"). The replay (per corpus case) and the
// sweeps (per input) classify their policy passes with the same function, so a certificate's
// departure profile reads the same for both. Pure and header-only: nc_runners and nc_sweep use it.
#pragma once

#include <cstdint>

namespace nc::runners {

// The NaN layout of a result type: total width and fraction bits (quiet bit = top fraction bit).
struct NanLayout {
  int width, fraction_bits;
};
inline constexpr NanLayout kBinary32Nan{32, 23}, kBF16Nan{16, 7}, kF16Nan{16, 10}, kE4M3FNNan{8, 3};

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
    "NaN sign dropped",    "NaN sign set",        "signalling NaN kept signalling",
    "signalling NaN quieted", "NaN payload dropped", "NaN payload changed"};

// expected and actual are both NaN words of the layout. Formats whose NaN has no quiet bit or
// payload (E4M3FN: all fraction bits are set) can only depart by sign.
inline unsigned nan_departure(uint32_t expected, uint32_t actual, NanLayout l) {
  const uint32_t sign = 1u << (l.width - 1), quiet = 1u << (l.fraction_bits - 1);
  const uint32_t payload_mask = quiet - 1;
  unsigned d = 0;
  if ((expected & sign) && !(actual & sign)) d |= kSignDropped;
  if (!(expected & sign) && (actual & sign)) d |= kSignSet;
  if (l.width == 8 || (expected & (sign - 1)) == (actual & (sign - 1))) return d;
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
