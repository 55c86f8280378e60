#include "runners/verdict.h"

#include <array>
#include <vector>

#include <algorithm>

#include "corpus/same_bytes.h"
#include "runners/departure.h"
#include "runners/tokens.h"

namespace nc::runners {
namespace {

constexpr std::array<const char*, kVerdictCount> kVerdictNames{
    "pass", "pass-under-policy", "within-tolerance", "expected-rejection", "fail", "untested", "target-error"};

bool word_of(ResultType type, std::string_view t, uint32_t* w) {
  if (type.kind != ResultType::Kind::Word) return false;
  uint64_t v;
  if (t.size() != size_t(info(type.word).hex_digits) || !parse_hex(t, &v)) return false;
  *w = uint32_t(v);
  return true;
}

// The canonical quiet NaN of each float result type (runners/departure.h, from registry facts).
std::optional<uint32_t> canonical_nan(ResultType type) {
  if (type.kind != ResultType::Kind::Word) return std::nullopt;
  return canonical_nan_word(type.word);
}

struct Policy {
  std::string_view name;
  // Whether actual is this policy's documented alternative to expect.
  bool (*allows)(ResultType, std::string_view expect, std::string_view actual);
};

// Table of the policies the runner knows by name; a suite's #policy lines define others in words,
// which this runner reports but never grants.
// The runner reports a pass by the finest of these that holds, so nan-payload (the sign is the
// required one) comes before nan-any (any NaN).
bool sign_of(ResultType type, std::string_view token) {
  uint32_t w;
  return word_of(type, token, &w) && (w >> (info(type.word).bits - 1)) & 1;
}

constexpr std::array<Policy, 3> kPolicies{{
    {kPolicyNanPayload,
     [](ResultType t, std::string_view expect, std::string_view actual) {
       return token_is_nan(t, expect) && token_is_nan(t, actual) && sign_of(t, expect) == sign_of(t, actual);
     }},
    {kPolicyNanAny,
     [](ResultType t, std::string_view expect, std::string_view actual) {
       return (expect == "nan*" || token_is_nan(t, expect)) && token_is_nan(t, actual);
     }},
    {kPolicyNanCanonical,
     [](ResultType t, std::string_view expect, std::string_view actual) {
       uint32_t w;
       auto c = canonical_nan(t);
       return (expect == "nan*" || token_is_nan(t, expect)) && c && word_of(t, actual, &w) && w == *c;
     }},
}};

// Rejection tokens a target answers with, per capability, when the record expects !rule.
bool is_rejection_answer(Capability cap, std::string_view expect, std::string_view actual) {
  switch (cap) {
    case Capability::Decode:
    case Capability::Validate:
    case Capability::Reconstruct:
    case Capability::Layout:
      return actual == "invalid";
    case Capability::Parse:
      return actual == "reject";
    case Capability::ValidateTensor: {
      // "!rule@where": the rule must match; a target that cannot locate it may answer '-'.
      if (actual == expect) return true;
      size_t at_e = expect.find('@'), at_a = actual.find('@');
      return at_e != expect.npos && at_a != actual.npos && expect.substr(0, at_e) == actual.substr(0, at_a) &&
             actual.substr(at_a + 1) == "-";
    }
    default:
      return actual == expect;
  }
}

Judgement single(Capability cap, ResultType type, std::string_view expect, std::string_view accept,
                 std::string_view actual, const JudgeOptions& o) {
  Judgement j;
  uint32_t we = 0, wa = 0;
  const bool both_words = type == kBinary32Result && word_of(type, expect, &we) && word_of(type, actual, &wa);
  if (both_words && !binary32_is_nan(we) && !binary32_is_nan(wa)) j.ulp = binary32_ulp_distance(we, wa);
  if (!expect.empty() && expect[0] == '!') {
    if (is_rejection_answer(cap, expect, actual)) return j.verdict = Verdict::ExpectedRejection, j;
    j.note = actual.size() && actual[0] == '!' ? "rejected for a different rule" : "accepted what must be rejected";
    return j;
  }
  if (actual == expect) return j.verdict = Verdict::Pass, j;
  if (expect == "nan*" && token_is_nan(type, actual)) return j.verdict = Verdict::Pass, j;
  if (accept != "-" && !accept.empty())
    for (std::string_view p : split(accept, ','))
      if (policy_allows(p, type, expect, actual)) {
        j.verdict = Verdict::PassUnderPolicy;
        // The finer latitude where it holds: nan-any granted, the sign kept, is nan-payload.
        j.policy = p == kPolicyNanAny && policy_allows(kPolicyNanPayload, type, expect, actual) ? kPolicyNanPayload : p;
        j.departure = token_nan_departure(type, expect, actual);
        return j;
      }
  const bool tolerance_applies =
      type == kBinary32Result &&
      (cap == Capability::Decode || cap == Capability::Reconstruct || cap == Capability::Dequantize);
  if (o.tolerance_ulp && tolerance_applies && j.ulp && *j.ulp <= *o.tolerance_ulp)
    return j.verdict = Verdict::WithinTolerance, j;
  if (actual == "invalid" || actual == "reject") j.note = "rejected a case that has a value";
  return j;
}

}  // namespace

const char* verdict_name(Verdict v) { return kVerdictNames[size_t(v)]; }

bool verdict_is_conformant(Verdict v) {
  return v == Verdict::Pass || v == Verdict::PassUnderPolicy || v == Verdict::WithinTolerance ||
         v == Verdict::ExpectedRejection;
}

ResultType result_type(Capability cap, std::string_view selector) {
  switch (cap) {
    case Capability::Decode: {
      const auto w = find_word_type(selector);
      return w && info(*w).is_float ? kBinary32Result : kIntegerResult;
    }
    case Capability::Reconstruct:
    case Capability::Dequantize:
      return kBinary32Result;
    case Capability::Convert:
      if (const auto r = find_recipe(selector)) return word_result(info(*r).destination);
      return kTextResult;
    default:
      return kTextResult;
  }
}

bool token_is_nan(ResultType type, std::string_view token) {
  uint32_t w;
  return word_of(type, token, &w) && is_nan_word(type.word, w);
}

bool policy_known(std::string_view name) {
  for (const Policy& p : kPolicies)
    if (p.name == name) return true;
  return false;
}

bool policy_allows(std::string_view name, ResultType type, std::string_view expect, std::string_view actual) {
  for (const Policy& p : kPolicies)
    if (p.name == name) return p.allows(type, expect, actual);
  return false;
}

unsigned token_nan_departure(ResultType type, std::string_view expect, std::string_view actual) {
  uint32_t e, a;
  if (!token_is_nan(type, expect) || !token_is_nan(type, actual) || !word_of(type, expect, &e) ||
      !word_of(type, actual, &a))
    return 0;
  return nan_departure(e, a, nan_layout(type.word));
}

std::string departure_profile(const std::vector<std::pair<std::string, uint64_t>>& counts) {
  auto sorted = counts;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  std::string s;
  for (const auto& [name, n] : sorted)
    if (n) s += (s.empty() ? "" : ", ") + name + " (" + std::to_string(n) + ")";
  return s;
}

std::string policy_qualifier(const std::set<std::string>& policies, bool within_tolerance) {
  std::string q;
  if (!policies.empty()) {
    q = policies.size() == 1 ? "under policy " : "under policies ";
    bool first = true;
    for (const std::string& p : policies) q += (first ? "" : ", ") + p, first = false;
  }
  if (within_tolerance) q += std::string(q.empty() ? "" : " ") + "within tolerance";
  return q;
}

Judgement judge(Capability cap, ResultType type, std::string_view expect, std::string_view accept,
                std::string_view actual, const JudgeOptions& o) {
  // Most cases are bit-exact: decided before any token is parsed or the accept list split.
  if (corpus::same_bytes(actual, expect) && (expect.empty() || expect[0] != '!'))
    return Judgement{Verdict::Pass, {}, 0, {}, {}};
  if (cap != Capability::Dequantize || (!expect.empty() && expect[0] == '!'))
    return single(cap, type, expect, accept, actual, o);
  // Dequantize: a comma list; the case's verdict is its worst element's, the ULP its largest.
  auto e = split(expect, ','), a = split(actual, ',');
  Judgement worst;
  worst.verdict = Verdict::Pass;
  if (e.size() != a.size()) {
    worst.verdict = Verdict::Fail;
    worst.note = "expected " + std::to_string(e.size()) + " elements, got " + std::to_string(a.size());
    return worst;
  }
  for (size_t i = 0; i < e.size(); ++i) {
    Judgement j = single(cap, type, e[i], accept, a[i], o);
    if (j.ulp && (!worst.ulp || *j.ulp > *worst.ulp)) worst.ulp = j.ulp;
    if (int(j.verdict) > int(worst.verdict)) {
      worst.verdict = j.verdict;
      worst.policy = j.policy;
      worst.departure = j.departure;
      worst.note = j.note.empty() ? j.note : "element " + std::to_string(i) + ": " + j.note;
      if (j.verdict == Verdict::Fail && j.note.empty()) worst.note = "first differing element " + std::to_string(i);
    }
  }
  return worst;
}

}  // namespace nc::runners
