// Which shard of a sweep this process runs: `--shard K/N`, or the task index and task count that a
// scheduler sets in the environment (Slurm job arrays, Kubernetes Indexed Jobs, CI parallel
// matrices, GoogleTest sharding). One table of engines in shard.cc says where each keeps the index,
// the count and the first index; docs/scale-out.md lists it.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "runners/sweep/sweep.h"

namespace nc::sweep {

// "K/N" with 0 <= K < N.
bool parse_shard(const std::string& text, Shard* out);
std::string shard_text(Shard s);

// Reads an environment variable; nullptr when unset (std::getenv in the CLI, a map in tests).
using EnvLookup = std::function<const char*(const char*)>;

struct EnvShard {
  Shard shard;
  std::string source;  // e.g. "Slurm job array (SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=1, ...)"
};

// The shard the environment names: nullopt with *error empty when no engine's variables are set;
// nullopt with *error set (a usage error) when an engine's variables are incomplete or malformed,
// when they name no task of an evenly spaced array, or when two engines name different shards.
std::optional<EnvShard> shard_from_environment(const EnvLookup& env, std::string* error);

}  // namespace nc::sweep
