//! Command-line front end: subcommands `perft`, `bench`, `judge`, `match` and
//! `book` (build / probe / suite). With no arguments the binary is a protocol
//! engine on stdin/stdout.
//!
//! Errors go to stderr with exit code 2; results go to stdout.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chuhan::book;
use chuhan::fen::START_FEN;

mod book_cmd;
mod judge;
mod matches;
mod perft;

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
        #[arg(default_value_t = chuhan::bench::BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
    },
    /// Judge a game: print the PGN result and the reason (docs/rules.md sections 2-4).
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
        /// After the verdict, explain it: every move of the deciding span with
        /// its classification, each side's summary and the rule that decided.
        #[arg(long)]
        explain: bool,
    },
    /// Engine-vs-engine matches (UCCI/UCI referee); cutechess-cli style
    /// arguments, see README "Match" or `chuhan match -help`.
    #[command(disable_help_flag = true)]
    Match {
        /// `-engine cmd=... name=... -each ... -tc ... -games N ...`
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Opening book tools: build the binary book, list book moves, write the opening suite.
    Book {
        #[command(subcommand)]
        action: BookCommand,
    },
}

#[derive(Subcommand, Debug)]
pub(crate) enum BookCommand {
    /// Build a binary book from a text source (book/openings.txt); fails on an illegal move.
    Build {
        /// Text source: `moves | weight | ECCO | name` per line.
        input: std::path::PathBuf,
        /// Binary book to write.
        #[arg(short, long)]
        output: std::path::PathBuf,
        /// Also search the last position of every line to this depth and
        /// report the lines scoring beyond --verify-limit for one side.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
        verify_depth: Option<u32>,
        /// Threshold of --verify-depth, in centipawn units.
        #[arg(long, default_value_t = book::verify::VERIFY_LIMIT)]
        verify_limit: i32,
    },
    /// List the book moves of a position (default book: the embedded one).
    Probe {
        /// Position (default: the start position).
        #[arg(long, default_value = START_FEN)]
        fen: String,
        /// ICCS moves played from the position first.
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
        /// Book file to read instead of the embedded book.
        #[arg(long)]
        book: Option<std::path::PathBuf>,
    },
    /// Write the opening suite: positions 4-10 plies into the book lines,
    /// mirror images once, ECCO comment; with --depth, only those Chuhan's
    /// search scores within --limit.
    Suite {
        /// Text source (book/openings.txt).
        input: std::path::PathBuf,
        /// Suite file to write.
        #[arg(short, long)]
        output: std::path::PathBuf,
        /// Search depth of the balance filter (without it: unscored candidates).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: Option<u32>,
        /// Keep positions with |score| at most this (centipawn units).
        #[arg(long, default_value_t = book::suite::BALANCE_LIMIT)]
        limit: i32,
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
        None => ExitCode::from(chuhan::protocol::run(std::io::stdin(), std::io::stdout()).clamp(0, 255) as u8),
        Some(Command::Perft { depth, fen, divide, relaxed, threads }) => {
            perft::run_perft(depth, &fen, divide, relaxed, threads as usize)
        }
        Some(Command::Bench { depth }) => perft::run_bench(depth),
        Some(Command::Judge { fen, moves, rules, limit, relaxed, explain }) => {
            judge::run_judge(&fen, &moves, &rules, &limit, relaxed, explain)
        }
        Some(Command::Match { args }) => matches::run_match(&args),
        Some(Command::Book { action }) => book_cmd::run_book(action),
    }
}

pub(crate) fn read_text(path: &std::path::Path) -> Result<String, ExitCode> {
    std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.display());
        ExitCode::from(2)
    })
}

pub(crate) fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), ExitCode> {
    std::fs::write(path, bytes).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", path.display());
        ExitCode::from(2)
    })
}
