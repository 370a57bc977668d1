//! `chuhan match`: an engine-vs-engine referee for UCCI and UCI engines.
//!
//! The referee owns the board (our own [`crate::position::Position`]), checks
//! every move, runs the clocks, adjudicates by the rules (one function,
//! [`adjudicate::judge`]) and by engine scores, and writes PGN with ICCS and
//! Chinese notation. Matches are round-robin, gauntlet or knockout (best-of-
//! three mini-matches), over a pool of worker threads, with Elo/LOS/SPRT
//! statistics.
//!
//! Submodules: [`args`] (command line), [`tc`] (time controls, clocks),
//! [`engine`] (processes, protocol), [`game`] (one refereed game),
//! [`adjudicate`] (results, rules adjudication), [`notation`] (Chinese
//! notation), [`pgn`] (PGN out and in), [`opening`] (suites), [`stats`]
//! (Elo, SPRT), [`tournament`] (schedule, pool, report).
//!
//! This module prints nothing; the CLI does.

pub mod adjudicate;
pub mod args;
pub(crate) mod engine;
pub mod game;
pub mod notation;
pub mod opening;
pub mod pgn;
pub mod stats;
pub(crate) mod tc;
pub mod tournament;

/// The generator behind the match's seeded choices: the opening order
/// (`order=random`), knockout pairings and colours, and lots. `-seed` seeds
/// it with `SeedableRng::seed_from_u64`; rand_xoshiro's generators give the
/// same stream on every platform and build, so one seed replays one match.
/// Draws go through `rand`'s unbiased `gen_range` / `shuffle`.
pub(crate) type MatchRng = rand_xoshiro::Xoshiro256PlusPlus;

#[cfg(test)]
mod tests {
    use super::MatchRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    #[test]
    fn seeded_draws_are_reproducible_and_unbiased() {
        let draw = |seed: u64| {
            let mut v: Vec<u32> = (0..10).collect();
            v.shuffle(&mut MatchRng::seed_from_u64(seed));
            v
        };
        assert_eq!(draw(5), draw(5));
        assert_ne!(draw(5), draw(6));
        let mut sorted = draw(5);
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        // Every ordering of three items about equally often (1000 expected
        // each; the bounds are more than 4 standard deviations wide).
        let mut counts = std::collections::HashMap::new();
        for seed in 0..6000 {
            let mut v = [0, 1, 2];
            v.shuffle(&mut MatchRng::seed_from_u64(seed));
            *counts.entry(v).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 6);
        assert!(counts.values().all(|&n| (870..=1130).contains(&n)), "{counts:?}");
        // Lots: a fair coin.
        let mut rng = MatchRng::seed_from_u64(1);
        let heads = (0..10_000).filter(|_| rng.gen::<bool>()).count();
        assert!((4800..=5200).contains(&heads), "{heads}");
    }
}
