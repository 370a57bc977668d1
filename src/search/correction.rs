//! Static-evaluation correction history: how far the search's results have
//! been from the static evaluation in positions with the same soldier
//! structure and in positions with the same material, per side to move. The
//! search adds the average of the two to every static evaluation it prunes
//! with, so an evaluation that is systematically wrong in some kind of
//! position (a soldier chain it misjudges, an imbalance it has no term for)
//! is corrected by what the search has seen in this game.
//!
//! Each entry is an exponential moving average of `score - static eval`,
//! clamped to [`MAX_CORRECTION`], in 1/[`UNIT`] of an evaluation unit; deeper
//! results weigh more.

use crate::board::{code_of, Color, PieceKind};
use crate::position::zobrist::PIECE_SQUARE;
use crate::position::Position;

/// Entries per table and side (a power of two).
pub const ENTRIES: usize = 16_384;
/// Fixed-point unit of an entry.
const UNIT: i32 = 32;
/// Largest correction of one table, in evaluation units.
pub const MAX_CORRECTION: i32 = 64;
/// Weight (out of [`WEIGHT_SCALE`]) of one update per ply of depth, capped at 16 plies.
const WEIGHT_SCALE: i32 = 128;

/// The two table indices of a position: soldier structure, material.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CorrectionKeys([usize; 2]);

impl CorrectionKeys {
    /// The keys of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> CorrectionKeys {
        let b = pos.board();
        let cells = b.cells();
        let mut soldiers = 0u64;
        let mut material = 0u64;
        for color in [Color::Red, Color::Black] {
            for sq in b.squares_of(color, PieceKind::Soldier) {
                soldiers ^= PIECE_SQUARE[code_of(cells[sq.index()]) as usize][sq.index()];
            }
            for &kind in &PieceKind::ALL[1..] {
                material = material << 3 | b.count(color, kind) as u64;
            }
        }
        let material = material.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        CorrectionKeys([(soldiers >> 50) as usize % ENTRIES, (material >> 50) as usize % ENTRIES])
    }
}

/// The correction tables of one search thread.
pub struct CorrectionHistory {
    /// `tables[table * 2 + side][index]`.
    tables: Vec<[i16; ENTRIES]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory { tables: vec![[0; ENTRIES]; 4] }
    }
}

impl CorrectionHistory {
    /// Resets everything (new game).
    pub fn clear(&mut self) {
        for t in &mut self.tables {
            t.fill(0);
        }
    }

    /// The correction to add to the static evaluation of a position with
    /// `keys` and `side` to move.
    #[inline]
    pub fn correction(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let s = side as usize;
        let sum = self.tables[s][keys.0[0]] as i32 + self.tables[2 + s][keys.0[1]] as i32;
        sum / (2 * UNIT)
    }

    /// Records that a search to `depth` found `diff` = score - corrected static evaluation.
    #[inline]
    pub fn update(&mut self, side: Color, keys: CorrectionKeys, diff: i32, depth: i32) {
        let s = side as usize;
        let w = depth.clamp(1, 16);
        for (t, &i) in keys.0.iter().enumerate() {
            let e = &mut self.tables[t * 2 + s][i];
            let old = *e as i32;
            let target = (old + diff.clamp(-MAX_CORRECTION, MAX_CORRECTION) * UNIT)
                .clamp(-MAX_CORRECTION * UNIT, MAX_CORRECTION * UNIT);
            *e = (old + (target - old) * w / WEIGHT_SCALE) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_results_and_stay_bounded() {
        let pos = Position::startpos();
        let keys = CorrectionKeys::of(&pos);
        let mut h = CorrectionHistory::default();
        assert_eq!(h.correction(Color::Red, keys), 0);
        for _ in 0..200 {
            h.update(Color::Red, keys, 500, 12);
        }
        let c = h.correction(Color::Red, keys);
        assert!(c > MAX_CORRECTION / 2 && c <= MAX_CORRECTION, "{c}");
        assert_eq!(h.correction(Color::Black, keys), 0, "per side");
        for _ in 0..400 {
            h.update(Color::Red, keys, -30, 12);
        }
        let c = h.correction(Color::Red, keys);
        assert!((-MAX_CORRECTION..0).contains(&c), "{c}");
        h.clear();
        assert_eq!(h.correction(Color::Red, keys), 0);
    }

    #[test]
    fn keys_see_soldiers_and_material() {
        let a = Position::startpos();
        let mut b = a.clone();
        b.try_make_move(b.parse_move("c3c4").unwrap()).unwrap();
        let (ka, kb) = (CorrectionKeys::of(&a), CorrectionKeys::of(&b));
        assert_ne!(ka.0[0], kb.0[0], "a soldier moved");
        assert_eq!(ka.0[1], kb.0[1], "same material");
        let mut c = a.clone();
        c.try_make_move(c.parse_move("b2b9").unwrap()).unwrap();
        let kc = CorrectionKeys::of(&c);
        assert_eq!(ka.0[0], kc.0[0], "same soldiers");
        assert_ne!(ka.0[1], kc.0[1], "a horse was taken");
    }
}
