#!/usr/bin/env python3
"""Plays Chuhan against itself through the `cchess` package from PyPI
(walker8088/cchess), the way its users drive engines: `cchess.UcciEngine` /
`cchess.UciEngine` start the binary, wait for `ucciok`/`uciok`, send options
with `set_option` and each move with `go_from(fen, params)`, and read
`bestmove` with `get_action`. One engine process plays both sides.

Every move the engine returns is checked with cchess's own board (a piece
move of the side to move that does not leave its general attacked) and, when
pyffish is importable, against pyffish's legal move list. The game must end
cleanly: checkmate or stalemate (the engine then answers `nobestmove` /
`bestmove (none)`), or the ply cap; then `quit` and exit code 0.

    cchess_game.py ENGINE [--plies N] [--movetime MS] [--protocol ucci|uci|both]
                   [--fen FEN --must-end]

With `--fen` the game starts there (cchess FEN: board and side); with
`--must-end` reaching the ply cap is a failure (for mate puzzles).
"""

import argparse
import os
import sys
import time

import cchess

try:
    import pyffish
except ImportError:  # the cchess check alone
    pyffish = None


def fail(msg):
    print(f"cchess_game: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def wait_action(engine, timeout):
    """The next 'bestmove' / 'dead' / 'draw' action, skipping info lines."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        action = engine.get_action()
        if action is None:
            time.sleep(0.005)
            continue
        if action["action"] in ("bestmove", "dead", "draw"):
            return action
    fail(f"no bestmove within {timeout} s")


def legal_cchess(board, iccs):
    """cchess's own check: a piece move of the side to move that does not leave its general attacked."""
    if not board.is_valid_iccs_move(iccs):
        return False
    frm, to = cchess.iccs2pos(iccs)
    return not board.is_checked_move(frm, to)


def play(path, protocol, plies, movetime, fen0, must_end):
    engine = cchess.UcciEngine() if protocol == "ucci" else cchess.UciEngine()
    if not engine.load(path):
        fail(f"{protocol}: cannot start {path}")
    if not engine.wait_for_ready(timeout=10):
        fail(f"{protocol}: no {engine.ok_resp()}")
    engine.set_option("Hash", 16)
    engine.set_option("Threads", 1)
    board = cchess.ChessBoard(fen0)
    start_fen = board.to_fen() + " - - 0 1"
    history = []
    end = None
    for ply in range(plies):
        fen = board.to_fen()
        engine.go_from(fen, {"movetime": movetime})
        action = wait_action(engine, timeout=10 + movetime / 1000)
        if action["action"] != "bestmove":
            # No move: only right when the side to move has none.
            if not board.no_moves():
                fail(f"{protocol}: '{action['raw_msg']}' in {fen} with legal moves left")
            end = "no legal move (checkmate or stalemate), engine answered " + action["raw_msg"]
            break
        iccs = action["move"]
        if not legal_cchess(board, iccs):
            fail(f"{protocol}: illegal move {iccs} in {fen} (cchess)")
        if pyffish is not None:
            legal = pyffish.legal_moves("xiangqi", start_fen, [cchess_to_uci(m) for m in history])
            if cchess_to_uci(iccs) not in legal:
                fail(f"{protocol}: illegal move {iccs} in {fen} (pyffish)")
        move = board.move_iccs(iccs)
        if move is None:
            fail(f"{protocol}: cchess refused {iccs} in {fen}")
        board.next_turn()
        history.append(iccs)
    if end is None:
        if must_end:
            fail(f"{protocol}: the game from {fen0} did not end in {plies} plies")
        end = f"ply cap {plies} reached"
    engine.quit()
    engine.running = False
    try:
        code = engine.process.wait(timeout=5)
    except Exception:
        engine.process.kill()
        fail(f"{protocol}: engine did not exit after quit")
    if code != 0:
        fail(f"{protocol}: engine exit code {code}")
    print(f"cchess {protocol}: {len(history)} plies, all legal; {end}; exit 0")
    print(f"  moves: {' '.join(history)}")


def cchess_to_uci(iccs):
    """ICCS (ranks 0-9) to pyffish's UCI (ranks 1-10)."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--movetime", type=int, default=50)
    ap.add_argument("--protocol", choices=["ucci", "uci", "both"], default="both")
    ap.add_argument("--fen", default=cchess.FULL_INIT_FEN)
    ap.add_argument("--must-end", action="store_true")
    args = ap.parse_args()
    path = os.path.abspath(args.engine)
    for protocol in (["ucci", "uci"] if args.protocol == "both" else [args.protocol]):
        play(path, protocol, args.plies, args.movetime, args.fen, args.must_end)


if __name__ == "__main__":
    main()
