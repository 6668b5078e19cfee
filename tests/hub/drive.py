"""Plays `bashni hub` against a random mover through pydraughts' HubEngine, as
lidraughts-bot drives an engine: HubEngine(command), the variant (and move-numbering)
set with setoption, init(), then play(board, Limit(time=..., inc=...)) before each of
its moves with the whole game sent again, and pondering on the expected reply between its
moves (`go ponder` on a thread, then `ponder-hit` when the reply came, else `stop`). Every move of bashni is checked by pydraughts'
rules (a move pydraughts does not find among its legal moves raises), every line the
engine writes must be one HubEngine understands (its warnings fail the run), and bashni
must win every game.

pydraughts 0.5.x (lidraughts-bot's pin) numbers moves from the top, as `pos` does;
0.6.x numbers them from a1, so the driver sets `move-numbering=a1` there.

pydraughts' Turkish kings slide over pieces (a bug of pydraughts: a Turkish king, like
a rook, may not pass a piece). The random mover never plays such a king move (it checks
the path on the board itself), and should pydraughts not find bashni's move among its
legal moves while a king is on a Turkish board, the game is adjudicated on material
there and the driver says so: positions where the bug matters are not compared.

Usage: drive.py <bashni> <variant> <games> <seed>
Prints one line per game and `ok <games> games` at the end; exits 1 on any failure.
"""

import logging
import random
import sys
import threading
import time

import draughts
from draughts.engine import HubEngine, Limit

V06 = hasattr(draughts, "Board")
WHITE, BLACK = 2, 1


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


class Table:
    """The game, whichever pydraughts this is."""

    def __init__(self, variant):
        self.variant = variant
        self.board = draughts.Board(variant) if V06 else draughts.Game(variant)

    @property
    def game(self):
        """pydraughts' internal game: squares numbered from the top."""
        return self.board._game if V06 else self.board

    def turn(self):
        return self.game.whose_turn()

    def over(self):
        return self.game.get_winner() is not None

    def winner(self):
        return self.game.get_winner()

    def hub_fen(self):
        return self.game.get_fen()

    def internal_moves(self):
        return self.game.legal_moves()

    def push_index(self, i):
        """Plays the i-th legal move (the order of internal_moves)."""
        if V06:
            self.board.push(self.board.legal_moves()[i])
        else:
            moves, _ = self.game.legal_moves()
            self.game.push(moves[i])

    def push_result(self, move):
        if V06:
            self.board.push(move)
        else:
            self.game.push(move.board_move)

    def hub_move(self, i):
        """The i-th legal move in pydraughts' Hub notation."""
        if V06:
            return self.board.legal_moves()[i].hub_move
        moves, _ = self.game.legal_moves()
        return draughts.Move(self.game, board_move=moves[i]).hub_move

    def plies(self):
        return len(self.board.move_stack)


def ponder(engine, table, move, clock, inc):
    """As lidraughts-bot ponders: `go ponder` on the position after the expected reply, on
    a thread, until `ponder-hit` (the reply came) or `stop` (another one)."""
    board = table.board.copy()
    if V06:
        board.push(move)
    else:
        board.push(move.board_move)
    box = {}

    def run():
        box["result"] = engine.play(board, Limit(time=clock, inc=inc), True)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, box, move.hub_move


def turkish_path_clear(fen, steps):
    """Whether a Turkish move's every step passes only empty squares (a quiet step) or
    exactly one piece (a capture step), on the board before the move."""
    board = fen[1:]

    def at(n):
        return board[n - 1]

    for a, b in steps:
        ra, ca = divmod(a - 1, 8)
        rb, cb = divmod(b - 1, 8)
        dr = (rb > ra) - (rb < ra)
        dc = (cb > ca) - (cb < ca)
        if dr and dc:
            return False
        between = []
        r, c = ra + dr, ca + dc
        while (r, c) != (rb, cb):
            between.append(at(r * 8 + c + 1))
            r, c = r + dr, c + dc
        if sum(1 for x in between if x != "e") > 1:
            return False
    return True


def random_move(table, rng):
    moves, captures = table.internal_moves()
    fen = table.hub_fen()
    choices = list(range(len(moves)))
    if table.variant == "turkish":
        choices = [i for i in choices if turkish_path_clear(fen, moves[i])]
    if not choices:
        return None
    return rng.choice(choices)


def material(fen, colour):
    men = "w" if colour == WHITE else "b"
    return sum(1 for x in fen[1:] if x == men) + 3 * sum(1 for x in fen[1:] if x == men.upper())


def play(cmd, variant, index, rng, warnings):
    engine = HubEngine([cmd, "hub"])
    if variant not in engine.variants:
        fail(f"engine declares variants {sorted(engine.variants)}, not {variant}")
    engine.setoption("variant", variant)
    if V06:
        engine.setoption("move-numbering", "a1")
    engine.init()
    table = Table(variant)
    ours = WHITE if index % 2 == 0 else BLACK
    clock, inc = 3.0, 0.05
    # The clock is kept as lidraughts-bot keeps it, but a busy machine must not decide the
    # verdict: bashni loses on time only past ten times the time the clock allowed (an engine
    # that ignored the clock would pass that; a tenfold slowdown does not).
    used, allowed = 0.0, clock
    result = None
    pondering = None  # (thread, box for its result, the ponder move's hub text)
    hits = stops = 0
    try:
        while not table.over() and table.plies() < 400:
            if table.turn() == ours:
                start = time.monotonic()
                played = None
                if pondering is not None:
                    thread, box, hit = pondering
                    pondering = None
                    if hit:
                        thread.join(30)
                        played = box.get("result")
                        if played is None:
                            fail(f"game {index}: no answer after ponder-hit")
                if played is None:
                    try:
                        played = engine.play(table.board, Limit(time=max(clock, 0.01), inc=inc), False)
                    except (KeyError, ValueError, IndexError) as e:
                        kings = any(x in "WB" for x in table.hub_fen()[1:])
                        if variant == "turkish" and kings:
                            result = f"adjudicated (pydraughts' Turkish kings: {e!r} in {table.hub_fen()})"
                            break
                        fail(f"game {index}: pydraughts refused bashni's move ({e!r}) in {table.hub_fen()}")
                spent = time.monotonic() - start
                clock += inc - spent
                used += spent
                allowed += inc
                if used > 10 * allowed:
                    fail(f"game {index}: bashni lost on time ({used:.1f} s, ten times the clock is {10 * allowed:.1f} s)")
                if not played.info or "score" not in played.info:
                    fail(f"game {index}: no scored info line before done ({played.info})")
                table.push_result(played.move)
                if played.ponder is not None and not table.over():
                    pondering = ponder(engine, table, played.ponder, max(clock, 0.01), inc)
            else:
                i = random_move(table, rng)
                if i is None:
                    result = "adjudicated (pydraughts' Turkish kings)"
                    break
                if pondering is not None:
                    thread, box, expected = pondering
                    while engine._last_sent != "go ponder" and thread.is_alive():
                        time.sleep(0.001)
                    if table.hub_move(i) == expected:
                        engine.ponderhit()
                        hits += 1
                        pondering = (thread, box, True)
                    else:
                        engine.stop()
                        stops += 1
                        thread.join(30)
                        if thread.is_alive() or "result" not in box:
                            fail(f"game {index}: stop did not end the ponder search")
                        pondering = None
                table.push_index(i)
            if warnings.lines:
                fail(f"game {index}: HubEngine warned: {warnings.lines}")
    finally:
        engine.quit()
        engine.kill_process()
    fen = table.hub_fen()
    kings = any(x in "WB" for x in fen[1:])
    if result is None and table.winner() == 0 and variant == "turkish" and kings:
        # pydraughts' Turkish draw rules with kings are not the game's (a king against a
        # lone man wins there): bashni must be ahead on the board, as in any adjudication.
        result = "adjudicated (pydraughts' Turkish draw with kings)"
    if result is None:
        winner = table.winner()
        if winner != ours:
            fail(f"game {index}: bashni did not win (winner {winner}, {table.plies()} plies, {fen})")
        result = "bashni won"
    elif material(fen, ours) <= material(fen, WHITE + BLACK - ours):
        fail(f"game {index}: {result} without bashni ahead in {fen}")
    side = "white" if ours == WHITE else "black"
    print(f"game {index} {variant} bashni {side}: {result} in {table.plies()} plies, "
          f"pondering: {hits} ponder-hit, {stops} stop", flush=True)


def main():
    cmd, variant, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    warnings = Warnings()
    logging.getLogger("pydraughts").addHandler(warnings)
    rng = random.Random(seed)
    print(f"pydraughts {draughts.__version__}", flush=True)
    for i in range(games):
        play(cmd, variant, i, rng, warnings)
    print(f"ok {games} games", flush=True)


if __name__ == "__main__":
    main()
