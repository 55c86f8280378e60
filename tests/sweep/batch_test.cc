// How a sweep calls the target (sweep::Calls) changes the calls and nothing else. The batch (how
// many inputs one call carries): reports of planted bugs, of a target that refuses inputs and of
// one that refuses long calls are the same at every batch, and the refusals' costs are derived
// here from the unit (kUnitBatch) and the refused words. Results answered as the target's own
// 8- and 16-bit words (Calls::convert_words) are judged as the same results widened.
#include <algorithm>
#include <atomic>
#include <stdexcept>

#include <catch2/catch.hpp>

#include "codec/codec_plugin.h"
#include "runners/sweep/sweep.h"

using nc::sweep::kUnitBatch;
using nc::sweep::Report;

namespace {

std::atomic<size_t> g_longest_call{0};

void note_length(size_t n) {
  size_t seen = g_longest_call.load();
  while (n > seen && !g_longest_call.compare_exchange_weak(seen, n)) {}
}

// Our codec's conversion, the call's length noted.
int noting_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  note_length(n);
  return nc_codec_plugin_table()->convert(recipe, src, n, out);
}

// Truncates to BF16 (keeps the top 16 bits): a mismatch wherever round-to-nearest-even moves up.
int truncating_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (recipe != NC_RECIPE_F32_TO_BF16_RNE) return nc_codec_plugin_table()->convert(recipe, src, n, out);
  for (size_t k = 0; k < n; ++k) out[k] = src[k] >> 16;
  return NC_OK;
}

// Refuses a whole call (NC_EINVALID) when any input is an infinity or a NaN, as gfloat's E2M1
// encoder refuses NaN inputs; the codec's answer otherwise.
int refusing_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  for (size_t k = 0; k < n; ++k)
    if ((src[k] & 0x7f800000u) == 0x7f800000u) return NC_EINVALID;
  return nc_codec_plugin_table()->convert(recipe, src, n, out);
}

// Refuses every call longer than the unit (a library with a length limit); right otherwise.
int short_calls_only_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (n > kUnitBatch) return NC_EINVALID;
  return nc_codec_plugin_table()->convert(recipe, src, n, out);
}

// Answers SATFINITE with the overflow-to-NaN recipe's words: 448 and above, and infinities, are wrong.
int nan_on_overflow_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (recipe == NC_RECIPE_F32_TO_E4M3FN_RNE_SATFINITE) recipe = NC_RECIPE_F32_TO_E4M3FN_RNE_OVF_NAN;
  return nc_codec_plugin_table()->convert(recipe, src, n, out);
}

// Answers every NaN input with the canonical F16 NaN 0x7e00: passes under nan-any, sign lost for
// negative NaNs, payload lost for the others.
int canonical_nan_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  const int rc = nc_codec_plugin_table()->convert(recipe, src, n, out);
  if (recipe == NC_RECIPE_F32_TO_F16_RNE)
    for (size_t k = 0; k < n; ++k)
      if ((src[k] & 0x7fffffffu) > 0x7f800000u) out[k] = 0x7e00;
  return rc;
}

std::atomic<uint64_t> g_word_calls{0};

// Convert's results as the destination's own words (16 bits for BF16 and F16, 8 for the others),
// as an in-process target answers with a NumPy array of uint16 or uint8: valid until the thread's
// next call.
template <int (*Convert)(nc_recipe, const uint32_t*, size_t, uint32_t*)>
int own_words(nc_recipe recipe, const uint32_t* src, size_t n, nc::runners::WordResults* out) {
  thread_local std::vector<uint32_t> wide;
  thread_local std::vector<uint16_t> words16;
  thread_local std::vector<uint8_t> words8;
  wide.resize(n);
  const int rc = Convert(recipe, src, n, wide.data());
  if (rc != NC_OK) return rc;
  ++g_word_calls;
  if (recipe == NC_RECIPE_F32_TO_BF16_RNE || recipe == NC_RECIPE_F32_TO_F16_RNE) {
    words16.assign(wide.begin(), wide.end());
    *out = {words16.data(), 2};
  } else {
    words8.assign(wide.begin(), wide.end());
    *out = {words8.data(), 1};
  }
  return NC_OK;
}

nc_plugin_v1 with(int (*convert)(nc_recipe, const uint32_t*, size_t, uint32_t*)) {
  nc_plugin_v1 t = *nc_codec_plugin_table();
  t.convert = convert;
  return t;
}

Report sweep_of(const std::string& domain, const nc_plugin_v1& t, uint64_t stride, size_t batch,
                nc::runners::ConvertWords convert_words = nullptr) {
  nc::sweep::Options o;
  o.stride = stride;
  o.jobs = 2;
  o.calls.batch = batch;
  o.calls.convert_words = convert_words;
  o.geometry = false;
  return nc::sweep::run(*nc::sweep::make_domain(domain), t, "test", o);
}

}  // namespace

TEST_CASE("a sweep calls the target with batches of the length it is given", "[batch]") {
  for (size_t batch : {kUnitBatch, 4 * kUnitBatch}) {
    g_longest_call = 0;
    const Report r = sweep_of("convert.F32_TO_BF16_RNE", with(noting_convert), 7, batch);
    CHECK(r.tally.mismatches() == 0);
    CHECK(r.tally.covered == ((uint64_t(1) << 32) + 6) / 7);
    CHECK(g_longest_call == batch);
  }
}

TEST_CASE("reports are the same at every batch: mismatches, refused inputs, refused long calls", "[batch]") {
  const uint64_t stride = 64;  // a unit of 2^16 inputs spans 2^22 words
  const uint64_t inputs = (uint64_t(1) << 32) / stride;
  for (size_t batch : {kUnitBatch, 2 * kUnitBatch, 4 * kUnitBatch, 64 * kUnitBatch}) {
    INFO("batch " << batch);
    const Report truncating = sweep_of("convert.F32_TO_BF16_RNE", with(truncating_convert), stride, batch);
    const Report refusing = sweep_of("convert.F32_TO_BF16_RNE", with(refusing_convert), stride, batch);
    const Report short_only = sweep_of("convert.F32_TO_BF16_RNE", with(short_calls_only_convert), stride, batch);
    if (batch == kUnitBatch) {
      CHECK(truncating.tally.mismatches() > 0);  // its counts: cells_test; here, the same at every batch
      // The infinity and NaN words 0x7f800000..0x7fffffff and 0xff800000..0xffffffff are 2^23
      // words each, 2 aligned units of 2^22 words at stride 64: 4 units refused, 2^18 inputs,
      // the first at index 0x7f800000; the rest are judged and right.
      CHECK(refusing.tally.errored == 4 * kUnitBatch);
      CHECK(refusing.tally.covered == inputs - 4 * kUnitBatch);
      CHECK(refusing.tally.mismatches() == 0);
      CHECK(refusing.tally.target_error ==
            "target returned status " + std::to_string(NC_EINVALID) + " at index " + std::to_string(0x7f800000u));
      CHECK(short_only.tally.errored == 0);
      CHECK(short_only.tally.covered == inputs);
      continue;
    }
    const Report unit_truncating = sweep_of("convert.F32_TO_BF16_RNE", with(truncating_convert), stride, kUnitBatch);
    const Report unit_refusing = sweep_of("convert.F32_TO_BF16_RNE", with(refusing_convert), stride, kUnitBatch);
    const Report unit_short_only =
        sweep_of("convert.F32_TO_BF16_RNE", with(short_calls_only_convert), stride, kUnitBatch);
    CHECK(nc::sweep::to_json(truncating) == nc::sweep::to_json(unit_truncating));
    CHECK(nc::sweep::to_json(refusing) == nc::sweep::to_json(unit_refusing));
    CHECK(nc::sweep::to_json(short_only) == nc::sweep::to_json(unit_short_only));
  }
}

TEST_CASE("a batch that is not a multiple of the unit, or longer than a chunk, is refused", "[batch]") {
  const nc_plugin_v1 t = *nc_codec_plugin_table();
  for (size_t batch : {size_t(0), kUnitBatch + 1, kUnitBatch / 2, size_t(128) * kUnitBatch})
    CHECK_THROWS_AS(sweep_of("convert.F32_TO_BF16_RNE", t, 1 << 20, batch), std::invalid_argument);
}

TEST_CASE("results answered as the target's own narrow words are judged as the same results widened", "[batch]") {
  struct Case {
    std::string domain;
    nc_plugin_v1 table;
    nc::runners::ConvertWords words;
  };
  const Case cases[] = {
      {"convert.F32_TO_BF16_RNE", with(truncating_convert), own_words<truncating_convert>},
      {"convert.F32_TO_E4M3FN_RNE_SATFINITE", with(nan_on_overflow_convert), own_words<nan_on_overflow_convert>},
      {"convert.F32_TO_F16_RNE", with(canonical_nan_convert), own_words<canonical_nan_convert>},
      {"convert.F32_TO_E2M1_RNE_SATFINITE", with(refusing_convert), own_words<refusing_convert>},
      {"convert.F32_TO_F16_RNE", with(noting_convert), own_words<noting_convert>},
  };
  for (const Case& c : cases) {
    INFO(c.domain);
    const Report widened = sweep_of(c.domain, c.table, 257, 4 * kUnitBatch);
    g_word_calls = 0;
    const Report words = sweep_of(c.domain, c.table, 257, 4 * kUnitBatch, c.words);
    CHECK(g_word_calls > 0);  // the words path was taken
    CHECK(widened.tally.covered > 0);
    CHECK(nc::sweep::to_json(words) == nc::sweep::to_json(widened));
  }
  // What each planted bug shows, so the equality above compares reports with findings in them.
  CHECK(sweep_of("convert.F32_TO_BF16_RNE", with(truncating_convert), 257, kUnitBatch, own_words<truncating_convert>)
            .tally.mismatches() > 0);
  CHECK(sweep_of("convert.F32_TO_E4M3FN_RNE_SATFINITE", with(nan_on_overflow_convert), 257, kUnitBatch,
                 own_words<nan_on_overflow_convert>)
            .tally.mismatches() > 0);
  const Report nan = sweep_of("convert.F32_TO_F16_RNE", with(canonical_nan_convert), 257, kUnitBatch,
                              own_words<canonical_nan_convert>);
  CHECK(nan.tally.mismatches() == 0);
  CHECK_FALSE(nan.tally.accepted.empty());
  CHECK(sweep_of("convert.F32_TO_E2M1_RNE_SATFINITE", with(refusing_convert), 257, kUnitBatch,
                 own_words<refusing_convert>)
            .tally.errored > 0);
}
