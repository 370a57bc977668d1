#!/usr/bin/env python3
"""Relabel `chuhan datagen` records with another UCI engine's search scores.

    python3 tests/tools/relabel.py ENGINE IN OUT --depth 10 --jobs 2 \
        --every 3 --k 0.002682

Each kept record of IN (a quiet one: flags `-`; with `--every N` only every
N-th line, from line `--offset`) is searched by ENGINE (`go depth D`, one
engine process per job, `--hash` MB and one thread each) and written to OUT
in its original order with its score field replaced by the engine's final
score, turned to Red's view and scaled into Chuhan's units. Job j searches
records j, j + jobs, j + 2 jobs, ... in that order, so with the same
`--jobs` each engine's hash table sees the same sequence on every run. Records the
engine scores as a mate are left out. The other fields (the best move, the
game's result, the flags and the game index) stay as they were, so `chuhan
tune OUT --lambda L` fits the evaluation to `L` x the game results plus
`1 - L` x the engine's opinion.

Scaling: the tuner compares a score with its evaluation through
`sigmoid(K x score)`, with K fitted on Chuhan's evaluation (`chuhan tune`
prints it: `K = ...`). Give that K with `--k`: the script fits the engine's
own logistic scale K_e on the same game results and multiplies its scores by
K_e / K, so that a score means the same winning chance to both. `--scale S`
sets the factor instead.

A search that runs longer than `--timeout` seconds (60 by default) is
stopped and its record left out (counted at the end); an engine that does
not answer `uci`, `isready` or `stop` within that time ends the run.

Progress goes to stderr every 10,000 records. Exit status 1 with a message
when IN is not a regular file, cannot be read or holds a line that is not a
record (with its number), when OUT cannot be written, or when an engine
fails to start or exits.
"""

import argparse
import math
import os
import queue
import subprocess
import sys
import threading
import time


class Timeout(Exception):
    pass


class Engine:
    def __init__(self, path, hash_mb, timeout):
        try:
            self.p = subprocess.Popen(
                [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
            )
        except OSError as e:
            raise SystemExit(f"error: cannot start {path}: {e}")
        self.timeout = timeout
        # A reader thread feeds the lines to a queue, so that every wait
        # for the engine has a deadline.
        self.lines = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()
        try:
            self.send("uci")
            self.wait("uciok")
            self.send(f"setoption name Hash value {hash_mb}")
            self.send("setoption name Threads value 1")
            self.send("isready")
            self.wait("readyok")
        except Timeout:
            self.p.kill()
            raise SystemExit(f"error: {path} did not answer uci/isready within {timeout} s")

    def read(self):
        for s in self.p.stdout:
            self.lines.put(s)
        self.lines.put("")

    def send(self, s):
        try:
            self.p.stdin.write(s + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            raise SystemExit("error: the engine closed its input")

    def line(self, deadline):
        try:
            s = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise Timeout
        if not s:
            raise SystemExit("error: the engine exited")
        return s

    def wait(self, token):
        deadline = time.monotonic() + self.timeout
        while not self.line(deadline).startswith(token):
            pass

    def score(self, fen, depth):
        """The last exact score of `go depth`: ('cp', n) or ('mate', n), side
        to move's view; None without one. A search still running after the
        timeout is stopped and raises `Timeout` (its score, from a shallower
        depth than asked, is not used)."""
        self.send("position fen " + fen)
        self.send(f"go depth {depth}")
        best = None
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                s = self.line(deadline)
            except Timeout:
                self.send("stop")
                try:
                    self.wait("bestmove")
                except Timeout:
                    raise SystemExit(f"error: the engine ignored stop ({self.timeout} s after it)")
                raise
            if s.startswith("bestmove"):
                return best
            t = s.split()
            if t and t[0] == "info" and "score" in t and "pv" in t and "lowerbound" not in t and "upperbound" not in t:
                k = t.index("score")
                if k + 2 < len(t) and t[k + 1] in ("cp", "mate"):
                    best = (t[k + 1], int(t[k + 2]))

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except (SystemExit, subprocess.TimeoutExpired):
            self.p.kill()


def fit_k(xs, ys):
    """The logistic scale minimising the mean squared error of sigmoid(k x) against y."""

    def err(k):
        return sum((1 / (1 + math.exp(max(-60.0, min(60.0, -k * x)))) - y) ** 2 for x, y in zip(xs, ys))

    lo, hi = 1e-5, 0.1
    for _ in range(80):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if err(a) < err(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--offset", type=int, default=0)
    ap.add_argument("--limit", type=int, default=0, help="stop after this many records kept")
    ap.add_argument("--timeout", type=float, default=60, help="seconds a search may take (then the record is left out)")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--k", type=float, help="the tuner's logistic scale K")
    g.add_argument("--scale", type=float, help="multiply the engine's scores by this")
    a = ap.parse_args()
    if a.depth < 1 or a.jobs < 1 or a.every < 1 or not 0 <= a.offset < a.every or not 0 < a.timeout < math.inf:
        raise SystemExit("error: --depth, --jobs and --every must be >= 1, 0 <= --offset < --every, --timeout finite and > 0")

    records = []
    try:
        if not os.path.isfile(a.input):
            raise SystemExit(f"error: {a.input} is not a regular file")
        with open(a.input, encoding="utf-8") as f:
            for i, line in enumerate(f):
                if i % a.every != a.offset:
                    continue
                t = line.rstrip("\n").split(";")
                if len(t) != 6 or len(t[0].split()) < 2 or t[3] not in ("0", "0.5", "1"):
                    raise SystemExit(f"error: {a.input} line {i + 1}: not a datagen record")
                if t[4] != "-":
                    continue
                records.append(t)
                if a.limit and len(records) >= a.limit:
                    break
    except (OSError, UnicodeDecodeError) as e:
        raise SystemExit(f"error: cannot read {a.input}: {e}")

    scores = [None] * len(records)
    done = [0]
    timed_out = [0]
    lock = threading.Lock()
    failed = []
    t0 = time.time()

    def worker(j):
        try:
            e = Engine(a.engine, a.hash, a.timeout)
        except SystemExit as x:
            failed.append(str(x))
            return
        try:
            # Job j takes records j, j + jobs, ...: each engine's table
            # sees the same positions in the same order on every run.
            for i in range(j, len(records), a.jobs):
                if failed:
                    break
                fen = records[i][0]
                try:
                    s = e.score(fen, a.depth)
                except Timeout:
                    s = None
                    with lock:
                        timed_out[0] += 1
                if s is not None and s[0] == "cp":
                    scores[i] = s[1] if fen.split()[1] == "w" else -s[1]
                with lock:
                    done[0] += 1
                    if done[0] % 10000 == 0:
                        el = time.time() - t0
                        print(f"relabel: {done[0]}/{len(records)} in {el:.0f} s", file=sys.stderr, flush=True)
        except SystemExit as x:
            failed.append(str(x))
        finally:
            e.quit()

    threads = [threading.Thread(target=worker, args=(j,)) for j in range(a.jobs)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    if failed:
        raise SystemExit(failed[0])

    kept = [(r, s) for r, s in zip(records, scores) if s is not None]
    if not kept:
        raise SystemExit("error: no record was scored")
    if a.scale is not None:
        scale = a.scale
    else:
        sample = [(s, float(r[3])) for r, s in kept[:: max(1, len(kept) // 100000)] if abs(s) < 3000]
        ke = fit_k([s for s, _ in sample], [y for _, y in sample])
        scale = ke / a.k
        print(f"relabel: the engine's K = {ke:.6f}, scale {scale:.4f}", file=sys.stderr)
    try:
        with open(a.output, "w", encoding="utf-8") as o:
            for r, s in kept:
                r = list(r)
                r[1] = str(round(s * scale))
                o.write(";".join(r) + "\n")
    except OSError as e:
        raise SystemExit(f"error: cannot write {a.output}: {e}")
    print(
        f"relabel: {len(kept)} of {len(records)} records written in {time.time() - t0:.0f} s"
        f" ({timed_out[0]} left out for time)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
