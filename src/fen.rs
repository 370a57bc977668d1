//! Xiangqi FEN: parsing into an unvalidated [`Setup`] and printing.
//!
//! Input is lenient where GUIs differ (the `e`/`h` aliases for elephant and
//! horse, `r` for Red, missing trailing fields); output is always canonical:
//! `<board> <w|b> - - <halfmove> <fullmove>`. Whether a setup is a legal
//! position is decided by [`crate::position::Position::from_setup`].
//!
//! Also home to named positions: [`START_FEN`] and [`BENCH_FENS`].

use std::fmt;

use crate::board::{Color, Piece, Square};

/// The start position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Fixed test positions: the ones `chuhan bench` searches (see
/// [`crate::bench`]: the start position, opening and middlegame positions,
/// mate puzzles and composed endgames), also the starting points of the
/// tests' random games. Changing the list changes the bench signature.
pub const BENCH_FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "r1bakabr1/n8/6n2/p1p1p1p1p/1c7/2C6/P1P1P1PcP/2N1C1N2/R8/2BAKABR1 w - - 14 8",
    "r1b1ka3/4a4/2n1b1n2/pR1Cp1p1p/2p4c1/6P2/P1P1P3P/2N1B4/4A4/2BAK2N1 w - - 9 18",
    "3nka3/4a2c1/N5n2/4p3p/2b3b2/5N3/3CP3P/4B4/4A4/2BAK4 w - - 5 31",
    "rnbak1bn1/4a4/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C4N2/9/RNBAKAB2 w - - 1 6",
    "r1bak1bn1/4a4/1c2c4/p3nC2p/2p3p2/2P6/P3P1P1P/1C2B1N2/3N5/R2AKAB2 w - - 9 10",
    "1r1ak1b2/4a4/4b1n2/3P4p/p5p2/3ccn3/P3C1P1P/C3B1N2/3NA4/2RAK1B2 w - - 9 21",
    "1c2k1b2/4a4/4b1n2/4n3p/3NR1p2/3rc3P/P3C1P2/2C1B1N2/4A4/3AK1B2 w - - 8 31",
    "rn2kab1r/4a4/1c2b4/2p1n4/p5pcp/2P6/PC2P1P1P/4C1N1B/9/R1BAKA2R w - - 0 9",
    "r3kabr1/4a4/1c2b4/2p1n4/p5pcp/2P1C4/PC2P1P1P/6N1B/9/R1BAKA1R1 w - - 5 12",
    "4kab2/4a4/c3b4/4n4/p1r5p/PCC3R1P/4P2r1/8B/4A2cN/R1BAK4 w - - 5 24",
    "4kab2/4a4/4b4/9/p2r5/c2nP1RC1/9/B2R4B/4A2rN/3AK4 w - - 0 31",
    "rnbakab1r/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1C2B1NC1/9/RN1AKAB1R w - - 4 3",
    "r1bak3r/4a4/1c2b1n2/1C3R1C1/pnpcp1p1p/1R7/P1P1P1P1P/2N1B1N2/4A4/4KAB2 w - - 26 14",
    "r1bak3r/1c2a4/3cb1n2/1C3R1C1/p1p1p3p/3R3N1/P1n1P3P/2N1B4/4A4/4KAB2 w - - 2 18",
    "2bak3r/4c4/br1a5/2RCP4/p1p5p/3R5/P1n5P/2N1B4/4A4/4KAB2 w - - 7 31",
    "r1bakab1r/9/1cn5n/p3p1p1p/2p6/1C4c2/P1P1P3P/4C1N2/9/RNBAKABR1 w - - 0 6",
    "r1bakab1r/9/2n5n/p3p1p1p/2p6/c4Nc2/P1P1P3P/4C4/9/RNBAKABR1 w - - 0 8",
    "4kab2/4a4/4b1n2/p1RC4p/6p2/P7P/2P1P4/4B1c2/9/1r1AKAB2 w - - 3 21",
    "1r2kab2/4a4/4b4/p8/2R1C4/P1P3p1P/4n1c2/4B4/4A4/3AK1B2 w - - 10 31",
    "rnbaka3/5n3/4bcc2/p1p1p1p1p/9/2P4R1/P3P1P1P/2NC2N2/9/1RBAKAB2 w - - 10 9",
    "rnbaka3/9/3nbcc2/p1p1p1p1p/9/2P3PR1/P3P3P/2NC2N2/9/1RBAKAB2 w - - 12 10",
    "r2k1a3/2Rnan3/4C4/8p/p3pc3/2p6/P3P1R1P/2N1B4/9/3AKAB2 w - - 4 24",
    "r2k1a3/2Rna4/4C2n1/9/4pR3/P2N4p/4P3P/4B4/9/3AKAB2 w - - 3 31",
    "r1bakabnr/9/1cn4c1/p1p1p3p/6p2/6P2/P1P1P3P/1C4NC1/9/RNBAKAB1R w - - 4 3",
    "2bakar2/3r1n3/2n1b2c1/p3p3p/1cp2P3/7C1/P1P1P3P/2N1NC3/4A4/1RBAK1B1R w - - 17 12",
    "2bnk4/9/2n1b2c1/p3p1r1p/1cp6/3r5/P1P1P3P/2N1NC3/4A4/1RBAK1BR1 w - - 0 18",
    "3n1kb2/7R1/2n1b4/4pr3/p1p3r1p/9/P1P5P/2N1N4/1R2A4/2B1KA3 w - - 5 31",
    "rn1akab2/8r/bc2c1n2/p1p1p2Rp/6p2/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB2 w - - 10 6",
    "4ka3/r2na4/bc2c1n1b/p1p1p4/6R1p/2PN5/P3P1P1P/3C2N2/4Cr3/R1BAKAB2 w - - 9 14",
    "4ka3/r2na4/b1c1b1n2/p3p4/2p1P1P1R/2P6/P7P/3CN1N2/3cCr3/1RBAKAB2 w - - 13 21",
    "4ka3/4a4/b2cb1n1R/p8/2r1p1P2/4r4/P7P/2N1B4/4C4/R2AKAB2 w - - 5 31",
    "1rbakab1r/9/2n1c1n2/p1p1p3p/7c1/2P2Np1P/P3P4/1CN4C1/9/R1BAKAB1R w - - 4 8",
    "1rbakab1r/9/2n1c4/p1p1p3p/3N1n1c1/2P3p1P/P3P4/1CN4C1/9/R1BAKAB1R w - - 6 9",
    "2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1",
    "2bakab2/9/1r4n2/4p1p1p/1n7/R6R1/P1P1c1P1P/C1c1B4/2C1N4/2BAKA3 b - - 0 1",
    "5aC2/3k5/3a1P3/4c4/2b1N1n1p/9/P8/B8/4A4/3A1K3 w - - 0 1",
    "2ba1a3/2R1r4/3k5/p1N6/6b2/9/9/4B4/4A4/4KAB2 w - - 0 1",
    "9/2R1ak3/5a3/4Rn3/9/6P2/p4C2P/9/2Nrc4/1r1AK1B2 w - - 0 1",
    "3k1ab2/2r1a1N2/1R2b1C2/p5R1p/9/4p4/P2p2P1P/4r4/N3A4/4KAB1c w - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
    "3ak4/4a4/9/9/9/2P6/9/9/4N4/4K4 w - - 0 1",
    "2bk5/9/4b4/9/9/9/9/4C4/4A4/3AK4 w - - 0 1",
    "3ak4/4a4/5n3/9/9/9/9/9/9/3RK4 w - - 0 1",
    "4k4/9/9/9/2p1p4/9/4P4/9/9/3K5 w - - 0 1",
    "4k4/9/4P4/9/9/9/9/9/9/3K1n3 b - - 0 1",
    "3ak4/4a4/9/9/9/9/2N6/9/4r4/3K1R3 w - - 0 1",
];

/// A parsed but not yet validated position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces by point index (`Square::point_index`, a0 = 0 .. i9 = 89).
    pub(crate) board: [Option<Piece>; 90],
    /// Side to move.
    pub(crate) side: Color,
    /// Plies since the last capture (natural move limit counter).
    pub(crate) halfmove: u32,
    /// Move number, starting at 1.
    pub(crate) fullmove: u32,
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
    pub(crate) fn empty() -> Setup {
        Setup { board: [None; 90], side: Color::Red, halfmove: 0, fullmove: 1 }
    }

    /// The piece on `sq`.
    pub(crate) fn piece_at(&self, sq: Square) -> Option<Piece> {
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
    pub(crate) fn to_fen(&self) -> String {
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
