#!/usr/bin/env python3
"""Endgame test positions from self-play records (`chuhan datagen` output).

Finds, in each game of the records, the first position where the material is
one of the drawn balances the evaluation scales toward 0 (README "Drawn
endgames"), and writes the positions a number of plies before it (where the
decision to enter the balance is still open) as an opening file for
`chuhan match -openings file=F` (one FEN per line, the move counters reset to
`0 1` so no game starts near the natural move limit):

    python3 tests/tools/endgame_suite.py $DATA/dg6000a.txt --before 8,20 -o endgames.epd

Prints how the games that reached each balance ended, from the stronger
side's view.
"""
import argparse
import collections
import sys

BALANCES = [
    # (name, test on the stronger side's and the other side's piece counts)
    ("lone chariot vs full defenders",
     lambda s, w: att(s) == (1, 0, 0, 0) and w["r"] == 0 and full(w) and w["n"] + w["c"] == 0),
    ("lone chariot vs horse or cannon and full defenders",
     lambda s, w: att(s) == (1, 0, 0, 0) and w["r"] == 0 and full(w) and w["n"] + w["c"] == 1),
    ("lone chariot vs cannon and two advisors",
     lambda s, w: att(s) == (1, 0, 0, 0) and w["r"] + w["n"] == 0 and w["c"] == 1 and w["a"] == 2 and w["b"] < 2),
    ("horse and soldier vs bare full defenders", lambda s, w: att(s) == (0, 1, 0, 1) and full(w) and bare(w)),
    ("cannon and soldier vs bare full defenders", lambda s, w: att(s) == (0, 0, 1, 1) and full(w) and bare(w)),
    ("two cannons vs bare full defenders", lambda s, w: att(s) == (0, 0, 2, 0) and full(w) and bare(w)),
    ("two soldiers vs bare full defenders", lambda s, w: att(s) == (0, 0, 0, 2) and full(w) and bare(w)),
]


def att(c):
    return c["r"], c["n"], c["c"], c["p"]


def bare(c):
    """No chariot, horse or cannon."""
    return c["r"] + c["n"] + c["c"] == 0


def full(c):
    return c["a"] == 2 and c["b"] == 2


def counts(board):
    red, black = collections.Counter(), collections.Counter()
    for ch in board:
        if ch.isalpha():
            (red if ch.isupper() else black)[ch.lower()] += 1
    return red, black


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", help="datagen records: FEN;score;move;result;flags;game")
    ap.add_argument("--before", default="8,20", help="plies before the balance, comma-separated")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        before = [int(x) for x in args.before.split(",")]
        if any(b < 0 for b in before):
            raise ValueError
    except ValueError:
        sys.exit(f"error: --before wants non-negative integers, got '{args.before}'")

    games = collections.defaultdict(list)
    try:
        with open(args.records, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                fields = line.rstrip("\n").split(";")
                try:
                    games[int(fields[5])].append((fields[0], float(fields[3])))
                except (IndexError, ValueError):
                    sys.exit(f"error: {args.records}:{n}: not a datagen record")
    except OSError as e:
        sys.exit(f"error: {e}")

    first = collections.defaultdict(dict)  # balance -> game -> (index, stronger side is red)
    for g, recs in games.items():
        for i, (fen, _) in enumerate(recs):
            red, black = counts(fen.split()[0])
            for red_strong, s, w in ((True, red, black), (False, black, red)):
                for name, test in BALANCES:
                    if test(s, w) and g not in first[name]:
                        first[name][g] = (i, red_strong)

    out = set()
    for name, _ in BALANCES:
        wdl = collections.Counter()
        for g, (i, red_strong) in first[name].items():
            result = games[g][i][1] if red_strong else 1 - games[g][i][1]
            wdl[result] += 1
            for b in before:
                fen = games[g][max(0, i - b)][0].split()
                out.add(f"{fen[0]} {fen[1]} - - 0 1")
        print(f"{name}: {len(first[name])} games, stronger side {wdl[1.0]}-{wdl[0.5]}-{wdl[0.0]}")
    with open(args.output, "w", encoding="utf-8") as f:
        for fen in sorted(out):
            f.write(fen + "\n")
    print(f"{len(out)} positions written to {args.output}")


if __name__ == "__main__":
    main()
