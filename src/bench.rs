//! `chuhan bench`: a fixed set of positions searched to a fixed depth on one
//! thread with a 16 MB table cleared before each position. The total node
//! count is a signature of the search: a change that alters it changes the
//! search, one that keeps it does not (record it as `Bench: N` in commits).
//!
//! The positions: the start position; 34 opening and middlegame positions
//! reached by Fairy-Stockfish (depth 9) playing on from twelve common opening
//! lines (central cannon vs screen horses, same-direction cannons, pawn,
//! elephant, horse and palace-corner cannon openings); six mate puzzles from
//! `tests/data/mates.epd`; seven composed endgames.
//!
//! Arguments follow Stockfish's `bench [ttSize] [threads] [limit] [fenFile]
//! [limitType]` ([`BenchSpec::parse`]), so distributed testers and scripts
//! written for Stockfish-family engines drive it unchanged. This module does
//! not print; the front ends (command line, protocol) format the result, the
//! summary lines included ([`BenchReport::summary`]).

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::fen::BENCH_FENS;
use crate::files;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Engine, NullReporter, SearchSignals};
use crate::time::SearchLimits;

/// Default bench depth.
pub(crate) const BENCH_DEPTH: u32 = 11;
/// Table size used by the bench.
pub(crate) const BENCH_HASH_MB: usize = 16;
/// Largest table (MB) and thread count a bench accepts (the protocol's ranges).
pub(crate) const MAX_HASH_MB: usize = 65536;
/// Most threads a bench accepts.
pub(crate) const MAX_THREADS: usize = 256;
/// Deepest bench depth.
pub(crate) const MAX_DEPTH: u64 = 64;
/// Longest movetime per position (ms): one hour.
pub(crate) const MAX_MOVETIME_MS: u64 = 3_600_000;
/// Size limit of a bench position file (FEN/EPD lines).
pub(crate) const FILE_LIMIT: u64 = 16 << 20;

/// Where the bench positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BenchPositions {
    /// The built-in [`BENCH_FENS`].
    Default,
    /// The front end's current position (the start position on the command line).
    Current,
    /// A file of FEN or EPD lines (EPD operations ignored, `#` comments and
    /// blank lines skipped).
    File(PathBuf),
}

/// What the limit argument counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum LimitType {
    /// Plies per position.
    Depth,
    /// Nodes per position.
    Nodes,
    /// Milliseconds per position.
    Movetime,
}

/// A bench run: `bench [hash] [threads] [limit] [default|current|FILE] [depth|nodes|movetime]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchSpec {
    /// Table size in MB (1..=[`MAX_HASH_MB`]).
    pub hash_mb: usize,
    /// Search threads (1..=[`MAX_THREADS`]).
    pub threads: usize,
    /// Depth, nodes or milliseconds per position, by `limit_type`.
    pub limit: u64,
    /// The positions.
    pub(crate) positions: BenchPositions,
    /// What `limit` counts.
    pub(crate) limit_type: LimitType,
}

impl Default for BenchSpec {
    /// The signature run: 16 MB, 1 thread, depth 11, the built-in positions.
    fn default() -> BenchSpec {
        BenchSpec {
            hash_mb: BENCH_HASH_MB,
            threads: 1,
            limit: BENCH_DEPTH as u64,
            positions: BenchPositions::Default,
            limit_type: LimitType::Depth,
        }
    }
}

/// Why a bench could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchError {
    /// An argument is out of range or unknown.
    BadArgument(String),
    /// The position file could not be read.
    File(files::FileError),
    /// The position file holds a bad line, or no position.
    BadPositions(String),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::BadArgument(m) | BenchError::BadPositions(m) => f.write_str(m),
            BenchError::File(e) => write!(f, "bench positions: {e}"),
        }
    }
}

impl std::error::Error for BenchError {}

/// Usage line of the bench arguments.
pub const USAGE: &str = "bench [hash MB] [threads] [limit] [default|current|FILE] [depth|nodes|movetime]";

fn number(text: &str, what: &str, lo: u64, hi: u64) -> Result<u64, BenchError> {
    match text.parse::<u64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(BenchError::BadArgument(format!("bench: {what} must be a number from {lo} to {hi}, not '{text}'"))),
    }
}

impl BenchSpec {
    /// Parses the arguments after `bench`, in Stockfish's order; missing
    /// trailing arguments take the defaults of [`BenchSpec::default`] (the
    /// limit defaults by its type: depth 11, 1,000,000 nodes, 1000 ms).
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<BenchSpec, BenchError> {
        let args: Vec<&str> = args.iter().map(|a| a.as_ref()).collect();
        if args.len() > 5 {
            return Err(BenchError::BadArgument(format!(
                "bench: at most 5 arguments, got {} (usage: {USAGE})",
                args.len()
            )));
        }
        let mut spec = BenchSpec::default();
        if let Some(t) = args.first() {
            spec.hash_mb = number(t, "the hash size (MB)", 1, MAX_HASH_MB as u64)? as usize;
        }
        if let Some(t) = args.get(1) {
            spec.threads = number(t, "the thread count", 1, MAX_THREADS as u64)? as usize;
        }
        if let Some(t) = args.get(3) {
            spec.positions = match t.to_ascii_lowercase().as_str() {
                "default" => BenchPositions::Default,
                "current" => BenchPositions::Current,
                _ => BenchPositions::File(PathBuf::from(t)),
            };
        }
        if let Some(t) = args.get(4) {
            spec.limit_type = match t.to_ascii_lowercase().as_str() {
                "depth" => LimitType::Depth,
                "nodes" => LimitType::Nodes,
                "movetime" => LimitType::Movetime,
                _ => {
                    return Err(BenchError::BadArgument(format!(
                        "bench: the limit type must be depth, nodes or movetime, not '{t}'"
                    )))
                }
            };
        }
        let (what, lo, hi, default) = match spec.limit_type {
            LimitType::Depth => ("the depth", 1, MAX_DEPTH, BENCH_DEPTH as u64),
            LimitType::Nodes => ("the node limit", 1, u64::MAX / 2, 1_000_000),
            LimitType::Movetime => ("the movetime (ms)", 1, MAX_MOVETIME_MS, 1000),
        };
        spec.limit = match args.get(2) {
            Some(t) => number(t, what, lo, hi)?,
            None => default,
        };
        Ok(spec)
    }

    /// The search limits of one position.
    pub(crate) fn search_limits(&self) -> SearchLimits {
        match self.limit_type {
            LimitType::Depth => SearchLimits::depth(self.limit as u32),
            LimitType::Nodes => SearchLimits { nodes: Some(self.limit), ..SearchLimits::default() },
            LimitType::Movetime => SearchLimits::movetime(Duration::from_millis(self.limit)),
        }
    }

    /// The FENs to search; `current` is the front end's current position.
    pub(crate) fn fens(&self, current: &str) -> Result<Vec<String>, BenchError> {
        match &self.positions {
            BenchPositions::Default => Ok(BENCH_FENS.iter().map(|f| f.to_string()).collect()),
            BenchPositions::Current => Ok(vec![current.to_string()]),
            BenchPositions::File(path) => {
                let text = files::read_text_limited(path, FILE_LIMIT).map_err(BenchError::File)?;
                let name = path.display().to_string();
                let list = crate::tools::opening::parse_epd(&text, &name)
                    .map_err(|e| BenchError::BadPositions(format!("bench positions: {e}")))?;
                let fens: Vec<String> = list.into_iter().filter_map(|o| o.fen).collect();
                if fens.is_empty() {
                    return Err(BenchError::BadPositions(format!("bench positions: {name} holds no position")));
                }
                Ok(fens)
            }
        }
    }
}

/// The result for one position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position.
    pub fen: String,
    /// The move found.
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// The result of a bench run.
#[derive(Clone, Debug)]
pub struct BenchReport {
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Wall time of the searches.
    pub time: Duration,
}

impl BenchReport {
    /// Stockfish's closing lines (`Total time (ms) : N`, `Nodes searched  : N`,
    /// `Nodes/second    : N`), which distributed testers read; the command
    /// line prints them on stderr.
    pub fn summary(&self) -> [String; 3] {
        [
            format!("Total time (ms) : {}", self.time.as_millis()),
            format!("Nodes searched  : {}", self.nodes),
            format!("Nodes/second    : {}", self.nps()),
        ]
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// Searches every bench position to `depth` (1 thread, 16 MB, table and
/// histories cleared per position). Positions that fail to parse (none do;
/// a test checks) are skipped.
pub fn run_bench(depth: u32) -> BenchReport {
    let spec = BenchSpec { limit: depth.max(1) as u64, ..BenchSpec::default() };
    let fens: Vec<String> = BENCH_FENS.iter().map(|f| f.to_string()).collect();
    run_fens(&spec, &fens, |_| {})
}

/// Runs `spec` with `current` as the current position (for `current`);
/// `progress` sees each position's result as it is found.
pub fn run(spec: &BenchSpec, current: &str, progress: impl FnMut(&BenchLine)) -> Result<BenchReport, BenchError> {
    let fens = spec.fens(current)?;
    if let Some(available) = crate::memory::available_mb() {
        // Keep 64 MB for everything else, as the protocol's `Hash` does.
        if spec.hash_mb as u64 + 64 > available {
            return Err(BenchError::BadArgument(format!(
                "bench: a {} MB table does not fit in the {available} MB of memory available",
                spec.hash_mb
            )));
        }
    }
    for fen in &fens {
        Position::from_fen(fen).map_err(|e| BenchError::BadPositions(format!("bench: bad FEN '{fen}': {e}")))?;
    }
    Ok(run_fens(spec, &fens, progress))
}

/// Searches each of `fens` (valid FENs; others are skipped) under `spec`,
/// table and histories cleared before each.
fn run_fens(spec: &BenchSpec, fens: &[String], mut progress: impl FnMut(&BenchLine)) -> BenchReport {
    let mut engine = Engine::new(spec.hash_mb, spec.threads);
    // No GUI, no communication lag: a movetime limit is searched in full.
    engine.options_mut().move_overhead = Duration::ZERO;
    let limits = spec.search_limits();
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for fen in fens {
        let Ok(pos) = Position::from_fen(fen) else { continue };
        engine.new_game();
        let start = Instant::now();
        let r = engine.search(&pos, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
        time += start.elapsed();
        let line = BenchLine { fen: fen.clone(), best: r.best, nodes: r.nodes };
        nodes += line.nodes;
        progress(&line);
    }
    BenchReport { nodes, time }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_distinct() {
        assert!((30..=50).contains(&BENCH_FENS.len()));
        let mut keys = std::collections::HashSet::new();
        for fen in BENCH_FENS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(!pos.legal_moves().is_empty(), "{fen}");
            assert!(keys.insert(pos.key()), "duplicate {fen}");
        }
    }

    #[test]
    fn arguments_in_stockfish_order() {
        assert_eq!(BenchSpec::parse::<&str>(&[]).unwrap(), BenchSpec::default());
        let s = BenchSpec::parse(&["64", "2", "9", "current", "depth"]).unwrap();
        assert_eq!((s.hash_mb, s.threads, s.limit, &s.positions), (64, 2, 9, &BenchPositions::Current));
        let s = BenchSpec::parse(&["16", "1", "5000", "default", "nodes"]).unwrap();
        assert_eq!((s.limit, s.limit_type), (5000, LimitType::Nodes));
        assert_eq!(s.search_limits().nodes, Some(5000));
        let s = BenchSpec::parse(&["16", "1", "100", "x.epd", "movetime"]).unwrap();
        assert_eq!(s.positions, BenchPositions::File("x.epd".into()));
        assert_eq!(s.search_limits().movetime, Some(Duration::from_millis(100)));
        // A missing limit takes its type's default.
        assert_eq!(BenchSpec::parse(&["1"]).unwrap().limit, BENCH_DEPTH as u64);
        for bad in [
            &["0"][..],
            &["x"],
            &["65537"],
            &["16", "0"],
            &["16", "1", "0"],
            &["16", "1", "65"],
            &["16", "1", "-3"],
            &["16", "1", "5", "default", "perft"],
            &["16", "1", "5", "default", "depth", "extra"],
        ] {
            let e = BenchSpec::parse(bad).unwrap_err();
            assert!(matches!(e, BenchError::BadArgument(_)), "{bad:?}: {e:?}");
        }
    }

    #[test]
    fn current_and_file_positions() {
        let spec = BenchSpec { positions: BenchPositions::Current, limit: 3, ..BenchSpec::default() };
        let mut lines = Vec::new();
        let r = run(&spec, crate::fen::START_FEN, |l| lines.push(l.clone())).unwrap();
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].fen, crate::fen::START_FEN);
        assert_eq!(r.nodes, lines[0].nodes);
        let e = run(&spec, "not a fen", |_| {}).unwrap_err();
        assert!(matches!(e, BenchError::BadPositions(_)), "{e:?}");
        let spec = BenchSpec { positions: BenchPositions::File("/dev/zero".into()), ..BenchSpec::default() };
        let e = run(&spec, crate::fen::START_FEN, |_| {}).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }

    #[test]
    fn node_count_is_deterministic() {
        let spec = BenchSpec { limit: 5, ..BenchSpec::default() };
        let run_lines = || {
            let mut lines = Vec::new();
            let r = run(&spec, crate::fen::START_FEN, |l| lines.push(l.clone())).unwrap();
            (r, lines)
        };
        let (a, a_lines) = run_lines();
        let (b, b_lines) = run_lines();
        assert_eq!(a_lines.len(), BENCH_FENS.len());
        assert_eq!(a.nodes, run_bench(5).nodes);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.nodes, a_lines.iter().map(|l| l.nodes).sum::<u64>());
        assert!(a_lines.iter().zip(&b_lines).all(|(x, y)| x.nodes == y.nodes && x.best == y.best));
    }
}
