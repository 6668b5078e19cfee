#!/usr/bin/env bash
# Queues a datagen run as a Slurm job array of SHARDS tasks plus a merge job that runs after all
# of them succeed. Usage:
#   deploy/slurm/submit-datagen.sh SHARDS DIR DATAGEN-FLAGS...
#   deploy/slurm/submit-datagen.sh 8 /scratch/bashni-data --games 200000 --nodes 5000 --seed 1
# DIR gets part-<i>.txt, the logs and, at the end, data.txt. BASHNI names the binary (default:
# bashni on the PATH); extra sbatch options (partition, account, time) go in SBATCH_OPTIONS.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shards=${1:?usage: submit-datagen.sh SHARDS DIR DATAGEN-FLAGS...}
dir=${2:?usage: submit-datagen.sh SHARDS DIR DATAGEN-FLAGS...}
shift 2
mkdir -p "$dir"
bashni=${BASHNI:-$(command -v bashni)}
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array=1-"$shards" --chdir="$dir" \
    --export=ALL,BASHNI="$bashni" "$here/datagen.sbatch" "$@")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency=afterok:"$array" --chdir="$dir" \
    --export=ALL,SHARDS="$shards" "$here/datagen-merge.sbatch")
echo "datagen array job $array, merge job $merge; the data will be $dir/data.txt"
