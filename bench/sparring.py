#!/usr/bin/env python3
"""Sparring against an outside Russian-draughts engine (KestoG, docs/sparring.md): play, find
the misjudged positions, and measure a build on the suite made of them. Run from the repository
root:

  bench/sparring.py play  --kestog /tmp/kestog/kestog_uci --rounds 15 --pdn games.pdn [--egdb DIR]
  bench/sparring.py play  --skifi /tmp/skifi/skifi_uci --rounds 15 --pdn games.pdn
  bench/sparring.py scan  games.pdn --nodes 1000000 [--egdb DIR] --out candidates.epd
  bench/sparring.py suite bench/sparring/russian.epd --nodes 100000 [--bashni B]

`play` is `bashni match` at 10+0.1 (openings from the built-in Russian book, or `--openings
FILE` such as the FMJD ballots `openings/ballots/russian-fmjd.txt`, each twice with colours swapped, concurrency 1 unless `--concurrency` says; `--egdb DIR` gives bashni its
endgame databases), writing a PDN whose moves carry both engines' scores.

`scan` replays every game of a PDN and, at each non-forced move of bashni's (book moves left
out), runs a deep search of its own (`go nodes N`, one thread, table cleared) and reads the
scores both engines wrote in the game. It prints the losses, the stretches of 3 or more own moves
where bashni's game score was 50 centi-men (half a man) or more away from the deep search, and
those where KestoG's score (its next move, turned to bashni's view) was as far from bashni's.
Candidates (written one a line with `--out`, in the suite's format) come three ways:
- the game's refutation: where the deep score fell by 50 or more from one own move to the next,
  the position after KestoG's reply, searched at N and 4 N nodes, bounds the played move from
  above; kept when the best other move, the same at both counts, scores 50 more than that bound
  at both;
- more search: where the played move was not the deep search's best, it is searched alone
  (`searchmoves`) at N; where that rates it 50 or more below the best, both are searched again at
  4 N, and the position is kept when both counts choose the same best move and both rate the
  played move at least 50 below it;
- with `--egdb DIR`, in drawn and lost games, positions of 5 pieces or fewer are probed instead
  (at the game's no-progress clock) and kept when the played move lost the database's value;
  `--deep-egdb` gives the deep search the tables too (for games bashni played with them).
Positions KestoG already scored 2.5 men or more against bashni are left out (every move may lose
there), as are positions with a proven score.

`suite` plays every position of a suite at a fixed node count, a fresh table each (`ucinewgame`),
so the answer does not depend on the machine's speed or load, and prints the share where the
build's move is among the right ones.

Suite lines: `id | FEN | bm M1 [M2..] | am M | reason`, the FEN in bashni's own notation with
both numbers (the no-progress count matters in king endings), moves as the protocol writes them;
`#` starts a comment line.
"""
import argparse
import multiprocessing
import re
import subprocess
import sys

MAN = 100  # centi-men: one man
MATE = 10000  # a proven win, as a score
HALF = MAN // 2
LOST = 5 * MAN // 2  # KestoG's score at which a position counts as lost already: no right move


class Engine:
    """One bashni (or other) engine speaking the protocol, set to Russian draughts."""

    def __init__(self, cmd, egdb=None):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send("setoption name UCI_Variant value russian")
        self.send("setoption name Threads value 1")
        if egdb:
            self.send(f"setoption name EGDBPath value {egdb}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, word):
        lines = []
        for out in self.p.stdout:
            out = out.rstrip("\n")
            lines.append(out)
            if out.split(" ", 1)[0] == word:
                return lines
        raise RuntimeError(f"engine ended before '{word}'")

    def position(self, fen, moves):
        """Sets the position; returns its state line's fields and its legal moves."""
        self.send(f"position {'fen ' + fen if fen else 'startpos'}"
                  + (" moves " + " ".join(moves) if moves else ""))
        self.send("state")
        state = self.until("state")
        errors = [s for s in state if "error" in s]
        if errors:
            raise ValueError(errors[0])
        self.send("moves")
        legal = self.until("moves")[-1].split()[1:]
        line = state[-1]
        words = line.split(" fen ")[0].split()[1:]
        fields = dict(zip(words[::2], words[1::2]))
        fields["fen"] = line.split(" fen ", 1)[1]
        return fields, legal

    def go(self, nodes, only=None):
        """Searches the current position: (best move, score in centi-men, depth)."""
        self.send(f"go nodes {nodes}" + (f" searchmoves {only}" if only else ""))
        score, depth = None, 0
        for line in self.until("bestmove"):
            m = re.match(r"info depth (\d+) .*? score (cp|mate) (-?\d+)", line)
            if m:
                depth = int(m[1])
                v = int(m[3])
                score = v if m[2] == "cp" else (MATE - abs(v)) * (1 if v > 0 else -1)
        best = line.split()[1]
        return best, score, depth

    def search(self, fen, moves, nodes, only=None):
        """A fresh search (table cleared) of a position given by a FEN and moves."""
        self.send("ucinewgame")
        self.position(fen, moves)
        return self.go(nodes, only)

    def quit(self):
        self.send("quit")
        self.p.wait()


# --- PDN ---------------------------------------------------------------------------------------

def read_pdn(path):
    """The games of a PDN file as `bashni match` writes them: tags, and (move, comment) pairs."""
    games, tags, text = [], {}, []
    def close():
        if tags:
            games.append((dict(tags), movetext(" ".join(text))))
    for line in open(path):
        m = re.match(r'\[(\w+) "(.*)"\]', line)
        if m:
            if text:
                close()
                tags.clear()
                text.clear()
            tags[m[1]] = m[2]
        elif line.strip():
            text.append(line.strip())
    close()
    return games


def movetext(text):
    moves = []
    for tok in re.findall(r"\{[^}]*\}|[^\s{}]+", text):
        if tok.startswith("{"):
            if moves:
                moves[-1][1] = tok[1:-1].strip()
        elif re.match(r"^[a-h][1-8]([-x][a-h][1-8])+$", tok):
            moves.append([tok, ""])
    return moves


def comment_score(comment):
    """A `{+0.38/16 0.284s}` comment's score in centi-men, or None ({book}, no comment)."""
    m = re.match(r"([+-]?\d+\.\d+)/(\d+)", comment)
    if m:
        return round(float(m[1]) * MAN)
    m = re.match(r"([+-]?)M(\d+)", comment)
    if m:
        return (MATE - int(m[2])) * (-1 if m[1] == "-" else 1)
    return None


def canonical(move, legal):
    """The protocol's spelling of a PDN move (`g7xe5xg3` is `g7:e5:g3`, or `g7:g3` if so
    listed)."""
    path = move.replace("x", ":")
    if path in legal:
        return path
    ends = [m for m in legal if m[:2] == path[:2] and m[-2:] == path[-2:]]
    if len(ends) == 1:
        return ends[0]
    raise ValueError(f"move {move} is not legal here ({' '.join(legal)})")


# --- scan --------------------------------------------------------------------------------------

def stretches(rows, key, length=3):
    """Runs of `length` or more consecutive rows (of one game) where row[key] is true."""
    runs, cur = [], []
    for r in rows:
        if r[key]:
            cur.append(r)
        else:
            if len(cur) >= length:
                runs.append(cur)
            cur = []
    if len(cur) >= length:
        runs.append(cur)
    return runs


def scan_game(eng, n, tags, moves, nodes, me, few=0):
    """One row per non-forced, non-book move of `me`: scores of the game and of a deep
    search; and the positions of at most `few` pieces apart, without the search (the endgame
    database judges those)."""
    fen = tags.get("FEN")
    mine = "w" if tags.get("White") == me else "b"
    played, rows, ends = [], [], []
    for i, (mv, comment) in enumerate(moves):
        state, legal = eng.position(fen, played)
        move = canonical(mv, legal)
        if state["turn"] == mine and len(legal) > 1 and pieces(state["fen"]) <= few:
            ends.append({"ply": i + 1, "fen": state["fen"], "prefix": list(played),
                         "played": move})
        elif state["turn"] == mine and comment != "book" and len(legal) > 1:
            best, score, depth = eng.search(fen, played, nodes)
            reply = moves[i + 1][1] if i + 1 < len(moves) else ""
            theirs = comment_score(reply)
            rows.append({"game": n, "ply": i + 1, "fen": state["fen"], "prefix": list(played),
                         "played": move, "game_score": comment_score(comment), "best": best,
                         "deep": score, "depth": depth,
                         "kestog": None if theirs is None else -theirs})
        played.append(move)
    for a, b in zip(rows, rows[1:]):
        a["drop"] = a["deep"] - b["deep"]
        a["next"] = b
    for r in rows:
        r.setdefault("drop", 0)
        g = r["game_score"]
        r["off"] = g is not None and abs(g - r["deep"]) >= HALF
        r["kdis"] = g is not None and r["kestog"] is not None and abs(g - r["kestog"]) >= HALF
    return rows, ends


def verify(eng, tags, r, nodes):
    """The candidate's check at N and 4 N nodes: (kept?, reason)."""
    fen = tags.get("FEN")
    b2, s2, d2 = eng.search(fen, r["prefix"], 4 * nodes)
    _, p2, pd2 = eng.search(fen, r["prefix"], 4 * nodes, only=r["played"])
    p1 = r["played1"]
    r.update(best2=b2, deep2=s2, depth2=d2, played2=p2)
    ok = b2 == r["best"] and r["deep"] - p1 >= HALF and s2 - p2 >= HALF
    reason = (f"deep search at {nodes // 1000}k and {4 * nodes // 1000}k nodes (depth "
              f"{r['depth']}, {d2}) prefers {b2}: {r['deep']:+d} and {s2:+d} against "
              f"{p1:+d} and {p2:+d} for the game's {r['played']}")
    return ok, reason


def refute(eng, tags, r, legal, nodes):
    """The game's refutation: bashni's next position (after KestoG's reply) searched at N and
    4 N bounds the played move from above; the best other move, at both counts, must be the same
    and at least 50 above that bound: (kept?, best other move, reason)."""
    fen, nxt = tags.get("FEN"), r["next"]
    others = " ".join(m for m in legal if m != r["played"])
    a1, v1, _ = eng.search(fen, r["prefix"], nodes, others)
    a2, v2, d2 = eng.search(fen, r["prefix"], 4 * nodes, others)
    _, n2, _ = eng.search(fen, nxt["prefix"], 4 * nodes)
    n1 = nxt["deep"]
    ok = a1 == a2 and v1 - n1 >= HALF and v2 - n2 >= HALF
    replies = " ".join(nxt["prefix"][len(r["prefix"]) + 1:])
    reason = (f"the game's refutation: after {r['played']} {replies} a deep search scores "
              f"{n1:+d} and {n2:+d} at {nodes // 1000}k and {4 * nodes // 1000}k nodes, while "
              f"the best other move, {a2}, scores {v1:+d} and {v2:+d} (depth {d2})")
    return ok, a2, reason


def pieces(fen):
    return sum(c.isalpha() for c in fen.split()[0])


def outcome(bashni, egdb, fen):
    """The side to move's outcome in the endgame database at the FEN's own clock: win, draw or
    loss (a cursed win or blessed loss is a draw)."""
    line = subprocess.run([bashni, "egdb", "probe", "--variant", "russian", "--dir", egdb,
                           "--fen", fen], capture_output=True, text=True).stdout.strip()
    m = re.search(r"\((\w+) with the clock", line)
    word = m[1] if m else line.split(" ")[0]
    if word not in ("win", "loss", "draw", "cursed-win", "blessed-loss"):
        raise ValueError(f"egdb probe {fen}: {line}")
    return {"cursed-win": "draw", "blessed-loss": "draw"}.get(word, word)


def egdb_check(eng, args, tags, r):
    """A position with few enough pieces, by the database: when the played move throws away
    a win or a draw, (right moves, reason); else None."""
    fen = tags.get("FEN")
    before = outcome(args.bashni, args.egdb, r["fen"])
    if before == "loss":
        return None
    after = {}
    _, legal = eng.position(fen, r["prefix"])
    for m in legal:
        st, _ = eng.position(fen, r["prefix"] + [m])
        theirs = "loss" if st["result"] not in ("none", "1/2-1/2") else (
            "draw" if st["result"] == "1/2-1/2" else outcome(args.bashni, args.egdb, st["fen"]))
        after[m] = {"loss": "win", "draw": "draw", "win": "loss"}[theirs]
    right = [m for m in legal if after[m] == before]
    if after[r["played"]] == before or not right:
        return None
    return right, (f"the {pieces(r['fen'])}-piece endgame database: a {before} for bashni "
                   f"before the move, a {after[r['played']]} after the game's {r['played']}; "
                   f"{len(right)} of {len(legal)} moves keep the {before}")


def scan_one(job):
    """Scans game n of the PDN: (report text, candidate lines)."""
    args, n, tags, moves = job
    eng = Engine(args.bashni, args.egdb if args.deep_egdb else None)
    me = args.bashni_name
    res = tags.get("Result")
    verdict = ("win" if res == ("1-0" if tags.get("White") == me else "0-1")
               else "draw" if res == "1/2-1/2" else "LOSS")
    few = args.egdb_pieces if args.egdb and verdict != "win" else 0
    rows, ends = scan_game(eng, n, tags, moves, args.nodes, me, few)
    off, kdis = stretches(rows, "off"), stretches(rows, "kdis")
    text = [f"game {n}: {tags.get('White')}-{tags.get('Black')} {res} ({verdict}, "
            f"{tags.get('Termination', '')}), {len(rows)} own moves searched, "
            f"{len(off)} stretches off the deep search, {len(kdis)} off KestoG's score"]
    for s in off:
        text.append(f"  off deep   plies {s[0]['ply']}-{s[-1]['ply']}: game/deep "
                    + " ".join(f"{r['game_score']:+d}/{r['deep']:+d}" for r in s))
    for s in kdis:
        text.append(f"  off kestog plies {s[0]['ply']}-{s[-1]['ply']}: bashni/kestog "
                    + " ".join(f"{r['game_score']:+d}/{r['kestog']:+d}" for r in s))
    found = []
    for r in ends:
        hit = egdb_check(eng, args, tags, r)
        if hit:
            text.append(f"  ply {r['ply']:3} {r['played']:10} KEPT ({hit[1]})")
            found.append(f"{args.tag}g{n:02d}p{r['ply']:03d} | {r['fen']} | "
                         f"bm {' '.join(hit[0])} | am {r['played']} | {hit[1]}; game {verdict}\n")
    for r in rows:
        if abs(r["deep"]) >= MATE // 2 or (r["kestog"] or 0) <= -LOST:
            continue
        if r["drop"] >= HALF and abs(r["deep"]) < 3 * MAN:
            _, legal = eng.position(tags.get("FEN"), r["prefix"])
            ok, alt, reason = refute(eng, tags, r, legal, args.nodes)
            text.append(f"  ply {r['ply']:3} {r['played']:10} deep {r['deep']:+5d}, next own "
                        f"move {r['next']['deep']:+5d}: {'KEPT' if ok else 'no'} ({reason})")
            if ok:
                found.append(f"{args.tag}g{n:02d}p{r['ply']:03d} | {r['fen']} | bm {alt} | "
                             f"am {r['played']} | {reason}; game {verdict}\n")
                continue
        if r["played"] == r["best"]:
            continue
        _, r["played1"], _ = eng.search(tags.get("FEN"), r["prefix"], args.nodes, r["played"])
        if r["deep"] - r["played1"] < HALF:
            continue
        ok, reason = verify(eng, tags, r, args.nodes)
        text.append(f"  ply {r['ply']:3} {r['played']:10} deep {r['best']:10} "
                    f"{r['deep']:+5d}->{r['deep2']:+5d} played {r['played1']:+5d}/"
                    f"{r['played2']:+5d} drop {r['drop']:+d} {'KEPT' if ok else 'no'}")
        if ok:
            found.append(f"{args.tag}g{n:02d}p{r['ply']:03d} | {r['fen']} | bm {r['best']} | "
                         f"am {r['played']} | {reason}; game {verdict}, deep score "
                         f"{-r['drop']:+d} by the next own move\n")
    eng.quit()
    return "\n".join(text), found


def scan(args):
    pdn = read_pdn(args.pdn)
    order = args.games or range(1, len(pdn) + 1)
    games = [(args, n) + pdn[n - 1] for n in order
             if args.bashni_name in (pdn[n - 1][0].get("White"), pdn[n - 1][0].get("Black"))]
    out = open(args.out, "w") if args.out else None
    kept = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for text, found in pool.imap(scan_one, games):
            print(text, flush=True)
            kept += len(found)
            if out:
                out.writelines(found)
                out.flush()
    print(f"{kept} candidates" + (f" written to {args.out}" if args.out else ""))


# --- suite -------------------------------------------------------------------------------------

def read_suite(path):
    """The suite's positions: (id, FEN, right moves, reason)."""
    rows = []
    for line in open(path):
        if not line.strip() or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split("|")]
        bm = f[2].split()[1:] if f[2].startswith("bm ") else []
        if len(f) < 5 or not bm:
            raise ValueError(f"{path}: bad line: {line.strip()}")
        rows.append((f[0], f[1], bm, f[4]))
    return rows


def suite(args):
    eng = Engine(args.bashni)
    rows = read_suite(args.suite)
    right = 0
    for pid, fen, bm, _ in rows:
        best, score, depth = eng.search(fen, [], args.nodes)
        hit = best in bm
        right += hit
        if args.verbose:
            print(f"{pid:10} {'ok ' if hit else 'MISS'} {best:10} {score:+6d}/{depth:<3} "
                  f"want {' '.join(bm)}")
    eng.quit()
    print(f"{args.bashni}: {right}/{len(rows)} right ({100 * right / max(len(rows), 1):.0f} %) "
          f"at {args.nodes} nodes")


def play(args):
    b = args.bashni
    ours = [f"cmd={b}", f"name={args.bashni_name}"]
    if args.egdb:
        ours.append(f"option.EGDBPath={args.egdb}")
    cmd = [b, "match", "--variant", "russian", "--engine", *ours,
           "--engine", f"cmd={args.skifi or args.kestog}", f"name={'skifi' if args.skifi else 'kestog'}",
           "--tc", args.tc,
           "--rounds", str(args.rounds), "--concurrency", str(args.concurrency),
           "--openings-order", "random", "--seed", str(args.seed), "--pdn", args.pdn]
    if args.openings:
        cmd += ["--openings", args.openings]
    print(" ".join(cmd), flush=True)
    sys.exit(subprocess.call(cmd))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bashni", default="target/release/bashni", help="the build (default "
                    "target/release/bashni)")
    ap.add_argument("--bashni-name", default="bashni", help="its name in the PDN")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="play KestoG with `bashni match`")
    them = p.add_mutually_exclusive_group()
    them.add_argument("--kestog", default="/tmp/kestog/kestog_uci", help="KestoG's driver (the default opponent)")
    them.add_argument("--skifi", help="Skifi's driver instead (../shared/sparring/skifi builds /tmp/skifi/skifi_uci)")
    p.add_argument("--tc", default="10+0.1")
    p.add_argument("--rounds", type=int, default=15, help="game pairs (default 15)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--pdn", required=True)
    p.add_argument("--egdb", help="bashni's endgame databases (its EGDBPath)")
    p.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    p.add_argument("--openings", help="an openings file instead of the built-in book, e.g. the "
                   "FMJD ballots, openings/ballots/russian-fmjd.txt")
    s = sub.add_parser("scan", help="find misjudged positions in a PDN")
    s.add_argument("pdn")
    s.add_argument("--nodes", type=int, default=1_000_000, help="the deep search (and 4x)")
    s.add_argument("--out", help="write the candidates here, in the suite's format")
    s.add_argument("--egdb", help="endgame databases (`bashni egdb build`): in drawn and "
                   "lost games, positions of few pieces are judged by them instead")
    s.add_argument("--deep-egdb", action="store_true", help="the deep search has the "
                   "--egdb tables too (for games bashni played with them)")
    s.add_argument("--egdb-pieces", type=int, default=5, help="the most pieces they hold")
    s.add_argument("--tag", default="", help="put before each candidate's id (gGGpPPP)")
    s.add_argument("--jobs", type=int, default=1, help="games scanned at once")
    s.add_argument("--games", type=int, nargs="*", help="only these games (from 1), in this order")
    t = sub.add_parser("suite", help="the share of a suite's positions solved")
    t.add_argument("suite")
    t.add_argument("--nodes", type=int, default=100_000)
    t.add_argument("--verbose", action="store_true", help="one line per position")
    args = ap.parse_args()
    {"play": play, "scan": scan, "suite": suite}[args.cmd](args)


if __name__ == "__main__":
    main()
