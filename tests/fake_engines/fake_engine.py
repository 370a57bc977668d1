#!/usr/bin/env python3
"""A misbehaving UCCI/UCI engine for the match runner's fault tests.

Usage: fake_engine.py MODE[:PLY]

Until ply PLY (default 0) of the game it plays a fixed legal opening line
(SCRIPT, ICCS, no captures), then misbehaves according to MODE:

  script    keep playing the line (a well-behaved opponent)
  crash     exit with status 3 when asked to move
  hang      never answer `go` (ignores `stop` too)
  slow      answer correctly, but only after 1.5 s
  illegal   answer `bestmove a0a9` (never legal: blocked chariot or not its piece)
  garbage   answer `bestmove zz99`
  nomove    answer `nobestmove`
  resign    answer with the scripted move plus `resign`
  mixed     resign in every game except each third one (counted by
            `ucinewgame` / `setoption newgame`), where it plays the line
  noucciok  never finish the handshake
  perpetual play the perpetual check of docs/rules.md T01 (start the game from
            T01's FEN) for both sides, honouring `banmoves`: when the move
            the line calls for is banned, answer it with `resign` instead

The ply is computed from the FEN's side and move number plus the moves after
it, so the referee's FEN-after-last-capture form is understood.
"""
import sys
import time

# docs/rules.md T01 from "3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1": the chariot checks
# along ranks 9 and 8, the general steps between d9 and d8.
T01_SCRIPT = "i0i9 d9d8 i9i8 d8d9 i8i9 d9d8 i9i8 d8d9 i8i9 d9d8 i9i8 d8d9".split()

SCRIPT = ("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 h7i7 "
          "g3g4 g6g5 b2b6 c6c5 c3c4 i6i5 h0h4 b7a7 g2f4 c7b5").split()


def main():
    arg = sys.argv[1] if len(sys.argv) > 1 else "script"
    mode, _, at = arg.partition(":")
    at = int(at) if at else 0
    ply = 0
    games = 0
    banned = set()
    script = T01_SCRIPT if mode == "perpetual" else SCRIPT
    for raw in sys.stdin:
        line = raw.split()
        if not line:
            continue
        cmd = line[0]
        if cmd in ("ucci", "uci"):
            print("id name fake-" + mode, flush=True)
            if mode == "noucciok":
                continue
            print("option newgame type button" if cmd == "ucci" else "option name Hash type spin default 1 min 1 max 1",
                  flush=True)
            print(cmd + "ok", flush=True)
        elif cmd == "ucinewgame" or line[:2] == ["setoption", "newgame"]:
            games += 1
        elif cmd == "isready":
            print("readyok", flush=True)
        elif cmd == "banmoves":
            banned = set(line[1:])
        elif cmd == "position":
            ply = 0
            banned = set()
            if "fen" in line:
                i = line.index("fen")
                side = line[i + 2] if len(line) > i + 2 else "w"
                try:
                    full = int(line[i + 6])
                except (IndexError, ValueError):
                    full = 1
                ply = 2 * (full - 1) + (1 if side == "b" else 0)
            if "moves" in line:
                ply += len(line) - line.index("moves") - 1
        elif cmd == "go":
            move = script[ply] if ply < len(script) else None
            if mode == "perpetual" and move in banned:
                print("bestmove %s resign" % move, flush=True)
                continue
            misbehave = mode not in ("script", "perpetual") and not (mode == "mixed" and games % 3 == 0)
            if ply >= at and misbehave:
                if mode == "crash":
                    sys.exit(3)
                if mode == "hang":
                    continue
                if mode == "slow":
                    time.sleep(1.5)
                if mode == "illegal":
                    move = "a0a9"
                if mode == "garbage":
                    move = "zz99"
                if mode == "nomove":
                    print("nobestmove", flush=True)
                    continue
                if mode in ("resign", "mixed"):
                    print("bestmove %s resign" % move, flush=True)
                    continue
            print("info depth 1 score 0 pv %s" % move, flush=True)
            print("bestmove %s" % move if move else "nobestmove", flush=True)
        elif cmd == "quit":
            if mode == "hang":
                continue
            print("bye", flush=True)
            return


if __name__ == "__main__":
    main()
