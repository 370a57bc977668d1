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
pub mod engine;
pub mod game;
pub mod notation;
pub mod opening;
pub mod pgn;
pub mod stats;
pub mod tc;
pub mod tournament;

/// SplitMix64: a small deterministic generator for seeded pairings, lots and
/// opening order (the same seed gives the same match on every platform).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn rng_is_deterministic_and_shuffles() {
        let mut a = Rng::new(1);
        let mut b = Rng::new(1);
        assert_eq!(a.next_u64(), b.next_u64());
        // SplitMix64 reference value for seed 0.
        assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut v: Vec<u32> = (0..10).collect();
        Rng::new(5).shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
