//! The training record: one line per position, fields separated by `;`:
//!
//! ```text
//! <FEN>;<score>;<best move>;<result>;<flags>;<game>
//! rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3;18;b0c2;0.5;-;17
//! ```
//!
//! - `score`: the search score in centipawn-like units **from Red's point of
//!   view** (positive: good for Red), mates as `±(30000 − plies)`;
//! - `best move`: the move the search chose (ICCS), which the game then played;
//! - `result`: the game's result **for Red**: `1`, `0.5` or `0`;
//! - `flags`: `-` or any of `c` (the side to move is in check), `x` (the best
//!   move captures), `m` (the score is a mate score);
//! - `game`: the index of the game the position comes from.

use std::fmt;

use crate::moves::Move;
use crate::position::Position;

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub(crate) fen: String,
    /// Search score, Red's view.
    pub(crate) score: i32,
    pub best: Move,
    /// Red's points: 1, 0.5 or 0.
    pub result: f32,
    pub(crate) in_check: bool,
    pub(crate) capture: bool,
    pub(crate) mate: bool,
    pub game: u64,
}

impl Record {
    /// Whether any flag is set (the tuner's default skips such positions).
    pub(crate) fn is_noisy(&self) -> bool {
        self.in_check || self.capture || self.mate
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut flags = String::new();
        for (on, c) in [(self.in_check, 'c'), (self.capture, 'x'), (self.mate, 'm')] {
            if on {
                flags.push(c);
            }
        }
        if flags.is_empty() {
            flags.push('-');
        }
        let result = if self.result == 1.0 {
            "1"
        } else if self.result == 0.0 {
            "0"
        } else {
            "0.5"
        };
        write!(f, "{};{};{};{};{};{}", self.fen, self.score, self.best, result, flags, self.game)
    }
}

/// Why a line is not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError(pub String);

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// Parses one line (without its newline). The FEN is checked by
    /// parsing it into a position, and the move for legality there.
    pub fn parse(line: &str) -> Result<(Record, Position), RecordError> {
        let err = |what: &str| RecordError(what.to_string());
        let fields: Vec<&str> = line.split(';').collect();
        if fields.len() != 6 {
            return Err(RecordError(format!("{} fields, expected 6", fields.len())));
        }
        let pos = Position::from_fen(fields[0]).map_err(|e| RecordError(format!("bad FEN: {e}")))?;
        let score: i32 = fields[1].parse().map_err(|_| err("bad score"))?;
        let best = pos.parse_move(fields[2]).map_err(|e| RecordError(format!("bad move: {e}")))?;
        let result = match fields[3] {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            _ => return Err(err("bad result (1, 0.5 or 0)")),
        };
        let flags = fields[4];
        if flags != "-" && (flags.is_empty() || flags.chars().any(|c| !"cxm".contains(c))) {
            return Err(err("bad flags (- or letters of cxm)"));
        }
        let game: u64 = fields[5].parse().map_err(|_| err("bad game index"))?;
        let record = Record {
            fen: fields[0].to_string(),
            score,
            best,
            result,
            in_check: flags.contains('c'),
            capture: flags.contains('x'),
            mate: flags.contains('m'),
            game,
        };
        Ok((record, pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let line = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;18;h2e2;0.5;-;17";
        let (r, pos) = Record::parse(line).unwrap();
        assert_eq!(r.to_string(), line);
        assert_eq!(pos.to_fen(), r.fen);
        assert!(!r.is_noisy());
        let r2 = Record { in_check: true, mate: true, result: 0.0, score: -29995, ..r };
        let text = r2.to_string();
        assert!(text.ends_with(";-29995;h2e2;0;cm;17"), "{text}");
        assert_eq!(Record::parse(&text).unwrap().0, r2);
        for bad in [
            "",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;18;h2e2;0.5;-",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;18;h2h8;0.5;-;1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;x;h2e2;0.5;-;1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;1;h2e2;2;-;1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1;1;h2e2;1;q;1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9 w - - 0 1;1;h2e2;1;-;1",
        ] {
            assert!(Record::parse(bad).is_err(), "{bad}");
        }
    }
}
