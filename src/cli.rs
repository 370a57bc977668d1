//! Command-line front end: subcommands `perft`, `judge` (and, as they land,
//! `bench`, `match`, `book`). With no arguments the binary is a protocol
//! engine on stdin/stdout.
//!
//! Errors go to stderr with exit code 2; results go to stdout.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::fen::{FenError, Setup, START_FEN};
use crate::perft;
use crate::position::Position;
use crate::rules::{LimitPolicy, RuleSet, Rules};

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
        None => {
            let mut out = std::io::stdout();
            let _ = writeln!(out, "Chuhan {}: run `chuhan --help` for the subcommands.", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(Command::Perft { depth, fen, divide, relaxed, threads }) => {
            run_perft(depth, &fen, divide, relaxed, threads as usize)
        }
        Some(Command::Judge { fen, moves, rules, limit, relaxed }) => run_judge(&fen, &moves, &rules, &limit, relaxed),
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
