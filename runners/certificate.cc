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

// The policies some provided sweep's inputs passed under.
std::set<std::string> sweep_policies(const std::vector<sweep::Outcome>& sweeps) {
  std::set<std::string> p;
  for (const sweep::Outcome& o : sweeps)
    if (sweep_provided(o) && o.report)
      for (const auto& [policy, n] : o.report->tally.accepted) p.insert(policy);
  return p;
}

// "a, b" of the policies a suite's passes used.
std::string joined(const std::set<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// The SHA-256 of the IDs, each followed by a newline, in record order.
std::string ids_sha256(const std::vector<CaseResult>& cases) {
  std::string ids;
  for (const CaseResult& c : cases) ids += c.id + "\n";
  return corpus::sha256_hex(ids);
}

nlohmann::ordered_json departure_names(unsigned d) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (int b = 0; b < kDepartureCount; ++b)
    if (d >> b & 1) a.push_back(kDepartureNames[b]);
  return a;
}

std::string departure_text(unsigned d) {
  std::string s;
  for (int b = 0; b < kDepartureCount; ++b)
    if (d >> b & 1) s += (s.empty() ? "" : ", ") + std::string(kDepartureNames[b]);
  return s;
}

}  // namespace

std::string overall_text(const ReplayResult& r, const std::vector<sweep::Outcome>& sweeps) {
  const std::string v = overall_word(r, certified_conformant(r, sweeps), sweep_policies(sweeps));
  return corpus::is_official(r.manifest_sha256) ? v : v + " (MODIFIED corpus)";
}

bool sweep_provided(const sweep::Outcome& o) {
  return !o.report || o.report->tally.covered || o.report->tally.errored || !o.report->tally.target_error.empty();
}

bool sweep_clean(const sweep::Outcome& o) {
  return o.report && o.report->tally.class_counts.empty() && o.report->tally.target_error.empty() &&
         o.report->tally.errored == 0 && o.report->geometry.clean();
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
    bool problem = false, swept = false, tolerance = false;
    for (const SuiteResult& s : r.suites) {
      if (s.cap != v.cap) continue;
      v.cases += s.total();
      v.failed += s.failed();
      v.untested += s.counts[size_t(Verdict::Untested)];
      policies.insert(s.policies_used.begin(), s.policies_used.end());
      tolerance |= s.counts[size_t(Verdict::WithinTolerance)] > 0;
      problem |= !s.target_problem.empty() || s.position_failures();
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
    else if (!policies.empty() || tolerance) v.verdict = "conformant " + policy_qualifier(policies, tolerance);
    else v.verdict = v.untested ? "conformant (some cases untested)" : "conformant";
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
  const bool conformant = certified_conformant(r, sweeps);
  m += "| overall | " + overall_text(r, sweeps) + " |\n";
  m += "| verdict | " + verdict_line(r, conformant, sweep_policies(sweeps)) + " |\n";
  m += "| generated_at | " + generated_at + " |\n";
  if (const Environment& e = r.environment; !e.cpu_model.empty()) {
    std::string isa;
    for (const std::string& f : e.isa) isa += (isa.empty() ? "" : " ") + f;
    m += "| cpu | " + e.cpu_model + "; " +
         (isa.empty() ? std::string("no conversion-relevant features reported") : isa) + " |\n";
    m += "| threads | " + std::to_string(e.jobs) + " (--jobs) of " + std::to_string(e.logical_cpus) +
         " logical CPUs |\n";
    m += "| target reports | " + (e.target_info.empty() ? std::string("nothing (no `info` answer)") : e.target_info) +
         " |\n";
  }
  m += "\n";
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
  // What the target returned where the recipe's result was not it but a policy allowed it.
  std::string passes;
  size_t passes_listed = 0, passes_total = 0, passes_in_json = 0;
  for (const SuiteResult& s : r.suites) {
    if (s.policy_passes.empty()) continue;
    passes_total += s.policy_passes.size();
    passes_in_json += std::min(s.policy_passes.size(), max_listed_failures);
    const std::string profile = departure_profile(s.departures());
    passes += "- " + s.name + ": " + std::to_string(s.policy_passes.size()) + " under policy " +
              joined(s.policies_used) + (profile.empty() ? "" : "; " + profile) + "\n";
    for (const CaseResult& c : s.policy_passes)
      if (passes_listed < kCertificateMarkdownFailureCap) {
        ++passes_listed;
        passes += "  - `" + c.id + "` " + c.policy + ": " + c.inputs + ", expected `" + c.expect + "`, actual `" +
                  c.actual + "`" + (c.departure ? " (" + departure_text(c.departure) + ")" : "") + "\n";
      }
  }
  if (!passes.empty()) {
    m += "\n## Passed under a policy\n\nCases whose result is not the recipe's but one a policy of the record allows "
         "(vectors/FORMAT.md), with what the target returned and how it departs.\n\n" +
         passes;
    if (passes_in_json > passes_listed)
      m += "\n" + std::to_string(passes_in_json - passes_listed) + " more are listed in certificate.json.\n";
    if (passes_total > passes_in_json)
      m += "\nCounted but not listed: " + std::to_string(passes_total - passes_in_json) +
           " (certificate.json lists at most " + std::to_string(max_listed_failures) +
           " a suite, and gives each suite's SHA-256 of all their case IDs).\n";
  }
  {
    size_t presented = 0, batch = 0;
    for (const SuiteResult& s : r.suites) presented += s.tail_presented, batch = std::max(batch, s.tail_batch);
    m += "\nBatch geometry (replay): every case in requests of up to 4096 elements" +
         (batch ? "; the " + std::to_string(presented) + " element-wise cases of requests longer than " +
                      std::to_string(batch) + " again in requests of " + std::to_string(batch) +
                      " (outside any full vector of 8 or more lanes), each result compared with the first\n"
                : std::string(" (no second presentation: --tail-batch 0)\n"));
  }
  size_t listed = 0, total = 0, in_json = 0;
  std::string list;
  for (const SuiteResult& s : r.suites) {
    total += s.failures.size();
    in_json += std::min(s.failures.size(), max_listed_failures);
    if (!s.target_problem.empty()) list += "- " + s.name + ": target problem: " + s.target_problem + "\n";
    if (!s.position_finding.empty()) list += "- " + s.name + ": " + s.position_finding + "\n";
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
         std::to_string(max_listed_failures) +
         " a suite, and gives each suite's SHA-256 of all its failing case IDs).\n";
  if (sweeps.empty()) return m;

  m += "\n## Sweeps\n\nEach domain's inputs run through the target and compared with the integer reference "
       "(oracle/fastref), by `ninfer-conform sweep`. Results a policy of the corpus allows for the same "
       "inputs are counted apart, not as mismatches.\n\n"
       "| domain | inputs judged | coverage | mismatches | passed under policy | in failed batches |\n"
       "|---|---|---|---|---|---|\n";
  std::string not_provided, findings, geometry, profiles, policy_profiles;
  std::vector<std::string> tried;
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
    if (!s.tally.accepted.empty())
      policy_profiles += "- " + s.domain + ": " + counts_text(s.tally.accepted) +
                         (s.tally.departures.empty() ? "" : "; " + departure_profile(s.tally.departures)) + "\n";
    const sweep::GeometryResult& g = s.geometry;
    if (g.sample) {
      geometry += "- " + s.domain + ": " + std::to_string(g.sample) + " inputs (" + g.sample_about + "), " +
                  std::to_string(g.presented) + " presentations: " +
                  (g.position_dependent == 0 ? std::string("no result depends on position") : g.finding) + "\n";
      for (const auto& [cls, count] : g.classes)
        findings += "- " + s.domain + ": " + cls + " " + std::to_string(count) + " only outside a full batch\n";
      if (!g.finding.empty()) findings += "- " + s.domain + ": " + g.finding + "\n";
      if (!g.target_error.empty()) findings += "- " + s.domain + ": geometry pass: " + g.target_error + "\n";
      if (tried.empty()) tried = g.tried;
      if (g.profile.sample) profiles += "- " + s.op + ": " + g.profile.summary + "\n";
    } else {
      geometry += "- " + s.domain + ": no geometry pass (" +
                  (s.domain.rfind("convert.", 0) == 0 || s.domain.rfind("decode.", 0) == 0
                       ? std::string("--no-geometry, or a report without one")
                       : std::string("its elements are not one word each")) +
                  ")\n";
    }
  }
  if (!not_provided.empty()) m += "\nNot provided (the target declined every input): " + not_provided + ".\n";
  m += "\n### Batch geometry\n\nThe sweeps' batches hold 65,536 inputs, a multiple of every SIMD width. "
       "Each domain's class sample was presented again in these geometries, each result compared with the "
       "one in the first (a result that changes is position-dependent, a finding):\n\n";
  for (const std::string& t : tried) m += "- " + t + "\n";
  m += "\n" + geometry;
  if (!profiles.empty())
    m += "\n### Profiles\n\nEach conversion's results on its class sample (the first geometry), compared with every "
         "known profile: the recipes of the same destination, and the recipe with one classic mistake (truncation, "
         "ties away, FTZ, DAZ, double rounding, NaN canonicalised, saturation, overflow at the largest finite "
         "value); certificate.json gives every candidate's count.\n\n" +
         profiles;
  m += "\n### Sweep findings\n\n" + (findings.empty() ? std::string("None.\n") : findings);
  if (!policy_profiles.empty()) m += "\n### Sweep passes under a policy\n\n" + policy_profiles;
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
  const bool conformant = certified_conformant(r, sweeps);
  j["conformant"] = conformant;
  j["overall"] = overall_text(r, sweeps);
  j["verdict"] = verdict_line(r, conformant, sweep_policies(sweeps));
  j["scope"] = scope_json(r);
  j["generated_at"] = generated_at;
  if (const Environment& e = r.environment; !e.cpu_model.empty())
    j["environment"] = {{"cpu_model", e.cpu_model},
                        {"isa", e.isa},
                        {"logical_cpus", e.logical_cpus},
                        {"jobs", e.jobs},
                        {"target_info", e.target_info}};
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
    js["geometry"] = suite_geometry_json(s, max_listed_failures);
    if (!s.ulp_errors.empty()) {
      nlohmann::ordered_json h = nlohmann::ordered_json::object();
      for (const auto& [ulp, n] : s.ulp_errors) h[std::to_string(ulp)] = n;
      js["ulp_errors"] = h;
    }
    js["failures_total"] = s.failures.size();
    js["failing_ids_sha256"] = ids_sha256(s.failures);
    js["failures"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < s.failures.size() && i < max_listed_failures; ++i) {
      const CaseResult& f = s.failures[i];
      js["failures"].push_back({{"id", f.id},
                                {"verdict", verdict_name(f.verdict)},
                                {"inputs", f.inputs},
                                {"expect", f.expect},
                                {"actual", f.actual},
                                {"tags", f.tags}});
    }
    // Passes under a policy, listed like failures, with what the target returned.
    js["policy_passes_total"] = s.policy_passes.size();
    js["policy_pass_ids_sha256"] = ids_sha256(s.policy_passes);
    js["departures"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : s.departures()) js["departures"][k] = v;
    js["departure_profile"] = departure_profile(s.departures());
    js["policy_passes"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < s.policy_passes.size() && i < max_listed_failures; ++i) {
      const CaseResult& c = s.policy_passes[i];
      js["policy_passes"].push_back({{"id", c.id},
                                     {"policy", c.policy},
                                     {"inputs", c.inputs},
                                     {"expect", c.expect},
                                     {"actual", c.actual},
                                     {"departure", departure_names(c.departure)}});
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
    js["departures"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : s.tally.departures) js["departures"][k] = v;
    js["departure_profile"] = departure_profile(s.tally.departures);
    js["target_error"] = s.tally.target_error;
    js["first"] = nlohmann::ordered_json::array();
    for (const sweep::Mismatch& x : s.tally.first)
      js["first"].push_back({{"index", x.index},
                             {"class", x.mismatch_class},
                             {"input", x.input},
                             {"expected", x.expected},
                             {"actual", x.actual}});
    if (s.geometry.sample) js["geometry"] = sweep::geometry_json(s.geometry);
    if (s.grid.columns) js["cells"] = sweep::cells_json(s);
    j["sweeps"].push_back(js);
  }
  return j.dump(2) + "\n";
}

}  // namespace nc::runners
