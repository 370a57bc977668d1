//! Moves as 16-bit words (`from | to << 8` on the padded board), move lists,
//! and ICCS move text (`h2e2`).
//!
//! Parsing is the syntax step only ([`MoveParseError`]); whether a move is legal
//! in a position is decided by [`crate::position::Position::resolve_move`]
//! ([`crate::position::IllegalMove`]).

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;

use crate::board::Square;

/// The largest number of legal moves a xiangqi position can have is below
/// 120 (2x17 chariot + 2x17 cannon + 2x8 horse + 5x3 soldier + 4 + 8 + 8 = 119).
pub const MAX_MOVES: usize = 128;

/// A move: origin and destination squares. `Move::NULL` (0) is no move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u16);

/// A fixed-capacity list of moves.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

impl Move {
    /// No move (also the null move).
    pub const NULL: Move = Move(0);

    /// The move from `from` to `to`.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 8)
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square(self.0 as u8)
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 8) as u8)
    }

    /// Whether this is a real move (not [`Move::NULL`]).
    #[inline]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// The left-right mirror image.
    pub const fn mirror(self) -> Move {
        Move::new(self.from().mirror(), self.to().mirror())
    }

    /// Parses ICCS text (`h2e2`; case-insensitive, also `h2-e2`) into a move
    /// between two points. Checks syntax only.
    pub fn from_iccs(text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        let bytes = t.as_bytes();
        if !t.is_ascii() {
            return Err(MoveParseError { text: t.chars().take(32).collect() });
        }
        let (a, b) = match bytes.len() {
            4 => (&t[0..2], &t[2..4]),
            5 if bytes[2] == b'-' => (&t[0..2], &t[3..5]),
            _ => return Err(MoveParseError { text: t.chars().take(32).collect() }),
        };
        match (Square::parse(a), Square::parse(b)) {
            (Some(from), Some(to)) if from != to => Ok(Move::new(from, to)),
            _ => Err(MoveParseError { text: t.chars().take(32).collect() }),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_some() {
            write!(f, "{}{}", self.from(), self.to())
        } else {
            f.write_str("0000")
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        Move::from_iccs(s)
    }
}

/// Move text that is not ICCS (`[a-i][0-9][a-i][0-9]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParseError {
    /// The offending text (at most 32 characters of it).
    pub text: String,
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not an ICCS move (expected e.g. h2e2)", self.text)
    }
}

impl std::error::Error for MoveParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_round_trip() {
        let m = Move::from_iccs("h2e2").unwrap();
        assert_eq!(m.from(), Square::new(7, 2));
        assert_eq!(m.to(), Square::new(4, 2));
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(Move::from_iccs("H2-E2").unwrap(), m);
        assert_eq!(m.mirror().to_string(), "b2e2");
        for bad in ["", "h2", "h2e", "h2e2x", "j2e2", "h2e:", "h2h2", "ｈ2e2", "h2\u{e9}", "h\u{20ac}"] {
            assert!(Move::from_iccs(bad).is_err(), "{bad}");
        }
        assert_eq!(Move::NULL.to_string(), "0000");
    }
}
