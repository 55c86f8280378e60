#!/usr/bin/env bash
# Joins the shard reports of slurm-sweep.sh and certifies the target on the corpus and the merged
# sweeps. merge refuses (exit 2) a missing, duplicated or overlapping shard, a shard of another
# target or build, and a shard that judged nothing; rerun those tasks (sbatch --array=K ...).
#SBATCH --job-name=nc-merge
#SBATCH --time=00:30:00
set -euo pipefail
: "${NC_OUT:=$PWD/nc-sweep}"
: "${NC_TARGET:=cpu}"
ninfer-conform merge "$NC_OUT"/shard-*.json --json "$NC_OUT/merged.json" || [ $? -eq 1 ]
ninfer-conform certify --target "$NC_TARGET" --out "$NC_OUT/certificate" --sweep-report "$NC_OUT/merged.json"
