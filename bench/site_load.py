#!/usr/bin/env python3
"""The static site's load (docs/web.md, docs/measurements.md#webassembly): what a browser
downloads for the page of `bashni serve` with no server, and how soon it shows an engine line.

    python3 bench/site_load.py [--site target/site] [--runs 5]    # --runs 0: the sizes only

It prints the size of every file of the site, raw and compressed (gzip -9, as a host would send
it), with two totals: the page's first load (the page, its modules and style, bashni-serve.js
and bashni.wasm) and everything the service worker keeps for offline use (the whole site). Then,
RUNS times in a fresh browser context from Python's static server (no cache, no service worker
yet): the time from the start of the navigation to the game shown (`body[data-game]`: the module
compiled, the back end started, a game created), and to the first line of an analysis switched
on at that moment (`#an-lines li`), both read by the page itself; then the same for a reload
of the page, its files now served by the service worker. It prints each run and the medians. Run it on an idle
machine: the figures are times (a goal of docs/web.md: the first engine line within 1 s).

Needs /usr/bin/chromium and Playwright for Python (the browser tests' virtual environment,
target/tmp/playwright).
"""

import argparse
import gzip
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "browser"))
from playwright.sync_api import sync_playwright  # noqa: E402

from harness import ARGS, CHROMIUM, ROOT, WAIT_MS  # noqa: E402
import test_wasm  # noqa: E402

def sizes(site):
    rows = []
    for name in sorted(os.listdir(site)):
        path = os.path.join(site, name)
        if os.path.isfile(path) and not name.endswith("-test.html") and name != "embed-example.html":
            with open(path, "rb") as f:
                data = f.read()
            rows.append((name, len(data), len(gzip.compress(data, 9))))
    return rows


def first_load(name):
    return name not in ("bashni-worker.js", "example.html")


# Run in the page before its own scripts: the moment the game is shown (`body[data-game]` set),
# analysis is switched on as a person would, and the moment its first line is drawn is kept.
# Both times are the page's own (performance.now(), from the start of the navigation): the
# harness's round trips to the browser are not in them.
TIMING = """
new MutationObserver((_, seen) => {
  if (!document.body || !document.body.dataset.game || window.shownAt) return;
  window.shownAt = performance.now();
  seen.disconnect();
  setTimeout(() => document.getElementById('analysis-on').click(), 0);
  new MutationObserver((_, drawn) => {
    if (document.querySelector('#an-lines li')) { window.lineAt = performance.now(); drawn.disconnect(); }
  }).observe(document.getElementById('an-lines'), { childList: true, subtree: true });
}).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-game'] });
"""


def timed_load(page, url):
    page.goto(url)
    page.wait_for_function("() => window.lineAt", timeout=WAIT_MS, polling=50)
    return page.evaluate("() => [window.shownAt, window.lineAt]")


def one_run(browser, url):
    """The first load (nothing cached), then a reload served by the service worker."""
    context = browser.new_context()
    context.add_init_script(TIMING)
    page = context.new_page()
    first = timed_load(page, url)
    # The service worker active (its files kept), and the first game forgotten, from a blank
    # page of the site (the game's page, left running, would store its game again): the
    # reload starts a new game as the first load did.
    page.evaluate("() => navigator.serviceWorker.ready")
    page.goto(url + "blank-test.html")
    page.evaluate("() => localStorage.clear()")
    again = timed_load(page, url)
    context.close()
    return first, again


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", default=os.path.join(ROOT, "target", "site"))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.site, "bashni-serve.js")):
        print(f"error: no site in {args.site} (run wasm/build.sh {args.site})", file=sys.stderr)
        return 2
    rows = sizes(args.site)
    print("file sizes (bytes, gzip -9):")
    for name, raw, gz in rows:
        print(f"  {name:24} {raw:>10} {gz:>10}")
    page = [r for r in rows if first_load(r[0])]
    print(f"first load (page, modules, bashni-serve.js, bashni.wasm, sw.js): "
          f"{sum(r[1] for r in page)} bytes, {sum(r[2] for r in page)} gzip -9")
    print(f"the whole site (what the service worker keeps): "
          f"{sum(r[1] for r in rows)} bytes, {sum(r[2] for r in rows)} gzip -9")
    if args.runs < 1:
        return 0
    test_wasm.SITE = args.site
    # A page of the site's origin that is not the game's (as test_wasm.py writes it).
    with open(os.path.join(args.site, "blank-test.html"), "w", encoding="utf-8") as f:
        f.write("<!doctype html><title>blank</title>")
    with test_wasm.static_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        runs = []
        for i in range(args.runs):
            first, again = one_run(browser, url)
            runs.append(first + again)
            print(f"run {i + 1}: first load: game shown {first[0]:.0f} ms, first analysis line "
                  f"{first[1]:.0f} ms; reload from the service worker: {again[0]:.0f} ms, {again[1]:.0f} ms")
        browser.close()
    med = [statistics.median(r[k] for r in runs) for k in range(4)]
    print(f"median: first load: game shown {med[0]:.0f} ms, first analysis line {med[1]:.0f} ms; "
          f"reload: {med[2]:.0f} ms, {med[3]:.0f} ms (from the start of the navigation)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
