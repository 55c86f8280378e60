#include "runners/replay.h"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "corpus/sha256.h"
#include "runners/diagnosis.h"
#include "runners/scope.h"
#include "runners/tokens.h"

namespace nc::runners {
namespace {

bool has_tag(std::string_view tags, std::string_view tag) {
  for (std::string_view t : split(tags, ','))
    if (t == tag) return true;
  return false;
}

// Adds the record's request element (PIPE.md) to the batch. The reader has checked the columns
// are the op's (corpus/schema.h), so inputs sit at fixed places after the id.
void add_element(Capability cap, const corpus::Record& r, Request* req) {
  const std::vector<std::string_view>& f = r.fields;
  std::string& e = req->add_element();
  switch (cap) {
    case Capability::Decode:
    case Capability::Validate:
    case Capability::Parse:
    case Capability::Convert:
      e += f[1];
      return;
    case Capability::Reconstruct:  // code scale divisor -> C:S[:D]
      e += f[1];
      e += ':';
      e += f[2];
      if (f[3] != "-") e += ':', e += f[3];
      return;
    case Capability::Encode:  // src_type shape src -> SHAPE SRC (src_type goes in the selector)
      e += f[2];
      e += ' ';
      e += f[3];
      return;
    case Capability::ValidateTensor:
    case Capability::Dequantize:  // shape codes scales divisor, as they are
      e += f[1];
      for (size_t i = 2; i <= 4; ++i) e += ' ', e += f[i];
      return;
    case Capability::Layout:  // shape row block -> SHAPE:ROW:BLOCK
      e += f[1];
      e += ':';
      e += f[2];
      e += ':';
      e += f[3];
      return;
  }
}

// What a record adds to the suite's request selector: encode's source type ("FMT SRCTYPE").
std::string_view selector_suffix(Capability cap, const corpus::Record& r) {
  return cap == Capability::Encode ? r.fields[1] : std::string_view();
}

// One element per request where PIPE.md says so (a whole matrix or tensor is one element).
bool one_per_request(Capability c) {
  return c == Capability::Encode || c == Capability::ValidateTensor || c == Capability::Dequantize;
}

std::string inputs_of(const corpus::SuiteHeader& h, const corpus::Record& r) {
  std::string in;
  for (size_t i = 1; i <= h.input_count(); ++i) {
    if (!in.empty()) in += ' ';
    in += h.columns[i];
    in += '=';
    in += r.fields[i];
  }
  return in;
}

}  // namespace

std::vector<std::pair<std::string, uint64_t>> SuiteResult::departures() const {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (int d = 0; d < kDepartureCount; ++d)
    if (departure_counts[size_t(d)]) out.emplace_back(kDepartureNames[d], departure_counts[size_t(d)]);
  return out;
}

std::set<std::string> ReplayResult::policies() const {
  std::set<std::string> p;
  for (const SuiteResult& s : suites) p.insert(s.policies_used.begin(), s.policies_used.end());
  return p;
}

bool ReplayResult::within_tolerance() const {
  for (const SuiteResult& s : suites)
    if (s.counts[size_t(Verdict::WithinTolerance)]) return true;
  return false;
}

std::string describe_position_dependence(const std::vector<PositionCase>& cases) {
  if (cases.empty()) return "";
  // The smallest vector width W for which "in a full group of W lanes" tells the two requests
  // apart for every changed case: one presentation in a full group, the other in a tail.
  size_t width = 0;
  for (size_t w = 2; w <= 64 && !width; w *= 2) {
    bool fits = true;
    for (const PositionCase& c : cases) {
      const bool full_group = c.full_pos < c.full_len - c.full_len % w,
                 tail_group = c.tail_pos < c.tail_len - c.tail_len % w;
      fits &= full_group != tail_group;
    }
    if (fits) width = w;
  }
  auto summary = [&](bool tail) {
    std::map<std::string, size_t> n;
    for (const PositionCase& c : cases) ++n[verdict_name(tail ? c.tail_verdict : c.full_verdict)];
    std::string s;
    for (const auto& [v, count] : n) s += (s.empty() ? "" : ", ") + v + " " + std::to_string(count);
    return s;
  };
  const PositionCase& c = cases.front();
  std::string f = "position-dependent: " + std::to_string(cases.size()) +
                  (cases.size() == 1 ? " case gives" : " cases give") +
                  " another result in a short request than in a full one";
  if (width)
    f += ": lanes 0-" + std::to_string(width - 1) + " of each full group of " + std::to_string(width) + " give (" +
         summary(false) + "), the tail of a request (its last length mod " + std::to_string(width) + ") gives (" +
         summary(true) + ")";
  else f += ": full requests (" + summary(false) + "), short requests (" + summary(true) + ")";
  f += "; first: " + c.id + " (" + c.inputs + ", expected " + c.expect + ") gives " + c.full + " at position " +
       std::to_string(c.full_pos) + " of " + std::to_string(c.full_len) + ", " + c.tail + " at position " +
       std::to_string(c.tail_pos) + " of " + std::to_string(c.tail_len);
  return f;
}

size_t SuiteResult::position_failures() const {
  return size_t(std::count_if(position_dependent.begin(), position_dependent.end(),
                              [](const PositionCase& c) { return !verdict_is_conformant(c.tail_verdict); }));
}

bool verify_manifest(const std::string& dir, std::string* manifest_sha256, std::vector<corpus::ManifestEntry>* entries,
                     std::string* error, std::vector<std::string>* contents, unsigned threads) {
  // The one manifest reader every command uses: a regular file, at most kMaxManifestBytes, parsed.
  auto m = corpus::read_manifest(dir, manifest_sha256);
  if (!m) return *error = m.error().message(), false;
  // The files' bytes against the manifest now; their text and records as replay streams them.
  std::vector<corpus::Error> problems = corpus::verify_files(dir, *m, contents, threads);
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
  res.declares_tag =
      o.tag.empty() || std::any_of(h.tags.begin(), h.tags.end(), [&](const auto& t) { return t.first == o.tag; });
  const size_t sp = h.op.find(' ');
  const std::string op_selector = sp == std::string::npos ? "" : h.op.substr(sp + 1);
  if (!capability_from_op(std::string(h.op_name()), &res.cap))
    return *error = h.suite + ": unknown #op '" + h.op + "'", false;
  const size_t expect_col = h.input_count() + 1, accept_col = expect_col + 1, tags_col = h.columns.size() - 2;
  const size_t limit = one_per_request(res.cap) ? 1 : std::max<size_t>(1, o.batch);
  bool dead = false;
  size_t done = 0;

  // Judged cases per distinct tag list (the reader numbers a suite's few lists), split into tags
  // once at the end: the diagnosis ranks failure tags against them. A record's list is counted
  // as it is read, and taken back if the case goes untested (rare).
  std::vector<size_t> judged_per_tag_list;
  auto tag_count = [&](const corpus::Record& r) -> size_t& {
    if (r.tag_list >= judged_per_tag_list.size()) judged_per_tag_list.resize(r.tag_list + 1);
    return judged_per_tag_list[r.tag_list];
  };
  // Only failures keep a copy of their record; every other case is a count.
  auto record_case = [&](const corpus::Record& r, Verdict v, std::string_view actual, const Judgement* j) {
    ++res.counts[size_t(v)];
    if (v == Verdict::Untested) --tag_count(r);
    const bool policy_pass = j && v == Verdict::PassUnderPolicy;
    if (policy_pass) {
      res.policies_used.emplace(j->policy);
      for (int d = 0; d < kDepartureCount; ++d)
        if (j->departure >> d & 1) ++res.departure_counts[size_t(d)];
    }
    if (j && j->ulp && o.judge.tolerance_ulp && v != Verdict::Untested) ++res.ulp_errors[*j->ulp];
    if (v != Verdict::Fail && v != Verdict::TargetError && !policy_pass) return;
    CaseResult cr;
    cr.id = r.id();
    cr.inputs = inputs_of(h, r);
    cr.expect = r.fields[expect_col];
    cr.actual = actual;
    cr.tags = r.fields[tags_col];
    cr.verdict = v;
    if (j) cr.ulp = j->ulp, cr.note = j->note;
    if (policy_pass) {
      cr.policy = j->policy;
      cr.departure = j->departure;
      res.policy_passes.push_back(std::move(cr));
      return;
    }
    res.failures.push_back(std::move(cr));
  };

  // The records of the batch being built live in `pool` and are reused from batch to batch, so
  // reading a record allocates nothing once the pool has grown.
  std::vector<corpus::Record> pool(limit + 1);
  size_t n = 0;
  Request req;
  req.cap = res.cap;
  // The selector's first word decides the result type; a record's suffix never changes it.
  const ResultType type = result_type(res.cap, std::string_view(op_selector).substr(0, op_selector.find(' ')));

  // Batch geometry: the batch again in requests of o.tail_batch elements, each result compared
  // with the one the full request gave; a change is a position-dependent case.
  res.tail_batch = one_per_request(res.cap) ? 0 : o.tail_batch;
  auto present_short = [&](const Response& full) {
    auto position_case = [&](size_t k, size_t b, size_t m, std::string tail, Verdict tail_verdict) {
      const corpus::Record& r = pool[k];
      const Judgement jf = judge(res.cap, type, r.fields[expect_col], r.fields[accept_col], full.token(k), o.judge);
      res.position_dependent.push_back({std::string(r.id()), inputs_of(h, r), std::string(r.fields[expect_col]),
                                        std::string(full.token(k)), std::move(tail), jf.verdict, tail_verdict, n, k, m,
                                        k - b});
    };
    for (size_t b = 0; b < n && !dead; b += o.tail_batch) {
      const size_t m = std::min(o.tail_batch, n - b);
      Request short_req;
      short_req.cap = res.cap;
      short_req.selector = req.selector;
      for (size_t k = b; k < b + m; ++k) add_element(res.cap, pool[k], &short_req);
      const Response got = target.call(short_req);
      res.tail_presented += m;
      if (got.kind == Response::Kind::Dead) {
        dead = true;
        res.target_problem = got.message + ", on the request starting at case " + std::string(pool[b].id()) +
                             " (a short request of the batch-geometry pass)";
        break;
      }
      for (size_t k = b; k < b + m; ++k) {
        if (got.kind != Response::Kind::Ok) {
          position_case(k, b, m, got.kind == Response::Kind::Error ? "(error: " + got.message + ")" : "(unsupported)",
                        Verdict::TargetError);
          continue;
        }
        if (got.token(k - b) == full.token(k)) continue;
        const corpus::Record& r = pool[k];
        const Judgement jt =
            judge(res.cap, type, r.fields[expect_col], r.fields[accept_col], got.token(k - b), o.judge);
        position_case(k, b, m, std::string(got.token(k - b)), jt.verdict);
      }
    }
  };

  // Sends the batch (records with one selector) and judges its answers.
  auto flush = [&] {
    if (n == 0) return;
    if (dead) {
      for (size_t k = 0; k < n; ++k) record_case(pool[k], Verdict::Untested, "", nullptr);
    } else {
      Response resp = target.call(req);
      switch (resp.kind) {
        case Response::Kind::Unsupported:
          for (size_t k = 0; k < n; ++k) record_case(pool[k], Verdict::Untested, "", nullptr);
          break;
        case Response::Kind::Error:
        case Response::Kind::Dead: {
          if (resp.kind == Response::Kind::Dead) {
            dead = true;
            res.target_problem = resp.message + ", on the request starting at case " + std::string(pool[0].id());
          }
          Judgement j;
          j.note = resp.message;
          for (size_t k = 0; k < n; ++k)
            record_case(pool[k], Verdict::TargetError, resp.kind == Response::Kind::Dead ? "(target died)" : "(error)",
                        &j);
          break;
        }
        case Response::Kind::Ok:
          for (size_t k = 0; k < n; ++k) {
            const corpus::Record& r = pool[k];
            const std::string_view actual = resp.token(k);
            // Answer words are lowercase hex (runners/PIPE.md): "C0C00000" is a protocol error of
            // the target, not a wrong value 0 ulp away.
            if (type.kind == ResultType::Kind::Word && actual.find_first_of("ABCDEF") != std::string_view::npos) {
              Judgement j;
              j.verdict = Verdict::TargetError;
              j.note = "protocol error: uppercase hex in an answer (answers are lowercase, runners/PIPE.md)";
              record_case(r, j.verdict, actual, &j);
              continue;
            }
            Judgement j = judge(res.cap, type, r.fields[expect_col], r.fields[accept_col], actual, o.judge);
            record_case(r, j.verdict, actual, &j);
          }
          if (o.tail_batch && n > o.tail_batch && !one_per_request(res.cap)) present_short(resp);
          break;
      }
    }
    done += n;
    if (o.progress) o.progress(res.name, done, h.records);
    n = 0;
    req.clear_elements();
  };

  std::string batch_suffix;  // the selector suffix of the batch being built
  for (;;) {
    auto more = reader.next(pool[n]);
    if (!more) return *error = more.error().message(), false;
    if (!*more) break;
    if (!o.tag.empty() && !has_tag(pool[n].fields[tags_col], o.tag)) continue;
    ++tag_count(pool[n]);
    if (n > 0 && (selector_suffix(res.cap, pool[n]) != batch_suffix || n >= limit)) {
      const size_t pending = n;
      flush();
      std::swap(pool[0], pool[pending]);  // the new record starts the next batch
    }
    const corpus::Record& r = pool[n];
    if (n == 0) {
      batch_suffix = selector_suffix(res.cap, r);
      req.selector = op_selector;
      if (!batch_suffix.empty()) req.selector += ' ', req.selector += batch_suffix;
    }
    add_element(res.cap, r, &req);
    ++n;
  }
  flush();
  for (size_t i = 0; i < judged_per_tag_list.size(); ++i)
    if (const std::string_view list = reader.tag_lists()[i]; list != "-" && judged_per_tag_list[i])
      for (std::string_view t : split(list, ',')) res.judged_tags[std::string(t)] += judged_per_tag_list[i];
  res.diagnosis = diagnose(h, res);
  res.position_finding = describe_position_dependence(res.position_dependent);
  return true;
}

namespace {

// One suite from its manifest entry and its file's verified bytes: replayed, then its streamed
// totals checked against the entry. false with *error on a corpus error; a target that cannot
// restart loses the suite.
bool run_suite(Target& target, const ReplayOptions& o, const corpus::ManifestEntry& m, std::string compressed,
               SuiteResult* out, std::string* error) {
  const std::string path = o.corpus_dir + "/" + m.file;
  // The text is hashed too and checked against the manifest's text_sha256 at the end, as lint does.
  auto reader = corpus::SuiteReader::from_verified(std::move(compressed), m.compressed_sha256, path,
                                                   corpus::SuiteReader::TextHash::Compute);
  if (!reader) return *error = reader.error().message(), false;
  std::string why;
  if (!target.start(&why)) {
    out->name = m.suite;
    out->op = (*reader)->header().op;
    capability_from_op(std::string((*reader)->header().op_name()), &out->cap);
    out->target_problem = why;
    out->counts[size_t(Verdict::TargetError)] = m.records;
    return true;
  }
  if (!replay_suite(target, **reader, o, out, error)) return false;
  if (std::string problem = target.finish_suite(); !problem.empty() && out->target_problem.empty())
    out->target_problem = problem + ", after the suite's last request";
  if (corpus::Status bad = corpus::check_totals(path, m, (*reader)->totals())) return *error = bad->message(), false;
  return true;
}

}  // namespace

bool replay(Target& target, const ReplayOptions& o, ReplayResult* out, std::string* error) {
  std::vector<corpus::ManifestEntry> entries;
  std::vector<std::string> contents;
  if (!verify_manifest(o.corpus_dir, &out->manifest_sha256, &entries, error, &contents, std::max(1u, o.jobs)))
    return false;
  std::vector<corpus::ManifestEntry> selected;
  std::vector<std::string> selected_contents;
  std::vector<std::string> globs;  // suite_glob is a comma list of globs
  for (std::string_view g : split(o.suite_glob, ','))
    if (!g.empty()) globs.emplace_back(g);
  for (size_t i = 0; i < entries.size(); ++i)
    if (std::any_of(globs.begin(), globs.end(),
                    [&](const std::string& g) { return fnmatch(g.c_str(), entries[i].suite.c_str(), 0) == 0; })) {
      selected.push_back(entries[i]);
      selected_contents.push_back(std::move(contents[i]));
    }
  if (selected.empty()) return *error = "no suite matches '" + o.suite_glob + "'", false;

  // Every worker's target starts before any suite: one that cannot is a run error, as before a
  // suite; later restarts that fail lose a suite.
  const size_t workers = std::min<size_t>(std::max(1u, o.jobs), selected.size());
  std::vector<std::unique_ptr<Target>> extra;
  std::vector<Target*> targets{&target};
  for (size_t w = 1; w < workers; ++w) {
    if (!o.make_target) return *error = "--jobs needs a way to make more targets", false;
    extra.push_back(o.make_target());
    if (!extra.back()) return *error = "cannot make target " + std::to_string(w + 1), false;
    targets.push_back(extra.back().get());
  }
  for (Target* t : targets)
    if (!t->start(error)) return false;
  out->target_name = target.name();
  out->target_version = target.version();

  // Largest suites first so the workers finish together; results land in manifest order, so the
  // outcome does not depend on the number of workers or on timing.
  std::vector<size_t> order(selected.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return selected[a].records > selected[b].records; });
  std::vector<SuiteResult> results(selected.size());
  std::vector<std::string> errors(selected.size());
  std::atomic<size_t> next{0};
  std::mutex progress_lock;
  ReplayOptions wo = o;
  if (o.progress)
    wo.progress = [&](const std::string& suite, size_t done, size_t total) {
      std::lock_guard<std::mutex> g(progress_lock);
      o.progress(suite, done, total);
    };
  auto work = [&](Target* t) {
    for (size_t k; (k = next.fetch_add(1)) < order.size();) {
      const size_t i = order[k];
      if (!run_suite(*t, wo, selected[i], std::move(selected_contents[i]), &results[i], &errors[i]))
        next = order.size();  // stop early
    }
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work, targets[w]);
  work(targets[0]);
  for (std::thread& th : threads) th.join();
  for (const std::string& e : errors)
    if (!e.empty()) return *error = e, false;
  // A tag no selected suite declares selects nothing: a mistyped name, not a verdict.
  if (std::none_of(results.begin(), results.end(), [](const SuiteResult& r) { return r.declares_tag; }))
    return *error = "no selected suite declares the tag '" + o.tag + "' (ninfer-conform show lists a suite's tags)",
           false;
  out->suites = std::move(results);
  return true;
}

}  // namespace nc::runners
