#!/bin/bash
# The thread table of issue 46 (docs/measurements.md, "Threads by games"): Elo of T threads
# against one thread, beside the Elo of T times the time for one thread, same build, same
# base control, same openings. Run from the repository root on an otherwise idle machine:
#   T=2 ROUNDS=200 SEED=46 BIN=target/release/bashni OUT=thread-table bench/thread_table.sh
# The thread match plays one game at a time (the T-thread engine has the cores it needs); the
# time match plays as many games at once as the machine has cores for one-thread engines.
# Each match's Elo with pentanomial error bars comes from bench/pairs.py.
set -e
B=${BIN:-target/release/bashni}; T=${T:-2}; R=${ROUNDS:-200}; S=${SEED:-46}
O=${OUT:-thread-table}; TC=${TC:-2+0.02}; V=${VARIANT:-bashni}
mkdir -p "$O"
base=${TC%+*}; inc=${TC#*+}
long="$(echo "$base * $T" | bc)+$(echo "$inc * $T" | bc)"
cores=$(nproc)
{ date; echo "cores $cores"; lscpu | grep -E 'Model name'; git log -1 --format=%h; } > "$O/machine.txt"
# 1. T threads against one.
"$B" match --variant "$V" --engine cmd="$B" name=t$T option.Threads=$T \
  --engine cmd="$B" name=t1 option.Threads=1 --tc "$TC" --rounds "$R" \
  --openings-order random --seed "$S" --concurrency $(( cores / T > 0 ? cores / T : 1 )) \
  --pdn "$O/threads.pdn" > "$O/threads.txt" 2>&1
# 2. One thread with T times the time against one thread (cutechess-cli's per-engine tc).
"$B" match --variant "$V" --engine cmd="$B" name=x$T option.Threads=1 tc="$long" \
  --engine cmd="$B" name=t1 option.Threads=1 tc="$TC" --rounds "$R" \
  --openings-order random --seed "$S" --concurrency "$cores" \
  --pdn "$O/time.pdn" > "$O/time.txt" 2>&1
date >> "$O/machine.txt"
bench/pairs.py "t$T" "$O/threads.txt" | tee "$O/table.txt"
bench/pairs.py "x$T" "$O/time.txt" | tee -a "$O/table.txt"
