"""The engine module in a browser (docs/web.md): the static site that `wasm/build.sh DIR` writes,
served by Python's plain static server, driven in headless Chromium. No bashni process runs
while the browser does: the native figures it is compared with are taken first.

- the 20-line page of docs/web.md, as written there, gets `bestmove` through the UCI-shaped
  protocol and `done move=` through Hub for a Russian position;
- perft through the module equals the native perft in every game;
- the bench positions' best moves (and node counts) at a fixed depth equal the native engine's;
- `isready` is answered and `stop` ends `go infinite` while the search runs.

BASHNI_SITE names the site (default target/site: `wasm/build.sh target/site` first); BASHNI the
native binary (default target/suite/bashni)."""

import contextlib
import os
import re
import socket
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

from harness import ARGS, BASHNI, CHROMIUM, ROOT

SITE = os.environ.get("BASHNI_SITE", os.path.join(ROOT, "target", "site"))
# Generous, only so that a broken module cannot hang CI: a loaded machine is slow, never wrong.
WAIT_MS = 120_000
PERFT = {"bashni": 6, "turkish": 5, "russian": 7, "lasca": 6}
BENCH_DEPTH = {"bashni": 6, "turkish": 5, "russian": 8, "lasca": 6}


def native(*args):
    return subprocess.run([BASHNI, *args], capture_output=True, text=True, check=True,
                          timeout=600).stdout


def native_perft(variant):
    out = native("perft", str(PERFT[variant]), "--variant", variant)
    return int(re.search(r"^nodes (\d+)", out, re.M).group(1))


def native_bench(variant):
    """[(fen, best move, nodes)] of `bashni bench` at BENCH_DEPTH."""
    out = native("bench", "--variant", variant, "--depth", str(BENCH_DEPTH[variant]))
    rows = []
    for line in out.splitlines():
        m = re.match(r"position +\d+ best (\S+) +score +\S+ nodes +(\d+) time +\d+ (.+)$", line)
        if m:
            rows.append((m.group(3), m.group(1), int(m.group(2))))
    assert rows, out
    return rows


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def static_server():
    """Python's static file server on SITE (nothing of bashni's runs on the server side)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                             "--directory", SITE, str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            assert time.monotonic() < deadline, "the static server did not start in 30 s"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.kill()
        proc.wait(timeout=30)


def embed_example():
    """The page of docs/web.md's 'example: embed' block, as written there."""
    with open(os.path.join(ROOT, "docs", "web.md"), encoding="utf-8") as f:
        doc = f.read()
    m = re.search(r"<!-- example: embed -->\n```html\n(.*?)```", doc, re.S)
    assert m, "docs/web.md has no 'example: embed' block"
    return m.group(1)


class Engine:
    """One bashni-worker.js in a page: lines in, lines out."""

    def __init__(self, page):
        self.page = page
        page.evaluate("""() => {
            window.engineLines = [];
            window.engine = new Worker('bashni-worker.js');
            window.engine.onmessage = (e) => window.engineLines.push(e.data);
        }""")

    def send(self, *lines):
        for line in lines:
            self.page.evaluate("(l) => window.engine.postMessage(l)", line)

    def lines(self):
        return self.page.evaluate("() => window.engineLines")

    def clear(self):
        self.page.evaluate("() => { window.engineLines = []; }")

    def wait_for(self, prefix, what):
        """The first line that starts with `prefix`, waiting at most WAIT_MS for it."""
        try:
            self.page.wait_for_function(
                "(p) => window.engineLines.some((l) => l.startsWith(p))", arg=prefix,
                timeout=WAIT_MS)
        except Exception as e:
            raise AssertionError(f"no '{prefix}' line for {what} in {WAIT_MS} ms: "
                                 f"{self.lines()[-5:]}") from e
        return next(line for line in self.lines() if line.startswith(prefix))


def test_embed_example(browser, url):
    with open(os.path.join(SITE, "embed-example.html"), "w", encoding="utf-8") as f:
        f.write(embed_example())
    page = browser.new_page()
    page.goto(url + "embed-example.html")
    page.wait_for_function(
        "() => /uci: bestmove \\S+/.test(document.getElementById('out').textContent)"
        " && /hub: done move=\\S+/.test(document.getElementById('out').textContent)",
        timeout=WAIT_MS)
    text = page.text_content("#out")
    assert "uci: info depth 10 " in text, text[-500:]
    page.close()


def test_perft(page, perfts):
    engine = Engine(page)
    for variant, want in perfts.items():
        engine.clear()
        engine.send(f"setoption name UCI_Variant value {variant}", f"go perft {PERFT[variant]}")
        got = int(engine.wait_for("nodes ", f"{variant} perft").split()[1])
        assert got == want, f"{variant} perft {PERFT[variant]}: module {got}, native {want}"


def test_bench(page, benches):
    engine = Engine(page)
    for variant, rows in benches.items():
        engine.send(f"setoption name UCI_Variant value {variant}")
        for fen, best, nodes in rows:
            engine.clear()
            engine.send("ucinewgame", f"position fen {fen}", f"go depth {BENCH_DEPTH[variant]}")
            line = engine.wait_for("bestmove", f"{variant} {fen}")
            assert line.split()[1] == best, f"{variant} {fen}: module {line}, native {best}"
            last = [l for l in engine.lines() if l.startswith("info depth") and " pv " in l][-1]
            got = int(re.search(r" nodes (\d+)", last).group(1))
            assert got == nodes, f"{variant} {fen}: module {got} nodes, native {nodes}"


def test_stop_and_isready_during_a_search(page):
    assert page.evaluate("() => typeof WebAssembly.Suspending") == "function", \
        "this Chromium has no JavaScript Promise Integration"
    engine = Engine(page)
    engine.send("position startpos", "go infinite")
    engine.wait_for("info depth 6 ", "go infinite")
    engine.send("isready")
    engine.wait_for("readyok", "isready during go infinite")
    assert not any(l.startswith("bestmove") for l in engine.lines()), "the search ended by itself"
    engine.send("stop")
    engine.wait_for("bestmove", "stop")
    assert sum(l.startswith("bestmove") for l in engine.lines()) == 1


def main():
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    if not os.path.exists(os.path.join(SITE, "bashni.wasm")):
        print(f"error: no site in {SITE} (run wasm/build.sh {SITE})", file=sys.stderr)
        return 2
    # The native figures first: no bashni process runs while the browser does.
    perfts = {v: native_perft(v) for v in PERFT}
    benches = {v: native_bench(v) for v in BENCH_DEPTH}
    with static_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        errors = []
        page = browser.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        with open(os.path.join(SITE, "blank-test.html"), "w", encoding="utf-8") as f:
            f.write("<!doctype html><meta charset='utf-8'><title>module test</title>")
        page.goto(url + "blank-test.html")
        test_embed_example(browser, url)
        print("ok test_embed_example")
        for t, args in ((test_perft, (perfts,)), (test_bench, (benches,)),
                        (test_stop_and_isready_during_a_search, ())):
            t(page, *args)
            print(f"ok {t.__name__}")
        assert not errors, errors
        browser.close()
    print("module tests passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
