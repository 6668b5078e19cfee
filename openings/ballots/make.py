#!/usr/bin/env python3
"""Writes the ballot files of this folder from Lidraughts' copy of the federations' tables.

  openings/ballots/make.py <OpeningTable.scala> <bashni>

<OpeningTable.scala>: `modules/draughts/src/main/OpeningTable.scala` of Lidraughts
(github.com/RoepStoep/lidraughts, read at commit c7feaf1810), which holds three tables, each
with its source:
  - `categoriesFmjd`: "FMJD Drawing Table 64" (https://results.fmjd.org/viewpage.php?page_id=2),
    46 categories of 16 ballots, for Russian draughts;
  - `categoriesFmjdBrazilian`: the same table less 11 ballots (1-IX, 4-XV, 5-IX, 5-XI, 19-V,
    25-XIII, 30-XVI, 40-XIV, 41-XIII, 42-XIV, 43-II), "FMJD Drawing Table 64 - Brazilian";
  - `categoriesIDFBasic`: "IDF Drawing Table 64 - Basic Positions"
    (https://idf64.org/tables-of-draw/), 15 categories of 10 ballots, for both games.
Each ballot is a position (a standard FEN, squares numbered from the top left, 1 = b8) and,
for most, the moves that lead to it in short notation (`ab4`: the piece from the a-file to
b4). <bashni>: a build of bashni, whose engine protocol turns each short move into its move in
the game's own notation (`a3-b4`), checking it legal on the way.

A line of a ballot file is the ballot's moves from the initial position when they lead to the
table's position exactly (pieces and side to move), else that position as a standard FEN with
algebraic squares (the ballots of categories 11 to 37 set pieces where no sequence of moves
puts them); a comment gives the ballot's code. Every line is read by `bashni match --openings`
and checked by tests/ballots.rs.
"""

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENTRY = re.compile(r'StartingPosition\("([^"]+)", "([^"]+)", "([^"]*)", "([^"]*)"\.some\)')
BRAZILIAN_LEFT_OUT = ["1-IX", "4-XV", "5-IX", "5-XI", "19-V", "25-XIII", "30-XVI", "40-XIV",
                      "41-XIII", "42-XIV", "43-II"]


def section(text, name):
    start = text.index(f"private val {name} = ")
    end = text.index("\n  )\n", start)
    return ENTRY.findall(text[start:end])


def square(n):
    """A square numbered from the top left (1 = b8, 4 = h8, 5 = a7 ... 32 = g1)."""
    row, k = divmod(int(n) - 1, 4)
    rank = 8 - row
    files = "bdfh" if rank % 2 == 0 else "aceg"
    return f"{files[k]}{rank}"


def algebraic(fen):
    """The standard FEN of Lidraughts' numbered one, squares by name."""
    side, white, black = fen.split(":")[:3]
    names = lambda part: ",".join(square(n) for n in part[1:].split(","))
    return f"{side}:W{names(white)}:B{names(black)}"


class Engine:
    def __init__(self, bashni, variant):
        self.p = subprocess.Popen([bashni, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)
        self.send(f"setoption name UCI_Variant value {variant}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def answer(self, command, prefix):
        self.send(command)
        for line in self.p.stdout:
            if line.startswith(prefix):
                return line.split()
        raise RuntimeError(f"no '{prefix}' after '{command}'")

    def legal(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        return self.answer("moves", "moves")[1:]

    def board(self, position):
        """Board and side to move of a `position` command's argument, from `state`."""
        self.send("position " + position)
        fen = self.answer("state", "state")
        return " ".join(fen[fen.index("fen") + 1:][:2])


def ballot_line(engine, code, fen, short):
    if short == "Free":
        return f"{algebraic(fen):<40} # {code} (free: the initial position)"
    moves = []
    for m in short.split():
        fits = [x for x in engine.legal(moves) if x[0] == m[0] and x.endswith(m[1:])]
        if len(fits) != 1:
            break
        moves.append(fits[0])
    else:
        played = "startpos" + (" moves " + " ".join(moves) if moves else "")
        if engine.board(played) == engine.board("fen " + algebraic(fen)):
            return f"{' '.join(moves):<40} # {code}"
    return f"{algebraic(fen):<40} # {code}"


def write(path, variant, entries, header):
    engine = Engine(sys.argv[2], variant)
    lines = [ballot_line(engine, code, fen, short) for code, fen, _, short in entries]
    engine.send("quit")
    path.write_text("".join(f"# {h}\n" if h else "#\n" for h in header) +
                    "".join(line.rstrip() + "\n" for line in lines))
    positions = sum(line[1] == ":" for line in lines)
    print(f"{path}: {len(lines)} ballots, {positions} as positions")


def main():
    text = Path(sys.argv[1]).read_text()
    fmjd = section(text, "categoriesFmjd")
    idf = section(text, "categoriesIDFBasic")
    brazilian = [e for e in fmjd if e[0] not in BRAZILIAN_LEFT_OUT]
    source = "Lidraughts' modules/draughts/src/main/OpeningTable.scala (RoepStoep/lidraughts, c7feaf1810)"
    made = "openings/ballots/make.py (docs/match.md#ballots); every line checked by tests/ballots.rs"
    write(HERE / "russian-fmjd.txt", "russian", fmjd, [
        "FMJD Drawing Table 64, for Russian draughts: 46 categories of 16 ballots (736).",
        "Source: https://results.fmjd.org/viewpage.php?page_id=2, as copied in " + source + ",",
        "  `categoriesFmjd`. Made by " + made + ".",
        "In the source, 16-I and 16-II are the positions of 15-XV and 15-XVI again, and 45-IX's",
        "position has Black to move though its moves (gh4 ba5 hg3 ab6 ef4 dc5) leave White to",
        "move: the line is the position, as the table gives it.",
    ])
    write(HERE / "brazilian-fmjd.txt", "brazilian", brazilian, [
        "FMJD Drawing Table 64 - Brazilian, for Brazilian draughts: the Russian table less 11",
        "ballots (" + ", ".join(BRAZILIAN_LEFT_OUT) + "): 725.",
        "Source: https://results.fmjd.org/viewpage.php?page_id=2, as copied in " + source + ",",
        "  `categoriesFmjdBrazilian`. Made by " + made + ".",
        "In the source, 16-I and 16-II are the positions of 15-XV and 15-XVI again, and 45-IX's",
        "position has Black to move though its moves leave White to move: the line is the",
        "position, as the table gives it.",
    ])
    write(HERE / "idf-basic.txt", "russian", idf, [
        "IDF Drawing Table 64 - Basic Positions, for Russian and Brazilian draughts: 15 categories",
        "of 10 ballots (150).",
        "Source: https://idf64.org/tables-of-draw/, as copied in " + source + ",",
        "  `categoriesIDFBasic`. Made by " + made + ".",
        "In the source, 2-IV's moves (ef4 fe5 ab4) do not lead to its position, which is 2-V's",
        "(ab4 fe5 ba5): the line is the position, as the table gives it.",
    ])


if __name__ == "__main__":
    main()
