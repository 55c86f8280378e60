#include "runners/report.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "corpus/official.h"
#include "runners/scope.h"
#include "runners/tokens.h"

namespace nc::runners {
namespace {

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '&':
        o += "&amp;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') o += '?';
        else o += c;
    }
  }
  return o;
}

std::string counts_line(const SuiteResult& s) {
  auto n = [&](Verdict v) { return std::to_string(s.counts[size_t(v)]); };
  return n(Verdict::Pass) + " passed, " + std::to_string(s.failed()) + " failed, " + n(Verdict::Untested) +
         " untested, " + n(Verdict::PassUnderPolicy) + " under policy, " + n(Verdict::WithinTolerance) +
         " within tolerance, " + n(Verdict::ExpectedRejection) + " rejected as required";
}

ResultType type_of(const SuiteResult& s) {
  const size_t sp = s.op.find(' ');
  return result_type(s.cap, sp == std::string::npos ? "" : s.op.substr(sp + 1));
}

}  // namespace

std::string decoded(ResultType type, const std::string& token) {
  if (type == kBinary32Result && is_binary32_token(token)) {
    uint64_t w;
    parse_hex(token, &w);
    return binary32_value(uint32_t(w));
  }
  return token;
}

void print_summary(FILE* out, const ReplayResult& r, size_t max_failures) {
  std::fprintf(out, "target %s %s\ncorpus: %s\n", r.target_name.c_str(), r.target_version.c_str(),
               corpus::provenance(r.manifest_sha256).c_str());
  std::vector<std::string> not_provided;  // suites the target declined whole: one line at the end
  std::map<std::string, size_t> not_provided_by_verb;
  size_t not_provided_cases = 0;
  for (const SuiteResult& s : r.suites) {
    const bool untested = s.counts[size_t(Verdict::Untested)] == s.total() && s.target_problem.empty();
    if (untested && !s.failed() && !s.position_failures()) {
      not_provided.push_back(s.name);
      not_provided_cases += s.total();
      ++not_provided_by_verb[capability_verb(s.cap)];
      continue;
    }
    std::fprintf(out, "%-8s %s: %s\n", s.failed() || s.position_failures() ? "FAIL" : "ok", s.name.c_str(),
                 counts_line(s).c_str());
    if (!s.position_finding.empty()) std::fprintf(out, "         %s\n", s.position_finding.c_str());
    if (!s.policies_used.empty()) {
      const std::string profile = departure_profile(s.departures());
      std::fprintf(out, "         conformant %s%s%s\n", policy_qualifier(s.policies_used).c_str(),
                   profile.empty() ? "" : ": ", profile.c_str());
    }
    if (!s.target_problem.empty()) std::fprintf(out, "         target problem: %s\n", s.target_problem.c_str());
    const ResultType type = type_of(s);
    for (size_t i = 0; i < s.failures.size() && i < max_failures; ++i) {
      const CaseResult& f = s.failures[i];
      std::fprintf(out, "         %s %s: %s\n           expected %s (%s)\n           actual   %s (%s)", f.id.c_str(),
                   verdict_name(f.verdict), f.inputs.c_str(), f.expect.c_str(), decoded(type, f.expect).c_str(),
                   f.actual.c_str(), decoded(type, f.actual).c_str());
      if (f.ulp) std::fprintf(out, ", %llu ulp", static_cast<unsigned long long>(*f.ulp));
      if (!f.note.empty()) std::fprintf(out, ", %s", f.note.c_str());
      std::fprintf(out, "\n");
    }
    if (s.failures.size() > max_failures)
      std::fprintf(out, "         ... %zu more failures not shown (--max-failures)\n",
                   s.failures.size() - max_failures);
    for (const std::string& d : s.diagnosis) std::fprintf(out, "         diagnosis: %s\n", d.c_str());
  }
  if (!not_provided.empty()) {
    // Their names when few, else how many of each capability (--json lists them all).
    std::string names;
    if (not_provided.size() <= 4)
      for (const std::string& n : not_provided) names += (names.empty() ? "" : ", ") + n;
    else
      for (const auto& [verb, n] : not_provided_by_verb)
        names += (names.empty() ? "" : ", ") + verb + " " + std::to_string(n);
    std::fprintf(out, "untested %zu %s not provided by the target (%zu cases): %s\n", not_provided.size(),
                 not_provided.size() == 1 ? "suite" : "suites", not_provided_cases, names.c_str());
  }
  for (const std::string& u : scope_of(r).unmet) std::fprintf(out, "required %s\n", u.c_str());
  std::fprintf(out, "%s\n", verdict_line(r, r.conformant()).c_str());
}

nlohmann::ordered_json suite_geometry_json(const SuiteResult& s, size_t max_listed) {
  nlohmann::ordered_json g{{"tail_batch", s.tail_batch},
                           {"tail_presented", s.tail_presented},
                           {"position_dependent", s.position_dependent.size()},
                           {"position_failures", s.position_failures()},
                           {"finding", s.position_finding}};
  g["cases"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < s.position_dependent.size() && i < max_listed; ++i) {
    const PositionCase& c = s.position_dependent[i];
    g["cases"].push_back({{"id", c.id},
                          {"inputs", c.inputs},
                          {"expect", c.expect},
                          {"full",
                           {{"actual", c.full},
                            {"verdict", verdict_name(c.full_verdict)},
                            {"position", c.full_pos},
                            {"length", c.full_len}}},
                          {"short",
                           {{"actual", c.tail},
                            {"verdict", verdict_name(c.tail_verdict)},
                            {"position", c.tail_pos},
                            {"length", c.tail_len}}}});
  }
  return g;
}

nlohmann::ordered_json scope_json(const ReplayResult& r) {
  const Scope s = scope_of(r);
  return {{"judged_cases", s.judged_cases},
          {"untested_cases", s.untested_cases},
          {"judged", s.judged},
          {"partly_untested", s.partial},
          {"not_provided", s.not_provided},
          {"required", r.required},
          {"unmet", s.unmet}};
}

std::string report_json(const ReplayResult& r) {
  nlohmann::ordered_json j;
  j["target"] = {{"name", r.target_name}, {"version", r.target_version}};
  j["corpus_manifest_sha256"] = r.manifest_sha256;
  j["corpus"] = corpus::provenance(r.manifest_sha256);
  j["corpus_official"] = corpus::is_official(r.manifest_sha256);
  j["conformant"] = r.conformant();
  j["overall"] = overall_word(r, r.conformant());
  j["verdict"] = verdict_line(r, r.conformant());
  j["scope"] = scope_json(r);
  j["suites"] = nlohmann::ordered_json::array();
  for (const SuiteResult& s : r.suites) {
    nlohmann::ordered_json js;
    js["suite"] = s.name;
    js["op"] = s.op;
    js["capability"] = capability_verb(s.cap);
    nlohmann::ordered_json counts;
    for (int v = 0; v < kVerdictCount; ++v) counts[verdict_name(Verdict(v))] = s.counts[size_t(v)];
    js["counts"] = counts;
    js["policies"] = s.policies_used;
    js["target_problem"] = s.target_problem;
    js["diagnosis"] = s.diagnosis;
    js["geometry"] = suite_geometry_json(s, SIZE_MAX);
    js["failures"] = nlohmann::ordered_json::array();
    for (const CaseResult& f : s.failures) {
      nlohmann::ordered_json jf{{"id", f.id},         {"verdict", verdict_name(f.verdict)},
                                {"inputs", f.inputs}, {"expect", f.expect},
                                {"actual", f.actual}, {"tags", f.tags}};
      if (f.ulp) jf["ulp"] = *f.ulp;
      if (!f.note.empty()) jf["note"] = f.note;
      js["failures"].push_back(jf);
    }
    js["departures"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : s.departures()) js["departures"][k] = v;
    js["departure_profile"] = departure_profile(s.departures());
    js["policy_passes"] = nlohmann::ordered_json::array();
    for (const CaseResult& c : s.policy_passes) {
      nlohmann::ordered_json d = nlohmann::ordered_json::array();
      for (int b = 0; b < kDepartureCount; ++b)
        if (c.departure >> b & 1) d.push_back(kDepartureNames[b]);
      js["policy_passes"].push_back({{"id", c.id},
                                     {"policy", c.policy},
                                     {"inputs", c.inputs},
                                     {"expect", c.expect},
                                     {"actual", c.actual},
                                     {"tags", c.tags},
                                     {"departure", d}});
    }
    j["suites"].push_back(js);
  }
  return j.dump(2) + "\n";
}

std::string report_junit(const ReplayResult& r) {
  const std::vector<std::string> unmet = scope_of(r).unmet;
  size_t failures = unmet.size();
  for (const SuiteResult& s : r.suites) failures += s.failed() || !s.target_problem.empty() || s.position_failures();
  const std::string tests = std::to_string(r.suites.size() + unmet.size());
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuites name=\"ninfer-conform\" tests=\"" + tests + "\" failures=\"" + std::to_string(failures) + "\">\n";
  x += "  <testsuite name=\"" + xml_escape(r.target_name + " " + r.target_version) + "\" tests=\"" + tests +
       "\" failures=\"" + std::to_string(failures) + "\">\n";
  x += "    <properties>\n      <property name=\"verdict\" value=\"" + xml_escape(verdict_line(r, r.conformant())) +
       "\"/>\n      <property name=\"overall\" value=\"" + xml_escape(overall_word(r, r.conformant())) +
       "\"/>\n      <property name=\"corpus\" value=\"" + xml_escape(corpus::provenance(r.manifest_sha256)) +
       "\"/>\n    </properties>\n";
  // A requirement the target did not meet is a failed test of its own.
  for (const std::string& u : unmet)
    x += "    <testcase classname=\"require\" name=\"" + xml_escape(u.substr(0, u.find(':'))) +
         "\">\n      <failure message=\"" + xml_escape("required " + u) + "\"/>\n    </testcase>\n";
  for (const SuiteResult& s : r.suites) {
    x += "    <testcase classname=\"" + xml_escape(capability_verb(s.cap)) + "\" name=\"" + xml_escape(s.name) + "\"";
    const bool untested_only = s.counts[size_t(Verdict::Untested)] == s.total() && s.target_problem.empty();
    if (!s.failed() && s.target_problem.empty() && !s.position_failures() && !untested_only) {
      if (s.policies_used.empty()) {
        x += "/>\n";
        continue;
      }
      // Passed, but only under a policy: says so, with the departure profile.
      const std::string profile = departure_profile(s.departures());
      x += ">\n      <properties>\n        <property name=\"verdict\" value=\"" +
           xml_escape("conformant " + policy_qualifier(s.policies_used)) + "\"/>\n      </properties>\n" +
           "      <system-out>" +
           xml_escape(std::to_string(s.policy_passes.size()) + " cases passed " + policy_qualifier(s.policies_used) +
                      (profile.empty() ? "" : ": " + profile)) +
           "</system-out>\n    </testcase>\n";
      continue;
    }
    x += ">\n";
    if (untested_only) {
      x += "      <skipped message=\"capability not provided by the target\"/>\n";
    } else {
      std::string body;
      for (const CaseResult& f : s.failures)
        body += f.id + " " + verdict_name(f.verdict) + ": " + f.inputs + " expected " + f.expect + " actual " +
                f.actual + (f.note.empty() ? "" : " (" + f.note + ")") + "\n";
      for (const std::string& d : s.diagnosis) body += "diagnosis: " + d + "\n";
      if (!s.position_finding.empty()) body += s.position_finding + "\n";
      x += "      <failure message=\"" +
           xml_escape(std::to_string(s.failed()) + " failed" + (s.position_failures() ? "; position-dependent" : "") +
                      (s.target_problem.empty() ? "" : "; " + s.target_problem)) +
           "\">" + xml_escape(body) + "</failure>\n";
    }
    x += "    </testcase>\n";
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

}  // namespace nc::runners
