#!/usr/bin/env python3
"""A small PDN that names long lines many times, sent to `bashni serve` (issue 43, item 2).

    bench/pdn_amplification.py BASHNI [VARIATIONS]

A 1,999-ply game of kings shuffling (FEN 8/8/8/8/8/8/7B/W7 w) with one-move variations at
White's last VARIATIONS moves (default 300: 21 KB of PDN), POSTed to /api/games once and then
four at once; prints the status, the answer's bytes, the server's CPU seconds (from
/proc/PID/stat) and its RSS before and after."""
import json, os, re, subprocess, sys, threading, time, http.client

BIN = sys.argv[1]
KINGS = "8/8/8/8/8/8/7B/W7 w"
SH = ["a1-b2", "h2-g1", "b2-a1", "g1-h2"]

def pdn(variations=300):
    out = [f'[FEN "{KINGS}"]\n\n']
    first = 1999 - 2 * variations
    for ply in range(1999):
        if ply % 2 == 0:
            out.append(f"{ply // 2 + 1}. ")
        out.append(SH[ply % 4])
        out.append("\n" if ply % 16 == 15 else " ")
        if ply % 2 == 0 and ply >= first:
            other = "a1-c3" if ply % 4 == 0 else "b2-c1"
            out.append(f"({ply // 2 + 1}. {other}) ")
    out.append("*\n")
    return "".join(out)

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

def rss(pid):
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS:"):
            return int(l.split()[1])

def post(port, body):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    c.request("POST", "/api/games", body, {"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"})
    r = c.getresponse()
    data = r.read()
    return r.status, data

text = pdn(int(sys.argv[2]) if len(sys.argv) > 2 else 300)
print(f"PDN: {len(text)} bytes")
body = json.dumps({"pdn": text})
p = subprocess.Popen([BIN, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
line = p.stdout.readline()
port = int(re.search(r":(\d+)", line.split("http://")[1]).group(1))
time.sleep(0.3)
c0, r0 = cpu(p.pid), rss(p.pid)
t = time.time()
st, data = post(port, body)
print(f"one request: status {st}, answer {len(data)} bytes, server CPU {cpu(p.pid)-c0:.2f} s, "
      f"wall {time.time()-t:.2f} s, RSS {r0} -> {rss(p.pid)} KiB; answer starts {data[:160]!r}")
c1, r1 = cpu(p.pid), rss(p.pid)
res = []
ths = [threading.Thread(target=lambda: res.append(post(port, body))) for _ in range(4)]
t = time.time()
for th in ths: th.start()
for th in ths: th.join()
print(f"four at once: statuses {[s for s, _ in res]}, answers {[len(d) for _, d in res]} bytes, "
      f"server CPU {cpu(p.pid)-c1:.2f} s, wall {time.time()-t:.2f} s, RSS {r1} -> {rss(p.pid)} KiB")
p.terminate(); p.wait()
