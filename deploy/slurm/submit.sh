#!/usr/bin/env bash
# Queues a datagen run or a fixed-length match as a Slurm job array of SHARDS tasks, plus a merge
# job that runs once all of them succeeded (sbatch --dependency=afterok); or an endgame-database
# build as one job array a level, each after the one before, plus a verification. Usage:
#   deploy/slurm/submit.sh datagen SHARDS DIR DATAGEN-FLAGS...
#   deploy/slurm/submit.sh match   SHARDS DIR MATCH-FLAGS...
#   deploy/slurm/submit.sh egdb    VARIANT PIECES DIR
# e.g.
#   deploy/slurm/submit.sh datagen 8 /scratch/d --games 200000 --nodes 5000 --seed 1
#   deploy/slurm/submit.sh match 8 /scratch/m --engine cmd=/opt/new name=new \
#       --engine cmd=/opt/base name=base --tc 10+0.1 --games 800 --concurrency 2 --seed 41
#   deploy/slurm/submit.sh egdb russian 5 /scratch/egdb
# DIR gets the parts, the logs and the merged result: data.txt (datagen), or report.txt,
# match.json and games.pdn (match), or the tables (egdb: one array task a group of a level, as
# `bashni egdb plan` prints them; tables already in DIR are solved again). MATCH-FLAGS need
# --games or --rounds and --seed, and no --sprt: set SPRT="elo0=0 elo1=5" to test the merged
# counts. BASHNI names the binary (default: bashni on the PATH); SBATCH_OPTIONS adds sbatch
# options (partition, account, time limit).
set -euo pipefail
usage="usage: submit.sh datagen|match SHARDS DIR FLAGS... | submit.sh egdb VARIANT PIECES DIR"
here=$(cd "$(dirname "$0")" && pwd)
kind=${1:?$usage}
bashni=${BASHNI:-$(command -v bashni)}

# One array job a level of the build, each waiting for the one before; then `egdb verify`.
egdb() {
    local variant=${1:?$usage} pieces=${2:?$usage} dir=${3:?$usage}
    local plan level_pieces men sigs n dependency="" job jobs=()
    plan=$("$bashni" egdb plan --variant "$variant" --pieces "$pieces")
    mkdir -p "$dir"
    while read -r level_pieces men sigs; do
        n=$(wc -w <<< "$sigs")
        # shellcheck disable=SC2086
        job=$(sbatch --parsable ${SBATCH_OPTIONS:-} ${dependency:+--dependency=afterok:$dependency} \
            --array=1-"$n" --chdir="$dir" --job-name="bashni-egdb-$level_pieces-$men" \
            --export=ALL,BASHNI="$bashni",VARIANT="$variant",PIECES="$level_pieces",SIGS="$sigs" \
            "$here/egdb.sbatch")
        jobs+=("$job")
        dependency=$job
    done <<< "$plan"
    # shellcheck disable=SC2086
    job=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency=afterok:"$dependency" --chdir="$dir" \
        --export=ALL,BASHNI="$bashni" "$here/egdb-verify.sbatch")
    echo "egdb array jobs ${jobs[*]} (one a level), verify job $job; tables in $dir"
}

case "$kind" in
    datagen | match) ;;
    egdb) shift; egdb "$@"; exit ;;
    *) echo "$usage" >&2; exit 2 ;;
esac
shards=${2:?$usage}
dir=${3:?$usage}
shift 3
mkdir -p "$dir"
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array=1-"$shards" --chdir="$dir" \
    --export=ALL,BASHNI="$bashni" "$here/$kind.sbatch" "$@")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency=afterok:"$array" --chdir="$dir" \
    --export=ALL,BASHNI="$bashni",SHARDS="$shards",SPRT="${SPRT:-}" "$here/$kind-merge.sbatch")
echo "$kind array job $array, merge job $merge; results in $dir"
