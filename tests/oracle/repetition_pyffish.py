#!/usr/bin/env python3
"""Cross-check of Chuhan's repetition verdicts against pyffish (Fairy-Stockfish).

For every case of tests/data/repetition.txt and tests/data/repetition_reference.txt
(docs/rules.md 3.4), asks pyffish `is_optional_game_end` (variant "xiangqi", its AXF
chasing rules; ranks 1..10 where ICCS uses 0..9) and `chuhan judge` (asian rules)
for the verdict after the moves, and prints one line per case: the case's
recorded result, pyffish's, Chuhan's, and a mark where they differ.

docs/rules.md, not pyffish, is Chuhan's specification: differences are reported for
review (the test suite documents each accepted one); the exit status is 0 unless
something fails to run, or --strict is given and a verdict differs.

Usage: repetition_pyffish.py PATH_TO_CHUHAN [--strict]
"""
import argparse
import os
import re
import subprocess
import sys

import pyffish as sf

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
MOVE = re.compile(r"^([a-i])(\d)([a-i])(\d)$")


def to_ffish(m):
    g = MOVE.match(m)
    if not g:
        raise ValueError(f"not ICCS: {m}")
    return f"{g[1]}{int(g[2]) + 1}{g[3]}{int(g[4]) + 1}"


def cases():
    for line in open(os.path.join(DATA, "repetition.txt"), encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split(" | ")]
        yield f[0], f[1], f[2], f[3].split()
    for line in open(os.path.join(DATA, "repetition_reference.txt"), encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        f = [x.strip() for x in line.split(" | ")]
        yield f[0], f[1], f[3], f[4].split()


def ffish_verdict(fen, moves):
    ended, value = sf.is_optional_game_end("xiangqi", fen, [to_ffish(m) for m in moves])
    if not ended:
        return "Undecided"
    if value == 0:
        return "Draw"
    side_to_move = "Red" if (fen.split()[1] == "w") == (len(moves) % 2 == 0) else "Black"
    other = "Black" if side_to_move == "Red" else "Red"
    return f"{side_to_move if value > 0 else other} wins"


def chuhan_verdict(exe, fen, moves):
    out = subprocess.run(
        [exe, "judge", "--fen", fen, "--moves", " ".join(moves), "--rules", "asian"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    token = out.split()[0]
    return {"1-0": "Red wins", "0-1": "Black wins", "1/2-1/2": "Draw", "*": "Undecided"}[token], out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chuhan")
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()
    differ = 0
    for cid, recorded, fen, moves in cases():
        ff = ffish_verdict(fen, moves)
        ours, line = chuhan_verdict(args.chuhan, fen, moves)
        mark = "" if ff == ours else "   <-- differs from pyffish"
        differ += ff != ours
        print(f"{cid:8} recorded: {recorded:18} pyffish: {ff:11} chuhan: {line}{mark}")
    print(f"{differ} case(s) where Chuhan (docs/rules.md) and pyffish differ")
    return 1 if args.strict and differ else 0


if __name__ == "__main__":
    sys.exit(main())
