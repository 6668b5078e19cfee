"""The page of `bashni serve` as a static site (docs/web.md): the site `wasm/build.sh DIR` writes,
served by Python's plain static server with no bashni process running, driven in headless
Chromium. The page is the same as the server's; its back end is the server's own code in
bashni.wasm, in a Web Worker (web/api.js picks it when no /api answers).

- a game against level 0 in every game the site offers, each move checked square by square
  against the back end's FEN, and an analysis of each that reaches a depth;
- a reload keeps the game (its moves, its start, the board's orientation), the review, and a
  clock game's clocks (never refilled);
- a review at a fixed node budget, shown whole;
- PDN out (the download link) and in (the file input) give the same game;
- offline after the first load: the service worker serves the site, and the game goes on;
- the puzzle mode (puzzles.html): a puzzle solved by clicking.

Every search is limited by level, depth or nodes; every wait has a deadline (harness.DEADLINE_S),
so a slow machine is slow, never wrong. BASHNI_SITE names the site (default target/site:
`wasm/build.sh target/site` first)."""

import os
import sys
import time
import urllib.parse

from playwright.sync_api import sync_playwright

from harness import (ARGS, CHROMIUM, TOWER_FENS, WAIT_MS, Page, click_move, play_by_clicking,
                     play_first_legal, until, wait_notice)
from test_wasm import SITE, static_server

# The review's budget a position: small, so that the review is quick in any browser.
REVIEW_NODES = 3000


class Site:
    """What the harness asks of a server (`url`, `get`), answered by the page's own back end:
    the calls go through the page's api.js, to the worker that runs the game."""

    def __init__(self, url):
        self.url = url
        self.page = None

    def get(self, path):
        return self.page.evaluate("async (p) => (await import('./api.js')).api('GET', p)", path)

    def post(self, path, body):
        return self.page.evaluate(
            "async ([p, b]) => (await import('./api.js')).api('POST', p, b)", [path, body])


def site_page(url, browser, context=None):
    """A page of the site (in a context of its own, or a tab of `context`)."""
    site = Site(url)
    p = Page(site, browser, context)
    site.page = p.page
    return p


def variants(p):
    return p.page.evaluate("async () => (await (await import('./api.js')).info()).variants"
                           ".map((v) => v.name)")


def test_no_server(url, browser):
    p = site_page(url, browser)
    p.open()
    assert p.page.evaluate("() => fetch('/api/info').then((r) => r.status)") == 404
    assert p.page.evaluate("async () => (await import('./api.js')).inBrowser()") is True
    # The address names the game after '#': a static host serves only its files.
    assert p.page.url.endswith("#" + p.game()), p.page.url
    assert not p.errors, p.errors
    p.page.close()


def test_every_game(url, browser):
    """A game against level 0, then an analysis, in every game the site offers."""
    p = site_page(url, browser)
    p.open()
    names = variants(p)
    assert {"bashni", "turkish", "russian", "lasca"} <= set(names), names
    # SITE_GAMES=russian,lasca plays only those.
    names = [n for n in os.environ.get("SITE_GAMES", "").split(",") if n] or names
    for v in names:
        st = p.new_game(v, level="0", movetime="0.1")
        assert st["variant"] == v and st["level"] == 0 and st["human"] == "white", st
        assert p.page.get_attribute("#board", "data-variant") == v
        played = play_by_clicking(p, 2)
        assert played >= 1, v
        st = p.state()
        assert not st["notice"] and not st["engine_failed"], st
        p.page.check("#analysis-on")
        # (the panel's last lines are the game before's until the request is made)
        until(f"the {v} analysis to start", lambda: p.state()["analysis"])
        p.page.wait_for_function(
            "() => +(document.getElementById('an-score').dataset.depth || 0) >= 3"
            " && document.querySelectorAll('#an-lines li').length >= 1", timeout=WAIT_MS)
        # (an analysis may end by itself: a position with one legal move, a forced capture)
        st = p.state()
        assert st["analysis"] and st["thinking"] in ("analysis", None), st
        p.page.uncheck("#analysis-on")
        until(f"the {v} analysis to stop",
              lambda: (lambda s: s["analysis"] is None and s["thinking"] is None)(p.state()))
        print(f"  {v}: {played} moves against level 0, analysis to depth 3")
    assert not p.errors, p.errors
    p.page.close()


def review_shown(p):
    """Reviews the game of page `p` at REVIEW_NODES a position; waits until the page shows it
    whole and returns the back end's report."""
    n = len(p.state()["moves"])
    p.server.post(f"/api/games/{p.game()}/review", {"nodes": REVIEW_NODES})
    p.page.wait_for_function(
        f"() => document.getElementById('review').dataset.progress === '{n}/{n}'",
        timeout=WAIT_MS * 2)
    return p.server.get(f"/api/games/{p.game()}/review")


def test_review_pdn_and_reload(url, browser):
    p = site_page(url, browser)
    p.open("?fen=" + urllib.parse.quote(TOWER_FENS[2]))
    moves = play_first_legal(p, 4)
    p.page.click("#btn-flip")
    # A review at a fixed budget.
    report = review_shown(p)
    n = len(moves)
    assert report["done"] == report["total"] == n and not report["running"], report
    assert len(report["moves"]) == n, report
    # PDN out: the download link gives the game.
    p.page.evaluate("() => { document.getElementById('position-box').open = true; }")
    with p.page.expect_download(timeout=WAIT_MS) as dl:
        p.page.click("#pdn-download")
    text = open(dl.value.path(), encoding="utf-8").read()
    assert '[GameType "' in text and " ".join(moves[:1]) in text, text
    # A reload keeps the game, its orientation and its review.
    p.page.reload()
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    p.wait_settled()
    assert p.moves_shown() == moves, (p.moves_shown(), moves)
    assert p.state()["start_fen"].split()[0] == TOWER_FENS[2].split()[0]
    assert p.page.get_attribute("#board", "data-orientation") == "black"
    n = len(moves)
    p.page.wait_for_function(
        f"() => document.getElementById('review').dataset.progress === '{n}/{n}'",
        timeout=WAIT_MS)
    p.check_board()
    # PDN in: the file downloaded opens as a new game with the same moves.
    first = p.game()
    p.page.set_input_files("#pdn-file", files=[
        {"name": "game.pdn", "mimeType": "application/x-pdn", "buffer": text.encode()}])
    wait_notice(p, f"from PDN: {n} plies")
    p.page.wait_for_function(f"() => document.body.dataset.game !== '{first}'", timeout=WAIT_MS)
    p.wait_settled()
    assert p.moves_shown() == moves
    p.check_board()
    assert not p.errors, p.errors
    p.page.close()


def test_clocks_over_a_reload(url, browser):
    """The browser keeps a clock game's clocks: a reload goes on with them, never refills them."""
    p = site_page(url, browser)
    p.open()
    first = p.game()
    p.page.click("#btn-new")
    p.page.select_option("#variant", "bashni")
    p.page.check("input[name=human][value=both]")
    p.page.check("input[name=tmode][value=clock]")
    p.page.fill("#clock-min", "10")
    p.page.fill("#clock-inc", "0")
    p.page.click("#new-start")
    p.page.wait_for_function(f"() => document.body.dataset.game !== '{first}'", timeout=WAIT_MS)
    # Each side's first move is free of the clock; White's second is timed, then Black's runs.
    moves = play_first_legal(p, 3)
    before = p.state()["time"]
    assert before["running"] == "black" and before["white_ms"] < 600_000, before
    p.page.reload()
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    p.wait_settled()
    assert p.moves_shown() == moves
    after = p.state()["time"]
    assert after["running"] == "black", after
    assert after["white_ms"] == before["white_ms"], (before, after)
    assert after["black_ms"] < 600_000 and after["black_ms"] <= before["black_ms"], (before, after)
    assert not p.errors, p.errors
    p.page.close()


def test_offline(url, browser):
    """After the first load the site opens and plays with no network."""
    context = browser.new_context(viewport={"width": 1180, "height": 820})
    p = site_page(url, browser, context)
    p.open()
    # (it takes the page over once it has kept every file: sw.js claims its clients)
    until("the service worker to control the page",
          lambda: p.page.evaluate("() => !!navigator.serviceWorker.controller"))
    context.set_offline(True)
    try:
        assert p.page.evaluate("() => fetch('index.html').then(() => 'cached', () => 'no')") == "cached"
        p.page.reload()
        p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
        st = p.new_game("russian", level="0", movetime="0.1")
        assert st["variant"] == "russian", st
        assert play_by_clicking(p, 1) == 1
    finally:
        context.set_offline(False)
    assert not p.errors, p.errors
    context.close()


def test_puzzles(url, browser):
    """The puzzle mode on the static site (puzzles.html): a Bashni puzzle solved by clicking its
    solver moves, the opponent's replies coming from the page's own back end."""
    p = site_page(url, browser)
    p.page.goto(url + "puzzles.html")
    state = "() => document.getElementById('pz-status').dataset.state"
    p.page.wait_for_function(f"() => ({state})() === 'play'", timeout=WAIT_MS)
    assert p.page.evaluate("async () => (await import('./api.js')).inBrowser()") is True
    pid = p.page.get_attribute("body", "data-puzzle")
    whole = p.server.get(f"/api/puzzles/bashni/{pid}")
    pos = whole["positions"]
    for i in range(1, len(whole["moves"]), 2):
        p.page.wait_for_function(f"() => ({state})() === 'play'", timeout=WAIT_MS)
        assert p.page.get_attribute("#board", "data-fen") == pos[i]["fen"]
        click_move(p, next(l for l in pos[i]["legal"] if l["move"] == whole["moves"][i]))
    p.page.wait_for_function(f"() => ({state})() === 'solved'", timeout=WAIT_MS)
    assert p.page.get_attribute("#board", "data-fen") == pos[-1]["fen"]
    assert not p.errors, p.errors
    p.page.close()


def main():
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    if not os.path.exists(os.path.join(SITE, "bashni-serve.js")):
        print(f"error: no site in {SITE} (run wasm/build.sh {SITE})", file=sys.stderr)
        return 2
    tests = [test_no_server, test_every_game, test_review_pdn_and_reload,
             test_clocks_over_a_reload, test_offline, test_puzzles]
    only = [n for n in os.environ.get("BROWSER_TESTS", "").split(",") if n]
    if only:
        tests = [t for t in tests if t.__name__ in only]
    with static_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for t in tests:
            t0 = time.monotonic()
            t(url, browser)
            print(f"ok {t.__name__} ({time.monotonic() - t0:.1f} s)")
        browser.close()
    print("site tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
