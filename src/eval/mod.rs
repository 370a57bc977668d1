//! Static evaluation: [`evaluate`] scores a position from the side to move's
//! point of view. Material and piece-square values come incrementally from
//! the position ([`psq::Psq`]); the remaining terms are computed here. All
//! weights live in [`weights`].
//!
//! The evaluation knows no search and no repetition rules.

pub mod psq;
pub mod weights;

use crate::board::{Color, PieceKind};
use crate::position::Position;
use crate::score::Score;
use weights::{PHASE_MAX, TEMPO};

/// The static evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Score {
    Score(evaluate_raw(pos))
}

/// Whether `color` has a piece that can cross the river and attack
/// (chariot, horse, cannon or soldier).
pub fn has_attackers(pos: &Position, color: Color) -> bool {
    let b = pos.board();
    b.count(color, PieceKind::Chariot)
        + b.count(color, PieceKind::Horse)
        + b.count(color, PieceKind::Cannon)
        + b.count(color, PieceKind::Soldier)
        > 0
}

/// [`evaluate`] as a plain integer.
pub(crate) fn evaluate_raw(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    // rules.md section 2: with no piece that can cross the river on either
    // side, nobody can win.
    if !has_attackers(pos, Color::Red) && !has_attackers(pos, Color::Black) {
        return 0;
    }
    let p = pos.psq();
    let phase = p.phase.clamp(0, PHASE_MAX);
    let v = (p.mg * phase + p.eg * (PHASE_MAX - phase)) / PHASE_MAX;
    let v = if us == Color::Red { v } else { -v };
    v + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_and_sane() {
        let start = Position::startpos();
        assert_eq!(evaluate(&start).0, TEMPO);
        let mirrored =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1").unwrap();
        assert_eq!(evaluate(&mirrored).0, TEMPO);
        // Red a chariot up.
        let up = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
        assert!(evaluate(&up).0 > 800);
        // Bare generals and defenders: dead draw.
        let dead = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1").unwrap();
        assert_eq!(evaluate(&dead).0, 0);
    }
}
