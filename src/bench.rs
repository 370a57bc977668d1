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

use crate::files;
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Engine, NullReporter, SearchSignals};
use crate::time::SearchLimits;

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 11;
/// Table size used by the bench.
pub const BENCH_HASH_MB: usize = 16;
/// Largest table (MB) and thread count a bench accepts (the protocol's ranges).
pub const MAX_HASH_MB: usize = 65536;
/// Most threads a bench accepts.
pub const MAX_THREADS: usize = 256;
/// Deepest bench depth.
pub const MAX_DEPTH: u64 = 64;
/// Longest movetime per position (ms): one hour.
pub const MAX_MOVETIME_MS: u64 = 3_600_000;
/// Size limit of a bench position file (FEN/EPD lines).
pub const FILE_LIMIT: u64 = 16 << 20;

/// The bench positions.
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

/// Where the bench positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchPositions {
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
pub enum LimitType {
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
    pub positions: BenchPositions,
    /// What `limit` counts.
    pub limit_type: LimitType,
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
    pub fn search_limits(&self) -> SearchLimits {
        match self.limit_type {
            LimitType::Depth => SearchLimits::depth(self.limit as u32),
            LimitType::Nodes => SearchLimits { nodes: Some(self.limit), ..SearchLimits::default() },
            LimitType::Movetime => SearchLimits::movetime(Duration::from_millis(self.limit)),
        }
    }

    /// The FENs to search; `current` is the front end's current position.
    pub fn fens(&self, current: &str) -> Result<Vec<String>, BenchError> {
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
    /// One line per position.
    pub lines: Vec<BenchLine>,
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
    let limits = spec.search_limits();
    let mut lines = Vec::new();
    let mut time = Duration::ZERO;
    for fen in fens {
        let Ok(pos) = Position::from_fen(fen) else { continue };
        engine.new_game();
        let start = Instant::now();
        let r = engine.search(&pos, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
        time += start.elapsed();
        let line = BenchLine { fen: fen.clone(), best: r.best, nodes: r.nodes };
        progress(&line);
        lines.push(line);
    }
    let nodes = lines.iter().map(|l| l.nodes).sum();
    BenchReport { lines, nodes, time }
}

/// Seeded random games from every bench position, for tests: `walks` games
/// of up to `plies` moves each per position; `visit` sees each position
/// before its move, with its legal moves (the move played is chosen among
/// them).
#[cfg(test)]
pub(crate) fn random_walks(
    seed: u64,
    walks: usize,
    plies: usize,
    mut visit: impl FnMut(&Position, &crate::moves::MoveList),
) {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for fen in BENCH_FENS {
        for _ in 0..walks {
            let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            for _ in 0..plies {
                let moves = pos.legal_moves();
                visit(&pos, &moves);
                let Some(&m) = moves.choose(&mut rng) else { break };
                pos.make_move(m);
            }
        }
    }
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
        let r = run(&spec, crate::fen::START_FEN, |_| {}).unwrap();
        assert_eq!(r.lines.len(), 1);
        assert_eq!(r.lines[0].fen, crate::fen::START_FEN);
        let e = run(&spec, "not a fen", |_| {}).unwrap_err();
        assert!(matches!(e, BenchError::BadPositions(_)), "{e:?}");
        let spec = BenchSpec { positions: BenchPositions::File("/dev/zero".into()), ..BenchSpec::default() };
        let e = run(&spec, crate::fen::START_FEN, |_| {}).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }

    #[test]
    fn node_count_is_deterministic() {
        let a = run_bench(5);
        let b = run_bench(5);
        assert_eq!(a.lines.len(), BENCH_FENS.len());
        assert_eq!(a.nodes, b.nodes);
        assert!(a.lines.iter().zip(&b.lines).all(|(x, y)| x.nodes == y.nodes && x.best == y.best));
    }
}
