//! Search limits and time management: what the caller asks for
//! ([`SearchLimits`], [`Clock`]) and how much of the clock one move may use
//! ([`TimeManager`]: a soft limit checked between iterations, scaled by
//! best-move stability, score drops (between iterations; in a `tune` build
//! with `TM_PREV_MOVE` 1 also since this side's previous move) and the best
//! move's share of the root's nodes, and a hard limit polled inside the
//! search). A forced move (one root move) on the clock ends the search after
//! a few iterations (the search module decides that, with
//! [`TimeManager::on_clock`]).
//!
//! Sudden death spends most in the early moves: each move plans with a share
//! of the clock plus the increments of the next 49 moves, a share that grows
//! slowly with the move number. Against an even 1/32 of the clock, which kept
//! half of a 10 s + 0.1 s clock unused past move 30, this gained +55 ± 27
//! Elo in self-play at 5 s + 0.05 s (255 games). Cutting the soft budget to
//! 0.76 when the best move took at least 93 % of the root's nodes gained
//! +21.8 ± 16.5 at 2 s + 0.02 s (686 games, SPRT [0, 10] accepted).
//!
//! Multi-period controls (docs/rules.md section 5: "T minutes for the first M moves,
//! then T2 per M2") reach us as `movestogo` = moves left in the current period;
//! sudden death has no `movestogo`; Fischer controls add an increment.
//! This module never reads the clock of the opponent and never prints.

use std::time::{Duration, Instant};

/// Our clock: time left, increment per move, moves to the next time control.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    /// Time left on our clock.
    pub time: Duration,
    /// Increment added after each of our moves.
    pub increment: Duration,
    /// Moves left until the next time control (`None`: sudden death).
    pub movestogo: Option<u32>,
}

/// What limits a search. With nothing set the search runs to the maximum depth.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// UCI `go mate N`: stop when a mate in at most N moves is proven.
    pub mate: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Pondering: no time limit until ponderhit.
    pub ponder: bool,
    /// Our clock (time left, increment, moves to go).
    pub clock: Option<Clock>,
}

impl SearchLimits {
    /// Limits of a fixed-depth search.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits { depth: Some(depth), ..SearchLimits::default() }
    }

    /// Limits of a fixed-time search.
    pub fn movetime(t: Duration) -> SearchLimits {
        SearchLimits { movetime: Some(t), ..SearchLimits::default() }
    }
}

/// Moves whose increments a sudden-death game plans with: the clock plus
/// that many increments is the pool one move's share is taken from.
const SUDDEN_DEATH_HORIZON: u32 = 50;
/// Share of the pool (sudden death) a move in the opening is planned to use.
const OPENING_SHARE: f64 = 0.030;
/// Growth of that share with the square root of the move number: fewer moves
/// are left to save for, so each move takes more of what is left.
const SHARE_GROWTH: f64 = 0.007;
/// Sudden death: never plan more than this fraction of the clock itself for
/// one move (the pool counts increments not yet received).
const MAX_SUDDEN_SHARE: f64 = 0.2;
/// Most moves the budget is spread over when `movestogo` is large.
const MAX_HORIZON: u32 = 40;
/// The hard limit is at most this many soft budgets.
const HARD_OVER_SOFT: u32 = 5;
/// Never plan to use more than this fraction (per mille) of the clock on one move.
const MAX_CLOCK_SHARE: u32 = 700;
/// Floor of any budget, so that a search always completes depth 1.
const MIN_BUDGET: Duration = Duration::from_millis(5);

/// A best move that took at least this share of the root's nodes ...
const BEST_SHARE_HIGH: f64 = 0.93;
/// ... leaves this share of the soft budget.
const BEST_SHARE_HIGH_FACTOR: f64 = 0.76;

/// Time budget of one search: the soft limit (do not start another
/// iteration past it, once scaled) and the hard limit (abort the search).
#[derive(Clone, Debug)]
pub(crate) struct TimeManager {
    start: Instant,
    /// Target time for the move.
    pub(crate) soft: Duration,
    /// Absolute limit (polled inside the search).
    pub(crate) hard: Duration,
    /// Whether any time limit applies (false: infinite, depth, nodes, or pondering before ponderhit).
    pub(crate) enabled: bool,
    /// Fixed move time: use all of it (no soft stop between iterations).
    pub(crate) fixed: bool,
}

impl TimeManager {
    /// The budget for `limits`, minus `move_overhead` (communication lag);
    /// `move_number` is the game's move number (as in FEN) at the root.
    pub(crate) fn new(limits: &SearchLimits, move_overhead: Duration, move_number: u32) -> TimeManager {
        let start = Instant::now();
        let off = TimeManager { start, soft: Duration::MAX, hard: Duration::MAX, enabled: false, fixed: false };
        if limits.infinite {
            return off;
        }
        let (soft, hard) = if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(move_overhead).max(MIN_BUDGET);
            (t, t)
        } else if let Some(c) = &limits.clock {
            Self::clock_budget(c, move_overhead, move_number)
        } else {
            return off;
        };
        TimeManager { start, soft, hard, enabled: !limits.ponder, fixed: limits.movetime.is_some() }
    }

    fn clock_budget(c: &Clock, overhead: Duration, move_number: u32) -> (Duration, Duration) {
        // Keep one overhead per remaining move of the horizon (at most ten) in reserve.
        let mtg = c.movestogo.map(|n| n.clamp(1, MAX_HORIZON));
        let left = c.time.saturating_sub(overhead * mtg.unwrap_or(10).min(10)).max(MIN_BUDGET);
        let share = match mtg {
            // Sudden death: the early moves, where games are decided, get the
            // larger shares (the clock shrinks geometrically while the share
            // grows slowly with the move number); with an increment the clock
            // falls to a few increments' worth by the endgame.
            None => {
                let pool = left + c.increment * (SUDDEN_DEATH_HORIZON - 1);
                let share = OPENING_SHARE + SHARE_GROWTH * f64::from(move_number.max(1)).sqrt();
                pool.mul_f64(share).min(left.mul_f64(MAX_SUDDEN_SHARE))
            }
            // Moves to the next control: an even share plus most of the increment.
            Some(n) => left / n + c.increment * 3 / 4,
        };
        let cap = left * MAX_CLOCK_SHARE / 1000;
        let soft = share.min(cap).max(MIN_BUDGET);
        let hard_cap = if mtg == Some(1) { left * 9 / 10 } else { cap };
        let hard = (soft * HARD_OVER_SOFT).min(hard_cap).max(soft);
        (soft, hard)
    }

    /// Whether the clock (not a fixed move time, depth or node limit, nor
    /// pondering before ponderhit) governs the search.
    pub(crate) fn on_clock(&self) -> bool {
        self.enabled && !self.fixed
    }

    /// Restarts the clock (at ponderhit) and enables the limits.
    pub(crate) fn start_now(&mut self) {
        self.start = Instant::now();
        self.enabled = self.soft != Duration::MAX;
    }

    /// Time since the search (or ponderhit) started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub(crate) fn hard_expired(&self) -> bool {
        self.enabled && self.elapsed() >= self.hard
    }

    /// Whether to start no further iteration. `best_move_changes` counts
    /// best-move changes in recent iterations (decayed by the caller),
    /// `score_drop` is how far (evaluation units) the score fell below the
    /// highest of the last three iterations' scores (and, with
    /// `TM_PREV_MOVE`, the score of this side's previous move), and
    /// `best_share` is the best move's share of the nodes searched at the
    /// root; an unstable or falling search gets more time, a stable one less,
    /// and one whose best move took nearly all the nodes (the others refuted
    /// at once) less again.
    pub(crate) fn soft_expired(
        &self,
        best_move_changes: f64,
        score_drop: i32,
        stable_iterations: u32,
        best_share: f64,
    ) -> bool {
        if !self.enabled || self.fixed {
            return false;
        }
        let instability =
            1.0 + best_move_changes.min(4.0) * f64::from(crate::search::params::tm_instability()) / 1000.0;
        let falling = 1.0 + (score_drop.clamp(0, 150) as f64) / 150.0;
        let stable = if stable_iterations >= 6 { 0.6 } else { 1.0 - stable_iterations as f64 * 0.05 };
        let share_factor = if best_share >= BEST_SHARE_HIGH { BEST_SHARE_HIGH_FACTOR } else { 1.0 };
        let budget = self.soft.as_secs_f64() * instability * falling * stable * share_factor;
        let e = self.elapsed().as_secs_f64();
        // An iteration costs about as much as all before it: do not start one
        // that cannot finish within the budget.
        e >= budget.min(self.hard.as_secs_f64()) * 0.6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_best_move_with_nearly_all_nodes_stops_sooner() {
        let c = Clock { time: ms(100_000), increment: Duration::ZERO, movestogo: None };
        let mut tm = TimeManager::new(&SearchLimits { clock: Some(c), ..Default::default() }, ms(0), 1);
        // Past 0.6 x 0.76 of the soft budget and short of 0.6 x 1.
        tm.start = Instant::now() - tm.soft.mul_f64(0.6 * 0.88);
        assert!(!tm.soft_expired(0.0, 0, 0, 0.5));
        assert!(!tm.soft_expired(0.0, 0, 0, BEST_SHARE_HIGH - 0.01));
        assert!(tm.soft_expired(0.0, 0, 0, BEST_SHARE_HIGH));
    }

    #[test]
    fn budgets() {
        let oh = ms(30);
        let tm = TimeManager::new(&SearchLimits::movetime(ms(1000)), oh, 1);
        assert_eq!(tm.soft, ms(970));
        assert_eq!(tm.hard, ms(970));
        assert!(tm.enabled && tm.fixed);
        assert!(!tm.soft_expired(0.0, 0, 10, 1.0), "a fixed move time is used to the end");
        let tm = TimeManager::new(&SearchLimits::depth(5), oh, 1);
        assert!(!tm.enabled && !tm.hard_expired());
        // Sudden death 60 s: about 1/27 of the clock at move 1, hard several
        // times more but bounded; later moves take a larger share of the same clock.
        let c = Clock { time: ms(60_000), increment: Duration::ZERO, movestogo: None };
        let sudden = |c: &Clock, move_number| {
            TimeManager::new(&SearchLimits { clock: Some(c.clone()), ..Default::default() }, oh, move_number)
        };
        let tm = sudden(&c, 1);
        assert!(tm.soft > ms(2000) && tm.soft < ms(2500), "{:?}", tm.soft);
        assert!(tm.hard > tm.soft && tm.hard < ms(42_000));
        let later = sudden(&c, 40).soft;
        assert!(later > tm.soft * 19 / 10 && later < tm.soft * 21 / 10, "{later:?}");
        // One move to the control: may use most of what is left, never all of it.
        let c = Clock { time: ms(10_000), increment: Duration::ZERO, movestogo: Some(1) };
        let tm = TimeManager::new(&SearchLimits { clock: Some(c), ..Default::default() }, oh, 1);
        assert!(tm.soft <= ms(7_000) && tm.hard <= ms(9_000) && tm.hard >= tm.soft);
        // Increment games plan with the increments to come: 10 s + 0.1 s
        // spends about 1/18 of the clock on the first move ...
        let c = Clock { time: ms(10_000), increment: ms(100), movestogo: None };
        let tm = sudden(&c, 1);
        assert!(tm.soft > ms(500) && tm.soft < ms(580), "{:?}", tm.soft);
        // ... and on a low clock at most a fifth of it, so the clock settles at
        // a few increments (above the hard limit's reach).
        let c = Clock { time: ms(1_000), increment: ms(100), movestogo: None };
        let tm = sudden(&c, 40);
        assert_eq!(tm.soft, ms(1_000 - 300) / 5);
        assert!(tm.hard < ms(700));
        // Almost no time left: still a positive budget.
        let c = Clock { time: ms(20), increment: Duration::ZERO, movestogo: None };
        let tm = sudden(&c, 1);
        assert!(tm.soft >= MIN_BUDGET && tm.hard >= tm.soft);
        // Pondering: disabled until ponderhit.
        let c = Clock { time: ms(60_000), increment: Duration::ZERO, movestogo: None };
        let mut tm = TimeManager::new(&SearchLimits { clock: Some(c), ponder: true, ..Default::default() }, oh, 1);
        assert!(!tm.enabled);
        tm.start_now();
        assert!(tm.enabled);
    }
}
