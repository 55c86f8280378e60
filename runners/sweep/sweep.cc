#include "runners/sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>
#include <unistd.h>
#include <vector>

#include "corpus/json_read.h"
#include "corpus/zstd_io.h"
#include "runners/sweep/shard.h"

namespace nc::sweep {

namespace {
// "42 s", "3 min 5 s", "1 h 2 min": an estimate to the second is enough.
std::string duration_text(double seconds) {
  const uint64_t t = uint64_t(seconds + 0.5);
  if (t < 60) return std::to_string(t) + " s";
  if (t < 3600) return std::to_string(t / 60) + " min " + std::to_string(t % 60) + " s";
  return std::to_string(t / 3600) + " h " + std::to_string(t / 60 % 60) + " min";
}
}  // namespace

std::string reference_name() { return "ninfer-conform " NC_VERSION; }

std::pair<uint64_t, uint64_t> shard_range(uint64_t size, Shard s) {
  auto at = [&](uint64_t k) { return uint64_t((unsigned __int128)size * k / s.count); };
  return {at(s.index), at(s.index + 1)};
}

Report run(const Domain& d, const nc_plugin_v1& target, const std::string& target_spec, const Options& opts) {
  // Work is cut into chunks on the stride lattice; threads take chunks in order and each chunk's
  // tally is merged in chunk order, so the result does not depend on the thread count.
  const uint64_t chunk_inputs = uint64_t(1) << 22;
  const size_t batch = opts.calls.batch;
  if (batch == 0 || batch % kUnitBatch != 0 || batch > chunk_inputs)
    throw std::invalid_argument("a sweep batch of " + std::to_string(batch) + " inputs: it must be a multiple of " +
                                std::to_string(kUnitBatch) + " up to " + std::to_string(chunk_inputs));
  Report r;
  r.domain = d.name();
  r.op = d.op();
  r.target = target_spec;
  r.target_name = target.name ? target.name : "";
  r.target_version = target.version ? target.version : "";
  r.reference = reference_name();
  r.domain_size = d.size();
  r.shard = opts.shard;
  r.stride = opts.stride;
  r.keep = opts.keep;
  r.grid = d.grid();
  const auto range = shard_range(d.size(), opts.shard);  // not a structured binding: clang 14 cannot capture one
  const auto begin = range.first, end = range.second;
  // First index on the global stride lattice at or after begin, so strided shards tile exactly.
  uint64_t first = (begin + opts.stride - 1) / opts.stride * opts.stride;
  const uint64_t chunk_span = chunk_inputs * opts.stride;
  uint64_t n_chunks = first >= end ? 0 : (end - first + chunk_span - 1) / chunk_span;
  std::vector<Tally> tallies(n_chunks);
  // Each thread's cell counts, made here before any call (domain.h CellCounts); no more threads
  // than chunks, so that --jobs 1024 on a decode's one chunk makes one array, not 1024.
  const unsigned jobs = unsigned(std::clamp<uint64_t>(n_chunks, 1, std::max(1u, opts.jobs)));
  std::vector<CellCounts> cells(jobs, CellCounts(r.grid.cells()));
  std::atomic<uint64_t> next{0}, done{0};
  std::mutex print;
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&](unsigned thread) {
    for (uint64_t c; (c = next++) < n_chunks;) {
      uint64_t b = first + c * chunk_span, e = std::min(end, b + chunk_span);
      d.run(target, b, e, opts.stride, opts.keep, opts.calls, tallies[c], cells[thread]);
      uint64_t k = ++done;
      if (opts.progress) {
        // Inputs per second so far and the time the rest takes at that rate (chunks are equal
        // but the last), on one line rewritten in place: a terminal only (the caller decides).
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double inputs = double(std::min(k * chunk_inputs, (end - first + opts.stride - 1) / opts.stride));
        const double rate = s > 0 ? inputs / s : 0, eta = k ? s * double(n_chunks - k) / double(k) : 0;
        std::lock_guard<std::mutex> lock(print);
        std::fprintf(stderr, "\r\033[K%s: %5.1f%%  %.3g inputs/s  ETA %s", r.domain.c_str(),
                     100.0 * double(k) / double(n_chunks), rate, duration_text(eta).c_str());
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker, j);
  worker(0);
  for (auto& t : threads) t.join();
  if (opts.progress && n_chunks) std::fprintf(stderr, "\n");  // the last line stays: 100%, the rate
  for (const Tally& t : tallies) r.tally.merge(t, opts.keep);
  for (const CellCounts& counts : cells)
    for (size_t k = 0; k < counts.size(); ++k) r.tally.add_cell(k, counts[k]);
  // The geometry pass runs once per domain: in shard 0, and only on a target that provided it.
  if (opts.geometry && opts.shard.index == 0 && r.tally.covered > 0) d.geometry(target, &r.geometry);
  return r;
}

std::string to_json(const Report& r) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["schema"] = "ninfer-conform-sweep-1";
  j["domain"] = r.domain;
  j["op"] = r.op;
  j["target"] = r.target;
  j["target_name"] = r.target_name;
  j["target_version"] = r.target_version;
  j["reference"] = r.reference;
  j["domain_size"] = r.domain_size;
  j["shard"] = shard_text(r.shard);
  // A shard is no result for the domain: said in words, with the part of the domain it covers
  // (certify refuses such a report; merge --json of every shard gives the whole).
  {
    const auto [begin, end] = shard_range(r.domain_size, r.shard);
    j["partial"] = r.shard.count > 1;
    j["shard_fraction"] = r.domain_size ? double(end - begin) / double(r.domain_size) : 0.0;
    if (r.shard.count > 1)
      j["scope"] = "PARTIAL: shard " + shard_text(r.shard) + " covers inputs " + std::to_string(begin) + ".." +
                   std::to_string(end) + " of " + std::to_string(r.domain_size);
  }
  j["stride"] = r.stride;
  j["keep"] = r.keep;
  j["covered"] = r.tally.covered;
  j["coverage"] = r.domain_size ? double(r.tally.covered) / double(r.domain_size) : 0.0;  // of the domain
  j["unsupported"] = r.tally.unsupported;
  j["errored"] = r.tally.errored;
  j["invalid"] = r.tally.invalid;
  j["target_error"] = r.tally.target_error;
  ordered_json classes = ordered_json::object();
  for (const auto& [k, v] : r.tally.class_counts) classes[k] = v;
  j["mismatches"] = r.tally.mismatches();
  j["classes"] = classes;
  ordered_json accepted = ordered_json::object();
  for (const auto& [k, v] : r.tally.accepted) accepted[k] = v;
  j["accepted"] = accepted;
  ordered_json departures = ordered_json::object();
  for (const auto& [k, v] : r.tally.departures) departures[k] = v;
  j["departures"] = departures;
  ordered_json first = ordered_json::array();
  for (const Mismatch& m : r.tally.first)
    first.push_back({{"index", m.index},
                     {"class", m.mismatch_class},
                     {"input", m.input},
                     {"expected", m.expected},
                     {"actual", m.actual}});
  j["first"] = first;
  if (r.geometry.sample) j["geometry"] = geometry_json(r.geometry);
  if (r.grid.columns) j["cells"] = cells_json(r);
  return j.dump(2) + "\n";
}

std::string encode_runs(const std::vector<uint64_t>& values) {
  std::string s;
  for (size_t i = 0; i < values.size();) {
    size_t k = i;
    while (k < values.size() && values[k] == values[i]) ++k;
    if (!s.empty()) s += ' ';
    s += std::to_string(values[i]);
    if (k - i > 1) {  // piecewise: GCC 12 -Wrestrict misfires on "*" + string
      s += '*';
      s += std::to_string(k - i);
    }
    i = k;
  }
  return s;
}

bool decode_runs(const std::string& text, size_t n, std::vector<uint64_t>* values) {
  values->clear();
  size_t i = 0;
  auto number = [&](uint64_t* v) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') return false;
    *v = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (*v > (UINT64_MAX - 9) / 10) return false;
      *v = *v * 10 + uint64_t(text[i] - '0');
    }
    return true;
  };
  while (i < text.size()) {
    uint64_t v = 0, count = 1;
    if (!number(&v)) return false;
    if (i < text.size() && text[i] == '*' && (++i, !number(&count) || count == 0)) return false;
    if (count > n - std::min<size_t>(n, values->size())) return false;
    values->insert(values->end(), count, v);
    if (i < text.size() && text[i++] != ' ') return false;
  }
  return values->size() == n;
}

nlohmann::ordered_json cells_json(const Report& r) {
  if (!r.grid.columns) return nullptr;
  const size_t n = size_t(r.grid.cells());
  std::vector<uint64_t> judged(n), mismatches(n), accepted(n);
  for (const auto& [k, c] : r.tally.cells)
    if (k < n) judged[k] = c.judged, mismatches[k] = c.mismatches, accepted[k] = c.accepted;
  nlohmann::ordered_json j;
  j["layout"] = r.grid.layout;
  j["columns"] = r.grid.columns;
  j["rows"] = r.grid.rows;
  j["across"] = r.grid.across;
  j["down"] = r.grid.down;
  j["judged"] = encode_runs(judged);
  j["mismatches"] = encode_runs(mismatches);
  j["accepted"] = encode_runs(accepted);
  return j;
}

void cells_from_json(const nlohmann::json& j, Report* r) {
  if (!j.is_object()) throw corpus::JsonError("\"cells\" is not an object");
  r->grid.layout = corpus::json_text(j, "layout");
  r->grid.columns = corpus::json_count(j, "columns");
  r->grid.rows = corpus::json_count(j, "rows");
  r->grid.across = corpus::json_text(j, "across");
  r->grid.down = corpus::json_text(j, "down");
  if (r->grid.columns == 0 || r->grid.rows == 0 || r->grid.columns > 65536 || r->grid.rows > 65536 ||
      r->grid.cells() > 65536)
    throw corpus::JsonError("\"cells\": columns x rows must be 1 to 65536 cells");
  const size_t n = size_t(r->grid.cells());
  std::vector<uint64_t> v[3];
  const char* names[3] = {"judged", "mismatches", "accepted"};
  for (int m = 0; m < 3; ++m)
    if (!decode_runs(corpus::json_text(j, names[m]), n, &v[m]))
      throw corpus::JsonError(std::string("\"cells\": \"") + names[m] + "\" is not runs of " + std::to_string(n) +
                              " counts (V or V*N, space-separated)");
  uint64_t judged = 0, mismatches = 0, accepted = 0;
  for (size_t k = 0; k < n; ++k) {
    if (v[1][k] > v[0][k] || v[2][k] > v[0][k] - v[1][k])
      throw corpus::JsonError("\"cells\": cell " + std::to_string(k) +
                              " has more mismatches and accepted inputs than judged");
    judged += v[0][k], mismatches += v[1][k], accepted += v[2][k];
    if (v[0][k]) r->tally.cells[k] = {v[0][k], v[1][k], v[2][k]};
  }
  if (judged != r->tally.covered || mismatches != r->tally.mismatches())
    throw corpus::JsonError("\"cells\" do not add up to \"covered\" and the mismatches");
  uint64_t acc = 0;
  for (const auto& [p, c] : r->tally.accepted) acc += c;
  if (accepted != acc) throw corpus::JsonError("\"cells\": the accepted inputs do not add up to \"accepted\"");
}

nlohmann::ordered_json geometry_json(const GeometryResult& g) {
  nlohmann::ordered_json j;
  j["tried"] = g.tried;
  j["sample"] = g.sample;
  j["sample_about"] = g.sample_about;
  j["presented"] = g.presented;
  j["position_dependent"] = g.position_dependent;
  nlohmann::ordered_json classes = nlohmann::ordered_json::object();
  for (const auto& [k, v] : g.classes) classes[k] = v;
  j["classes"] = classes;
  j["finding"] = g.finding;
  j["first"] = nlohmann::ordered_json::array();
  for (const GeometryResult::Example& e : g.first)
    j["first"].push_back({{"input", e.input}, {"full", e.full}, {"other", e.other}, {"where", e.where}});
  j["target_error"] = g.target_error;
  if (g.profile.sample) {
    const ProfileResult& p = g.profile;
    nlohmann::ordered_json jp{{"sample", p.sample}, {"exact", p.exact}, {"nearest", p.nearest}, {"summary", p.summary}};
    jp["candidates"] = nlohmann::ordered_json::array();
    for (const ProfileResult::Candidate& c : p.candidates) {
      nlohmann::ordered_json by = nlohmann::ordered_json::object();
      for (const auto& [k, v] : c.by_input) by[k] = v;
      jp["candidates"].push_back({{"name", c.name}, {"about", c.about}, {"differ", c.differ}, {"by_input", by}});
    }
    j["profile"] = jp;
  }
  return j;
}

namespace {

using corpus::json_array;
using corpus::json_count;
using corpus::json_member;
using corpus::json_text;
using corpus::json_texts;
// A report is this program's own output, so counts that cannot add up mean the file is not one
// (edited by hand, cut short, another tool's); corpus::JsonError names what is wrong.
using Malformed = corpus::JsonError;

// An object of counts ("classes", "accepted"), sorted by name as Tally keeps them; their sum.
uint64_t counts_of(const nlohmann::json& j, const std::string& key,
                   std::vector<std::pair<std::string, uint64_t>>* out) {
  const nlohmann::json& v = json_member(j, key);
  if (!v.is_object()) throw Malformed("\"" + key + "\" is not an object of counts");
  uint64_t sum = 0;
  for (const auto& [name, n] : v.items()) {
    const uint64_t c = json_count(v, name);
    if (c == 0 || sum + c < sum) throw Malformed("\"" + key + "\": \"" + name + "\" is 0 or the counts overflow");
    sum += c;
    out->push_back({name, c});
  }
  std::sort(out->begin(), out->end());
  return sum;
}

// The checks a report's own numbers must pass: every count within the inputs its shard and stride
// reach, the kept mismatches inside that range and counted in their class.
void check_counts(const nlohmann::json& j, const Report& r, uint64_t mismatches, uint64_t accepted) {
  if (r.domain_size == 0 || r.stride == 0 || r.keep == 0)
    throw Malformed("\"domain_size\", \"stride\" and \"keep\" must be at least 1");
  const auto [begin, end] = shard_range(r.domain_size, r.shard);
  const uint64_t first = (begin + r.stride - 1) / r.stride * r.stride;  // as run() starts
  const uint64_t reach = first >= end ? 0 : (end - first - 1) / r.stride + 1;
  const Tally& t = r.tally;
  if (t.covered > reach || t.unsupported > reach - t.covered || t.errored > reach - t.covered - t.unsupported ||
      t.invalid > reach - t.covered - t.unsupported - t.errored)
    throw Malformed("covered + unsupported + errored + invalid exceed the " + std::to_string(reach) + " inputs shard " +
                    shard_text(r.shard) + " reaches with stride " + std::to_string(r.stride));
  if (mismatches > t.covered || accepted > t.covered - mismatches)
    throw Malformed("the mismatches and accepted inputs exceed \"covered\"");
  if (j.contains("mismatches") && json_count(j, "mismatches") != mismatches)
    throw Malformed("\"mismatches\" is not the sum of \"classes\"");
  std::map<std::string, uint64_t> kept;
  for (const Mismatch& m : t.first) {
    auto cls = std::lower_bound(t.class_counts.begin(), t.class_counts.end(), std::pair{m.mismatch_class, uint64_t(0)});
    if (cls == t.class_counts.end() || cls->first != m.mismatch_class)
      throw Malformed("a kept mismatch is of class \"" + m.mismatch_class + "\", which \"classes\" does not count");
    if (++kept[m.mismatch_class] > std::min<uint64_t>(cls->second, r.keep))
      throw Malformed("more mismatches of class \"" + m.mismatch_class + "\" are kept than it counts or keep allows");
    if (m.index < first || m.index >= end || (m.index - first) % r.stride)
      throw Malformed("kept mismatch index " + std::to_string(m.index) + " is not an input of shard " +
                      shard_text(r.shard) + " with stride " + std::to_string(r.stride));
  }
}

// One report, already parsed (strictly: a file of several is parsed once, as a whole).
void report_from(const nlohmann::json& j, Report* r) {
  if (!j.is_object() || !j.contains("schema") || j["schema"] != "ninfer-conform-sweep-1")
    throw Malformed("not a ninfer-conform sweep report (schema ninfer-conform-sweep-1)");
  r->domain = json_text(j, "domain");
  r->op = json_text(j, "op");
  r->target = json_text(j, "target");
  r->target_name = json_text(j, "target_name");
  r->target_version = json_text(j, "target_version");
  r->reference = json_text(j, "reference");
  r->domain_size = json_count(j, "domain_size");
  if (!parse_shard(json_text(j, "shard"), &r->shard)) throw Malformed("\"shard\" is not K/N");
  if (j.contains("partial") && (!j["partial"].is_boolean() || j["partial"].get<bool>() != (r->shard.count > 1)))
    throw Malformed("\"partial\" does not agree with \"shard\" " + shard_text(r->shard));
  r->stride = json_count(j, "stride");
  r->keep = json_count(j, "keep");
  r->tally.covered = json_count(j, "covered");
  r->tally.unsupported = json_count(j, "unsupported");
  r->tally.errored = json_count(j, "errored");
  r->tally.invalid = json_count(j, "invalid");
  r->tally.target_error = json_text(j, "target_error");
  const uint64_t mismatches = counts_of(j, "classes", &r->tally.class_counts);
  const uint64_t accepted = counts_of(j, "accepted", &r->tally.accepted);
  // Reports written before departure profiles have none.
  if (j.contains("departures")) counts_of(j, "departures", &r->tally.departures);
  for (const nlohmann::json& m : json_array(j, "first")) {
    if (!m.is_object()) throw Malformed("an entry of \"first\" is not an object");
    r->tally.first.push_back({json_count(m, "index"), json_text(m, "class"), json_texts(m, "input"),
                              json_text(m, "expected"), json_text(m, "actual")});
  }
  check_counts(j, *r, mismatches, accepted);
  if (j.contains("geometry")) {  // absent: a report of a sweep without the geometry pass
    const nlohmann::json& g = json_member(j, "geometry");
    if (!g.is_object()) throw Malformed("\"geometry\" is not an object");
    GeometryResult& o = r->geometry;
    o.tried = json_texts(g, "tried");
    o.sample = json_count(g, "sample");
    o.sample_about = json_text(g, "sample_about");
    o.presented = json_count(g, "presented");
    o.position_dependent = json_count(g, "position_dependent");
    if (o.position_dependent > o.sample)
      throw Malformed("\"geometry\": more position-dependent inputs than the sample");
    counts_of(g, "classes", &o.classes);
    o.finding = json_text(g, "finding");
    for (const nlohmann::json& e : json_array(g, "first")) {
      if (!e.is_object()) throw Malformed("an entry of \"geometry\".\"first\" is not an object");
      o.first.push_back({json_text(e, "input"), json_text(e, "full"), json_text(e, "other"), json_text(e, "where")});
    }
    o.target_error = json_text(g, "target_error");
    if (g.contains("profile")) {
      const nlohmann::json& p = json_member(g, "profile");
      if (!p.is_object()) throw Malformed("\"geometry\".\"profile\" is not an object");
      ProfileResult& q = o.profile;
      q.sample = json_count(p, "sample");
      q.exact = json_text(p, "exact");
      q.nearest = json_text(p, "nearest");
      q.summary = json_text(p, "summary");
      for (const nlohmann::json& c : json_array(p, "candidates")) {
        if (!c.is_object()) throw Malformed("a profile candidate is not an object");
        ProfileResult::Candidate x{json_text(c, "name"), json_text(c, "about"), json_count(c, "differ"), {}};
        const nlohmann::json& by = json_member(c, "by_input");
        if (!by.is_object()) throw Malformed("a profile candidate's \"by_input\" is not an object");
        for (const auto& [k, v] : by.items()) x.by_input.push_back({k, json_count(by, k)});
        q.candidates.push_back(std::move(x));
      }
    }
  }
  if (j.contains("cells")) cells_from_json(j["cells"], r);
}

std::string malformed(const Malformed& e) {
  const std::string what = e.what();
  return what.rfind("not a ninfer-conform", 0) == 0 ? what : "malformed sweep report: " + what;
}

}  // namespace

bool from_json(const std::string& text, Report* r, std::string* error) {
  try {
    report_from(corpus::parse_json_strict(text), r);
  } catch (const Malformed& e) {
    return *error = malformed(e), false;
  }
  return true;
}

bool read_reports(const std::string& path, std::vector<Report>* out, std::string* error) {
  corpus::Result<std::string> text = corpus::read_file(path);
  if (!text) return *error = text.error().message(), false;
  nlohmann::json j;
  try {
    j = corpus::parse_json_strict(*text);
  } catch (const Malformed& e) {
    return *error = path + ": " + malformed(e), false;
  }
  if (!j.is_array()) j = nlohmann::json::array({std::move(j)});
  else if (j.empty()) return *error = path + ": an empty array, no sweep reports", false;
  for (size_t k = 0; k < j.size(); ++k) {
    Report r;
    try {
      report_from(j[k], &r);
    } catch (const Malformed& e) {
      return *error = path + (j.size() > 1 ? " (report " + std::to_string(k + 1) + ")" : "") + ": " + malformed(e),
             false;
    }
    out->push_back(std::move(r));
  }
  return true;
}

namespace {

std::string range_text(std::pair<uint64_t, uint64_t> r) {
  return "inputs [" + std::to_string(r.first) + ", " + std::to_string(r.second) + ")";
}

// Merges the shards of one domain (all of one domain name).
bool merge_domain(std::vector<const ShardReport*> shards, Report* out, std::string* error) {
  const ShardReport& a = *shards.front();
  const Report& ra = a.report;
  auto named = [](const ShardReport& s) { return s.file + " (shard " + shard_text(s.report.shard) + ")"; };
  for (const ShardReport* s : shards) {
    const Report& r = s->report;
    const std::pair<const char*, std::pair<std::string, std::string>> fields[] = {
        {"target", {ra.target, r.target}},
        {"target name and version", {ra.target_name + " " + ra.target_version, r.target_name + " " + r.target_version}},
        {"reference", {ra.reference, r.reference}},
        {"op", {ra.op, r.op}},
        {"domain size", {std::to_string(ra.domain_size), std::to_string(r.domain_size)}},
        {"stride", {std::to_string(ra.stride), std::to_string(r.stride)}},
        {"keep", {std::to_string(ra.keep), std::to_string(r.keep)}},
    };
    for (const auto& [what, values] : fields)
      if (values.first != values.second)
        return *error = ra.domain + ": " + a.file + " and " + s->file + " are of a different " + what + " ('" +
                        values.first + "' and '" + values.second + "')",
               false;
    if (r.tally.covered == 0 && !r.tally.target_error.empty())
      return *error = ra.domain + ": " + named(*s) +
                      " judged nothing, it carries only a target error: " + r.tally.target_error +
                      " (rerun that shard)",
             false;
  }
  std::sort(shards.begin(), shards.end(), [&](const ShardReport* x, const ShardReport* y) {
    auto rx = shard_range(ra.domain_size, x->report.shard), ry = shard_range(ra.domain_size, y->report.shard);
    return rx != ry ? rx < ry : x->report.shard.count < y->report.shard.count;
  });
  std::string problems;
  auto problem = [&](const std::string& p) { problems += (problems.empty() ? "" : "; ") + p; };
  // Shards of one count: name the missing ones; otherwise name the ranges nobody covers.
  bool one_count = std::all_of(shards.begin(), shards.end(),
                               [&](const ShardReport* s) { return s->report.shard.count == ra.shard.count; });
  std::vector<std::string> missing;
  uint64_t reached = 0;  // every input below it is covered
  for (size_t i = 0; i < shards.size(); ++i) {
    const ShardReport& s = *shards[i];
    auto range = shard_range(ra.domain_size, s.report.shard);
    if (i > 0 && shards[i - 1]->report.shard.index == s.report.shard.index &&
        shards[i - 1]->report.shard.count == s.report.shard.count) {
      problem("shard " + shard_text(s.report.shard) + " is duplicated in " + shards[i - 1]->file + " and " + s.file);
      continue;
    }
    if (range.first < reached) {
      problem(named(s) + ", " + range_text(range) + ", overlaps " + named(*shards[i - 1]) + ", " +
              range_text(shard_range(ra.domain_size, shards[i - 1]->report.shard)));
    } else if (range.first > reached && !one_count) {
      missing.push_back(range_text({reached, range.first}));
    }
    reached = std::max(reached, range.second);
  }
  if (reached < ra.domain_size && !one_count) missing.push_back(range_text({reached, ra.domain_size}));
  if (one_count) {
    std::vector<bool> have(ra.shard.count);
    for (const ShardReport* s : shards) have[s->report.shard.index] = true;
    for (uint64_t k = 0; k < ra.shard.count; ++k)
      if (!have[k]) missing.push_back(shard_text({k, ra.shard.count}));
  }
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size(); ++i) list += (i ? ", " : "") + missing[i];
    problem("missing " + std::string(one_count ? "shards " : "") + list);
  }
  if (!problems.empty()) return *error = ra.domain + ": " + problems, false;
  *out = ra;
  out->shard = {};
  out->tally = {};
  for (const ShardReport* s : shards) {
    out->tally.merge(s->report.tally, ra.keep);
    if (s->report.geometry.sample) out->geometry = s->report.geometry;  // shard 0's
  }
  // A shard from a build without pictures leaves the merged report without one, not a partial one.
  for (const ShardReport* s : shards)
    if (s->report.grid.columns != ra.grid.columns || s->report.grid.rows != ra.grid.rows) {
      out->grid = {};
      out->tally.cells.clear();
    }
  return true;
}

}  // namespace

bool merge(const std::vector<ShardReport>& shards, std::vector<Report>* out, std::string* error) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const ShardReport*>> by_domain;
  for (const ShardReport& s : shards) {
    auto& list = by_domain[s.report.domain];
    if (list.empty()) order.push_back(s.report.domain);
    list.push_back(&s);
  }
  if (order.empty()) return *error = "no reports to merge", false;
  std::string errors;
  for (const std::string& d : order) {
    Report r;
    std::string e;
    if (merge_domain(by_domain[d], &r, &e)) out->push_back(std::move(r));
    else errors += (errors.empty() ? "" : "\n") + e;
  }
  if (!errors.empty()) return *error = errors, false;
  return true;
}

}  // namespace nc::sweep
