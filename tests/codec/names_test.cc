// The closed registry (spec 3.2, 11): exact names only.
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "codec/format_name.h"

using namespace nc;
using namespace nc::codec;

TEST_CASE("the nine canonical names parse to their formats", "[codec][names]") {
  const std::pair<const char*, Format> names[] = {{"BF16", Format::BF16},
                                                  {"FP32", Format::FP32},
                                                  {"I32", Format::I32},
                                                  {"Q4G64_F16S", Format::Q4G64_F16S},
                                                  {"Q5G64_F16S", Format::Q5G64_F16S},
                                                  {"Q6G64_F16S", Format::Q6G64_F16S},
                                                  {"W8G32_F16S", Format::W8G32_F16S},
                                                  {"NVFP4", Format::NVFP4},
                                                  {"FP8_E4M3FN_ROW_BF16S", Format::FP8_E4M3FN_ROW_BF16S}};
  for (auto [n, f] : names) {
    auto r = parse_format(n);
    REQUIRE(r.ok());
    CHECK(*r == f);
  }
}

TEST_CASE("names outside the registry are rejected with the string named", "[codec][names]") {
  const char* rejected[] = {
      "FP16",  "FP8_E4M3FN", "I64",       "Q4G32_F16S", "Q6G128_F16S", "W8G64_F16S",      "INT32", "Q4",
      "W8G32", "BF16_CTRL",  "FP32_CTRL", "I32_CTRL",   "bf16",        " BF16",           "BF16 ", "NF4",
      "MXFP4", "Q4_K",       "",          "E4M3FN",     "F16",         "Q4G64_F16S.code", "nvfp4"};
  for (const char* n : rejected) {
    auto r = parse_format(n);
    INFO("name '" << n << "'");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().rule == Rule::UnknownFormat);
    CHECK(r.error().text().find(std::string("'") + n + "'") != std::string::npos);
  }
  const auto nul = parse_format(std::string_view("BF16\0", 5));
  REQUIRE_FALSE(nul.ok());
  CHECK(nul.error().text().find("'BF16\\x00'") != std::string::npos);
}

TEST_CASE("word types are a separate namespace", "[codec][names]") {
  CHECK(*parse_word_type("E4M3FN") == WordType::E4M3FN);
  CHECK(*parse_word_type("Q4G64_F16S.code") == WordType::Q4_CODE);
  CHECK_FALSE(parse_word_type("Q4G64_F16S").ok());
  CHECK_FALSE(parse_word_type("e4m3fn").ok());
}
