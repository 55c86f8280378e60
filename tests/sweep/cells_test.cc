// The per-cell tally the certificate pictures draw (sweep::Report::grid, Tally::cells): planted
// bugs whose cells are derived here from their definition, the run-length text, and the report's
// round trip and refusals. Also: a target that writes into the inputs it is handed.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "codec/codec_plugin.h"
#include "runners/sweep/families.h"
#include "runners/sweep/sweep.h"
#include "tests/runners/scribbling_table.h"

using Catch::Matchers::Contains;
using nc::sweep::Cell;
using nc::sweep::Report;

namespace {

// Our codec, except that F32_TO_BF16_RNE truncates (keeps the top 16 bits), as Highway's DemoteTo does.
int truncating_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  if (recipe != NC_RECIPE_F32_TO_BF16_RNE) return nc_codec_plugin_table()->convert(recipe, src, n, out);
  for (size_t k = 0; k < n; ++k) out[k] = src[k] >> 16;
  return NC_OK;
}

// Our codec, except that decoding binary16 word 0x3c01 gives 1.0 (0x3f800000).
int one_wrong_decode(nc_word_type wt, const uint32_t* words, size_t n, uint32_t* out, uint8_t* valid) {
  int rc = nc_codec_plugin_table()->decode(wt, words, n, out, valid);
  for (size_t k = 0; k < n; ++k)
    if (wt == NC_WT_F16 && words[k] == 0x3c01) out[k] = 0x3f800000u;
  return rc;
}

// A truncating target that then writes zeros over the inputs it was handed (tests/runners/scribbling_table.h).
int scribbling_truncating_convert(nc_recipe recipe, const uint32_t* src, size_t n, uint32_t* out) {
  const int rc = truncating_convert(recipe, src, n, out);
  nc::test::scribble(src, n);
  return rc;
}

nc_plugin_v1 with(int (*convert)(nc_recipe, const uint32_t*, size_t, uint32_t*),
                  int (*decode)(nc_word_type, const uint32_t*, size_t, uint32_t*, uint8_t*)) {
  nc_plugin_v1 t = *nc_codec_plugin_table();
  if (convert) t.convert = convert;
  if (decode) t.decode = decode;
  return t;
}

Report sweep_of(const std::string& domain, const nc_plugin_v1& t, uint64_t stride, nc::sweep::Shard shard = {}) {
  nc::sweep::Options o;
  o.stride = stride;
  o.shard = shard;
  o.jobs = 2;
  return nc::sweep::run(*nc::sweep::make_domain(domain), t, "test", o);
}

}  // namespace

TEST_CASE("run-length text: runs of equal values, exactly n of them", "[cells]") {
  CHECK(nc::sweep::encode_runs({5, 5, 5, 0, 7, 7}) == "5*3 0 7*2");
  CHECK(nc::sweep::encode_runs({}) == "");
  std::vector<uint64_t> v;
  REQUIRE(nc::sweep::decode_runs("5*3 0 7*2", 6, &v));
  CHECK(v == std::vector<uint64_t>{5, 5, 5, 0, 7, 7});
  CHECK_FALSE(nc::sweep::decode_runs("5*3 0 7*2", 7, &v));  // too few
  CHECK_FALSE(nc::sweep::decode_runs("5*3 0 7*3", 6, &v));  // too many
  CHECK_FALSE(nc::sweep::decode_runs("5*0", 0, &v));        // an empty run
  CHECK_FALSE(nc::sweep::decode_runs("5,3", 2, &v));
  CHECK_FALSE(nc::sweep::decode_runs("-1", 1, &v));
  CHECK_FALSE(nc::sweep::decode_runs("99999999999999999999", 1, &v));  // overflows 64 bits
}

TEST_CASE("a truncating BF16 conversion: each cell counts the inputs round-to-nearest-even moves up", "[cells]") {
  const nc_plugin_v1 t = with(truncating_convert, nullptr);
  const uint64_t stride = 4099;
  const Report r = sweep_of("convert.F32_TO_BF16_RNE", t, stride);
  REQUIRE(r.grid.layout == "binary32");
  REQUIRE(r.grid.columns == 512);
  REQUIRE(r.grid.rows == 16);
  // Derived from the definitions: a cell is the inputs with equal top 13 bits (sign, exponent, top
  // 4 fraction bits); truncation differs from RNE for a finite input when the 16 dropped bits are
  // above half, or exactly half with an odd kept word. NaN inputs (exponent 255, fraction not 0)
  // are left out: the recipe quiets them, which this derivation does not model.
  std::map<uint64_t, Cell> want;
  for (uint64_t i = 0; i < (uint64_t(1) << 32); i += stride) {
    Cell& c = want[i >> 19];
    ++c.judged;
    const uint32_t low = uint32_t(i) & 0xffff, kept = uint32_t(i) >> 16;
    if (low > 0x8000 || (low == 0x8000 && (kept & 1))) ++c.mismatches;
  }
  uint64_t judged = 0, mismatches = 0;
  for (const auto& [cell, c] : r.tally.cells) {
    judged += c.judged;
    mismatches += c.mismatches;
    const uint64_t exponent = (cell >> 4) & 0xff;
    CHECK(c.judged == want[cell].judged);
    if (exponent != 0xff) {
      CHECK(c.mismatches == want[cell].mismatches);
      CHECK(c.accepted == 0);
    }
  }
  CHECK(judged == r.tally.covered);
  CHECK(mismatches == r.tally.mismatches());
  CHECK(r.tally.cells.size() == 8192);
}

// The sweep judges each result against the input its index names, never the buffer read back: a
// target that writes into its inputs after answering right passes, and a wrong one is reported
// with the inputs it was given, as it is without the writing.
TEST_CASE("a target that writes into its inputs is judged on the words it was given", "[cells]") {
  const nc_plugin_v1 scribbling = nc::test::scribbling_codec_table();
  const Report right = sweep_of("convert.F32_TO_BF16_RNE", scribbling, 4099);
  CHECK(right.tally.covered == (uint64_t(1) << 32) / 4099 + 1);
  CHECK(right.tally.mismatches() == 0);
  const Report wrong = sweep_of("convert.F32_TO_BF16_RNE", with(scribbling_truncating_convert, nullptr), 4099);
  const Report plain = sweep_of("convert.F32_TO_BF16_RNE", with(truncating_convert, nullptr), 4099);
  REQUIRE(plain.tally.mismatches() > 0);
  CHECK(wrong.tally.mismatches() == plain.tally.mismatches());
  REQUIRE(wrong.tally.first.size() == plain.tally.first.size());
  for (size_t k = 0; k < plain.tally.first.size(); ++k) {
    CHECK(wrong.tally.first[k].index == plain.tally.first[k].index);
    CHECK(wrong.tally.first[k].input ==
          std::vector<std::string>{nc::sweep::hex_word(uint32_t(plain.tally.first[k].index), 8)});
    CHECK(wrong.tally.first[k].input == plain.tally.first[k].input);
    CHECK(wrong.tally.first[k].actual == plain.tally.first[k].actual);
  }
  const Report decoded = sweep_of("decode.F16", scribbling, 1);
  CHECK(decoded.tally.covered == 65536);
  CHECK(decoded.tally.mismatches() == 0);
  const Report rebuilt = sweep_of("reconstruct.Q4G64_F16S", scribbling, 3);
  CHECK(rebuilt.tally.covered > 0);
  CHECK(rebuilt.tally.mismatches() == 0);
}

TEST_CASE("a word decode: one cell a word, the wrong word's cell alone", "[cells]") {
  const nc_plugin_v1 t = with(nullptr, one_wrong_decode);
  const Report r = sweep_of("decode.F16", t, 1);
  REQUIRE(r.grid.layout == "word");
  REQUIRE(r.grid.columns == 256);
  REQUIRE(r.grid.rows == 256);
  REQUIRE(r.tally.cells.size() == 65536);
  for (const auto& [cell, c] : r.tally.cells) {
    CHECK(c.judged == 1);
    CHECK(c.mismatches == (cell == 0x3c01 ? 1u : 0u));
    // Binary16 NaN words (exponent 31, fraction not 0) may pass under nan-any; our codec keeps
    // the payload, so none do.
    CHECK(c.accepted == 0);
  }
}

TEST_CASE("cells survive the report's JSON and merge; cells that do not add up are refused", "[cells]") {
  const nc_plugin_v1 t = with(truncating_convert, nullptr);
  const Report whole = sweep_of("convert.F32_TO_BF16_RNE", t, 65537);
  Report back;
  std::string error;
  REQUIRE(nc::sweep::from_json(nc::sweep::to_json(whole), &back, &error));
  CHECK(back.tally.cells == whole.tally.cells);
  CHECK(nc::sweep::to_json(back) == nc::sweep::to_json(whole));

  std::vector<nc::sweep::ShardReport> shards;
  for (uint64_t k = 0; k < 3; ++k)
    shards.push_back({"shard" + std::to_string(k), sweep_of("convert.F32_TO_BF16_RNE", t, 65537, {k, 3})});
  std::vector<Report> merged;
  REQUIRE(nc::sweep::merge(shards, &merged, &error));
  REQUIRE(merged.size() == 1);
  CHECK(merged[0].tally.cells == whole.tally.cells);

  auto refusal = [&](const nlohmann::json& text) {
    Report fresh;
    CHECK_FALSE(nc::sweep::from_json(text.dump(), &fresh, &error));
    return error;
  };
  nlohmann::json j = nlohmann::json::parse(nc::sweep::to_json(whole));
  nlohmann::json short_list = j;
  short_list["cells"]["judged"] = "8*8191";
  CHECK_THAT(refusal(short_list), Contains("\"judged\" is not runs of 8192 counts"));
  nlohmann::json more = j;
  more["cells"]["mismatches"] = "9999*8192";  // more than any cell judged (about 8 each)
  CHECK_THAT(refusal(more), Contains("more mismatches and accepted inputs than judged"));
  nlohmann::json moved = j;
  moved["cells"]["judged"] = "65537*8192";  // judged cells that do not add up to "covered"
  CHECK_THAT(refusal(moved), Contains("do not add up"));
}
