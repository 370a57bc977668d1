//! Search scores: [`Score`] in centipawn-like units from the side to move's
//! point of view, the mate range and the one place where mate scores are
//! converted between "distance from the root" (search) and "distance from
//! this node" (transposition table): [`to_tt`] / [`from_tt`].
//!
//! It owns no evaluation and no search logic.

use std::fmt;

/// The score of a mate on the board at the root (mate in 0 plies).
pub const MATE: i32 = 30_000;
/// Deepest ply the search can reach; mate scores lie within `MAX_PLY` of [`MATE`].
pub(crate) const MAX_PLY: i32 = 128;
/// Scores at or above this are mates found by search.
pub const MATE_BOUND: i32 = MATE - MAX_PLY;
/// Larger than any score (window bound).
pub(crate) const INFINITE: i32 = 32_000;

/// A score from the side to move's point of view.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

/// The score of giving mate `ply` plies from the root.
#[inline]
pub(crate) const fn mate_in(ply: u32) -> Score {
    Score(MATE - ply as i32)
}

/// The score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: u32) -> Score {
    Score(-MATE + ply as i32)
}

impl Score {
    /// Whether this is a mate score (for either side).
    #[inline]
    pub(crate) const fn is_mate(self) -> bool {
        self.0 >= MATE_BOUND || self.0 <= -MATE_BOUND
    }

    /// Moves (not plies) to mate as UCI's `score mate N`: positive when the
    /// side to move mates, negative (or 0: mated now) when it is mated.
    pub const fn mate_moves(self) -> Option<i32> {
        if self.0 >= MATE_BOUND {
            Some((MATE - self.0 + 1) / 2)
        } else if self.0 <= -MATE_BOUND {
            Some(-(MATE + self.0) / 2)
        } else {
            None
        }
    }
}

/// Debug output: the value, and the mate distance in moves when it is one.
/// (The protocols' spellings are `protocol::format`'s.)
impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(n) => write!(f, "Score({}, mate {n})", self.0),
            None => write!(f, "Score({})", self.0),
        }
    }
}

/// Converts a search score at `ply` into a table score (mates counted from this node).
#[inline]
pub(crate) const fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// Converts a table score back into a search score at `ply`, at a node
/// `limit_left` plies before the natural move limit (docs/rules.md 4: 120 plies
/// without a capture draw). A mate (or a perpetual verdict, also in the mate
/// band) stored as more than `limit_left` plies away may be overturned by the
/// limit: the entry was maybe stored with a different counter, so the score is
/// distrusted (`None`) and only the move is used.
#[inline]
pub(crate) const fn from_tt(s: i32, ply: usize, limit_left: i32) -> Option<i32> {
    if s >= MATE_BOUND {
        if MATE - s > limit_left {
            None
        } else {
            Some(s - ply as i32)
        }
    } else if s <= -MATE_BOUND {
        if MATE + s > limit_left {
            None
        } else {
            Some(s + ply as i32)
        }
    } else {
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_arithmetic() {
        assert_eq!(mate_in(1).mate_moves(), Some(1));
        assert_eq!(mate_in(3).mate_moves(), Some(2));
        assert_eq!(mated_in(0).mate_moves(), Some(0));
        assert_eq!(mated_in(2).mate_moves(), Some(-1));
        assert_eq!(mated_in(4).mate_moves(), Some(-2));
        assert!(mate_in(5).is_mate() && mated_in(7).is_mate());
        assert!(!Score(2500).is_mate());
        assert_eq!(Score(37).mate_moves(), None);
        assert_eq!(format!("{:?}", mate_in(3)), "Score(29997, mate 2)");
        assert_eq!(format!("{:?}", Score(-12)), "Score(-12)");
        // A mate 5 plies below a node at ply 4 is stored as mate in 5 from it
        // and read back at ply 2 as mate in 7 from the root.
        let s = mate_in(9).0;
        let stored = to_tt(s, 4);
        assert_eq!(stored, mate_in(5).0);
        assert_eq!(from_tt(stored, 2, 120), Some(mate_in(7).0));
        assert_eq!(from_tt(to_tt(-s, 4), 4, 120), Some(-s));
        assert_eq!(to_tt(123, 9), 123);
        // Natural limit: a mate 5 plies away is trusted with 5 plies left, not with 4.
        assert_eq!(from_tt(stored, 2, 5), Some(mate_in(7).0));
        assert_eq!(from_tt(stored, 2, 4), None);
        assert_eq!(from_tt(-stored, 2, 4), None);
        assert_eq!(from_tt(123, 2, 0), Some(123));
    }
}
