#!/usr/bin/env python3
"""Fits Chuhan's win/draw/loss model to self-play games.

Reads PGN written by `chuhan match -pgnout FILE` (ICCS movetext, the
default notation), replays every game to know each position's material, and
fits by maximum likelihood the model of `src/eval/wdl.rs`:

    P(win)  = 1 / (1 + exp((a - x) / b))
    P(loss) = 1 / (1 + exp((a + x) / b))
    P(draw) = 1 - P(win) - P(loss)

x is the engine's score from the side to move (the PGN comment's pawns x 100:
Chuhan's centipawn-like units, see src/eval/weights.rs). a and b are polynomials
of degree --degree in t = clamp(m, MIN_MATERIAL, MAX_MATERIAL) / MAX_MATERIAL,
where m is the material count of the board, both sides together:

    m = 4 x chariots + 2 x horses + 2 x cannons + 1 x soldiers

(42 on the full board; generals, advisors and elephants count 0).

Each position is one sample: the score the mover's engine reported before
its move, the material before the move, and the game result from the
mover's side. Skipped: book moves, moves without a score, mate scores (UCI
`+M3`, and UCCI's `±(30000 - ply)`, which the PGN shows as `+299.97`), and
the first --skip plies of every game.

Output: the coefficients (as Rust constants for src/eval/wdl.rs), the
log-loss of the fit against a constant model and a score-only model (also on
held-out games: the fit is repeated on half the opening pairs and measured
on the other half), and calibration tables per score and material bucket.

Needs numpy and scipy (`python3 -m venv target/venv && target/venv/bin/pip
install numpy scipy`).

Datagen records (`--records`) serve as well: each record's search score and
game result, turned to the side to move's view (mate-flagged records skipped).

Usage: fit_wdl.py GAMES.pgn [GAMES2.pgn ...] [--degree 3] [--skip 8]
       fit_wdl.py --records RECORDS.txt [...]
"""
import argparse
import math
import re
import sys

import numpy as np
from scipy.optimize import minimize

MAX_MATERIAL = 42
MIN_MATERIAL = 6
# Scores at or beyond this are mates (score::MATE_BOUND = 30000 - 128).
MATE_BOUND = 30000 - 128

WEIGHT = {"r": 4, "n": 2, "h": 2, "c": 2, "p": 1}
TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
MOVE = re.compile(r"^([a-i])([0-9])([a-i])([0-9])$")
SCORE = re.compile(r"^([+-])(M?)(\d+(?:\.\d+)?)/\d+$")
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"


class Board:
    """Piece placement only: the referee already checked every move."""

    def __init__(self, fen):
        fields = fen.split()
        rows = fields[0].split("/")
        if len(rows) != 10:
            raise ValueError(f"bad FEN {fen!r}")
        self.cells = {}
        for i, row in enumerate(rows):
            rank, file = 9 - i, 0
            for ch in row:
                if ch.isdigit():
                    file += int(ch)
                else:
                    self.cells[(file, rank)] = ch
                    file += 1
        self.red_to_move = len(fields) < 2 or fields[1] in ("w", "r")

    def material(self):
        return sum(WEIGHT.get(p.lower(), 0) for p in self.cells.values())

    def play(self, mv):
        m = MOVE.match(mv)
        f = (ord(m[1]) - 97, int(m[2]))
        t = (ord(m[3]) - 97, int(m[4]))
        if f not in self.cells:
            raise ValueError(f"no piece on the from-square of {mv}")
        self.cells[t] = self.cells.pop(f)
        self.red_to_move = not self.red_to_move


def parse_pgn(text):
    """Yields (tags, [(move, comment)]) per game."""
    tags, moves = {}, []
    body = []

    def flush():
        movetext = " ".join(body)
        items = re.findall(r"\{[^}]*\}|[^\s{}]+", movetext)
        out = []
        for it in items:
            if it.startswith("{"):
                if out and out[-1][1] is None:
                    out[-1] = (out[-1][0], it[1:-1])
                continue
            tok = re.sub(r"^\d+\.+", "", it)
            if MOVE.match(tok):
                out.append((tok, None))
        return out

    for line in text.splitlines():
        m = TAG.match(line.strip())
        if m:
            if body:
                yield tags, flush()
                tags, body = {}, []
            tags[m[1]] = m[2]
        else:
            body.append(line)
    if tags or body:
        yield tags, flush()


def score_of(comment):
    """The score in engine units, 'mate', or None (book move, no score)."""
    if comment is None:
        return None
    for w in comment.split():
        m = SCORE.match(w)
        if m:
            if m[2] == "M":
                return "mate"
            v = round(float(m[3]) * 100)
            if v >= MATE_BOUND:
                return "mate"
            return v if m[1] == "+" else -v
    return None


def samples(paths, skip):
    """Rows (game, x, material, outcome from the mover's side: 1, 0.5, 0)."""
    rows, games, skipped = [], 0, {"book/none": 0, "mate": 0, "early": 0}
    results = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for tags, moves in parse_pgn(text):
            if tags.get("Result") not in results or not moves:
                continue
            red = results[tags["Result"]]
            board = Board(tags.get("FEN", START))
            for ply, (mv, comment) in enumerate(moves):
                s = score_of(comment)
                if ply < skip:
                    skipped["early"] += 1
                elif s is None:
                    skipped["book/none"] += 1
                elif s == "mate":
                    skipped["mate"] += 1
                else:
                    y = red if board.red_to_move else 1.0 - red
                    rows.append((games, s, board.material(), y))
                board.play(mv)
            games += 1
    return np.array(rows, dtype=float), games, skipped


def record_samples(paths):
    """The same rows from `chuhan datagen` records (FEN;score;best;result;flags;game,
    score and result from Red's side): mate-flagged records are skipped."""
    rows, games, skipped = [], set(), {"book/none": 0, "mate": 0, "early": 0}
    for n, path in enumerate(paths):
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                fields = line.rstrip("\n").split(";")
                if len(fields) != 6:
                    continue
                fen, score, _, result, flags, game = fields
                try:
                    score, result, game = int(score), float(result), int(game)
                    board = Board(fen)
                except ValueError:
                    sys.exit(f"{path}:{lineno}: not a datagen record: {line.strip()[:80]!r}")
                if "m" in flags or abs(score) >= MATE_BOUND:
                    skipped["mate"] += 1
                    continue
                x = score if board.red_to_move else -score
                y = result if board.red_to_move else 1.0 - result
                key = (n, game)
                games.add(key)
                rows.append((n * 1_000_000 + game, x, board.material(), y))
    return np.array(rows, dtype=float), len(games), skipped


def poly(c, t):
    return sum(ci * t**i for i, ci in enumerate(c))


def probs(params, x, t, degree):
    a = poly(params[: degree + 1], t)
    b = np.maximum(poly(params[degree + 1 :], t), 1e-3)
    pw = 1.0 / (1.0 + np.exp(np.clip((a - x) / b, -500, 500)))
    pl = 1.0 / (1.0 + np.exp(np.clip((a + x) / b, -500, 500)))
    return pw, 1.0 - pw - pl, pl


def nll(params, x, t, y, degree):
    pw, pd, pl = probs(params, x, t, degree)
    p = np.where(y == 1.0, pw, np.where(y == 0.0, pl, pd))
    return -np.mean(np.log(np.maximum(p, 1e-12)))


def fit(x, t, y, degree):
    # Start from a constant model (a = 150, b = 100) and refine.
    p0 = np.zeros(2 * (degree + 1))
    p0[0], p0[degree + 1] = 150.0, 100.0
    best = None
    for method in ("Nelder-Mead", "BFGS"):
        r = minimize(nll, p0 if best is None else best.x, args=(x, t, y, degree), method=method,
                     options={"maxiter": 20000, "xatol": 1e-4, "fatol": 1e-9} if method == "Nelder-Mead" else
                     {"maxiter": 2000, "gtol": 1e-8})
        if best is None or r.fun <= best.fun:
            best = r
    return best.x, best.fun


def constant_loss(y_train, y_test):
    """Log-loss of the symmetric constant model fitted on y_train, measured on y_test."""
    d = np.mean(y_train == 0.5)
    w = (1.0 - d) / 2.0
    p = np.where(y_test == 0.5, d, w)
    return -np.mean(np.log(p))


def phase_t(m):
    return np.clip(m, MIN_MATERIAL, MAX_MATERIAL) / MAX_MATERIAL


def table(title, rows):
    print(title)
    for r in rows:
        print("  " + r)


def calibration(params, x, t, y, degree, key, edges, label):
    pw, pd, pl = probs(params, x, t, degree)
    lines = [f"{label:>14} {'n':>6}  {'W obs/fit':>11} {'D obs/fit':>11} {'L obs/fit':>11}  {'score obs/fit':>13}"]
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (key >= lo) & (key < hi)
        n = int(sel.sum())
        if n == 0:
            continue
        ow, od, ol = np.mean(y[sel] == 1), np.mean(y[sel] == 0.5), np.mean(y[sel] == 0)
        fw, fd, fl = pw[sel].mean(), pd[sel].mean(), pl[sel].mean()
        name = f"[{lo:g},{hi:g})".replace("inf", "∞")
        lines.append(
            f"{name:>14} {n:6d}  {ow:5.3f}/{fw:5.3f} {od:5.3f}/{fd:5.3f} {ol:5.3f}/{fl:5.3f}  "
            f"{ow + od / 2:6.3f}/{fw + fd / 2:6.3f}"
        )
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+", help="PGN files, or datagen record files with --records")
    ap.add_argument("--records", action="store_true", help="the inputs are `chuhan datagen` records, not PGN")
    ap.add_argument("--degree", type=int, default=3, help="degree of a and b in the material (default 3)")
    ap.add_argument("--skip", type=int, default=8, help="plies skipped at the start of every game (default 8)")
    args = ap.parse_args()

    if args.records:
        data, games, skipped = record_samples(args.pgn)
    else:
        data, games, skipped = samples(args.pgn, args.skip)
    if len(data) == 0:
        sys.exit("no usable positions")
    g, x, m, y = data[:, 0], data[:, 1], data[:, 2], data[:, 3]
    t = phase_t(m)
    print(f"games {games}, positions used {len(data)}, skipped: " + ", ".join(f"{k} {v}" for k, v in skipped.items()))
    print(f"outcomes from the mover's side: W {np.mean(y == 1):.3f} D {np.mean(y == 0.5):.3f} L {np.mean(y == 0):.3f}")
    print(f"material m: min {m.min():g} median {np.median(m):g} max {m.max():g}; "
          f"t = clamp(m, {MIN_MATERIAL}, {MAX_MATERIAL}) / {MAX_MATERIAL}")

    # Held out: opening pairs (games 2k, 2k+1 share an opening) alternate between halves.
    train = (g // 2) % 2 == 0
    test = ~train
    print(f"\nhold-out check: fit on {train.sum()} positions, measured on {test.sum()} of other openings")
    for deg in sorted({0, 1, args.degree}):
        p, _ = fit(x[train], t[train], y[train], deg)
        print(f"  degree {deg}: train {nll(p, x[train], t[train], y[train], deg):.4f}, "
              f"held out {nll(p, x[test], t[test], y[test], deg):.4f}")
    print(f"  constant: train {constant_loss(y[train], y[train]):.4f}, "
          f"held out {constant_loss(y[train], y[test]):.4f}")

    params, loss = fit(x, t, y, args.degree)
    p0, loss0 = fit(x, t, y, 0)
    const = constant_loss(y, y)
    d = args.degree
    print(f"\nfit on all {len(data)} positions, degree {d} in t")
    print(f"  log-loss {loss:.4f} nats/position; score-only model (degree 0) {loss0:.4f} "
          f"(a = {p0[0]:.1f}, b = {p0[1]:.1f}); constant model {const:.4f}")
    print(f"  improvement over constant: {100 * (1 - loss / const):.1f}%")
    print("  a(t), b(t) at material m:")
    for mm in (6, 10, 14, 18, 22, 26, 30, 34, 38, 42):
        tt = mm / MAX_MATERIAL
        print(f"    m {mm:2d}: a {poly(params[: d + 1], tt):7.1f}  b {poly(params[d + 1:], tt):7.1f}")

    print()
    table("calibration by score x (side to move):",
          calibration(params, x, t, y, d, x, [-math.inf, -800, -400, -200, -100, -50, 0, 50, 100, 200, 400, 800,
                                              math.inf], "x"))
    table("calibration by material m:",
          calibration(params, x, t, y, d, m, [0, 10, 16, 22, 28, 34, 38, 43], "m"))

    print("\nRust constants (src/eval/wdl.rs):")
    print("const A: [f64; %d] = [%s];" % (d + 1, ", ".join(f"{c:.2f}" for c in params[: d + 1])))
    print("const B: [f64; %d] = [%s];" % (d + 1, ", ".join(f"{c:.2f}" for c in params[d + 1:])))


if __name__ == "__main__":
    main()
