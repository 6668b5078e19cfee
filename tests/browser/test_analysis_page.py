#!/usr/bin/env python3
"""Browser tests of the analysis board and the hand (issue 44): Take back in analysis mode
steps back without deleting, the first click after a mode switch counts (and one whose press
and release fall on two drawings of the board), the move list keeps the move shown in view,
arrows never hide a tower's height badge, buried kings show their colour inside their
square, the keys (up/down between variations, space plays the engine's best move, `x`
threat mode) and drag and drop (mouse and touch, the capture choice included).

Run from the repository root after `cargo build --profile suite`:
    python3 tests/browser/test_analysis_page.py
(a venv with Playwright, as .ci/run makes it). BROWSER_TESTS=name,name runs only those;
WEB_DIR=web serves the page's files from that folder (WEB_DIR=<old checkout>/web shows
which tests fail on an older page). Every analysis the page asks for is cut at depth
ANALYSIS_DEPTH here (the request is rewritten on its way): no verdict depends on the speed of
the machine, only waits with generous limits.
"""

import json
import os
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

from harness import ARGS, CHROMIUM, OUT, TOWER_FENS, WAIT_MS, Page, Server, until, parse_fen, play_by_clicking, play_first_legal

ANALYSIS_DEPTH = 6
START = "1b1b1b1b/b1b1b1b1/1b1b1b1b/8/8/w1w1w1w1/1w1w1w1w/w1w1w1w1 w 0 1"
# White to move has no capture; Black, if White passed, would have to take c3 (b4:d2).
THREAT_FEN = "7b/8/8/b7/1b6/2w5/7w/8 w 0 1"


def post(server, path, body):
    req = urllib.request.Request(server.url + path.lstrip("/"), data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def depth_limited(p):
    """Every analysis the page asks for stops at ANALYSIS_DEPTH."""
    def route(r):
        body = json.loads(r.request.post_data or "{}")
        if body.get("on"):
            body["depth"] = ANALYSIS_DEPTH
        r.continue_(post_data=json.dumps(body))
    p.page.route("**/api/games/*/analysis", route)


def page(server, browser, **ctx):
    if ctx:
        context = browser.new_context(**ctx)
        p = Page(server, browser, context)
    else:
        p = Page(server, browser)
    depth_limited(p)
    return p


def lines_of(server, n, fen=START, pick=lambda legal: legal[0]):
    """Up to `n` plies from `fen` (the person plays both), each the legal move `pick` picks,
    by the API."""
    st = post(server, "/api/games", {"human": "both", "fen": fen})
    for _ in range(n):
        if st["result"] or not st["legal"]:
            break
        st = post(server, f"/api/games/{st['id']}/move", {"move": pick(st["legal"])["move"]})
    return st


def wait_analysis(p, done=True):
    """Until the panel shows lines of the position shown (and the search has stopped)."""
    p.page.wait_for_function(
        f"""() => document.querySelectorAll('#an-lines li .pv-move').length >= 1
                  && (!{str(done).lower()} || document.getElementById('an-depth').textContent.includes('stopped'))""",
        timeout=WAIT_MS)


def ply_shown(p):
    return int(p.page.get_attribute("#board", "data-ply"))


def test_takeback_in_analysis_keeps_the_tree(server, browser):
    p = page(server, browser)
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[2]))
    main = play_first_legal(p, 6)
    # A variation from ply 3: another move there.
    p.page.click('#moves > [data-ply="3"]')
    legal = p.server.get(f"/api/games/{p.game()}/legal?ply=3")["legal"]
    other = next(m for m in legal if m["move"] != main[3])
    for sq in other["path"][:1] + other["path"][-1:]:
        p.click(sq)
    p.page.wait_for_selector("#moves > [data-variation]", timeout=WAIT_MS)
    p.page.click('#moves > [data-ply="2"]:not([data-variation])')
    p.page.check("#analysis-on")
    p.page.wait_for_function("() => document.getElementById('analysis-panel').hidden === false", timeout=WAIT_MS)
    assert p.page.is_enabled("#btn-takeback"), "Take back at ply 2"
    p.page.click("#btn-takeback")
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '1'", timeout=WAIT_MS)
    time.sleep(0.5)  # anything the old page did to the game would have happened by now
    assert p.moves_shown() == main, "the main line keeps its moves"
    assert p.page.locator("#moves > [data-variation]").count() == 1, "the variation stays"
    # (the server holds whichever line the position shown is on, each one whole)
    assert p.state()["moves"] in (main, main[:3] + [other["move"]]), p.state()["moves"]
    # Inside the variation: a step back, the variation kept whole.
    var = p.page.locator("#moves > [data-variation]").last
    var.click()
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '4'", timeout=WAIT_MS)
    p.page.click("#btn-takeback")
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '3'", timeout=WAIT_MS)
    time.sleep(0.5)
    assert p.page.locator("#moves > [data-variation]").count() == 1
    assert p.page.get_attribute("#moves > [data-variation]", "data-move") == other["move"]
    assert p.moves_shown() == main
    # At the start, nothing to step back to.
    p.page.keyboard.press("Home")
    p.page.wait_for_function("() => document.getElementById('btn-takeback').disabled", timeout=WAIT_MS)
    assert not p.errors, p.errors
    p.page.close()


def first_click(p, plies, at):
    """A game against level 0 of `plies` of ours; at ply `at`, analysis on, one click on a
    tower that can move there: it is selected."""
    p.open()
    p.new_game("bashni", human="white", level="0", movetime="0.05")
    played = play_by_clicking(p, plies)
    assert played == plies, f"the game ended after {played} of our moves"
    p.page.click(f'#moves > [data-ply="{at}"]') if at else p.page.keyboard.press("Home")
    p.page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{at}'", timeout=WAIT_MS)
    legal = p.server.get(f"/api/games/{p.game()}/legal?ply={at}")["legal"]
    p.page.check("#analysis-on")
    p.click(legal[0]["path"][0])  # once, at once
    p.page.wait_for_selector("#marks .hl-sel", timeout=WAIT_MS)
    p.click(legal[0]["path"][-1])
    p.page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{at + 1}'", timeout=WAIT_MS)
    assert p.state()["moves"][at] == legal[0]["move"]


def test_first_click_after_analysis_on(server, browser):
    p = page(server, browser)
    first_click(p, 2, 0)
    assert not p.errors, p.errors
    p.page.close()
    phone = page(server, browser, viewport={"width": 390, "height": 844}, has_touch=True)
    first_click(phone, 11, 20)  # as the issue found it: ply 20 on a phone
    assert not phone.errors, phone.errors
    phone.page.close()


def test_click_across_a_redraw(server, browser):
    """A press and a release on a tower drawn again in between (as analysis lines arrive)."""
    p = page(server, browser)
    p.open("?fen=" + urllib.request.quote(START))
    p.page.check("#analysis-on")
    wait_analysis(p)
    # Analysis lines redraw the board as they arrive: a tower found may be gone before it is
    # measured (its box is then None), so find and measure it again until both hold.
    def measured():
        handle = p.page.locator('#board [data-square="c3"]').last.element_handle()
        box = handle.bounding_box()
        return (handle, box) if box is not None else None
    handle, box = until("the tower on c3 to be measured between two redraws", measured)
    p.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    p.page.mouse.down()
    # Anything that redraws the board: here the analysis asked for again, by the API.
    post(p.server, f"/api/games/{p.game()}/analysis", {"on": True, "ply": 0, "multipv": 1, "depth": 2})
    p.page.wait_for_function("h => !h.isConnected", arg=handle, timeout=WAIT_MS)
    p.page.mouse.up()
    p.page.wait_for_selector("#marks .hl-sel", timeout=WAIT_MS)
    assert not p.errors, p.errors
    p.page.close()


def current_in_view(p):
    return p.page.evaluate("""() => {
        const c = document.querySelector('#moves .current'), l = document.getElementById('moves');
        if (!c) return null;
        const r = c.getBoundingClientRect(), b = l.getBoundingClientRect();
        return r.top >= b.top - 1 && r.bottom <= b.bottom + 1; }""")


def test_move_list_keeps_the_move_in_view(server, browser):
    # (the middle legal move each time: a long game, 76 plies)
    st = lines_of(server, 160, pick=lambda legal: legal[len(legal) // 2])
    p = page(server, browser)
    p.open("?moves=" + ",".join(st["moves"]))
    assert p.page.evaluate("() => { const l = document.getElementById('moves'); return l.scrollHeight > l.clientHeight + 20; }"), \
        "the list must overflow for this test"
    assert current_in_view(p)
    p.page.keyboard.press("Home")
    for _ in range(3):
        p.page.keyboard.press("ArrowRight")
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '3'", timeout=WAIT_MS)
    assert current_in_view(p), "after Home and three steps the move shown is in the list's view"
    p.page.keyboard.press("End")
    p.page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{len(st['moves'])}'", timeout=WAIT_MS)
    assert current_in_view(p)
    for _ in range(len(st["moves"]) // 2):
        p.page.keyboard.press("ArrowLeft")
    assert current_in_view(p), "half way back"
    assert not p.errors, p.errors
    p.page.close()


def test_arrows_never_hide_badges(server, browser):
    p = page(server, browser)
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[0]))
    p.page.check("#analysis-on")
    p.page.select_option("#multipv", "3")
    wait_analysis(p)
    p.page.wait_for_selector("#arrows .arrow.pv1", state="attached", timeout=WAIT_MS)
    order = p.page.evaluate("() => [...document.getElementById('board').children].map(e => e.id).filter(Boolean)")
    assert order.index("badges") > order.index("arrows"), order
    badges = p.page.eval_on_selector_all("#towers .badge", "bs => bs.map(b => b.id)")
    tops = p.page.eval_on_selector_all("#badges use", "us => us.map(u => u.getAttribute('href'))")
    assert badges and sorted(tops) == sorted("#" + b for b in badges), (badges, tops)
    # Drawn where the badge is, with its number.
    for b in badges:
        inner = p.page.evaluate(f"""() => {{ const u = document.querySelector('#badges use[href="#{b}"]').getBoundingClientRect(),
                                              o = document.getElementById('{b}').getBoundingClientRect();
                                              return [u.x, u.y, u.width, o.x, o.y, o.width]; }}""")
        assert all(abs(inner[i] - inner[i + 3]) < 0.5 for i in range(3)), (b, inner)
    assert not p.errors, p.errors
    p.page.close()


def test_buried_kings_show_their_colour(server, browser):
    p = page(server, browser)
    # A tall tower (9) on e5 hiding a white and a black king under its top four; a short one
    # with a buried black king on d4.
    fen = "8/8/8/4(wbbbwWbBw)3/3(bBww)4/8/1w6/8 w"
    p.open("?fen=" + urllib.request.quote(fen))
    tall = '#board [data-tower="wbbbwWbBw"]'
    marks = p.page.eval_on_selector_all(tall + " .king-mark", "ms => ms.map(m => [m.dataset.color, getComputedStyle(m).fill])")
    assert sorted(c for c, _ in marks) == ["b", "w"], marks
    assert marks[0][1] != marks[1][1], f"the two crowns look the same: {marks}"
    short = p.page.eval_on_selector_all('#board [data-tower="bBww"] .king-mark', "ms => ms.map(m => m.dataset.color)")
    assert short == ["b"], short
    # Every crown and band inside its tower's square.
    for sq in ("e5", "d4"):
        inside = p.page.evaluate(f"""() => {{
            const s = document.querySelector('#squares [data-square="{sq}"]').getBoundingClientRect();
            return [...document.querySelectorAll('#towers [data-square="{sq}"] .king-mark, #towers [data-square="{sq}"] .crown-small')]
              .map(m => m.getBoundingClientRect())
              .every(r => r.left >= s.left - 0.5 && r.right <= s.right + 0.5 && r.top >= s.top - 0.5 && r.bottom <= s.bottom + 0.5); }}""")
        assert inside, f"a crown leaves {sq}"
    assert not p.errors, p.errors
    p.page.close()


def test_up_down_between_variations(server, browser):
    a = lines_of(server, 1)
    m1 = a["moves"][0]
    replies = [m["move"] for m in a["legal"][:3]]
    assert len(replies) == 3
    main = post(server, f"/api/games/{a['id']}/move", {"move": replies[0]})
    main = post(server, f"/api/games/{a['id']}/move", {"move": main["legal"][0]["move"]})["moves"]
    vars_ = f"{m1},{replies[1]};{m1},{replies[2]}"
    p = page(server, browser)
    p.open("?moves=" + ",".join(main) + "&vars=" + urllib.request.quote(vars_))
    assert p.page.locator("#moves > [data-variation]").count() == 2
    p.page.click('#moves > [data-ply="2"]:not([data-variation])')
    want = [replies[0], replies[1], replies[2]]

    def shown_move():
        p.page.wait_for_function("() => document.querySelector('#moves .current')", timeout=WAIT_MS)
        return p.page.get_attribute("#moves .current", "data-move")
    assert shown_move() == want[0]
    for i in (1, 2):
        p.page.keyboard.press("ArrowDown")
        p.page.wait_for_function(f"() => document.querySelector('#moves .current')?.dataset.move === {json.dumps(want[i])}", timeout=WAIT_MS)
        assert ply_shown(p) == 2
    p.page.keyboard.press("ArrowDown")  # the last: stays
    time.sleep(0.3)
    assert shown_move() == want[2]
    for i in (1, 0):
        p.page.keyboard.press("ArrowUp")
        p.page.wait_for_function(f"() => document.querySelector('#moves .current')?.dataset.move === {json.dumps(want[i])}", timeout=WAIT_MS)
    assert p.moves_shown() == main
    assert not p.errors, p.errors
    p.page.close()


def test_space_plays_the_best_move(server, browser):
    p = page(server, browser)
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[2]))
    p.page.check("#analysis-on")
    wait_analysis(p)
    best = p.page.get_attribute("#an-lines li:first-child .pv-move", "data-move")
    p.page.keyboard.press(" ")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1", timeout=WAIT_MS)
    assert p.moves_shown() == [best], (p.moves_shown(), best)
    assert p.page.is_checked("#analysis-on")
    # The analysis follows; space again plays the next best move.
    wait_analysis(p)
    best2 = p.page.get_attribute("#an-lines li:first-child .pv-move", "data-move")
    p.page.keyboard.press(" ")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 2", timeout=WAIT_MS)
    assert p.moves_shown() == [best, best2]
    assert not p.errors, p.errors
    p.page.close()


def test_threat_mode(server, browser):
    p = page(server, browser)
    p.open("?fen=" + urllib.request.quote(THREAT_FEN))
    p.page.check("#analysis-on")
    wait_analysis(p)
    assert p.page.locator("#arrows .arrow.threat").count() == 0
    p.page.keyboard.press("x")
    p.page.wait_for_selector("#arrows .arrow.threat", state="attached", timeout=WAIT_MS)
    p.page.wait_for_function("() => document.getElementById('an-depth').textContent.includes('stopped')", timeout=WAIT_MS)
    arrow = p.page.locator("#arrows .arrow.threat")
    # Black's capture, compulsory for Black were it its move; the score is Black's gain.
    assert arrow.get_attribute("data-move") == "b4:d2", arrow.get_attribute("data-move")
    assert arrow.get_attribute("data-side") == "black"
    score = arrow.get_attribute("data-score")
    assert score.startswith("−") or score.startswith("Black"), score
    assert p.page.text_content("#arrows .arrow-label.threat text") == score
    text = p.page.inner_text("#threat-text")
    assert text.startswith("Threat of Black: b4:d2 (" + score + ") — if White passed"), text
    print("   ", text)
    st = p.state()
    assert st["analysis"]["threat"] is True and st["turn"] == "white", st["analysis"]
    assert p.page.is_checked("#threat-on")
    assert p.page.locator("#arrows .arrow.pv1").count() == 0
    # A reload brings the game back in threat mode (the same game, joined again).
    old = p.game()
    p.page.reload()
    p.page.wait_for_function(f"() => document.body.dataset.game === '{old}'", timeout=WAIT_MS)
    p.page.wait_for_selector("#arrows .arrow.threat", state="attached", timeout=WAIT_MS)
    assert p.page.is_checked("#threat-on") and p.page.is_checked("#analysis-on")
    assert p.state()["analysis"]["threat"] is True
    assert p.page.locator("#arrows .arrow.threat").get_attribute("data-move") == "b4:d2"
    # Off again: White's own lines.
    p.page.keyboard.press("x")
    p.page.wait_for_selector("#arrows .arrow.pv1", state="attached", timeout=WAIT_MS)
    assert p.page.locator("#arrows .arrow.threat").count() == 0
    assert p.state()["analysis"]["threat"] is False
    assert p.page.inner_text("#threat-text") == ""
    # Leaving analysis mode leaves threat mode: back in analysis, the side to move's lines.
    p.page.keyboard.press("x")
    p.page.wait_for_selector("#arrows .arrow.threat", state="attached", timeout=WAIT_MS)
    p.page.uncheck("#analysis-on")
    p.page.wait_for_function("() => document.getElementById('analysis-panel').hidden", timeout=WAIT_MS)
    p.page.check("#analysis-on")
    p.page.wait_for_selector("#arrows .arrow.pv1", state="attached", timeout=WAIT_MS)
    assert p.page.locator("#arrows .arrow.threat").count() == 0
    assert not p.page.is_checked("#threat-on")
    assert p.state()["analysis"]["threat"] is False
    # Where the other side would have no move at all: no threat, said so.
    p.open("?fen=" + urllib.request.quote("8/8/8/8/8/b7/1w6/2w5 w 0 1"))
    p.page.keyboard.press("x")  # analysis mode comes on with it
    p.page.wait_for_function("() => document.getElementById('threat-text').textContent.startsWith('No threat')", timeout=WAIT_MS)
    assert p.page.locator("#arrows .arrow.threat").count() == 0
    assert not p.errors, p.errors
    p.page.close()


def drag(p, src, dst, steps=8):
    a = p.page.locator(f'#board rect[data-square="{src}"]').bounding_box()
    b = p.page.locator(f'#board rect[data-square="{dst}"]').bounding_box()
    p.page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    p.page.mouse.down()
    p.page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=steps)
    p.page.mouse.up()


def touch_drag(p, src, dst, steps=8):
    cdp = p.page.context.new_cdp_session(p.page)
    a = p.page.locator(f'#board rect[data-square="{src}"]').bounding_box()
    b = p.page.locator(f'#board rect[data-square="{dst}"]').bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, steps + 1):
        x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_drag_and_drop(server, browser):
    p = page(server, browser)
    p.open("?fen=" + urllib.request.quote(START))
    drag(p, "c3", "d4")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1", timeout=WAIT_MS)
    assert p.moves_shown() == ["c3-d4"]
    p.check_board()
    # Dropped back on its square: still selected; dropped off the board: nothing played.
    drag(p, "f6", "f6")
    assert p.page.locator("#marks .hl-sel").count() == 1
    assert p.page.locator(".drag-ghost").count() == 0
    # Two capture paths to h8: the drop asks, as a click does; a square on the way decides.
    p.open("?fen=" + urllib.request.quote("8/6b1/8/8/3b4/8/3b4/W5b1 w"))
    drag(p, "a1", "h8")
    p.page.wait_for_selector("#choice button", timeout=WAIT_MS)
    options = sorted(p.page.eval_on_selector_all("#choice button", "bs => bs.map(b => b.dataset.move)"))
    assert options == ["a1:e5:h8", "a1:f6:h8"], options
    p.page.click('#choice button[data-move="a1:e5:h8"]')
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1", timeout=WAIT_MS)
    assert p.moves_shown() == ["a1:e5:h8"]
    p.check_board()
    assert not p.errors, p.errors
    p.page.close()
    # A finger on a phone.
    phone = page(server, browser, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    phone.open("?fen=" + urllib.request.quote(START))
    touch_drag(phone, "e3", "f4")
    phone.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1", timeout=WAIT_MS)
    assert phone.moves_shown() == ["e3-f4"]
    phone.check_board()
    assert not phone.errors, phone.errors
    phone.page.close()


def screenshots(server, browser):
    """The analysis board with a threat and tall towers, on a phone and a wide screen."""
    os.makedirs(OUT, exist_ok=True)
    fen = "8/b7/8/2(wbbbWbwBb)5/8/2(bwwwb)5/8/(BWw)7 b 3 40"
    for name, size in (("analysis-phone", (390, 844)), ("analysis-wide", (1920, 1080))):
        p = page(server, browser, viewport={"width": size[0], "height": size[1]})
        p.open("?fen=" + urllib.request.quote(fen))
        p.page.check("#analysis-on")
        p.page.keyboard.press("x")
        p.page.wait_for_selector("#arrows .arrow.threat", state="attached", timeout=WAIT_MS)
        p.page.wait_for_function("() => document.getElementById('an-depth').textContent.includes('stopped')", timeout=WAIT_MS)
        path = os.path.join(OUT, name + ".png")
        p.page.screenshot(path=path, full_page=True)
        print(f"screenshot: {path}")
        p.page.close()


TESTS = [test_takeback_in_analysis_keeps_the_tree, test_first_click_after_analysis_on,
         test_click_across_a_redraw, test_move_list_keeps_the_move_in_view,
         test_arrows_never_hide_badges, test_buried_kings_show_their_colour,
         test_up_down_between_variations, test_space_plays_the_best_move, test_threat_mode,
         test_drag_and_drop]


def main():
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    server = Server()
    failed = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            only = [n for n in os.environ.get("BROWSER_TESTS", "").split(",") if n]
            tests = [t for t in TESTS if not only or t.__name__ in only]
            for t in tests:
                t0 = time.monotonic()
                try:
                    t(server, browser)
                    print(f"ok {t.__name__} ({time.monotonic() - t0:.1f} s)")
                except Exception as e:  # report every test, then fail
                    failed.append(t.__name__)
                    print(f"FAILED {t.__name__}: {type(e).__name__}: {str(e)[:400]}")
                finally:
                    # (a failed test's pages closed too: their games end, and free the server)
                    for c in browser.contexts:
                        c.close()
            if not only or "screenshots" in only:
                screenshots(server, browser)
            browser.close()
    finally:
        server.stop()
    if failed:
        print("failed: " + ", ".join(failed))
        return 1
    print("analysis page tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
