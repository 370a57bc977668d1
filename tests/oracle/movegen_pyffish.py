#!/usr/bin/env python3
"""Independent oracle: compare Chuhan's legal move lists with pyffish's.

Plays seeded random games with pyffish (variant "xiangqi"), biased towards
captures so that sparse endings are reached too, collects at least
--positions distinct positions, and asks `chuhan perft 1 --divide` for the
legal moves of each. pyffish writes ranks 1..10, Chuhan 0..9. Any difference
in any position fails (exit 1) with the FEN and the two move sets.

Usage: movegen_pyffish.py PATH_TO_CHUHAN [--positions N] [--seed S]
"""
import argparse
import random
import re
import subprocess
import sys

import pyffish as sf

MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def to_iccs(m):
    g = MOVE.match(m)
    if not g:
        raise ValueError(f"unexpected pyffish move {m}")
    return f"{g[1]}{int(g[2]) - 1}{g[3]}{int(g[4]) - 1}"


def collect(n, seed):
    rng = random.Random(seed)
    start = sf.start_fen("xiangqi")
    seen, fens = set(), []
    while len(fens) < n:
        moves = []
        fen = start
        for _ply in range(rng.randint(20, 200)):
            legal = sf.legal_moves("xiangqi", start, moves)
            fen = sf.get_fen("xiangqi", start, moves)
            key = " ".join(fen.split()[:2])
            if key not in seen:
                seen.add(key)
                fens.append(fen)
            if not legal:
                break
            caps = [m for m in legal if is_capture(fen, m)]
            m = rng.choice(caps) if caps and rng.random() < 0.5 else rng.choice(legal)
            moves.append(m)
    return fens[:n]


def board_of(fen):
    rows = fen.split()[0].split("/")
    cells = {}
    for i, row in enumerate(rows):
        rank = 10 - i  # pyffish ranks 1..10
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                cells[(chr(ord("a") + f), rank)] = ch
                f += 1
    return cells


def is_capture(fen, m):
    g = MOVE.match(m)
    return (g[3], int(g[4])) in board_of(fen)


def chuhan_moves(exe, fen):
    out = subprocess.run([exe, "perft", "1", "--divide", "--fen", fen], capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise RuntimeError(f"chuhan rejected {fen}: {out.stderr.strip()}")
    lines = out.stdout.strip().splitlines()
    return {line.split()[0] for line in lines[:-1]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chuhan")
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    fens = collect(args.positions, args.seed)
    bad = 0
    total_moves = 0
    for fen in fens:
        ours = chuhan_moves(args.chuhan, fen)
        theirs = {to_iccs(m) for m in sf.legal_moves("xiangqi", fen, [])}
        total_moves += len(theirs)
        if ours != theirs:
            bad += 1
            print(f"MISMATCH {fen}\n  only chuhan: {sorted(ours - theirs)}\n  only pyffish: {sorted(theirs - ours)}")
            if bad >= 10:
                break
    print(f"movegen oracle: {len(fens)} positions, {total_moves} legal moves compared, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
