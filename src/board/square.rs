//! Squares of the padded 16x16 board (ElephantEye geometry) and the constant
//! tables that describe the xiangqi board on it.
//!
//! The 9x10 board sits on files 3..=11 and ranks 3..=12 of a 256-cell array, so
//! that a horse jump or an elephant step from any point lands inside the array
//! and an off-board cell can be recognised by a table lookup (the 0x88 mask test
//! does not fit a 9x10 board). Ranks are counted from Red's back rank (rank 0)
//! to Black's (rank 9), files `a`..`i` from Red's left, exactly as in ICCS.
//!
//! This module knows geometry only: no pieces, no rules about who may stand where
//! beyond the palace and river tables.

use std::fmt;

use super::piece::Color;

/// A cell of the padded 16x16 board. Only cells with [`Square::is_on_board`]
/// are points of the xiangqi board; `Square(0)` is never on the board and is
/// used as "no square".
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u8);

/// A step between two cells of the padded board.
pub type Delta = i16;

/// One step towards Black's side (up the board, from Red's point of view).
pub const NORTH: Delta = 16;
/// One step towards Red's side.
pub const SOUTH: Delta = -16;
/// One step towards file `i`.
pub const EAST: Delta = 1;
/// One step towards file `a`.
pub const WEST: Delta = -1;
/// The four orthogonal steps.
pub const ORTHOGONAL: [Delta; 4] = [NORTH, SOUTH, EAST, WEST];
/// The four diagonal steps.
pub const DIAGONAL: [Delta; 4] = [NORTH + EAST, NORTH + WEST, SOUTH + EAST, SOUTH + WEST];

/// Number of files (a..i).
pub const FILES: u8 = 9;
/// Number of ranks (0..9).
pub const RANKS: u8 = 10;

/// File of a square, 0 (`a`) ..= 8 (`i`).
pub type File = u8;
/// Rank of a square, 0 (Red's back rank) ..= 9 (Black's back rank).
pub type Rank = u8;

impl Square {
    /// The point at `file` (0..=8) and `rank` (0..=9).
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square((rank + 3) * 16 + file + 3)
    }

    /// File 0..=8 (meaningful only on the board).
    #[inline]
    pub const fn file(self) -> File {
        (self.0 & 15).wrapping_sub(3)
    }

    /// Rank 0..=9 (meaningful only on the board).
    #[inline]
    pub const fn rank(self) -> Rank {
        (self.0 >> 4).wrapping_sub(3)
    }

    /// Index into 256-entry tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this cell is one of the 90 points.
    #[inline]
    pub const fn is_on_board(self) -> bool {
        IN_BOARD[self.0 as usize]
    }

    /// Whether this cell is inside either palace.
    #[inline]
    pub const fn is_in_palace(self) -> bool {
        IN_PALACE[self.0 as usize]
    }

    /// Whether this point lies on `color`'s own side of the river.
    #[inline]
    pub const fn is_home_half(self, color: Color) -> bool {
        HOME_HALF[color as usize][self.0 as usize]
    }

    /// The cell `delta` away (may be off the board; wraps inside the array).
    #[inline]
    pub const fn offset(self, delta: Delta) -> Square {
        Square((self.0 as i16 + delta) as u8)
    }

    /// Left-right mirror image (file `a` <-> file `i`).
    #[inline]
    pub const fn mirror(self) -> Square {
        Square((self.0 & 0xF0) | (14 - (self.0 & 15)))
    }

    /// Up-down mirror image (rank 0 <-> rank 9).
    #[inline]
    pub const fn flip(self) -> Square {
        Square(((15 - (self.0 >> 4)) << 4) | (self.0 & 15))
    }

    /// Index 0..90 of a point (rank-major from a0), for compact tables.
    #[inline]
    pub const fn point_index(self) -> usize {
        self.rank() as usize * 9 + self.file() as usize
    }

    /// All 90 points, a0, b0, ..., i9.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..RANKS).flat_map(|r| (0..FILES).map(move |f| Square::new(f, r)))
    }

    /// Parses an ICCS square such as `h2` (file letter, rank digit).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        (file < FILES && rank < RANKS).then(|| Square::new(file, rank))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_on_board() {
            write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
        } else {
            write!(f, "-")
        }
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

const fn build_in_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let f = i & 15;
        let r = i >> 4;
        t[i] = f >= 3 && f <= 11 && r >= 3 && r <= 12;
        i += 1;
    }
    t
}

const fn build_in_palace() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let f = i & 15;
        let r = i >> 4;
        // files d..f are 6..=8; ranks 0..2 are 3..=5, ranks 7..9 are 10..=12.
        t[i] = f >= 6 && f <= 8 && ((r >= 3 && r <= 5) || (r >= 10 && r <= 12));
        i += 1;
    }
    t
}

const fn build_home_half() -> [[bool; 256]; 2] {
    let mut t = [[false; 256]; 2];
    let mut i = 0;
    while i < 256 {
        let f = i & 15;
        let r = i >> 4;
        let on = f >= 3 && f <= 11 && r >= 3 && r <= 12;
        t[0][i] = on && r <= 7; // Red: ranks 0..=4
        t[1][i] = on && r >= 8; // Black: ranks 5..=9
        i += 1;
    }
    t
}

/// `IN_BOARD[sq]`: the cell is one of the 90 points.
pub const IN_BOARD: [bool; 256] = build_in_board();
/// `IN_PALACE[sq]`: the cell is one of the 18 palace points.
pub const IN_PALACE: [bool; 256] = build_in_palace();
/// `HOME_HALF[color][sq]`: the point is on that side's own half of the river.
pub const HOME_HALF: [[bool; 256]; 2] = build_home_half();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        assert_eq!(Square::all().count(), 90);
        assert_eq!(Square::all().filter(|s| s.is_in_palace()).count(), 18);
        let e0 = Square::new(4, 0);
        assert_eq!(e0.to_string(), "e0");
        assert_eq!(Square::parse("h2"), Some(Square::new(7, 2)));
        assert_eq!(Square::parse("j2"), None);
        assert_eq!(Square::parse("a"), None);
        assert_eq!(Square::new(0, 3).mirror(), Square::new(8, 3));
        assert_eq!(Square::new(2, 0).flip(), Square::new(2, 9));
        for s in Square::all() {
            assert_eq!(s.mirror().mirror(), s);
            assert_eq!(s.flip().flip(), s);
            assert!(s.mirror().is_on_board() && s.flip().is_on_board());
            assert_ne!(s.is_home_half(Color::Red), s.is_home_half(Color::Black));
            assert_eq!(Square::new(s.file(), s.rank()), s);
        }
        assert!(Square::new(3, 2).is_in_palace() && !Square::new(2, 2).is_in_palace());
        assert!(Square::new(5, 9).is_in_palace() && !Square::new(5, 6).is_in_palace());
        assert!(!Square(0).is_on_board());
    }
}
