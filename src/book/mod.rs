//! The opening book: a sorted table of `(key, move, weight)` records, its
//! binary file format (writer and loader), and the probe the protocol calls.
//!
//! This module owns: the binary format (see `book/README.md`), the mirrored
//! look-up (only one of each left-right mirrored pair of positions is stored),
//! the legality check of every stored candidate, the weighted random choice and
//! the repetition guard. Building a book from `book/openings.txt` lives in
//! [`text`], the opening-suite generator in [`suite`], scoring lines and
//! suite positions with the search in [`verify`].
//!
//! It does not own: protocol options (`usebook`, `bookfiles`, `OwnBook`,
//! `BookFile`, `randomness`) or how book moves are reported; the session maps
//! those onto [`OpeningBook::probe`] and [`ProbeOptions`]. It never searches
//! and never prints.
//!
//! ## Canonical orientation
//! A position and its left-right mirror image (file `a` <-> file `i`) are the
//! same opening. The book stores the one whose Zobrist key is smaller (its
//! *canonical* key) and the moves as seen in that orientation. A probe computes
//! both keys of the position, looks up the smaller one, and mirrors the stored
//! moves back when the position is the mirrored one. A symmetric position (both
//! keys equal, like the start position) stores each mirrored pair of moves once
//! and the probe offers both moves, each with half the weight.

pub(crate) mod set;
pub mod suite;
pub mod text;
pub mod verify;

use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::board::{Color, Square};
use crate::files::{self, FileError};
use crate::moves::Move;
use crate::position::zobrist::{self, KEY_VERSION};
use crate::position::Position;

pub use text::{BuildError, BuildStats, OpeningLine};

/// First 8 bytes of every book file.
pub(crate) const MAGIC: [u8; 8] = *b"CHUHANBK";
/// Version of the record layout written by [`OpeningBook::to_bytes`].
pub(crate) const FORMAT_VERSION: u32 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 32;
/// Record size in bytes: key `u64`, move `u16`, weight `u16`.
pub const RECORD_LEN: usize = 12;
/// Most records a book may hold (4 Mi, 48 MiB of records): far beyond any
/// opening book, and the bound on what a loader reads from a book path.
pub const MAX_RECORDS: u32 = 1 << 22;
/// Largest valid book file in bytes (header and [`MAX_RECORDS`] records).
pub const MAX_FILE_LEN: u64 = HEADER_LEN as u64 + MAX_RECORDS as u64 * RECORD_LEN as u64;

/// The default book, built from `book/openings.txt` by `chuhan book build`.
static EMBEDDED: &[u8] = include_bytes!("../../book/chuhan.book");

/// One stored record: a canonical key and a move in the canonical orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BookEntry {
    /// Canonical Zobrist key (the smaller of the position's and its mirror's).
    pub key: u64,
    /// The move, in the orientation of the canonical position.
    pub mv: Move,
    /// Relative weight (how often the move should be chosen), at least 1.
    pub weight: u16,
}

/// A move the book proposes for a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move (legal in the probed position).
    pub mv: Move,
    /// Its weight in the book.
    pub weight: u16,
    /// The book's most popular reply to it, if the book has one.
    pub ponder: Option<Move>,
}

/// How much variety the probe adds: the UCCI `randomness` levels.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Randomness {
    /// Always the move with the largest weight.
    None,
    /// Weighted choice, strongly favouring large weights (weight^2).
    Tiny,
    /// Weighted choice (weight^1.5).
    Small,
    /// Weighted choice in proportion to the weights (the default).
    #[default]
    Medium,
    /// Weighted choice, flattened (weight^0.5).
    Large,
    /// Every candidate equally likely.
    Huge,
}

impl Randomness {
    /// Exponent applied to the weights, or `None` for "always the best".
    fn exponent(self) -> Option<f64> {
        match self {
            Randomness::None => None,
            Randomness::Tiny => Some(2.0),
            Randomness::Small => Some(1.5),
            Randomness::Medium => Some(1.0),
            Randomness::Large => Some(0.5),
            Randomness::Huge => Some(0.0),
        }
    }
}

/// Settings of one probe.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ProbeOptions {
    /// How the move is chosen among the candidates.
    pub randomness: Randomness,
    /// Seed of the choice; the probe mixes in the position key, so one seed per
    /// game gives varied but reproducible games.
    pub seed: u64,
}

/// Why a book file was rejected. The caller keeps playing without the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be read (missing, not a regular file, larger than
    /// [`MAX_FILE_LEN`]).
    File(FileError),
    /// Shorter than the header.
    Truncated { len: usize },
    /// The first 8 bytes are not [`MAGIC`].
    BadMagic,
    /// A record layout this build cannot read.
    UnsupportedFormat { found: u32 },
    /// The keys were computed with other Zobrist tables.
    KeyVersionMismatch { found: u32, expected: u32 },
    /// The header announces more than [`MAX_RECORDS`] records.
    TooManyRecords { records: u32 },
    /// The length does not match the record count in the header.
    LengthMismatch { records: u32, expected: u64, found: u64 },
    /// The records do not match the header's checksum.
    ChecksumMismatch { stored: u64, computed: u64 },
    /// Records out of order (or duplicated) at this index.
    Unsorted { index: usize },
    /// A record holds an impossible move or a zero weight.
    BadRecord { index: usize },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::File(FileError::Io { path, message }) => write!(f, "cannot read book {path}: {message}"),
            BookError::File(e) => e.fmt(f),
            BookError::TooManyRecords { records } => {
                write!(f, "book header announces {records} records, more than the format's {MAX_RECORDS}")
            }
            BookError::Truncated { len } => {
                write!(f, "book file truncated: {len} bytes, the header alone is {HEADER_LEN}")
            }
            BookError::BadMagic => f.write_str("not a Chuhan book (bad magic)"),
            BookError::UnsupportedFormat { found } => {
                write!(f, "book format version {found} is not supported (this build reads {FORMAT_VERSION})")
            }
            BookError::KeyVersionMismatch { found, expected } => {
                write!(f, "book built for Zobrist key version {found}, this build uses {expected}; rebuild the book")
            }
            BookError::LengthMismatch { records, expected, found } if found < expected => write!(
                f,
                "book file truncated: header says {records} records ({expected} bytes), file has {found} bytes \
                 ({} whole records{})",
                (found - HEADER_LEN as u64) / RECORD_LEN as u64,
                if !(found - HEADER_LEN as u64).is_multiple_of(RECORD_LEN as u64) { " and a partial one" } else { "" }
            ),
            BookError::LengthMismatch { records, expected, found } => {
                write!(f, "book file padded: header says {records} records ({expected} bytes), file has {found} bytes")
            }
            BookError::ChecksumMismatch { stored, computed } => {
                write!(f, "book file corrupt: checksum {computed:016x}, header says {stored:016x}")
            }
            BookError::Unsorted { index } => write!(f, "book file corrupt: record {index} out of order"),
            BookError::BadRecord { index } => write!(f, "book file corrupt: record {index} is not a valid move"),
        }
    }
}

impl std::error::Error for BookError {}

/// A loaded opening book. The records are shared: a clone is a reference
/// count, not a copy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningBook {
    /// Sorted by (key, move), no duplicates.
    entries: Arc<[BookEntry]>,
}

/// FNV-1a 64 over a byte slice (the records' checksum).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// File encoding of a move: `from_point | to_point << 7`, points 0..90 rank-major
/// from a0 (independent of the in-memory padded-board encoding).
fn encode_move(m: Move) -> u16 {
    m.from().point_index() as u16 | (m.to().point_index() as u16) << 7
}

fn decode_move(code: u16) -> Option<Move> {
    let (from, to) = (code & 0x7F, (code >> 7) & 0x7F);
    if code >> 14 != 0 || from >= 90 || to >= 90 || from == to {
        return None;
    }
    let sq = |p: u16| Square::new((p % 9) as u8, (p / 9) as u8);
    Some(Move::new(sq(from), sq(to)))
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// The Zobrist key of the left-right mirror image of `pos`.
pub fn mirror_key(pos: &Position) -> u64 {
    let mut k = 0u64;
    for color in Color::ALL {
        for (_, piece, sq) in pos.board().pieces(color) {
            k ^= zobrist::piece_key(piece, sq.mirror());
        }
    }
    if pos.side_to_move() == Color::Black {
        k ^= zobrist::SIDE;
    }
    k
}

/// How a position relates to its canonical (stored) orientation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Orientation {
    /// The position is the canonical one: stored moves apply as they are.
    AsIs,
    /// The position is the mirror of the canonical one: mirror stored moves.
    Mirrored,
    /// The position is its own mirror image.
    Symmetric,
}

fn orientation(pos: &Position) -> (u64, Orientation) {
    let (k, mk) = (pos.key().0, mirror_key(pos));
    match k.cmp(&mk) {
        std::cmp::Ordering::Less => (k, Orientation::AsIs),
        std::cmp::Ordering::Greater => (mk, Orientation::Mirrored),
        std::cmp::Ordering::Equal => (k, Orientation::Symmetric),
    }
}

/// The canonical `(key, move)` pair under which `m` played in `pos` is stored.
pub fn canonical(pos: &Position, m: Move) -> (u64, Move) {
    match orientation(pos) {
        (k, Orientation::AsIs) => (k, m),
        (k, Orientation::Mirrored) => (k, m.mirror()),
        (k, Orientation::Symmetric) => (k, m.min(m.mirror())),
    }
}

impl OpeningBook {
    /// A book from records in any order; equal `(key, move)` pairs are merged
    /// by adding their weights (saturating), zero weights are dropped.
    pub fn from_entries(mut entries: Vec<BookEntry>) -> OpeningBook {
        entries.sort_unstable_by_key(|e| (e.key, e.mv));
        let mut merged: Vec<BookEntry> = Vec::with_capacity(entries.len());
        for e in entries {
            match merged.last_mut() {
                Some(last) if last.key == e.key && last.mv == e.mv => {
                    last.weight = last.weight.saturating_add(e.weight)
                }
                _ => merged.push(e),
            }
        }
        merged.retain(|e| e.weight > 0);
        OpeningBook { entries: merged.into() }
    }

    /// The book compiled into the binary (`book/chuhan.book`), decoded on the
    /// first call; later calls hand out the same records (a cheap clone).
    pub fn embedded() -> Result<OpeningBook, BookError> {
        static DECODED: OnceLock<Result<OpeningBook, BookError>> = OnceLock::new();
        DECODED.get_or_init(|| OpeningBook::from_bytes(EMBEDDED)).clone()
    }

    /// Reads a book file: only a regular file, at most [`MAX_FILE_LEN`]
    /// bytes, never blocking (a FIFO or device is refused at once).
    pub fn load(path: &Path) -> Result<OpeningBook, BookError> {
        let bytes = files::read_limited(path, MAX_FILE_LEN).map_err(BookError::File)?;
        OpeningBook::from_bytes(&bytes)
    }

    /// Reads several book files (the UCCI `bookfiles` list) into one book;
    /// records for the same position and move add their weights.
    pub fn load_all<P: AsRef<Path>>(paths: &[P]) -> Result<OpeningBook, BookError> {
        let mut all = Vec::new();
        for p in paths {
            all.extend_from_slice(&OpeningBook::load(p.as_ref())?.entries);
        }
        Ok(OpeningBook::from_entries(all))
    }

    /// Parses the binary format (see `book/README.md`). Rejects anything
    /// truncated, corrupt, unsorted or built for other Zobrist keys.
    pub fn from_bytes(bytes: &[u8]) -> Result<OpeningBook, BookError> {
        if bytes.len() < HEADER_LEN {
            return Err(BookError::Truncated { len: bytes.len() });
        }
        if bytes[0..8] != MAGIC {
            return Err(BookError::BadMagic);
        }
        let format = read_u32(bytes, 8);
        if format != FORMAT_VERSION {
            return Err(BookError::UnsupportedFormat { found: format });
        }
        let key_version = read_u32(bytes, 12);
        if key_version != KEY_VERSION {
            return Err(BookError::KeyVersionMismatch { found: key_version, expected: KEY_VERSION });
        }
        let records = read_u32(bytes, 16);
        if records > MAX_RECORDS {
            return Err(BookError::TooManyRecords { records });
        }
        let expected = HEADER_LEN as u64 + records as u64 * RECORD_LEN as u64;
        if expected != bytes.len() as u64 {
            return Err(BookError::LengthMismatch { records, expected, found: bytes.len() as u64 });
        }
        let body = &bytes[HEADER_LEN..];
        let stored = read_u64(bytes, 24);
        let computed = fnv1a(body);
        if stored != computed {
            return Err(BookError::ChecksumMismatch { stored, computed });
        }
        let mut entries = Vec::with_capacity(records as usize);
        for (index, rec) in body.chunks_exact(RECORD_LEN).enumerate() {
            let key = read_u64(rec, 0);
            let code = u16::from_le_bytes([rec[8], rec[9]]);
            let weight = u16::from_le_bytes([rec[10], rec[11]]);
            let mv = decode_move(code).ok_or(BookError::BadRecord { index })?;
            if weight == 0 {
                return Err(BookError::BadRecord { index });
            }
            let e = BookEntry { key, mv, weight };
            if let Some(prev) = entries.last() {
                let prev: &BookEntry = prev;
                if (prev.key, prev.mv) >= (e.key, e.mv) {
                    return Err(BookError::Unsorted { index });
                }
            }
            entries.push(e);
        }
        Ok(OpeningBook { entries: entries.into() })
    }

    /// The binary file: header then the sorted records, little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.entries.len() * RECORD_LEN);
        for e in self.entries.iter() {
            body.extend_from_slice(&e.key.to_le_bytes());
            body.extend_from_slice(&encode_move(e.mv).to_le_bytes());
            body.extend_from_slice(&e.weight.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_LEN + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&KEY_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes()); // reserved
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// All records, sorted by (key, move).
    pub fn entries(&self) -> &[BookEntry] {
        &self.entries
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no records.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The stored records of a canonical key (binary search).
    fn records(&self, key: u64) -> &[BookEntry] {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = lo + self.entries[lo..].partition_point(|e| e.key == key);
        &self.entries[lo..hi]
    }

    /// Every legal book move in `pos` with its weight, in the orientation of
    /// `pos`, largest weight first (ties in move order). Stored moves that are
    /// not legal here (a key collision or a foreign book) are skipped.
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u16)> {
        let (key, orient) = orientation(pos);
        let mut out: Vec<(Move, u16)> = Vec::new();
        for e in self.records(key) {
            match orient {
                Orientation::AsIs => out.push((e.mv, e.weight)),
                Orientation::Mirrored => out.push((e.mv.mirror(), e.weight)),
                Orientation::Symmetric => {
                    let m2 = e.mv.mirror();
                    if m2 == e.mv {
                        out.push((e.mv, e.weight));
                    } else {
                        let half = e.weight.div_ceil(2);
                        out.push((e.mv, half));
                        out.push((m2, half));
                    }
                }
            }
        }
        out.retain(|&(m, _)| pos.is_legal(m));
        out.sort_by_key(|&(m, w)| (std::cmp::Reverse(w), m));
        out
    }

    /// The key of the position after the legal move `m` (incremental).
    fn child_key(pos: &Position, m: Move) -> u64 {
        let mut k = pos.key().0 ^ zobrist::SIDE;
        if let Some(mover) = pos.piece_at(m.from()) {
            k ^= zobrist::piece_key(mover, m.from()) ^ zobrist::piece_key(mover, m.to());
        }
        if let Some(captured) = pos.piece_at(m.to()) {
            k ^= zobrist::piece_key(captured, m.to());
        }
        k
    }

    /// Whether playing the legal move `m` recreates a position that already
    /// occurred since the last capture (docs/rules.md: a repeated position is what
    /// the repetition rules judge; the book never walks into one).
    fn repeats(pos: &Position, m: Move) -> bool {
        let states = pos.states();
        let window = pos.state().plies_since_capture as usize;
        if window == 0 || pos.piece_at(m.to()).is_some() {
            return false;
        }
        let key = OpeningBook::child_key(pos, m);
        // Positions with the mover's opponent to move lie 1, 3, 5, ... plies back.
        let last = states.len() - 1;
        (1..=window.min(last)).step_by(2).any(|back| states[last - back].key.0 == key)
    }

    /// Chooses a book move for `pos`: a legal, stored move for which `exclude`
    /// is false and which does not repeat an earlier position, drawn by weight
    /// as `options` says, with the book's favourite reply as ponder move.
    /// `None` when the position is not in the book or every candidate is
    /// excluded.
    pub fn probe(&self, pos: &Position, options: ProbeOptions, exclude: &dyn Fn(Move) -> bool) -> Option<BookMove> {
        let mut cands = self.moves(pos);
        cands.retain(|&(m, _)| !exclude(m) && !OpeningBook::repeats(pos, m));
        let (mv, weight) = match options.randomness.exponent() {
            None => *cands.first()?,
            Some(p) => {
                if cands.is_empty() {
                    return None;
                }
                let scaled = |w: u16| if p == 1.0 { w as f64 } else { (w as f64).powf(p) };
                let total: f64 = cands.iter().map(|&(_, w)| scaled(w)).sum();
                // One draw from a generator seeded by the game's seed and the
                // position: reproducible, and independent of earlier probes.
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed ^ pos.key().0);
                let r = rng.gen::<f64>() * total;
                let mut acc = 0.0;
                let mut pick = cands[cands.len() - 1];
                for &c in &cands {
                    acc += scaled(c.1);
                    if r < acc {
                        pick = c;
                        break;
                    }
                }
                pick
            }
        };
        Some(BookMove { mv, weight, ponder: self.ponder(pos, mv) })
    }

    /// The heaviest legal book reply after the legal move `mv`.
    fn ponder(&self, pos: &Position, mv: Move) -> Option<Move> {
        let key = OpeningBook::child_key(pos, mv);
        let mut child = pos.clone();
        child.make_move(mv);
        debug_assert_eq!(child.key().0, key);
        self.moves(&child).first().map(|&(m, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_codes_round_trip() {
        for from in Square::all() {
            for to in Square::all() {
                if from != to {
                    let m = Move::new(from, to);
                    assert_eq!(decode_move(encode_move(m)), Some(m));
                }
            }
        }
        assert_eq!(decode_move(0), None); // a0a0
        assert_eq!(decode_move(90), None); // from point 90
        assert_eq!(decode_move(1 << 14 | 1), None);
    }

    #[test]
    fn mirror_key_matches_mirrored_position() {
        let mut pos = Position::startpos();
        assert_eq!(mirror_key(&pos), pos.key().0);
        for text in ["h2e2", "h9g7", "h0g2", "i9h9"] {
            let m = pos.parse_move(text).unwrap();
            pos.make_move(m);
        }
        let mut mirrored = Position::startpos();
        for text in ["b2e2", "b9c7", "b0c2", "a9b9"] {
            let m = mirrored.parse_move(text).unwrap();
            mirrored.make_move(m);
        }
        assert_eq!(mirror_key(&pos), mirrored.key().0);
        assert_eq!(mirror_key(&mirrored), pos.key().0);
        assert_ne!(pos.key(), mirrored.key());
    }

    #[test]
    fn randomness_names() {
        assert_eq!(Randomness::default(), Randomness::Medium);
    }
}
