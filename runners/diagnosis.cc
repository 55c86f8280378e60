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

// Where the failures are spread over the suite like its cases, no edge class is to blame: the
// op's common path is. What that path is, per op.
std::string common_path(Capability cap) {
  switch (cap) {
    case Capability::Decode:
      return "the value of ordinary words: a wrong table entry, exponent bias or fraction width";
    case Capability::Validate:
      return "the validity rule itself: which words are rejected (sign, zero, positivity, finiteness)";
    case Capability::Parse:
      return "the name comparison itself (exact bytes, no aliases)";
    case Capability::Reconstruct:
      return "the reconstruction formula: how the code is read (two's complement, not offset binary or "
             "sign-magnitude), the multiplier (code * scale, and for NVFP4 a division by the divisor) or the single "
             "rounding "
             "of the product to binary32";
    case Capability::Convert:
      return "the rounding of ordinary values (round to nearest, ties to even)";
    case Capability::Encode:
      return "a step of spec 7 that every group goes through (see the step lines)";
    case Capability::ValidateTensor:
      return "the order or the scope of the tensor rules (shape, divisor, scales, codes)";
    case Capability::Dequantize:
      return "the group or block indexing, or the element formula";
    case Capability::Layout:
      return "the tile geometry (tile size, row groups, padding) of the layout";
  }
  return "the op's common path";
}

// Below this lift a tag does not single out a class: its failures are about as common as its cases.
constexpr size_t kStandOutNum = 3, kStandOutDen = 2;  // 1.5

}  // namespace

std::string known_cause(const std::string& tag) {
  for (auto& [t, cause] : kCauses)
    if (t == tag) return std::string(cause);
  return "";
}

std::vector<TagLift> rank_tags_by_lift(const std::map<std::string, size_t>& in_failures, size_t failures,
                                       const std::map<std::string, size_t>& in_replayed) {
  std::vector<TagLift> out;
  for (const auto& [tag, n] : in_failures) {
    if (n == 0 || 8 * n < failures) continue;
    auto it = in_replayed.find(tag);
    out.push_back({tag, n, std::max(n, it == in_replayed.end() ? 0 : it->second)});
  }
  // The suite size and the failure count are common to every lift and cancel:
  // lift(a) > lift(b) <=> a.f / a.r > b.f / b.r <=> a.f * b.r > b.f * a.r, exact in integers.
  std::sort(out.begin(), out.end(), [](const TagLift& a, const TagLift& b) {
    const unsigned __int128 l = (unsigned __int128)a.in_failures * b.in_replayed,
                            r = (unsigned __int128)b.in_failures * a.in_replayed;
    if (l != r) return l > r;
    if (a.in_failures != b.in_failures) return a.in_failures > b.in_failures;
    return a.tag < b.tag;
  });
  return out;
}

std::vector<std::string> diagnose(const corpus::SuiteHeader& suite, const SuiteResult& r) {
  std::vector<std::string> lines;
  const size_t n = r.failures.size();
  if (n == 0) return lines;
  std::map<std::string, size_t> by_tag;
  for (const CaseResult& f : r.failures)
    if (f.tags != "-")
      for (std::string_view t : split(f.tags, ',')) ++by_tag[std::string(t)];
  const size_t replayed = r.total() - r.counts[size_t(Verdict::Untested)];
  const std::vector<TagLift> tags = rank_tags_by_lift(by_tag, n, r.judged_tags);
  auto cause = [&](const std::string& tag) {
    std::string c = known_cause(tag);
    if (c.empty()) {
      for (const auto& [name, description] : suite.tags)
        if (name == tag) c = description;
    }
    return c.empty() ? std::string("no known cause for this tag") : c;
  };
  // "N of M failures tagged T (x% of failures, y% of the replayed cases): cause".
  auto percent = [](size_t part, size_t whole) {
    return whole == 0 ? std::string("0") : std::to_string((200 * part + whole) / (2 * whole));
  };
  // lift(best) < 1.5 <=> 2 * f * replayed < 3 * r * n.
  const bool none_stands_out =
      tags.empty() || (unsigned __int128)kStandOutDen * tags[0].in_failures * std::max(replayed, tags[0].in_replayed) <
                          (unsigned __int128)kStandOutNum * tags[0].in_replayed * n;
  // Weak tags do not headline: the common path comes first, the tags after it.
  if (none_stands_out)
    lines.push_back("no tag stands out (" + std::to_string(n) + " of " + std::to_string(replayed) +
                    " replayed cases fail, spread like the suite): suspect " + common_path(r.cap));
  for (size_t i = 0; i < tags.size() && i < 3; ++i) {
    const TagLift& t = tags[i];
    const std::string share = t.in_failures == n
                                  ? (n == 1 ? "the 1 failure is" : "all " + std::to_string(n) + " failures are")
                                  : std::to_string(t.in_failures) + " of " + std::to_string(n) + " failures";
    lines.push_back(share + " tagged " + t.tag + " (" + percent(t.in_failures, n) + "% of failures, " +
                    percent(t.in_replayed, std::max(replayed, t.in_replayed)) +
                    "% of replayed cases): " + cause(t.tag));
  }
  if (by_tag.empty())
    lines.push_back(std::to_string(n) + (n == 1 ? " failure is" : " failures are") +
                    " untagged: no tag points at a cause");
  if (r.cap == Capability::Encode) {
    std::map<std::string, size_t> steps;
    for (const CaseResult& f : r.failures)
      if (f.verdict == Verdict::Fail) ++steps[encode_step(f)];
    for (auto& [step, count] : steps)
      lines.push_back(std::to_string(count) + " encode failure(s) diverge at the " + step +
                      (step == "scale"  ? " step (amax32 / raw_scale32 / scale16 of spec 7)"
                       : step == "code" ? " step (inv32 / normalized32 / code rounding of spec 7; scales match)"
                                        : " (success vs failure outcome)"));
  }
  return lines;
}

}  // namespace nc::runners
