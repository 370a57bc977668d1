//! `chuhan perft` and `chuhan bench`: move-generator counts and the search signature.

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

pub fn run_perft(depth: u32, fen: &str, divide: bool, relaxed: bool, threads: usize) -> ExitCode {
    let parsed = Setup::parse(fen).and_then(|s| {
        if relaxed {
            Position::from_setup_relaxed(&s).map_err(FenError::from)
        } else {
            Position::from_setup(&s).map_err(FenError::from)
        }
    });
    let pos = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: invalid FEN: {e}");
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
