#include "runners/sweep/shard.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace nc::sweep {
namespace {

// Where an engine keeps its task index and task count. Task indices run first, first + step, ...,
// first + (count - 1) * step; the shard is (index - first) / step of count. Variables left null
// take the fixed value instead: `first` from `base`, `step` 1, `count` from `last` when the count
// variable is unset. A variable named here but unset while another of the engine's is set is an
// error, except `count` when `last` is set and `step` (default 1).
struct Engine {
  const char* name;
  const char* index;
  const char* count;
  uint64_t base;                // the first index when `first` is null
  const char* first = nullptr;  // variable holding the first index
  const char* last = nullptr;   // variable holding the last index
  const char* step = nullptr;   // variable holding the spacing of indices
};

const Engine kEngines[] = {
    {"GoogleTest sharding", "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS", 0},
    // --array=MIN-MAX[:STEP][%LIMIT]; Slurm sets MIN, MAX, STEP and COUNT for every array task.
    {"Slurm job array", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", 0, "SLURM_ARRAY_TASK_MIN",
     "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_STEP"},
    // Kubernetes sets the index only; the Job's .spec.completions goes in JOB_COMPLETIONS by hand.
    {"Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "JOB_COMPLETIONS", 0},
    // GitLab `parallel: N` sets 1..N; a GitHub Actions matrix sets them as the workflow says
    // (docs/scale-out/github-actions.yml follows GitLab).
    {"CI parallel matrix", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1},
    {"CircleCI parallelism", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0},
    {"Buildkite parallelism", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0},
};

bool parse_u64(const std::string& s, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (errno || s.empty() || *end || s[0] == '-' || s[0] == '+' || s[0] == ' ') return false;
  *out = v;
  return true;
}

// Resolves one engine; returns false with *error when its variables are set but unusable.
bool resolve(const Engine& e, const EnvLookup& env, std::optional<EnvShard>* out, std::string* error) {
  std::vector<std::pair<const char*, const char*>> set;  // (variable, value) of those set, table order
  for (const char* v : {e.index, e.count, e.first, e.last, e.step})
    if (v)
      if (const char* value = env(v)) set.push_back({v, value});
  if (set.empty()) return true;
  std::string source = std::string(e.name) + " (";
  for (size_t i = 0; i < set.size(); ++i) source += (i ? ", " : "") + std::string(set[i].first) + "=" + set[i].second;
  source += ")";
  auto fail = [&](const std::string& why) { return *error = source + ": " + why, false; };
  auto get = [&](const char* var, uint64_t* v) -> int {  // 1 read, 0 unset, -1 malformed
    if (!var || !env(var)) return 0;
    return parse_u64(env(var), v) ? 1 : -1;
  };
  uint64_t index = 0, count = 0, first = e.base, last = 0, step = 1;
  int has_index = get(e.index, &index), has_count = get(e.count, &count), has_first = get(e.first, &first),
      has_last = get(e.last, &last), has_step = get(e.step, &step);
  const std::pair<const char*, int> read[] = {
      {e.index, has_index}, {e.count, has_count}, {e.first, has_first}, {e.last, has_last}, {e.step, has_step}};
  for (auto [var, r] : read)
    if (r < 0) return fail(std::string(var) + " is not a non-negative integer");
  if (!has_index) return fail(std::string(e.index) + " is not set: pass --shard K/N");
  if (e.first && !has_first) return fail(std::string(e.first) + " is not set: pass --shard K/N");
  if (step == 0) return fail(std::string(e.step) + " is 0");
  if (has_last) {
    if (last < first) return fail(std::string(e.last) + " is below " + e.first);
    uint64_t spanned = (last - first) / step + 1;
    if (has_count && count != spanned)
      return fail("the array is not one evenly spaced range (a list of indices?): pass --shard K/N");
    count = spanned;
  } else if (!has_count) {
    return fail(std::string(e.count) + (e.last ? std::string(" or ") + e.last : "") +
                " is not set: set it to the number of tasks, or pass --shard K/N");
  }
  if (count == 0) return fail(std::string(e.count) + " is 0");
  if (index < first)
    return fail(std::string(e.index) + " is below the first index " + std::to_string(first) +
                (e.first ? "" : std::string(" (") + e.index + " counts from " + std::to_string(first) + ")"));
  if ((index - first) % step) return fail(std::string(e.index) + " is not on the array's step");
  uint64_t k = (index - first) / step;
  if (k >= count)
    return fail("task " + std::to_string(index) + " is past the last of " + std::to_string(count) + " tasks" +
                (e.first ? "" : std::string(" (") + e.index + " counts from " + std::to_string(first) + ")"));
  *out = EnvShard{{k, count}, source};
  return true;
}

}  // namespace

bool parse_shard(const std::string& text, Shard* out) {
  size_t slash = text.find('/');
  uint64_t k, n;
  if (slash == std::string::npos || !parse_u64(text.substr(0, slash), &k) || !parse_u64(text.substr(slash + 1), &n) ||
      n == 0 || k >= n)
    return false;
  *out = {k, n};
  return true;
}

std::string shard_text(Shard s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }

std::optional<EnvShard> shard_from_environment(const EnvLookup& env, std::string* error) {
  error->clear();
  std::optional<EnvShard> chosen;
  for (const Engine& e : kEngines) {
    std::optional<EnvShard> s;
    if (!resolve(e, env, &s, error)) return std::nullopt;
    if (!s) continue;
    if (chosen && (chosen->shard.index != s->shard.index || chosen->shard.count != s->shard.count)) {
      *error = chosen->source + " names shard " + shard_text(chosen->shard) + " but " + s->source + " names shard " +
               shard_text(s->shard) + ": unset one, or pass --shard K/N";
      return std::nullopt;
    }
    if (!chosen) chosen = std::move(s);
  }
  return chosen;
}

}  // namespace nc::sweep
