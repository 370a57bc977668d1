//! Command-line front end: subcommands `perft`, `bench`, `judge`, `match` and
//! `book` (build / probe / suite). With no arguments the binary is a protocol
//! engine on stdin/stdout.
//!
//! Errors go to stderr with exit code 2; results go to stdout.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::book::{self, OpeningBook};
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
    /// Opening book tools: build the binary book, list book moves, write the opening suite.
    Book {
        #[command(subcommand)]
        action: BookCommand,
    },
}

#[derive(Subcommand, Debug)]
enum BookCommand {
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
        None => ExitCode::from(crate::protocol::run(std::io::stdin(), std::io::stdout()).clamp(0, 255) as u8),
        Some(Command::Perft { depth, fen, divide, relaxed, threads }) => {
            run_perft(depth, &fen, divide, relaxed, threads as usize)
        }
        Some(Command::Bench { depth }) => run_bench(depth),
        Some(Command::Judge { fen, moves, rules, limit, relaxed }) => run_judge(&fen, &moves, &rules, &limit, relaxed),
        Some(Command::Match { args }) => run_match(&args),
        Some(Command::Book { action }) => run_book(action),
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

fn read_text(path: &std::path::Path) -> Result<String, ExitCode> {
    std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.display());
        ExitCode::from(2)
    })
}

fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), ExitCode> {
    std::fs::write(path, bytes).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", path.display());
        ExitCode::from(2)
    })
}

fn run_book(action: BookCommand) -> ExitCode {
    let result = match action {
        BookCommand::Build { input, output, verify_depth, verify_limit } => {
            book_build(&input, &output, verify_depth, verify_limit)
        }
        BookCommand::Probe { fen, moves, book } => book_probe(&fen, &moves, book.as_deref()),
        BookCommand::Suite { input, output, depth, limit } => book_suite(&input, &output, depth, limit),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}

/// Reads and parses a book text source (`book/openings.txt` format).
fn read_book_lines(input: &std::path::Path) -> Result<Vec<book::text::OpeningLine>, ExitCode> {
    let text = read_text(input)?;
    book::text::parse_lines(&text).map_err(|e| {
        eprintln!("error: {}: {e}", input.display());
        ExitCode::from(2)
    })
}

fn book_build(
    input: &std::path::Path,
    output: &std::path::Path,
    verify_depth: Option<u32>,
    verify_limit: i32,
) -> Result<(), ExitCode> {
    let lines = read_book_lines(input)?;
    let (book, stats) = book::text::build_from_lines(&lines);
    write_file(output, &book.to_bytes())?;
    if let Some(depth) = verify_depth {
        let mut scorer = book::verify::Scorer::new(depth, 16);
        let bad = book::verify::verify_lines(&lines, &mut scorer, verify_limit, |done, total| {
            if done % 50 == 0 || done == total {
                eprintln!("verified {done}/{total} lines");
            }
        });
        for u in &bad {
            println!(
                "line {}: {} {}: last position scores {:+} for Red at depth {depth} (limit {verify_limit})",
                u.line, u.ecco, u.name, u.score_red
            );
        }
        println!("{} of {} lines beyond {verify_limit} at depth {depth}", bad.len(), lines.len());
    }
    println!(
        "{} lines, {} plies, {} positions, {} records -> {}",
        stats.lines,
        stats.plies,
        stats.positions,
        stats.records,
        output.display()
    );
    Ok(())
}

fn book_probe(fen: &str, moves: &[String], path: Option<&std::path::Path>) -> Result<(), ExitCode> {
    let book = match path {
        Some(p) => OpeningBook::load(p),
        None => OpeningBook::embedded(),
    }
    .map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })?;
    let mut pos = Position::from_fen(fen).map_err(|e| {
        eprintln!("error: invalid FEN: {e}");
        ExitCode::from(2)
    })?;
    for text in moves.iter().filter(|t| !t.is_empty()) {
        let m = pos.parse_move(text).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::from(2)
        })?;
        pos.make_move(m);
    }
    for (m, w) in book.moves(&pos) {
        println!("{m} {w}");
    }
    Ok(())
}

fn book_suite(
    input: &std::path::Path,
    output: &std::path::Path,
    depth: Option<u32>,
    limit: i32,
) -> Result<(), ExitCode> {
    let lines = read_book_lines(input)?;
    let cands = book::suite::candidates(&lines);
    let total = cands.len();
    let (cands, filter) = match depth {
        Some(d) => {
            let mut scorer = book::verify::Scorer::new(d, 16);
            let mut done = 0;
            let kept = book::suite::select(
                cands,
                |p| {
                    done += 1;
                    if done % 100 == 0 {
                        eprintln!("scored {done}/{total}");
                    }
                    Some(scorer.score(p))
                },
                limit,
            );
            let note = format!(
                "Scored by Chuhan's search at depth {d} (side to move's view); kept {} of {total} candidates \
                 with |score| <= {limit}.",
                kept.len()
            );
            (kept, note)
        }
        None => (
            cands,
            format!(
                "UNSCORED candidates: the |score| <= {limit} balance filter (chuhan book suite --depth D)\n\
                 has not been applied."
            ),
        ),
    };
    let header = format!(
        "Chuhan opening suite: {} distinct positions {}-{} plies into the lines of {}.\n\
         Format: <FEN> ; <ECCO> <name> [; score <s>]. Mirror images appear once.\n\
         Order: round-robin over the ECCO classes (A0, A1, ..., E4), so any prefix spans the openings.\n{filter}",
        cands.len(),
        book::suite::MIN_PLY,
        book::suite::MAX_PLY,
        input.display(),
    );
    let cands = book::suite::interleave(cands);
    write_file(output, book::suite::render(&cands, &header).as_bytes())?;
    println!("{} positions -> {}", cands.len(), output.display());
    Ok(())
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
