"""Perft of Brazilian (or Russian) draughts by pydraughts' move generator, with pydraughts 0.6.

pydraughts lists every capture path; two paths with the same start, the same end and the same
captured pieces are one move in bashni's perft (docs/rules-brazilian.md, section 2.4), so each
position's moves are merged by that key before counting, and one path of each is played.

Usage: perft.py <variant>, then one line per position on standard input: `<standard FEN>
<depth>`. Prints one line per position: the counts at depths 1 to <depth>, space-separated.
"""

import sys

from draughts import Board


def merged(game):
    moves, captures = game.legal_moves()
    seen = {}
    for move, captured in zip(moves, captures):
        seen.setdefault((move[0][0], move[-1][1], frozenset(captured)), move)
    return list(seen.values())


def perft(game, depth):
    moves = merged(game)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = game.copy_fast()
        child.push(move)
        total += perft(child, depth - 1)
    return total


def main():
    variant = sys.argv[1]
    for line in sys.stdin:
        if not line.strip():
            continue
        fen, depth = line.rsplit(None, 1)
        game = Board(variant, fen)._game
        counts = [perft(game, d) for d in range(1, int(depth) + 1)]
        print(" ".join(map(str, counts)), flush=True)


if __name__ == "__main__":
    main()
