#!/usr/bin/env python3
"""Lazy SMP figures for the README: drives `chuhan` over UCCI.

1. Time to depth: for each position, `go depth D` with 1 thread and with N
   threads (table cleared before each search); the time is the `time` field
   of the `info depth D` line. Prints the per-position ratio t1/tN, its
   median and geometric mean.
2. Depth in equal time: `go movetime T` with 1 and N threads; the deepest
   completed iteration (last `info depth` line) of each.

Positions: the first P lines of an EPD file (default book/suite.epd), spaced
through the file. Run on an otherwise idle machine with N <= cores.

Usage: smp_scaling.py CHUHAN [--threads N] [--depth D] [--movetime MS]
                             [--positions P] [--epd FILE]
"""
import argparse
import math
import statistics
import subprocess
import sys


class Engine:
    def __init__(self, exe):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("ucci")
        self.until(lambda l: l == "ucciok")
        self.send("setoption usebook false")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        seen = []
        for line in self.p.stdout:
            line = line.rstrip("\n")
            seen.append(line)
            if pred(line):
                return seen
        raise RuntimeError("engine exited")

    def search(self, fen, threads, go):
        self.send(f"setoption threads {threads}")
        self.send("setoption newgame")
        self.send(f"position fen {fen}")
        self.send(go)
        lines = self.until(lambda l: l.startswith("bestmove") or l == "nobestmove")
        infos = []
        for l in lines:
            w = l.split()
            if len(w) > 2 and w[0] == "info" and w[1] == "depth" and "time" in w:
                infos.append((int(w[2]), int(w[w.index("time") + 1]), int(w[w.index("nodes") + 1])))
        return infos

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--movetime", type=int, default=3000)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--epd", default="book/suite.epd")
    args = ap.parse_args()
    with open(args.epd) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    step = max(1, len(lines) // args.positions)
    fens = [" ".join(l.split()[:4]) + " 0 1" for l in lines[::step][: args.positions]]
    e = Engine(args.exe)
    n = args.threads

    ratios = []
    print(f"time to depth {args.depth}: 1 thread vs {n} threads (ms)")
    for fen in fens:
        t = {}
        for threads in (1, n):
            infos = [i for i in e.search(fen, threads, f"go depth {args.depth}") if i[0] == args.depth]
            t[threads] = max(infos[-1][1], 1) if infos else None
        if t[1] is None or t[n] is None:
            print(f"  {fen}: no depth-{args.depth} line, skipped")
            continue
        ratios.append(t[1] / t[n])
        print(f"  {t[1]:6d} {t[n]:6d}  x{t[1] / t[n]:.2f}  {fen}")
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"time-to-depth speedup ({n} threads): median x{statistics.median(ratios):.2f}, "
              f"geometric mean x{geo:.2f}, over {len(ratios)} positions")

    gains = []
    print(f"depth in {args.movetime} ms: 1 thread vs {n} threads")
    for fen in fens:
        d = {}
        for threads in (1, n):
            infos = e.search(fen, threads, f"go movetime {args.movetime}")
            d[threads] = max((i[0] for i in infos), default=0)
        gains.append(d[n] - d[1])
        print(f"  {d[1]:3d} {d[n]:3d}  {fen}")
    deeper = sum(g > 0 for g in gains)
    same = sum(g == 0 for g in gains)
    print(f"depth in equal time ({n} threads): mean gain {statistics.mean(gains):+.2f} plies; "
          f"deeper in {deeper}, equal in {same}, shallower in {len(gains) - deeper - same} of {len(gains)}")
    e.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
