// Spot checks of the committed corpus against values derived by hand from the spec (not from the
// oracle or the codec): if the oracle, the generator or the writer goes wrong, these fail.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "corpus/case_id.h"
#include "corpus/manifest.h"
#include "corpus/reader.h"

using namespace nc::corpus;

namespace {

// The record of `suite` whose inputs are `inputs`, as column -> value.
std::map<std::string, std::string> lookup(const std::string& suite, const std::vector<std::string>& inputs) {
  static std::map<std::string, SuiteFile> cache;
  auto it = cache.find(suite);
  if (it == cache.end()) {
    auto f = read_suite(std::string(NC_DEFAULT_CORPUS_DIR) + "/" + suite + ".vec.zst");
    INFO((f.ok() ? std::string() : f.error().message()));
    REQUIRE(f.ok());
    it = cache.emplace(suite, std::move(*f)).first;
  }
  const std::string id = case_id(suite, inputs);
  for (const auto& r : it->second.records)
    if (r.id() == id) {
      std::map<std::string, std::string> m;
      for (size_t c = 0; c < it->second.header.columns.size(); ++c) m[it->second.header.columns[c]] = r.fields[c];
      return m;
    }
  FAIL("no record " << id << " in " << suite);
  return {};
}

}  // namespace

TEST_CASE("committed corpus: direct and component decodes match the spec", "[corpus][committed]") {
  auto one = lookup("decode.BF16", {"3f80"});
  CHECK(one["expect"] == "3f800000");
  CHECK(one["value"] == "0x1p+0");
  CHECK(one["class"] == "normal");
  auto sub = lookup("decode.BF16", {"0001"});  // fraction 1 * 2^-133 (spec 3.1)
  CHECK(sub["value"] == "0x1p-133");
  CHECK(sub["class"] == "subnormal");
  CHECK(lookup("decode.BF16", {"ffc1"})["expect"] == "ffc10000");  // payload and sign kept
  CHECK(lookup("decode.BF16", {"7f81"})["tags"].find("nan-signaling") != std::string::npos);
  auto e448 = lookup("decode.E4M3FN", {"7e"});
  CHECK(e448["value"] == "0x1.cp+8");  // 448
  CHECK(e448["expect"] == "43e00000");
  CHECK(lookup("decode.E4M3FN", {"01"})["value"] == "0x1p-9");
  CHECK(lookup("decode.E4M3FN", {"ff"})["expect"] == "nan*");
  CHECK(lookup("decode.E2M1", {"7"})["value"] == "0x1.8p+2");  // 6
  CHECK(lookup("decode.W8G32_F16S.code", {"80"})["expect"] == "!code-illegal");
  CHECK(lookup("decode.W8G32_F16S.code", {"81"})["expect"] == "-127");
  CHECK(lookup("decode.Q4G64_F16S.code", {"08"})["expect"] == "-8");
  CHECK(lookup("decode.Q6G64_F16S.code", {"3f"})["expect"] == "-1");
  CHECK(lookup("decode.I32", {"80000000"})["expect"] == "-2147483648");
}

TEST_CASE("committed corpus: validity, parsing, conversion and reconstruction match the spec", "[corpus][committed]") {
  CHECK(lookup("validate.Q4G64_F16S.scale", {"0000"})["expect"] == "valid");
  CHECK(lookup("validate.Q4G64_F16S.scale", {"0001"})["expect"] == "valid");
  CHECK(lookup("validate.Q4G64_F16S.scale", {"8000"})["expect"] == "!scale-negative");
  CHECK(lookup("validate.W8G32_F16S.scale", {"7c00"})["expect"] == "!scale-nonfinite");  // +inf
  // -inf breaks two rules; the sign bit is checked first (vectors/FORMAT.md, rule precedence).
  CHECK(lookup("validate.W8G32_F16S.scale", {"fc00"})["expect"] == "!scale-negative");
  CHECK(lookup("validate.NVFP4.scale", {"7f"})["expect"] == "!scale-nonfinite");
  CHECK(lookup("validate.NVFP4.divisor", {"00000000"})["expect"] == "!divisor");
  CHECK(lookup("validate.FP8_E4M3FN_ROW_BF16S.code", {"7f"})["expect"] == "!code-illegal");
  CHECK(lookup("parse.registry", {"42463136"})["expect"] == "BF16");             // "BF16"
  CHECK(lookup("parse.registry", {"62663136"})["expect"] == "!unknown-format");  // "bf16"
  CHECK(lookup("parse.registry", {"\"\""})["expect"] == "!unknown-format");
  // 1 + 2^-8 lies halfway between BF16 1.0 (3f80) and 1 + 2^-7 (3f81): ties to the even 3f80.
  CHECK(lookup("convert.F32_TO_BF16_RNE", {"3f808000"})["expect"] == "3f80");
  CHECK(lookup("convert.F32_TO_BF16_RNE", {"3f818000"})["expect"] == "3f82");
  CHECK(lookup("convert.F32_TO_E4M3FN_RNE_SATFINITE", {"7f800000"})["expect"] == "7e");
  // E2M1 0x7 (6) * E4M3FN 0x7e (448) / 1.0 = 2688 = 0x1.5p+11 -> 0x45280000.
  auto nv = lookup("reconstruct.NVFP4", {"7", "7e", "3f800000"});
  CHECK(nv["expect"] == "45280000");
  CHECK(nv["exact"] == "0x1.5p+11");
  // Q4 code -8 * scale 1.0 (3c00) = -8.
  CHECK(lookup("reconstruct.Q4G64_F16S", {"08", "3c00", "-"})["expect"] == "c1000000");
}

TEST_CASE("committed corpus: issue 13 rules, ties and orderings match the spec", "[corpus][committed]") {
  // Spec 3.3: every NVFP4 K-axis group holds 16 code words, so any K not a multiple of 16 is a
  // shape error, checked before the divisor and the scales (vectors/FORMAT.md precedence).
  auto nv = read_suite(std::string(NC_DEFAULT_CORPUS_DIR) + "/validate-tensor.NVFP4.vec.zst");
  REQUIRE(nv.ok());
  size_t partial = 0;
  for (const auto& r : nv->records) {
    const std::string_view shape = r.fields[1];
    const uint64_t k = std::stoull(std::string(shape.substr(shape.rfind('x') + 1)));
    INFO(r.id() << " shape " << shape);
    if (shape.find('x') != std::string::npos && k % 16 != 0) {
      CHECK(r.fields[nv->header.column("expect")] == "!shape@-");
      ++partial;
    }
  }
  CHECK(partial >= 20);
  // W8: amax = 127.5 * 2^-22 gives raw 2^-22 * 127.5/127, binary16 scale 0x0004 (2^-22) and
  // inv32 = 2^22, so x * inv32 = -127.5 exactly; ties-to-even gives -128, clamped to -127 (spec 7).
  CHECK(lookup("encode.W8G32_F16S", {"FP32", "1", "b7ff0000"})["expect"] == "0004/-127");
  CHECK(lookup("encode.W8G32_F16S", {"FP32", "1", "37ff0000"})["expect"] == "0004/127");
  // Q4: 7.5 * 2^-22 likewise gives -7.5 -> -8 = qmin (kept) and +7.5 -> 8, clamped to 7.
  CHECK(lookup("encode.Q4G64_F16S", {"FP32", "1", "b5f00000"})["expect"] == "0004/-8");
  CHECK(lookup("encode.Q4G64_F16S", {"FP32", "1", "35f00000"})["expect"] == "0004/7");
  // Spec 5: W8 code 0x80 (-128) is outside [-127, 127]; 0x81 (-127) is valid.
  CHECK(lookup("validate.W8G32_F16S.code", {"80"})["expect"] == "!code-illegal");
  CHECK(lookup("validate.W8G32_F16S.code", {"81"})["expect"] == "valid");
  CHECK(lookup("validate.Q4G64_F16S.code", {"08"})["expect"] == "valid");
  // Spec 3.1: every direct word is a value of its format, NaNs and -0 included.
  CHECK(lookup("validate.BF16.word", {"ffc1"})["expect"] == "valid");
  CHECK(lookup("validate.FP32.word", {"7f800001"})["expect"] == "valid");
  CHECK(lookup("validate.I32.word", {"80000000"})["expect"] == "valid");
  // "Q5G64_F16S" followed by CR (0x0d) is not a registry name.
  CHECK(lookup("parse.registry", {"51354736345f463136530d"})["expect"] == "!unknown-format");
  // docs/recipes.md: SATFINITE keeps a NaN's sign; no alternative NaN policy for E4M3FN.
  auto nan = lookup("convert.F32_TO_E4M3FN_RNE_SATFINITE", {"ffc00000"});
  CHECK(nan["expect"] == "ff");
  CHECK(nan["accept"] == "-");
}

TEST_CASE("committed corpus: every suite declares tags and the manifest lists them all", "[corpus][committed]") {
  auto m = read_manifest(NC_DEFAULT_CORPUS_DIR);
  REQUIRE(m.ok());
  CHECK(m->suites.size() >= 43);
  for (const auto& e : m->suites) {
    auto r = SuiteReader::open(std::string(NC_DEFAULT_CORPUS_DIR) + "/" + e.file);
    REQUIRE(r.ok());
    INFO(e.suite);
    CHECK_FALSE((*r)->header().tags.empty());
  }
}

TEST_CASE("committed corpus: every BF16/F16 tie, worked by hand from docs/recipes.md", "[corpus][committed]") {
  // 1 + 2^-8 is halfway between BF16 0x3f80 and 0x3f81: to the even 0x3f80; 1 + 3 * 2^-8 -> 0x3f82.
  CHECK(lookup("convert.F32_TO_BF16_RNE.ties", {"3f808000"})["expect"] == "3f80");
  CHECK(lookup("convert.F32_TO_BF16_RNE.ties", {"3f818000"})["expect"] == "3f82");
  CHECK(lookup("convert.F32_TO_BF16_RNE.ties", {"3f818001"})["expect"] == "3f82");  // above the tie
  CHECK(lookup("convert.F32_TO_BF16_RNE.ties", {"3f817fff"})["expect"] == "3f81");  // below the tie
  // 2^-134, half the smallest BF16 subnormal 2^-133 (binary32 subnormal 2^15 * 2^-149 =
  // 0x00008000): the tie goes to +0, its negative to -0; one binary32 ulp above goes to 0x0001.
  CHECK(lookup("convert.F32_TO_BF16_RNE.ties", {"00008000"})["expect"] == "0000");
  CHECK(lookup("convert.F32_TO_BF16_RNE.ties", {"80008000"})["expect"] == "8000");
  CHECK(lookup("convert.F32_TO_BF16_RNE.ties", {"00008001"})["expect"] == "0001");
  // F16: 65520 = 0x477ff000 is the overflow midpoint (to infinity), 65519.996 just below it stays 0x7bff.
  auto over = lookup("convert.F32_TO_F16_RNE.ties", {"477ff000"});
  CHECK(over["expect"] == "7c00");
  CHECK(over["tags"].find("overflow") != std::string::npos);
  CHECK(lookup("convert.F32_TO_F16_RNE.ties", {"477fefff"})["expect"] == "7bff");
  CHECK(lookup("convert.F32_TO_F16_RNE.ties", {"c77ff000"})["expect"] == "fc00");
  // 3 * 2^-25, halfway between the F16 subnormals 0x0001 and 0x0002 (binary32 0x33c00000): to 0x0002.
  auto sub = lookup("convert.F32_TO_F16_RNE.ties", {"33c00000"});
  CHECK(sub["expect"] == "0002");
  CHECK(sub["tags"].find("subnormal") != std::string::npos);
}

TEST_CASE("committed corpus: suite sizes of the exhaustive tie and layout suites", "[corpus][committed]") {
  // Ties: one per adjacent pair of finite magnitudes (0x7f7f BF16, 0x7bff F16 pairs) plus the
  // overflow midpoint, times two signs, times (tie, below, above).
  auto m = read_manifest(NC_DEFAULT_CORPUS_DIR);
  REQUIRE(m.ok());
  REQUIRE(m->find("convert.F32_TO_BF16_RNE.ties"));
  CHECK(m->find("convert.F32_TO_BF16_RNE.ties")->records == (0x7f7fu + 1) * 2 * 3);
  REQUIRE(m->find("convert.F32_TO_F16_RNE.ties"));
  CHECK(m->find("convert.F32_TO_F16_RNE.ties")->records == (0x7bffu + 1) * 2 * 3);
  // Layout: scale (299, 16) of [300, 272] by hand (FORMAT.md): tile 2 * 5 + 4 = 14, line 11,
  // row group 1, byte 0 -> 14 * 512 + 11 * 16 + 4 = 7348; plane 3 * 5 * 512 = 7680.
  CHECK(lookup("layout.NVFP4.blockscale-k16-m128x4-v1", {"300x272", "299", "16"})["expect"] == "7348/7680");
}
