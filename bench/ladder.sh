#!/bin/bash
# The strength ladder of docs/measurements.md ("Strength levels"): each level k+1 against level k
# (k = 0..19), one thread each, 2 s + 0.02 s a game, openings from the game's book, two games
# at once per step and JOBS steps at once (JOBS = cores / 2 keeps one game a core). Run from
# the repository root:
#   BASHNI=target/release/bashni JOBS=8 OUT=ladder-out bench/ladder.sh [--variant turkish]
# Each step's report is OUT/step-k.txt; the last lines printed are the steps' Elo differences.
B=${BASHNI:-target/release/bashni}; J=${JOBS:-1}; O=${OUT:-ladder-out}; mkdir -p "$O"
for k in $(seq 0 19); do
  games=100; [ "$k" -ge 11 ] && games=60
  "$B" match --engine cmd="$B" name=L$((k + 1)) "option.Skill Level=$((k + 1))" \
    --engine cmd="$B" name=L$k "option.Skill Level=$k" --tc 2+0.02 --games $games \
    --concurrency 2 --openings-order random --seed $((100 + k)) "$@" > "$O/step-$k.txt" 2>&1 &
  while [ "$(jobs -r | wc -l)" -ge "$J" ]; do sleep 1; done
done
wait
for k in $(seq 0 19); do echo "L$((k + 1)) vs L$k: $(grep -E '^Games:|^Elo:' "$O/step-$k.txt" | tr '\n' ' ')"; done
