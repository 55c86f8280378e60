#include "runners/scope.h"

#include <fnmatch.h>

#include "corpus/official.h"

namespace nc::runners {
namespace {

bool matches(const std::string& entry, const SuiteResult& s) {
  return entry == "all" || entry == capability_verb(s.cap) || fnmatch(entry.c_str(), s.name.c_str(), 0) == 0;
}

bool is_capability_verb(const std::string& entry) {
  for (int c = 0; c < kCapabilityCount; ++c)
    if (entry == capability_verb(Capability(c))) return true;
  return false;
}

// "a, b" for up to three names, else "N suites".
std::string suites_text(const std::vector<std::string>& names) {
  if (names.size() > 3) return std::to_string(names.size()) + " suites";
  std::string t;
  for (const std::string& n : names) t += (t.empty() ? "" : ", ") + n;
  return t;
}

}  // namespace

bool require_entry_names_something(const std::string& entry, const std::vector<std::string>& corpus_suites) {
  if (entry == "all" || is_capability_verb(entry)) return true;
  for (const std::string& name : corpus_suites)
    if (fnmatch(entry.c_str(), name.c_str(), 0) == 0) return true;
  return false;
}

Scope scope_of(const ReplayResult& r) {
  Scope s;
  for (const SuiteResult& x : r.suites) {
    const size_t untested = x.counts[size_t(Verdict::Untested)];
    s.untested_cases += untested;
    s.judged_cases += x.total() - untested;
    if (untested == 0) s.judged.push_back(x.name);
    else if (untested < x.total()) s.partial.push_back(x.name);
    else if (x.target_problem.empty()) s.not_provided.push_back(x.name);
  }
  for (const std::string& entry : r.required) {
    std::vector<std::string> missing;
    size_t matched = 0;
    for (const SuiteResult& x : r.suites) {
      if (!matches(entry, x)) continue;
      ++matched;
      if (x.counts[size_t(Verdict::Untested)]) missing.push_back(x.name);
    }
    if (!matched) s.unmet.push_back(entry + ": no selected suite matches");
    else if (!missing.empty())
      s.unmet.push_back(entry + ": not provided (untested cases in " + suites_text(missing) + ")");
  }
  return s;
}

std::string scope_text(const Scope& s) {
  std::vector<std::string> parts;
  if (s.partial.empty() && s.not_provided.empty() && s.judged.size() > 1)
    parts.push_back("all " + std::to_string(s.judged.size()) + " suites (" + std::to_string(s.judged_cases) +
                    " cases)");
  else if (!s.judged.empty() || !s.partial.empty()) {
    std::vector<std::string> names = s.judged;
    names.insert(names.end(), s.partial.begin(), s.partial.end());
    parts.push_back(suites_text(names) + " (" + std::to_string(s.judged_cases) + " cases)");
  }
  if (!s.partial.empty())
    parts.push_back("partly untested: " + suites_text(s.partial) + " (" + std::to_string(s.untested_cases) +
                    " cases untested)");
  if (!s.not_provided.empty()) parts.push_back("not provided: " + suites_text(s.not_provided));
  std::string t;
  for (const std::string& p : parts) t += (t.empty() ? "" : "; ") + p;
  return t;
}

namespace {
std::string qualifier_of(const ReplayResult& r, const std::set<std::string>& extra_policies) {
  std::set<std::string> policies = r.policies();
  policies.insert(extra_policies.begin(), extra_policies.end());
  return policy_qualifier(policies, r.within_tolerance());
}
}  // namespace

std::string overall_word(const ReplayResult& r, bool conformant, const std::set<std::string>& extra_policies) {
  if (!conformant) return "not conformant";
  const std::string q = qualifier_of(r, extra_policies);
  return q.empty() ? "conformant" : "conformant " + q;
}

static std::string verdict_line_of_corpus(const ReplayResult& r, bool conformant,
                                          const std::set<std::string>& extra_policies) {
  const Scope s = scope_of(r);
  if (conformant) {
    const std::string q = qualifier_of(r, extra_policies);
    return "CONFORMANT " + (q.empty() ? std::string() : q + " ") + "for " + scope_text(s);
  }
  size_t failed = 0, problems = 0;
  for (const SuiteResult& x : r.suites) failed += x.failed(), problems += !x.target_problem.empty();
  std::string why;
  auto add = [&](const std::string& part) { why += (why.empty() ? "" : ", ") + part; };
  if (failed) add(std::to_string(failed) + " failed");
  if (problems) add("target problems in " + std::to_string(problems) + (problems == 1 ? " suite" : " suites"));
  size_t positional = 0;
  for (const SuiteResult& x : r.suites) positional += x.position_failures();
  if (positional) add(std::to_string(positional) + " failed only in short requests (position-dependent)");
  for (const std::string& u : s.unmet) add("required " + u);
  if (s.judged_cases == 0) add("nothing judged");
  if (why.empty()) add("sweeps not clean");  // the replay alone was conformant
  const std::string scope = scope_text(s);
  if (scope.empty()) return "NOT CONFORMANT: " + why;
  return "NOT CONFORMANT: " + why + (s.judged_cases ? "; judged " : "; ") + scope;
}

bool ReplayResult::conformant() const {
  size_t judged = 0;
  for (const SuiteResult& s : suites) {
    if (s.failed() || !s.target_problem.empty() || s.position_failures()) return false;
    judged += s.total() - s.counts[size_t(Verdict::Untested)];
  }
  // A target that provided nothing the corpus tests has not shown conformance.
  return judged > 0 && scope_of(*this).unmet.empty();
}

// A verdict reached on any corpus but the official one says so on its own line, wherever that line
// is repeated (summary, JSON and JUnit reports, certificates).
std::string verdict_line(const ReplayResult& r, bool conformant, const std::set<std::string>& extra_policies) {
  const std::string line = verdict_line_of_corpus(r, conformant, extra_policies);
  if (r.manifest_sha256.empty() || corpus::is_official(r.manifest_sha256)) return line;
  return line + " (on a MODIFIED corpus, manifest sha256 " + r.manifest_sha256 + ")";
}

}  // namespace nc::runners
