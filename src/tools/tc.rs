//! Time controls and the referee's clocks (docs/rules.md section 5).
//!
//! Notation (cutechess-cli compatible, extended for multi-period controls):
//! - `T+I`: sudden death, `T` seconds (or `M:SS`) for the game, `I` seconds
//!   added after each move (`+I` optional): `60+0.6`, `1:30`, `inf`.
//! - `M/T[+I]`: `M` moves in `T` seconds, then the same again (repeating
//!   period): `40/90+0`, `30/1:00`.
//! - multi-period: periods joined by `,` (or by `:` when the next part holds a
//!   `/`): `40/5400,10/900` = 90 min for 40 moves then 15 min per 10 moves (the
//!   last period repeats); `40/5400,900` = then 15 min for the rest of the game.
//! - fixed per move: `st=SECONDS`; search limits without a clock: `depth=N`,
//!   `nodes=N` (set through engine arguments, see `args`).
//!
//! The clock is the referee's, not the engine's: the time of a move runs from
//! the moment the `go` line is written to the moment the `bestmove` line is read.
//! This module only counts; it does not measure time or talk to engines
//! (`engine` measures, `game` charges the clock and builds `go` lines).

use std::fmt;

/// One period: `moves` moves (0 = the rest of the game) in `time_ms`, plus
/// `increment_ms` after each move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Period {
    pub(crate) moves: u32,
    pub(crate) time_ms: u64,
    pub(crate) increment_ms: u64,
}

/// How an engine's thinking is limited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TimeControl {
    /// A game clock with one or more periods (the last one repeats when it has a move count).
    Clock(Vec<Period>),
    /// Fixed time per move (`st=`), in ms.
    MoveTime(u64),
}

/// A time control that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TcError {
    pub(crate) text: String,
    pub(crate) why: &'static str,
}

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad time control `{}`: {}", self.text, self.why)
    }
}

impl std::error::Error for TcError {}

/// Parses seconds (`90`, `0.05`) or minutes:seconds (`1:30`) into milliseconds.
pub(crate) fn parse_seconds(text: &str) -> Option<u64> {
    let text = text.trim();
    let secs = if let Some((m, s)) = text.split_once(':') {
        let m: u64 = m.parse().ok()?;
        let s: f64 = s.parse().ok()?;
        if !(0.0..60.0).contains(&s) {
            return None;
        }
        m as f64 * 60.0 + s
    } else {
        let s: f64 = text.parse().ok()?;
        s
    };
    if !secs.is_finite() || !(0.0..=1.0e7).contains(&secs) {
        return None;
    }
    Some((secs * 1000.0).round() as u64)
}

impl TimeControl {
    /// Parses the clock notation of the module doc (`40/90+0`, `60+0.6`,
    /// `40/5400,10/900`). (`inf`, no clock, is the caller's business.)
    pub(crate) fn parse(text: &str) -> Result<TimeControl, TcError> {
        let err = |why| TcError { text: text.chars().take(64).collect(), why };
        let t = text.trim();
        // Split into periods: ',' always; ':' only before a part that holds '/'.
        let mut parts: Vec<String> = Vec::new();
        for chunk in t.split(',') {
            let mut current = String::new();
            for (i, piece) in chunk.split(':').enumerate() {
                if i > 0 && piece.contains('/') {
                    parts.push(std::mem::take(&mut current));
                } else if i > 0 {
                    current.push(':');
                }
                current.push_str(piece);
            }
            parts.push(current);
        }
        let mut periods = Vec::with_capacity(parts.len());
        for (i, part) in parts.iter().enumerate() {
            let (body, inc) = match part.split_once('+') {
                Some((b, i)) => (b, parse_seconds(i).ok_or_else(|| err("bad increment"))?),
                None => (part.as_str(), 0),
            };
            let (moves, time) = match body.split_once('/') {
                Some((m, t)) => {
                    let m: u32 = m.trim().parse().map_err(|_| err("bad move count"))?;
                    if m == 0 {
                        return Err(err("a period needs at least one move"));
                    }
                    (m, t)
                }
                None => (0, body),
            };
            let time_ms = parse_seconds(time).ok_or_else(|| err("bad time (seconds or M:SS)"))?;
            if moves == 0 && i + 1 != parts.len() {
                return Err(err("only the last period may be sudden death"));
            }
            if time_ms == 0 && inc == 0 {
                return Err(err("a period needs time or an increment"));
            }
            periods.push(Period { moves, time_ms, increment_ms: inc });
        }
        if periods.is_empty() {
            return Err(err("empty"));
        }
        Ok(TimeControl::Clock(periods))
    }

    /// The PGN `TimeControl` tag value (PGN standard: `moves/seconds` periods
    /// joined by `:`, `seconds+increment`; `S/move` for a fixed time per move).
    pub(crate) fn pgn_tag(&self) -> String {
        fn secs(ms: u64) -> String {
            if ms.is_multiple_of(1000) {
                (ms / 1000).to_string()
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        }
        match self {
            TimeControl::Clock(periods) => periods
                .iter()
                .map(|p| {
                    let mut s = if p.moves > 0 { format!("{}/{}", p.moves, secs(p.time_ms)) } else { secs(p.time_ms) };
                    if p.increment_ms > 0 {
                        s.push('+');
                        s.push_str(&secs(p.increment_ms));
                    }
                    s
                })
                .collect::<Vec<_>>()
                .join(":"),
            TimeControl::MoveTime(ms) => format!("{}/move", secs(*ms)),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock(_) => f.write_str(&self.pgn_tag()),
            TimeControl::MoveTime(ms) => write!(f, "st={}", *ms as f64 / 1000.0),
        }
    }
}

/// One side's game clock, kept by the referee under a [`TimeControl::Clock`]
/// (the engine's own view of its time in a `go` is [`crate::time::Clock`]).
#[derive(Clone, Debug)]
pub(crate) struct GameClock {
    periods: Vec<Period>,
    /// Index of the current period.
    period: usize,
    /// Time left, in ms (negative after a flag fall).
    remaining_ms: i64,
    /// Moves left in the current period (0 = sudden death).
    moves_left: u32,
}

impl GameClock {
    /// A fresh clock at the start of the first period; `None` for controls without a clock.
    pub(crate) fn new(tc: &TimeControl) -> Option<GameClock> {
        match tc {
            TimeControl::Clock(periods) if !periods.is_empty() => Some(GameClock {
                periods: periods.clone(),
                period: 0,
                remaining_ms: periods[0].time_ms as i64,
                moves_left: periods[0].moves,
            }),
            _ => None,
        }
    }

    /// Time left in ms (never negative in what is reported to engines).
    pub(crate) fn remaining_ms(&self) -> u64 {
        self.remaining_ms.max(0) as u64
    }

    /// Moves until the next time control (`None` in a sudden-death period).
    pub(crate) fn moves_to_go(&self) -> Option<u32> {
        (self.moves_left > 0).then_some(self.moves_left)
    }

    /// Increment of the current period in ms.
    pub(crate) fn increment_ms(&self) -> u64 {
        self.periods[self.period].increment_ms
    }

    /// Charges a move that took `elapsed_ms`; returns false (flag fall) when the
    /// time ran out by more than `margin_ms`. On success adds the increment and,
    /// when the period's moves are done, the next period's time.
    pub(crate) fn charge(&mut self, elapsed_ms: u64, margin_ms: u64) -> bool {
        self.remaining_ms -= elapsed_ms as i64;
        if self.remaining_ms < -(margin_ms as i64) {
            return false;
        }
        self.remaining_ms = self.remaining_ms.max(0);
        self.remaining_ms += self.increment_ms() as i64;
        if self.moves_left > 0 {
            self.moves_left -= 1;
            if self.moves_left == 0 {
                // Next period, or the last one again when it has a move count.
                if self.period + 1 < self.periods.len() {
                    self.period += 1;
                }
                let p = self.periods[self.period];
                self.remaining_ms += p.time_ms as i64;
                self.moves_left = p.moves;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(moves: u32, time_ms: u64, increment_ms: u64) -> Period {
        Period { moves, time_ms, increment_ms }
    }

    #[test]
    fn parses_cutechess_forms() {
        assert_eq!(TimeControl::parse("40/90+0").unwrap(), TimeControl::Clock(vec![p(40, 90_000, 0)]));
        assert_eq!(TimeControl::parse("1+0.01").unwrap(), TimeControl::Clock(vec![p(0, 1000, 10)]));
        assert_eq!(TimeControl::parse("1:30").unwrap(), TimeControl::Clock(vec![p(0, 90_000, 0)]));
        assert_eq!(TimeControl::parse("40/1:30").unwrap(), TimeControl::Clock(vec![p(40, 90_000, 0)]));
    }

    #[test]
    fn parses_multi_period_controls() {
        let want = TimeControl::Clock(vec![p(40, 5_400_000, 0), p(10, 900_000, 0)]);
        assert_eq!(TimeControl::parse("40/5400,10/900").unwrap(), want);
        assert_eq!(TimeControl::parse("40/5400:10/900").unwrap(), want);
        assert_eq!(TimeControl::parse("40/90:00,10/15:00").unwrap(), want);
        assert_eq!(
            TimeControl::parse("40/5400,900+30").unwrap(),
            TimeControl::Clock(vec![p(40, 5_400_000, 0), p(0, 900_000, 30_000)])
        );
        assert_eq!(TimeControl::parse("40/5400,10/900").unwrap().pgn_tag(), "40/5400:10/900");
        assert_eq!(TimeControl::parse("1+0.01").unwrap().pgn_tag(), "1+0.01");
    }

    #[test]
    fn rejects_bad_controls() {
        for bad in ["", "abc", "40/", "0/60", "/60", "60+x", "900,40/5400", "1:75", "0", "-5", "40/0"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_periods_roll_over() {
        let tc = TimeControl::parse("2/10,1/5").unwrap();
        let mut c = GameClock::new(&tc).unwrap();
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (10_000, Some(2)));
        assert!(c.charge(3000, 0));
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (7000, Some(1)));
        assert!(c.charge(2000, 0));
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (10_000, Some(1)));
        assert!(c.charge(1000, 0));
        // The last period repeats.
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (14_000, Some(1)));
        assert!(!c.charge(14_001, 0));
    }

    #[test]
    fn increment_and_margin() {
        let mut c = GameClock::new(&TimeControl::parse("1+0.01").unwrap()).unwrap();
        assert_eq!(c.moves_to_go(), None);
        assert!(c.charge(500, 0));
        assert_eq!(c.remaining_ms(), 510);
        assert!(c.charge(520, 20));
        assert_eq!(c.remaining_ms(), 10);
        assert!(!c.charge(31, 20));
        assert!(GameClock::new(&TimeControl::MoveTime(50)).is_none());
    }
}
