#!/usr/bin/env python3
"""Independent referee check of `chuhan match` PGN output with pyffish.

Replays every game of a PGN file written by `chuhan match -pgnout` with
pyffish (variant "xiangqi"; ranks 1..10 where ICCS has 0..9): every move must
be legal, and games whose Termination tag is "checkmate" or "stalemate" must
end in a position where pyffish finds no legal move, with the side to move
losing (no legal move loses in xiangqi). Exit 1 on any failure.

Usage: match_pgn_pyffish.py GAMES.pgn
"""
import re
import sys

import pyffish as sf

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
MOVE = re.compile(r"^([a-i])([0-9])([a-i])([0-9])$")


def games(text):
    tags, moves, out = {}, [], []
    for line in text.splitlines():
        m = TAG.match(line.strip())
        if m:
            if moves:
                out.append((tags, moves))
                tags, moves = {}, []
            tags[m[1]] = m[2]
            continue
        line = re.sub(r"\{[^}]*\}", " ", line)
        for tok in line.split():
            tok = re.sub(r"^\d+\.+", "", tok)
            if tok and MOVE.match(tok):
                moves.append(tok)
    if moves or tags:
        out.append((tags, moves))
    return out


def to_ffish(m):
    g = MOVE.match(m)
    return f"{g[1]}{int(g[2]) + 1}{g[3]}{int(g[4]) + 1}"


def main():
    text = open(sys.argv[1], encoding="utf-8").read()
    failures = 0
    checked = 0
    for n, (tags, moves) in enumerate(games(text), 1):
        fen = tags.get("FEN", sf.start_fen("xiangqi"))
        played = []
        for m in moves:
            fm = to_ffish(m)
            if fm not in sf.legal_moves("xiangqi", fen, played):
                print(f"game {n}: illegal move {m} after {' '.join(moves[:len(played)])}")
                failures += 1
                break
            played.append(fm)
        else:
            term = tags.get("Termination", "")
            if term in ("checkmate", "stalemate"):
                final = sf.get_fen("xiangqi", fen, played)
                side = final.split()[1]
                want = "0-1" if side == "w" else "1-0"
                if sf.legal_moves("xiangqi", fen, played):
                    print(f"game {n}: {term} claimed but the side to move has legal moves ({final})")
                    failures += 1
                elif tags.get("Result") != want:
                    print(f"game {n}: {term} should be {want}, PGN says {tags.get('Result')}")
                    failures += 1
        checked += 1
    print(f"{checked} games replayed, {failures} failures")
    sys.exit(1 if failures or checked == 0 else 0)


if __name__ == "__main__":
    main()
