//! Command-line front end: subcommands `perft`, `bench`, `judge`, `match` (and,
//! as it lands, `book`). With no arguments the binary is a protocol
//! engine on stdin/stdout.
//!
//! Errors go to stderr with exit code 2; results go to stdout.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::fen::{FenError, Setup, START_FEN};
use crate::perft;
use crate::position::Position;
use crate::rules::{LimitPolicy, RuleSet, Rules};
use crate::tools;

#[derive(Parser, Debug)]
#[command(
    name = "chuhan",
    version,
    about = "Chuhan (楚汉): a Xiangqi engine. Without a subcommand it speaks UCCI/UCI on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal move tree (move generator test).
    Perft {
        /// Depth in plies (1-12).
        #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
        depth: u32,
        /// Position to count from (default: the start position).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// Print `<move> <count>` for every root move.
        #[arg(long)]
        divide: bool,
        /// Accept advisors, elephants and soldiers on points no game reaches
        /// (composed test positions); other validation still applies.
        #[arg(long)]
        relaxed: bool,
        /// Threads for the root split (default 1).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
    },
    /// Search a fixed set of positions (1 thread, 16 MB); the last line is
    /// `<nodes> nodes <nps> nps`, a deterministic signature of the search.
    Bench {
        /// Depth in plies.
        #[arg(default_value_t = crate::bench::BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
    /// Judge a game: print the PGN result and the reason (rules.md sections 2-4).
    Judge {
        /// Position the moves start from (default: the start position).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// The moves in ICCS, separated by spaces ("h2e2 h9g7 ...").
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// Repetition rules: asian (AXF, default) or chinese (CXA 2011).
        #[arg(long, default_value = "asian")]
        rules: String,
        /// Natural-limit counting: capped (first 10 checks per side count, default) or plain.
        #[arg(long, default_value = "capped")]
        limit: String,
        /// Accept advisors, elephants and soldiers on unreachable points.
        #[arg(long)]
        relaxed: bool,
    },
    /// Engine-vs-engine matches (UCCI/UCI referee); cutechess-cli style
    /// arguments, see README "Match" or `chuhan match -help`.
    #[command(disable_help_flag = true)]
    Match {
        /// `-engine cmd=... name=... -each ... -tc ... -games N ...`
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
}

/// Runs the command line `args` (without the program name).
pub fn main(args: Vec<String>) -> ExitCode {
    let cli = match Cli::try_parse_from(std::iter::once("chuhan".to_string()).chain(args)) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match cli.command {
        // No subcommand: the engine on stdin/stdout (UCCI or UCI).
        None => ExitCode::from(crate::protocol::run(std::io::stdin(), std::io::stdout()).clamp(0, 255) as u8),
        Some(Command::Perft { depth, fen, divide, relaxed, threads }) => {
            run_perft(depth, &fen, divide, relaxed, threads as usize)
        }
        Some(Command::Bench { depth }) => run_bench(depth),
        Some(Command::Judge { fen, moves, rules, limit, relaxed }) => run_judge(&fen, &moves, &rules, &limit, relaxed),
        Some(Command::Match { args }) => run_match(&args),
    }
}

/// Prints match progress: one line per game, rewritten in place on a terminal.
struct MatchPrinter {
    tty: bool,
}

impl tools::tournament::MatchObserver for MatchPrinter {
    fn game_finished(&mut self, record: &tools::game::GameRecord, progress: &str) {
        let mut out = std::io::stdout().lock();
        let game = format!("{} vs {}: {} ({})", record.red_name, record.black_name, record.result.pgn(), record.detail);
        if self.tty {
            let _ = write!(out, "\r\x1b[2K{game}\n{progress}");
        } else {
            let _ = writeln!(out, "{game}\n{progress}");
        }
        let _ = out.flush();
    }

    fn note(&mut self, text: &str) {
        let mut out = std::io::stdout().lock();
        if self.tty {
            let _ = write!(out, "\r\x1b[2K");
        }
        let _ = writeln!(out, "{}", text.trim_end());
        let _ = out.flush();
    }
}

fn run_match(args: &[String]) -> ExitCode {
    if args.is_empty() || args.iter().any(|a| a == "-help" || a == "--help" || a == "-h") {
        println!("{}", tools::args::USAGE);
        return ExitCode::SUCCESS;
    }
    let cfg = match tools::args::parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut printer = MatchPrinter { tty: std::io::stdout().is_terminal() };
    match tools::tournament::run(&cfg, &mut printer) {
        Ok(report) => {
            if printer.tty {
                println!();
            }
            print!("{report}");
            // A match cut short by a failing engine is an error for scripts.
            if report.stopped_by_fault {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_judge(fen: &str, moves: &str, rules: &str, limit: &str, relaxed: bool) -> ExitCode {
    let Some(set) = RuleSet::parse(rules) else {
        eprintln!("error: unknown rules '{rules}' (expected asian or chinese)");
        return ExitCode::from(2);
    };
    let Some(limit) = LimitPolicy::parse(limit) else {
        eprintln!("error: unknown limit policy '{limit}' (expected capped or plain)");
        return ExitCode::from(2);
    };
    let moves: Vec<&str> = moves.split_whitespace().collect();
    match crate::rules::judge_game(fen, relaxed, moves.iter().copied(), &Rules { set, limit }) {
        Ok((outcome, at)) => {
            if at < moves.len() {
                eprintln!("note: the game ended after move {at}; the {} later move(s) are ignored", moves.len() - at);
            }
            let _ = writeln!(std::io::stdout(), "{outcome}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_bench(depth: u32) -> ExitCode {
    let report = crate::bench::run_bench(depth);
    let mut out = std::io::stdout().lock();
    for (i, l) in report.lines.iter().enumerate() {
        let best = l.best.map_or_else(|| "(none)".to_string(), |m| m.to_string());
        let _ = writeln!(out, "{:2} {:>10} {best} {}", i + 1, l.nodes, l.fen);
    }
    let _ = writeln!(out, "time {} ms", report.time.as_millis());
    let _ = writeln!(out, "{} nodes {} nps", report.nodes, report.nps());
    ExitCode::SUCCESS
}

fn run_perft(depth: u32, fen: &str, divide: bool, relaxed: bool, threads: usize) -> ExitCode {
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
