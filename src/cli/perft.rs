//! `chuhan perft`, `chuhan bench` and `chuhan eval`: move-generator counts,
//! the search signature and the evaluation breakdown.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use chuhan::bench::BenchSpec;
use chuhan::fen::{FenError, Setup};
use chuhan::perft;
use chuhan::position::Position;

/// `chuhan bench [hash] [threads] [limit] [default|current|FILE] [depth|nodes|movetime]`:
/// one line per position on stdout as it is searched, Stockfish's summary on
/// stderr, and `<nodes> nodes <nps> nps` as the last stdout line. `current`
/// is the start position here.
pub fn run_bench(args: &[String]) -> ExitCode {
    let spec = match BenchSpec::parse(args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!("usage: chuhan {}", chuhan::bench::USAGE);
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    let mut index = 0;
    let result = chuhan::bench::run(&spec, chuhan::START_FEN, |l| {
        index += 1;
        let best = l.best.map_or_else(|| "(none)".to_string(), |m| m.to_string());
        let _ = writeln!(out, "{index:2} {:>10} {best} {}", l.nodes, l.fen);
    });
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let _ = writeln!(out, "time {} ms", report.time.as_millis());
    let _ = out.flush();
    eprintln!("\n===========================");
    for line in report.summary() {
        eprintln!("{line}");
    }
    let _ = writeln!(out, "{} nodes {} nps", report.nodes, report.nps());
    ExitCode::SUCCESS
}

/// The position of `fen`, or the message for stderr.
fn parse_position(fen: &str, relaxed: bool) -> Result<Position, String> {
    Setup::parse(fen)
        .and_then(|s| {
            if relaxed {
                Position::from_setup_relaxed(&s).map_err(FenError::from)
            } else {
                Position::from_setup(&s).map_err(FenError::from)
            }
        })
        .map_err(|e| format!("error: invalid FEN: {e}"))
}

/// `chuhan eval [FEN]`: the evaluation breakdown of the position (the start
/// position when no FEN is given).
pub fn run_eval(fen: &str, relaxed: bool) -> ExitCode {
    let fen = if fen.trim().is_empty() { chuhan::START_FEN } else { fen };
    match parse_position(fen, relaxed) {
        Ok(pos) => {
            let mut out = std::io::stdout().lock();
            for line in chuhan::eval::breakdown::breakdown(&pos).render() {
                let _ = writeln!(out, "{line}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

pub fn run_perft(depth: u32, fen: &str, divide: bool, relaxed: bool, threads: usize) -> ExitCode {
    let pos = match parse_position(fen, relaxed) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    let nodes = if divide {
        let counts = perft::divide(&pos, depth, threads);
        for (m, n) in &counts {
            let _ = writeln!(out, "{m} {n}");
        }
        counts.iter().map(|&(_, n)| n).sum()
    } else {
        perft::perft_parallel(&pos, depth, threads)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { (nodes as f64 / secs) as u64 } else { 0 };
    let _ = writeln!(out, "{nodes} nodes {nps} nps");
    ExitCode::SUCCESS
}
