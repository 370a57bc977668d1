#!/usr/bin/env python3
"""Protocol timing figures for the README. Drives `chuhan` over UCCI:

1. stop -> bestmove latency: `go infinite` from varied positions, `stop` after
   50-150 ms, time until the `bestmove` line arrives (N trials).
2. `go time T` overrun: N short sudden-death / last-move budgets; with
   `setoption debug true` the engine prints its hard budget, and the overrun
   is the wall time from sending `go` to reading `bestmove` minus that budget.
   Also reports how often the wall time exceeded T itself (a loss on time).
3. `go movetime 100`: wall time from `go` to `bestmove` (N trials).

Times are wall-clock at this end of the pipe (they include the pipe latency
a GUI sees). Prints medians and worsts.

Usage: protocol_latency.py PATH_TO_CHUHAN [--trials N] [--seed S]
"""
import argparse
import queue
import random
import statistics
import subprocess
import threading
import time

OPENINGS = [
    "position startpos",
    "position startpos moves h2e2 h9g7",
    "position startpos moves b2e2 b9c7 b0c2 a9b9",
    "position startpos moves c3c4 g6g5 h0g2 h9g7 b0c2",
    "position fen r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "position fen 2bakab2/9/2n1c1n2/p3p3p/2p3p2/9/P1P1P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 1",
]


class Engine:
    def __init__(self, exe):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put((time.perf_counter(), line.rstrip("\n")))
        self.q.put((time.perf_counter(), None))

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return time.perf_counter()

    def until(self, pred, timeout=30):
        deadline = time.perf_counter() + timeout
        seen = []
        while True:
            t, line = self.q.get(timeout=max(0.0, deadline - time.perf_counter()))
            if line is None:
                raise RuntimeError("engine exited")
            seen.append(line)
            if pred(line):
                return t, seen


def is_final(line):
    return line.startswith("bestmove") or line == "nobestmove"


def summary(name, values, unit="ms"):
    v = sorted(values)
    print(f"{name}: n={len(v)} median {statistics.median(v):.1f} {unit}, "
          f"p90 {v[int(len(v) * 0.9) - 1]:.1f} {unit}, worst {v[-1]:.1f} {unit}, best {v[0]:.1f} {unit}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    e = Engine(args.exe)
    e.send("ucci")
    e.until(lambda l: l == "ucciok")
    e.send("setoption debug true")
    e.send("setoption usebook false")  # book replies skip the search and its budget line

    lat = []
    for i in range(args.trials):
        e.send(OPENINGS[i % len(OPENINGS)])
        e.send("go infinite")
        time.sleep(rng.uniform(0.05, 0.15))
        t0 = e.send("stop")
        t1, _ = e.until(is_final)
        lat.append((t1 - t0) * 1000)
    summary("stop -> bestmove latency", lat)

    over, beyond_t, walls = [], 0, []
    for i in range(args.trials):
        t = rng.choice([100, 200, 300, 500, 1000, 2000])
        mtg = rng.choice(["", " movestogo 1", " movestogo 5"])
        e.send(OPENINGS[i % len(OPENINGS)])
        t0 = e.send(f"go time {t}{mtg}")
        t1, seen = e.until(is_final)
        budget = None
        for line in seen:
            if "debug: budget" in line:
                budget = int(line.split("hard ")[1].split(" ms")[0])
        wall = (t1 - t0) * 1000
        walls.append(wall)
        over.append(wall - budget)
        if wall > t:
            beyond_t += 1
            print(f"  over T: go time {t}{mtg}: wall {wall:.1f} ms, hard budget {budget} ms")
    summary("go time T: wall minus hard budget", over)
    print(f"go time T: wall time exceeded T itself in {beyond_t} of {args.trials} trials")

    mt = []
    for i in range(args.trials):
        e.send(OPENINGS[i % len(OPENINGS)])
        t0 = e.send("go movetime 100")
        t1, _ = e.until(is_final)
        mt.append((t1 - t0) * 1000)
    summary("go movetime 100: wall time", mt)
    e.send("quit")
    e.p.wait(timeout=10)


if __name__ == "__main__":
    main()
