#include "runners/sweep/findings.h"

#include <map>
#include <set>

#include "corpus/case_id.h"
#include "corpus/writer.h"
#include "runners/sweep/shard.h"

namespace nc::sweep {

namespace {
// Input classes a finding can carry as tags; each defined once with the bug it points to.
const std::map<std::string, std::string> kInputTags = {
    {"heavy-tail", "a random group with geometrically distributed exponents: wide dynamic range"},
    {"near-one", "a random group of values near one: ordinary rounding of codes and scale"},
    {"normal-result", "a normal product or quotient: catches wrong rounding or formula"},
    {"outlier", "a random group with one outlier: catches amax and clamp errors"},
    {"subnormal-result", "a subnormal result: catches flush-to-zero on outputs"},
    {"wide-exponents", "a random group spanning subnormal to large values: catches FTZ and rescue errors"},
    {"inf-input", "the input is an infinity: catches overflow policies applied to infinities"},
    {"nan-input", "the input is a NaN: catches payload and quiet-bit handling"},
    {"normal-input", "a normal input: catches rounding errors (ties, carries, overflow)"},
    {"subnormal-input", "a subnormal input: catches flush-to-zero or denormals-are-zero"},
    {"word", "a word of a small type: catches decode-table errors"},
    {"zero-input", "a signed zero: catches sign loss"},
};

std::vector<std::string> columns_for(const std::string& op) {
  std::string verb = op.substr(0, op.find(' '));
  if (verb == "convert") return {"id", "src", "expect", "accept", "exact", "tags", "comment"};
  if (verb == "reconstruct") return {"id", "code", "scale", "divisor", "expect", "accept", "exact", "tags", "comment"};
  if (verb == "encode")
    return {"id", "src_type", "shape", "src", "expect", "accept", "trace", "norm", "tags", "comment"};
  return {"id", "word", "expect", "accept", "value", "class", "tags", "comment"};  // decode
}
}  // namespace

nc::corpus::Status write_findings(const std::string& dir, const std::vector<Report>& reports) {
  std::vector<nc::corpus::RenderedSuite> suites;
  for (const Report& r : reports) {
    if (r.tally.first.empty()) continue;
    nc::corpus::SuiteHeader h;
    h.version = nc::corpus::kSchemaVersion;
    // Shards of one sweep may write into one folder: each keeps its own suite.
    const bool sharded = r.shard.count > 1;
    h.suite = "sweep." + r.domain;
    if (sharded) h.suite += ".shard-" + std::to_string(r.shard.index) + "-of-" + std::to_string(r.shard.count);
    h.op = r.op;
    h.about = "Mismatches found by sweeping " + r.domain + (sharded ? " (shard " + shard_text(r.shard) + ")" : "") +
              " against " + r.target + " (" + r.target_name + " " + r.target_version + "), first of each class.";
    h.spec = "sweep";
    h.columns = columns_for(r.op);
    std::set<std::string> used;
    std::vector<std::vector<std::string>> records;
    for (const Mismatch& m : r.tally.first) {
      std::string tag = m.mismatch_class.substr(0, m.mismatch_class.find(':'));  // the input class
      used.insert(tag);
      std::vector<std::string> rec = {nc::corpus::case_id(h.suite, m.input)};
      rec.insert(rec.end(), m.input.begin(), m.input.end());
      rec.push_back(m.expected);
      rec.push_back("-");
      for (size_t k = rec.size(); k + 2 < h.columns.size(); ++k) rec.push_back("-");  // info columns
      rec.push_back(tag);
      rec.push_back("sweep finding (" + m.mismatch_class + "): the target gave " + m.actual);
      records.push_back(std::move(rec));
    }
    for (const std::string& t : used) {
      auto it = kInputTags.find(t);
      h.tags.push_back({t, it != kInputTags.end() ? it->second : "sweep mismatch class"});
    }
    auto rendered = nc::corpus::render_suite(std::move(h), std::move(records));
    if (!rendered) return rendered.error();
    rendered->compress();
    suites.push_back(std::move(*rendered));
  }
  nc::corpus::Manifest m;
  auto existing = nc::corpus::read_manifest(dir);
  if (existing) m = *existing;
  m.schema = nc::corpus::kSchemaVersion;
  if (m.generator_version.empty()) m.generator_version = "ninfer-conform sweep";
  return nc::corpus::write_corpus(dir, suites, m);
}

}  // namespace nc::sweep
