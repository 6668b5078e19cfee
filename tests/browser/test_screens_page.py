#!/usr/bin/env python3
"""The page on every screen (issue 65 #2), in headless Chromium: on a phone (390x844 and
360x740) the move buttons sit right under the board, a swipe on the board or on those buttons
steps through the moves, and the review's graph and the learning prompt are reached without
losing the board; at 1000x760 and 1280x800 the graph and the learning prompt are beside the
board, in the window; at 1920x1080 the side panel uses the width. Screenshots of each size in
target/browser/screen-*.png. Each of these failed on the page before.

Run from the repository root after `cargo build --profile suite`:
    target/tmp/playwright/bin/python tests/browser/test_screens_page.py
(BROWSER_TESTS=name,name runs only those; WEB_DIR=web serves the page's files from disk.)
"""

import os
import sys
import time
import urllib.parse
import urllib.request

from playwright.sync_api import sync_playwright

from harness import ARGS, CHROMIUM, OUT, WAIT_MS, Page, Server, review_shown, rule_moves

PLIES = 24
# A small node budget: the layout is what is tested here, not the marks.
NODES = 3000


def reviewed_page(server, browser, moves, **ctx):
    """A page of the game `moves` (both sides the person's) with a review done and marks to
    learn from."""
    context = browser.new_context(**ctx)
    p = Page(server, browser, context)
    p.open("?moves=" + urllib.parse.quote(",".join(moves)))
    p.wait_settled()
    review_shown(p, NODES)
    p.page.wait_for_selector("#learn:not([hidden])", timeout=WAIT_MS)
    return p


def box(p, sel):
    return p.page.locator(sel).bounding_box()


def in_window(p, sel, w, h):
    b = box(p, sel)
    assert b and b["width"] > 0 and b["height"] > 0, f"{sel} not shown: {b}"
    assert b["x"] >= -1 and b["y"] >= -1 and b["x"] + b["width"] <= w + 1 and b["y"] + b["height"] <= h + 1, \
        f"{w}x{h}: {sel} outside the window: {b}"
    return b


def shot(p, name):
    os.makedirs(OUT, exist_ok=True)
    p.page.screenshot(path=os.path.join(OUT, name))


def touch_swipe(p, sel, dx):
    """A finger drawn `dx` px across the middle of `sel`."""
    cdp = p.page.context.new_cdp_session(p.page)
    b = box(p, sel)
    x0, y = b["x"] + b["width"] / 2 - dx / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for i in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x0 + dx * i / 8, "y": y + i}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def board_ply(p):
    return int(p.page.get_attribute("#board", "data-ply"))


def wait_ply(p, ply):
    p.page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{ply}'", timeout=WAIT_MS)


def board_whole_in_view(p, w, h):
    return in_window(p, "#board", w, h)


def test_phone(server, browser, ctx):
    for w, h in [(390, 844), (360, 740)]:
        p = reviewed_page(server, browser, ctx["moves"], viewport={"width": w, "height": h},
                          has_touch=True, is_mobile=True)
        n = len(ctx["moves"])
        assert p.page.evaluate("() => document.documentElement.scrollWidth") <= w
        board, nav = box(p, "#board"), box(p, "#nav")
        # The move buttons right under the board.
        gap = nav["y"] - (board["y"] + board["height"])
        assert 0 <= gap <= 12, f"{w}x{h}: the buttons are {gap:.0f} px under the board"
        in_window(p, "#nav", w, h)
        shot(p, f"screen-{w}-board.png")
        # Swipes: rightwards on the board a move back, leftwards on the buttons a move on.
        assert board_ply(p) == n
        touch_swipe(p, "#board", 160)
        wait_ply(p, n - 1)
        touch_swipe(p, "#board", 160)
        wait_ply(p, n - 2)
        touch_swipe(p, "#nav", -150)
        wait_ply(p, n - 1)
        touch_swipe(p, "#nav", 150)
        wait_ply(p, n - 2)
        # A stroke that is mostly vertical, or short, is no swipe.
        touch_swipe(p, "#board", 20)
        time.sleep(0.3)
        assert board_ply(p) == n - 2
        # The graph, scrolled to: the board still whole in view, the graph under it.
        p.page.eval_on_selector("#review-graph", "e => e.scrollIntoView({block: 'end'})")
        time.sleep(0.2)
        b = board_whole_in_view(p, w, h)
        g = in_window(p, "#review-graph", w, h)
        top = box(p, "#board-area")
        assert g["y"] >= top["y"] + top["height"] - 1, f"{w}x{h}: the graph is under the board: {g} {top}"
        shot(p, f"screen-{w}-graph.png")
        # The learning prompt likewise, with its position on the board.
        p.page.click("#learn")
        p.page.wait_for_function("() => document.getElementById('learn-panel').dataset.phase === 'ask'", timeout=WAIT_MS)
        p.page.eval_on_selector("#learn-panel", "e => e.scrollIntoView({block: 'end'})")
        time.sleep(0.2)
        board_whole_in_view(p, w, h)
        lp = in_window(p, "#learn-panel", w, h)
        assert lp["y"] >= top["y"] + top["height"] - 1
        shot(p, f"screen-{w}-learn.png")
        assert not p.errors, p.errors
        print(f"   {w}x{h}: board {b['width']:.0f} px, buttons {gap:.0f} px under it")
        p.page.context.close()


def test_desktop(server, browser, ctx):
    for w, h in [(1000, 760), (1280, 800)]:
        p = reviewed_page(server, browser, ctx["moves"], viewport={"width": w, "height": h})
        board = in_window(p, "#board", w, h)
        right = board["x"] + board["width"]
        # The graph and the learning prompt beside the board, in the window (no scrolling).
        for sel in ("#review-graph", "#learn"):
            b = in_window(p, sel, w, h)
            assert b["x"] >= right, f"{w}x{h}: {sel} not beside the board: {b}"
        shot(p, f"screen-{w}.png")
        p.page.click("#learn")
        p.page.wait_for_function("() => document.getElementById('learn-panel').dataset.phase === 'ask'", timeout=WAIT_MS)
        for sel in ("#review-graph", "#learn-panel"):
            b = in_window(p, sel, w, h)
            assert b["x"] >= right, f"{w}x{h}: {sel} not beside the board: {b}"
        in_window(p, "#nav", w, h)
        shot(p, f"screen-{w}-learn.png")
        assert not p.errors, p.errors
        p.page.context.close()
    # 1920x1080: the board 80 to 90 % of the height, and the side panel uses the width.
    w, h = 1920, 1080
    p = reviewed_page(server, browser, ctx["moves"], viewport={"width": w, "height": h})
    board = in_window(p, "#board", w, h)
    assert 0.8 * h <= board["height"] <= 0.9 * h + 1, board
    aside = box(p, "aside")
    empty = w - (aside["x"] + aside["width"])
    assert empty <= 0.05 * w, f"{w}x{h}: {empty:.0f} px right of the side panel are empty"
    for sel in ("#review-graph", "#learn", "#moves", "#nav"):
        in_window(p, sel, w, h)
    shot(p, f"screen-{w}.png")
    assert not p.errors, p.errors
    print(f"   {w}x{h}: board {board['height']:.0f} px high, {empty:.0f} px empty at the right")
    p.page.context.close()


TESTS = [test_phone, test_desktop]


def main():
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    only = [n for n in os.environ.get("BROWSER_TESTS", "").split(",") if n]
    tests = [t for t in TESTS if not only or t.__name__ in only]
    server = Server()
    try:
        ctx = {"moves": rule_moves(server, PLIES)}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for t in tests:
                t0 = time.monotonic()
                t(server, browser, ctx)
                print(f"ok {t.__name__} ({time.monotonic() - t0:.1f} s)")
            browser.close()
    finally:
        server.stop()
    print("screens page tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
