//! The transposition table shared by all search threads.
//!
//! One allocation sized in MB; clusters of four 16-byte entries fill one
//! 64-byte cache line. Each entry is two atomic words, `key ^ data` and
//! `data`: a reader accepts an entry only if the two agree with its key, so a
//! torn write by another thread reads as a miss, never as a wrong entry (the
//! lock-free scheme of Hyatt and Mann). Replacement prefers the same key, then
//! the shallowest and oldest entry. Entries are aged by a generation counter
//! bumped per search ([`TranspositionTable::new_search`]) and cleared only on
//! a new game.
//!
//! The clusters live in a [`LargeTable`] (huge pages where the OS allows):
//! in 4 KB pages a 16 MB table spans 4096 pages, more than the TLB holds, so
//! nearly every probe also paid a page walk.
//!
//! Scores are stored as given: the caller converts mate scores with
//! [`crate::score::to_tt`] / [`crate::score::from_tt`]. This module knows
//! nothing of positions or rules.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

use crate::memory::{LargeTable, Zeroable};
use crate::moves::Move;

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// A lower bound (the search failed high).
    Lower,
    /// An upper bound (the search failed low).
    Upper,
}

impl Bound {
    /// The bound a fail-soft search result `best` against `beta` gives:
    /// lower on a fail high, exact when a PV node found a best move, else upper.
    #[inline]
    pub(crate) fn of_result(best: i32, beta: i32, exact: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if exact {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    const fn bits(self) -> u64 {
        match self {
            Bound::Upper => 1,
            Bound::Lower => 2,
            Bound::Exact => 3,
        }
    }

    const fn from_bits(b: u64) -> Option<Bound> {
        match b & 3 {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A hit in the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct TtEntry {
    /// Best (or refutation) move, possibly [`Move::NULL`].
    pub(crate) mv: Move,
    /// Stored score (table form: see [`crate::score::from_tt`]).
    pub(crate) score: i32,
    /// Static evaluation of the position.
    pub(crate) eval: i32,
    /// Depth of the search that stored it (plies, offset: quiescence stores 0).
    pub(crate) depth: i32,
    /// Bound type of `score`.
    pub(crate) bound: Bound,
    /// Whether the node was on a principal variation.
    pub(crate) is_pv: bool,
}

/// An entry as shown to the protocol (`probe`): the score already converted
/// to root distance 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtProbe {
    /// Best move, if any.
    pub best: Option<Move>,
    /// Bound of the score.
    pub bound: Bound,
    /// Score from the side to move's view; `None` for an entry that keeps only
    /// a move (a path-dependent result the search never trusts).
    pub score: Option<crate::score::Score>,
    /// Depth of the search that stored it.
    pub depth: i32,
}

/// Offset added to depths so quiescence depths (down to -DEPTH_OFFSET) fit a byte.
const DEPTH_OFFSET: i32 = 8;
const ENTRIES: usize = 4;
const AGE_BITS: u64 = 5;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
struct Cluster {
    slots: [Slot; ENTRIES],
}

// data: move 16 | score 16 | eval 16 | depth 8 | bound 2 | pv 1 | age 5
#[inline]
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, is_pv: bool, age: u8) -> u64 {
    let d = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    mv.0 as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | d << 48
        | bound.bits() << 56
        | (is_pv as u64) << 58
        | ((age & AGE_MASK) as u64) << 59
}

#[inline]
fn unpack(data: u64) -> Option<TtEntry> {
    let bound = Bound::from_bits(data >> 56)?;
    Some(TtEntry {
        mv: Move(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32 - DEPTH_OFFSET,
        bound,
        is_pv: (data >> 58) & 1 != 0,
    })
}

#[inline]
fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

#[inline]
fn age_of(data: u64) -> u8 {
    (data >> 59) as u8 & AGE_MASK
}

// SAFETY: a cluster is atomic integers only; all-zero bytes are empty slots.
unsafe impl Zeroable for Cluster {}

/// The shared transposition table.
pub struct TranspositionTable {
    clusters: LargeTable<Cluster>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one cluster).
    pub(crate) fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / std::mem::size_of::<Cluster>()).max(1);
        TranspositionTable { clusters: LargeTable::zeroed(n), age: AtomicU8::new(0) }
    }

    /// Empties every entry and resets the age (new game).
    pub(crate) fn clear(&self) {
        for c in self.clusters.iter() {
            for s in &c.slots {
                s.check.store(0, Relaxed);
                s.data.store(0, Relaxed);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Ages the table: called once per search.
    pub(crate) fn new_search(&self) {
        let a = self.age.load(Relaxed);
        self.age.store(a.wrapping_add(1) & AGE_MASK, Relaxed);
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        let i = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// Asks the CPU to start loading the cluster of `key` (a hint; no effect
    /// on results). Called before making a move so the child's probe hits the cache.
    #[inline(always)]
    pub(crate) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.cluster(key) as *const Cluster as *const i8;
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch is only
            // a cache hint: it never faults and reads nothing into the program.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<TtEntry> {
        let c = self.cluster(key);
        for s in &c.slots {
            let data = s.data.load(Relaxed);
            if s.check.load(Relaxed) ^ data == key && data != 0 {
                return unpack(data);
            }
        }
        None
    }

    /// Stores an entry for `key`. Keeps an existing move when `mv` is NULL,
    /// and does not let a shallow non-exact result replace a deeper one of the
    /// same position from this search.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, is_pv: bool) {
        let c = self.cluster(key);
        let age = self.age.load(Relaxed);
        for s in &c.slots {
            let data = s.data.load(Relaxed);
            if data != 0 && s.check.load(Relaxed) ^ data == key {
                let old_depth = depth_of(data) - DEPTH_OFFSET;
                if bound != Bound::Exact && depth + 4 <= old_depth && age_of(data) == age {
                    return;
                }
                let mv = if mv.is_some() { mv } else { Move(data as u16) };
                let new = pack(mv, score, eval, depth, bound, is_pv, age);
                s.check.store(key ^ new, Relaxed);
                s.data.store(new, Relaxed);
                return;
            }
        }
        let mut victim = &c.slots[0];
        let mut victim_worth = i32::MAX;
        for s in &c.slots {
            let data = s.data.load(Relaxed);
            let worth = if data == 0 {
                i32::MIN
            } else {
                let age_diff = (age.wrapping_sub(age_of(data)) & AGE_MASK) as i32;
                depth_of(data) - 8 * age_diff
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = s;
            }
        }
        let new = pack(mv, score, eval, depth, bound, is_pv, age);
        victim.check.store(key ^ new, Relaxed);
        victim.data.store(new, Relaxed);
    }

    /// Per mille of a sample of entries written during the current search.
    /// The sample is the first 1000 entries (250 clusters): one entry per
    /// mille, and few enough cache lines that reporting after every iteration
    /// costs the search little.
    pub(crate) fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let sample = self.clusters.len().min(1000 / ENTRIES);
        let mut used = 0;
        for c in &self.clusters[..sample] {
            for s in &c.slots {
                let d = s.data.load(Relaxed);
                if d != 0 && age_of(d) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn cluster_is_a_cache_line() {
        assert_eq!(std::mem::size_of::<Cluster>(), 64);
        assert_eq!(std::mem::align_of::<Cluster>(), 64);
    }

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move(0x3456);
        tt.store(0xDEAD_BEEF, m, -29_990, 123, 7, Bound::Lower, true);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound, e.is_pv), (m, -29_990, 123, 7, Bound::Lower, true));
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        // A NULL move keeps the stored one; a much shallower bound does not overwrite.
        tt.store(0xDEAD_BEEF, Move::NULL, 5, 0, 1, Bound::Upper, false);
        assert_eq!(tt.probe(0xDEAD_BEEF).unwrap().depth, 7);
        tt.store(0xDEAD_BEEF, Move::NULL, 5, 0, 6, Bound::Exact, false);
        let e = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!((e.mv, e.score, e.depth, e.bound), (m, 5, 6, Bound::Exact));
        // Quiescence depths below zero survive packing.
        tt.store(77, Move::NULL, 0, 0, -3, Bound::Upper, false);
        assert_eq!(tt.probe(77).unwrap().depth, -3);
        for i in 0..20_000u64 {
            tt.store(i.wrapping_mul(0x9E37_79B9_7F4A_7C15), Move(1), 0, 0, 1, Bound::Exact, false);
        }
        let full = tt.hashfull();
        assert!(full > 200 && full < 1000, "{full}");
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "entries of older searches do not count");
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn replacement_prefers_old_and_shallow() {
        // One cluster: every key collides.
        let tt = TranspositionTable { clusters: LargeTable::zeroed(1), age: AtomicU8::new(0) };
        for k in 1..=4u64 {
            tt.store(k, Move(k as u16), 0, 0, 10 + k as i32, Bound::Exact, false);
        }
        tt.store(5, Move(5), 0, 0, 1, Bound::Exact, false);
        assert!(tt.probe(1).is_none(), "the shallowest entry is replaced");
        assert!(tt.probe(5).is_some());
        tt.new_search();
        tt.store(6, Move(6), 0, 0, 1, Bound::Exact, false);
        // Entries of the old search lose to the new one despite their depth.
        assert_eq!((2..=6).filter(|&k| tt.probe(k).is_some()).count(), 4);
        assert!(tt.probe(6).is_some());
    }

    /// Threads hammer a tiny table with entries whose data is derived from
    /// their key; every hit must be self-consistent (no torn entry accepted).
    #[test]
    fn lock_free_under_threads() {
        let tt = Arc::new(TranspositionTable { clusters: LargeTable::zeroed(4), age: AtomicU8::new(0) });
        let handles: Vec<_> = (0..4u64)
            .map(|t| {
                let tt = Arc::clone(&tt);
                std::thread::spawn(move || {
                    let mut bad = 0;
                    let mut hits = 0;
                    let mut x = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(t + 1);
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = x % 64 + 1;
                        let mv = Move(key as u16 * 3);
                        if let Some(e) = tt.probe(key) {
                            hits += 1;
                            if e.mv != mv || e.score != key as i32 || e.eval != -(key as i32) {
                                bad += 1;
                            }
                        }
                        tt.store(key, mv, key as i32, -(key as i32), (key % 20) as i32, Bound::Exact, false);
                    }
                    (bad, hits)
                })
            })
            .collect();
        let mut total_hits = 0;
        for h in handles {
            let (bad, hits) = h.join().unwrap();
            assert_eq!(bad, 0);
            total_hits += hits;
        }
        assert!(total_hits > 1000);
    }
}
