#!/usr/bin/env python3
"""One game in two tabs (issue 65 #1), in headless Chromium: every game has its own address
(`/<id>`), a second tab on that address (or on the site's root) follows the same game live
(moves, the engine's replies, analysis, notes, variations) and either tab may move; a reload of
one tab never ends or resets the other's game; a tab whose game was closed says so in #stale
and follows the game that goes on in its place. Each of these failed on the page before: a
second tab on the root opened the game again under a new id and closed the first tab's.

Run from the repository root after `cargo build --profile suite`:
    target/tmp/playwright/bin/python tests/browser/test_tabs_page.py
(BROWSER_TESTS=name,name runs only those; WEB_DIR=web serves the page's files from disk.)
"""

import json
import os
import re
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

from harness import run_tests, ARGS, CHROMIUM, WAIT_MS, Page, Server, click_move


def address_id(p):
    """The game id the address bar names (`/<16 hex digits>`), or None."""
    m = re.search(r"/([0-9a-f]{16})$", p.page.url)
    return m.group(1) if m else None


def wait_moves(p, moves, what="the moves"):
    p.page.wait_for_function(
        f"""() => [...document.querySelectorAll('#moves > [data-ply]:not([data-variation])')]
                  .map(e => e.dataset.move).join() === {json.dumps(",".join(moves))}""",
        timeout=WAIT_MS)
    assert p.moves_shown() == moves, (what, p.moves_shown(), moves)


def delete(server, gid):
    req = urllib.request.Request(server.url + f"api/games/{gid}", method="DELETE")
    urllib.request.urlopen(req, timeout=30).read()


def new_engine_game(p):
    """A game against level 0, White, 0.1 s a move, from the dialog."""
    p.page.click("#btn-new")
    p.page.select_option("#variant", "bashni")
    p.page.check("input[name=human][value=white]")
    p.page.fill("#level", "0")
    p.page.check("input[name=tmode][value=move]")
    p.page.fill("#movetime", "0.1")
    first = p.game()
    p.page.click("#new-start")
    p.page.wait_for_function(f"() => document.body.dataset.game !== '{first}'", timeout=WAIT_MS)
    return p.wait_settled()


def play_one(p):
    """The person's first legal move by clicking, and the engine's reply."""
    st = p.wait_settled()
    click_move(p, st["legal"][0])
    p.page.wait_for_function(
        f"() => document.querySelectorAll('#moves > [data-ply]:not([data-variation])').length >= {len(st['moves']) + 2}",
        timeout=WAIT_MS)
    return p.wait_settled()


def test_two_tabs_follow_one_game(server, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    a = Page(server, browser, ctx)
    a.open()
    st = new_engine_game(a)
    gid = a.game()
    # The address names the game, as lichess' does.
    assert address_id(a) == gid, a.page.url
    st = play_one(a)
    # A second tab on that address: the same game, not a new one.
    b = Page(server, browser, ctx)
    b.page.goto(server.url + gid)
    b.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    assert b.game() == gid
    b.wait_settled()
    assert b.moves_shown() == st["moves"]
    # Either tab moves when it is the person's turn; the other follows, the engine's reply too.
    st = play_one(b)
    wait_moves(a, st["moves"], "tab a after tab b's move")
    a.check_board(st["fens"][-1])
    # Analysis turned on in one tab: the other shows it, at the same position.
    a.page.click(f'#moves > [data-ply="1"]:not([data-variation])')
    a.page.check("#analysis-on")
    b.page.wait_for_function(
        "() => document.getElementById('analysis-on').checked && document.getElementById('board').dataset.ply === '1'",
        timeout=WAIT_MS)
    b.page.wait_for_function("() => document.querySelectorAll('#an-lines li').length >= 1", timeout=WAIT_MS)
    # A variation made in one tab: the other shows it, its main line unchanged.
    # (from the start: White's first move always has others beside it)
    a.page.keyboard.press("Home")
    b.page.wait_for_function("() => document.getElementById('board').dataset.ply === '0'", timeout=WAIT_MS)
    legal = server.get(f"/api/games/{gid}/legal?ply=0")["legal"]
    m = next(x for x in legal if x["move"] != st["moves"][0])
    click_move(a, m)
    for p in (a, b):
        p.page.wait_for_function("() => document.querySelectorAll('#moves > [data-variation]').length === 1",
                                 timeout=WAIT_MS)
        assert p.moves_shown() == st["moves"], p.moves_shown()
        assert p.page.get_attribute("#moves > [data-variation]", "data-move") == m["move"]
    # A comment made in one tab reaches the other.
    a.page.click('#moves > [data-ply="1"]:not([data-variation])')
    a.page.fill("#note-text", "the first move")
    a.page.click("#note-save")
    b.page.wait_for_function(
        """() => document.querySelector('#moves > [data-ply="1"]:not([data-variation])').dataset.comment === 'the first move'""",
        timeout=WAIT_MS)
    # Back to play in tab b: the engine plays the main line again, in both tabs.
    b.page.uncheck("#analysis-on")
    for p in (a, b):
        p.page.wait_for_function("() => !document.getElementById('analysis-on').checked", timeout=WAIT_MS)
    # A reload of tab a: the same game (same id), tab b's untouched and still live.
    before = b.state()
    a.page.reload()
    a.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    assert a.game() == gid and address_id(a) == gid
    a.wait_settled()
    assert a.moves_shown() == before["moves"]
    assert a.page.locator("#moves > [data-variation]").count() == 1, "the reload lost the variation"
    assert b.game() == gid and b.state()["id"] == gid
    assert b.page.locator("#stale:not([hidden])").count() == 0
    b.page.keyboard.press("End")
    st = play_one(b)
    wait_moves(a, st["moves"], "tab a, reloaded, after tab b's move")
    # The site's root in a third tab: the game this browser showed last, live.
    c = Page(server, browser, ctx)
    c.open()
    assert c.game() == gid and address_id(c) == gid
    assert c.moves_shown() == st["moves"]
    # Another browser (no stored game) on the address follows it too.
    other = Page(server, browser)
    other.page.goto(server.url + gid)
    other.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    assert other.game() == gid
    other.wait_settled()
    assert other.moves_shown() == st["moves"]
    for p in (a, b, c, other):
        assert not p.errors, p.errors
    other.page.context.close()
    ctx.close()


def test_a_stale_tab_says_so_and_follows(server, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    a = Page(server, browser, ctx)
    a.open("?moves=c3-d4,f6-e5")
    gid = a.game()
    b = Page(server, browser, ctx)
    b.page.goto(server.url + gid)
    b.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
    assert b.game() == gid
    # The game is closed on the server (as after a restart): both tabs say so.
    delete(server, gid)
    for p in (a, b):
        p.page.wait_for_selector("#stale:not([hidden])", timeout=WAIT_MS)
        assert p.page.get_attribute("#stale", "data-kind") == "gone"
    # Tab b opens it again (a new id, the same moves); tab a is told where it went.
    b.page.click("#stale-follow")
    b.page.wait_for_function(f"() => document.body.dataset.game !== '{gid}'", timeout=WAIT_MS)
    new = b.game()
    assert address_id(b) == new
    b.wait_settled()
    assert b.moves_shown() == ["c3-d4", "f6-e5"]
    assert b.page.locator("#stale:not([hidden])").count() == 0
    a.page.wait_for_function("() => document.getElementById('stale').dataset.kind === 'moved'", timeout=WAIT_MS)
    a.page.click("#stale-follow")
    a.page.wait_for_function(f"() => document.body.dataset.game === '{new}'", timeout=WAIT_MS)
    a.wait_settled()
    assert a.page.locator("#stale:not([hidden])").count() == 0
    # Both follow it now.
    st = a.state()
    click_move(b, st["legal"][0])
    wait_moves(a, ["c3-d4", "f6-e5", st["legal"][0]["move"]], "tab a following the reopened game")
    for p in (a, b):
        assert not p.errors, p.errors
    ctx.close()


TESTS = [test_two_tabs_follow_one_game, test_a_stale_tab_says_so_and_follows]


def main():
    return run_tests(TESTS, "tabs page tests passed")


if __name__ == "__main__":
    sys.exit(main())
