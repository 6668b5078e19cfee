#!/usr/bin/env bash
# Queues a fixed-length match as a Slurm job array of SHARDS tasks plus a merge job that runs
# after all of them succeed. Usage:
#   deploy/slurm/submit-match.sh SHARDS DIR MATCH-FLAGS...
#   deploy/slurm/submit-match.sh 8 /scratch/m1 --engine cmd=/opt/new name=new \
#       --engine cmd=/opt/base name=base --tc 10+0.1 --games 800 --concurrency 2 --seed 41
# MATCH-FLAGS need --games or --rounds and --seed, and no --sprt (set SPRT="elo0=0 elo1=5" to
# test the merged counts). DIR gets part-<i>.json/.pdn, the logs, report.txt, match.json and
# games.pdn. BASHNI names the binary that runs and merges the match (default: bashni on the
# PATH); extra sbatch options go in SBATCH_OPTIONS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=${1:?usage: submit-match.sh SHARDS DIR MATCH-FLAGS...}
dir=${2:?usage: submit-match.sh SHARDS DIR MATCH-FLAGS...}
shift 2
mkdir -p "$dir"
bashni=${BASHNI:-$(command -v bashni)}
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array=1-"$shards" --chdir="$dir" \
    --export=ALL,BASHNI="$bashni" "$here/match.sbatch" "$@")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency=afterok:"$array" --chdir="$dir" \
    --export=ALL,BASHNI="$bashni",SHARDS="$shards",SPRT="${SPRT:-}" "$here/match-merge.sbatch")
echo "match array job $array, merge job $merge; the report will be $dir/report.txt"
