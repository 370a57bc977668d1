//! The board: a 256-cell mailbox on the padded 16x16 geometry plus piece lists.
//!
//! Every piece has a fixed *id* for as long as it stays on the board (the
//! ElephantEye layout): ids 16..=31 are Red's, 32..=47 Black's, and within a
//! side slot 0 is the general, 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8
//! chariots, 9-10 cannons, 11-15 soldiers. A cell holds the id of the piece on
//! it (0 when empty, [`OFF`] outside the board), and the piece list maps each id
//! back to its square, so move generation never scans the board and the
//! repetition rules can follow a piece (a chase victim) as it moves.
//!
//! Beside the cells the board keeps one occupancy word per rank and per file
//! (ElephantEye's bit ranks and files), so that the sliding pieces' first and
//! second blockers are found with one bit scan instead of a walk: see
//! [`first_on_line`]. The words include a sentinel bit on the first
//! off-board cell at each end of the line, so a scan always stops, exactly
//! where a walk over the cells would (on a piece or on an [`OFF`] cell).
//!
//! The board has no notion of side to move, history or legality: that is
//! [`crate::position::Position`]'s job.

pub mod piece;
pub mod square;

pub use piece::{Color, Piece, PieceKind};
pub use square::{Delta, File, Rank, Square};

/// A piece id: 0 none, 16..=47 a piece (see the module documentation).
pub type PieceId = u8;

/// Cell value of an empty point.
pub const EMPTY: u8 = 0;
/// Cell value outside the 90 points.
pub const OFF: u8 = 64;

/// The id tag of a side: 16 for Red, 32 for Black (`id & tag != 0` tests colour).
#[inline]
pub const fn side_tag(color: Color) -> u8 {
    16 << color as u8
}

/// First slot of each kind within a side (General, Advisor, ..., Soldier), plus the end.
pub const SLOT_START: [u8; 8] = [0, 1, 3, 5, 7, 9, 11, 16];

const fn build_piece_of_id() -> [u8; 256] {
    let mut t = [0x80u8; 256];
    t[0] = 0;
    let mut id = 16;
    while id < 48 {
        let color = if id < 32 { 0 } else { 8 };
        let slot = (id & 15) as u8;
        let mut kind = 0;
        while SLOT_START[kind + 1] <= slot {
            kind += 1;
        }
        t[id] = color | (kind as u8 + 1);
        id += 1;
    }
    t
}

/// `PIECE_OF_ID[cell]`: the piece code (`Piece.0`) of an id, 0 for an empty
/// cell and 0x80 (matching no piece) for off-board cells.
const PIECE_OF_ID: [u8; 256] = build_piece_of_id();

/// The code (`Piece.0`) of the piece in a cell value, a table lookup (`PIECE_OF_ID`).
#[inline]
pub fn code_of(id: u8) -> u8 {
    PIECE_OF_ID[id as usize]
}

/// Mailbox plus piece lists.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    cells: [u8; 256],
    squares: [Square; 48],
    /// Occupancy words: `lines[row]` has bit `col` set for every occupied cell
    /// of padded row `row` (`sq >> 4`), `lines[16 + col]` bit `row` for padded
    /// column `col` (`sq & 15`); plus the sentinel bits at both ends.
    lines: [u16; 32],
    /// Bit `id` set for every piece id on the board.
    present: u64,
    /// Number of pieces on the board by piece code (color << 3 | kind), kept
    /// with the moves: the evaluation reads every count at every call, and
    /// the baseline x86-64 target has no population-count instruction.
    counts: [u8; 16],
}

/// The word of `lines` a scan from `sq` in direction `d` reads.
#[inline(always)]
const fn line_index(sq: u8, d: i16) -> usize {
    if d == EAST_STEP || d == WEST_STEP {
        (sq >> 4) as usize
    } else {
        16 + (sq & 15) as usize
    }
}

const EAST_STEP: i16 = 1;
const WEST_STEP: i16 = -1;
const NORTH_STEP: i16 = 16;

/// The first cell after `sq` in orthogonal direction `d` whose bit is set in
/// `line` (the occupancy word through `sq` along `d`, see [`Board::line`]).
/// With the board's sentinel bits this is the first cell that is not empty:
/// a piece or the [`OFF`] cell just outside the board.
#[inline(always)]
pub const fn first_on_line(line: u16, sq: u8, d: i16) -> u8 {
    let (row, col) = (sq >> 4, sq & 15);
    if d == EAST_STEP {
        let m = line >> (col + 1);
        (sq & 0xF0) | (col + 1 + m.trailing_zeros() as u8)
    } else if d == WEST_STEP {
        let m = line & ((1u16 << col) - 1);
        (sq & 0xF0) | (15 - m.leading_zeros() as u8)
    } else if d == NORTH_STEP {
        let m = line >> (row + 1);
        ((row + 1 + m.trailing_zeros() as u8) << 4) | col
    } else {
        let m = line & ((1u16 << row) - 1);
        ((15 - m.leading_zeros() as u8) << 4) | col
    }
}

/// Calls `f` with north, south, east and west in that order, stopping at the
/// first `true`. The calls are inlined with the direction a constant, so the
/// direction tests in [`first_on_line`] and [`line_after`] fold away (a loop
/// over the directions keeps them as branches).
#[inline(always)]
pub fn any_direction(mut f: impl FnMut(i16) -> bool) -> bool {
    f(NORTH_STEP) || f(-NORTH_STEP) || f(EAST_STEP) || f(WEST_STEP)
}

/// Calls `f` with north, south, east and west in that order (see [`any_direction`]).
#[inline(always)]
pub fn each_direction(mut f: impl FnMut(i16)) {
    f(NORTH_STEP);
    f(-NORTH_STEP);
    f(EAST_STEP);
    f(WEST_STEP);
}

/// `line` as it would be with the piece moved from `from` to `to`, where
/// `line` is the word through `sq` along `d` (see [`Board::line`]).
#[inline(always)]
pub const fn line_after(line: u16, sq: u8, d: i16, from: u8, to: u8) -> u16 {
    let mut line = line;
    if d == EAST_STEP || d == WEST_STEP {
        if (from ^ sq) & 0xF0 == 0 {
            line &= !(1 << (from & 15));
        }
        if (to ^ sq) & 0xF0 == 0 {
            line |= 1 << (to & 15);
        }
    } else {
        if (from ^ sq) & 0x0F == 0 {
            line &= !(1 << (from >> 4));
        }
        if (to ^ sq) & 0x0F == 0 {
            line |= 1 << (to >> 4);
        }
    }
    line
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// A board without pieces.
    pub fn empty() -> Board {
        let mut cells = [OFF; 256];
        for sq in Square::all() {
            cells[sq.index()] = EMPTY;
        }
        // Sentinels: columns 2 and 12 of each row, rows 2 and 13 of each column.
        let mut lines = [0u16; 32];
        for row_word in &mut lines[3..13] {
            *row_word = 1 << 2 | 1 << 12;
        }
        for col_word in &mut lines[16 + 3..16 + 12] {
            *col_word = 1 << 2 | 1 << 13;
        }
        Board { cells, squares: [Square(0); 48], lines, present: 0, counts: [0; 16] }
    }

    /// The occupancy word through `sq` along orthogonal direction `d`, for
    /// [`first_on_line`].
    #[inline(always)]
    pub fn line(&self, sq: u8, d: i16) -> u16 {
        self.lines[line_index(sq, d)]
    }

    /// The first cell after `sq` in orthogonal direction `d` that is not
    /// empty (a piece, or the [`OFF`] cell past the edge). `sq` must be a point.
    #[inline(always)]
    pub fn first_from(&self, sq: u8, d: i16) -> u8 {
        first_on_line(self.line(sq, d), sq, d)
    }

    /// Whether the occupancy words, the presence mask and the piece counts
    /// match the cells and the piece lists (for debug assertions and tests).
    pub fn is_consistent(&self) -> bool {
        let mut fresh = Board::empty();
        for sq in Square::all() {
            if self.cells[sq.index()] != EMPTY {
                fresh.occupy(sq.0);
            }
        }
        for id in 16..48u8 {
            if self.squares[id as usize] != Square(0) {
                fresh.present |= 1 << id;
                fresh.counts[code_of(id) as usize] += 1;
            }
        }
        fresh.lines == self.lines && fresh.present == self.present && fresh.counts == self.counts
    }

    #[inline(always)]
    fn occupy(&mut self, sq: u8) {
        self.lines[(sq >> 4) as usize] |= 1 << (sq & 15);
        self.lines[16 + (sq & 15) as usize] |= 1 << (sq >> 4);
    }

    #[inline(always)]
    fn vacate(&mut self, sq: u8) {
        self.lines[(sq >> 4) as usize] &= !(1 << (sq & 15));
        self.lines[16 + (sq & 15) as usize] &= !(1 << (sq >> 4));
    }

    /// The raw cell value (piece id, [`EMPTY`] or [`OFF`]).
    #[inline]
    pub fn cell(&self, sq: Square) -> u8 {
        self.cells[sq.index()]
    }

    /// All 256 cells.
    #[inline]
    pub fn cells(&self) -> &[u8; 256] {
        &self.cells
    }

    /// The piece on a point, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let code = code_of(self.cells[sq.index()]);
        (code != 0 && code != 0x80).then_some(Piece(code))
    }

    /// Whether the point is empty (false off the board).
    #[inline]
    pub fn is_empty(&self, sq: Square) -> bool {
        self.cells[sq.index()] == EMPTY
    }

    /// The square of a piece id (`Square(0)` when it is not on the board).
    #[inline]
    pub fn square_of(&self, id: PieceId) -> Square {
        self.squares[id as usize]
    }

    /// The general's square of `color` (`Square(0)` if it has none).
    #[inline]
    pub fn general(&self, color: Color) -> Square {
        self.squares[side_tag(color) as usize]
    }

    /// Places `piece` on an empty point, taking the first free id of its kind.
    /// Returns `None` when the side already has as many pieces of that kind as it
    /// starts with (a position no game can reach).
    pub fn add(&mut self, piece: Piece, sq: Square) -> Option<PieceId> {
        debug_assert!(self.is_empty(sq));
        let tag = side_tag(piece.color());
        let k = piece.kind().index();
        for slot in SLOT_START[k]..SLOT_START[k + 1] {
            let id = tag + slot;
            if self.squares[id as usize] == Square(0) {
                self.cells[sq.index()] = id;
                self.squares[id as usize] = sq;
                self.occupy(sq.0);
                self.present |= 1 << id;
                self.counts[code_of(id) as usize] += 1;
                return Some(id);
            }
        }
        None
    }

    /// Removes whatever stands on `sq`, returning its id (0 if empty).
    #[inline]
    pub fn remove(&mut self, sq: Square) -> PieceId {
        let id = self.cells[sq.index()];
        if id != EMPTY {
            self.squares[id as usize] = Square(0);
            self.cells[sq.index()] = EMPTY;
            self.vacate(sq.0);
            self.present &= !(1 << id);
            self.counts[code_of(id) as usize] -= 1;
        }
        id
    }

    /// Puts piece `id` on `sq` (which must be empty).
    #[inline]
    pub fn put(&mut self, id: PieceId, sq: Square) {
        self.cells[sq.index()] = id;
        self.squares[id as usize] = sq;
        self.occupy(sq.0);
        self.present |= 1 << id;
        self.counts[code_of(id) as usize] += 1;
    }

    /// Moves the piece on `from` to `to`, removing what stood on `to`; returns
    /// the id of the removed piece (0 if none).
    #[inline]
    pub fn move_piece(&mut self, from: Square, to: Square) -> PieceId {
        let id = self.cells[from.index()];
        let captured = self.cells[to.index()];
        if captured != EMPTY {
            self.squares[captured as usize] = Square(0);
            self.present &= !(1 << captured);
            self.counts[code_of(captured) as usize] -= 1;
        }
        self.cells[to.index()] = id;
        self.cells[from.index()] = EMPTY;
        self.squares[id as usize] = to;
        self.vacate(from.0);
        self.occupy(to.0);
        captured
    }

    /// Undoes [`Board::move_piece`].
    #[inline]
    pub fn unmove_piece(&mut self, from: Square, to: Square, captured: PieceId) {
        let id = self.cells[to.index()];
        self.cells[from.index()] = id;
        self.squares[id as usize] = from;
        self.cells[to.index()] = captured;
        if captured != EMPTY {
            self.squares[captured as usize] = to;
            self.present |= 1 << captured;
            self.counts[code_of(captured) as usize] += 1;
        } else {
            self.vacate(to.0);
        }
        self.occupy(from.0);
    }

    /// The pieces of one side as `(id, piece, square)`.
    pub fn pieces(&self, color: Color) -> impl Iterator<Item = (PieceId, Piece, Square)> + '_ {
        let tag = side_tag(color);
        (tag..tag + 16).filter_map(move |id| {
            let sq = self.squares[id as usize];
            (sq != Square(0)).then(|| (id, Piece(code_of(id)), sq))
        })
    }

    /// The ids of `color`'s pieces of `kind` on the board, as bits of a mask
    /// (bit `id`).
    #[inline(always)]
    pub fn mask(&self, color: Color, kind: PieceKind) -> u64 {
        let k = kind.index();
        let width = SLOT_START[k + 1] - SLOT_START[k];
        self.present & ((1u64 << width) - 1) << (side_tag(color) + SLOT_START[k])
    }

    /// The ids of all of `color`'s pieces on the board, as bits of a mask.
    #[inline(always)]
    pub fn side_mask(&self, color: Color) -> u64 {
        self.present & 0xFFFF << side_tag(color)
    }

    /// Number of pieces of `color` and `kind` on the board.
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> usize {
        self.counts[(color as usize) << 3 | kind as usize] as usize
    }

    /// Squares of the pieces of `color` and `kind`.
    #[inline]
    pub fn squares_of(&self, color: Color, kind: PieceKind) -> impl Iterator<Item = Square> + '_ {
        self.squares_in(self.mask(color, kind))
    }

    /// Squares of the pieces whose ids are the bits of `mask`, in id order.
    #[inline]
    pub fn squares_in(&self, mut mask: u64) -> impl Iterator<Item = Square> + '_ {
        std::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let id = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(self.squares[id])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_slots() {
        assert_eq!(code_of(16), Piece::new(Color::Red, PieceKind::General).0);
        assert_eq!(code_of(23), Piece::new(Color::Red, PieceKind::Chariot).0);
        assert_eq!(code_of(47), Piece::new(Color::Black, PieceKind::Soldier).0);
        assert_eq!(code_of(EMPTY), 0);
        assert_eq!(code_of(OFF), 0x80);
        let mut b = Board::empty();
        let r = Piece::new(Color::Red, PieceKind::Chariot);
        assert!(b.add(r, Square::new(0, 0)).is_some());
        assert!(b.add(r, Square::new(8, 0)).is_some());
        assert!(b.add(r, Square::new(4, 4)).is_none());
        assert_eq!(b.count(Color::Red, PieceKind::Chariot), 2);
        let cap = b.move_piece(Square::new(0, 0), Square::new(0, 5));
        assert_eq!(cap, EMPTY);
        b.unmove_piece(Square::new(0, 0), Square::new(0, 5), cap);
        assert_eq!(b.piece_at(Square::new(0, 0)), Some(r));
        assert!(b.is_consistent());
    }

    /// `first_from` finds what a walk over the cells finds, in every direction
    /// from every point, on boards filled at random.
    #[test]
    fn line_scans_match_walks() {
        use crate::board::square::ORTHOGONAL;
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let kinds = [PieceKind::Chariot, PieceKind::Cannon, PieceKind::Horse, PieceKind::Soldier];
        for fill in [0, 3, 10, 25] {
            let mut b = Board::empty();
            for _ in 0..fill {
                let sq = Square::new(rng.gen_range(0..9), rng.gen_range(0..10));
                let color = if rng.gen_bool(0.5) { Color::Red } else { Color::Black };
                let piece = Piece::new(color, kinds[rng.gen_range(0..kinds.len())]);
                if b.is_empty(sq) {
                    b.add(piece, sq);
                }
            }
            assert!(b.is_consistent());
            for sq in Square::all() {
                for d in ORTHOGONAL {
                    let mut s = (sq.0 as i16 + d) as u8;
                    while b.cells[s as usize] == EMPTY {
                        s = (s as i16 + d) as u8;
                    }
                    assert_eq!(b.first_from(sq.0, d), s, "from {sq:?} d={d}");
                }
            }
        }
    }
}
