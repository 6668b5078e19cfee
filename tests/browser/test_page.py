#!/usr/bin/env python3
"""Drives the `bashni serve` page in headless Chromium through the automation contract
(web/CONTRACT.md): plays moves by clicking (captures and ambiguous captures included) and
after every ply compares each data-tower on the board with the server's FEN; takes back;
opens FENs with towers; runs analysis and sees the score; plays Turkish draughts (all 64
squares, moves along ranks and files), Russian and Brazilian draughts (the majority rule) and Lasca
(a 7x7 board) the same way,
downloads their PDN; saves a screenshot. The move tree's and the review's tests are in
test_tree.py, those of comments, glyphs, tags and a pasted PDN in test_comments_page.py, what
the tests share in harness.py.

Run from the repository root after `cargo build --release`:
    python3 tests/browser/test_page.py
Needs Debian's chromium (/usr/bin/chromium) and Playwright for Python in a venv (no browser
download: the system Chromium is used). BASHNI=<path> picks the binary; BROWSER_OUT=<dir>
where the screenshots go (default target/browser).
"""

import json
import os
import re
import statistics
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

from harness import (ARGS, CHROMIUM, FILES, OUT, ROOT, TOWER_FENS, WAIT_MS, Page, Server, choose,
                     click_move, parse_fen, play_by_clicking, play_first_legal, until, wait_notice)
from test_tree import (test_engine_game_variation, test_pdn_variations, test_result_stays_with_its_line,
                       test_review, test_variation_from_analysis)
from test_comments_page import test_comments_round_trip, test_paste_pdn

def test_play_against_level_0(server, browser):
    p = Page(server, browser)
    p.open()
    # A new game from the dialog: White, level 0, 0.1 s per move.
    p.page.click("#btn-new")
    p.page.check('input[name=human][value=white]')
    p.page.fill("#level", "0")
    p.page.check('input[name=tmode][value=move]')
    p.page.fill("#movetime", "0.1")
    first = p.game()
    p.page.click("#new-start")
    p.page.wait_for_function(f"() => document.body.dataset.game !== '{first}'", timeout=WAIT_MS)
    st = p.wait_settled()
    assert st["level"] == 0 and st["human"] == "white", st
    assert "White to move" in p.page.inner_text("#status")
    p.check_board()
    captured, replies = 0, []
    for _ in range(40):
        st = p.wait_settled()
        p.check_board()
        if st["result"]:
            break
        m = choose(st["legal"])
        before = len(st["moves"])
        t0 = time.perf_counter()
        click_move(p, m)
        # Our ply shown, then the engine's reply (or the end).
        p.page.wait_for_function(
            f"""() => document.querySelectorAll('#moves > [data-ply]').length >= {before + 2}
                      || document.getElementById('status').dataset.state === 'over'""",
            timeout=WAIT_MS)
        replies.append(time.perf_counter() - t0)
        st = p.wait_settled()
        assert st["moves"][before] == m["move"], (st["moves"], m)
        captured += ":" in m["move"]
        # After our ply: step back one and compare too (both plies checked).
        if len(st["moves"]) > before + 1:
            p.page.click(f'#moves > [data-ply="{before + 1}"]')
            p.check_board(st["fens"][before + 1])
            p.page.keyboard.press("End")
        p.check_board()
        if captured >= 2:
            break
    assert captured >= 1, "no capture was played"
    # Arrow keys step through the game.
    n = len(p.state()["moves"])
    p.page.keyboard.press("Home")
    p.check_board(p.state()["fens"][0])
    p.page.keyboard.press("ArrowRight")
    p.check_board(p.state()["fens"][1])
    p.page.keyboard.press("End")
    # Take back: our last move and the reply go.
    st = p.state()
    if not st["result"]:
        p.page.click("#btn-takeback")
        p.page.wait_for_function(
            f"() => document.querySelectorAll('#moves > [data-ply]').length === {n - 2}", timeout=WAIT_MS)
        st = p.wait_settled()
        assert len(st["moves"]) == n - 2, st["moves"]
        p.check_board()
        assert p.page.get_attribute("#status", "data-your-turn") == "true"
    # Hint: an arrow for a legal move.
    p.page.click("#btn-hint")
    p.page.wait_for_selector("#arrows .arrow.hint", timeout=WAIT_MS)
    p.page.wait_for_function("() => document.getElementById('hint-text').textContent.includes('Hint')",
                             timeout=WAIT_MS)
    assert p.state()["hint"]["move"] in p.page.inner_text("#hint-text")
    assert p.state()["hint"]["move"] in [m["move"] for m in p.state()["legal"]]
    # Resign: the end is shown with result and reason.
    p.page.click("#btn-resign")
    p.page.wait_for_function("() => document.getElementById('status').dataset.state === 'over'",
                             timeout=WAIT_MS)
    assert p.page.get_attribute("#status", "data-result") == "0-1"
    assert p.page.get_attribute("#status", "data-reason") == "resignation"
    assert "Black wins: White resigned" in p.page.inner_text("#status")
    assert not p.errors, p.errors
    ms = sorted(r * 1000 for r in replies)
    print(f"click-to-reply at level 0 over {len(ms)} moves: median {statistics.median(ms):.1f} ms,"
          f" max {ms[-1]:.1f} ms (Playwright overhead included)")
    p.page.close()


def test_ambiguous_captures(server, browser):
    p = Page(server, browser)
    # A king on a1 takes d4 and g7 landing on e5 or on f6 between them: two paths to h8.
    p.open("?fen=" + urllib.request.quote("8/6b1/8/8/3b4/8/3b4/W5b1 w"))
    p.check_board()
    p.click("a1")
    p.click("h8")
    p.page.wait_for_selector("#choice button", timeout=WAIT_MS)
    options = sorted(p.page.eval_on_selector_all("#choice button", "bs => bs.map(b => b.dataset.move)"))
    assert options == ["a1:e5:h8", "a1:f6:h8"], options
    p.click("f6")  # the square on the way decides
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1",
                             timeout=WAIT_MS)
    assert p.moves_shown() == ["a1:f6:h8"], p.moves_shown()
    p.check_board()
    # Two captures from c3 back to c3, the same squares in the other order: the list decides.
    p.open("?fen=" + urllib.request.quote("7b/8/1b1b4/8/1b1b4/2w5/8/8 w"))
    p.click("c3")
    p.click("c3")
    p.page.wait_for_selector("#choice button", timeout=WAIT_MS)
    p.page.click('#choice button[data-move="c3:a5:c7:e5:c3"]')
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1",
                             timeout=WAIT_MS)
    assert p.moves_shown() == ["c3:a5:c7:e5:c3"]
    fen = p.check_board()
    assert parse_fen(fen)["c3"] == "wbbbb", fen
    assert not p.errors, p.errors
    p.page.close()


def test_fen_with_towers(server, browser):
    p = Page(server, browser)
    for fen in TOWER_FENS:
        p.open("?fen=" + urllib.request.quote(fen))
        got = p.check_board()
        assert parse_fen(got) == parse_fen(fen), (got, fen)
        # Every tower, tall ones included, as written in the FEN.
        assert dict(p.towers_shown()) == parse_fen(fen)
    # Flipped, the same towers on the same squares.
    p.page.click("#btn-flip")
    assert dict(p.towers_shown()) == parse_fen(TOWER_FENS[-1])
    p.page.click("#btn-flip")
    # Pasting a FEN into the box opens it too.
    p.page.click("#position-box summary")
    p.page.fill("#fen", TOWER_FENS[0])
    p.page.click("#fen-open")
    p.page.wait_for_function(
        "() => (document.getElementById('board').dataset.fen || '').startsWith('1b1b4/')",
        timeout=WAIT_MS)
    p.check_board()
    assert not p.errors, p.errors
    p.page.close()


def test_analysis(server, browser):
    p = Page(server, browser)
    p.open()
    p.page.check("#analysis-on")
    p.page.wait_for_function(
        "() => +(document.getElementById('an-score').dataset.depth || 0) >= 4", timeout=WAIT_MS)
    first = p.page.inner_text("#an-score")
    assert re.fullmatch(r"[+−]\d+\.\d\d", first), first
    assert p.page.locator("#an-lines li").count() >= 1
    assert p.page.locator("#arrows .arrow.pv1").count() == 1
    assert p.state()["thinking"] == "analysis"
    # A move that drops a man: the score changes.
    p.open("?fen=" + urllib.request.quote("8/8/8/8/8/2b5/8/w1w5 w"))
    p.page.check("#analysis-on")
    p.page.wait_for_function(
        "() => +(document.getElementById('an-score').dataset.depth || 0) >= 2", timeout=WAIT_MS)
    before = p.page.inner_text("#an-score")
    p.click("c1")
    p.click("d2")
    p.page.wait_for_function(
        f"""() => {{ const s = document.getElementById('an-score');
                   return +(s.dataset.depth || 0) >= 2 && s.textContent !== {json.dumps(before)}
                          && document.querySelectorAll('#moves > [data-ply]').length === 1; }}""",
        timeout=WAIT_MS)
    p.check_board()
    os.makedirs(OUT, exist_ok=True)
    p.page.uncheck("#analysis-on")
    p.page.wait_for_function("() => document.getElementById('analysis-panel').hidden",
                             timeout=WAIT_MS)
    until("the analysis to stop", lambda: (lambda st: st["analysis"] is None and st["thinking"] is None)(p.state()))
    assert not p.errors, p.errors
    p.page.close()


def test_turkish(server, browser):
    p = Page(server, browser)
    p.open()
    st = p.new_game("turkish")
    assert st["variant"] == "turkish" and st["level"] == 0, st
    assert p.page.get_attribute("#board", "data-variant") == "turkish"
    # Every square is playable, and the start has two full ranks of men a side.
    assert p.squares() == sorted(f + str(r) for f in FILES for r in range(1, 9))
    fen = p.check_board()
    assert len(parse_fen(fen)) == 32, fen
    assert play_by_clicking(p, 4) >= 3
    # Men move along ranks and files: every move so far is orthogonal.
    for m in p.state()["moves"]:
        path = re.split(r"[-:x]", m)
        for a, b in zip(path, path[1:]):
            assert a[0] == b[0] or a[1] == b[1], m
    pdn = p.pdn()
    assert '[GameType "30,W,8,8,A0,0"]' in pdn, pdn
    assert p.state()["moves"][0] in pdn
    # A king takes two men on one rank, landing between them on c3 or d3: the square on the
    # way decides, or the list does.
    fen = "8/8/8/8/8/1b2b1W1/8/8 w"
    p.open("?variant=turkish&fen=" + urllib.request.quote(fen))
    assert p.state()["variant"] == "turkish"
    p.check_board()
    p.click("g3")
    p.click("a3")
    p.page.wait_for_selector("#choice button", timeout=WAIT_MS)
    options = sorted(p.page.eval_on_selector_all("#choice button", "bs => bs.map(b => b.dataset.move)"))
    assert options == ["g3:c3:a3", "g3:d3:a3"], options
    p.click("d3")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1",
                             timeout=WAIT_MS)
    assert p.moves_shown() == ["g3:d3:a3"], p.moves_shown()
    p.check_board()
    assert p.page.get_attribute("#status", "data-result") == "1-0"
    p.open("?variant=turkish&fen=" + urllib.request.quote(fen))
    p.click("g3")
    p.click("a3")
    p.page.wait_for_selector("#choice button", timeout=WAIT_MS)
    p.page.click('#choice button[data-move="g3:c3:a3"]')
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1",
                             timeout=WAIT_MS)
    assert p.moves_shown() == ["g3:c3:a3"]
    p.check_board()
    # Analysis of a Turkish position: the engine scores it.
    p.open("?variant=turkish")
    p.page.check("#analysis-on")
    p.page.wait_for_function(
        "() => +(document.getElementById('an-score').dataset.depth || 0) >= 3", timeout=WAIT_MS)
    assert re.fullmatch(r"[+−]\d+\.\d\d", p.page.inner_text("#an-score"))
    legal = [m["move"] for m in p.state()["legal"]]
    # The line and its first move read at once: a deeper line may be drawn between two reads.
    line, first = p.page.evaluate("""() => {
        const li = document.querySelector('#an-lines li'), m = li && li.querySelector('.pv-move');
        return [li ? li.innerText : '', m ? m.dataset.move : null];
    }""")
    assert first in legal and first in line, (line, first, legal)
    assert not p.errors, p.errors
    p.page.close()


def test_russian(server, browser):
    p = Page(server, browser)
    p.open()
    st = p.new_game("russian")
    assert st["variant"] == "russian", st
    assert p.squares() == sorted(f + str(r) for f in FILES for r in range(1, 9)
                                 if (FILES.index(f) + r) % 2 == 1)
    assert play_by_clicking(p, 4) >= 3
    # Single pieces only: a capture takes the piece off the board.
    assert all(len(t) == 1 for _, t in p.towers_shown()), p.towers_shown()
    fen = "8/8/8/8/3b4/8/1w6/8 w"
    p.open("?variant=russian&fen=" + urllib.request.quote(fen))
    p.click("b2")
    p.click("c3")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1",
                             timeout=WAIT_MS)
    p.click("d4")
    p.click("b2")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 2",
                             timeout=WAIT_MS)
    assert p.moves_shown() == ["b2-c3", "d4:b2"], p.moves_shown()
    fen = p.check_board()
    assert parse_fen(fen) == {"b2": "b"}, fen
    assert p.page.get_attribute("#status", "data-result") == "0-1"
    assert '[GameType "25,W,8,8,A0,0"]' in p.pdn()
    assert not p.errors, p.errors
    p.page.close()


def test_brazilian(server, browser):
    """Brazilian draughts: the dark squares, a game played by clicking, the majority rule (the
    shorter capture is no legal move, the longer one is played by clicking), a man that
    passes its far rank and stays a man, the PDN's GameType 26, and analysis."""
    p = Page(server, browser)
    p.open()
    st = p.new_game("brazilian")
    assert st["variant"] == "brazilian", st
    assert p.squares() == sorted(f + str(r) for f in FILES for r in range(1, 9)
                                 if (FILES.index(f) + r) % 2 == 1)
    assert play_by_clicking(p, 4) >= 3
    fen = "8/8/5b2/8/1b1b4/2w5/8/8 w"
    p.open("?variant=brazilian&fen=" + urllib.request.quote(fen))
    # c3 could take b4 alone or d4 and f6: only the longer capture is a move.
    assert [m["move"] for m in p.state()["legal"]] == ["c3:e5:g7"], p.state()["legal"]
    p.click("c3")
    p.click("g7")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1",
                             timeout=WAIT_MS)
    assert p.moves_shown() == ["c3:e5:g7"], p.moves_shown()
    assert parse_fen(p.check_board()) == {"b4": "b", "g7": "w"}
    assert '[GameType "26,W,8,8,A0,0"]' in p.pdn()
    fen = "8/2b1b3/1w6/8/8/8/8/8 w"
    p.open("?variant=brazilian&fen=" + urllib.request.quote(fen))
    p.click("b6")
    p.click("f6")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1",
                             timeout=WAIT_MS)
    assert parse_fen(p.check_board()) == {"f6": "w"}, "a man, not a king"
    p.open("?variant=brazilian")
    p.page.check("#analysis-on")
    p.page.wait_for_function(
        "() => +(document.getElementById('an-score').dataset.depth || 0) >= 3", timeout=WAIT_MS)
    assert re.fullmatch(r"[+−]\d+\.\d\d", p.page.inner_text("#an-score"))
    assert not p.errors, p.errors
    p.page.close()


def test_lasca(server, browser):
    """Lasca on its 7x7 board: 25 squares, the corners among them; columns drawn as in
    Bashni; a game played by clicking; a capture that frees a white soldier and leaves a
    buried officer marked at its depth; the PDN's GameType."""
    p = Page(server, browser)
    p.open()
    st = p.new_game("lasca")
    assert st["variant"] == "lasca", st
    assert p.page.get_attribute("#board", "data-variant") == "lasca"
    assert p.page.get_attribute("#board", "viewBox") == "0 0 740 740"
    want = sorted(f + str(r) for f in FILES[:7] for r in range(1, 8) if (FILES.index(f) + r) % 2 == 1)
    assert p.squares() == want and len(want) == 25 and "a1" in want and "g7" in want, p.squares()
    fen = p.check_board()
    assert len(parse_fen(fen)) == 22, fen
    assert play_by_clicking(p, 4) >= 3
    # Every first move is a sacrifice: Black's answer made a column of two.
    assert any(len(t) > 1 for _, t in p.towers_shown()), p.towers_shown()
    # c3 takes d4's commander: the white soldier below it is freed and commands d4 over a
    # black officer; the capturer's column holds the black soldier at its bottom.
    fen = "7/7/7/3(bwB)3/2(wb)4/7/7 w"
    p.open("?variant=lasca&fen=" + urllib.request.quote(fen))
    assert p.state()["variant"] == "lasca"
    p.check_board()
    p.click("c3")
    p.click("e5")
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length >= 1",
                             timeout=WAIT_MS)
    assert p.moves_shown()[0] == "c3:e5", p.moves_shown()
    fen = p.check_board(p.state()["fens"][1])
    assert parse_fen(fen) == {"d4": "wB", "e5": "wbb"}, fen
    p.page.click('#moves > [data-ply="1"]')
    buried = p.page.eval_on_selector('#board g.tower[data-square="d4"]',
                                     "g => g.querySelectorAll('.king-mark').length")
    assert buried == 1, buried
    title = p.page.eval_on_selector('#board g.tower[data-square="d4"] title', "t => t.textContent")
    assert "officer (black)" in title, title
    assert '[GameType "Lasca"]' in p.pdn()
    assert not p.errors, p.errors
    p.page.close()


def test_nothing_lost(server, browser):
    """A bad FEN, a bad PDN, a tower FEN in a Turkish game, an unknown variant: the game shown
    stays exactly as it was and #notice says why; a good FEN or PDN says what was loaded."""
    p = Page(server, browser)
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[0]))
    assert "Loaded Bashni from FEN: 0 plies" in p.page.inner_text("#notice")
    m = p.state()["legal"][0]
    p.click(m["path"][0])
    p.click(m["path"][-1])
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1",
                             timeout=WAIT_MS)
    game, moves, fen = p.game(), p.moves_shown(), p.check_board()
    pdn = p.pdn()
    p.page.click("#position-box summary")
    p.page.fill("#fen", "1b1b4/nonsense w")
    p.page.click("#fen-open")
    why = wait_notice(p, "Could not open this FEN")
    assert p.game() == game and p.moves_shown() == moves, why
    assert p.check_board() == fen
    p.page.set_input_files("#pdn-file", files=[
        {"name": "bad.pdn", "mimeType": "text/plain", "buffer": b'[GameType "Bashni"]\n1. c3-h8 *\n'}])
    why = wait_notice(p, "Could not open this PDN")
    assert p.game() == game and p.moves_shown() == moves, why
    assert p.state()["moves"] == moves
    # A good PDN: its game, and what was loaded.
    p.page.set_input_files("#pdn-file", files=[
        {"name": "good.pdn", "mimeType": "text/plain", "buffer": pdn.encode()}])
    wait_notice(p, "Loaded Bashni from PDN: 1 ply")
    p.page.wait_for_function(f"() => document.body.dataset.game !== '{game}'", timeout=WAIT_MS)
    assert p.moves_shown() == moves
    # A tower FEN pasted into a Turkish game.
    p.open("?variant=turkish")
    game = p.game()
    p.page.click("#position-box summary")
    p.page.fill("#fen", TOWER_FENS[0])
    p.page.click("#fen-open")
    wait_notice(p, "Could not open this FEN")
    assert p.game() == game and p.page.get_attribute("#board", "data-variant") == "turkish"
    # An unknown variant in the address: a game all the same, and the reason.
    p.page.goto(server.url + "?variant=nonsense")
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    wait_notice(p, "nonsense")
    p.check_board()
    assert not p.errors, p.errors
    p.page.close()


def test_reload_keeps_the_game(server, browser):
    p = Page(server, browser)
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[2]))
    moves = play_first_legal(p, 3)
    p.page.click("#btn-flip")
    old = p.game()
    p.page.reload()
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    # The same game, taken up again at its own address (issue 65 #1).
    assert p.game() == old and p.page.url.endswith("/" + old), p.page.url
    p.wait_settled()
    assert p.moves_shown() == moves, (p.moves_shown(), moves)
    assert p.state()["start_fen"].split()[0] == TOWER_FENS[2].split()[0]
    assert p.page.get_attribute("#board", "data-orientation") == "black"
    p.check_board()
    # The link to this game carries it whole.
    href = p.page.get_attribute("#game-link", "href")
    assert "moves=" in href, href
    p.page.goto(server.url + href.lstrip("/"))
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    wait_notice(p, "from link: 3 plies")
    p.wait_settled()
    assert p.moves_shown() == moves
    assert not p.errors, p.errors
    p.page.close()


def contrast(fg, bg):
    def lum(c):
        rgb = [int(x) / 255 for x in re.findall(r"[\d.]+", c)[:3]]
        lin = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    a, b = sorted([lum(fg), lum(bg)], reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_flip_and_eval_bar(server, browser):
    p = Page(server, browser)
    p.open()
    assert "You play White against level" in p.page.inner_text("#opponent")
    assert p.page.get_attribute("#board", "data-orientation") == "white"
    p.page.check("#analysis-on")
    p.page.wait_for_function("() => document.getElementById('evaltext').textContent !== ''",
                             timeout=WAIT_MS)
    assert p.page.get_attribute("#eval-bar", "data-white-at") == "bottom"
    style = p.page.eval_on_selector("#evaltext", """e => { const s = getComputedStyle(e);
        return [s.color, s.backgroundColor, s.fontSize, s.writingMode, s.transform]; }""")
    assert float(style[2].rstrip("px")) >= 12, style
    assert contrast(style[0], style[1]) >= 4.5, style
    assert style[3] == "horizontal-tb", style
    # The whole score fits its chip.
    assert p.page.eval_on_selector("#evaltext", "e => e.scrollWidth <= e.clientWidth + 1"), \
        p.page.inner_text("#evaltext")
    # White's end of the bar on White's side of the board: the fill starts at the bottom.
    fill = p.page.eval_on_selector("#evalfill", "e => [e.getBoundingClientRect().bottom, e.parentElement.getBoundingClientRect().bottom]")
    assert abs(fill[0] - fill[1]) <= 2, fill
    p.page.click("#btn-flip")
    assert p.page.get_attribute("#board", "data-orientation") == "black"
    assert p.page.get_attribute("#eval-bar", "data-white-at") == "top"
    fill = p.page.eval_on_selector("#evalfill", "e => [e.getBoundingClientRect().top, e.parentElement.getBoundingClientRect().top]")
    assert abs(fill[0] - fill[1]) <= 2, fill
    p.page.keyboard.press("f")
    assert p.page.get_attribute("#board", "data-orientation") == "white"
    assert p.page.get_attribute("#eval-bar", "data-white-at") == "bottom"
    assert not p.errors, p.errors
    p.page.close()


def test_phone(server, browser, shot=None):
    p = Page(server, browser)
    p.page.set_viewport_size({"width": 390, "height": 844})
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[2]))
    width = "() => document.documentElement.scrollWidth"
    assert p.page.evaluate(width) <= 390
    play_first_legal(p, 2)
    p.page.click('#moves > [data-ply="1"]')
    p.page.check("#analysis-on")
    p.page.select_option("#multipv", "3")
    p.page.wait_for_function(
        "() => +(document.getElementById('an-score').dataset.depth || 0) >= 6 && document.querySelectorAll('#an-lines li').length === 3",
        timeout=WAIT_MS)
    p.page.locator("#an-lines li:first-child .pv-move").nth(1).click()
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-variation]').length >= 1",
                             timeout=WAIT_MS)
    p.page.click("#position-box summary")
    assert p.page.evaluate(width) <= 390, p.page.evaluate(width)
    board = p.page.eval_on_selector("#board", "e => e.getBoundingClientRect().toJSON()")
    assert board["left"] >= 0 and board["right"] <= 390 and board["width"] >= 280, board
    for b in ["#btn-new", "#btn-flip", "#nav-prev", "#fen-open"]:
        box = p.page.eval_on_selector(b, "e => e.getBoundingClientRect().toJSON()")
        assert box["right"] <= 390 and box["height"] >= 24, (b, box)
    if shot:
        p.page.evaluate("window.scrollTo(0, 0)")
        p.page.screenshot(path=shot, full_page=True)
        print(f"screenshot: {shot}")
    p.page.click("#btn-new")
    assert p.page.evaluate(width) <= 390
    p.page.keyboard.press("Escape")
    assert not p.errors, p.errors
    p.page.close()


def test_buried_king(server, browser):
    p = Page(server, browser)
    p.open("?fen=" + urllib.request.quote("8/8/8/8/3(bBww)4/8/1w6/8 w"))
    tower = '#board [data-tower="bBww"]'
    assert p.page.get_attribute(tower, "data-kings") == "1"
    assert p.page.locator(tower + " .king-mark").count() == 1
    assert p.page.text_content(tower + " .badge") == "4"
    assert "1 king" in p.page.text_content(tower + " title")
    # A commanding king over a buried one, and a tall tower (its badge says 9).
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[1]))
    assert p.page.locator('#board [data-tower="BWw"] .king-mark').count() == 2
    assert p.page.locator('#board [data-tower="Wbbbbwwbb"] .king-mark').count() == 1
    assert p.page.text_content('#board [data-tower="Wbbbbwwbb"] .badge') == "9"
    # The tower line follows the position shown and clears on an empty square.
    st = p.state()
    m = st["legal"][0]
    src, dst = m["path"][0], m["path"][-1]
    tower = parse_fen(st["fens"][-1])[src]
    p.click(src)
    assert tower in p.page.inner_text("#tower-info")
    p.click(dst)
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-ply]').length === 1", timeout=WAIT_MS)
    p.click(dst)
    after = p.page.inner_text("#tower-info")
    assert after.startswith(dst), after
    p.page.keyboard.press("Home")
    assert p.page.inner_text("#tower-info") == ""
    p.click(src)
    assert tower in p.page.inner_text("#tower-info")
    p.click("h2")
    assert p.page.inner_text("#tower-info") == ""
    assert not p.errors, p.errors
    p.page.close()


def test_serve_variant(server, browser):
    """`bashni serve --variant russian`: a plain address starts a game of Russian draughts."""
    russian = Server("--variant", "russian")
    try:
        p = Page(russian, browser)
        p.open()
        st = p.state()
        assert st["variant"] == "russian", st
        assert p.page.get_attribute("#board", "data-variant") == "russian"
        assert p.page.text_content("#game-name") == "Russian draughts"
        p.check_board()
        p.page.close()
    finally:
        russian.stop()


def screenshot(server, browser):
    """The README's picture: a middlegame with towers, analysis on, two lines."""
    p = Page(server, browser)
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[2]))
    p.page.check("#analysis-on")
    p.page.select_option("#multipv", "3")
    p.page.wait_for_function(
        """() => +(document.getElementById('an-score').dataset.depth || 0) >= 8
                 && document.querySelectorAll('#an-lines li').length === 3""", timeout=WAIT_MS)
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "page.png")
    p.page.screenshot(path=path)
    print(f"screenshot: {path}")
    p.page.close()


def main():
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    server = Server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            tests = [test_play_against_level_0, test_ambiguous_captures, test_fen_with_towers,
                     test_analysis, test_turkish, test_russian, test_brazilian, test_lasca,
                     test_serve_variant,
                     test_nothing_lost, test_reload_keeps_the_game, test_flip_and_eval_bar,
                     test_variation_from_analysis, test_engine_game_variation, test_phone,
                     test_buried_king, test_review, test_pdn_variations,
                     test_result_stays_with_its_line, test_comments_round_trip, test_paste_pdn]
            # BROWSER_TESTS=name,name runs only those (and no screenshot).
            only = [n for n in os.environ.get("BROWSER_TESTS", "").split(",") if n]
            if only:
                tests = [t for t in tests if t.__name__ in only]
            for t in tests:
                t0 = time.monotonic()
                t(server, browser)
                print(f"ok {t.__name__} ({time.monotonic() - t0:.1f} s)")
            if not only:
                screenshot(server, browser)
                # The README's pictures of the analysis view with a variation, and a phone.
                docs = os.path.join(ROOT, "docs")
                test_variation_from_analysis(server, browser, os.path.join(docs, "serve-variation.png"))
                test_phone(server, browser, os.path.join(docs, "serve-phone.png"))
                test_review(server, browser, os.path.join(docs, "serve-review.png"))
                test_pdn_variations(server, browser, os.path.join(docs, "serve-nested.png"))
            browser.close()
    finally:
        server.stop()
    print("browser tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
