#!/usr/bin/env python3
"""The tablebase panel of `bashni serve --egdb DIR` in headless Chromium: a Russian position
the endgame databases hold shows its value and every legal move's value for the mover, best
first, at the position's clock; a click on a move plays it; a win the rule's clock no longer
allows shows as a draw; nothing is shown outside the tables or without them. The values are
checked against `bashni egdb probe` of the positions after the moves (another way to the same
tables), not only against the server's own answer. Writes docs/serve-tablebase.png.

Builds Russian 2-3 piece tables and KKKvK into target/tmp/browser-egdb (once; a second run
reads them). Run from the repository root after `cargo build --profile suite`:
    python3 tests/browser/test_tablebase_page.py
(WEB_DIR=web serves the page's files from disk.)
"""

import os
import subprocess
import sys

from playwright.sync_api import sync_playwright

from harness import ARGS, BASHNI, CHROMIUM, ROOT, WAIT_MS, Page, Server, run

EGDB = os.path.join(ROOT, "target", "tmp", "browser-egdb")
# Three kings against one, the lone king off the long diagonal: won in 18 plies (docs/egdb.md).
WON = "W:WKc1,Ka3,Kg1:BKb8"
ORDER = {"win": 0, "cursed-win": 1, "draw": 2, "blessed-loss": 3, "loss": 4}


def build():
    os.makedirs(EGDB, exist_ok=True)
    for extra in ([], ["--material", "KKKvK"]):
        pieces = "4" if extra else "3"
        run([BASHNI, "egdb", "build", "--variant", "russian", "--pieces", pieces,
                        "--out", EGDB, *extra], check=True, stdout=subprocess.DEVNULL)


def probe(fen):
    out = run([BASHNI, "egdb", "probe", "--variant", "russian", "--dir", EGDB,
                          "--fen", fen], check=True, capture_output=True, text=True)
    return out.stdout.strip()


def panel(p):
    """(the position's data attributes, [(move, value, distance, outcome, by_clock, text)])."""
    p.page.wait_for_selector("#tablebase:not([hidden]) #tb-moves li", timeout=WAIT_MS)
    value = p.page.eval_on_selector("#tb-value", "e => ({...e.dataset, text: e.textContent})")
    moves = p.page.eval_on_selector_all(
        "#tb-moves li",
        "els => els.map(e => [e.dataset.move, e.dataset.value, e.dataset.distance, "
        "e.dataset.outcome, e.dataset.byClock, e.querySelector('.tb-val').textContent])")
    return value, moves


def rank(m):
    """Best first: wins within the rule by shortest, other wins, draws, saved losses,
    losses by longest."""
    _, value, distance, outcome, by_clock, _ = m
    d = int(distance) if distance else 0
    if value == "win" and outcome == "win":
        return (0, d)
    if value in ("win", "cursed-win"):
        return (1, d)
    if value == "draw":
        return (2, 0)
    if value == "loss" and outcome == "loss":
        return (4, -d)
    return (3, -d)


def test_values_and_order(server, browser):
    p = Page(server, browser)
    p.open(f"?variant=russian&fen={WON}")
    value, moves = panel(p)
    assert value["value"] == "win" and value["distance"] == "18", value
    assert value["text"] == "White to move: win 18", value
    legal = sorted(m["move"] for m in p.state()["legal"])
    assert sorted(m[0] for m in moves) == legal, (moves, legal)
    assert [rank(m) for m in moves] == sorted(rank(m) for m in moves), moves
    shown = {m[0]: m for m in moves}
    # The same values through `egdb probe` of the positions after the moves (Black to move).
    assert probe("B:WKb2,Ka3,Kg1:BKb8") == "loss 17"
    assert shown["c1-b2"][1:4] == ["win", "18", "win"], shown["c1-b2"]
    assert shown["c1-b2"][5] == "win 18"
    assert probe("B:WKc1,Ka3,Kf2:BKb8") == "draw"
    assert shown["g1-f2"][1:4] == ["draw", "", "draw"], shown["g1-f2"]
    # A click plays the move; the panel follows to Black's position.
    p.page.click('#tb-moves li[data-move="c1-b2"]')
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '1'",
                             timeout=WAIT_MS)
    p.page.wait_for_function(
        "() => document.getElementById('tb-value').dataset.value === 'loss'", timeout=WAIT_MS)
    value, moves = panel(p)
    assert p.state()["moves"] == ["c1-b2"]
    assert value["distance"] == "17" and value["text"] == "Black to move: loss 17", value
    assert all(m[1] == "loss" for m in moves), moves
    assert max(int(m[2]) for m in moves) == 17, moves
    # The screenshot docs/serve.md shows (the pointer off the list).
    p.page.mouse.move(0, 0)
    p.page.screenshot(path=os.path.join(ROOT, "docs", "serve-tablebase.png"))
    assert not p.errors, p.errors
    p.page.context.close()


def test_the_clock_draws_a_slow_win(server, browser):
    p = Page(server, browser)
    p.open(f"?variant=russian&fen={WON}:H20:F1")
    value, moves = panel(p)
    assert value["value"] == "win" and value["outcome"] == "draw", value
    assert value["byClock"] == "true", value
    assert value["text"] == "White to move: draw (win 18: 18 plies, 10 left by the rule)", value
    assert probe(WON + ":H20:F1") == "win 18 (draw with the clock at 20 of 30)"
    # No move wins with 10 plies left: every win of the list is a draw by the clock.
    assert all(m[3] == "draw" for m in moves), moves
    assert any(m[4] == "true" and m[5].startswith("draw (win ") for m in moves), moves
    assert not p.errors, p.errors
    p.page.context.close()


def test_nothing_outside_the_tables(server, browser):
    p = Page(server, browser)
    p.open("?variant=russian&fen=W:WKc1,Ka3,Kg1,Ke1:BKb8")  # five pieces: no table
    p.page.wait_for_function(
        "() => fetch(`/api/games/${document.body.dataset.game}/tablebase`).then(r => r.json())"
        ".then(a => a.tablebase === null)", timeout=WAIT_MS)
    assert p.page.is_hidden("#tablebase")
    p.page.context.close()


def test_nothing_without_databases(browser):
    plain = Server()
    try:
        p = Page(plain, browser)
        p.open(f"?variant=russian&fen={WON}")
        assert plain.get("/api/info")["egdb"] is None
        assert plain.get(f"/api/games/{p.game()}/tablebase")["tablebase"] is None
        assert p.page.is_hidden("#tablebase")
        p.page.context.close()
    finally:
        plain.stop()


def main():
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    build()
    server = Server("--egdb", EGDB)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for t in (test_values_and_order, test_the_clock_draws_a_slow_win,
                      test_nothing_outside_the_tables):
                t(server, browser)
                print(f"ok {t.__name__}")
            test_nothing_without_databases(browser)
            print("ok test_nothing_without_databases")
            browser.close()
    finally:
        server.stop()
    print("tablebase page tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
