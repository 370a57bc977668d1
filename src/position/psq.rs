//! Material plus piece-square values: the combined table `PSQ[piece][square]`
//! built at compile time from the evaluation's weights
//! ([`crate::eval::weights`], a module of constants only), and the
//! accumulator [`Psq`] that [`super::Position`] updates incrementally in
//! make/unmake (debug-checked against [`Psq::compute`]). The evaluation
//! reads the sums through [`super::Position::psq`].
//!
//! Sums are from Red's point of view (Black's pieces count negative). The
//! phase counts chariots, horses and cannons still on the board.

use crate::board::{code_of, Board, Color};
use crate::eval::weights::{MATERIAL, PHASE_WEIGHT, PST};

const fn build() -> [[[i32; 2]; 256]; 16] {
    let mut t = [[[0i32; 2]; 256]; 16];
    let mut code = 1;
    while code < 16 {
        if code != 8 {
            let kind = (code & 7) - 1;
            let black = code >= 8;
            let mut sq = 0;
            while sq < 256 {
                let f = sq & 15;
                let r = sq >> 4;
                if f >= 3 && f <= 11 && r >= 3 && r <= 12 {
                    let file = f - 3;
                    let rank = r - 3;
                    // Red's view: row 0 of the table is rank 9. Black uses the flipped point.
                    let own_rank = if black { 9 - rank } else { rank };
                    let row = 9 - own_rank;
                    let mg = MATERIAL[kind].0 + PST[kind].0[row][file] as i32;
                    let eg = MATERIAL[kind].1 + PST[kind].1[row][file] as i32;
                    let sign = if black { -1 } else { 1 };
                    t[code][sq] = [sign * mg, sign * eg];
                }
                sq += 1;
            }
        }
        code += 1;
    }
    t
}

/// `PSQ[piece code][square] = [mg, eg]`, signed from Red's view.
pub static PSQ: [[[i32; 2]; 256]; 16] = build();

const fn build_phase() -> [i32; 16] {
    let mut t = [0; 16];
    let mut code = 1;
    while code < 16 {
        if code != 8 {
            t[code] = PHASE_WEIGHT[(code & 7) - 1];
        }
        code += 1;
    }
    t
}

/// Phase weight by piece code.
pub static PHASE: [i32; 16] = build_phase();

/// Incremental material + PST sums and phase.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Psq {
    /// Middlegame sum, Red minus Black.
    pub mg: i32,
    /// Endgame sum, Red minus Black.
    pub eg: i32,
    /// Phase (0 = bare endgame, [`crate::eval::weights::PHASE_MAX`] = full board).
    pub phase: i32,
}

impl Psq {
    /// The sums recomputed from the board.
    pub fn compute(board: &Board) -> Psq {
        let mut p = Psq::default();
        for color in Color::ALL {
            for (_, piece, sq) in board.pieces(color) {
                p.add(piece.0, sq.index());
            }
        }
        p
    }

    /// A piece of code `code` appears on `sq`.
    #[inline(always)]
    pub fn add(&mut self, code: u8, sq: usize) {
        let v = &PSQ[code as usize][sq];
        self.mg += v[0];
        self.eg += v[1];
        self.phase += PHASE[code as usize];
    }

    /// A piece of code `code` leaves `sq`.
    #[inline(always)]
    pub fn remove(&mut self, code: u8, sq: usize) {
        let v = &PSQ[code as usize][sq];
        self.mg -= v[0];
        self.eg -= v[1];
        self.phase -= PHASE[code as usize];
    }

    /// Piece id `mover` moves `from` -> `to`, capturing id `captured` (0: none).
    #[inline(always)]
    pub fn make(&mut self, mover: u8, from: usize, to: usize, captured: u8) {
        let code = code_of(mover) as usize;
        let (a, b) = (&PSQ[code][from], &PSQ[code][to]);
        self.mg += b[0] - a[0];
        self.eg += b[1] - a[1];
        if captured != 0 {
            self.remove(code_of(captured), to);
        }
    }

    /// Undoes [`Psq::make`].
    #[inline(always)]
    pub fn unmake(&mut self, mover: u8, from: usize, to: usize, captured: u8) {
        let code = code_of(mover) as usize;
        let (a, b) = (&PSQ[code][from], &PSQ[code][to]);
        self.mg -= b[0] - a[0];
        self.eg -= b[1] - a[1];
        if captured != 0 {
            self.add(code_of(captured), to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Piece, PieceKind, Square};

    #[test]
    fn symmetric_tables() {
        for kind in PieceKind::ALL {
            let r = Piece::new(Color::Red, kind);
            let b = Piece::new(Color::Black, kind);
            for sq in Square::all() {
                assert_eq!(PSQ[r.index()][sq.index()][0], -PSQ[b.index()][sq.flip().index()][0]);
                assert_eq!(PSQ[r.index()][sq.index()][1], -PSQ[b.index()][sq.flip().index()][1]);
            }
        }
        let start = crate::position::Position::startpos();
        let p = Psq::compute(start.board());
        assert_eq!((p.mg, p.eg, p.phase), (0, 0, crate::eval::weights::PHASE_MAX));
        // A crossed soldier is worth more than one at home, and one in front
        // of the enemy palace several times as much.
        let s = Piece::new(Color::Red, PieceKind::Soldier);
        let home = PSQ[s.index()][Square::new(4, 3).index()][0];
        assert!(4 * PSQ[s.index()][Square::new(4, 5).index()][0] > 5 * home);
        assert!(PSQ[s.index()][Square::new(4, 8).index()][0] > 4 * home);
    }
}
