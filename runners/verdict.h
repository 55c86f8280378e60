// The verdict on one case: the result token a target returned against the record's expect and
// accept columns. Pure functions of their arguments, so the rules are unit-tested directly.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "registry/registry.h"
#include "runners/target.h"

namespace nc::runners {

enum class Verdict {
  Pass,               // bit-exact (or any NaN where expect is nan*)
  PassUnderPolicy,    // a documented alternative the record's accept names
  WithinTolerance,    // an explicit --tolerance ulp:N allowed it; never reported as bit-exact
  ExpectedRejection,  // the target refused what the spec requires it to refuse
  Fail,
  Untested,     // capability or selector unsupported; never counted as a pass
  TargetError,  // the target said error, crashed, hung or lied
};
inline constexpr int kVerdictCount = 7;
const char* verdict_name(Verdict v);    // "pass", "pass-under-policy", ...
bool verdict_is_conformant(Verdict v);  // Pass, PassUnderPolicy, WithinTolerance, ExpectedRejection

// What a result token is, so "any NaN" and ULP distance mean the right thing: a word of one of the
// registry's float word types (binary32 is FP32), a signed integer, or text.
struct ResultType {
  enum class Kind : uint8_t { Word, Integer, Text };
  Kind kind = Kind::Text;
  WordType word = WordType::FP32;  // Kind::Word only
  friend constexpr bool operator==(const ResultType&, const ResultType&) = default;
};
constexpr ResultType word_result(WordType w) { return {ResultType::Kind::Word, w}; }
inline constexpr ResultType kBinary32Result = word_result(WordType::FP32);
inline constexpr ResultType kIntegerResult{ResultType::Kind::Integer, WordType::FP32};
inline constexpr ResultType kTextResult{ResultType::Kind::Text, WordType::FP32};
ResultType result_type(Capability cap, std::string_view selector);

struct Judgement {
  Verdict verdict = Verdict::Fail;
  // PassUnderPolicy: the latitude the pass needed: the finest known policy that allows it (a pass
  // the record grants under nan-any whose sign is the required one is reported nan-payload).
  std::string_view policy;
  unsigned departure = 0;       // PassUnderPolicy on NaN: runners/departure.h bits
  std::optional<uint64_t> ulp;  // binary32 results that are both numbers and differ: their distance
  std::string note;             // why, for failures ("accepted a word that must be rejected")
};

struct JudgeOptions {
  std::optional<uint64_t> tolerance_ulp;  // --tolerance ulp:N
};

// expect and accept are the record's columns; actual the target's token.
Judgement judge(Capability cap, ResultType type, std::string_view expect, std::string_view accept,
                std::string_view actual, const JudgeOptions& options);

// The policies this runner knows by name: name -> does `actual` meet the alternative the policy
// documents (given the record's expect)? Unknown names never grant a pass.
bool policy_known(std::string_view name);
bool policy_allows(std::string_view name, ResultType type, std::string_view expect, std::string_view actual);
// "any NaN of the result type" for one token.
bool token_is_nan(ResultType type, std::string_view token);
// How actual departs from expect, both NaN tokens of the type (runners/departure.h bits); 0 when
// either is no NaN word of it.
unsigned token_nan_departure(ResultType type, std::string_view expect, std::string_view actual);
// "NaN payload dropped (21), NaN sign dropped (12)": departure counts, largest first; "" for none.
std::string departure_profile(const std::vector<std::pair<std::string, uint64_t>>& counts);
// The qualifier a verdict over passes under these policies (and within a tolerance) carries:
// "", "under policy nan-payload", "under policies nan-any, nan-payload within tolerance".
std::string policy_qualifier(const std::set<std::string>& policies, bool within_tolerance = false);

}  // namespace nc::runners
