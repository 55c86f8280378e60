#include <catch2/catch.hpp>

#include "generator/columns.h"
#include "generator/suite.h"

using namespace nc::gen;

TEST_CASE("SuiteBuilder merges a repeated input with the same answer and unites its tags", "[generator][builder]") {
  SuiteBuilder b(SuiteInfo{"t", "decode BF16", "a", "1", {}, {}});
  b.add(Case{{"0001"}, "00010000", {}, {"0x1p-133", "subnormal"}, {"subnormal"}, "first"});
  b.add(Case{{"0001"}, "00010000", {}, {"0x1p-133", "subnormal"}, {"min-subnormal"}, "second"});
  REQUIRE(b.cases().size() == 1);
  CHECK(b.cases()[0].tags == std::vector<std::string>{"subnormal", "min-subnormal"});
  CHECK(b.cases()[0].comment == "first");
}

TEST_CASE("SuiteBuilder refuses two answers for one input", "[generator][builder]") {
  SuiteBuilder b(SuiteInfo{"t", "decode BF16", "a", "1", {}, {}});
  b.add(Case{{"0001"}, "00010000", {}, {"0x1p-133", "subnormal"}, {}, ""});
  CHECK_THROWS_WITH(b.add(Case{{"0001"}, "00020000", {}, {"0x1p-133", "subnormal"}, {}, ""}),
                    Catch::Contains("added twice with different expectations"));
}

TEST_CASE("op columns follow the FORMAT.md operations table", "[generator][columns]") {
  auto c = op_columns("decode E4M3FN");
  REQUIRE(c.ok());
  CHECK(c->all() == std::vector<std::string>{"id", "word", "expect", "accept", "value", "class", "tags", "comment"});
  CHECK(op_columns("dequantize NVFP4")->inputs == std::vector<std::string>{"shape", "codes", "scales", "divisor"});
  CHECK(op_columns("reconstruct Q4G64_F16S")->info == std::vector<std::string>{"exact"});
  CHECK_FALSE(op_columns("frobnicate X").ok());
}
