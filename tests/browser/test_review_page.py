"""Browser tests of the page's game review (issue 44, items 3, 4 and 8): a review at a node
budget gives the same marks every time (three reviews of one game gave 1/0/8, 0/2/5 and 0/4/5
at 0.2 s a position); a reload shows the review again without a new one; the eval graph is
drawn as the eval bar (White's advantage light and above the axis), names the move under the
pointer in move numbers, and a click or a drag moves the board; the review speaks in move
numbers; each side's counts and the `m`/`M` keys jump to the marked moves; each side's
accuracy is lichess' formula on the drop in winning chances; "learn from your mistakes" puts
the marked positions back and judges the moves tried. Screenshots at 390x844 and 1920x1080.

Run alone: target/tmp/playwright/bin/python tests/browser/test_review_page.py (after `cargo
build --profile suite`); BROWSER_TESTS=name,name runs only those."""

import json
import math
import os
import re
import sys
import time
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

from harness import ARGS, CHROMIUM, OUT, WAIT_MS, Page, Server, click_move, wait_notice

# A review of 30 plies at the page's node budget: generous, only so that a broken page
# cannot hang the test (no verdict depends on the machine's speed).
REVIEW_MS = 600_000
PLIES = 30


def post(server, path, body):
    req = urllib.request.Request(server.url + path.lstrip("/"), data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def a_pdn(server):
    """A Bashni game of PLIES plies, each move chosen by a fixed rule (so mistakes of both
    sides), as the server writes its PDN."""
    _, st = post(server, "/api/games", {"human": "both"})
    gid = st["id"]
    while len(st["moves"]) < PLIES and not st["result"]:
        legal = st["legal"]
        _, st = post(server, f"/api/games/{gid}/move",
                     {"move": legal[(len(st["moves"]) * 5 + 3) % len(legal)]["move"]})
    with urllib.request.urlopen(server.url + f"api/games/{gid}/pdn", timeout=30) as r:
        pdn = r.read().decode()
    req = urllib.request.Request(server.url + f"api/games/{gid}", method="DELETE")
    urllib.request.urlopen(req, timeout=30).read()
    return pdn, st["moves"]


def rows(p):
    return p.page.eval_on_selector_all(
        "#moves > [data-ply]:not([data-variation])",
        "els => els.map(e => [e.dataset.move, e.dataset.eval ?? null, e.dataset.mark ?? null])")


def summary_cells(p):
    return p.page.eval_on_selector_all(
        "#review-summary tr[data-side] td", "els => els.map(e => e.textContent)")


def server_review(p):
    try:
        return p.server.get(f"/api/games/{p.game()}/review")
    except urllib.error.HTTPError as e:
        assert e.code == 404, e
        return None


def review(p, n):
    """Clicks #review and waits for the server's whole report, then for the page to show it."""
    before = server_review(p)
    run = before["run"] + 1 if before else 1
    p.page.wait_for_function("() => !document.getElementById('review').disabled", timeout=WAIT_MS)
    p.page.click("#review")
    start = time.monotonic()
    while True:
        report = server_review(p)
        if report and report["run"] == run and not report["running"]:
            break
        assert time.monotonic() - start < REVIEW_MS / 1000, report
        time.sleep(0.1)
    assert len(report["moves"]) == n, report
    p.page.wait_for_function(
        f"""() => document.getElementById('review').dataset.progress === '{n}/{n}'
                  && !document.getElementById('review').disabled""", timeout=WAIT_MS)
    return report


def load(p, pdn):
    p.page.set_input_files("#pdn-file", files=[
        {"name": "game.pdn", "mimeType": "text/plain", "buffer": pdn.encode()}])
    wait_notice(p, "Loaded Bashni from PDN")
    return p.wait_settled()["moves"]


def board_ply(p, ply):
    p.page.wait_for_function(f"() => document.getElementById('board').dataset.ply === '{ply}'",
                             timeout=WAIT_MS)


def move_name(ply, move):
    """Move numbers of a game from Bashni's start (White first)."""
    return f"{(ply + 1) // 2}{'.' if ply % 2 else '...'} {move}"


def test_reproducible_and_kept(server, browser, ctx):
    """Three reviews of one game on the page give the same marks, scores and summary; a
    reload shows that review again, and no new one runs."""
    p = Page(server, browser)
    p.open()
    moves = load(p, ctx["pdn"])
    n = len(moves)
    first = review(p, n)
    assert first["budget"] == {"nodes": 150000}, first["budget"]
    shown = rows(p)
    assert any(m for _, _, m in shown), f"no move marked: {shown}"
    cells = summary_cells(p)
    for _ in range(2):
        again = review(p, n)
        assert again["moves"] == first["moves"] and again["summary"] == first["summary"]
        assert rows(p) == shown and summary_cells(p) == cells
    assert "150,000 nodes a position" in p.page.inner_text("#review-status")
    # A reload: the same game (the server kept it), its review shown again; none runs anew.
    runs = server_review(p)["run"]
    p.page.reload()
    p.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    p.wait_settled()
    p.page.wait_for_function("() => !document.getElementById('review-summary').hidden", timeout=WAIT_MS)
    assert rows(p) == shown and summary_cells(p) == cells, (rows(p), shown)
    assert p.page.locator("#review-graph [data-ply]").count() == n
    assert server_review(p)["run"] == runs, "the reload reviewed the game again"
    # The game closed on the server (a restart): a reload opens it again from the browser's
    # copy, with the same review, at once, on a new game of the server that has none.
    old = p.game()
    req = urllib.request.Request(server.url + f"api/games/{old}", method="DELETE")
    urllib.request.urlopen(req, timeout=30).read()
    p.page.reload()
    p.page.wait_for_function(f"() => document.body.dataset.game && document.body.dataset.game !== '{old}'",
                             timeout=WAIT_MS)
    p.wait_settled()
    p.page.wait_for_function("() => !document.getElementById('review-summary').hidden", timeout=WAIT_MS)
    assert rows(p) == shown and summary_cells(p) == cells, (rows(p), shown)
    assert server_review(p) is None, "the reload reviewed the game again"
    assert not p.errors, p.errors
    ctx["report"] = first
    ctx["page"] = p


def test_graph(server, browser, ctx):
    """White's advantage light and above the axis, Black's dark and below; the move under
    the pointer in move numbers with its score; a click and a drag move the board."""
    p, report = ctx["page"], ctx["report"]
    g = p.page.locator("#review-graph")
    assert p.page.locator("#review-graph .axis").count() == 1
    box = g.bounding_box()
    n = len(report["moves"])
    # Each point is above the axis when White is better, below when Black is.
    pts = p.page.eval_on_selector_all(
        "#review-graph [data-ply]", "els => els.map(e => [+e.dataset.ply, +e.getAttribute('cy')])")
    for (ply, cy), r in zip(pts, report["moves"]):
        cp = r["eval"].get("cp")
        if cp is not None and abs(cp) >= 30:
            assert (cy < 40) == (cp > 0), (ply, cy, r)
    # The fill between axis and curve: the light one above, at a ply White leads by a man
    # or more; the dark one below where Black does.
    def fill_at(ply, cp):
        x = box["x"] + box["width"] * ply / n
        frac = math.tanh(cp / 100 / 2.5) * 0.5  # of the half height
        y = box["y"] + box["height"] / 2 - box["height"] / 2 * frac * 0.95
        return p.page.evaluate(f"() => document.elementFromPoint({x}, {y}).getAttribute('class')")
    checked = set()
    for r in report["moves"][1:-1]:
        cp = r["eval"].get("cp")
        if cp is None or abs(cp) < 150 or r["eval"].get("decisive"):
            continue
        # Only where the curve stays on one side near the ply.
        nb = [report["moves"][r["ply"] - 2]["eval"].get("cp"), report["moves"][r["ply"]]["eval"].get("cp")]
        if any(c is None or (c > 0) != (cp > 0) or abs(c) < 150 for c in nb):
            continue
        want = "white-area" if cp > 0 else "black-area"
        assert fill_at(r["ply"], cp) == want, (r, fill_at(r["ply"], cp))
        checked.add(want)
    assert checked, "no ply far enough from the axis to check the fill"
    # Under the pointer: the move in move numbers and its score.
    ply = n // 2
    box = g.bounding_box()
    x = box["x"] + box["width"] * ply / n
    p.page.mouse.move(x, box["y"] + box["height"] / 2)
    p.page.wait_for_function("() => !document.getElementById('review-graph-tip').hidden", timeout=WAIT_MS)
    tip = p.page.inner_text("#review-graph-tip")
    assert tip.startswith(move_name(ply, report["moves"][ply - 1]["move"])), (tip, ply)
    assert re.search(r" ([+−]\d+\.\d\d|White|Black|game over)", tip), tip
    # A click moves the board there; a drag follows the pointer.
    p.page.mouse.click(x, box["y"] + box["height"] / 2)
    board_ply(p, ply)
    # (the page above the graph may have moved: the status names the position shown)
    box = g.bounding_box()
    x1, x2 = box["x"] + box["width"] * 3 / n, box["x"] + box["width"] * (n - 2) / n
    p.page.mouse.move(x1, box["y"] + 10)
    p.page.mouse.down()
    board_ply(p, 3)
    p.page.mouse.move((x1 + x2) / 2, box["y"] + 10, steps=4)
    p.page.mouse.move(x2, box["y"] + 10, steps=4)
    board_ply(p, n - 2)
    p.page.mouse.up()

    def hover():
        g.scroll_into_view_if_needed()
        b = g.bounding_box()
        p.page.mouse.move(b["x"] + b["width"] * (n // 3) / n, b["y"] + b["height"] / 2)
        p.page.wait_for_function(
            f"() => document.getElementById('review-graph-tip').dataset.ply === '{n // 3}'", timeout=WAIT_MS)
    shots(p, "graph", hover)
    assert not p.errors, p.errors


def test_move_numbers_jumps_and_keys(server, browser, ctx):
    """The review in move numbers; each side's counts jump to that side's next marked move;
    `m` and `M` step through the marked moves."""
    p, report = ctx["page"], ctx["report"]
    marked = [r for r in report["moves"] if r["mark"]]
    r = next(r for r in marked if r["best"] and r["best"] != r["move"])
    p.page.click(f'#moves > [data-ply="{r["ply"]}"]')
    board_ply(p, r["ply"])
    text = p.page.inner_text("#review-best")
    assert "ply" not in text and f" at {move_name(r['ply'], r['move'])}{r['mark']} " in text, text
    # Counts: White's and Black's next mark of each kind, round the end.
    for side, parity in (("white", 1), ("black", 0)):
        for mark in ("?!", "?", "??"):
            plies = [m["ply"] for m in marked if m["mark"] == mark and m["ply"] % 2 == parity]
            btn = p.page.locator(f'#review-summary button.jump[data-side="{side}"][data-mark="{mark}"]')
            assert btn.inner_text() == str(len(plies)), (side, mark, btn.inner_text(), plies)
            if not plies:
                assert btn.is_disabled()
                continue
            p.page.keyboard.press("Home")
            board_ply(p, 0)
            for want in plies + plies[:1]:
                btn.click()
                board_ply(p, want)
    # Keys: m the next marked move, M the previous.
    plies = [m["ply"] for m in marked]
    p.page.keyboard.press("Home")
    board_ply(p, 0)
    for want in plies:
        p.page.keyboard.press("m")
        board_ply(p, want)
    if len(plies) > 1:
        p.page.keyboard.press("M")
        board_ply(p, plies[-2])
    assert not p.errors, p.errors


def wc(cp):
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def centi(score, white):
    """A report score (White's view) as centi-men from the mover's view (`white`: White
    moved), a win as 10 000 (as src/review.rs)."""
    s = 1 if white else -1
    if "result" in score:
        return {"1-0": 10000, "0-1": -10000}.get(score["result"], 0) * s
    if "mate" in score:
        return 10000 * s * (1 if score["mate"] > 0 else -1)
    return max(-10000, min(10000, score["cp"])) * s


def test_accuracy(server, browser, ctx):
    """Each side's accuracy: the mean over its moves of 103.1668 * exp(-0.04354 * d) - 3.1669
    (within 0 and 100), d the drop in win% = 50 + 50 * wc(cp), wc lichess' curve."""
    p, report = ctx["page"], ctx["report"]
    for side, parity in (("white", 1), ("black", 0)):
        accs = []
        for r in report["moves"]:
            if r["ply"] % 2 != parity:
                continue
            white = parity == 1
            if r["best"] == r["move"]:
                d = 0.0
            else:
                d = max(0.0, 50 * (wc(centi(r["best_eval"], white)) - wc(centi(r["eval"], white))))
            accs.append(max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * d) - 3.1669)))
        want = sum(accs) / len(accs)
        got = report["summary"][side]["accuracy"]
        assert abs(got - want) < 0.06, (side, got, want)
        cell = p.page.inner_text(f'#review-summary tr[data-side="{side}"] td.accuracy')
        assert cell == f"{got:.1f}%", (cell, got)


def legal_at(p, ply, move):
    legal = p.server.get(f"/api/games/{p.game()}/legal?ply={ply}")["legal"]
    return next(m for m in legal if m["move"] == move)


def phase(p, want):
    """Waits for the learn panel to reach one of the phases `want`, or any answer (`right`,
    `wrong`, `retry`), and gives the phase reached."""
    p.page.wait_for_function(
        f"""() => {json.dumps(want + ["right", "wrong", "retry"])}
                  .includes(document.getElementById('learn-panel').dataset.phase)""",
        timeout=WAIT_MS * 4)
    return p.page.get_attribute("#learn-panel", "data-phase")


def test_learn(server, browser, ctx):
    """Each marked move put back: the move played again is shown the engine's move; the
    engine's own move (as a try at the review's budget finds it) is accepted; the answer the
    page gives is the server's; nothing is added to the game; the end counts what was found."""
    p, report = ctx["page"], ctx["report"]
    moves = p.state()["moves"]
    marked = [r["ply"] for r in report["moves"] if r["mark"]]
    assert p.page.inner_text("#learn") == f"Learn from your mistakes ({len(marked)})"
    p.page.click("#learn")
    found = 0
    for k, ply in enumerate(marked[:4]):
        p.page.wait_for_function("() => document.getElementById('learn-panel').dataset.phase === 'ask'",
                                 timeout=WAIT_MS)
        assert p.page.get_attribute("#learn-panel", "data-ply") == str(ply)
        board_ply(p, ply - 1)
        r = report["moves"][ply - 1]
        assert move_name(ply, r["move"]) in p.page.inner_text("#learn-text")
        assert p.page.locator("#board .arrow.best").count() == 0, "the answer is not given away"
        if k % 3 == 0:
            # The move played: no better; another try is offered (issue 65 #5), and the
            # solution on asking: the review's engine move.
            click_move(p, legal_at(p, ply - 1, r["move"]))
            got = phase(p, ["retry"])
            assert got == "retry", (got, p.page.inner_text("#learn-text"))
            assert p.page.locator("#board .arrow.best").count() == 0
            p.page.click("#learn-solution")
            got = phase(p, ["wrong"])
            assert got == "wrong", (got, p.page.inner_text("#learn-text"))
            assert f"The engine's move: {r['best']}" in p.page.inner_text("#learn-text")
            p.page.wait_for_function("() => document.querySelectorAll('#board .arrow.best').length === 1",
                                     timeout=WAIT_MS)
        elif k % 3 == 1:
            # The review's engine move: found.
            click_move(p, legal_at(p, ply - 1, r["best"]))
            got = phase(p, ["right"])
            assert got == "right", (got, p.page.inner_text("#learn-text"))
            found += 1
        else:
            # Another move: the server's verdict at the review's budget, the page's too.
            legal = p.server.get(f"/api/games/{p.game()}/legal?ply={ply - 1}")["legal"]
            other = [m for m in legal if m["move"] not in (r["move"], r["best"])]
            if not other:
                p.page.click("#learn-next")
                continue
            m = other[0]
            _, judged = post(server, f"/api/games/{p.game()}/review/try",
                             {"ply": ply - 1, "move": m["move"], "nodes": 150000})
            click_move(p, m)
            got = phase(p, ["right", "retry"])
            assert got == ("right" if judged["accepted"] else "retry"), (got, judged)
            found += judged["accepted"]
        if k == 0:
            ctx["learn_shot"] = True
            shots(p, "learn")
        p.page.click("#learn-next")
    # Skip the rest: the end counts what was found.
    for ply in marked[4:]:
        p.page.wait_for_function(
            f"""() => document.getElementById('learn-panel').dataset.phase === 'ask'
                      && document.getElementById('learn-panel').dataset.ply === '{ply}'""", timeout=WAIT_MS)
        assert p.page.inner_text("#learn-next") == "Skip"
        p.page.click("#learn-next")
    p.page.wait_for_function("() => document.getElementById('learn-panel').dataset.phase === 'done'",
                             timeout=WAIT_MS)
    text = p.page.inner_text("#learn-text")
    assert text == f"Done: you found a good move in {found} of {len(marked)} at the first try.", (text, found)
    p.page.click("#learn-stop")
    p.page.wait_for_function("() => document.getElementById('learn-panel').hidden", timeout=WAIT_MS)
    assert p.state()["moves"] == moves and p.moves_shown() == moves
    assert p.page.locator("#moves > [data-variation]").count() == 0
    assert not p.errors, p.errors


def shots(p, name, then=None):
    """The page at 1920x1080 and 390x844, saved under target/browser: the whole page, or
    the screen as `then()` leaves it at each size (a full-page shot moves the pointer off)."""
    os.makedirs(OUT, exist_ok=True)
    for w, h in ((1920, 1080), (390, 844)):
        p.page.set_viewport_size({"width": w, "height": h})
        if then:
            then()
        path = os.path.join(OUT, f"review-{name}-{w}x{h}.png")
        p.page.screenshot(path=path, full_page=not then)
        print(f"screenshot: {path}")
    p.page.set_viewport_size({"width": 1180, "height": 820})


def test_screenshots(server, browser, ctx):
    p, report = ctx["page"], ctx["report"]
    ply = next(r["ply"] for r in report["moves"] if r["mark"] and r["best"] != r["move"])
    p.page.click(f'#moves > [data-ply="{ply}"]')
    board_ply(p, ply)
    shots(p, "summary")


def main():
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    server = Server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pdn, _ = a_pdn(server)
            ctx = {"pdn": pdn}
            tests = [test_reproducible_and_kept, test_graph, test_move_numbers_jumps_and_keys,
                     test_accuracy, test_screenshots, test_learn]
            only = [n for n in os.environ.get("BROWSER_TESTS", "").split(",") if n]
            for t in tests:
                # The first test reviews the game the others read: it always runs.
                if only and t.__name__ not in only and t is not test_reproducible_and_kept:
                    continue
                t0 = time.monotonic()
                t(server, browser, ctx)
                print(f"ok {t.__name__} ({time.monotonic() - t0:.1f} s)")
            browser.close()
    finally:
        server.stop()
    print("review page tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
