#!/usr/bin/env python3
"""Elo of a match stopped before its end (bench/threads.sh stops its matches by a time limit, so
`bashni match` prints no summary): complete game pairs only, from its 'Finished game N (A vs B): R'
lines, a 95 % interval from the pair scores as `bashni match` computes it.
Usage: bench/pairs.py FIRST_ENGINE_NAME LOG..."""
import math, re, sys

def report(path, first):
    res = {}
    for line in open(path):
        m = re.match(r'Finished game (\d+) \((\S+) vs (\S+)\): (\S+)', line)
        if m:
            s = {'1-0': 1.0, '0-1': 0.0, '1/2-1/2': 0.5}[m[4]]
            res[int(m[1])] = s if m[2] == first else 1 - s
    pent = [0] * 5
    for n in res:
        if n % 2 == 1 and n + 1 in res:
            pent[int((res[n] + res[n + 1]) * 2)] += 1
    pairs = sum(pent)
    if pairs == 0:
        print(f"{path}: no complete pair")
        return
    mu = sum(p * i / 4 for i, p in enumerate(pent)) / pairs
    se = math.sqrt(sum(p * (i / 4 - mu) ** 2 for i, p in enumerate(pent)) / pairs / pairs)
    elo = lambda x: -400 * math.log10(1 / min(max(x, 1e-3), 1 - 1e-3) - 1)
    print(f"{path}: {pairs} pairs, pentanomial {pent}, Elo {elo(mu):+.1f} "
          f"(95 %: {elo(mu - 1.96 * se):+.1f} .. {elo(mu + 1.96 * se):+.1f})")

for log in sys.argv[2:]:
    report(log, sys.argv[1])
