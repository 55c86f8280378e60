#include "runners/certificate.h"

#include <nlohmann/json.hpp>
#include <set>

namespace nc::runners {

std::vector<CapabilityVerdict> capability_verdicts(const ReplayResult& r) {
  std::vector<CapabilityVerdict> out;
  for (int c = 0; c < kCapabilityCount; ++c) {
    CapabilityVerdict v{Capability(c), "untested"};
    std::set<std::string> policies;
    bool problem = false;
    for (const SuiteResult& s : r.suites) {
      if (s.cap != v.cap) continue;
      v.cases += s.total();
      v.failed += s.failed();
      v.untested += s.counts[size_t(Verdict::Untested)];
      policies.insert(s.policies_used.begin(), s.policies_used.end());
      problem |= !s.target_problem.empty();
    }
    if (v.failed || problem) v.verdict = "not conformant";
    else if (v.cases == v.untested) v.verdict = "untested";
    else if (!policies.empty()) {
      v.verdict = "conformant under policies ";
      bool first = true;
      for (const std::string& p : policies) v.verdict += (first ? "" : ", ") + p, first = false;
    } else v.verdict = v.untested ? "conformant (some cases untested)" : "conformant";
    out.push_back(v);
  }
  return out;
}

std::string certificate_markdown(const ReplayResult& r, const std::string& generated_at) {
  std::string m = "# NInfer conformance certificate\n\n";
  m += "| | |\n|---|---|\n";
  m += "| target | `" + r.target_name + "` version `" + r.target_version + "` |\n";
  m += "| corpus manifest SHA-256 | `" + r.manifest_sha256 + "` |\n";
  m += "| overall | " + std::string(r.conformant() ? "conformant" : "not conformant") + " |\n";
  m += "| generated_at | " + generated_at + " |\n\n";
  m += "## Capabilities\n\n| capability | verdict | cases | failed | untested |\n|---|---|---|---|---|\n";
  for (const CapabilityVerdict& v : capability_verdicts(r))
    m += "| " + std::string(capability_verb(v.cap)) + " | " + v.verdict + " | " + std::to_string(v.cases) + " | " +
         std::to_string(v.failed) + " | " + std::to_string(v.untested) + " |\n";
  m += "\n## Suites\n\n| suite | passed | under policy | rejected as required | failed | untested |\n"
       "|---|---|---|---|---|---|\n";
  for (const SuiteResult& s : r.suites)
    m += "| " + s.name + " | " + std::to_string(s.counts[size_t(Verdict::Pass)]) + " | " +
         std::to_string(s.counts[size_t(Verdict::PassUnderPolicy)]) + " | " +
         std::to_string(s.counts[size_t(Verdict::ExpectedRejection)]) + " | " + std::to_string(s.failed()) + " | " +
         std::to_string(s.counts[size_t(Verdict::Untested)]) + " |\n";
  size_t listed = 0, total = 0;
  std::string list;
  for (const SuiteResult& s : r.suites) {
    total += s.failures.size();
    if (!s.target_problem.empty()) list += "- " + s.name + ": target problem: " + s.target_problem + "\n";
    for (const std::string& d : s.diagnosis) list += "- " + s.name + ": diagnosis: " + d + "\n";
    for (const CaseResult& f : s.failures)
      if (listed < kCertificateMarkdownFailureCap) {
        ++listed;
        list += "- `" + f.id + "` " + verdict_name(f.verdict) + ": " + f.inputs + ", expected `" + f.expect +
                "`, actual `" + f.actual + "`\n";
      }
  }
  m += "\n## Failures\n\n";
  if (list.empty()) m += "None.\n";
  else m += list;
  if (total > listed)
    m += "\n" + std::to_string(total - listed) + " more failures are listed in certificate.json.\n";
  return m;
}

std::string certificate_json(const ReplayResult& r, const std::string& generated_at) {
  nlohmann::ordered_json j;
  j["schema"] = "ninfer-conform-certificate-1";
  j["target"] = {{"name", r.target_name}, {"version", r.target_version}};
  j["corpus_manifest_sha256"] = r.manifest_sha256;
  j["conformant"] = r.conformant();
  j["generated_at"] = generated_at;
  j["capabilities"] = nlohmann::ordered_json::array();
  for (const CapabilityVerdict& v : capability_verdicts(r))
    j["capabilities"].push_back({{"capability", capability_verb(v.cap)},
                                 {"verdict", v.verdict},
                                 {"cases", v.cases},
                                 {"failed", v.failed},
                                 {"untested", v.untested}});
  j["suites"] = nlohmann::ordered_json::array();
  for (const SuiteResult& s : r.suites) {
    nlohmann::ordered_json js{{"suite", s.name}, {"capability", capability_verb(s.cap)}};
    for (int v = 0; v < kVerdictCount; ++v) js[verdict_name(Verdict(v))] = s.counts[size_t(v)];
    js["policies"] = s.policies_used;
    js["target_problem"] = s.target_problem;
    js["diagnosis"] = s.diagnosis;
    js["failures"] = nlohmann::ordered_json::array();
    for (const CaseResult& f : s.failures)
      js["failures"].push_back({{"id", f.id}, {"verdict", verdict_name(f.verdict)}, {"inputs", f.inputs},
                                {"expect", f.expect}, {"actual", f.actual}});
    j["suites"].push_back(js);
  }
  return j.dump(2) + "\n";
}

}  // namespace nc::runners
