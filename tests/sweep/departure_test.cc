// A sweep's passes under a policy: counted by the finer latitude that holds (nan-payload keeps the
// sign, nan-any does not) and classified by how they depart, on a hand-written BF16 converter
// whose NaN answers each depart in one way. Expected results from docs/recipes.md's BF16 NaN rule:
// the sign and binary32 fraction bits 22..16 kept, the quiet bit 0x40 set.
#include <catch2/catch.hpp>

#include "runners/sweep/domain.h"
#include "runners/sweep/sweep.h"

namespace {

int convert(nc_recipe, const uint32_t* src, size_t n, uint32_t* out) {
  for (size_t k = 0; k < n; ++k) {
    const uint32_t w = src[k];
    if (w >> 31) out[k] = 0x7fc0;                    // negative NaN: canonical positive NaN
    else if (!(w & 0x400000)) out[k] = w >> 16 | 1;  // signalling: kept signalling, payload kept
    else out[k] = 0x7fc0;                            // quiet with payload: payload dropped
  }
  return NC_OK;
}

}  // namespace

TEST_CASE("sweep policy passes are split by latitude and classified by departure", "[sweep][policy]") {
  nc_plugin_v1 t{};
  t.abi_version = 1;
  t.name = "nan-departures";
  t.version = "1";
  t.convert = convert;
  const auto d = nc::sweep::make_domain("convert.F32_TO_BF16_RNE");
  REQUIRE(d);
  nc::sweep::Tally tally;
  nc::sweep::CellCounts cells(d->grid().cells());
  // 16 negative quiet NaNs 0xffc00000.. (recipe 0xffc0, answer 0x7fc0: the sign dropped);
  // 16 positive signalling NaNs 0x7f810000.. (recipe 0x7fc1, answer 0x7f81: kept signalling);
  // 16 positive quiet NaNs 0x7fc20000.. (recipe 0x7fc2, answer 0x7fc0: the payload dropped).
  for (uint64_t begin : {0xffc00000ull, 0x7f810000ull, 0x7fc20000ull})
    d->run(t, begin, begin + 16, 1, 4, nc::sweep::Calls{}, tally, cells);
  CHECK(tally.covered == 48);
  CHECK(tally.mismatches() == 0);
  using Counts = std::vector<std::pair<std::string, uint64_t>>;
  CHECK(tally.accepted == Counts{{"nan-any", 16}, {"nan-payload", 32}});
  CHECK(tally.departures ==
        Counts{{"NaN payload dropped", 16}, {"NaN sign dropped", 16}, {"signalling NaN kept signalling", 16}});
  // The profile survives a report's round trip (shards merge it).
  nc::sweep::Report r;
  r.domain = d->name();
  r.op = d->op();
  r.domain_size = d->size();
  r.tally = tally;
  nc::sweep::Report back;
  std::string error;
  REQUIRE(nc::sweep::from_json(nc::sweep::to_json(r), &back, &error));
  CHECK(back.tally.departures == tally.departures);
}
