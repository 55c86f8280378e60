#include "runners/certificate.h"

#include <nlohmann/json.hpp>
#include <set>

#include "corpus/official.h"
#include "corpus/sha256.h"
#include "runners/report.h"
#include "runners/scope.h"

namespace nc::runners {
namespace {

// The capability a domain exercises: its family, the part before the first '.', is the verb.
bool sweep_capability(const sweep::Outcome& o, Capability* cap) {
  return capability_from_op(o.domain.substr(0, o.domain.find('.')), cap);
}

std::string counts_text(const std::vector<std::pair<std::string, uint64_t>>& counts) {
  std::string s;
  for (const auto& [k, v] : counts) s += (s.empty() ? "" : ", ") + k + " " + std::to_string(v);
  return s.empty() ? "-" : s;
}

std::string coverage_text(const sweep::Report& r) {
  if (r.stride == 1 && r.tally.covered == r.domain_size) return "every input";
  if (r.stride == 1 && r.tally.invalid && r.tally.covered + r.tally.invalid == r.domain_size)
    return "every valid input (the other " + std::to_string(r.tally.invalid) + " of " + std::to_string(r.domain_size) +
           " are invalid words)";
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.4g%%", 100.0 * double(r.tally.covered) / double(r.domain_size));
  return (r.stride == 1 ? std::string("part") : "1 input in " + std::to_string(r.stride)) + ", " + pct + " of " +
         std::to_string(r.domain_size);
}

// A certificate on any corpus but the official one says so; certify makes one only when told to.
std::string corpus_line(const ReplayResult& r) {
  const std::string p = corpus::provenance(r.manifest_sha256);
  return corpus::is_official(r.manifest_sha256) ? p : p + ", certified with --allow-modified-corpus";
}

}  // namespace

bool sweep_provided(const sweep::Outcome& o) {
  return !o.report || o.report->tally.covered || o.report->tally.errored || !o.report->tally.target_error.empty();
}

bool sweep_clean(const sweep::Outcome& o) {
  return o.report && o.report->tally.class_counts.empty() && o.report->tally.target_error.empty() &&
         o.report->tally.errored == 0;
}

bool certified_conformant(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps) {
  for (const sweep::Outcome& o : sweeps)
    if (!sweep_clean(o)) return false;
  return r.conformant();
}

std::vector<CapabilityVerdict> capability_verdicts(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps) {
  std::vector<CapabilityVerdict> out;
  for (int c = 0; c < kCapabilityCount; ++c) {
    CapabilityVerdict v{Capability(c), "untested"};
    std::set<std::string> policies;
    bool problem = false, swept = false;
    for (const SuiteResult& s : r.suites) {
      if (s.cap != v.cap) continue;
      v.cases += s.total();
      v.failed += s.failed();
      v.untested += s.counts[size_t(Verdict::Untested)];
      policies.insert(s.policies_used.begin(), s.policies_used.end());
      problem |= !s.target_problem.empty();
    }
    for (const sweep::Outcome& o : sweeps) {
      Capability sc;
      if (!sweep_provided(o) || !sweep_capability(o, &sc) || sc != v.cap) continue;
      swept = true;
      problem |= !sweep_clean(o);
      if (o.report)
        for (const auto& [policy, n] : o.report->tally.accepted) policies.insert(policy);
    }
    if (v.failed || problem) v.verdict = "not conformant";
    else if (v.cases == v.untested && !swept) v.verdict = "untested";
    else if (!policies.empty()) {
      v.verdict = "conformant under policies ";
      bool first = true;
      for (const std::string& p : policies) v.verdict += (first ? "" : ", ") + p, first = false;
    } else v.verdict = v.untested ? "conformant (some cases untested)" : "conformant";
    out.push_back(v);
  }
  return out;
}

std::string certificate_markdown(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps,
                                 const std::string& generated_at, size_t max_listed_failures) {
  std::string m = "# NInfer conformance certificate\n\n";
  m += "| | |\n|---|---|\n";
  m += "| target | `" + r.target_name + "` version `" + r.target_version + "` |\n";
  m += "| corpus | " + corpus_line(r) + " |\n";
  m += "| overall | " + std::string(certified_conformant(r, sweeps) ? "conformant" : "not conformant") + " |\n";
  m += "| verdict | " + verdict_line(r, certified_conformant(r, sweeps)) + " |\n";
  m += "| generated_at | " + generated_at + " |\n\n";
  m += "## Capabilities\n\n| capability | verdict | cases | failed | untested |\n|---|---|---|---|---|\n";
  for (const CapabilityVerdict& v : capability_verdicts(r, sweeps))
    m += "| " + std::string(capability_verb(v.cap)) + " | " + v.verdict + " | " + std::to_string(v.cases) + " | " +
         std::to_string(v.failed) + " | " + std::to_string(v.untested) + " |\n";
  m += "\n## Suites\n\n| suite | passed | under policy | rejected as required | failed | untested |\n"
       "|---|---|---|---|---|---|\n";
  for (const SuiteResult& s : r.suites)
    m += "| " + s.name + " | " + std::to_string(s.counts[size_t(Verdict::Pass)]) + " | " +
         std::to_string(s.counts[size_t(Verdict::PassUnderPolicy)]) + " | " +
         std::to_string(s.counts[size_t(Verdict::ExpectedRejection)]) + " | " + std::to_string(s.failed()) + " | " +
         std::to_string(s.counts[size_t(Verdict::Untested)]) + " |\n";
  size_t listed = 0, total = 0, in_json = 0;
  std::string list;
  for (const SuiteResult& s : r.suites) {
    total += s.failures.size();
    in_json += std::min(s.failures.size(), max_listed_failures);
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
  if (in_json > listed)
    m += "\n" + std::to_string(in_json - listed) + " more failures are listed in certificate.json.\n";
  if (total > in_json)
    m += "\nCounted but not listed: " + std::to_string(total - in_json) + " failures (certificate.json lists at most " +
         std::to_string(max_listed_failures) + " a suite, and gives each suite's SHA-256 of all its failing case IDs).\n";
  if (sweeps.empty()) return m;

  m += "\n## Sweeps\n\nEach domain's inputs run through the target and compared with the integer reference "
       "(oracle/fastref), by `ninfer-conform sweep`. Results a policy of the corpus allows for the same "
       "inputs are counted apart, not as mismatches.\n\n"
       "| domain | inputs judged | coverage | mismatches | passed under policy | in failed batches |\n"
       "|---|---|---|---|---|---|\n";
  std::string not_provided, findings;
  for (const sweep::Outcome& o : sweeps) {
    if (!sweep_provided(o)) {
      not_provided += (not_provided.empty() ? "" : ", ") + o.domain;
      continue;
    }
    if (!o.report) {
      m += "| " + o.domain + " | - | - | - | - | - |\n";
      findings += "- " + o.domain + ": " + o.failure + "\n";
      continue;
    }
    const sweep::Report& s = *o.report;
    m += "| " + s.domain + " | " + std::to_string(s.tally.covered) + " | " + coverage_text(s) + " | " +
         std::to_string(s.tally.mismatches()) + " | " + counts_text(s.tally.accepted) + " | " +
         std::to_string(s.tally.errored) + " |\n";
    for (const auto& [cls, count] : s.tally.class_counts) {
      findings += "- " + s.domain + ": " + cls + " " + std::to_string(count);
      for (const sweep::Mismatch& x : s.tally.first)
        if (x.mismatch_class == cls) {
          findings += "; first: input `" + (x.input.empty() ? std::string("-") : x.input[0]) + "`, expected `" +
                      x.expected + "`, actual `" + x.actual + "`";
          break;
        }
      findings += "\n";
    }
    if (!s.tally.target_error.empty()) findings += "- " + s.domain + ": target error: " + s.tally.target_error + "\n";
  }
  if (!not_provided.empty()) m += "\nNot provided (the target declined every input): " + not_provided + ".\n";
  m += "\n### Sweep findings\n\n" + (findings.empty() ? std::string("None.\n") : findings);
  return m;
}

std::string certificate_json(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps,
                             const std::string& generated_at, size_t max_listed_failures) {
  nlohmann::ordered_json j;
  j["schema"] = "ninfer-conform-certificate-1";
  j["target"] = {{"name", r.target_name}, {"version", r.target_version}};
  j["corpus_manifest_sha256"] = r.manifest_sha256;
  j["corpus"] = corpus_line(r);
  j["corpus_official"] = corpus::is_official(r.manifest_sha256);
  j["conformant"] = certified_conformant(r, sweeps);
  j["verdict"] = verdict_line(r, certified_conformant(r, sweeps));
  j["scope"] = scope_json(r);
  j["generated_at"] = generated_at;
  j["capabilities"] = nlohmann::ordered_json::array();
  for (const CapabilityVerdict& v : capability_verdicts(r, sweeps))
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
    if (!s.ulp_errors.empty()) {
      nlohmann::ordered_json h = nlohmann::ordered_json::object();
      for (const auto& [ulp, n] : s.ulp_errors) h[std::to_string(ulp)] = n;
      js["ulp_errors"] = h;
    }
    js["failures_total"] = s.failures.size();
    std::string ids;
    for (const CaseResult& f : s.failures) ids += f.id + "\n";
    js["failing_ids_sha256"] = corpus::sha256_hex(ids);
    js["failures"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < s.failures.size() && i < max_listed_failures; ++i) {
      const CaseResult& f = s.failures[i];
      js["failures"].push_back({{"id", f.id}, {"verdict", verdict_name(f.verdict)}, {"inputs", f.inputs},
                                {"expect", f.expect}, {"actual", f.actual}, {"tags", f.tags}});
    }
    j["suites"].push_back(js);
  }
  if (sweeps.empty()) return j.dump(2) + "\n";
  j["sweeps"] = nlohmann::ordered_json::array();
  for (const sweep::Outcome& o : sweeps) {
    nlohmann::ordered_json js{{"domain", o.domain}, {"provided", sweep_provided(o)}};
    if (!o.report) {
      js["failure"] = o.failure;
      j["sweeps"].push_back(js);
      continue;
    }
    const sweep::Report& s = *o.report;
    js["op"] = s.op;
    js["domain_size"] = s.domain_size;
    js["stride"] = s.stride;
    js["covered"] = s.tally.covered;
    js["unsupported"] = s.tally.unsupported;
    js["errored"] = s.tally.errored;
    js["invalid"] = s.tally.invalid;
    js["mismatches"] = s.tally.mismatches();
    js["classes"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : s.tally.class_counts) js["classes"][k] = v;
    js["accepted"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : s.tally.accepted) js["accepted"][k] = v;
    js["target_error"] = s.tally.target_error;
    js["first"] = nlohmann::ordered_json::array();
    for (const sweep::Mismatch& x : s.tally.first)
      js["first"].push_back({{"index", x.index}, {"class", x.mismatch_class}, {"input", x.input},
                             {"expected", x.expected}, {"actual", x.actual}});
    if (s.grid.columns) js["cells"] = sweep::cells_json(s);
    j["sweeps"].push_back(js);
  }
  return j.dump(2) + "\n";
}

}  // namespace nc::runners
