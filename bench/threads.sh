#!/bin/bash
# Thread scaling on a many-core machine: time to depth 13 on the bench and Elo of N threads
# against one, as in the "Thread scaling" tables of docs/measurements.md. Run from the
# repository root:
#   NEW=target/release/bashni BASE=../baseline/target/release/bashni OUT=results bench/threads.sh
# Each match is stopped after its share of time (on SIGTERM it prints its report and writes
# --result); bench/pairs.py gives that table's intervals from its complete pairs.
N=${NEW:-target/release/bashni}; B=${BASE:-$N}; O=${OUT:-threads-out}; mkdir -p "$O"
D=${DEPTH:-13}
{ date; nproc; lscpu | grep -E 'Model name'; } > "$O/machine.txt" 2>&1
# 1. Time to depth: 3 rounds, thread counts interleaved; the baseline once at 1, 2 and 16.
for r in 1 2 3; do for t in 1 2 4 8 16; do
  echo "new r$r t$t $($N bench --depth $D --hash 64 --threads $t 2>&1 | tail -1)" >> "$O/ttd.txt"
done; done
for t in 1 2 16; do echo "base t$t $($B bench --depth $D --hash 64 --threads $t 2>&1 | tail -1)" >> "$O/ttd.txt"; done
# 2. Elo of t threads against 1 at 2+0.02; concurrency 16/t, as an engine thinks only on its move.
m() { timeout "$3" $N match --engine cmd=$N name=t$1 option.Threads=$1 \
  --engine cmd=$N name=t1 option.Threads=1 --tc 2+0.02 --rounds 500 --openings-order random \
  --seed 4$1 --concurrency $2 --result "$O/elo$1.json" > "$O/elo$1.txt" 2>&1; }
m 2 8 45; m 4 4 60; m 8 2 75; m 16 1 95
for t in 2 4 8 16; do bench/pairs.py t$t "$O/elo$t.txt"; done | tee "$O/elo.txt"
date >> "$O/machine.txt"
