//! Xiangqi FEN: parsing into an unvalidated [`Setup`] and printing.
//!
//! Input is lenient where GUIs differ (the `e`/`h` aliases for elephant and
//! horse, `r` for Red, missing trailing fields); output is always canonical:
//! `<board> <w|b> - - <halfmove> <fullmove>`. Whether a setup is a legal
//! position is decided by [`crate::position::Position::from_setup`].

use std::fmt;

use crate::board::{Color, Piece, Square};

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A parsed but not yet validated position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces by point index (`Square::point_index`, a0 = 0 .. i9 = 89).
    pub board: [Option<Piece>; 90],
    /// Side to move.
    pub side: Color,
    /// Plies since the last capture (natural move limit counter).
    pub halfmove: u32,
    /// Move number, starting at 1.
    pub fullmove: u32,
}

/// Why a FEN could not be read. Ranks are named as in ICCS (9 = Black's back
/// rank, the first in the FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The board field does not have ten ranks.
    RankCount { found: usize },
    /// A rank does not describe exactly nine files.
    RankWidth { rank: u8, files: usize },
    /// A character that is neither a piece letter nor a digit 1-9.
    UnknownLetter { rank: u8, letter: char },
    /// The side field is not `w`, `r` or `b`.
    BadSide { found: String },
    /// A counter field is not a number in range.
    BadCounter { field: &'static str, found: String },
    /// Text after the six fields.
    TrailingText { found: String },
    /// The board is readable but not a legal position.
    Position(crate::position::PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::RankCount { found } => write!(f, "FEN board has {found} ranks, expected 10"),
            FenError::RankWidth { rank, files } => {
                write!(f, "FEN rank {rank} describes {files} files, expected 9")
            }
            FenError::UnknownLetter { rank, letter } => {
                write!(f, "FEN rank {rank}: unknown piece letter '{}'", letter.escape_debug())
            }
            FenError::BadSide { found } => write!(f, "FEN side to move '{found}' is not w, r or b"),
            FenError::BadCounter { field, found } => write!(f, "FEN {field} '{found}' is not a valid number"),
            FenError::TrailingText { found } => write!(f, "unexpected text after FEN: '{found}'"),
            FenError::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<crate::position::PositionError> for FenError {
    fn from(e: crate::position::PositionError) -> Self {
        FenError::Position(e)
    }
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

impl Setup {
    /// An empty board, Red to move.
    pub fn empty() -> Setup {
        Setup { board: [None; 90], side: Color::Red, halfmove: 0, fullmove: 1 }
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.point_index()]
    }

    /// Parses FEN text (fields separated by any whitespace).
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_whitespace();
        let board_field = fields.next().ok_or(FenError::Empty)?;
        let mut setup = Setup::empty();
        let ranks: Vec<&str> = board_field.split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::RankCount { found: ranks.len() });
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = 9 - i as u8;
            let mut file: usize = 0;
            for c in text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 {
                        return Err(FenError::UnknownLetter { rank, letter: c });
                    }
                    file += d as usize;
                } else if let Some(p) = Piece::from_letter(c) {
                    if file < 9 {
                        setup.board[rank as usize * 9 + file] = Some(p);
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownLetter { rank, letter: c });
                }
                if file > 9 {
                    return Err(FenError::RankWidth { rank, files: file });
                }
            }
            if file != 9 {
                return Err(FenError::RankWidth { rank, files: file });
            }
        }
        if let Some(side) = fields.next() {
            setup.side = match side {
                "w" | "W" | "r" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                other => return Err(FenError::BadSide { found: clip(other) }),
            };
        }
        // Fields 3 and 4 (castling and en passant in chess) carry nothing in xiangqi.
        let _ = fields.next();
        let _ = fields.next();
        if let Some(h) = fields.next() {
            setup.halfmove = h
                .parse::<u32>()
                .ok()
                .filter(|&v| v <= 10_000)
                .ok_or_else(|| FenError::BadCounter { field: "half-move counter", found: clip(h) })?;
        }
        if let Some(fm) = fields.next() {
            setup.fullmove = fm
                .parse::<u32>()
                .ok()
                .filter(|&v| v <= 100_000)
                .ok_or_else(|| FenError::BadCounter { field: "move number", found: clip(fm) })?
                .max(1);
        }
        if let Some(extra) = fields.next() {
            return Err(FenError::TrailingText { found: clip(extra) });
        }
        Ok(setup)
    }

    /// The canonical FEN of this setup.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match self.board[rank as usize * 9 + file as usize] {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!("{s} {side} - - {} {}", self.halfmove, self.fullmove)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let s = Setup::parse(START_FEN).unwrap();
        assert_eq!(s.to_fen(), START_FEN);
        let short = Setup::parse("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
        assert_eq!(short.to_fen(), START_FEN);
        assert_eq!(Setup::parse(""), Err(FenError::Empty));
        assert_eq!(Setup::parse("9/9"), Err(FenError::RankCount { found: 2 }));
        assert!(matches!(
            Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w"),
            Err(FenError::RankWidth { rank: 0, files: 8 })
        ));
        assert!(matches!(
            Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w"),
            Err(FenError::RankWidth { rank: 0, .. })
        ));
        assert!(matches!(
            Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1X1P1P/1C5C1/9/RNBAKABNR w"),
            Err(FenError::UnknownLetter { rank: 3, letter: 'X' })
        ));
        assert!(matches!(Setup::parse(&START_FEN.replace(" w ", " x ")), Err(FenError::BadSide { .. })));
        assert!(matches!(Setup::parse(&START_FEN.replace(" 0 1", " z 1")), Err(FenError::BadCounter { .. })));
        assert!(matches!(Setup::parse(&format!("{START_FEN} extra")), Err(FenError::TrailingText { .. })));
        assert!(Setup::parse("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKAB0R w").is_err());
    }
}
