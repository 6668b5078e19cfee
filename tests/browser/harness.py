"""What the browser tests of `bashni serve`'s page share: the server run on a free port, a
page driven through the automation contract (web/CONTRACT.md), an independent FEN reader, and
helpers that play moves by clicking."""

import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASHNI = os.environ.get("BASHNI", os.path.join(ROOT, "target", "suite", "bashni"))
OUT = os.environ.get("BROWSER_OUT", os.path.join(ROOT, "target", "browser"))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
FILES = "abcdefgh"
# The longest any single wait lasts (a page's change, a request, a command): generous for a
# loaded machine, only so that a broken page or server fails instead of hanging CI; the same
# as the Rust tests' DEADLINE (tests/common/deadline.rs).
DEADLINE_S = 120
WAIT_MS = DEADLINE_S * 1000


def until(what, f):
    """Polls `f` until it returns something true, and returns that; fails after DEADLINE_S
    saying it waited for `what`."""
    end = time.monotonic() + DEADLINE_S
    while True:
        got = f()
        if got:
            return got
        assert time.monotonic() < end, f"waited {DEADLINE_S} s for {what}"
        time.sleep(0.05)


def run(args, **kw):
    """subprocess.run with the deadline (a hung command fails the test)."""
    return subprocess.run(args, timeout=DEADLINE_S, **kw)


def parse_fen(fen):
    """{square: tower} with towers top first, as in docs/rules.md (an independent reader)."""
    board = fen.split()[0]
    rows = board.split("/")
    assert len(rows) in (7, 8), fen  # Lasca's board is 7x7
    out = {}
    for i, row in enumerate(rows):
        rank, file, k = len(rows) - i, 0, 0
        while k < len(row):
            c = row[k]
            if c.isdigit():
                file += int(c)
            else:
                if c == "(":
                    end = row.index(")", k)
                    tower, k = row[k + 1:end], end
                else:
                    tower = c
                out[FILES[file] + str(rank)] = tower
                file += 1
            k += 1
    return out


class Server:
    def __init__(self, *args):
        self.proc = subprocess.Popen([BASHNI, "serve", "--port", "0", *args],
                                     stdout=subprocess.PIPE, text=True)
        # Its first line says where it listens, read on a thread: a server that never listens
        # fails the test instead of hanging it.
        said = []
        reader = threading.Thread(target=lambda: said.append(self.proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(DEADLINE_S)
        if not said:
            self.proc.kill()
            raise AssertionError(f"bashni serve {args} said nowhere it listens within {DEADLINE_S} s")
        line = said[0]
        m = re.search(r"http://\S+/", line)
        assert m, f"no address in {line!r}"
        self.url = m.group(0)

    def get(self, path):
        with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=DEADLINE_S) as r:
            return json.loads(r.read())

    def stop(self):
        self.proc.kill()
        self.proc.wait()


class Page:
    def __init__(self, server, browser, context=None):
        """A page in a browser context of its own, or another tab of `context`'s (its
        localStorage shared)."""
        self.server = server
        if context is None:
            context = browser.new_context(viewport={"width": 1180, "height": 820})
        self.page = context.new_page()
        self.page.set_default_timeout(WAIT_MS)
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # Anything the page's Content-Security-Policy blocks is an error too.
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" and "Content Security Policy" in m.text else None)
        self.page.on("dialog", lambda d: d.accept())
        if os.environ.get("WEB_DIR"):
            self.page.route(re.compile(r"^https?://[^/]+/(?!api/)[^?]*(\?.*)?$"), self.serve_from_disk)

    def serve_from_disk(self, route):
        """WEB_DIR=web: the page's files from that folder, not the binary's (quicker edits)."""
        path = urllib.parse.urlparse(route.request.url).path
        name = {"/": "index.html", "/index.html": "index.html", "/puzzles": "puzzles.html"}.get(path, path.lstrip("/"))
        full = os.path.join(os.environ["WEB_DIR"], name)
        if "/" in name or not os.path.isfile(full):
            return route.continue_()
        kind = {"html": "text/html", "js": "text/javascript", "css": "text/css"}[name.rsplit(".", 1)[1]]
        with open(full, "rb") as f:
            route.fulfill(status=200, body=f.read(), content_type=kind + "; charset=utf-8")

    def open(self, query=""):
        self.page.goto(self.server.url + query)
        self.page.wait_for_selector("body[data-game]", timeout=WAIT_MS)
        self.wait_settled()

    def game(self):
        return self.page.get_attribute("body", "data-game")

    def state(self):
        return self.server.get(f"/api/games/{self.game()}")

    def moves_shown(self):
        """The main line's moves (a variation's carry data-variation)."""
        return self.page.eval_on_selector_all("#moves > [data-ply]:not([data-variation])",
                                              "els => els.map(e => e.dataset.move)")

    def towers_shown(self):
        return self.page.eval_on_selector_all(
            "#board [data-tower]",
            "els => els.map(e => [e.getAttribute('data-square'), e.getAttribute('data-tower')])")

    def wait_settled(self):
        """Until the page shows the server's latest state and the engine is not moving."""
        self.page.wait_for_function(
            """() => { const s = document.getElementById('status');
                       return s.dataset.state && s.dataset.thinking !== 'play'; }""",
            timeout=WAIT_MS)
        def settled():
            st = self.state()
            return st if st["thinking"] != "play" and self.moves_shown() == st["moves"] else None
        return until("the page's moves to match the server's", settled)

    def check_board(self, fen=None):
        """Every data-tower on the board equals the FEN (the server's last one by default)."""
        if fen is None:
            fen = self.state()["fens"][-1]
        want = parse_fen(fen)
        shown = dict(self.towers_shown())
        assert len(self.towers_shown()) == len(shown), "two towers on one square"
        assert shown == want, f"board {shown} != FEN {fen}"
        assert self.page.get_attribute("#board", "data-fen") == fen
        return fen

    def click(self, square):
        # The topmost element of the square: its tower if any, else the square itself.
        self.page.locator(f'#board [data-square="{square}"]').last.click()

    def squares(self):
        """The playable squares drawn (each square's rect carries data-square)."""
        return sorted(self.page.eval_on_selector_all(
            "#board rect[data-square]", "els => els.map(e => e.getAttribute('data-square'))"))

    def new_game(self, variant, human="white", level="0", movetime="0.1"):
        """A new game from the dialog."""
        self.page.click("#btn-new")
        self.page.select_option("#variant", variant)
        self.page.check(f'input[name=human][value={human}]')
        self.page.fill("#level", level)
        self.page.check('input[name=tmode][value=move]')
        self.page.fill("#movetime", movetime)
        first = self.game()
        self.page.click("#new-start")
        self.page.wait_for_function(f"() => document.body.dataset.game !== '{first}'",
                                    timeout=WAIT_MS)
        return self.wait_settled()

    def pdn(self):
        """The game's PDN as the page's download link gives it."""
        href = self.page.get_attribute("#pdn-download", "href")
        with urllib.request.urlopen(self.server.url + href.lstrip("/"), timeout=DEADLINE_S) as r:
            return r.read().decode()


def choose(legal):
    """A capture when there is one (then all legal moves are captures), else a quiet move; one
    that clicking its first and last squares plays: where two captures join the same squares
    the page asks which (#choice), and a test that only clicks would wait for nothing."""
    caps = [m for m in legal if ":" in m["move"]]
    ends = [(m["path"][0], m["path"][-1]) for m in legal]
    unique = [m for m in (caps or legal) if ends.count((m["path"][0], m["path"][-1])) == 1]
    return (unique or caps or legal)[0]


TOWER_FENS = [
    "1b1b4/b1b3b1/1b1b4/8/3(Wbwbbw)4/w1w1(Bbw)1w1/1w1w1w1w/w7 w 0 12",
    "8/b7/8/2(Wbbbbwwbb)5/8/2(bwwwb)5/8/(BWw)7 b 3 40",
    "1b1b1b2/b1b1(bw)1b1/1b3b1b/8/3(Wbb)4/w1w3w1/1w1w1w1w/w1w5 w 0 14",
]


def play_by_clicking(p, plies):
    """Plays `plies` of our moves by clicking (a capture when there is one), checking every
    square against the server's FEN after each ply, ours and the engine's."""
    played = 0
    for _ in range(plies):
        st = p.wait_settled()
        p.check_board()
        if st["result"]:
            break
        m = choose(st["legal"])
        before = len(st["moves"])
        click_move(p, m)
        p.page.wait_for_function(
            f"""() => document.querySelectorAll('#moves > [data-ply]').length >= {before + 2}
                      || document.getElementById('status').dataset.state === 'over'""",
            timeout=WAIT_MS)
        st = p.wait_settled()
        assert st["moves"][before] == m["move"], (st["moves"], m)
        assert not st["notice"], st["notice"]
        p.check_board(st["fens"][-1])
        if len(st["moves"]) > before + 1:
            p.page.click(f'#moves > [data-ply="{before + 1}"]')
            p.check_board(st["fens"][before + 1])
            p.page.keyboard.press("End")
        played += 1
    return played


def wait_notice(p, part):
    p.page.wait_for_function(
        f"() => document.getElementById('notice').textContent.includes({json.dumps(part)})",
        timeout=WAIT_MS)
    return p.page.inner_text("#notice")


def play_first_legal(p, n):
    """Plays the first legal move `n` times by clicking (a game where the person plays both)."""
    for _ in range(n):
        st = p.state()
        m = st["legal"][0]
        p.click(m["path"][0])
        p.click(m["path"][-1])
        p.page.wait_for_function(
            f"() => document.querySelectorAll('#moves > [data-ply]:not([data-variation])').length === {len(st['moves']) + 1}",
            timeout=WAIT_MS)
    return p.wait_settled()["moves"]


def click_move(p, m):
    """Plays legal move `m` (as the page's state lists it) on the board: its first square
    (the legal moves of an earlier position come a moment later: the click is tried until it
    selects), its last, and its button in #choice when several captures join those squares."""
    def selected():
        p.click(m["path"][0])
        return p.page.locator("#marks .hl-sel").count()
    until(f"a click on {m['path'][0]} to select it", selected)
    p.click(m["path"][-1])
    if p.page.locator(f'#choice button[data-move="{m["move"]}"]').count():
        p.page.click(f'#choice button[data-move="{m["move"]}"]')


def api_post(server, path, body=None):
    """POST to the API as the page does; the JSON answer (a refusal raises)."""
    req = urllib.request.Request(server.url + path.lstrip("/"), data=json.dumps(body or {}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def api_delete(server, gid):
    """Closes game `gid` on the server (as a restart of the server would, for its pages)."""
    req = urllib.request.Request(server.url + f"api/games/{gid}", method="DELETE")
    urllib.request.urlopen(req, timeout=30).read()


def rule_moves(server, plies):
    """`plies` moves of Bashni chosen by a fixed rule (so mistakes of both sides), played on a
    game of the server's that is closed again."""
    st = api_post(server, "/api/games", {"human": "both"})
    while len(st["moves"]) < plies and not st["result"]:
        legal = st["legal"]
        st = api_post(server, f"/api/games/{st['id']}/move",
                      {"move": legal[(len(st["moves"]) * 5 + 3) % len(legal)]["move"]})
    api_delete(server, st["id"])
    return st["moves"]


def review_shown(p, nodes):
    """Reviews the game of page `p` at `nodes` a position (through the API: the page follows
    its events) and waits until the page shows the whole review."""
    n = len(p.state()["moves"])
    api_post(p.server, f"/api/games/{p.game()}/review", {"nodes": nodes})
    p.page.wait_for_function(f"() => document.getElementById('review').dataset.progress === '{n}/{n}'",
                             timeout=WAIT_MS * 4)
    return p.server.get(f"/api/games/{p.game()}/review")


def run_tests(tests, what):
    """Runs `tests` (each `t(server, browser)`) against one server in one headless Chromium,
    only those named in BROWSER_TESTS (comma-separated) when it is set; prints each one's time
    and `{what}` at the end. The `main` of a browser test file; its exit status."""
    from playwright.sync_api import sync_playwright
    if not os.path.exists(CHROMIUM):
        print(f"error: {CHROMIUM} not found (apt-get install chromium)", file=sys.stderr)
        return 2
    only = [n for n in os.environ.get("BROWSER_TESTS", "").split(",") if n]
    tests = [t for t in tests if not only or t.__name__ in only]
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
    print(what)
    return 0
