#include "runners/sweep/sweep.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>
#include <unistd.h>
#include <vector>

namespace nc::sweep {

std::pair<uint64_t, uint64_t> shard_range(uint64_t size, Shard s) {
  auto at = [&](uint64_t k) { return uint64_t((unsigned __int128)size * k / s.count); };
  return {at(s.index), at(s.index + 1)};
}

Report run(const Domain& d, const nc_plugin_v1& target, const std::string& target_spec,
           const Options& opts) {
  Report r;
  r.domain = d.name();
  r.op = d.op();
  r.target = target_spec;
  r.target_name = target.name ? target.name : "";
  r.target_version = target.version ? target.version : "";
  r.domain_size = d.size();
  r.shard = opts.shard;
  r.stride = opts.stride;
  r.keep = opts.keep;
  auto [begin, end] = shard_range(d.size(), opts.shard);
  // First index on the global stride lattice at or after begin, so strided shards tile exactly.
  uint64_t first = (begin + opts.stride - 1) / opts.stride * opts.stride;
  // Work is cut into chunks on the stride lattice; threads take chunks in order and each chunk's
  // tally is merged in chunk order, so the result does not depend on the thread count.
  const uint64_t chunk_inputs = uint64_t(1) << 22;
  const uint64_t chunk_span = chunk_inputs * opts.stride;
  uint64_t n_chunks = first >= end ? 0 : (end - first + chunk_span - 1) / chunk_span;
  std::vector<Tally> tallies(n_chunks);
  std::atomic<uint64_t> next{0}, done{0};
  auto worker = [&] {
    for (uint64_t c; (c = next++) < n_chunks;) {
      uint64_t b = first + c * chunk_span, e = std::min(end, b + chunk_span);
      d.run(target, b, e, opts.stride, opts.keep, tallies[c]);
      uint64_t k = ++done;
      if (opts.progress)
        std::fprintf(stderr, "\r%s: %5.1f%%", r.domain.c_str(), 100.0 * double(k) / double(n_chunks));
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(1u, opts.jobs); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (opts.progress) std::fprintf(stderr, "\n");
  for (const Tally& t : tallies) r.tally.merge(t, opts.keep);
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
  j["domain_size"] = r.domain_size;
  j["shard"] = std::to_string(r.shard.index) + "/" + std::to_string(r.shard.count);
  j["stride"] = r.stride;
  j["keep"] = r.keep;
  j["covered"] = r.tally.covered;
  j["unsupported"] = r.tally.unsupported;
  j["errored"] = r.tally.errored;
  j["target_error"] = r.tally.target_error;
  ordered_json classes = ordered_json::object();
  for (const auto& [k, v] : r.tally.class_counts) classes[k] = v;
  j["mismatches"] = r.tally.mismatches();
  j["classes"] = classes;
  ordered_json accepted = ordered_json::object();
  for (const auto& [k, v] : r.tally.accepted) accepted[k] = v;
  j["accepted"] = accepted;
  ordered_json first = ordered_json::array();
  for (const Mismatch& m : r.tally.first)
    first.push_back({{"index", m.index}, {"class", m.mismatch_class}, {"input", m.input},
                     {"expected", m.expected}, {"actual", m.actual}});
  j["first"] = first;
  return j.dump(2) + "\n";
}

bool from_json(const std::string& text, Report* r, std::string* error) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("schema", "") != "ninfer-conform-sweep-1") {
    *error = "not a ninfer-conform sweep report (schema ninfer-conform-sweep-1)";
    return false;
  }
  try {
    r->domain = j.at("domain");
    r->op = j.at("op");
    r->target = j.at("target");
    r->target_name = j.at("target_name");
    r->target_version = j.at("target_version");
    r->domain_size = j.at("domain_size");
    std::string shard = j.at("shard");
    if (std::sscanf(shard.c_str(), "%lu/%lu", &r->shard.index, &r->shard.count) != 2) throw std::runtime_error("bad shard");
    r->stride = j.at("stride");
    r->keep = j.at("keep");
    r->tally.covered = j.at("covered");
    r->tally.unsupported = j.at("unsupported");
    r->tally.errored = j.at("errored");
    r->tally.target_error = j.at("target_error");
    for (auto& [k, v] : j.at("classes").items()) r->tally.class_counts.push_back({k, v.get<uint64_t>()});
    std::sort(r->tally.class_counts.begin(), r->tally.class_counts.end());
    for (auto& [k, v] : j.at("accepted").items()) r->tally.accepted.push_back({k, v.get<uint64_t>()});
    std::sort(r->tally.accepted.begin(), r->tally.accepted.end());
    for (auto& m : j.at("first"))
      r->tally.first.push_back({m.at("index"), m.at("class"), m.at("input"), m.at("expected"), m.at("actual")});
  } catch (const std::exception& e) {
    *error = std::string("malformed sweep report: ") + e.what();
    return false;
  }
  return true;
}

bool merge(std::vector<Report> shards, Report* out, std::string* error) {
  if (shards.empty()) {
    *error = "no reports to merge";
    return false;
  }
  std::sort(shards.begin(), shards.end(), [](const Report& a, const Report& b) { return a.shard.index < b.shard.index; });
  const Report& a = shards.front();
  for (size_t i = 0; i < shards.size(); ++i) {
    const Report& s = shards[i];
    if (s.domain != a.domain || s.target != a.target || s.stride != a.stride || s.keep != a.keep || s.shard.count != a.shard.count) {
      *error = "report " + std::to_string(i) + " is of another domain, target, stride or shard count";
      return false;
    }
    if (s.shard.index != i) {
      *error = "shard " + std::to_string(i) + "/" + std::to_string(a.shard.count) + " is missing or repeated";
      return false;
    }
  }
  if (shards.size() != a.shard.count) {
    *error = "have " + std::to_string(shards.size()) + " of " + std::to_string(a.shard.count) + " shards";
    return false;
  }
  *out = a;
  out->shard = {};
  out->tally = {};
  for (const Report& s : shards) out->tally.merge(s.tally, a.keep);
  return true;
}

}  // namespace nc::sweep
