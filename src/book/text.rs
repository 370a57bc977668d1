//! The text source of a book (`book/openings.txt`) and building the binary
//! table from it.
//!
//! Format, one opening line per text line:
//! `<ICCS moves from the start position> | <weight> | <ECCO code> | <name>`,
//! e.g. `h2e2 h9g7 h0g2 i9h9 | 20 | C00 | 中炮对屏风马`. Blank lines and lines
//! starting with `#` are ignored. Every move is checked against the position
//! (docs/rules.md section 1): an illegal move fails the build naming its line and
//! ply.
//!
//! Building merges transpositions (the same position reached by several lines
//! gets one record per move, the weights of all lines through it added) and
//! stores every position in its canonical orientation (see [`super`]). This
//! module does not read or write files.

use std::collections::HashMap;
use std::fmt;

use super::{canonical, BookEntry, OpeningBook};
use crate::moves::Move;
use crate::position::{MoveError, Position};

/// Fewest and most plies a line may have.
pub(crate) const MIN_PLIES: usize = 1;
/// Longest accepted line.
pub(crate) const MAX_PLIES: usize = 60;

/// One parsed line of the text source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningLine {
    /// 1-based line number in the source.
    pub line: usize,
    /// The moves from the start position (checked legal by [`parse_lines`]).
    pub moves: Vec<Move>,
    /// The line's weight (1..=65535).
    pub(crate) weight: u16,
    /// ECCO code, `A00`..`E99`.
    pub ecco: String,
    /// Chinese name of the opening.
    pub name: String,
}

/// Why a text source was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// Not four `|`-separated fields.
    Fields { line: usize },
    /// The weight is not an integer in 1..=65535.
    Weight { line: usize, text: String },
    /// The ECCO code is not a letter A-E and two digits.
    Ecco { line: usize, text: String },
    /// The name is empty.
    Name { line: usize },
    /// Too few or too many moves.
    Length { line: usize, plies: usize },
    /// A move that is not ICCS text or not legal where it is played.
    Move { line: usize, ply: usize, error: MoveError },
    /// No opening lines at all.
    Empty,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Fields { line } => {
                write!(f, "line {line}: expected `moves | weight | ECCO | name`")
            }
            BuildError::Weight { line, text } => write!(f, "line {line}: weight '{text}' is not in 1..=65535"),
            BuildError::Ecco { line, text } => write!(f, "line {line}: '{text}' is not an ECCO code (A00..E99)"),
            BuildError::Name { line } => write!(f, "line {line}: the opening has no name"),
            BuildError::Length { line, plies } => {
                write!(f, "line {line}: {plies} plies (expected {MIN_PLIES}..={MAX_PLIES})")
            }
            BuildError::Move { line, ply, error } => write!(f, "line {line}, ply {ply}: {error}"),
            BuildError::Empty => f.write_str("the source has no opening lines"),
        }
    }
}

impl std::error::Error for BuildError {}

/// What a build did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BuildStats {
    /// Opening lines read.
    pub lines: usize,
    /// Plies read over all lines.
    pub plies: usize,
    /// Distinct positions (mirror pairs counted once) with a book move.
    pub positions: usize,
    /// Records written.
    pub records: usize,
}

fn is_ecco(code: &str) -> bool {
    let b = code.as_bytes();
    b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit()
}

/// Parses and checks the text source; every move is played from the start
/// position and must be legal.
pub fn parse_lines(text: &str) -> Result<Vec<OpeningLine>, BuildError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = t.split('|').map(str::trim).collect();
        let [moves, weight, ecco, name] = fields[..] else {
            return Err(BuildError::Fields { line });
        };
        let weight = match weight.parse::<u16>() {
            Ok(w) if w > 0 => w,
            _ => return Err(BuildError::Weight { line, text: weight.chars().take(32).collect() }),
        };
        if !is_ecco(ecco) {
            return Err(BuildError::Ecco { line, text: ecco.chars().take(32).collect() });
        }
        if name.is_empty() {
            return Err(BuildError::Name { line });
        }
        let words: Vec<&str> = moves.split_whitespace().collect();
        if !(MIN_PLIES..=MAX_PLIES).contains(&words.len()) {
            return Err(BuildError::Length { line, plies: words.len() });
        }
        let mut pos = Position::startpos();
        let mut mv = Vec::with_capacity(words.len());
        for (ply, w) in words.iter().enumerate() {
            let m = pos.parse_move(w).map_err(|error| BuildError::Move { line, ply: ply + 1, error })?;
            pos.make_move(m);
            mv.push(m);
        }
        lines.push(OpeningLine { line, moves: mv, weight, ecco: ecco.to_string(), name: name.to_string() });
    }
    if lines.is_empty() {
        return Err(BuildError::Empty);
    }
    Ok(lines)
}

/// Builds the book from checked lines: one record per (canonical position,
/// canonical move), weight = sum of the weights of the lines through it
/// (saturating at 65535).
pub fn build_from_lines(lines: &[OpeningLine]) -> (OpeningBook, BuildStats) {
    let mut acc: HashMap<(u64, Move), u32> = HashMap::new();
    let mut stats = BuildStats { lines: lines.len(), ..BuildStats::default() };
    for l in lines {
        let mut pos = Position::startpos();
        for &m in &l.moves {
            let (key, cm) = canonical(&pos, m);
            *acc.entry((key, cm)).or_insert(0) += l.weight as u32;
            pos.make_move(m);
            stats.plies += 1;
        }
    }
    let entries: Vec<BookEntry> =
        acc.into_iter().map(|((key, mv), w)| BookEntry { key, mv, weight: w.min(u16::MAX as u32) as u16 }).collect();
    let book = OpeningBook::from_entries(entries);
    stats.records = book.len();
    stats.positions = {
        let mut keys: Vec<u64> = book.entries().iter().map(|e| e.key).collect();
        keys.dedup();
        keys.len()
    };
    (book, stats)
}

impl OpeningBook {
    /// Parses, checks and builds a book from the text source.
    pub fn build(text: &str) -> Result<(OpeningBook, BuildStats), BuildError> {
        let lines = parse_lines(text)?;
        Ok(build_from_lines(&lines))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::IllegalReason;

    #[test]
    fn rejects_bad_fields() {
        assert_eq!(parse_lines("h2e2 | 5 | C00"), Err(BuildError::Fields { line: 1 }));
        assert_eq!(parse_lines("# c\n\nh2e2 | 0 | C00 | x"), Err(BuildError::Weight { line: 3, text: "0".into() }));
        assert_eq!(parse_lines("h2e2 | 5 | F00 | x"), Err(BuildError::Ecco { line: 1, text: "F00".into() }));
        assert_eq!(parse_lines("h2e2 | 5 | C0 | x"), Err(BuildError::Ecco { line: 1, text: "C0".into() }));
        assert_eq!(parse_lines("h2e2 | 5 | C00 | "), Err(BuildError::Name { line: 1 }));
        assert_eq!(parse_lines(" | 5 | C00 | x"), Err(BuildError::Length { line: 1, plies: 0 }));
        assert_eq!(parse_lines("# only comments\n"), Err(BuildError::Empty));
    }

    #[test]
    fn illegal_move_names_line_and_ply() {
        // Ply 4: the horse on g7 cannot step straight to g6.
        let text = "h2e2 h9g7 h0g2 i9h9 | 3 | C00 | ok\nh2e2 h9g7 h0g2 g7g6 | 3 | C00 | bad";
        match parse_lines(text) {
            Err(BuildError::Move { line: 2, ply: 4, error: MoveError::Illegal(e) }) => {
                assert_eq!(e.reason, IllegalReason::BadPieceMove)
            }
            other => panic!("{other:?}"),
        }
        match parse_lines("h2e2 h9g7 x9 | 3 | C00 | bad") {
            Err(BuildError::Move { line: 1, ply: 3, error: MoveError::Syntax(_) }) => {}
            other => panic!("{other:?}"),
        }
        let msg = parse_lines("h2e2 h2e2 | 3 | C00 | bad").unwrap_err().to_string();
        assert!(msg.starts_with("line 1, ply 2:"), "{msg}");
    }
}
