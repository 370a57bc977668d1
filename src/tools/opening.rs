//! Opening suites for matches: EPD files (one position per line: FEN fields,
//! then optional EPD operations, which are ignored) and PGN files (each game's
//! `FEN` tag and its ICCS moves, optionally cut to `plies`). Every position and
//! move is validated with our own [`Position`] when loaded.
//!
//! Without `-openings`, the match uses the book's opening suite
//! (`book/suite.epd`, embedded in the binary so it works from any directory);
//! `-openings startpos` plays every game from the start position.
//! Which game gets which opening is the tournament's business, not this module's.

use std::fmt;
use std::path::PathBuf;

use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::files::{self, FileError};
use crate::position::Position;

use super::game::Opening;
use super::pgn;
use super::MatchRng;

/// The default suite: `book/suite.epd`, embedded at build time.
pub(crate) const DEFAULT_SUITE: &str = include_str!("../../book/suite.epd");

/// File formats for `-openings format=`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    Epd,
    Pgn,
}

/// `order=`: the file's order, or shuffled with the match seed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningOrder {
    Sequential,
    Random,
}

/// `-openings file=F format=epd|pgn order=random|sequential plies=N start=N`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSpec {
    pub file: PathBuf,
    pub format: OpeningFormat,
    pub order: OpeningOrder,
    /// Keep at most this many plies of each PGN game.
    pub plies: Option<usize>,
    /// Index (1-based, as cutechess) of the first opening used.
    pub start: usize,
}

/// An opening file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The file could not be read (missing, not a regular file, too large, not UTF-8).
    File(FileError),
    BadPosition {
        file: String,
        line: usize,
        error: String,
    },
    BadMove {
        file: String,
        game: usize,
        token: String,
    },
    Empty {
        file: String,
    },
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::File(FileError::Io { path, message }) => write!(f, "cannot read openings {path}: {message}"),
            OpeningError::File(e) => write!(f, "openings: {e}"),
            OpeningError::BadPosition { file, line, error } => write!(f, "{file}:{line}: bad position: {error}"),
            OpeningError::BadMove { file, game, token } => {
                write!(f, "{file}: game {game}: `{token}` is not a legal move (ICCS, Chinese or WXF)")
            }
            OpeningError::Empty { file } => write!(f, "{file} holds no openings"),
        }
    }
}

impl std::error::Error for OpeningError {}

/// The FEN part of an EPD line (board, side, and the counters when present).
fn epd_fen(line: &str) -> String {
    let tokens: Vec<&str> = line.split(';').next().unwrap_or("").split_whitespace().collect();
    let mut fen: Vec<&str> = tokens.iter().take(2).copied().collect();
    let mut i = 2;
    while i < tokens.len() && i < 4 && tokens[i] == "-" {
        fen.push(tokens[i]);
        i += 1;
    }
    if i == 4 {
        while i < tokens.len() && i < 6 && tokens[i].bytes().all(|b| b.is_ascii_digit()) {
            fen.push(tokens[i]);
            i += 1;
        }
    }
    fen.join(" ")
}

/// The label of an EPD line: its `id "..."` operation, or a first operation
/// that starts with an ECCO code (`A00`..`E99`), as in `book/suite.epd`
/// (`<FEN> ; A00 中兵局 ; score -42`).
fn epd_name(line: &str) -> Option<String> {
    let mut ops = line.split(';').map(str::trim);
    let first_fields = ops.next().unwrap_or("");
    // EPD puts the first operation after the FEN fields, before any ';'.
    let fen_fields = epd_fen(line).split_whitespace().count();
    let inline_op = first_fields.split_whitespace().skip(fen_fields).collect::<Vec<_>>().join(" ");
    let ops: Vec<String> = std::iter::once(inline_op).chain(ops.map(String::from)).filter(|o| !o.is_empty()).collect();
    if let Some(id) = ops.iter().find_map(|o| o.strip_prefix("id ")) {
        return Some(id.trim().trim_matches('"').to_string());
    }
    let first = ops.first()?;
    let b = first.as_bytes();
    let is_ecco = b.len() >= 3 && (b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit();
    (is_ecco && (b.len() == 3 || b[3] == b' ')).then(|| first.clone())
}

/// Reads EPD text.
pub fn parse_epd(text: &str, file: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = epd_fen(line);
        let pos = Position::from_fen(&fen).map_err(|e| OpeningError::BadPosition {
            file: file.to_string(),
            line: n + 1,
            error: e.to_string(),
        })?;
        out.push(Opening { fen: Some(pos.to_fen()), moves: Vec::new(), name: epd_name(line) });
    }
    Ok(out)
}

/// Reads PGN text, keeping at most `plies` moves per game.
pub(crate) fn parse_pgn(text: &str, file: &str, plies: Option<usize>) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (g, mut game) in pgn::parse_games(text).into_iter().enumerate() {
        if let Some(p) = plies {
            game.moves.truncate(p);
        }
        let bad_fen = |e: String| OpeningError::BadPosition { file: file.to_string(), line: 0, error: e };
        if let Some(f) = &game.fen {
            Position::from_fen(f).map_err(|e| bad_fen(format!("game {}: {e}", g + 1)))?;
        }
        let Some((moves, bad)) = pgn::legal_prefix(&game) else {
            return Err(bad_fen(format!("game {}", g + 1)));
        };
        if let Some(i) = bad {
            return Err(OpeningError::BadMove { file: file.to_string(), game: g + 1, token: game.moves[i].clone() });
        }
        out.push(Opening { fen: game.fen.clone(), moves, name: None });
    }
    Ok(out)
}

/// Loads, orders and rotates the suite.
pub fn load(spec: &OpeningSpec, seed: u64) -> Result<Vec<Opening>, OpeningError> {
    let name = spec.file.display().to_string();
    let text = files::read_text(&spec.file).map_err(OpeningError::File)?;
    let mut list = match spec.format {
        OpeningFormat::Epd => parse_epd(&text, &name)?,
        OpeningFormat::Pgn => parse_pgn(&text, &name, spec.plies)?,
    };
    if list.is_empty() {
        return Err(OpeningError::Empty { file: name });
    }
    if spec.order == OpeningOrder::Random {
        list.shuffle(&mut MatchRng::seed_from_u64(seed));
    }
    let start = spec.start.saturating_sub(1) % list.len();
    list.rotate_left(start);
    Ok(list)
}

/// The default suite: the embedded `book/suite.epd` (sequential).
pub fn default_suite() -> Result<Vec<Opening>, OpeningError> {
    parse_epd(DEFAULT_SUITE, "book/suite.epd (embedded)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreadable_suites_are_refused_without_blocking() {
        let spec = |file: &str, format| OpeningSpec {
            file: PathBuf::from(file),
            format,
            order: OpeningOrder::Sequential,
            plies: None,
            start: 1,
        };
        let start = std::time::Instant::now();
        let e = load(&spec("/dev/zero", OpeningFormat::Epd), 1).unwrap_err();
        assert_eq!(e.to_string(), "openings: /dev/zero is not a regular file (it is a character device)");
        let scratch = crate::test_support::scratch_dir("openings-fifo");
        let dir = scratch.path();
        let fifo = dir.join("suite.pgn");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        let e = load(&spec(fifo.to_str().unwrap(), OpeningFormat::Pgn), 1).unwrap_err();
        assert!(matches!(e, OpeningError::File(FileError::NotRegular { kind: "a FIFO", .. })), "{e:?}");
        let e = load(&spec(dir.to_str().unwrap(), OpeningFormat::Epd), 1).unwrap_err();
        assert!(e.to_string().ends_with("is not a regular file (it is a directory)"), "{e}");
        let e = load(&spec("/nonexistent/suite.epd", OpeningFormat::Epd), 1).unwrap_err();
        assert!(e.to_string().starts_with("cannot read openings /nonexistent/suite.epd: "), "{e}");
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn embedded_suite_loads() {
        let suite = default_suite().unwrap();
        assert!(suite.len() >= 500, "{}", suite.len());
    }

    #[test]
    fn epd_lines() {
        let text = "# comment\n\
            2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - bm e7e8; dm 1; id \"x\";\n\
            \n\
            rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n";
        let list = parse_epd(text, "t").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].fen.as_deref(), Some("2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1"));
        assert_eq!(
            list[1].fen.as_deref(),
            Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1")
        );
        assert_eq!(list[0].name.as_deref(), Some("x"));
        assert_eq!(list[1].name, None);
        let suite =
            "rnbakabr1/9/1c2c1n2/p1p1p1p1p/9/4P1P2/P1P5P/1C4NC1/9/RNBAKAB1R w - - 6 4 ; A00 中兵局 ; score -42\n";
        let list = parse_epd(suite, "t").unwrap();
        assert_eq!(list[0].name.as_deref(), Some("A00 中兵局"));
        assert!(list[0].fen.as_deref().is_some_and(|f| f.ends_with(" w - - 6 4")));
        let err = parse_epd("9/9 w - -\n", "t").unwrap_err();
        assert!(matches!(err, OpeningError::BadPosition { line: 1, .. }), "{err}");
    }

    #[test]
    fn pgn_openings_are_checked_and_cut() {
        let text = "[Event \"a\"]\n\n1. h2e2 h9g7 2. h0g2 *\n\n[Event \"b\"]\n\n1. b2e2 b9c7 *\n";
        let list = parse_pgn(text, "t", Some(2)).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].moves.len(), 2);
        let err = parse_pgn("1. h2e2 h9h1 *\n", "t", None).unwrap_err();
        assert!(matches!(err, OpeningError::BadMove { ref token, .. } if token == "h9h1"), "{err}");
    }

    #[test]
    fn random_order_is_a_seeded_permutation() {
        let scratch = crate::test_support::scratch_dir("openings");
        let file = scratch.path().join("o.pgn");
        let games: String = ["h2e2", "b2e2", "h0g2", "b0c2", "g3g4", "c3c4"]
            .iter()
            .map(|m| format!("[Event \"x\"]\n\n1. {m} *\n\n"))
            .collect();
        std::fs::write(&file, games).unwrap();
        let spec = |order| OpeningSpec { file: file.clone(), format: OpeningFormat::Pgn, order, plies: None, start: 1 };
        let seq = load(&spec(OpeningOrder::Sequential), 1).unwrap();
        let a = load(&spec(OpeningOrder::Random), 7).unwrap();
        let b = load(&spec(OpeningOrder::Random), 7).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, seq);
        let mut sa: Vec<_> = a.iter().map(|o| o.moves[0]).collect();
        let mut ss: Vec<_> = seq.iter().map(|o| o.moves[0]).collect();
        sa.sort();
        ss.sort();
        assert_eq!(sa, ss);
    }
}
