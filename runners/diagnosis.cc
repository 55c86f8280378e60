#include "runners/diagnosis.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "runners/tokens.h"

namespace nc::runners {
namespace {

// Tag -> the implementation mistake that makes exactly those cases fail.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kCauses{{
    {"recip-vs-div", "the encoder divides by the scale instead of multiplying by its reciprocal"},
    {"subnormal", "subnormal words are decoded with the wrong exponent or flushed to zero"},
    {"min-subnormal", "the smallest subnormal is lost: a missing subnormal path or flush-to-zero"},
    {"nan", "NaN words are canonicalised or their payload/sign is not preserved"},
    {"negative-zero", "the sign of zero is dropped"},
    {"max-normal", "the largest finite value is wrong: an exponent or saturation off by one"},
    {"tie", "round-half cases do not round to even"},
    {"overflow", "overflow does not follow the recipe (saturate vs NaN vs infinity)"},
    {"w8-minus-128", "W8 code 0x80 is accepted as -128 instead of being rejected"},
    {"partial-group", "the final partial group of a row is grouped or scaled wrongly"},
    {"scale-subnormal", "binary16 subnormal scales are flushed or expanded wrongly"},
    {"rescue", "the 2^-24 minimum-scale rescue of spec 7 is missing"},
}};

// For encode: compare scale and code planes to say which step of spec 7 diverged.
std::string encode_step(const CaseResult& f) {
  size_t se = f.expect.find('/'), sa = f.actual.find('/');
  if (se == std::string::npos || sa == std::string::npos) return "outcome";
  if (f.expect.substr(0, se) != f.actual.substr(0, sa)) return "scale";
  return "code";
}

}  // namespace

std::string known_cause(const std::string& tag) {
  for (auto& [t, cause] : kCauses)
    if (t == tag) return std::string(cause);
  return "";
}

std::vector<std::string> diagnose(const corpus::SuiteHeader& suite, const SuiteResult& r) {
  std::vector<std::string> lines;
  const size_t n = r.failures.size();
  if (n == 0) return lines;
  std::map<std::string, size_t> by_tag;
  for (const CaseResult& f : r.failures)
    if (f.tags != "-")
      for (std::string_view t : split(f.tags, ',')) ++by_tag[std::string(t)];
  std::vector<std::pair<std::string, size_t>> tags(by_tag.begin(), by_tag.end());
  std::stable_sort(tags.begin(), tags.end(), [](auto& a, auto& b) { return a.second > b.second; });
  auto cause = [&](const std::string& tag) {
    std::string c = known_cause(tag);
    if (c.empty()) {
      for (const auto& [name, description] : suite.tags)
        if (name == tag) c = description;
    }
    return c.empty() ? std::string("no known cause for this tag") : c;
  };
  const std::string noun = n == 1 ? " failure is" : " failures are";
  if (!tags.empty() && tags[0].second == n) {
    lines.push_back((n == 1 ? "the 1" : "all " + std::to_string(n)) + noun + " tagged " + tags[0].first + ": " +
                    cause(tags[0].first));
  } else {
    for (size_t i = 0; i < tags.size() && i < 3; ++i)
      lines.push_back(std::to_string(tags[i].second) + " of " + std::to_string(n) + " failures tagged " + tags[i].first + ": " + cause(tags[i].first));
    if (tags.empty()) lines.push_back(std::to_string(n) + noun + " untagged: no tag points at a cause");
  }
  if (r.cap == Capability::Encode) {
    std::map<std::string, size_t> steps;
    for (const CaseResult& f : r.failures)
      if (f.verdict == Verdict::Fail) ++steps[encode_step(f)];
    for (auto& [step, count] : steps)
      lines.push_back(std::to_string(count) + " encode failure(s) diverge at the " + step +
                      (step == "scale" ? " step (amax32 / raw_scale32 / scale16 of spec 7)"
                       : step == "code" ? " step (inv32 / normalized32 / code rounding of spec 7; scales match)"
                                        : " (success vs failure outcome)"));
  }
  return lines;
}

}  // namespace nc::runners
