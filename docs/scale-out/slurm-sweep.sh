#!/usr/bin/env bash
# Nightly conformance on a Slurm job array: task i sweeps shard i of every domain. ninfer-conform
# reads the shard itself from SLURM_ARRAY_TASK_ID, _MIN, _MAX, _STEP and _COUNT, so the array may
# start at 1 (as here) or anywhere, with or without a step. slurm-merge.sh joins the shards after.
#
# Submit both (the merge waits for every task, whatever their exit status):
#   export NC_OUT=$PWD/nc-sweep-$(date +%Y%m%d-%H%M%S)   # on a shared filesystem, fresh per run
#   jid=$(sbatch --parsable docs/scale-out/slurm-sweep.sh)
#   sbatch --dependency=afterany:$jid docs/scale-out/slurm-merge.sh
#SBATCH --job-name=nc-sweep
#SBATCH --array=1-8
#SBATCH --cpus-per-task=8
#SBATCH --time=02:00:00
set -euo pipefail
: "${NC_OUT:=$PWD/nc-sweep}"  # where the shard reports go
: "${NC_TARGET:=cpu}"         # cpu, cuda, plugin:PATH.so or pipe:COMMAND
: "${NC_DOMAINS:=all}"        # domains or families (ninfer-conform sweep --list)
mkdir -p "$NC_OUT"
# Exit 1 (mismatches) still leaves a report: the certificate judges it, the task succeeds.
ninfer-conform sweep $NC_DOMAINS --target "$NC_TARGET" --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --json "$NC_OUT/shard-$SLURM_ARRAY_TASK_ID.json" || [ $? -eq 1 ]
