// Verdict rules, one at a time, on hand-written tokens.
#include <catch2/catch.hpp>

#include "runners/tokens.h"
#include "runners/departure.h"
#include "runners/verdict.h"

using namespace nc::runners;
using nc::WordType;

namespace {
Judgement j(Capability c, ResultType t, const char* expect, const char* accept, const char* actual,
            std::optional<uint64_t> tol = std::nullopt) {
  JudgeOptions o;
  o.tolerance_ulp = tol;
  return judge(c, t, expect, accept, actual, o);
}
constexpr auto D = Capability::Decode;
constexpr auto B32 = kBinary32Result;
}  // namespace

TEST_CASE("bit-exact results pass, any other word fails", "[verdict]") {
  CHECK(j(D, B32, "3f800000", "-", "3f800000").verdict == Verdict::Pass);
  auto f = j(D, B32, "3f800000", "-", "3f800001");
  CHECK(f.verdict == Verdict::Fail);
  REQUIRE(f.ulp);
  CHECK(*f.ulp == 1);
  CHECK(j(D, kIntegerResult, "-127", "-", "129").verdict == Verdict::Fail);
}

TEST_CASE("nan* expects any NaN of the result type", "[verdict]") {
  CHECK(j(D, B32, "nan*", "-", "7fc00000").verdict == Verdict::Pass);
  CHECK(j(D, B32, "nan*", "-", "ff800001").verdict == Verdict::Pass);  // signaling, negative: still NaN
  CHECK(j(D, B32, "nan*", "-", "7f800000").verdict == Verdict::Fail);  // infinity is not NaN
  // The NaN of the destination type, not binary32: BF16 7fc1 is NaN, E4M3FN 7e (448) is not.
  CHECK(j(Capability::Convert, word_result(WordType::BF16), "nan*", "-", "7fc1").verdict == Verdict::Pass);
  CHECK(j(Capability::Convert, word_result(WordType::E4M3FN), "nan*", "-", "7e").verdict == Verdict::Fail);
  CHECK(j(Capability::Convert, word_result(WordType::E4M3FN), "nan*", "-", "ff").verdict == Verdict::Pass);
}

TEST_CASE("policies grant only their documented alternative, and only when the record names them", "[verdict]") {
  auto p = j(D, B32, "7fc00000", "nan-any", "ffc00001");
  CHECK(p.verdict == Verdict::PassUnderPolicy);
  CHECK(p.policy == "nan-any");
  CHECK(j(D, B32, "7fc00000", "-", "ffc00001").verdict == Verdict::Fail);               // not named: fail
  CHECK(j(D, B32, "7fc00000", "nan-any", "3f800000").verdict == Verdict::Fail);         // not a NaN
  CHECK(j(D, B32, "7fc00000", "made-up-policy", "ffc00001").verdict == Verdict::Fail);  // unknown
  CHECK_FALSE(policy_known("made-up-policy"));
  auto c = j(Capability::Convert, word_result(WordType::BF16), "7fc1", "nan-any,nan-canonical", "7fc0");
  CHECK(c.verdict == Verdict::PassUnderPolicy);
  CHECK(j(Capability::Convert, word_result(WordType::BF16), "7fc1", "nan-canonical", "ffc0").verdict == Verdict::Fail);
}

TEST_CASE("tolerance applies to binary32 decode/reconstruct/dequantize only, and is not a pass", "[verdict]") {
  CHECK(j(Capability::Reconstruct, B32, "3f800000", "-", "3f800002", 2).verdict == Verdict::WithinTolerance);
  CHECK(j(Capability::Reconstruct, B32, "3f800000", "-", "3f800003", 2).verdict == Verdict::Fail);
  // Across zero: +min subnormal vs -min subnormal are 2 ulp apart.
  CHECK(j(Capability::Reconstruct, B32, "00000001", "-", "80000001", 2).verdict == Verdict::WithinTolerance);
  CHECK(j(Capability::Convert, word_result(WordType::BF16), "3f80", "-", "3f81", 5).verdict == Verdict::Fail);
  CHECK(j(Capability::Reconstruct, B32, "7fc00000", "-", "3f800000", 100).verdict == Verdict::Fail);
}

TEST_CASE("rejections: the target must refuse, and for tensors name the rule", "[verdict]") {
  CHECK(j(D, kIntegerResult, "!code-illegal", "-", "invalid").verdict == Verdict::ExpectedRejection);
  auto a = j(D, kIntegerResult, "!code-illegal", "-", "-128");
  CHECK(a.verdict == Verdict::Fail);
  CHECK(a.note == "accepted what must be rejected");
  CHECK(j(Capability::Reconstruct, B32, "!code-illegal", "-", "invalid").verdict == Verdict::ExpectedRejection);
  CHECK(j(Capability::Reconstruct, B32, "!code-illegal", "-", "c3000000").verdict == Verdict::Fail);
  CHECK(j(Capability::Validate, kTextResult, "!scale-negative", "-", "invalid").verdict == Verdict::ExpectedRejection);
  CHECK(j(Capability::Validate, kTextResult, "valid", "-", "invalid").verdict == Verdict::Fail);
  CHECK(j(Capability::Parse, kTextResult, "!unknown-format", "-", "reject").verdict == Verdict::ExpectedRejection);
  CHECK(j(Capability::Parse, kTextResult, "!unknown-format", "-", "NVFP4").verdict == Verdict::Fail);
  const auto VT = Capability::ValidateTensor;
  CHECK(j(VT, kTextResult, "!code-illegal@c3", "-", "!code-illegal@c3").verdict == Verdict::ExpectedRejection);
  CHECK(j(VT, kTextResult, "!code-illegal@c3", "-", "!code-illegal@-").verdict == Verdict::ExpectedRejection);
  CHECK(j(VT, kTextResult, "!code-illegal@c3", "-", "!code-illegal@c4").verdict == Verdict::Fail);
  CHECK(j(VT, kTextResult, "!code-illegal@c3", "-", "!scale-negative@s0").verdict == Verdict::Fail);
  CHECK(j(Capability::Encode, kTextResult, "!scale-overflow", "-", "!scale-overflow").verdict ==
        Verdict::ExpectedRejection);
  CHECK(j(Capability::Encode, kTextResult, "!scale-overflow", "-", "7bff/7").verdict == Verdict::Fail);
}

TEST_CASE("dequantize judges every element; the worst decides", "[verdict]") {
  const auto DQ = Capability::Dequantize;
  CHECK(j(DQ, B32, "3f800000,40000000", "-", "3f800000,40000000").verdict == Verdict::Pass);
  auto f = j(DQ, B32, "3f800000,40000000", "-", "3f800000,40000004");
  CHECK(f.verdict == Verdict::Fail);
  CHECK(*f.ulp == 4);
  CHECK(j(DQ, B32, "3f800000,40000000", "-", "3f800000,40000001", 1).verdict == Verdict::WithinTolerance);
  CHECK(j(DQ, B32, "3f800000,40000000", "-", "3f800000").verdict == Verdict::Fail);
}

TEST_CASE("token helpers", "[verdict]") {
  CHECK(binary32_value(0x3f800000) == "0x1p+0");
  CHECK(binary32_value(0x00000001) == "0x0.000002p-126");
  CHECK(binary32_value(0xff800000) == "-inf");
  uint64_t v;
  CHECK(parse_hex("7F", &v));
  CHECK(v == 0x7f);
  CHECK_FALSE(parse_hex("7g", &v));
  CHECK_FALSE(parse_hex("", &v));
  CHECK(result_type(Capability::Decode, "W8G32_F16S.code") == kIntegerResult);
  CHECK(result_type(Capability::Decode, "F16") == kBinary32Result);
}

TEST_CASE("a pass under nan-any is reported by the finer latitude that holds: nan-payload keeps the sign",
          "[verdict][policy]") {
  constexpr auto C = Capability::Convert;
  // F16 recipe: 0x7fa00000 -> 0x7f00 (docs/recipes.md). Payload and quiet bit differ, sign kept.
  auto kept = j(C, word_result(WordType::F16), "7f00", "nan-any", "7e00");
  CHECK(kept.verdict == Verdict::PassUnderPolicy);
  CHECK(kept.policy == "nan-payload");
  CHECK(kept.departure == kPayloadDropped);
  // The sign differs too: only nan-any holds.
  auto flipped = j(C, word_result(WordType::F16), "7f00", "nan-any", "fe00");
  CHECK(flipped.policy == "nan-any");
  CHECK(flipped.departure == (kSignSet | kPayloadDropped));
  // A record may name nan-payload itself: then a changed sign fails.
  CHECK(j(C, word_result(WordType::F16), "7f00", "nan-payload", "7e00").policy == "nan-payload");
  CHECK(j(C, word_result(WordType::F16), "7f00", "nan-payload", "fe00").verdict == Verdict::Fail);
  CHECK(policy_known("nan-payload"));
  // Binary32 (decode.F16's NaN words): the sign is bit 31.
  CHECK(j(D, B32, "ffc00000", "nan-any", "ffc00001").policy == "nan-payload");
  CHECK(j(D, B32, "ffc00000", "nan-any", "7fc00000").policy == "nan-any");
}

TEST_CASE("NaN departures are named by what changed", "[verdict][policy]") {
  // BF16 0xff812345 -> 0xffc1; a canonical positive NaN drops both sign and payload.
  CHECK(token_nan_departure(word_result(WordType::BF16), "ffc1", "7fc0") == (kSignDropped | kPayloadDropped));
  CHECK(token_nan_departure(word_result(WordType::BF16), "ffc1", "ffc3") == kPayloadChanged);
  // F16 0x7f800001 -> 0x7e00 (quieted, no payload kept); 0x7c01 stays signalling: the payload bit
  // that keeps it a NaN is not a departure of its own.
  CHECK(token_nan_departure(word_result(WordType::F16), "7e00", "7c01") == kKeptSignalling);
  // F16 0x7fa00000 -> 0x7f00; 0x7d00 keeps the payload and stays signalling.
  CHECK(token_nan_departure(word_result(WordType::F16), "7f00", "7d00") == kKeptSignalling);
  // decode F16 0x7d00 -> binary32 0x7fa00000 (signalling, exact); 0x7fe00000 quiets it.
  CHECK(token_nan_departure(kBinary32Result, "7fa00000", "7fe00000") == kQuieted);
  // E4M3FN: only the sign can differ.
  CHECK(token_nan_departure(word_result(WordType::E4M3FN), "ff", "7f") == kSignDropped);
  CHECK(token_nan_departure(word_result(WordType::BF16), "ffc1", "3f80") == 0);  // not a NaN: no departure
  CHECK(departure_profile(
            {{"NaN sign dropped", 12}, {"NaN payload dropped", 21}, {"signalling NaN kept signalling", 8}}) ==
        "NaN payload dropped (21), NaN sign dropped (12), signalling NaN kept signalling (8)");
  CHECK(policy_qualifier({}) == "");
  CHECK(policy_qualifier({"nan-any"}) == "under policy nan-any");
  CHECK(policy_qualifier({"nan-any", "nan-payload"}, true) == "under policies nan-any, nan-payload within tolerance");
}
