#!/usr/bin/env python3
"""Independent oracle for the protocol: drive `chuhan` (no arguments = engine)
over UCCI and UCI with positions from seeded random pyffish games, and check
with pyffish that every `bestmove`, its `ponder` move and every `pv` line is
legal, and that `nobestmove` / `bestmove (none)` comes exactly when the side
to move has no legal move.

Positions are sent both as `position fen F` and as `position startpos moves
...` (the game so far). pyffish writes ranks 1..10, Chuhan 0..9.

Usage: protocol_pyffish.py PATH_TO_CHUHAN [--positions N] [--seed S]
"""
import argparse
import queue
import random
import re
import subprocess
import sys
import threading
import time

import pyffish as sf

MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")
VARIANT = "xiangqi"


def to_iccs(m):
    g = MOVE.match(m)
    if not g:
        raise ValueError(f"unexpected pyffish move {m}")
    return f"{g[1]}{int(g[2]) - 1}{g[3]}{int(g[4]) - 1}"


def to_sf(m):
    g = MOVE.match(m)
    if not g:
        return None
    return f"{g[1]}{int(g[2]) + 1}{g[3]}{int(g[4]) + 1}"


class Engine:
    def __init__(self, exe, dialect):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.dialect = dialect
        self.send(dialect)
        self.until(lambda l: l in ("ucciok", "uciok"), 10)

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred, timeout):
        lines, deadline = [], time.time() + timeout
        while True:
            try:
                line = self.q.get(timeout=max(0.0, deadline - time.time()))
            except queue.Empty:
                raise RuntimeError(f"timeout; last lines {lines[-5:]}")
            if line is None:
                raise RuntimeError(f"engine exited; last lines {lines[-5:]}")
            lines.append(line)
            if pred(line):
                return lines

    def close(self):
        self.send("quit")
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            raise RuntimeError("engine did not exit after quit")
        if self.p.returncode != 0:
            raise RuntimeError(f"exit code {self.p.returncode}")


def collect(n, seed):
    rng = random.Random(seed)
    start = sf.start_fen(VARIANT)
    out = []
    while len(out) < n:
        moves, fen = [], start
        for _ply in range(rng.randint(0, 160)):
            legal = sf.legal_moves(VARIANT, fen, [])
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            fen = sf.get_fen(VARIANT, fen, [m])
        out.append((start, moves, fen))
    return out


def check_line(fen, moves, words, what, errors, context):
    """`words` are ICCS moves played in sequence from (fen, moves)."""
    seq = list(moves)
    for w in words:
        m = to_sf(w)
        if m is None or m not in sf.legal_moves(VARIANT, fen, seq):
            errors.append(f"{context}: illegal {what} move {w} in {' '.join(words)}")
            return
        seq.append(m)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    games = collect(args.positions, args.seed)
    engines = {d: Engine(args.exe, d) for d in ("ucci", "uci")}
    rng = random.Random(args.seed + 1)
    errors, checked_pv, checked_best, no_moves = [], 0, 0, 0
    for i, (start, moves, fen) in enumerate(games):
        dialect = "ucci" if i % 2 == 0 else "uci"
        e = engines[dialect]
        if i % 3 == 0:
            e.send("position startpos moves " + " ".join(to_iccs(m) for m in moves) if moves else "position startpos")
        else:
            e.send(f"position fen {fen}")
        # Legality does not depend on the history: check from the FEN.
        base_fen, base_moves = fen, []
        go = rng.choice(["go depth 3", "go depth 5", "go nodes 20000", "go movetime 30"])
        e.send(go)
        lines = e.until(lambda l: l.startswith("bestmove") or l == "nobestmove", 30)
        context = f"#{i} {dialect} {fen} {go}"
        legal = sf.legal_moves(VARIANT, fen, [])
        final = lines[-1].split()
        for l in lines[:-1]:
            w = l.split()
            if w[:1] == ["info"] and "pv" in w:
                check_line(base_fen, base_moves, w[w.index("pv") + 1:], "pv", errors, context)
                checked_pv += 1
        if final[0] == "nobestmove" or final[1] == "(none)":
            no_moves += 1
            if legal:
                errors.append(f"{context}: no move reported but {len(legal)} legal moves")
            continue
        if not legal:
            errors.append(f"{context}: bestmove {final[1]} in a position without legal moves")
            continue
        played = [final[1]]
        if "ponder" in final:
            played.append(final[final.index("ponder") + 1])
        check_line(base_fen, base_moves, played, "bestmove/ponder", errors, context)
        checked_best += 1
    for e in engines.values():
        e.close()
    print(f"{len(games)} positions: {checked_best} bestmoves, {checked_pv} pv lines, {no_moves} no-move answers checked")
    if errors:
        for err in errors[:20]:
            print("ERROR", err)
        print(f"{len(errors)} errors")
        sys.exit(1)
    print("all legal")


if __name__ == "__main__":
    main()
