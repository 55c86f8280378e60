// The registry is the vocabulary every stage reads; these checks hold it against what it must
// agree with without being derived from it: FORMAT.md's column lines written out by hand, the
// oracle's bit-level description of each float word type, and the committed corpus's #policy
// lines (which the sweep's NaN latitude must equal: it reads the registry, the generator wrote the
// corpus from it).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "corpus/reader.h"
#include "generator/columns.h"
#include "oracle/context.h"
#include "oracle/decode.h"
#include "oracle/float_format.h"
#include "registry/registry.h"
#include "runners/departure.h"

using namespace nc;

TEST_CASE("registry: each op's #columns line is FORMAT.md's", "[registry]") {
  // vectors/FORMAT.md "Operations", copied by hand.
  const std::pair<const char*, const char*> format_md[] = {
      {"decode", "id word expect accept value class tags comment"},
      {"validate", "id word expect accept tags comment"},
      {"parse", "id name expect accept tags comment"},
      {"reconstruct", "id code scale divisor expect accept exact tags comment"},
      {"convert", "id src expect accept exact tags comment"},
      {"encode", "id src_type shape src expect accept trace norm tags comment"},
      {"validate-tensor", "id shape codes scales divisor expect accept tags comment"},
      {"dequantize", "id shape codes scales divisor expect accept tags comment"},
      {"layout", "id shape row block expect accept position tags comment"},
  };
  STATIC_REQUIRE(std::size(format_md) == kOpCount);
  for (const auto& [name, line] : format_md) {
    INFO(name);
    const auto op = find_op(name);
    REQUIRE(op);
    CHECK(op_columns_line(*op) == line);
    // The generator's columns are the same table.
    auto cols = gen::op_columns(std::string(name) + " X");
    REQUIRE(cols.ok());
    std::string joined;
    for (const std::string& c : cols->all()) joined += (joined.empty() ? "" : " ") + c;
    CHECK(joined == line);
  }
  CHECK_FALSE(find_op("decode2"));
}

TEST_CASE("registry: float word facts agree with the oracle's description", "[registry]") {
  for (const WordTypeInfo& w : kWordTypes) {
    INFO(w.name);
    const auto f = oracle::float_format_of(w.id);
    CHECK(w.is_float == f.has_value());
    if (!f) continue;
    const oracle::FloatFormatInfo& o = oracle::info(*f);
    CHECK(w.bits == uint32_t(o.bits));
    CHECK(w.exponent_bits == uint32_t(o.exponent_bits));
    CHECK(w.fraction_bits == uint32_t(o.fraction_bits));
    CHECK((w.nan == NanSpelling::None) == !o.has_nan);
    CHECK((w.nan == NanSpelling::Ieee) == (o.has_nan && o.has_inf));
  }
}

TEST_CASE("registry: the judge's NaN masks from registry facts match the oracle on every word", "[registry]") {
  oracle::Context ctx;
  for (WordType t : {WordType::BF16, WordType::F16, WordType::E4M3FN, WordType::E2M1}) {
    INFO(info(t).name);
    uint64_t nans = 0;
    for (uint32_t w = 0; w < (1u << info(t).bits); ++w) {
      const bool oracle_nan = oracle::decode(ctx, t, w).cls == oracle::ValueClass::NaN;
      nans += oracle_nan;
      if (runners::is_nan_word(t, w) != oracle_nan) FAIL_CHECK("word " << w);
    }
    // The hand count: BF16 2 * 127, F16 2 * 1023, E4M3FN 2, E2M1 none.
    const uint64_t expected = t == WordType::BF16 ? 254 : t == WordType::F16 ? 2046 : t == WordType::E4M3FN ? 2 : 0;
    CHECK(nans == expected);
  }
  for (uint32_t w : {0x7f800001u, 0xffc00000u, 0x7fffffffu}) CHECK(runners::is_nan_word(WordType::FP32, w));
  for (uint32_t w : {0x7f800000u, 0xff800000u, 0x7f7fffffu, 0u}) CHECK_FALSE(runners::is_nan_word(WordType::FP32, w));
  CHECK(runners::canonical_nan_word(WordType::FP32) == 0x7fc00000u);
  CHECK(runners::canonical_nan_word(WordType::BF16) == 0x7fc0u);
  CHECK(runners::canonical_nan_word(WordType::F16) == 0x7e00u);
  CHECK(runners::canonical_nan_word(WordType::E4M3FN) == 0x7fu);
  CHECK_FALSE(runners::canonical_nan_word(WordType::E2M1));
}

namespace {
std::set<std::string> suite_policies(const std::string& suite) {
  auto s = corpus::read_suite(std::string(NC_SOURCE_DIR) + "/vectors/" + suite + ".vec.zst");
  REQUIRE(s.ok());
  std::set<std::string> names;
  for (const auto& [name, text] : s->header.policies) names.insert(name);
  return names;
}
std::set<std::string> latitude_set(std::string_view latitude) {
  return latitude.empty() ? std::set<std::string>{} : std::set<std::string>{std::string(latitude)};
}
}  // namespace

TEST_CASE("registry: NaN latitude equals the committed corpus's #policy lines", "[registry]") {
  for (const RecipeInfo& r : kRecipes) {
    INFO(r.name);
    CHECK(suite_policies("convert." + std::string(r.name)) == latitude_set(r.nan_latitude));
    CHECK(find_recipe(r.name) == r.id);
  }
  // The recipes' latitude by hand (docs/recipes.md): only the destinations with a NaN payload.
  CHECK(info(Recipe::F32_TO_BF16_RNE).nan_latitude == "nan-any");
  CHECK(info(Recipe::F32_TO_F16_RNE).nan_latitude == "nan-any");
  CHECK(info(Recipe::F32_TO_E4M3FN_RNE_OVF_NAN).nan_latitude.empty());
  for (const WordTypeInfo& w : kWordTypes)
    if (w.is_float && w.bits <= 16) {
      INFO(w.name);
      CHECK(suite_policies("decode." + std::string(w.name)) == latitude_set(w.decode_nan_latitude));
    }
}

TEST_CASE("registry: rules, policies and value-class tokens", "[registry]") {
  CHECK(find_rule("zero-scale-codes") == RuleId::ZeroScaleCodes);
  CHECK(rule_name(RuleId::ScaleOverflow) == "scale-overflow");
  CHECK_FALSE(find_rule("word-range"));  // codec's own, not a corpus rule
  CHECK(is_policy("nan-payload"));
  CHECK_FALSE(is_policy("nan-whatever"));
  CHECK(kValueClassTokens[5] == "int");
  CHECK(format_name_list() == "BF16 FP32 I32 Q4G64_F16S Q5G64_F16S Q6G64_F16S W8G32_F16S NVFP4 FP8_E4M3FN_ROW_BF16S");
  // Corpus word widths (FORMAT.md): codes padded to a byte.
  CHECK(info(WordType::Q4_CODE).hex_digits == 2);
  CHECK(info(WordType::E2M1).hex_digits == 1);
  CHECK(info(WordType::I32).hex_digits == 8);
}
