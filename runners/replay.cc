#include "runners/replay.h"

#include <fnmatch.h>
#include <openssl/evp.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runners/diagnosis.h"
#include "runners/suite_file.h"
#include "runners/tokens.h"

namespace nc::runners {
namespace {

bool read_file(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::stringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}

// The op's input columns, joined into the request element (PIPE.md); selector beside it.
struct Shaped {
  std::string selector, element;
};

bool has_tag(std::string_view tags, std::string_view tag) {
  for (std::string_view t : split(tags, ','))
    if (t == tag) return true;
  return false;
}

Shaped shape_request(Capability cap, const std::string& op_selector, const Suite& s, const SuiteRecord& r) {
  auto f = [&](std::string_view c) { return std::string(r.field(s.columns, c)); };
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
  }
  return {};
}

// One element per request where PIPE.md says so (a whole matrix or tensor is one element).
bool one_per_request(Capability c) {
  return c == Capability::Encode || c == Capability::ValidateTensor || c == Capability::Dequantize;
}

std::string inputs_of(const Suite& s, const SuiteRecord& r) {
  // Every column before expect is an input.
  std::string in;
  for (size_t i = 1; i < s.columns.size() && s.columns[i] != "expect"; ++i)
    in += (in.empty() ? "" : " ") + s.columns[i] + "=" + std::string(r.fields[i]);
  return in;
}

}  // namespace

size_t SuiteResult::total() const {
  size_t t = 0;
  for (size_t c : counts) t += c;
  return t;
}

bool ReplayResult::conformant() const {
  for (const SuiteResult& s : suites)
    if (s.failed() || !s.target_problem.empty()) return false;
  return true;
}

std::string sha256_hex(const std::string& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr);
  std::string hex;
  for (unsigned i = 0; i < len; ++i) hex += hex_word(md[i], 2);
  return hex;
}

bool verify_manifest(const std::string& dir, std::string* manifest_sha256, std::vector<ManifestEntry>* entries,
                     std::string* error) {
  const std::string path = dir + "/MANIFEST.json";
  std::string bytes;
  if (!read_file(path, &bytes)) return *error = path + ": cannot read the corpus manifest", false;
  *manifest_sha256 = sha256_hex(bytes);
  nlohmann::json j = nlohmann::json::parse(bytes, nullptr, false);
  if (j.is_discarded() || !j.contains("suites") || !j["suites"].is_array())
    return *error = path + ": not a manifest (no \"suites\" array)", false;
  entries->clear();
  for (const auto& e : j["suites"]) {
    ManifestEntry m;
    auto str = [&](std::initializer_list<const char*> keys) {
      for (const char* k : keys)
        if (e.contains(k) && e[k].is_string()) return e[k].get<std::string>();
      return std::string();
    };
    m.file = str({"file"});
    m.suite = str({"suite", "name"});
    m.sha256_compressed = str({"sha256_zst", "sha256_compressed", "sha256"});
    m.sha256_text = str({"sha256_text", "sha256_uncompressed"});
    if (e.contains("records") && e["records"].is_number_integer()) m.records = e["records"].get<long>();
    if (m.file.empty()) return *error = path + ": a suite entry has no \"file\"", false;
    if (m.suite.empty()) m.suite = m.file.substr(0, m.file.find(".vec.zst"));
    std::string zst;
    const std::string file = dir + "/" + m.file;
    if (!read_file(file, &zst)) return *error = file + ": listed in the manifest but missing", false;
    if (!m.sha256_compressed.empty() && sha256_hex(zst) != m.sha256_compressed)
      return *error = file + ": SHA-256 " + sha256_hex(zst) + " does not match the manifest's " +
                      m.sha256_compressed + " (tampered or truncated)",
             false;
    if (!m.sha256_text.empty()) {
      std::string text, why;
      if (!zstd_decompress(zst, &text, &why)) return *error = file + ": " + why, false;
      if (sha256_hex(text) != m.sha256_text)
        return *error = file + ": uncompressed SHA-256 does not match the manifest's " + m.sha256_text, false;
    }
    entries->push_back(m);
  }
  return true;
}

SuiteResult replay_suite(Target& target, const Suite& s, const ReplayOptions& o) {
  SuiteResult res;
  res.name = s.name;
  res.op = s.op;
  res.file = s.path;
  const size_t sp = s.op.find(' ');
  const std::string verb = s.op.substr(0, sp), op_selector = sp == std::string::npos ? "" : s.op.substr(sp + 1);
  if (!capability_from_op(verb, &res.cap)) {
    res.target_problem = "unknown #op '" + s.op + "'";
    return res;
  }
  const int c_id = s.column("id"), c_expect = s.column("expect"), c_accept = s.column("accept"),
            c_tags = s.column("tags");
  std::vector<const SuiteRecord*> selected;
  for (const SuiteRecord& r : s.records)
    if (o.tag.empty() || (c_tags >= 0 && has_tag(r.fields[size_t(c_tags)], o.tag))) selected.push_back(&r);
  const size_t limit = one_per_request(res.cap) ? 1 : std::max<size_t>(1, o.batch);
  bool dead = false;
  auto record_case = [&](const SuiteRecord& r, Verdict v, const std::string& actual, const Judgement* j) {
    ++res.counts[size_t(v)];
    if (j && v == Verdict::PassUnderPolicy) res.policies_used.insert(j->policy);
    if (v != Verdict::Fail && v != Verdict::TargetError) return;
    CaseResult c;
    c.id = std::string(r.fields[size_t(c_id)]);
    c.inputs = inputs_of(s, r);
    c.expect = c_expect >= 0 ? std::string(r.fields[size_t(c_expect)]) : "";
    c.actual = actual;
    c.tags = c_tags >= 0 ? std::string(r.fields[size_t(c_tags)]) : "-";
    c.verdict = v;
    if (j) c.ulp = j->ulp, c.note = j->note;
    res.failures.push_back(std::move(c));
  };
  for (size_t i = 0; i < selected.size();) {
    // A batch: consecutive records with the same selector (encode groups by source type).
    Request req;
    req.cap = res.cap;
    std::vector<const SuiteRecord*> batch;
    for (; i < selected.size() && batch.size() < limit; ++i) {
      Shaped sh = shape_request(res.cap, op_selector, s, *selected[i]);
      if (batch.empty()) req.selector = sh.selector;
      else if (sh.selector != req.selector) break;
      req.elements.push_back(std::move(sh.element));
      batch.push_back(selected[i]);
    }
    if (dead) {
      for (auto* r : batch) record_case(*r, Verdict::Untested, "", nullptr);
      continue;
    }
    Response resp = target.call(req);
    const ResultType type = result_type(res.cap, req.selector.substr(0, req.selector.find(' ')));
    switch (resp.kind) {
      case Response::Kind::Unsupported:
        for (auto* r : batch) record_case(*r, Verdict::Untested, "", nullptr);
        break;
      case Response::Kind::Error:
      case Response::Kind::Dead: {
        const std::string first = std::string(batch[0]->fields[size_t(c_id)]);
        if (resp.kind == Response::Kind::Dead) {
          dead = true;
          res.target_problem = resp.message + ", on the request starting at case " + first;
        }
        for (auto* r : batch) {
          Judgement j;
          j.note = resp.message;
          record_case(*r, Verdict::TargetError, resp.kind == Response::Kind::Dead ? "(target died)" : "(error)", &j);
        }
        break;
      }
      case Response::Kind::Ok:
        for (size_t k = 0; k < batch.size(); ++k) {
          const SuiteRecord& r = *batch[k];
          Judgement j = judge(res.cap, type, r.fields[size_t(c_expect)],
                              c_accept >= 0 ? r.fields[size_t(c_accept)] : std::string_view("-"), resp.tokens[k],
                              o.judge);
          record_case(r, j.verdict, resp.tokens[k], &j);
        }
        break;
    }
    if (o.progress) o.progress(s.name, i, selected.size());
  }
  res.diagnosis = diagnose(s, res);
  return res;
}

bool replay(Target& target, const ReplayOptions& o, ReplayResult* out, std::string* error) {
  std::vector<ManifestEntry> entries;
  if (!verify_manifest(o.corpus_dir, &out->manifest_sha256, &entries, error)) return false;
  bool started = false;
  for (const ManifestEntry& m : entries) {
    if (fnmatch(o.suite_glob.c_str(), m.suite.c_str(), 0) != 0) continue;
    Suite s;
    if (!read_suite(o.corpus_dir + "/" + m.file, &s, error)) return false;
    if (m.records >= 0 && long(s.records.size()) != m.records)
      return *error = s.path + ": manifest lists " + std::to_string(m.records) + " records, found " +
                      std::to_string(s.records.size()),
             false;
    std::string why;
    if (!target.start(&why)) {
      // A target that cannot even start is a run error before any suite, a dead suite after.
      if (!started) return *error = why, false;
      SuiteResult r;
      r.name = s.name;
      r.op = s.op;
      r.target_problem = why;
      capability_from_op(s.op.substr(0, s.op.find(' ')), &r.cap);
      r.counts[size_t(Verdict::TargetError)] = s.records.size();
      out->suites.push_back(r);
      continue;
    }
    if (!started) out->target_name = target.name(), out->target_version = target.version();
    started = true;
    out->suites.push_back(replay_suite(target, s, o));
    target.finish_suite();
  }
  if (!started && out->suites.empty()) return *error = "no suite matches '" + o.suite_glob + "'", false;
  return true;
}

}  // namespace nc::runners
