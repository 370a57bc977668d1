#!/usr/bin/env python3
"""Randomised cross-check of repetition verdicts against pyffish.

Plays seeded, repetition-prone random games (each side undoes its previous
move with probability 0.7) from sparse chase/check positions, and after
every ply asks pyffish `is_optional_game_end` (AXF chasing rules) and
`chuhan judge` (asian rules). At the first ply where either ends the game by
repetition, the two verdicts are compared. Prints counts and the first
differing records. docs/rules.md, not pyffish, is Chuhan's specification, so a
difference is for review, not a failure (exit 0 unless something breaks).

Usage: repetition_fuzz_pyffish.py PATH_TO_CHUHAN [--games N] [--seed S]
"""
import argparse
import random
import re
import subprocess

import pyffish as sf

FENS = [
    "4k4/9/n8/9/9/9/1R7/9/9/3K5 w - - 0 1",
    "3k5/9/c8/8R/9/9/9/9/9/5K3 w - - 0 1",
    "5k3/9/c8/9/3R5/9/9/3A5/9/3K5 w - - 0 1",
    "4k4/9/r3r4/9/9/pp7/9/9/1C7/3K5 w - - 0 1",
    "3rk4/9/n8/9/2b6/9/1R7/9/9/5K3 w - - 0 1",
    "4k4/4a4/3n5/9/9/9/9/1R7/4R4/5K3 w - - 0 1",
]


def to_ffish(m):
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def to_iccs(m):
    g = re.match(r"^([a-i])(\d+)([a-i])(\d+)$", m)
    return f"{g[1]}{int(g[2]) - 1}{g[3]}{int(g[4]) - 1}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chuhan")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    agree, differ, decisive = 0, [], 0
    for _ in range(args.games):
        fen = rng.choice(FENS)
        moves = []
        for _ply in range(60):
            legal = sf.legal_moves("xiangqi", fen, [to_ffish(m) for m in moves])
            if not legal:
                break
            back = moves[-2][2:] + moves[-2][:2] if len(moves) >= 2 else None
            if back and rng.random() < 0.7 and to_ffish(back) in legal:
                moves.append(back)
            else:
                moves.append(to_iccs(rng.choice(legal)))
            ended, value = sf.is_optional_game_end("xiangqi", fen, [to_ffish(m) for m in moves])
            out = subprocess.run(
                [args.chuhan, "judge", "--fen", fen, "--moves", " ".join(moves)],
                capture_output=True, text=True, check=True,
            ).stdout.strip()
            ours_rep = "perpetual" in out or "repetition" in out
            if not ended and not ours_rep:
                if out.startswith("*"):
                    continue
                break  # mate, material or limit: not a repetition case
            red_to_move = (fen.split()[1] == "w") == (len(moves) % 2 == 0)
            if not ended:
                theirs = "-"
            elif value == 0:
                theirs = "1/2-1/2"
            else:
                theirs = "1-0" if (value > 0) == red_to_move else "0-1"
            if theirs == out.split()[0]:
                agree += 1
                decisive += theirs != "1/2-1/2"
            else:
                differ.append((fen, " ".join(moves), theirs, out))
            break
    print(f"{agree} repetitions judged alike ({decisive} decisive), {len(differ)} differ")
    for d in differ[:10]:
        print("differs:", d)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
