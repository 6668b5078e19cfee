"""PDN between pydraughts and bashni (Russian or Brazilian draughts), with pydraughts 0.6.

  pdn.py write <file> <seed> [variant]
                              writes a PDN game with pydraughts' PDNWriter: from a set-up
                              position (a [FEN] tag with kings) random moves until the end
                              or 60 plies; prints `fen <final position's FEN>`.
  pdn.py read <file> [variant]
                              reads the last game of a PDN file with pydraughts' PDNReader,
                              replays its moves by pydraughts' rules from its [FEN] tag (a
                              move pydraughts finds illegal raises) and prints `fen <final
                              position's FEN>` and `moves <count>`.
The variant is `russian` unless given.
"""

import os
import random
import sys

from draughts import Board, Move
from draughts.PDN import PDNReader, PDNWriter

START = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,Kg3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,Kh8"


def write(path, seed, variant):
    rng = random.Random(seed)
    board = Board(variant, START)
    while not board.is_over() and len(board.move_stack) < 60:
        board.push(rng.choice(board.legal_moves()))
    if os.path.exists(path):
        os.remove(path)
    PDNWriter(path, board=board, tags={"Event": "pydraughts"}, game_ending="*")
    print("fen " + board.fen)


def read(path, variant):
    games = PDNReader(filename=path).games
    game = games[-1]
    fen = None
    with open(path, encoding="utf8") as f:
        lines = f.read().splitlines()
    for line in lines:
        if line.startswith("[FEN "):
            fen = line.split('"')[1]
    board = Board(variant, fen) if fen else Board(variant)
    for text in game.moves:
        board.push(Move(board, pdn_move=text))
    print("fen " + board.fen)
    print(f"moves {len(game.moves)}")


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else "russian")
    else:
        read(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "russian")
