"""Browser tests of the move tree and the game review: variations (from analysis lines,
against the engine, nested ones from a PDN), the result of a finished main line, and a review
of a game between level 0 and full strength. Run by test_page.py."""

import json
import os
import re
import subprocess
import urllib.request

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from harness import (BASHNI, DEADLINE_S, OUT, TOWER_FENS, WAIT_MS, Page, click_move, play_by_clicking,
                     play_first_legal, until, wait_notice)


def test_variation_from_analysis(server, browser, shot=None):
    p = Page(server, browser)
    p.open("?fen=" + urllib.request.quote(TOWER_FENS[2]))
    main = play_first_legal(p, 2)
    p.page.click('#moves > [data-ply="1"]')
    # The position shown in move numbers (the FEN starts at move 14), never in plies.
    assert p.page.inner_text("#status").startswith(f"After 14. {main[0]}: Black to move"), p.page.inner_text("#status")
    p.page.check("#analysis-on")
    p.page.select_option("#multipv", "2")
    p.page.wait_for_function(
        """() => +(document.getElementById('an-score').dataset.depth || 0) >= 6
                 && document.querySelectorAll('#an-lines li').length === 2
                 && document.querySelectorAll('#an-lines li:first-child .pv-move').length >= 3""",
        timeout=WAIT_MS)
    # Move numbers in the lines (waited for: the lines are redrawn as the search deepens).
    p.page.wait_for_function(
        "() => document.querySelectorAll('#an-lines li:first-child .pv-num').length >= 1",
        timeout=WAIT_MS)
    # The second line's second move: a variation from ply 1.
    # (read and clicked in one go, tried again while no line has two moves: the lines
    # change as the search deepens)
    pv = until("an analysis line with two moves to click", lambda: p.page.evaluate("""() => {
            const lis = [...document.querySelectorAll('#an-lines li')]
                .map(li => [...li.querySelectorAll('.pv-move')]).filter(ms => ms.length >= 2);
            const ms = lis[1] || lis[0];
            if (!ms) return null;
            ms[1].click();
            return ms.map(e => e.dataset.move); }"""))
    line = main[:1] + pv[:2]
    p.page.wait_for_function(
        "() => document.getElementById('board').dataset.ply === '3' && document.querySelectorAll('#moves > [data-variation]').length >= 1",
        timeout=WAIT_MS)
    st = p.state()
    assert st["moves"] == line, (st["moves"], line)
    assert p.moves_shown() == main, "the main line stays"
    var = p.page.eval_on_selector_all("#moves > [data-variation]", "els => els.map(e => [e.dataset.move, e.dataset.ply])")
    # Its moves after the last one in common with the main line (the line may begin with
    # the main line's second move).
    fork = 2 if line[1] == main[1] else 1
    assert var == [[m, str(fork + i + 1)] for i, m in enumerate(line[fork:])], var
    p.check_board(st["fens"][-1])
    if shot:
        # Two lines, or one where the position has a single legal move (a forced capture:
        # the clicked line differs from run to run).
        # The picture waits for a settled analysis (depth 8, or a proven result, which may
        # stop deepening) but is taken either way: how deep the analysis got is no verdict.
        want = min(2, len(st["legal"]))
        try:
            p.page.wait_for_function(
                f"""() => (+(document.getElementById('an-score').dataset.depth || 0) >= 8
                           || /wins/.test(document.getElementById('an-score').textContent))
                         && document.querySelectorAll('#an-lines li').length === {want}""",
                timeout=WAIT_MS)
        except PlaywrightTimeout:
            print(f"note: {shot} taken before the analysis settled")
        p.page.screenshot(path=shot)
        print(f"screenshot: {shot}")
    # A variation survives a reload too.
    p.page.reload()
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-variation]').length >= 1",
                             timeout=WAIT_MS)
    assert p.moves_shown() == main
    # Into the variation, back to the main line, then the variation becomes the main line.
    p.page.click('#moves > [data-variation]:last-child')
    p.page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{len(line)}'", timeout=WAIT_MS)
    assert p.state()["moves"] == line
    p.page.click('#moves > [data-ply="2"]:not([data-variation])')
    # (the server holds the main line again, or a line beginning with it)
    until("the main line again at ply 2",
          lambda: p.state()["moves"][:2] == main and p.page.get_attribute("#board", "data-ply") == "2")
    p.check_board(p.state()["fens"][2])
    p.page.click('#moves > [data-variation]:last-child')
    p.page.wait_for_selector("#var-promote:not([hidden])", timeout=WAIT_MS)
    with p.page.expect_download() as dl:
        p.page.click("#position-box summary")
        p.page.click("#pdn-tree")
    text = open(dl.value.path()).read()
    assert "(" in text and line[-1] in text and main[-1] in text, text
    p.page.click("#var-promote")
    p.page.wait_for_function(
        f"() => [...document.querySelectorAll('#moves > [data-ply]:not([data-variation])')].map(e => e.dataset.move).join() === {json.dumps(','.join(line))}",
        timeout=WAIT_MS)
    var = p.page.eval_on_selector_all("#moves > [data-variation]", "els => els.map(e => e.dataset.move)")
    assert var == main[fork:], var
    assert not p.errors, p.errors
    p.page.close()


def test_engine_game_variation(server, browser):
    """Against the engine: a move from an earlier position in analysis mode is a variation;
    leaving analysis mode brings the server game back to the main line, which never changed."""
    p = Page(server, browser)
    p.open()
    p.new_game("bashni")
    play_by_clicking(p, 1)
    main = p.state()["moves"]
    assert len(main) == 2, main
    p.page.check("#analysis-on")
    p.page.wait_for_function("() => document.getElementById('status').dataset.thinking === 'analysis'",
                             timeout=WAIT_MS)
    p.page.keyboard.press("Home")  # (the Analysis checkbox has the focus: keys still work)
    assert p.page.get_attribute("#board", "data-ply") == "0"
    legal = p.server.get(f"/api/games/{p.game()}/legal?ply=0")["legal"]
    m = [x for x in legal if x["move"] != main[0]][0]
    def selected():
        p.click(m["path"][0])
        return p.page.locator("#marks .hl-sel").count()
    until(f"a click on {m['path'][0]} to select it", selected)
    p.click(m["path"][-1])
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-variation]').length === 1",
                             timeout=WAIT_MS)
    assert p.moves_shown() == main
    assert p.state()["moves"] == [m["move"]]
    assert p.page.get_attribute("#moves > [data-variation]", "data-move") == m["move"]
    p.page.uncheck("#analysis-on")
    until("the main line without analysis", lambda: (lambda st: st["moves"] == main and st["analysis"] is None)(p.state()))
    p.wait_settled()
    assert p.moves_shown() == main
    assert p.page.locator("#moves > [data-variation]").count() == 1
    assert not p.errors, p.errors
    p.page.close()


def level0_game(plies=40):
    """A game of level 0 (White) against full strength (Black), played by `bashni match` to
    depth 8 a move (a fraction of a second; a depth, not a time, so that a busy machine cannot
    make an engine lose on time): its PDN."""
    os.makedirs(OUT, exist_ok=True)
    out = os.path.join(OUT, "level0-vs-full.pdn")
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([BASHNI, "match", "--engine", f"cmd={BASHNI}", "name=level 0",
                    "option.Skill Level=0", "--engine", f"cmd={BASHNI}", "name=full strength",
                    "--games", "1", "--initial", "--depth", "8", "--max-plies", str(plies),
                    "--pdn", out, "--quiet"],
                   check=True, capture_output=True, timeout=DEADLINE_S)
    with open(out) as f:
        return f.read()


def review_on_page(p, server, pdn):
    """Loads `pdn` on the page, reviews it with the page's button, and checks the graph (one
    point per position after a move) and the list (every move's score, the server's marks).
    Returns the server's report and the list's [move, eval, mark] rows."""
    p.page.set_input_files("#pdn-file", files=[
        {"name": "level0.pdn", "mimeType": "text/plain", "buffer": pdn.encode()}])
    wait_notice(p, "Loaded Bashni from PDN")
    p.page.wait_for_function("() => !document.getElementById('review').dataset.progress", timeout=WAIT_MS)
    moves = p.wait_settled()["moves"]
    n = len(moves)
    assert n >= 10 and p.moves_shown() == moves, (n, moves)
    assert p.page.locator("#review-graph [data-ply]").count() == 0
    p.page.click("#review")
    # Progress while it runs, k/n.
    p.page.wait_for_function(f"() => /^\\d+\\/{n}$/.test(document.getElementById('review').dataset.progress || '')",
                             timeout=WAIT_MS)
    p.page.wait_for_function(f"() => document.getElementById('review').dataset.progress === '{n}/{n}'",
                             timeout=WAIT_MS)
    report = until("the review to end",
                   lambda: (lambda r: None if r["running"] else r)(server.get(f"/api/games/{p.game()}/review")))
    assert len(report["moves"]) == n, report
    p.page.wait_for_function("() => !document.getElementById('review').disabled", timeout=WAIT_MS)
    plies = p.page.eval_on_selector_all("#review-graph [data-ply]", "els => els.map(e => +e.dataset.ply)")
    assert plies == list(range(1, n + 1)), plies
    rows = p.page.eval_on_selector_all(
        "#moves > [data-ply]:not([data-variation])",
        "els => els.map(e => [e.dataset.move, e.dataset.eval ?? null, e.dataset.mark ?? null])")
    assert len(rows) == n
    for (move, ev, mark), r in zip(rows, report["moves"]):
        assert move == r["move"]
        # A game the rules ended shows its result (`1-0`), not a mate in 0.
        # A score of ten men or more is marked decisive and shown as +− / −+.
        want = (r["eval"]["result"] if "result" in r["eval"]
                else ("-M" if r["eval"]["mate"] < 0 else "M") + str(abs(r["eval"]["mate"]))
                if "mate" in r["eval"]
                else ("+−" if r["eval"]["cp"] > 0 else "−+") if r["eval"].get("decisive")
                else f"{r['eval']['cp'] / 100:.2f}")
        assert ev == want, (move, ev, r)
        assert mark == r["mark"], (move, mark, r)
    assert all(re.fullmatch(r"-?(\d+\.\d\d|M[1-9]\d*)|1-0|0-1|1/2-1/2|\+−|−\+", ev) for _, ev, _ in rows), rows
    return report, rows


def test_review(server, browser, shot=None):
    """A game of level 0 against full strength, loaded as a PDN and reviewed on the page: one
    graph point per position after a move, every move scored, level 0's mistakes marked."""
    p = Page(server, browser)
    p.open()
    # Level 0 plays White for 20 moves (the captures forced on it are many): a game in which it
    # makes no mistake the review sees is rare but possible, so up to three games are played.
    for _ in range(3):
        pdn = level0_game()
        assert '[White "level 0"]' in pdn, pdn
        report, rows = review_on_page(p, server, pdn)
        white_marks = [i + 1 for i, (_, _, m) in enumerate(rows) if i % 2 == 0 and m]
        if white_marks:
            break
    assert white_marks, f"no move of level 0 marked in three games: {rows}"
    assert p.page.locator(f'#review-graph [data-ply="{white_marks[0]}"][data-mark]').count() == 1
    # The summary counts them.
    white = report["summary"]["white"]
    assert white["inaccuracies"] + white["mistakes"] + white["blunders"] >= 1, white
    cells = p.page.eval_on_selector_all('#review-summary tr[data-side="white"] td', "els => els.map(e => e.textContent)")
    assert cells[1:4] == [str(white["inaccuracies"]), str(white["mistakes"]), str(white["blunders"])], cells
    # A click on a marked move's point shows it; the position before it has the best move as
    # an arrow and in words.
    ply = next(r["ply"] for r in report["moves"] if r["mark"] and r["best"] and r["ply"] % 2 == 1)
    p.page.locator(f'#review-graph [data-ply="{ply}"]').click()
    p.page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{ply}'", timeout=WAIT_MS)
    p.page.click(f'#moves > [data-ply="{ply - 1}"]') if ply > 1 else p.page.click("#nav-first")
    p.page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{ply - 1}'", timeout=WAIT_MS)
    best = report["moves"][ply - 1]["best"]
    assert p.page.locator("#board .arrow.best").count() == 1
    assert f"Best was {best}" in p.page.inner_text("#review-best"), p.page.inner_text("#review-best")
    assert not p.errors, p.errors
    if shot:
        p.page.screenshot(path=shot)
        print(f"screenshot: {shot}")
    p.page.close()


# A Bashni game with nested variations: c3-b4 instead of the first move, and inside it f6-e5
# instead of f6-g5; b6-a5 instead of Black's first move.
VAR_PDN = ('[GameType "Bashni"]\n\n1. c3-d4 (1. c3-b4 f6-g5 (1... f6-e5 2. b4-a5) 2. g3-h4) '
           '1... f6-e5 (1... b6-a5) 2. d4xf6 g7:e5 *\n')


VAR_MAIN = ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]


# Each variation move as [move, ply, depth], in the list's order.
VAR_SHOWN = [["c3-b4", 1, 1], ["f6-g5", 2, 1], ["f6-e5", 2, 2], ["b4-a5", 3, 2], ["g3-h4", 3, 1],
             ["b6-a5", 2, 1]]


def variations_shown(p):
    return p.page.eval_on_selector_all(
        "#moves > [data-variation]", "els => els.map(e => [e.dataset.move, +e.dataset.ply, +e.dataset.depth])")


def wait_vars(p, want):
    p.page.wait_for_function(
        f"""() => JSON.stringify([...document.querySelectorAll('#moves > [data-variation]')]
                 .map(e => [e.dataset.move, +e.dataset.ply, +e.dataset.depth])) === {json.dumps(json.dumps(want, separators=(',', ':')))}""",
        timeout=WAIT_MS)


def test_pdn_variations(server, browser, shot=None):
    """A PDN's nested variations come into the move tree, nested in the list; a move inside a
    variation starts a sub-variation; the tree survives the PDN download, a reload and a link;
    deleting and promoting work at any depth."""
    p = Page(server, browser)
    p.open()
    game = p.game()
    bad = VAR_PDN.replace("b4-a5", "b4-c7")
    p.page.set_input_files("#pdn-file", files=[
        {"name": "bad.pdn", "mimeType": "text/plain", "buffer": bad.encode()}])
    why = wait_notice(p, "Could not open this PDN")
    assert "in the variation 'c3-b4 f6-e5 b4-c7': move 3" in why and "\n" not in why, why
    assert p.game() == game
    p.page.set_input_files("#pdn-file", files=[
        {"name": "vars.pdn", "mimeType": "text/plain", "buffer": VAR_PDN.encode()}])
    wait_notice(p, "Loaded Bashni from PDN: 4 plies, 3 variations")
    p.wait_settled()
    assert p.moves_shown() == VAR_MAIN
    assert variations_shown(p) == VAR_SHOWN, variations_shown(p)
    # The nested variation's last move shows its position.
    p.page.click('#moves > [data-variation][data-move="b4-a5"]')
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '3'", timeout=WAIT_MS)
    until("the nested variation's line", lambda: p.state()["moves"] == ["c3-b4", "f6-e5", "b4-a5"])
    p.check_board()
    assert p.page.locator("#moves li.current").count() == 1
    assert p.page.get_attribute("#moves li.current", "data-move") == "b4-a5"
    # The PDN with variations: nested parentheses.
    p.page.click("#position-box summary")
    with p.page.expect_download() as dl:
        p.page.click("#pdn-tree")
    text = open(dl.value.path()).read()
    assert "1. c3-d4 (1. c3-b4 f6-g5 (1... f6-e5 2. b4-a5) 2. g3-h4) 1... f6-e5 (1... b6-a5) 2. d4:f6 g7:e5 *" in text, text
    # A reload keeps the whole tree.
    p.page.reload()
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    wait_vars(p, VAR_SHOWN)
    assert p.moves_shown() == VAR_MAIN
    # So does the link to this game.
    href = p.page.get_attribute("#game-link", "href")
    assert "vars=" in href, href
    p.page.goto(server.url + href.lstrip("/"))
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    wait_notice(p, "from link: 4 plies, 3 variations")
    wait_vars(p, VAR_SHOWN)
    # A move inside the nested variation, from its second position: a variation inside it.
    p.page.click('#moves > [data-variation][data-move="f6-e5"]')
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '2'", timeout=WAIT_MS)
    legal = server.get(f"/api/games/{p.game()}/legal?ply=2")["legal"]
    m = next(x for x in legal if x["move"] != "b4-a5")
    click_move(p, m)
    want = VAR_SHOWN[:4] + [[m["move"], 3, 3]] + VAR_SHOWN[4:]
    wait_vars(p, want)
    assert p.state()["moves"] == ["c3-b4", "f6-e5", m["move"]]
    p.check_board()
    if shot:
        p.page.screenshot(path=shot)
        print(f"screenshot: {shot}")
    # Nested, on a phone: nothing wider than the screen.
    p.page.set_viewport_size({"width": 390, "height": 844})
    assert p.page.evaluate("() => document.documentElement.scrollWidth") <= 390
    box = p.page.eval_on_selector("#moves", "e => [e.getBoundingClientRect().right, e.scrollWidth <= e.clientWidth]")
    assert box[0] <= 390 and box[1], box
    p.page.set_viewport_size({"width": 1180, "height": 820})
    # Deleted: the variation it was in is shown, at the position it left.
    p.page.click("#var-delete")
    wait_vars(p, VAR_SHOWN)
    assert p.page.get_attribute("#board", "data-ply") == "2"
    # The nested variation made the main line: the old main line a variation, with its own.
    p.page.click('#moves > [data-variation][data-move="b4-a5"]')
    p.page.wait_for_selector("#var-promote:not([hidden])", timeout=WAIT_MS)
    p.page.click("#var-promote")
    p.page.wait_for_function(
        "() => [...document.querySelectorAll('#moves > [data-ply]:not([data-variation])')].map(e => e.dataset.move).join() === 'c3-b4,f6-e5,b4-a5'",
        timeout=WAIT_MS)
    assert variations_shown(p) == [["c3-d4", 1, 1], ["f6-e5", 2, 1], ["b6-a5", 2, 2], ["d4:f6", 3, 1],
                                   ["g7:e5", 4, 1], ["f6-g5", 2, 1], ["g3-h4", 3, 1]], variations_shown(p)
    assert not p.errors, p.errors
    # A stored variation the server refuses (a damaged localStorage) costs only the variations
    # when the game is created again: the server closed it (as after a restart), and a second
    # tab (the first one would store its game again on leaving) opens it.
    gid = p.game()
    p.page.evaluate("""() => { const s = JSON.parse(localStorage.getItem('bashni-game'));
        s.vars.push({ moves: ['c3-d4', 'h6-h5'] });
        localStorage.setItem('bashni-game', JSON.stringify(s)); }""")
    req = urllib.request.Request(server.url + f"api/games/{gid}", method="DELETE")
    urllib.request.urlopen(req, timeout=30).read()
    second = Page(server, browser, p.page.context)
    second.open()
    why = wait_notice(second, "The stored variations could not be restored")
    assert "in the variation 'c3-d4 h6-h5': move 2" in why, why
    assert second.moves_shown() == ["c3-b4", "f6-e5", "b4-a5"]
    assert variations_shown(second) == []
    assert not second.errors, second.errors
    second.page.close()
    p.page.close()


def test_result_stays_with_its_line(server, browser):
    """A finished main line's result follows its last move in the list, and stays (there and
    in #status) while a variation is shown and after it."""
    p = Page(server, browser)
    p.open("?moves=c3-d4,f6-e5")
    assert p.page.locator("#moves-result").count() == 0
    p.page.click("#btn-resign")
    p.page.wait_for_function("() => document.getElementById('status').dataset.state === 'over'",
                             timeout=WAIT_MS)
    assert p.page.get_attribute("#status", "data-result") == "0-1"
    last = "e => [...e.parentElement.children].pop() === e"
    assert p.page.inner_text("#moves-result") == "0-1"
    assert p.page.eval_on_selector("#moves-result", last)
    assert p.page.locator("#moves > [data-ply]").count() == 2
    assert p.moves_shown() == ["c3-d4", "f6-e5"]
    # A variation from ply 1: it goes on; the main line's result stays in the list.
    p.page.click('#moves > [data-ply="1"]')
    legal = server.get(f"/api/games/{p.game()}/legal?ply=1")["legal"]
    m = next(x for x in legal if x["move"] != "f6-e5")
    click_move(p, m)
    p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-variation]').length === 1",
                             timeout=WAIT_MS)
    assert p.page.get_attribute("#status", "data-state") == "white-to-move"
    assert p.page.inner_text("#moves-result") == "0-1"
    # Back to the main line's end: its result, as it was.
    p.page.click('#moves > [data-ply="2"]:not([data-variation])')
    p.page.wait_for_function("() => document.getElementById('status').dataset.state === 'over'",
                             timeout=WAIT_MS)
    assert p.page.get_attribute("#status", "data-result") == "0-1"
    assert p.page.get_attribute("#status", "data-reason") == "resignation"
    assert p.state()["moves"] == ["c3-d4", "f6-e5"]
    assert p.page.inner_text("#moves-result") == "0-1"
    # A reload: the same end.
    p.page.reload()
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    p.page.wait_for_function("() => document.getElementById('status').dataset.reason === 'resignation'",
                             timeout=WAIT_MS)
    assert p.moves_shown() == ["c3-d4", "f6-e5"]
    assert p.page.inner_text("#moves-result") == "0-1"
    assert p.page.locator("#moves > [data-variation]").count() == 1
    # Its PDN loaded back: the same end.
    game = p.game()
    p.page.set_input_files("#pdn-file", files=[
        {"name": "resigned.pdn", "mimeType": "text/plain", "buffer": p.pdn().encode()}])
    wait_notice(p, "Loaded Bashni from PDN: 2 plies, 0-1 Black wins: White resigned")
    assert p.game() != game
    assert p.page.inner_text("#moves-result") == "0-1"
    assert p.page.get_attribute("#status", "data-reason") == "resignation"
    assert not p.errors, p.errors
    p.page.close()
