//! The evaluation of one position as coefficients over the parameter vector
//! ([`super::params`]): [`trace`] runs the evaluation's own code with a
//! recording sink instead of the running sums, so every term it has is in the
//! trace without a separate list. The tests' `Trace::evaluate` gives the evaluation
//! back from any vector, with the nonlinear steps done exactly as
//! [`super::evaluate`] does them (integer phase blend, scale factor chosen by
//! the sign of the blended value, side to move, tempo, dead draws).

use super::params::{self, id, Role, COUNT};
use super::weights::{MATERIAL, PST};
use super::{positional_terms, scale_factor, side_terms, threat_terms, Counts, Pair, Terms};
use crate::board::{Color, PieceKind};
use crate::position::Position;

/// The coefficients of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Trace {
    /// `(parameter, coefficient)` for every linear parameter with a non-zero
    /// coefficient, Red minus Black, ascending by parameter. A parameter of
    /// role [`Role::Mg`] stands for its pair: the same coefficient applies to
    /// its endgame partner ([`params::eg_partner`]).
    pub(crate) terms: Vec<(u16, i16)>,
    /// Pieces of each kind on the board (both sides), for the phase.
    pub(crate) kinds: [u8; 7],
    /// The scale-factor parameter that applies when Red is the stronger side
    /// (blended value > 0), and when Black is (value <= 0).
    pub(crate) scale: [u16; 2],
    /// Red is to move.
    pub(crate) red_to_move: bool,
    /// Neither side can cross the river: the evaluation is 0.
    pub(crate) dead_draw: bool,
}

/// The recording sink: coefficients by parameter, with the sign of the side
/// whose terms are being recorded.
struct Recorder {
    sign: i32,
    coef: Vec<i32>,
}

impl Terms for Recorder {
    #[inline(always)]
    fn pair(&mut self, id: usize, _w: Pair, n: i32) {
        self.coef[id] += self.sign * n;
    }
    #[inline(always)]
    fn mg(&mut self, id: usize, _w: i32, n: i32) {
        self.coef[id] += self.sign * n;
    }
}

/// Material and piece-square tables of `color`'s pieces, as the position's
/// incremental sums hold them.
fn material_and_tables(rec: &mut Recorder, pos: &Position, color: Color) {
    for (_, piece, sq) in pos.board().pieces(color) {
        let k = piece.kind().index();
        let own_rank = if color == Color::Red { sq.rank() } else { 9 - sq.rank() } as usize;
        let (row, file) = (9 - own_rank, sq.file() as usize);
        term_at(rec, id::MATERIAL + 2 * k, MATERIAL[k]);
        let t = &PST[k];
        term_at(rec, params::PST_IDS[k] + row * 9 + file, (t.0[row][file] as i32, t.1[row][file] as i32));
    }
}

/// Each side's own coefficients (Red's, then Black's), before they are
/// subtracted into [`Trace::terms`]: the terms that count for that side,
/// over the same parameters (for the `eval` breakdown).
pub fn side_coefficients(pos: &Position) -> [Vec<i32>; 2] {
    let board = pos.board();
    let red = Counts::of(board, Color::Red);
    let black = Counts::of(board, Color::Black);
    let mut r = Recorder { sign: 1, coef: vec![0; COUNT] };
    material_and_tables(&mut r, pos, Color::Red);
    let mut b = Recorder { sign: 1, coef: vec![0; COUNT] };
    material_and_tables(&mut b, pos, Color::Black);
    let (r, b) = positional_terms(board, &red, &black, r, b);
    [r.coef, b.coef]
}

/// The trace of the full evaluation (`Knowledge::Large`) of `pos`.
pub(crate) fn trace(pos: &Position) -> Trace {
    let board = pos.board();
    let red = Counts::of(board, Color::Red);
    let black = Counts::of(board, Color::Black);
    let mut rec = Recorder { sign: 1, coef: vec![0; COUNT] };
    material_and_tables(&mut rec, pos, Color::Red);
    rec.sign = -1;
    material_and_tables(&mut rec, pos, Color::Black);
    rec.sign = 1;
    let red_att;
    (rec, red_att) = side_terms(board, Color::Red, &red, &black, rec);
    rec.sign = -1;
    let black_att;
    (rec, black_att) = side_terms(board, Color::Black, &black, &red, rec);
    rec = threat_terms(board, Color::Black, &black_att, &red_att, rec);
    rec.sign = 1;
    rec = threat_terms(board, Color::Red, &red_att, &black_att, rec);
    let terms = rec
        .coef
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c != 0)
        .map(|(i, &c)| {
            debug_assert!(matches!(params::role(i), Role::Mg | Role::MgOnly), "{}", params::name(i));
            (i as u16, c as i16)
        })
        .collect();
    let mut kinds = [0u8; 7];
    for k in PieceKind::ALL {
        kinds[k.index()] = (red.get(k) + black.get(k)) as u8;
    }
    Trace {
        terms,
        kinds,
        scale: [
            scale_factor(board, Color::Red, &red, &black).1 as u16,
            scale_factor(board, Color::Black, &black, &red).1 as u16,
        ],
        red_to_move: pos.side_to_move() == Color::Red,
        dead_draw: red.attackers() == 0 && black.attackers() == 0,
    }
}

#[inline(always)]
fn term_at(rec: &mut Recorder, id: usize, w: Pair) {
    rec.pair(id, w, 1);
}

impl Trace {
    /// The game phase under the weights `w` (clamped as the evaluation does).
    pub(crate) fn phase(&self, w: &[i32]) -> i32 {
        let p: i32 = (0..7).map(|k| self.kinds[k] as i32 * w[id::PHASE_WEIGHT + k]).sum();
        p.clamp(0, w[id::PHASE_MAX])
    }

    /// The (middlegame, endgame) sums under the weights `w`, Red's view
    /// (the tests check the packed trace against the evaluation with it).
    #[cfg(test)]
    pub(crate) fn sums(&self, w: &[i32]) -> (i64, i64) {
        let (mut mg, mut eg) = (0i64, 0i64);
        for &(i, c) in &self.terms {
            let i = i as usize;
            mg += c as i64 * w[i] as i64;
            if let Some(e) = params::eg_partner(i) {
                eg += c as i64 * w[e] as i64;
            }
        }
        (mg, eg)
    }

    /// The evaluation for the side to move under the weights `w` (a vector
    /// of [`params::COUNT`]); with [`params::defaults`] it is
    /// [`super::evaluate`]. `KING_ATTACK_UNITS` is the compiled one (it
    /// chose which `KING_ATTACK` entry the trace holds).
    #[cfg(test)]
    fn evaluate(&self, w: &[i32]) -> i32 {
        if self.dead_draw {
            return 0;
        }
        let (mg, eg) = self.sums(w);
        let (mg, eg) = (mg as i32, eg as i32);
        let phase = self.phase(w);
        let max = w[id::PHASE_MAX];
        let mut v = (mg * phase + eg * (max - phase)) / max;
        let s = self.scale[if v > 0 { 0 } else { 1 }] as usize;
        if s != id::SCALE_FULL {
            v = v * w[s] / w[id::SCALE_FULL];
        }
        let v = if self.red_to_move { v } else { -v };
        v + w[id::TEMPO]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    fn check(pos: &Position, w: &[i32]) {
        let t = trace(pos);
        assert_eq!(t.evaluate(w), evaluate(pos).0, "{}", pos.to_fen());
    }

    /// Evaluating through the vector equals the built-in evaluation, on the
    /// bench positions and along seeded random games from them.
    #[test]
    fn the_vector_round_trips_the_evaluation() {
        let w = params::defaults();
        for fen in crate::fen::BENCH_FENS {
            check(&Position::from_fen(fen).unwrap(), &w);
        }
        let mut n = 0;
        crate::test_support::random_walks(14, 6, 120, |pos, _| {
            check(pos, &w);
            n += 1;
        });
        assert!(n > 20_000, "{n}");
        // Drawish endgames exercise the scale factors, both strong sides.
        for fen in [
            "3k5/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1",
            "4k4/9/9/9/9/9/9/4c4/9/4K4 w - - 0 1",
            "3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1",
            "3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1",
            "3aka3/9/4b4/9/4p4/9/9/9/9/4K4 w - - 0 1",
            "4k4/9/9/9/4r4/9/9/4R4/9/3K5 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            check(&pos, &w);
        }
    }

    /// The trace is linear where the evaluation is: changing one weight
    /// moves the vector evaluation by coefficient x change (before blending).
    #[test]
    fn coefficients_count_the_terms() {
        // Red: a chariot on a0 (home corner) and the general on d0 vs. a lone black general.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        let t = trace(&pos);
        let get = |i: usize| t.terms.iter().find(|&&(j, _)| j as usize == i).map(|&(_, c)| c);
        assert_eq!(get(id::MATERIAL + 2 * PieceKind::Chariot.index()), Some(1));
        // a0 is row 9, file 0 of the table.
        assert_eq!(get(id::PST_CHARIOT + 9 * 9), Some(1));
        // Chariot mobility: a1..a9, b0 and c0 = 11 points, entry 11 of the table.
        assert_eq!(get(id::CHARIOT_MOBILITY + 2 * 11), Some(1));
        assert_eq!(get(id::CHARIOT_MOBILITY + 2 * 10), None);
        // Black has no advisors against one chariot.
        assert_eq!(get(id::ADVISOR_MISSING_VS_CHARIOT), Some(-2));
        assert_eq!(t.scale[1], id::SCALE_NO_ATTACKERS as u16);
        let w = params::defaults();
        let mut w2 = w.clone();
        w2[id::CHARIOT_MOBILITY + 2 * 11 + 1] += 10;
        let phase = t.phase(&w);
        let max = w[id::PHASE_MAX];
        let (mg, eg) = t.sums(&w);
        let (mg2, eg2) = t.sums(&w2);
        assert_eq!((mg2 - mg, eg2 - eg), (0, 10));
        assert_eq!(phase, 6);
        assert_eq!(t.evaluate(&w2), (mg2 as i32 * phase + eg2 as i32 * (max - phase)) / max + w[id::TEMPO]);
    }

    /// The imbalance terms count products of piece counts, Red's minus Black's.
    #[test]
    fn imbalance_counts_pairs_of_kinds() {
        // Red: chariots a0 and i0, a horse, three soldiers. Black: a chariot, two advisors.
        let pos = Position::from_fen("r2aka3/9/9/9/9/9/P1P3P2/9/9/RN1K4R w - - 0 1").unwrap();
        let t = trace(&pos);
        let get = |i: usize| t.terms.iter().find(|&&(j, _)| j as usize == i).map_or(0, |&(_, c)| c);
        // Kinds counted from the advisor: 0 advisor, 2 horse, 3 chariot, 5 soldier.
        let ours = |a: usize, b: usize| get(id::IMBALANCE_OURS + 2 * (a * (a + 1) / 2 + b));
        let theirs = |a: usize, b: usize| get(id::IMBALANCE_THEIRS + 2 * (a * (a - 1) / 2 + b));
        assert_eq!(ours(3, 3), 2 * 2 - 1);
        assert_eq!(ours(5, 3), 3 * 2);
        assert_eq!(ours(3, 2), 2);
        assert_eq!(ours(3, 0), -2);
        assert_eq!(ours(0, 0), -4);
        assert_eq!(ours(5, 5), 3 * 3);
        // Red's chariots against Black's advisors; Black's chariot against Red's horse.
        assert_eq!(theirs(3, 0), 2 * 2);
        assert_eq!(theirs(3, 2), -1);
        assert_eq!(theirs(5, 3), 3);
        assert_eq!(theirs(2, 0), 2);
        assert_eq!(theirs(4, 3), 0);
    }
}
