// lint's tag-truth check (corpus/tag_truth.h): each checkable tag whose property does not hold on
// its record is an error naming the record and the tag; a true tag is not.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "corpus/case_id.h"
#include "corpus/reader.h"
#include "corpus/tag_truth.h"
#include "corpus/writer.h"

using namespace nc::corpus;

namespace {

// Renders and reads back a suite of `op` with `columns` (inputs are columns 1..n_inputs).
SuiteFile suite(const std::string& name, const std::string& op, std::vector<std::string> columns, size_t n_inputs,
                std::vector<std::pair<std::string, std::string>> tags,
                const std::vector<std::vector<std::string>>& rows) {
  SuiteHeader h;
  h.version = kSchemaVersion;
  h.suite = name;
  h.op = op;
  static const std::string about("Fixture."), spec("7");  // copies: GCC 12's -Wrestrict misfires on literals here
  h.about = about;
  h.spec = spec;
  h.columns = std::move(columns);
  h.tags = std::move(tags);
  std::vector<std::vector<std::string>> recs;
  for (const auto& r : rows) {
    std::vector<std::string> rec{case_id(name, std::vector<std::string>(r.begin(), r.begin() + long(n_inputs)))};
    rec.insert(rec.end(), r.begin(), r.end());
    recs.push_back(rec);
  }
  auto out = render_suite(h, recs);
  REQUIRE(out.ok());
  auto f = read_suite_text(out->text, name);
  REQUIRE(f.ok());
  return std::move(*f);
}

std::vector<std::string> flagged(const SuiteFile& f) {
  std::vector<std::string> out;
  for (const Error& e : check_tag_truth(f, "x")) {
    std::string line(e.case_id);
    line.append(1, ' ').append(e.rule);
    out.push_back(std::move(line));
  }
  return out;
}

// How many of the errors name `what` (records come back in id order, not in fixture order).
size_t count(const std::vector<std::string>& errors, const std::string& what) {
  size_t n = 0;
  for (const auto& e : errors) n += e.find(what) != std::string::npos;
  return n;
}

}  // namespace

TEST_CASE("tag truth: convert overflow and underflow", "[corpus][lint]") {
  const auto f =
      suite("convert.F32_TO_BF16_RNE", "convert F32_TO_BF16_RNE",
            {"id", "src", "expect", "accept", "exact", "tags", "comment"}, 1, {{"overflow", "o"}, {"underflow", "u"}},
            {{"7fff8000", "7fff", "-", "nan", "overflow", "a NaN is not an overflow"},
             {"00800000", "0080", "-", "0x1p-126", "underflow", "the smallest normal"},
             {"00000001", "0000", "-", "0x1p-149", "underflow", "true: rounds to zero"},
             {"7f7fffff", "7f80", "-", "0x1.fffffep+127", "overflow", "true"}});
  const auto bad = flagged(f);
  REQUIRE(bad.size() == 2);
  CHECK(count(bad, "tag overflow is not true") == 1);
  CHECK(count(bad, "tag underflow is not true") == 1);
}

TEST_CASE("tag truth: encode readings on records that fail", "[corpus][lint]") {
  const auto f =
      suite("encode.Q4G64_F16S", "encode Q4G64_F16S",
            {"id", "src_type", "shape", "src", "expect", "accept", "trace", "norm", "tags", "comment"}, 3,
            {{"f64-carry", "c"}, {"nonfinite", "n"}, {"overflow", "o"}, {"qmax-denominator", "q"}},
            {{"FP32", "2", "3f800000,7fc00000", "!nonfinite", "-", "-", "-", "nonfinite,qmax-denominator", "NaN"},
             {"FP32", "1", "7f7fffff", "!scale-overflow", "-", "-", "-", "overflow", "true"},
             {"FP32", "1", "3f800000", "3092/7", "-", "3f800000.3e124925.3092.40e00e01", "40e00e01", "overflow",
              "not a failure"},
             {"F64", "1", "3ffffffff0000000", "4092/7", "-", "40000000.3e924925.4092.3fe00e01", "40e00e01", "f64-carry",
              "true: rounds up to 2"},
             {"F64", "1", "3ffffffff0000001", "4092/7", "-", "40000000.3e924925.4092.3fe00e01", "40e00e01", "f64-carry",
              "true: above the tie"},
             {"F64", "1", "3fffffffe0000000", "4092/7", "-", "3ffffffe.3e924924.4092.3fe00e01", "40e00e00", "f64-carry",
              "not true: below the tie, stays below 2"}});
  const auto bad = flagged(f);
  REQUIRE(bad.size() == 3);
  CHECK(count(bad, "tag qmax-denominator is not true") == 1);
  CHECK(count(bad, "tag overflow is not true") == 1);
  CHECK(count(bad, "tag f64-carry is not true") == 1);
}

TEST_CASE("tag truth: reconstruct refusals", "[corpus][lint]") {
  const auto f = suite("reconstruct.Q4G64_F16S", "reconstruct Q4G64_F16S",
                       {"id", "code", "scale", "divisor", "expect", "accept", "exact", "tags", "comment"}, 3,
                       {{"negative-zero", "z"}, {"zero-scale-pair", "p"}},
                       {{"01", "0000", "-", "00000000", "-", "0x0p+0", "zero-scale-pair", "answered, not refused"},
                        {"02", "0000", "-", "!zero-scale-codes", "-", "-", "zero-scale-pair", "true"},
                        {"0f", "3c00", "-", "bf800000", "-", "-0x1p+0", "negative-zero", "not -0"}});
  const auto bad = flagged(f);
  REQUIRE(bad.size() == 3);  // the first record breaks two properties of zero-scale-pair
  CHECK(count(bad, "tag zero-scale-pair is not true") == 2);
  CHECK(count(bad, "tag negative-zero is not true") == 1);
}
