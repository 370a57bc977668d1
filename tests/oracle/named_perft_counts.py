import pyffish as sf, re
cases = {
 "horse_leg": "4k4/9/9/9/4C4/3RN4/9/9/9/5K3 w - - 0 1",
 "elephant_eye": "4k4/9/9/9/9/9/3R5/4B4/5c3/3K5 w - - 0 1",
 "river": "4k4/9/9/9/2p5P/P1B6/9/9/9/3K5 w - - 0 1",
 "palace": "5k3/9/9/9/9/9/9/3A5/4A4/3K5 w - - 0 1",
 "soldier_sideways": "3k5/9/P7P/9/4P4/9/9/9/9/4K4 w - - 0 1",
 "cannon_screen": "r3k4/9/9/9/9/C1p1p1C2/9/9/9/3K5 w - - 0 1",
 "facing_generals": "4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1",
 "facing_general_step": "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
 "pins": "4k4/9/9/9/4c4/9/9/4N4/4A4/4K4 w - - 0 1",
 "double_check": "3k5/9/9/9/9/9/9/3n5/9/4K3r w - - 0 1",
 "black_to_move": "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
}
def perft(fen, moves, d):
    ms = sf.legal_moves('xiangqi', fen, moves)
    if d == 1: return len(ms)
    return sum(perft(fen, moves+[m], d-1) for m in ms)
for name, fen in cases.items():
    counts = [perft(fen, [], d) for d in (1,2,3)]
    print(f"{fen} ;D1 {counts[0]} ;D2 {counts[1]} ;D3 {counts[2]} # {name} (counts from pyffish)")
