#!/usr/bin/env python3
"""Browser tests of comments, glyphs and tags on the `bashni serve` page (web/CONTRACT.md):
a PDN with tags, comments and glyphs (in the main line and in a variation) is loaded and shown
in the move list (`data-glyph`, `data-comment`, a `.comment` child) and in #tags; a comment and
a glyph are edited in #note-box, a reload keeps them, both downloads carry the tags and the
comments; a PDN pasted as text opens the same way, and a bad one is refused with one line while
the game shown stays. Screenshots at 390x844 and 1920x1080 go to BROWSER_OUT (target/browser).

Run from the repository root after `cargo build --profile suite`:
    <venv>/bin/python tests/browser/test_comments_page.py
(test_page.py runs these too.)
"""

import os
import sys
import time
import urllib.request

from harness import ARGS, CHROMIUM, OUT, WAIT_MS, Page, Server, until, wait_notice

PDN = """[Event "Club final"]
[Site "Ufa"]
[Date "2024.05.01"]
[Round "3"]
[White "Ann Petrova"]
[Black "Boris Ivanov"]
[Result "*"]
[Annotator "Kim"]

1. c3-d4! {the centre} (1. c3-b4?! {slower} f6-g5) 1... f6-e5 2. d4:f6?? {a blunder}
g7:e5 3. g3-h4 {quiet} *
"""

ROWS_JS = """els => els.map(e => [e.dataset.move, e.dataset.variation ? 'v' : 'm',
    e.dataset.glyph || '', e.dataset.comment || '',
    (e.querySelector('.comment') || {}).textContent || ''])"""


def rows(p):
    return p.page.eval_on_selector_all("#moves > [data-ply]", ROWS_JS)


LOADED = [
    ["c3-d4", "m", "!", "the centre", "the centre"],
    ["c3-b4", "v", "?!", "slower", "slower"],
    ["f6-g5", "v", "", "", ""],
    ["f6-e5", "m", "", "", ""],
    ["d4:f6", "m", "??", "a blunder", "a blunder"],
    ["g7:e5", "m", "", "", ""],
    ["g3-h4", "m", "", "quiet", "quiet"],
]


def load_file(p, text, name="annotated.pdn"):
    p.page.set_input_files("#pdn-file", files=[
        {"name": name, "mimeType": "text/plain", "buffer": text.encode()}])
    p.page.wait_for_function(
        "() => /Loaded|Could not/.test(document.getElementById('notice').textContent)", timeout=WAIT_MS)
    notice = p.page.inner_text("#notice")
    assert notice.startswith("Loaded Bashni from PDN"), (notice, text)
    p.wait_settled()


def tags_shown(p):
    return dict(p.page.eval_on_selector_all(
        "#tags [data-tag]", "els => els.map(e => [e.dataset.tag, e.dataset.value])"))


def wait_row(p, selector, attr, value):
    p.page.wait_for_function(
        f"""() => {{ const e = document.querySelector('{selector}');
                     return e && (e.dataset.{attr} || '') === {value!r}; }}""", timeout=WAIT_MS)


def download(p, selector):
    with p.page.expect_download(timeout=WAIT_MS) as d:
        p.page.click(selector)
    with open(d.value.path(), encoding="utf-8") as f:
        return f.read()


def test_comments_round_trip(server, browser):
    p = Page(server, browser)
    p.open()
    load_file(p, PDN)
    assert rows(p) == LOADED, rows(p)
    tags = tags_shown(p)
    for name, value in [("White", "Ann Petrova"), ("Black", "Boris Ivanov"), ("Event", "Club final"),
                        ("Date", "2024.05.01"), ("Annotator", "Kim")]:
        assert tags.get(name) == value, tags
    # The note box edits the move shown: a comment on ply 2 of the main line, a glyph on it.
    main2 = '#moves > [data-ply="2"]:not([data-variation])'
    p.page.click(main2)
    assert not p.page.locator("#note-box").is_hidden()
    assert p.page.input_value("#note-text") == ""
    p.page.fill("#note-text", "the only reply\nthat holds")
    p.page.click("#note-save")
    wait_row(p, main2, "comment", "the only reply that holds")
    p.page.click('#note-glyphs [data-glyph="!?"]')
    wait_row(p, main2, "glyph", "!?")
    assert p.page.get_attribute('#note-glyphs [data-glyph="!?"]', "aria-pressed") == "true"
    # A comment inside the variation (the server then holds that line).
    var2 = '#moves > [data-ply="2"][data-variation]'
    p.page.click(var2)
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '2'"
                             " && !document.getElementById('var-tools').hidden", timeout=WAIT_MS)
    p.page.fill("#note-text", "then h4")
    p.page.keyboard.press("Control+Enter")
    wait_row(p, var2, "comment", "then h4")
    # The server keeps them: GET gives every note, each by its line from the start.
    st = p.state()
    notes = {" ".join(n["moves"]): (n["comment"], n["glyph"]) for n in st["notes"]}
    assert notes["c3-d4 f6-e5"] == ("the only reply that holds", "!?"), notes
    assert notes["c3-b4 f6-g5"] == ("then h4", ""), notes
    # Clearing the glyph of the first move (clicked again).
    p.page.click('#moves > [data-ply="1"]:not([data-variation])')
    p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '1'", timeout=WAIT_MS)
    p.page.click('#note-glyphs [data-glyph="!"]')
    wait_row(p, '#moves > [data-ply="1"]:not([data-variation])', "glyph", "")
    want = [r[:] for r in LOADED]
    want[0][2] = ""
    want[2][3:] = ["then h4", "then h4"]
    want[3][2:] = ["!?", "the only reply that holds", "the only reply that holds"]
    assert rows(p) == want, rows(p)
    # A reload (the same game) keeps them all, and the tags; so does one after the server
    # closed the game (a new game on the server, from localStorage).
    old = p.game()
    for closed in (False, True):
        if closed:
            req = urllib.request.Request(server.url + f"api/games/{old}", method="DELETE")
            urllib.request.urlopen(req, timeout=30).read()
        p.page.reload()
        p.page.wait_for_function(f"() => document.body.dataset.game && (document.body.dataset.game !== '{old}') === {str(closed).lower()}",
                                 timeout=WAIT_MS)
        p.wait_settled()
        until(f"the rows {want}", lambda: rows(p) == want)
        assert tags_shown(p) == tags, tags_shown(p)
    # The downloads: the server's PDN of the main line, and the page's with the variations.
    p.page.click("#position-box summary")
    pdn = " ".join(p.pdn().split())
    for part in ['[White "Ann Petrova"]', '[Black "Boris Ivanov"]', '[Event "Club final"]',
                 '[Annotator "Kim"]', "1. c3-d4 {the centre} f6-e5!? {the only reply that holds}",
                 "d4:f6?? {a blunder}", "g3-h4 {quiet}"]:
        assert part in pdn, (part, pdn)
    assert "person" not in pdn, pdn
    tree_file = download(p, "#pdn-tree")
    tree = " ".join(tree_file.split())
    for part in ['[White "Ann Petrova"]', "(1. c3-b4?! {slower} f6-g5 {then h4})",
                 "f6-e5!? {the only reply that holds}", "d4:f6?? {a blunder}"]:
        assert part in tree, (part, tree)
    # That file loads back with the same notes.
    load_file(p, tree_file, "tree.pdn")
    assert rows(p) == want, rows(p)
    assert not p.errors, p.errors
    p.page.close()


def test_paste_pdn(server, browser):
    p = Page(server, browser)
    p.open()
    first = p.game()
    moves = p.state()["moves"]
    p.page.click("#position-box summary")
    p.page.click("#pdn-paste")
    assert p.page.locator("#paste-dialog").is_visible()
    # Refused, one line, the dialog and the game stay.
    for text, why in [("1. c3-d4 {never closed\n*", "PDN: line 1: comment '{' never closed"),
                      ("1. c3-d4 {" + "x" * 2001 + "} *", "PDN: a comment of over 2000 characters"),
                      ("1. c3-d5 *", "move 1: illegal move c3-d5")]:
        p.page.fill("#paste-text", text)
        p.page.click("#paste-open")
        p.page.wait_for_function(
            f"() => document.getElementById('paste-error').textContent.includes({why!r})", timeout=WAIT_MS)
        error = p.page.inner_text("#paste-error")
        assert "\n" not in error.strip(), error
        assert p.page.locator("#paste-dialog").is_visible()
        assert p.game() == first and p.state()["moves"] == moves
    p.page.fill("#paste-text", PDN)
    p.page.click("#paste-open")
    wait_notice(p, "Loaded Bashni from PDN: 5 plies, 1 variation")
    p.wait_settled()
    assert not p.page.locator("#paste-dialog").is_visible()
    assert rows(p) == LOADED, rows(p)
    assert tags_shown(p).get("White") == "Ann Petrova"
    assert not p.errors, p.errors
    p.page.close()


def screenshots(server, browser):
    """The annotated game with the note box open, on a phone and on a wide screen."""
    os.makedirs(OUT, exist_ok=True)
    paths = []
    for w, h in [(390, 844), (1920, 1080)]:
        ctx = browser.new_context(viewport={"width": w, "height": h})
        p = Page(server, browser, ctx)
        p.open()
        load_file(p, PDN)
        p.page.click('#moves > [data-ply="3"]:not([data-variation])')
        p.page.wait_for_function("() => document.getElementById('board').dataset.ply === '3'", timeout=WAIT_MS)
        path = os.path.join(OUT, f"comments-{w}x{h}.png")
        p.page.screenshot(path=path, full_page=True)
        paths.append(path)
        assert not p.errors, p.errors
        ctx.close()
    print("screenshots: " + ", ".join(paths))


TESTS = [test_comments_round_trip, test_paste_pdn]


def main():
    from playwright.sync_api import sync_playwright
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    server = Server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for t in TESTS + [screenshots]:
                t0 = time.monotonic()
                t(server, browser)
                print(f"ok {t.__name__} ({time.monotonic() - t0:.1f} s)")
            browser.close()
    finally:
        server.stop()
    print("comment tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
