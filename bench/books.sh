#!/usr/bin/env bash
# The built-in opening books (openings/*.txt): made again with today's evaluation, and checked.
#
#   bench/books.sh make  [BASHNI]          # rewrite every book (the commands below, one core each)
#   bench/books.sh check [BASHNI] [STRIDE] # re-score every STRIDE-th opening of each book (default 20)
#
# `make` runs, for each game, the `bashni openings` command that the book's first line records:
# random openings of a few plies, each kept when a fresh search to the depth scores it within
# the limit (centi-men, 100 = one man). The output does not depend on the machine or its load:
# the checks are fixed-depth searches on one thread with a cleared 16 MiB table.
#
# `check` is the independent measure that the docs quote: it plays each sampled opening into a
# fresh engine through the protocol (`ucinewgame`, `position startpos moves ...`, `go depth D`,
# with D and the limit read from the book's first line) and prints, per book, how many openings
# it scored, the lowest and highest score, and how many fall outside the limit. It exits 1 when
# any does.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}
bashni=${2:-target/release/bashni}
stride=${3:-20}

# game  file                    plies count  depth limit
books=(
    "bashni  openings/balanced.txt 8  3000 10 30"
    "turkish openings/turkish.txt  8  600  10 30"
    "russian openings/russian.txt  8  2000 12 30"
    "brazilian openings/brazilian.txt 8 1000 10 30"
    "lasca   openings/lasca.txt    10 500  10 30"
)

make_books() {
    for b in "${books[@]}"; do
        read -r game file plies count depth limit <<<"$b"
        variant=()
        [ "$game" = bashni ] || variant=(--variant "$game")
        echo "making $file" >&2
        "$bashni" openings "${variant[@]}" --plies "$plies" --count "$count" --seed 1 \
            --depth "$depth" --max-score "$limit" --out "$file"
    done
}

# Re-scores every STRIDE-th opening of one book through the protocol, one search at a time.
check_book() {
    python3 - "$bashni" "$1" "$2" "$stride" <<'PY'
import re, subprocess, sys
bashni, game, path, stride = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lines = open(path).read().splitlines()
depth = int(re.search(r"--depth (\d+)", lines[0]).group(1))
limit = int(re.search(r"--max-score (\d+)", lines[0]).group(1))
engine = subprocess.Popen([bashni], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()
send("uci")
send(f"setoption name UCI_Variant value {game}")
scores, proven = [], 0
for moves in lines[1::stride]:
    send("ucinewgame")
    send(f"position startpos moves {moves}")
    send(f"go depth {depth}")
    score = None
    for out in engine.stdout:
        if out.startswith("info depth"):
            m = re.search(r" score (cp|mate) (-?\d+)", out)
            if m:
                score = m.groups()
        elif out.startswith("bestmove"):
            break
    if score is None or score[0] != "cp":
        proven += 1
    else:
        scores.append(int(score[1]))
send("quit")
engine.wait()
outside = sum(abs(s) > limit for s in scores) + proven
print(f"{game:8} {len(scores) + proven:4} openings at depth {depth}: scores {min(scores):+d} to "
      f"{max(scores):+d} centi-men, {outside} outside +-{limit} ({proven} proven results)")
sys.exit(1 if outside else 0)
PY
}

case $mode in
make) make_books ;;
check)
    status=0
    for b in "${books[@]}"; do
        read -r game file _ <<<"$b"
        check_book "$game" "$file" || status=1
    done
    exit $status
    ;;
*)
    echo "usage: bench/books.sh make|check [BASHNI] [STRIDE]" >&2
    exit 2
    ;;
esac
