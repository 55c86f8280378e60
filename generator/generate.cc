#include "generator/generate.h"

#include <fnmatch.h>
#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <exception>
#include <iterator>
#include <mutex>
#include <optional>
#include <thread>

#include "corpus/case_id.h"
#include "corpus/reader.h"
#include "generator/columns.h"

namespace nc::gen {

using corpus::Error;
using corpus::RenderedSuite;
using corpus::Result;

namespace {

std::string join_sorted(std::vector<std::string> v) {
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + v[i];
  return out;
}

}  // namespace

Result<RenderedSuite> build_suite(const SuiteRegistration& reg) {
  SuiteInfo info = reg.describe();
  auto cols = op_columns(info.op);
  if (!cols) return Error{info.name, 0, "", cols.error().rule};
  SuiteBuilder b(info);
  try {
    reg.build(b);
  } catch (const std::exception& e) {
    // Suites signal generator bugs by exception; the CLI prints this and exits non-zero.
    return Error{info.name, 0, "", std::string("suite build failed: ") + e.what()};
  }
  std::vector<Case> cases = b.take_cases();
  std::vector<std::vector<std::string>> records;
  records.reserve(cases.size());
  for (Case& c : cases) {
    if (c.inputs.size() != cols->inputs.size() || c.info.size() != cols->info.size())
      return Error{info.name, 0, corpus::case_id(info.name, c.inputs),
                   "case has " + std::to_string(c.inputs.size()) + " inputs and " + std::to_string(c.info.size()) +
                       " info fields, op `" + info.op + "` needs " + std::to_string(cols->inputs.size()) + " and " +
                       std::to_string(cols->info.size())};
    std::vector<std::string> f;
    f.reserve(cols->inputs.size() + cols->info.size() + 5);
    f.push_back(corpus::case_id(info.name, c.inputs));
    std::move(c.inputs.begin(), c.inputs.end(), std::back_inserter(f));
    f.push_back(std::move(c.expect));
    f.push_back(join_sorted(std::move(c.accept)));
    std::move(c.info.begin(), c.info.end(), std::back_inserter(f));
    f.push_back(join_sorted(std::move(c.tags)));
    f.push_back(std::move(c.comment));
    records.push_back(std::move(f));
  }
  corpus::SuiteHeader h;
  h.suite = info.name;
  h.op = info.op;
  h.about = info.about;
  h.spec = info.spec;
  h.columns = cols->all();
  h.tags.assign(info.tags.begin(), info.tags.end());
  h.policies.assign(info.policies.begin(), info.policies.end());
  return corpus::render_suite(std::move(h), std::move(records));
}

Result<std::vector<SuiteRegistration>> select_suites(const std::string& glob) {
  std::vector<std::pair<std::string, SuiteRegistration>> named;
  for (const auto& r : registered_suites()) {
    std::string name = r.describe().name;
    if (glob.empty() || fnmatch(glob.c_str(), name.c_str(), 0) == 0) named.emplace_back(name, r);
  }
  std::sort(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 1; i < named.size(); ++i)
    if (named[i].first == named[i - 1].first) return Error{named[i].first, 0, "", "suite name registered twice"};
  if (named.empty()) return Error{"", 0, "", "no suite matches `" + glob + "`"};
  std::vector<SuiteRegistration> out;
  for (auto& [n, r] : named) out.push_back(r);
  return out;
}

Result<std::vector<RenderedSuite>> generate_suites(const GenerateOptions& opts) {
  auto selected = select_suites(opts.glob);
  if (!selected) return selected.error();
  const auto& regs = *selected;
  std::vector<std::optional<Result<RenderedSuite>>> results(regs.size());
  std::atomic<size_t> next{0};
  std::mutex progress_mutex;
  size_t done = 0;
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < regs.size();) {
      results[i].emplace(build_suite(regs[i]));
      if (opts.compress && results[i]->ok()) (*results[i])->compress();
      if (opts.progress) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        opts.progress(++done, regs.size(), results[i]->ok() ? (*results[i])->name : results[i]->error().file);
      }
    }
  };
  unsigned jobs = std::max(1u, std::min<unsigned>(opts.jobs, static_cast<unsigned>(regs.size())));
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  std::vector<RenderedSuite> out;
  for (auto& r : results) {
    if (!r->ok()) return r->error();
    out.push_back(std::move(r->value()));
  }
  return out;
}

corpus::Manifest provenance_manifest() {
  corpus::Manifest m;
  m.schema = corpus::kSchemaVersion;
  m.generator_version = kGeneratorVersion;
  m.libraries["mpfr"] = mpfr_get_version();
  m.libraries["gmp"] = gmp_version;
  char seed[32];
  std::snprintf(seed, sizeof seed, "0x%llx", static_cast<unsigned long long>(kCorpusSeed));
  m.seed = seed;
  return m;
}

}  // namespace nc::gen
