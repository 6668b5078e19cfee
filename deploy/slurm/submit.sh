#!/usr/bin/env bash
# Queues a datagen run or a fixed-length match as a Slurm job array of SHARDS tasks, plus a merge
# job that runs once all of them succeeded (sbatch --dependency=afterok). Usage:
#   deploy/slurm/submit.sh datagen SHARDS DIR DATAGEN-FLAGS...
#   deploy/slurm/submit.sh match   SHARDS DIR MATCH-FLAGS...
# e.g.
#   deploy/slurm/submit.sh datagen 8 /scratch/d --games 200000 --nodes 5000 --seed 1
#   deploy/slurm/submit.sh match 8 /scratch/m --engine cmd=/opt/new name=new \
#       --engine cmd=/opt/base name=base --tc 10+0.1 --games 800 --concurrency 2 --seed 41
# DIR gets the parts, the logs and the merged result: data.txt (datagen), or report.txt,
# match.json and games.pdn (match). MATCH-FLAGS need --games or --rounds and --seed, and no
# --sprt: set SPRT="elo0=0 elo1=5" to test the merged counts. BASHNI names the binary (default:
# bashni on the PATH); SBATCH_OPTIONS adds sbatch options (partition, account, time limit).
set -euo pipefail
usage="usage: submit.sh datagen|match SHARDS DIR FLAGS..."
here=$(cd "$(dirname "$0")" && pwd)
kind=${1:?$usage}
shards=${2:?$usage}
dir=${3:?$usage}
shift 3
case "$kind" in
    datagen | match) ;;
    *) echo "$usage" >&2; exit 2 ;;
esac
mkdir -p "$dir"
bashni=${BASHNI:-$(command -v bashni)}
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array=1-"$shards" --chdir="$dir" \
    --export=ALL,BASHNI="$bashni" "$here/$kind.sbatch" "$@")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency=afterok:"$array" --chdir="$dir" \
    --export=ALL,BASHNI="$bashni",SHARDS="$shards",SPRT="${SPRT:-}" "$here/$kind-merge.sbatch")
echo "$kind array job $array, merge job $merge; results in $dir"
