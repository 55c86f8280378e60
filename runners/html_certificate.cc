#include "runners/html_certificate.h"

#include <algorithm>
#include <set>

#include "runners/sweep/sweep.h"
#include "runners/svg_pictures.h"

namespace nc::runners {
namespace {

using nlohmann::json;
using svg::escape;

const json kNull;

const json& member(const json& j, const char* key) { return j.is_object() && j.contains(key) ? j[key] : kNull; }

std::string text(const json& j, const char* key) {
  const json& v = member(j, key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

uint64_t count(const json& j, const char* key) {
  const json& v = member(j, key);
  return v.is_number_unsigned()                          ? v.get<uint64_t>()
         : v.is_number_integer() && v.get<int64_t>() > 0 ? uint64_t(v.get<int64_t>())
                                                         : 0;
}

std::string num(uint64_t v) { return std::to_string(v); }

// Any JSON value as HTML: objects as two-column tables, arrays as lists, scalars as text.
std::string generic(const json& v) {
  if (v.is_object()) {
    if (v.empty()) return "<em>none</em>";
    std::string s = "<table class=\"generic\">\n";
    for (const auto& [k, x] : v.items()) s += "<tr><th>" + escape(k) + "</th><td>" + generic(x) + "</td></tr>\n";
    return s + "</table>";
  }
  if (v.is_array()) {
    if (v.empty()) return "<em>none</em>";
    std::string s = "<ul>\n";
    for (const json& x : v) s += "<li>" + generic(x) + "</li>\n";
    return s + "</ul>";
  }
  if (v.is_string()) return escape(v.get<std::string>());
  return escape(v.dump());
}

// conformant, policy (conformant under policies) or fail: the colour of a verdict.
std::string verdict_class(const std::string& verdict) {
  std::string v;
  for (char c : verdict) v += char(std::tolower(static_cast<unsigned char>(c)));
  if (v.find("not conformant") != std::string::npos || v.rfind("untested", 0) == 0)
    return v.rfind("untested", 0) == 0 ? "untested" : "fail";
  if (v.find("under polic") != std::string::npos) return "policy";
  return v.find("conformant") != std::string::npos ? "conformant" : "untested";
}

const char kStyle[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em auto;max-width:1100px;"
    "padding:0 1em;color:#1d1d1d;background:#fff;line-height:1.4}\n"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.6em}\n"
    "table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;"
    "vertical-align:top;font-size:.92em}th{background:#f2f2f2}\n"
    "code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.92em}\n"
    ".verdict{display:inline-block;padding:.3em .8em;border-radius:.3em;font-weight:bold;color:#fff}\n"
    ".conformant{background:#2e7d4f}.policy{background:#b07d00}.fail{background:#b3261e}.untested{background:#777}\n"
    "td.conformant,td.policy,td.fail,td.untested{color:#fff}\n"
    "svg text{font-family:system-ui,sans-serif;font-size:11px;fill:#333}\n"
    "svg.map{display:block;margin:.4em 0;max-width:100%;height:auto}\n"
    ".note{color:#555;font-size:.9em}details{margin:.4em 0}summary{cursor:pointer}\n";

std::string page_head(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "img-src data:\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
         escape(title) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
}

// The ULP histogram's buckets: 0, 1, then powers of two (2-3, 4-7, ...).
std::vector<svg::Bar> ulp_buckets(const json& errors) {
  std::vector<svg::Bar> bars;
  for (const auto& [k, v] : errors.items()) {
    uint64_t ulp = 0;
    try {
      ulp = std::stoull(k);
    } catch (...) {
      continue;
    }
    int b = 0;
    while (b < 64 && (ulp >> b) > 1) ++b;
    const size_t slot = ulp == 0 ? 0 : size_t(b) + 1;
    while (bars.size() <= slot) {
      const size_t i = bars.size();
      bars.push_back({i == 0   ? "0"
                      : i == 1 ? "1"
                               : num(uint64_t(1) << (i - 1)) + "-" + num((uint64_t(1) << i) - 1),
                      0});
    }
    bars[slot].count += v.is_number_unsigned() ? v.get<uint64_t>() : 0;
  }
  return bars;
}

std::string sweep_id(const std::string& domain) { return "sweep-" + domain; }

// One swept domain: its counts, its map when the certificate has cells, its listed mismatches.
std::string sweep_section(const json& s) {
  const std::string domain = text(s, "domain"), id = sweep_id(domain);
  std::string h = "<section id=\"" + escape(id) + "\">\n<h3>" + escape(domain) + "</h3>\n";
  if (!member(s, "failure").is_null() && text(s, "failure") != "")
    return h + "<p>No report: " + escape(text(s, "failure")) + "</p>\n</section>\n";
  const uint64_t size = count(s, "domain_size"), covered = count(s, "covered"),
                 stride = std::max<uint64_t>(1, count(s, "stride"));
  uint64_t accepted = 0;
  for (const auto& [k, v] : member(s, "accepted").items()) accepted += v.is_number_unsigned() ? v.get<uint64_t>() : 0;
  h += "<p>" + num(covered) + " of " + num(size) + " inputs judged" +
       (stride > 1 ? " (1 in " + num(stride) + ")" : "") + ": <strong>" + num(count(s, "mismatches")) +
       "</strong> mismatches, " + num(accepted) + " passed under a policy";
  if (count(s, "unsupported")) h += ", " + num(count(s, "unsupported")) + " declined";
  if (count(s, "errored")) h += ", " + num(count(s, "errored")) + " in failed batches";
  if (count(s, "invalid")) h += ", " + num(count(s, "invalid")) + " invalid inputs skipped";
  h += ".</p>\n";
  if (!member(s, "classes").empty()) {
    h += "<table><tr><th>mismatch class</th><th>inputs</th></tr>\n";
    for (const auto& [k, v] : member(s, "classes").items())
      h += "<tr><td>" + escape(k) + "</td><td>" + escape(v.dump()) + "</td></tr>\n";
    h += "</table>\n";
  }
  if (text(s, "target_error") != "") h += "<p>Target error: " + escape(text(s, "target_error")) + "</p>\n";
  static const std::set<std::string> sweep_known = {
      "domain",  "provided",   "op",      "domain_size", "stride",       "covered", "unsupported", "errored",
      "invalid", "mismatches", "classes", "accepted",    "target_error", "first",   "cells",       "failure"};
  for (const auto& [k, v] : s.items())
    if (!sweep_known.count(k) && !v.is_null() && !(v.is_structured() && v.empty()))
      h += "<p><strong>" + escape(k) + "</strong>: " + generic(v) + "</p>\n";
  const json& cells = member(s, "cells");
  const json& first = member(s, "first");
  const std::string first_id = id + "-first";
  if (cells.is_object()) {
    svg::GridPicture p;
    p.id = id + "-map";
    p.layout = text(cells, "layout");
    p.columns = count(cells, "columns");
    p.rows = count(cells, "rows");
    p.across = text(cells, "across");
    p.down = text(cells, "down");
    const uint64_t n = p.columns * p.rows;
    bool ok = n > 0 && n <= 65536 && sweep::decode_runs(text(cells, "judged"), n, &p.judged) &&
              sweep::decode_runs(text(cells, "mismatches"), n, &p.mismatches) &&
              sweep::decode_runs(text(cells, "accepted"), n, &p.accepted);
    if (ok) {
      p.cell_inputs = size / n;
      int bits = 0;
      while (bits < 64 && (uint64_t(1) << bits) < size) ++bits;
      p.input_digits = std::max(1, (bits + 3) / 4);
      p.failures_href = "#" + first_id;
      // A cell holding a listed mismatch links to its row.
      if (p.layout == "binary32" || p.layout == "word")
        for (const json& f : first) {
          const uint64_t index = count(f, "index"), cell = p.cell_inputs ? index / p.cell_inputs : n;
          if (cell >= n) continue;
          p.cell_href.resize(n);
          if (p.cell_href[cell].empty()) p.cell_href[cell] = "#" + first_id + "-" + num(index);
        }
      h += "<figure>\n" + svg::grid(p) + "<figcaption class=\"note\">Across: " + escape(p.across) +
           ". Down: " + escape(p.down) +
           ". Hover a cell for its counts; a red cell links to the mismatches listed below.</figcaption>\n</figure>\n";
    } else {
      h += "<p class=\"note\">The certificate's cells are malformed; no picture.</p>\n";
    }
  } else {
    h += "<p class=\"note\">No picture: this certificate.json has no per-cell tally for the domain (made before "
         "certificates kept one, or the domain has no grid).</p>\n";
  }
  if (first.is_array() && !first.empty()) {
    h += "<details id=\"" + escape(first_id) + "\"" + (first.size() <= 16 ? " open" : "") + "><summary>" +
         num(first.size()) +
         " listed mismatches (the first of each class by input)</summary>\n<table><tr><th>index</th><th>class</th>"
         "<th>input</th><th>expected</th><th>returned</th></tr>\n";
    for (const json& f : first) {
      std::string input;
      for (const json& x : member(f, "input"))
        input += (input.empty() ? "" : " ") + (x.is_string() ? x.get<std::string>() : x.dump());
      h += "<tr id=\"" + escape(first_id + "-" + num(count(f, "index"))) + "\"><td>" + num(count(f, "index")) +
           "</td><td>" + escape(text(f, "class")) + "</td><td class=\"mono\">" + escape(input) +
           "</td><td class=\"mono\">" + escape(text(f, "expected")) + "</td><td class=\"mono\">" +
           escape(text(f, "actual")) + "</td></tr>\n";
    }
    h += "</table>\n</details>\n";
  }
  return h + "</section>\n";
}

}  // namespace

std::string certificate_html(const json& c) {
  const json& target = member(c, "target");
  const std::string name = text(target, "name"), version = text(target, "version");
  const bool conformant = member(c, "conformant").is_boolean() && member(c, "conformant").get<bool>();
  std::string overall = conformant ? "conformant" : "not conformant";
  std::set<std::string> policies;
  for (const json& cap : member(c, "capabilities")) {
    const std::string v = text(cap, "verdict");
    if (v.rfind("conformant under policies ", 0) == 0) policies.insert(v.substr(26));
  }
  if (conformant && !policies.empty()) {
    overall = "conformant under policies ";
    bool firstp = true;
    for (const std::string& p : policies) overall += (firstp ? "" : "; ") + p, firstp = false;
  }
  std::string h = page_head("NInfer conformance certificate: " + name + " " + version);
  h += "<h1>NInfer conformance certificate: <code>" + escape(name) + "</code> " + escape(version) + "</h1>\n";
  h += "<p><span class=\"verdict " + verdict_class(overall) + "\" id=\"overall\">" + escape(overall) + "</span></p>\n";
  h += "<table>\n<tr><th>verdict</th><td>" + escape(text(c, "verdict")) + "</td></tr>\n<tr><th>corpus</th><td>" +
       escape(text(c, "corpus")) + "</td></tr>\n<tr><th>generated at</th><td>" + escape(text(c, "generated_at")) +
       "</td></tr>\n</table>\n";

  h += "<h2>Capabilities</h2>\n<table><tr><th>capability</th><th>verdict</th><th>cases</th><th>failed</"
       "th><th>untested</th></tr>\n";
  for (const json& cap : member(c, "capabilities")) {
    const std::string v = text(cap, "verdict");
    h += "<tr><td>" + escape(text(cap, "capability")) + "</td><td class=\"" + verdict_class(v) + "\">" + escape(v) +
         "</td><td>" + num(count(cap, "cases")) + "</td><td>" + num(count(cap, "failed")) + "</td><td>" +
         num(count(cap, "untested")) + "</td></tr>\n";
  }
  h += "</table>\n";

  // Members this renderer does not know (a departure profile, qualified verdicts) as they are.
  static const std::set<std::string> known = {
      "schema",  "target", "corpus_manifest_sha256", "corpus",       "corpus_official", "conformant",
      "verdict", "scope",  "generated_at",           "capabilities", "suites",          "sweeps"};
  for (const auto& [k, v] : c.items()) {
    if (known.count(k)) continue;
    std::string title = k;
    std::replace(title.begin(), title.end(), '_', ' ');
    if (!title.empty()) title[0] = char(std::toupper(static_cast<unsigned char>(title[0])));
    h += "<h2 id=\"" + escape(k) + "\">" + escape(title) + "</h2>\n" + generic(v) + "\n";
  }

  const json& suites = member(c, "suites");
  h += "<h2>Suites</h2>\n<p class=\"note\">Suites the target judged (the others are not provided; see the scope "
       "below).</p>\n"
       "<table><tr><th>suite</th><th>passed</th><th>under policy</th><th>within tolerance</th><th>rejected as "
       "required</th>"
       "<th>failed</th><th>untested</th></tr>\n";
  size_t not_judged = 0;
  for (const json& s : suites) {
    const uint64_t judged = count(s, "pass") + count(s, "pass-under-policy") + count(s, "within-tolerance") +
                            count(s, "expected-rejection") + count(s, "fail") + count(s, "target-error");
    if (!judged) {
      ++not_judged;
      continue;
    }
    const uint64_t failed = count(s, "fail") + count(s, "target-error");
    const std::string suite = text(s, "suite");
    h += "<tr><td>" +
         (failed ? "<a href=\"#failures-" + escape(suite) + "\">" + escape(suite) + "</a>" : escape(suite)) +
         "</td><td>" + num(count(s, "pass")) + "</td><td>" + num(count(s, "pass-under-policy")) + "</td><td>" +
         num(count(s, "within-tolerance")) + "</td><td>" + num(count(s, "expected-rejection")) + "</td><td" +
         (failed ? " class=\"fail\"" : "") + ">" + num(failed) + "</td><td>" + num(count(s, "untested")) +
         "</td></tr>\n";
  }
  h += "</table>\n<p class=\"note\">" + num(not_judged) + " more suites judged nothing.</p>\n";
  // Per-suite members this renderer does not know (policy-pass records, say), as they are.
  static const std::set<std::string> suite_known = {"suite",
                                                    "capability",
                                                    "pass",
                                                    "pass-under-policy",
                                                    "within-tolerance",
                                                    "expected-rejection",
                                                    "fail",
                                                    "untested",
                                                    "target-error",
                                                    "policies",
                                                    "target_problem",
                                                    "diagnosis",
                                                    "failures_total",
                                                    "failing_ids_sha256",
                                                    "failures",
                                                    "ulp_errors"};
  std::string extra;
  for (const json& s : suites) {
    if (!s.is_object()) continue;
    std::string rows;
    for (const auto& [k, v] : s.items())
      if (!suite_known.count(k) && !v.is_null() && !(v.is_structured() && v.empty()))
        rows += "<tr><th>" + escape(k) + "</th><td>" + generic(v) + "</td></tr>\n";
    if (!rows.empty())
      extra += "<h3>" + escape(text(s, "suite")) + "</h3>\n<table class=\"generic\">\n" + rows + "</table>\n";
  }
  if (!extra.empty())
    h += "<details id=\"suite-records\"><summary>Further per-suite records</summary>\n" + extra + "</details>\n";

  const json& sweeps = member(c, "sweeps");
  if (sweeps.is_array() && !sweeps.empty()) {
    h += "<h2>Sweeps</h2>\n<p class=\"note\">Each domain's inputs against the integer reference. A map cell is a block "
         "of inputs: a binary32 conversion's map has the sign and biased exponent across (positive, then negative) and "
         "the top 4 fraction bits down, 2<sup>19</sup> inputs a cell; a word decode has one cell a word; a "
         "reconstruction has codes across and scales down.</p>\n" +
         svg::legend();
    std::string not_provided;
    for (const json& s : sweeps) {
      if (member(s, "provided").is_boolean() && !member(s, "provided").get<bool>()) {
        not_provided += (not_provided.empty() ? "" : ", ") + text(s, "domain");
        continue;
      }
      h += sweep_section(s);
    }
    if (!not_provided.empty())
      h += "<p>Not provided (the target declined every input): " + escape(not_provided) + ".</p>\n";
  }

  std::string hist;
  for (const json& s : suites)
    if (member(s, "ulp_errors").is_object() && !member(s, "ulp_errors").empty())
      hist += "<h3>" + escape(text(s, "suite")) + "</h3>\n" +
              svg::histogram("ulp-" + text(s, "suite"), "ULP error of the judged cases of " + text(s, "suite"),
                             ulp_buckets(member(s, "ulp_errors")));
  if (!hist.empty())
    h += "<h2>ULP error</h2>\n<p class=\"note\">Judged cases of each suite replayed with a ULP tolerance, by their "
         "distance in units in the last place from the expected binary32 result.</p>\n" +
         hist;

  std::string failures;
  for (const json& s : suites) {
    const json& list = member(s, "failures");
    if (!list.is_array() || list.empty()) continue;
    const std::string suite = text(s, "suite");
    const uint64_t total = std::max<uint64_t>(count(s, "failures_total"), list.size());
    const size_t shown = std::min(list.size(), kHtmlFailureCap);
    failures += "<details id=\"failures-" + escape(suite) + "\"><summary>" + escape(suite) + ": " + num(total) +
                " failures" + (shown < total ? ", the first " + num(shown) + " listed" : "") + "</summary>\n";
    for (const json& d : member(s, "diagnosis")) failures += "<p class=\"note\">" + generic(d) + "</p>\n";
    if (text(s, "target_problem") != "")
      failures += "<p>Target problem: " + escape(text(s, "target_problem")) + "</p>\n";
    failures +=
        "<table><tr><th>case</th><th>verdict</th><th>input</th><th>expected</th><th>returned</th><th>tags</th></tr>\n";
    for (size_t i = 0; i < shown; ++i) {
      const json& f = list[i];
      failures += "<tr><td class=\"mono\">" + escape(text(f, "id")) + "</td><td>" + escape(text(f, "verdict")) +
                  "</td><td class=\"mono\">" + escape(text(f, "inputs")) + "</td><td class=\"mono\">" +
                  escape(text(f, "expect")) + "</td><td class=\"mono\">" + escape(text(f, "actual")) + "</td><td>" +
                  escape(text(f, "tags")) + "</td></tr>\n";
    }
    failures += "</table>\n";
    if (total > shown)
      failures += "<p class=\"note\">" + num(total - shown) + " more: " +
                  (list.size() > shown ? num(list.size() - shown) + " in certificate.json, " : std::string()) +
                  "all pinned by the SHA-256 of the failing case IDs, <code>" + escape(text(s, "failing_ids_sha256")) +
                  "</code>.</p>\n";
    failures += "</details>\n";
  }
  h += "<h2>Failures</h2>\n" + (failures.empty() ? std::string("<p>None.</p>\n") : failures);
  h += "<h2>Scope</h2>\n" + generic(member(c, "scope")) + "\n";
  h += "<p class=\"note\">Rendered from certificate.json (schema " + escape(text(c, "schema")) +
       ") by ninfer-conform; corpus manifest SHA-256 <code>" + escape(text(c, "corpus_manifest_sha256")) +
       "</code>.</p>\n";
  return h + "</body>\n</html>\n";
}

}  // namespace nc::runners
