#!/usr/bin/env bash
# A misbehaving engine for the match tests: it runs a real engine and passes every line
# through, until its N-th `go` (counted over the whole process), where it misbehaves.
#
# usage: misbehave.sh <engine> <mode> <n>
#   illegal  answer `bestmove a1-h8` (never legal: a man cannot go there)
#   none     answer `bestmove (none)`
#   crash    exit at once (the engine too)
#   silent   ignore this and every later command (until killed)
#   slow     wait 1 s before passing `go` on (a time forfeit at short time controls)
# Before the N-th `go` it is the real engine; after it (illegal, none, slow) it is again.
engine=$1
mode=$2
n=$3
coproc ENGINE { exec "$engine"; }
engine_pid=$ENGINE_PID
# Coprocess descriptors are closed in subshells: copy them first.
exec {from_engine}<&"${ENGINE[0]}" {to_engine}>&"${ENGINE[1]}"
# The engine's output goes straight to ours.
cat <&"$from_engine" &
count=0
silent=0
while IFS= read -r line; do
    if (( silent )); then
        continue
    fi
    case "$line" in
        go*)
            count=$((count + 1))
            if (( count == n )); then
                case "$mode" in
                    illegal) echo "bestmove a1-h8"; continue ;;
                    none) echo "bestmove (none)"; continue ;;
                    crash) kill "$engine_pid" 2>/dev/null; exit 3 ;;
                    silent) silent=1; continue ;;
                    slow) sleep 1 ;;
                esac
            fi
            ;;
    esac
    echo "$line" >&"$to_engine"
done
kill "$engine_pid" 2>/dev/null
