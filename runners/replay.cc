#include "runners/replay.h"

#include <fnmatch.h>

#include <fstream>
#include <sstream>

#include "corpus/sha256.h"
#include "runners/diagnosis.h"
#include "runners/scope.h"
#include "runners/tokens.h"

namespace nc::runners {
namespace {

// The op's input columns joined into a request element (PIPE.md), and the selector beside it.
struct Shaped {
  std::string selector, element;
};

bool has_tag(std::string_view tags, std::string_view tag) {
  for (std::string_view t : split(tags, ','))
    if (t == tag) return true;
  return false;
}

struct Columns {
  int id = -1, expect = -1, accept = -1, tags = -1;
  const corpus::SuiteHeader* h = nullptr;
  std::string get(const corpus::Record& r, std::string_view name) const {
    int c = h->column(name);
    return c >= 0 ? r.fields[size_t(c)] : std::string();
  }
};

Shaped shape_request(Capability cap, const std::string& op_selector, const Columns& c, const corpus::Record& r) {
  auto f = [&](std::string_view name) { return c.get(r, name); };
  switch (cap) {
    case Capability::Decode:
    case Capability::Validate: return {op_selector, f("word")};
    case Capability::Parse: return {op_selector, f("name")};
    case Capability::Convert: return {op_selector, f("src")};
    case Capability::Reconstruct: {
      std::string d = f("divisor");
      return {op_selector, f("code") + ":" + f("scale") + (d == "-" || d.empty() ? "" : ":" + d)};
    }
    case Capability::Encode: return {op_selector + " " + f("src_type"), f("shape") + " " + f("src")};
    case Capability::ValidateTensor:
    case Capability::Dequantize:
      return {op_selector, f("shape") + " " + f("codes") + " " + f("scales") + " " + f("divisor")};
    case Capability::Layout: return {op_selector, f("shape") + ":" + f("row") + ":" + f("block")};
  }
  return {};
}

// One element per request where PIPE.md says so (a whole matrix or tensor is one element).
bool one_per_request(Capability c) {
  return c == Capability::Encode || c == Capability::ValidateTensor || c == Capability::Dequantize;
}

std::string inputs_of(const corpus::SuiteHeader& h, const corpus::Record& r) {
  std::string in;
  for (size_t i = 1; i <= h.input_count(); ++i)
    in += (in.empty() ? "" : " ") + h.columns[i] + "=" + r.fields[i];
  return in;
}

}  // namespace

size_t SuiteResult::total() const {
  size_t t = 0;
  for (size_t c : counts) t += c;
  return t;
}

bool ReplayResult::conformant() const {
  size_t judged = 0;
  for (const SuiteResult& s : suites) {
    if (s.failed() || !s.target_problem.empty()) return false;
    judged += s.total() - s.counts[size_t(Verdict::Untested)];
  }
  // A target that provided nothing the corpus tests has not shown conformance.
  return judged > 0 && scope_of(*this).unmet.empty();
}

bool verify_manifest(const std::string& dir, std::string* manifest_sha256, std::vector<corpus::ManifestEntry>* entries,
                     std::string* error) {
  const std::string path = dir + "/" + corpus::kManifestName;
  std::ifstream f(path, std::ios::binary);
  if (!f) return *error = path + ": cannot read the corpus manifest", false;
  std::stringstream ss;
  ss << f.rdbuf();
  *manifest_sha256 = corpus::sha256_hex(ss.str());
  auto m = corpus::parse_manifest(ss.str(), path);
  if (!m) return *error = m.error().message(), false;
  std::vector<corpus::Error> problems = corpus::verify_corpus(dir, *m);
  if (!problems.empty()) {
    *error = problems[0].message();
    if (problems.size() > 1) *error += " (and " + std::to_string(problems.size() - 1) + " more problems)";
    return false;
  }
  *entries = m->suites;
  return true;
}

bool replay_suite(Target& target, corpus::SuiteReader& reader, const ReplayOptions& o, SuiteResult* out,
                  std::string* error) {
  const corpus::SuiteHeader& h = reader.header();
  SuiteResult& res = *out;
  res = SuiteResult{};
  res.name = h.suite;
  res.op = h.op;
  const size_t sp = h.op.find(' ');
  const std::string op_selector = sp == std::string::npos ? "" : h.op.substr(sp + 1);
  if (!capability_from_op(std::string(h.op_name()), &res.cap)) return *error = h.suite + ": unknown #op '" + h.op + "'", false;
  Columns c{h.column("id"), h.column("expect"), h.column("accept"), h.column("tags"), &h};
  if (c.expect < 0) return *error = h.suite + ": no expect column", false;
  const size_t limit = one_per_request(res.cap) ? 1 : std::max<size_t>(1, o.batch);
  bool dead = false;
  size_t done = 0;

  // Tag lists of the judged cases, counted per distinct list (few per suite) and split once at
  // the end: the diagnosis ranks failure tags against them.
  std::map<std::string, size_t, std::less<>> judged_tag_lists;
  auto record_case = [&](const corpus::Record& r, Verdict v, const std::string& actual, const Judgement* j) {
    ++res.counts[size_t(v)];
    if (v != Verdict::Untested && c.tags >= 0) {
      const std::string& list = r.fields[size_t(c.tags)];
      auto it = judged_tag_lists.find(list);
      if (it == judged_tag_lists.end()) it = judged_tag_lists.emplace(list, 0).first;
      ++it->second;
    }
    if (j && v == Verdict::PassUnderPolicy) res.policies_used.insert(j->policy);
    if (v != Verdict::Fail && v != Verdict::TargetError) return;
    CaseResult cr;
    cr.id = r.id();
    cr.inputs = inputs_of(h, r);
    cr.expect = r.fields[size_t(c.expect)];
    cr.actual = actual;
    cr.tags = c.tags >= 0 ? r.fields[size_t(c.tags)] : "-";
    cr.verdict = v;
    if (j) cr.ulp = j->ulp, cr.note = j->note;
    res.failures.push_back(std::move(cr));
  };

  // Sends one batch (records with one selector) and judges its answers.
  auto flush = [&](Request& req, std::vector<corpus::Record>& batch) {
    if (batch.empty()) return;
    if (dead) {
      for (auto& r : batch) record_case(r, Verdict::Untested, "", nullptr);
    } else {
      Response resp = target.call(req);
      const ResultType type = result_type(res.cap, req.selector.substr(0, req.selector.find(' ')));
      switch (resp.kind) {
        case Response::Kind::Unsupported:
          for (auto& r : batch) record_case(r, Verdict::Untested, "", nullptr);
          break;
        case Response::Kind::Error:
        case Response::Kind::Dead: {
          if (resp.kind == Response::Kind::Dead) {
            dead = true;
            res.target_problem = resp.message + ", on the request starting at case " + batch[0].id();
          }
          Judgement j;
          j.note = resp.message;
          for (auto& r : batch)
            record_case(r, Verdict::TargetError, resp.kind == Response::Kind::Dead ? "(target died)" : "(error)", &j);
          break;
        }
        case Response::Kind::Ok:
          for (size_t k = 0; k < batch.size(); ++k) {
            const corpus::Record& r = batch[k];
            Judgement j = judge(res.cap, type, r.fields[size_t(c.expect)],
                                c.accept >= 0 ? std::string_view(r.fields[size_t(c.accept)]) : std::string_view("-"),
                                resp.tokens[k], o.judge);
            record_case(r, j.verdict, resp.tokens[k], &j);
          }
          break;
      }
    }
    done += batch.size();
    if (o.progress) o.progress(res.name, done, h.records);
    batch.clear();
    req.elements.clear();
  };

  Request req;
  req.cap = res.cap;
  std::vector<corpus::Record> batch;
  corpus::Record r;
  for (;;) {
    auto more = reader.next(r);
    if (!more) return *error = more.error().message(), false;
    if (!*more) break;
    if (!o.tag.empty() && (c.tags < 0 || !has_tag(r.fields[size_t(c.tags)], o.tag))) continue;
    Shaped sh = shape_request(res.cap, op_selector, c, r);
    if (!batch.empty() && (sh.selector != req.selector || batch.size() >= limit)) flush(req, batch);
    req.selector = sh.selector;
    req.elements.push_back(std::move(sh.element));
    batch.push_back(std::move(r));
  }
  flush(req, batch);
  for (const auto& [list, n] : judged_tag_lists)
    if (list != "-")
      for (std::string_view t : split(list, ',')) res.judged_tags[std::string(t)] += n;
  res.diagnosis = diagnose(h, res);
  return true;
}

bool replay(Target& target, const ReplayOptions& o, ReplayResult* out, std::string* error) {
  std::vector<corpus::ManifestEntry> entries;
  if (!verify_manifest(o.corpus_dir, &out->manifest_sha256, &entries, error)) return false;
  bool started = false, matched = false;
  for (const corpus::ManifestEntry& m : entries) {
    if (fnmatch(o.suite_glob.c_str(), m.suite.c_str(), 0) != 0) continue;
    matched = true;
    auto reader = corpus::SuiteReader::open(o.corpus_dir + "/" + m.file);
    if (!reader) return *error = reader.error().message(), false;
    std::string why;
    if (!target.start(&why)) {
      // A target that cannot start is a run error before any suite, a lost suite after one.
      if (!started) return *error = why, false;
      SuiteResult r;
      r.name = m.suite;
      r.op = (*reader)->header().op;
      capability_from_op(std::string((*reader)->header().op_name()), &r.cap);
      r.target_problem = why;
      r.counts[size_t(Verdict::TargetError)] = m.records;
      out->suites.push_back(r);
      continue;
    }
    if (!started) out->target_name = target.name(), out->target_version = target.version();
    started = true;
    SuiteResult r;
    if (!replay_suite(target, **reader, o, &r, error)) return false;
    if (std::string problem = target.finish_suite(); !problem.empty() && r.target_problem.empty())
      r.target_problem = problem + ", after the suite's last request";
    out->suites.push_back(std::move(r));
  }
  if (!matched) return *error = "no suite matches '" + o.suite_glob + "'", false;
  return true;
}

}  // namespace nc::runners
