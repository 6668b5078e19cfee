#!/usr/bin/env python3
"""The puzzle mode of `bashni serve` (/puzzles, web/puzzles.js; issue 64 item 4) in headless
Chromium: the button of the game page leads to it; a puzzle is solved by clicking its solver
moves (the opponent's replies come, the board is the solver's side up and every tower equals
the position's FEN), once solved the puzzle's rating goes down and the person's up
(Glicko-2), both persist over a reload and a second solve changes neither; another is failed
(a wrong move is said so, retry is offered, the solution is played on the board, the
person's rating goes down, the puzzle's up); a puzzle's link opens that puzzle; a theme
chosen sets only puzzles of that theme; the page's Glicko-2 gives Glickman's worked example. The puzzles and their lines come from
the API (`/api/puzzles`), which the suite checks against the shipped files
(src/serve/puzzles.rs); the moves are clicked by their squares.

Run from the repository root after `cargo build --profile suite`:
    python3 tests/browser/test_puzzles_page.py
(WEB_DIR=web serves the page's files from disk; BROWSER_TESTS=test_solve_one runs one.)
"""

import sys

from harness import WAIT_MS, Page, click_move, parse_fen, run_tests, until


def puzzles(server, variant="bashni"):
    return server.get(f"/api/puzzles?variant={variant}")["puzzles"]


def puzzle(server, pid, variant="bashni"):
    return server.get(f"/api/puzzles/{variant}/{pid}")


def open_puzzle(p, pid, variant="bashni"):
    p.page.goto(p.server.url + f"puzzles#{variant}/{pid}")
    wait_state(p, "play")
    assert p.page.get_attribute("body", "data-puzzle") == pid


def wait_state(p, state):
    p.page.wait_for_function(
        f"() => document.getElementById('pz-status').dataset.state === '{state}'", timeout=WAIT_MS)


def check_board(p, fen):
    """Every tower drawn equals `fen` (an independent reader), and the board says it shows it."""
    assert p.page.get_attribute("#board", "data-fen") == fen
    shown = dict(p.towers_shown())
    assert shown == parse_fen(fen), f"board {shown} != FEN {fen}"


def your_rating(p):
    return int(p.page.get_attribute("#pz-you", "data-rating"))


def test_button_leads_to_puzzles(server, browser):
    p = Page(server, browser)
    p.open()
    p.page.click("#btn-puzzles")
    wait_state(p, "play")
    assert p.page.get_attribute("#board", "data-variant") == "bashni"
    p.page.context.close()


def test_solve_one(server, browser):
    """A Bashni puzzle with a tower in it, solved move by move."""
    listed = puzzles(server)
    whole = None
    for item in listed:
        cand = puzzle(server, item["id"])
        if any(len(t) > 1 for t in parse_fen(cand["positions"][1]["fen"]).values()):
            whole = cand
            break
    assert whole, "no shipped Bashni puzzle has a tower"
    p = Page(server, browser)
    open_puzzle(p, whole["id"])
    pos = whole["positions"]
    # After the opponent's move, from the solver's side, towers drawn as the FEN says.
    check_board(p, pos[1]["fen"])
    solver = pos[1]["fen"].split()[1].lower()
    assert p.page.get_attribute("#board", "data-orientation") == ("black" if solver == "b" else "white")
    assert p.page.is_hidden("#pz-result")
    before = your_rating(p)
    for i in range(1, len(whole["moves"]), 2):
        wait_state(p, "play")
        check_board(p, pos[i]["fen"])
        m = next(l for l in pos[i]["legal"] if l["move"] == whole["moves"][i])
        click_move(p, m)
        if i + 1 < len(whole["moves"]):
            # The reply comes on the board.
            p.page.wait_for_function(
                f"() => document.getElementById('board').dataset.ply === '{i + 2}'", timeout=WAIT_MS)
    wait_state(p, "solved")
    check_board(p, pos[-1]["fen"])
    assert p.page.is_visible("#pz-result")
    # Glicko-2: the person won, the puzzle lost.
    assert p.page.get_attribute("#pz-rating", "data-start") == str(whole["rating"])
    puzzle_after = int(p.page.get_attribute("#pz-rating", "data-rating"))
    assert puzzle_after < whole["rating"]
    assert your_rating(p) > before
    # Both ratings persist over a reload, and a second solve of the same puzzle changes nothing.
    after = your_rating(p)
    p.page.reload()
    wait_state(p, "play")
    assert your_rating(p) == after
    for i in range(1, len(whole["moves"]), 2):
        wait_state(p, "play")
        click_move(p, next(l for l in pos[i]["legal"] if l["move"] == whole["moves"][i]))
    wait_state(p, "solved")
    assert your_rating(p) == after
    assert int(p.page.get_attribute("#pz-rating", "data-rating")) == puzzle_after
    assert p.errors == [], p.errors
    p.page.context.close()


def test_fail_one(server, browser):
    """A wrong move: said so, retry offered, then the solution played; the rating goes down."""
    listed = puzzles(server)
    whole = puzzle(server, listed[1]["id"])
    p = Page(server, browser)
    open_puzzle(p, whole["id"])
    before = your_rating(p)
    pos = whole["positions"]
    wrong = next(l for l in pos[1]["legal"] if l["move"] != whole["moves"][1])
    click_move(p, wrong)
    wait_state(p, "wrong")
    assert p.page.is_visible("#pz-retry") and p.page.is_visible("#pz-solution")
    check_board(p, pos[1]["fen"])  # the wrong move is not played
    assert your_rating(p) < before
    p.page.click("#pz-retry")
    wait_state(p, "play")
    p.page.click("#pz-solution")
    wait_state(p, "failed")
    p.page.wait_for_function(
        f"() => document.getElementById('board').dataset.ply === '{len(whole['moves'])}'",
        timeout=WAIT_MS)
    check_board(p, pos[-1]["fen"])
    assert int(p.page.get_attribute("#pz-rating", "data-rating")) > whole["rating"]
    # Its link opens the same puzzle in another page.
    link = p.page.get_attribute("#pz-link", "href")
    assert link == f"#bashni/{whole['id']}", link
    q = Page(server, browser)
    q.page.goto(server.url + "puzzles" + link)
    wait_state(q, "play")
    assert q.page.get_attribute("body", "data-puzzle") == whole["id"]
    assert p.errors == [] and q.errors == [], (p.errors, q.errors)
    p.page.context.close()
    q.page.context.close()


def test_game_and_theme(server, browser):
    """Another game and a theme: the puzzle set is of that game and has that theme."""
    listed = puzzles(server, "lasca")
    theme = next(t for item in listed for t in item["themes"] if t.startswith("mateIn") or t == "multiCapture")
    p = Page(server, browser)
    p.page.goto(server.url + "puzzles.html")
    wait_state(p, "play")
    p.page.select_option("#pz-variant", "lasca")
    p.page.wait_for_function("() => document.getElementById('board').dataset.variant === 'lasca'",
                             timeout=WAIT_MS)
    wait_state(p, "play")
    p.page.select_option("#pz-theme", theme)

    def set_with_theme():
        pid = p.page.get_attribute("body", "data-puzzle")
        state = p.page.get_attribute("#pz-status", "data-state")
        return pid if state == "play" and theme in puzzle(server, pid, "lasca")["themes"] else None
    pid = until(f"a Lasca puzzle of theme {theme}", set_with_theme)
    # The next one has the theme too.
    p.page.click("#pz-next")
    p.page.wait_for_function(f"() => document.body.dataset.puzzle !== '{pid}'", timeout=WAIT_MS)
    wait_state(p, "play")
    assert theme in puzzle(server, p.page.get_attribute("body", "data-puzzle"), "lasca")["themes"]
    assert p.errors == [], p.errors
    p.page.context.close()


def test_glicko2_is_glickmans(server, browser):
    """The page's Glicko-2 gives the worked example of Glickman's paper (tau 0.5): a 1500
    player of deviation 200 who beats a 1400 (30) and loses to a 1550 (100) and a 1700 (300)
    is rated 1464.06, deviation 151.52, volatility 0.05999."""
    p = Page(server, browser)
    p.page.goto(server.url + "puzzles")
    r = p.page.evaluate("""async () => {
        const { rate } = await import('./glicko.js');
        return rate({ rating: 1500, deviation: 200, volatility: 0.06 }, [
            { opponent: { rating: 1400, deviation: 30 }, score: 1 },
            { opponent: { rating: 1550, deviation: 100 }, score: 0 },
            { opponent: { rating: 1700, deviation: 300 }, score: 0 }], 0.5);
    }""")
    assert abs(r["rating"] - 1464.06) < 0.01, r
    assert abs(r["deviation"] - 151.52) < 0.01, r
    assert abs(r["volatility"] - 0.05999) < 0.00001, r
    assert p.errors == [], p.errors
    p.page.context.close()


if __name__ == "__main__":
    sys.exit(run_tests([test_button_leads_to_puzzles, test_solve_one, test_fail_one, test_game_and_theme,
                        test_glicko2_is_glickmans],
                       "puzzle page tests passed"))

