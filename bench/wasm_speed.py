#!/usr/bin/env python3
"""The engine module's speed against the native binary, side by side in one run (docs/web.md,
docs/measurements.md#webassembly).

    python3 bench/wasm_speed.py [--site target/site] [--bashni target/release/bashni] [--runs 3]

For each game it searches the bench positions (`bashni bench`'s) to a fixed depth, on one
thread with a cleared 16 MiB table before each, through the protocol (`ucinewgame`, `position
fen`, `go depth`), in the native binary and in the module in headless Chromium, alternating the
two RUNS times; both are read the same way (the nodes and time of each search's last `info`
line); it prints each run's nodes a second (the node counts must be equal: the same search), the
medians and their ratio. It also prints the time from a new Web Worker to the engine's first line
(`uciok`) and the compressed size of what a browser downloads. Run it on an idle machine: the
figures are times.

Needs /usr/bin/chromium and Playwright for Python (the browser tests' virtual environment,
target/tmp/playwright).
"""

import argparse
import gzip
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "browser"))
from playwright.sync_api import sync_playwright  # noqa: E402

from harness import ARGS, CHROMIUM, ROOT  # noqa: E402
from test_wasm import Engine, static_server  # noqa: E402
import test_wasm  # noqa: E402

DEPTH = {"bashni": 9, "turkish": 8, "russian": 11, "lasca": 9}


def bench_fens(bashni, variant):
    out = subprocess.run([bashni, "bench", "--variant", variant, "--depth", "1"],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    return re.findall(r"^position +\d+ best \S+ +score +\S+ nodes +\d+ time +\d+ (.+)$", out, re.M)


def totals(lines):
    """Nodes and ms summed over the searches' last `info ... pv` lines before each bestmove."""
    nodes = ms = 0
    last = None
    for line in lines:
        if line.startswith("info depth") and " pv " in line:
            last = line
        elif line.startswith("bestmove"):
            nodes += int(re.search(r" nodes (\d+)", last).group(1))
            ms += int(re.search(r" time (\d+)", last).group(1))
    return nodes, nodes * 1000 // max(ms, 1)


def native_run(bashni, variant, fens):
    script = [f"setoption name UCI_Variant value {variant}"]
    for fen in fens:
        script += ["ucinewgame", f"position fen {fen}", f"go depth {DEPTH[variant]}", "isready"]
    out = subprocess.run([bashni], input="\n".join(script) + "\n", capture_output=True,
                         text=True, check=True, timeout=3600).stdout
    return totals(out.splitlines())


def module_run(engine, variant, fens):
    nodes = ms = 0
    engine.send(f"setoption name UCI_Variant value {variant}")
    for fen in fens:
        engine.clear()
        engine.send("ucinewgame", f"position fen {fen}", f"go depth {DEPTH[variant]}")
        engine.wait_for("bestmove", fen)
        last = [l for l in engine.lines() if l.startswith("info depth") and " pv " in l][-1]
        nodes += int(re.search(r" nodes (\d+)", last).group(1))
        ms += int(re.search(r" time (\d+)", last).group(1))
    return nodes, nodes * 1000 // max(ms, 1)


def first_line_ms(page):
    return page.evaluate("""() => new Promise((done) => {
        const t = performance.now();
        const w = new Worker('bashni-worker.js?' + Math.random());
        w.onmessage = () => { done(performance.now() - t); w.terminate(); };
        w.postMessage('isready');
    })""")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", default=os.path.join(ROOT, "target", "site"))
    ap.add_argument("--bashni", default=os.path.join(ROOT, "target", "release", "bashni"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--games", default="bashni,turkish,russian,lasca")
    a = ap.parse_args()
    test_wasm.SITE = a.site
    test_wasm.WAIT_MS = 1_800_000
    sizes = {}
    for name in sorted(os.listdir(a.site)):
        with open(os.path.join(a.site, name), "rb") as f:
            data = f.read()
        sizes[name] = (len(data), len(gzip.compress(data, 9)))
    print("file sizes (bytes, gzip -9):")
    for name, (raw, gz) in sizes.items():
        print(f"  {name:28} {raw:>10} {gz:>10}")
    print(f"  {'total':28} {sum(r for r, _ in sizes.values()):>10} {sum(g for _, g in sizes.values()):>10}")
    with static_server() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.goto(url + "example.html")
        firsts = [first_line_ms(page) for _ in range(5)]
        print(f"new Worker to first line (readyok), ms: {', '.join(f'{t:.0f}' for t in firsts)};"
              f" median {statistics.median(firsts):.0f}")
        engine = Engine(page)
        for variant in a.games.split(","):
            nat, mod = [], []
            fens = bench_fens(a.bashni, variant)
            for run in range(a.runs):
                n_nodes, n_nps = native_run(a.bashni, variant, fens)
                m_nodes, m_nps = module_run(engine, variant, fens)
                assert m_nodes == n_nodes, f"{variant}: module {m_nodes} nodes, native {n_nodes}"
                nat.append(n_nps)
                mod.append(m_nps)
                print(f"{variant} depth {DEPTH[variant]} run {run + 1}: nodes {n_nodes}, "
                      f"native {n_nps} nps, module {m_nps} nps")
            ratio = statistics.median(mod) / statistics.median(nat)
            print(f"{variant}: median native {statistics.median(nat):.0f} nps, module "
                  f"{statistics.median(mod):.0f} nps, module/native {ratio:.2f}")
        browser.close()


if __name__ == "__main__":
    main()
