//! Win/draw/loss probabilities from a score, for `UCI_ShowWDL`: what a
//! search score means in game results, given how much material is left.
//!
//! # The model
//!
//! For a score `x` (engine units, from the side to move, see
//! `src/eval/weights.rs`) and the material `m` on the board:
//!
//! ```text
//! P(win)  = 1 / (1 + exp((a(t) - x) / b(t)))
//! P(loss) = 1 / (1 + exp((a(t) + x) / b(t)))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! with `m = 4 x chariots + 2 x horses + 2 x cannons + 1 x soldiers` over
//! both sides (42 on the full board; generals, advisors and elephants count
//! 0), `t = clamp(m, 6, 42) / 42`, and `a`, `b` cubic polynomials in `t`
//! ([`A`], [`B`]). `a` is the score at which a win becomes as likely as not,
//! `b` how quickly the odds turn with the score; both change with the
//! material, so the same score draws more often in a thin endgame than with
//! the armies still on the board.
//!
//! # The fit
//!
//! `tests/tools/fit_wdl.py` fits `a` and `b` by maximum likelihood to
//! positions with a search score and a game result: every position is one
//! sample (the score from the side to move, the material, and the game's
//! result from its side). It reads the games of `chuhan match -pgnout FILE`
//! (book moves, mate scores and the first 8 plies left out) or `chuhan
//! datagen` records (`--records`; mate-flagged records left out). The
//! constants below come from 1,177 datagen games of this engine (evaluation
//! with the threat terms, Bench 1485019; `datagen --games 1200 --nodes 3000
//! --threads 2 --seed 41 --random-plies 3`, 156,850 positions; results from
//! the mover's side 26.3% wins, 47.5% draws, 26.2% losses). The fit's
//! log-loss is 0.705 nats per position, against 0.801 for a model of the
//! score alone (constant `a` and `b`), 1.056 for constant probabilities, and
//! 0.711 for the previous constants (fitted to the round-2 evaluation, whose
//! scores ran on a smaller scale). Held out (fitted on half the openings,
//! measured on the other half): 0.721 for this model, 0.729 with `a`, `b`
//! linear in `t`, 0.818 for the score alone, 1.045 for constant
//! probabilities. The scores depend on the evaluation's weights: after a
//! retune, refit. To refit, write records (`chuhan datagen ... -o
//! records.txt`) or games with scores (`chuhan match ... -pgnout
//! games.pgn`), run `python3 tests/tools/fit_wdl.py --records records.txt`
//! (or `fit_wdl.py games.pgn ...`; numpy and scipy) and paste the `A` and `B`
//! it prints here; the test `fitted_table` holds the fit's own table of `a`
//! and `b`, to be replaced with the new one.
//!
//! Mate scores are certain: a mate for the side to move is 1000/0/0, a mate
//! against it 0/0/1000.

use crate::board::{Board, Color, PieceKind};
use crate::score::{Score, MATE_BOUND};

/// `a(t) = A[0] + A[1] t + A[2] t^2 + A[3] t^3`.
pub const A: [f64; 4] = [806.56, -2050.53, 2269.36, -712.01];
/// `b(t) = B[0] + B[1] t + B[2] t^2 + B[3] t^3`.
pub const B: [f64; 4] = [96.46, 614.02, -1168.29, 965.71];
/// The material of the full board; larger counts are clamped to it.
pub const MAX_MATERIAL: i32 = 42;
/// Less material than this is treated as this much (the fit has few
/// positions there).
pub const MIN_MATERIAL: i32 = 6;

/// Win, draw and loss per mille from the side to move's view; they sum to 1000.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wdl {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
}

impl std::fmt::Display for Wdl {
    /// `W D L`, as UCI prints them after `wdl`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.win, self.draw, self.loss)
    }
}

impl Wdl {
    /// The same probabilities from the other side's view.
    pub fn flipped(self) -> Wdl {
        Wdl { win: self.loss, draw: self.draw, loss: self.win }
    }
}

/// The model's material count of `board`: 4 per chariot, 2 per horse or
/// cannon, 1 per soldier, both sides together.
pub fn material(board: &Board) -> i32 {
    Color::ALL
        .iter()
        .map(|&c| {
            4 * board.count(c, PieceKind::Chariot)
                + 2 * board.count(c, PieceKind::Horse)
                + 2 * board.count(c, PieceKind::Cannon)
                + board.count(c, PieceKind::Soldier)
        })
        .sum::<usize>() as i32
}

fn poly(c: &[f64; 4], t: f64) -> f64 {
    c[0] + t * (c[1] + t * (c[2] + t * c[3]))
}

/// The model's `(a, b)` at material `m`.
pub fn parameters(m: i32) -> (f64, f64) {
    let t = m.clamp(MIN_MATERIAL, MAX_MATERIAL) as f64 / MAX_MATERIAL as f64;
    (poly(&A, t), poly(&B, t).max(1e-3))
}

/// The probability of a win with score `x` (side to move) at material `m`.
pub fn win_probability(x: f64, m: i32) -> f64 {
    let (a, b) = parameters(m);
    1.0 / (1.0 + ((a - x) / b).exp())
}

/// Win/draw/loss per mille for `score` (side to move) at material `m`.
/// Win and loss are rounded, the draw is the rest: `wdl(-s)` is `wdl(s)`
/// reversed.
pub fn wdl(score: Score, m: i32) -> Wdl {
    if score.0 >= MATE_BOUND {
        return Wdl { win: 1000, draw: 0, loss: 0 };
    }
    if score.0 <= -MATE_BOUND {
        return Wdl { win: 0, draw: 0, loss: 1000 };
    }
    let x = score.0 as f64;
    let win = (1000.0 * win_probability(x, m)).round() as u32;
    let loss = (1000.0 * win_probability(-x, m)).round() as u32;
    // With a > 0 (true over the whole material range) win + loss < 1000
    // before rounding, so at most 1000 after; the guard keeps the sum exact
    // whatever the constants.
    let (win, loss) = if win + loss > 1000 { (win.min(1000), 1000 - win.min(1000)) } else { (win, loss) };
    Wdl { win, draw: 1000 - win - loss, loss }
}

/// [`wdl`] with the material of `board`.
pub fn wdl_on(score: Score, board: &Board) -> Wdl {
    wdl(score, material(board))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::score::MATE;

    /// The constants reproduce the fit's own table of a(t), b(t) (the output
    /// of tests/tools/fit_wdl.py on the 1,178 games), to its printed precision.
    #[test]
    fn fitted_table() {
        let table = [
            (6, 557.9, 163.2),
            (10, 437.4, 189.5),
            (14, 348.8, 207.1),
            (18, 288.5, 221.0),
            (22, 252.8, 236.3),
            (26, 237.9, 258.0),
            (30, 240.2, 290.9),
            (34, 256.1, 340.2),
            (38, 281.7, 410.9),
            (42, 313.4, 507.9),
        ];
        for (m, a, b) in table {
            let (fa, fb) = parameters(m);
            // The constants have two decimals; the table one.
            assert!((fa - a).abs() < 0.6, "a({m}) = {fa}, fit {a}");
            assert!((fb - b).abs() < 0.2, "b({m}) = {fb}, fit {b}");
        }
    }

    #[test]
    fn a_and_b_stay_positive() {
        for m in 0..=60 {
            let (a, b) = parameters(m);
            assert!(a > 150.0 && b > 150.0, "m {m}: a {a} b {b}");
        }
    }

    #[test]
    fn sums_symmetry_and_monotony() {
        for m in [0, 6, 12, 20, 30, 42, 50] {
            let mut last = wdl(Score(-3000), m);
            for x in -3000..=3000 {
                let w = wdl(Score(x), m);
                assert_eq!(w.win + w.draw + w.loss, 1000, "x {x} m {m}");
                assert_eq!(wdl(Score(-x), m), w.flipped(), "x {x} m {m}");
                assert!(w.win >= last.win && w.loss <= last.loss, "x {x} m {m}: {last} then {w}");
                last = w;
            }
            assert_eq!(wdl(Score(0), m).win, wdl(Score(0), m).loss);
        }
    }

    #[test]
    fn figures() {
        // Full board, level: 35% each, 30% draws; a big edge is mostly a win.
        let level = wdl(Score(0), 42);
        assert_eq!((level.win, level.draw, level.loss), (350, 300, 350));
        assert!(wdl(Score(1000), 42).loss < 100);
        assert!(wdl(Score(1000), 42).win > 750);
        // A horse up in a thin endgame is still more often a draw than a win.
        let horse = wdl(Score(420), 10);
        assert!(horse.draw > 500 && horse.win > 300 && horse.loss < 20, "{horse}");
    }

    #[test]
    fn fewer_pieces_draw_more() {
        for x in [0, 50, 100, 200, 400] {
            for thin in [6, 10, 14] {
                for full in [22, 30, 38, 42] {
                    let (a, b) = (wdl(Score(x), thin), wdl(Score(x), full));
                    assert!(a.draw > b.draw, "x {x}: m {thin} {a}, m {full} {b}");
                }
            }
        }
    }

    #[test]
    fn mates_are_certain() {
        assert_eq!(wdl(Score(MATE - 3), 42), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(wdl(Score(MATE_BOUND), 0), Wdl { win: 1000, draw: 0, loss: 0 });
        assert_eq!(wdl(Score(-MATE), 20), Wdl { win: 0, draw: 0, loss: 1000 });
        // Just short of the mate range: a model value, not a certainty.
        let w = wdl(Score(MATE_BOUND - 1), 42);
        assert_eq!(w.win + w.draw + w.loss, 1000);
        assert_eq!(w.loss, 0);
    }

    #[test]
    fn material_counts() {
        assert_eq!(material(Position::startpos().board()), MAX_MATERIAL);
        let pos = Position::from_fen("3akab2/9/4b4/9/9/4p4/9/2N1C4/9/3AK1B2 w - - 0 1").unwrap();
        assert_eq!(material(pos.board()), 5);
        assert_eq!(wdl_on(Score(100), pos.board()), wdl(Score(100), 5));
        assert_eq!(wdl(Score(100), 5), wdl(Score(100), MIN_MATERIAL));
    }
}
