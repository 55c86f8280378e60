// Field syntax per vectors/FORMAT.md's op table (corpus/schema.h). Each corrupted record below
// carries a correctly re-hashed id and sits in a well-formed suite, so before the schema checks
// the reader (and with it lint and replay) accepted it; now it is rejected with file, line, case
// id and the column. Every op also has a well-formed record that must be accepted.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <utility>
#include <vector>

#include "corpus/reader.h"
#include "corpus/sha256.h"

using namespace nc::corpus;

namespace {

struct Columns {
  const char* op;
  const char* columns;
  size_t inputs;  // how many fields after the id are inputs (hashed into the id)
};

const Columns kDecodeE4M3{"decode E4M3FN", "id word expect accept value class tags comment", 1};
const Columns kValidateNvfp4Scale{"validate NVFP4.scale", "id word expect accept tags comment", 1};
const Columns kParse{"parse", "id name expect accept tags comment", 1};
const Columns kReconstructW8{"reconstruct W8G32_F16S", "id code scale divisor expect accept exact tags comment", 3};
const Columns kConvertBf16{"convert F32_TO_BF16_RNE", "id src expect accept exact tags comment", 1};
const Columns kEncodeQ4{"encode Q4G64_F16S", "id src_type shape src expect accept trace norm tags comment", 3};
const Columns kTensorQ4{"validate-tensor Q4G64_F16S", "id shape codes scales divisor expect accept tags comment", 4};
const Columns kDequantNvfp4{"dequantize NVFP4", "id shape codes scales divisor expect accept tags comment", 4};

// One record, `fields` being everything after the id; the id is hashed from the inputs as
// FORMAT.md defines it (independently of corpus/case_id.cc, with OpenSSL's SHA-256).
std::string suite_with(const Columns& c, const std::vector<std::string>& fields) {
  std::string inputs, rest;
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string& to = i < c.inputs ? inputs : rest;
    to += (to.empty() ? "" : " ") + fields[i];
  }
  const std::string id = "t.s:" + sha256_hex("t.s\n" + inputs).substr(0, 12);
  return std::string("#ninfer-conform-vectors 1\n#suite t.s\n#op ") + c.op + "\n#about A test.\n#spec 3\n#columns " +
         c.columns + "\n#records 1\n" + id + " " + inputs + " " + rest + "\n";
}

std::string id_of(const std::string& text) {
  size_t at = text.find("\nt.s:");
  return text.substr(at + 1, text.find(' ', at) - at - 1);
}

// The record must be rejected: message names the file, line 8, the case and `what`.
void rejected(const Columns& c, const std::vector<std::string>& fields, const std::string& what) {
  const std::string text = suite_with(c, fields);
  Result<SuiteFile> r = read_suite_text(text, "s.txt");
  INFO(text);
  REQUIRE_FALSE(r.ok());
  const std::string m = r.error().message();
  INFO(m);
  CHECK(m.find("s.txt:8: case " + id_of(text) + ": ") == 0);
  CHECK(m.find(what) != std::string::npos);
}

void accepted(const Columns& c, const std::vector<std::string>& fields) {
  const std::string text = suite_with(c, fields);
  Result<SuiteFile> r = read_suite_text(text, "s.txt");
  INFO(text);
  INFO((r.ok() ? "" : r.error().message()));
  CHECK(r.ok());
}

}  // namespace

TEST_CASE("schema: well-formed records of every op are accepted", "[corpus][schema]") {
  accepted(kDecodeE4M3, {"01", "3b000000", "-", "0x1p-9", "subnormal", "-", "smallest subnormal"});
  accepted(kDecodeE4M3, {"7f", "nan*", "-", "nan", "nan", "-", ""});
  accepted(kValidateNvfp4Scale, {"ff", "!scale-negative", "-", "-", "sign bit"});
  accepted(kParse, {"4246313600", "!unknown-format", "-", "-", "trailing NUL"});
  accepted(kParse, {"\"\"", "!unknown-format", "-", "-", "empty"});
  accepted(kParse, {"42463136", "BF16", "-", "-", "BF16"});
  accepted(kReconstructW8, {"20", "4400", "-", "43000000", "-", "0x1p+7", "-", "32 x 4"});
  accepted(kReconstructW8, {"80", "4400", "-", "!code-illegal", "-", "-", "-", "no value"});
  accepted(kReconstructW8, {"01", "3c00", "-", "3f800000", "-", "1/3", "-", "a rational"});
  accepted(kConvertBf16, {"3f808000", "3f80", "-", "0x1.01p+0", "-", "tie"});
  accepted(kEncodeQ4, {"FP32", "2", "3f800000,40000000", "4000/4,-7", "-", "40000000.3e124925.4000.3f000000",
                       "40800000,c0e00000", "-", "two"});
  accepted(kEncodeQ4, {"BF16", "1x2", "7f80,3f80", "!nonfinite", "-", "-.-.-.-", "-", "-", "inf"});
  accepted(kTensorQ4, {"1x2", "01,02", "3c00", "-", "valid", "-", "-", "ok"});
  accepted(kTensorQ4, {"1x2", "01", "3c00,3c00", "-", "!shape@-", "-", "-", "the shape rule excuses the counts"});
  accepted(kTensorQ4, {"1x2", "01,02", "bc00", "-", "!scale-negative@s0", "-", "-", "located"});
  accepted(kDequantNvfp4, {"1x2", "1,2", "38", "3f800000", "3f000000,3f800000", "-", "-", "two"});
}

TEST_CASE("schema: words are fixed-width lowercase hex of their word type", "[corpus][schema]") {
  const std::string e4m3 = "column `word`";
  rejected(kDecodeE4M3, {"7E", "3b000000", "-", "0x1p-9", "subnormal", "-", "uppercase"}, e4m3);
  rejected(kDecodeE4M3, {"7g", "3b000000", "-", "0x1p-9", "subnormal", "-", "non-hex"}, e4m3);
  rejected(kDecodeE4M3, {"07e", "3b000000", "-", "0x1p-9", "subnormal", "-", "3 digits"}, "2 lowercase hex digits");
  rejected(kDecodeE4M3, {"000000000000007e", "3b000000", "-", "0x1p-9", "subnormal", "-", "16 digits"}, e4m3);
  rejected(kDecodeE4M3, {"0x7e", "3b000000", "-", "0x1p-9", "subnormal", "-", "prefix"}, e4m3);
  rejected(kDecodeE4M3, {"01", "3B000000", "-", "0x1p-9", "subnormal", "-", "uppercase result"}, "column `expect`");
  rejected(kDecodeE4M3, {"01", "3b00000", "-", "0x1p-9", "subnormal", "-", "7-digit result"}, "column `expect`");
  rejected(kValidateNvfp4Scale, {"f", "valid", "-", "-", "an E4M3FN scale is 2 digits"}, "2 lowercase hex digits");
  rejected(kConvertBf16, {"3f808000", "3f800", "-", "0x1.01p+0", "-", "BF16 result is 4 digits"},
           "4 lowercase hex digits");
  rejected(kReconstructW8, {"20", "440", "-", "43000000", "-", "0x1p+7", "-", "F16 scale"}, "column `scale`");
  rejected(kReconstructW8, {"20", "4400", "3f800000", "43000000", "-", "0x1p+7", "-", "W8 has no divisor"},
           "column `divisor`");
  rejected(kEncodeQ4, {"FP32", "2", "3f800000,4000000", "4000/4,-7", "-", "-", "-", "-", "short src word"},
           "column `src`");
  rejected(kTensorQ4, {"1x2", "01,2", "3c00", "-", "valid", "-", "-", "1-digit Q4 code"}, "column `codes`");
}

// Words of 1 to 8 digits are checked eight bytes at a time (corpus/schema.cc); every printable byte
// that is not a lowercase hex digit, in every position, must still be refused, and every digit
// accepted. Bytes outside printable ASCII are refused before the schema, by the reader's line rule.
TEST_CASE("schema: every non-digit byte at every place of a word is refused", "[corpus][schema]") {
  const std::string digits = "0123456789abcdef";
  for (int b = 0; b < 256; ++b) {
    const char c = char(b);
    if (c == ' ' || c == '\n') continue;  // these split the record or the line instead
    INFO("byte " << b);
    if (b < 0x20 || b > 0x7e) {
      std::string src = "3f808000";
      src[3] = c;
      Result<SuiteFile> r = read_suite_text(suite_with(kConvertBf16, {src, "3f80", "-", "-", "-", "c"}), "s.txt");
      REQUIRE_FALSE(r.ok());
      CHECK_THAT(r.error().message(), Catch::StartsWith("s.txt:8: byte ") && Catch::Contains("printable ASCII"));
      continue;
    }
    const bool hex = digits.find(c) != std::string::npos;
    for (size_t at = 0; at < 8; ++at) {
      std::string src = "3f808000";
      src[at] = c;
      if (hex) accepted(kConvertBf16, {src, "3f80", "-", "-", "-", "c"});
      else rejected(kConvertBf16, {src, "3f80", "-", "-", "-", "c"}, "column `src`");
    }
    for (size_t at = 0; at < 4; ++at) {
      std::string expect = "3f80";
      expect[at] = c;
      if (hex) accepted(kConvertBf16, {"3f808000", expect, "-", "-", "-", "c"});
      else rejected(kConvertBf16, {"3f808000", expect, "-", "-", "-", "c"}, "column `expect`");
    }
    for (size_t at = 0; at < 2; ++at) {
      std::string word = "01";
      word[at] = c;
      if (hex) accepted(kDecodeE4M3, {word, "3b000000", "-", "-", "-", "-", "c"});
      else rejected(kDecodeE4M3, {word, "3b000000", "-", "-", "-", "-", "c"}, "column `word`");
    }
  }
}

TEST_CASE("schema: values, rule names and enumerations", "[corpus][schema]") {
  rejected(kDecodeE4M3, {"01", "3b000000", "-", "0.001953125", "subnormal", "-", "decimal fraction"}, "column `value`");
  rejected(kDecodeE4M3, {"01", "3b000000", "-", "0x1P-9", "subnormal", "-", "uppercase P"}, "column `value`");
  rejected(kDecodeE4M3, {"01", "3b000000", "-", "0x1p-9", "tiny", "-", "class"}, "column `class`");
  rejected(kValidateNvfp4Scale, {"ff", "!negative-scale", "-", "-", "unknown rule"}, "column `expect`");
  rejected(kValidateNvfp4Scale, {"ff", "invalid", "-", "-", "not a verdict"}, "column `expect`");
  rejected(kParse, {"424", "BF16", "-", "-", "odd number of digits"}, "column `name`");
  rejected(kParse, {"42463136", "bf16", "-", "-", "not a registry spelling"}, "column `expect`");
  rejected(kReconstructW8, {"01", "3c00", "-", "3f800000", "-", "3/1", "-", "an integer written as p/1"},
           "column `exact`");
  rejected(kReconstructW8, {"01", "3c00", "-", "3f800000", "-", "1/-3", "-", "a negative denominator"},
           "column `exact`");
  rejected(kTensorQ4, {"1x2", "01,02", "3c00", "-", "!shape", "-", "-", "missing @where"}, "column `expect`");
  rejected(kTensorQ4, {"1x2", "01,02", "3c00", "-", "!shape@x1", "-", "-", "bad where"}, "column `expect`");
  rejected(kEncodeQ4, {"F32", "2", "3f800000,40000000", "4000/4,-7", "-", "-", "-", "-", "src_type"},
           "column `src_type`");
}

TEST_CASE("schema: shapes and list lengths against shapes", "[corpus][schema]") {
  rejected(kEncodeQ4, {"FP32", "2x", "3f800000,40000000", "4000/4,-7", "-", "-", "-", "-", "bad shape"},
           "column `shape`");
  rejected(kEncodeQ4, {"FP32", "3", "3f800000,40000000", "4000/4,-7", "-", "-", "-", "-", "3 elements, 2 words"},
           "column `src` has 2 items, shape 3 needs 3");
  rejected(kEncodeQ4, {"FP32", "2", "3f800000,40000000", "4000,4000/4,-7", "-", "-", "-", "-", "one group, two scales"},
           "column `expect` has 2 scales, shape 2 needs 1");
  rejected(kEncodeQ4, {"FP32", "2", "3f800000,40000000", "4000/4", "-", "-", "-", "-", "one code for two elements"},
           "column `expect` has 1 codes, shape 2 needs 2");
  rejected(kEncodeQ4, {"FP32", "2", "3f800000,40000000", "4000/4,-7", "-", "-", "40800000", "-", "short norm"},
           "column `norm` has 1 items");
  rejected(kTensorQ4, {"1x2", "01", "3c00", "-", "valid", "-", "-", "valid needs its codes"},
           "column `codes` has 1 items, shape 1x2 needs 2");
  rejected(kTensorQ4, {"2x65", "01", "3c00", "-", "!code-illegal@c0", "-", "-", "2 rows x 2 groups"},
           "column `codes` has 1 items");
  rejected(kDequantNvfp4, {"1x2", "1,2", "38", "3f800000", "3f000000", "-", "-", "one output for two"},
           "column `expect` has 1 items, shape 1x2 needs 2");
  rejected(kDequantNvfp4, {"1x2", "1,2", "38", "-", "3f000000,3f800000", "-", "-", "NVFP4 needs its divisor"},
           "column `divisor`");
}

TEST_CASE("schema: an unknown op selector or columns not the op's are header errors", "[corpus][schema]") {
  auto header_error = [](const std::string& text) {
    Result<SuiteFile> r = read_suite_text(text, "s.txt");
    REQUIRE_FALSE(r.ok());
    return r.error().message();
  };
  std::string t = suite_with(kDecodeE4M3, {"01", "3b000000", "-", "0x1p-9", "subnormal", "-", "x"});
  std::string bad_type = t;
  bad_type.replace(bad_type.find("E4M3FN"), 6, "E5M2");
  CHECK_THAT(header_error(bad_type), Catch::Contains("s.txt:6") && Catch::Contains("unknown selector"));
  std::string bad_cols = t;
  bad_cols.replace(bad_cols.find("value class"), 11, "class value");
  CHECK_THAT(header_error(bad_cols), Catch::Contains("are not those of #op decode"));
}

// The exact-value check scans each value once, as the form its first bytes allow; against
// FORMAT.md's grammar written as regular expressions, on valid values of every form and on
// values one or two random edits away from them.
TEST_CASE("schema: exact values agree with FORMAT.md's grammar on edited values", "[corpus][schema]") {
  const std::regex grammar(
      "-?0x[0-9a-f](\\.[0-9a-f]+)?p[+-](0|[1-9][0-9]*)"  // hex float
      "|inf|-inf|nan"
      "|0|-?[1-9][0-9]*"                    // signed decimal integer
      "|-?[1-9][0-9]*/([2-9]|[1-9][0-9]+)"  // p/q, q > 1
      "|-");                                // absent (FORMAT.md: `-`)
  const std::vector<std::string> seeds = {"0x1.8p+1", "-0x1p-149", "0x0p+0", "0x1.fffffep+127", "inf", "-inf", "nan",
                                          "0", "-17", "255", "12/7", "-11/340282346638528859811704183484516925440",
                                          "3/10", "-1/2",
                                          // and the edges of each form, most of them refused
                                          "-0", "00", "05", "-05", "0/5", "-0/5", "05/3", "1/1", "1/0", "1/01", "-",
                                          "0x", "0x1p+01", "0x1.p+1", "-nan", "infinity", "0x1p1",
                                          // fractions of 6 to 16 digits, read 8 bytes at a time
                                          "0x1.a10002p-101", "-0x1.86fffep-35", "0x1.0123456789abcdefp+3",
                                          "0x1.abcdefABp+1", "0x1.00000000p-1000", "0x1.1234567p+0"};
  const std::string alphabet = "0123456789abcdefx.p+-/inP";
  uint32_t x = 88172645u;
  auto next = [&] { return x ^= x << 13, x ^= x >> 17, x ^= x << 5; };
  size_t valid = 0, invalid = 0;
  for (int n = 0; n < 4000; ++n) {
    // Every seed once as it is, then seeds with edits.
    std::string v = seeds[size_t(n) < seeds.size() ? size_t(n) : next() % seeds.size()];
    for (uint32_t edits = size_t(n) < seeds.size() ? 0 : next() % 3; edits > 0; --edits) {
      const size_t at = next() % (v.size() + 1);
      const char c = alphabet[next() % alphabet.size()];
      switch (next() % 3) {
        case 0:
          if (at < v.size()) v[at] = c;
          break;
        case 1:
          v.insert(v.begin() + long(at), c);
          break;
        default:
          if (at < v.size() && v.size() > 1) v.erase(at, 1);
          break;
      }
    }
    const bool want = std::regex_match(v, grammar);
    (want ? valid : invalid) += 1;
    const std::string text = suite_with(kConvertBf16, {"3f800000", "3f80", "-", v, "-", "edited"});
    INFO("exact value `" << v << "`");
    CHECK(read_suite_text(text, "s.txt").ok() == want);
  }
  CHECK(valid > 1000);
  CHECK(invalid > 1000);
}
