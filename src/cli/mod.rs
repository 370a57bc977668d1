//! Command-line front end: subcommands `perft`, `bench`, `compiler`, `judge`,
//! `match`, `book` (build / probe / suite), `datagen` and `tune`. With no
//! arguments the binary is a protocol
//! engine on stdin/stdout.
//!
//! Errors go to stderr with exit code 2; results go to stdout.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use chuhan::book;
use chuhan::fen::START_FEN;

mod book_cmd;
mod datagen;
mod judge;
mod matches;
mod perft;
mod tune;

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
    /// Search a fixed set of positions (default: 16 MB, 1 thread, depth 11,
    /// the built-in positions); the last line is `<nodes> nodes <nps> nps`, a
    /// deterministic signature of the search. Stockfish's argument order.
    Bench {
        /// `[hash MB] [threads] [limit] [default|current|FILE] [depth|nodes|movetime]`
        #[arg(num_args = 0..=5, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// How this binary was built: compiler, target, CPU features, profile, commit.
    Compiler,
    /// Print the static evaluation of a position term by term (as the
    /// protocol's `eval`): each side's middlegame and endgame sums, the
    /// phase, the scale factor and the final score.
    Eval {
        /// The position (default: the start position); the FEN's fields may
        /// be given as separate arguments.
        #[arg(num_args = 0.., allow_hyphen_values = true)]
        fen: Vec<String>,
        /// Accept advisors, elephants and soldiers on points no game reaches
        /// (composed test positions); other validation still applies.
        #[arg(long)]
        relaxed: bool,
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
    /// Self-play training data: games from the opening suite, one record
    /// per searched position (format: README "Tuning").
    Datagen {
        /// Number of games.
        #[arg(long)]
        games: u64,
        /// Nodes per move.
        #[arg(long, conflicts_with = "depth", required_unless_present = "depth")]
        nodes: Option<u64>,
        /// Depth per move (instead of --nodes).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Games played at once (one search thread each).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Seed of the random plies (the file depends only on it and the settings).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random legal plies after the suite position.
        #[arg(long, default_value_t = 2)]
        random_plies: usize,
        /// Draw the random plies again (up to 8 times) while a search scores the result beyond this.
        #[arg(long, default_value_t = 300)]
        max_start_score: i32,
        /// Table size per game thread, MB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
        hash: u32,
        /// Leave out positions in check, with a capture as best move or a mate score.
        #[arg(long)]
        quiet_only: bool,
        /// Resign adjudication: |score| at least this for --resign-plies plies in a row.
        #[arg(long, default_value_t = 1000)]
        resign_score: i32,
        /// Plies of the resign adjudication (0: off).
        #[arg(long, default_value_t = 6)]
        resign_plies: usize,
        /// Draw adjudication: |score| at most this for --draw-plies plies in a row, from ply --draw-from on.
        #[arg(long, default_value_t = 10)]
        draw_score: i32,
        /// Plies of the draw adjudication (0: off).
        #[arg(long, default_value_t = 12)]
        draw_plies: usize,
        /// First ply (after the suite position) of the draw adjudication.
        #[arg(long, default_value_t = 80)]
        draw_from: usize,
        /// A game still going after this many searched plies is a draw.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// File to write (replaced).
        #[arg(short, long)]
        output: std::path::PathBuf,
    },
    /// Texel tuning of every evaluation weight from a datagen file; writes
    /// the tuned weights as the Rust source of src/eval/weights.rs.
    Tune {
        /// Records written by `chuhan datagen`.
        file: std::path::PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 60)]
        epochs: usize,
        /// Positions per Adam step.
        #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
        batch: u64,
        /// Threads.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Weight of the game result in the target; the rest is the search score's (0..1).
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
        /// Use at most this many positions (the first in the file).
        #[arg(long)]
        limit: Option<usize>,
        /// Adam step size (centipawns per step).
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Step size factor per epoch.
        #[arg(long, default_value_t = 0.97)]
        decay: f64,
        /// Logistic scale (default: fitted).
        #[arg(long)]
        k: Option<f64>,
        /// Keep positions flagged in check, capture or mate.
        #[arg(long)]
        noisy: bool,
        /// Share of the positions (the last games of the file) held out of the fit, to watch over-fitting.
        #[arg(long, default_value_t = 0.1)]
        holdout: f64,
        /// L2 pull toward the compiled weights (reg * (w - w0)^2 per parameter).
        #[arg(long, default_value_t = 0.0)]
        reg: f64,
        /// Seed of the batch order.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Tune only these weights.rs constants (comma-separated names, e.g.
        /// HANGING,PINNED); the rest keep their values.
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
        /// The weights.rs to write.
        #[arg(short, long)]
        output: std::path::PathBuf,
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
        Some(Command::Bench { args }) => perft::run_bench(&args),
        Some(Command::Eval { fen, relaxed }) => perft::run_eval(&fen.join(" "), relaxed),
        Some(Command::Compiler) => {
            println!("{}", chuhan::build_info::compiler_text());
            ExitCode::SUCCESS
        }
        Some(Command::Judge { fen, moves, rules, limit, relaxed, explain }) => {
            judge::run_judge(&fen, &moves, &rules, &limit, relaxed, explain)
        }
        Some(Command::Match { args }) => matches::run_match(&args),
        Some(Command::Book { action }) => book_cmd::run_book(action),
        Some(Command::Datagen {
            games,
            nodes,
            depth,
            threads,
            seed,
            random_plies,
            max_start_score,
            hash,
            quiet_only,
            resign_score,
            resign_plies,
            draw_score,
            draw_plies,
            draw_from,
            max_plies,
            output,
        }) => {
            let limit = match (nodes, depth) {
                (_, Some(d)) => chuhan::tune::datagen::Limit::Depth(d),
                (Some(n), None) => chuhan::tune::datagen::Limit::Nodes(n),
                (None, None) => unreachable!("clap requires --nodes or --depth"),
            };
            let cfg = chuhan::tune::datagen::Config {
                games,
                limit,
                threads: threads as usize,
                seed,
                random_plies,
                max_start_score,
                hash_mb: hash as usize,
                quiet_only,
                resign_score,
                resign_plies,
                draw_from_ply: draw_from,
                draw_score,
                draw_plies,
                max_plies,
            };
            datagen::run_datagen(cfg, &output)
        }
        Some(Command::Tune {
            file,
            epochs,
            batch,
            threads,
            lambda,
            limit,
            lr,
            decay,
            k,
            noisy,
            holdout,
            reg,
            seed,
            only,
            output,
        }) => {
            let valid = (0.0..=1.0).contains(&lambda) && (0.0..1.0).contains(&holdout) && reg >= 0.0 && reg.is_finite();
            if !valid {
                eprintln!("error: --lambda must be in [0, 1], --holdout in [0, 1), --reg >= 0");
                return ExitCode::from(2);
            }
            if k.is_some_and(|k| !(k > 0.0 && k.is_finite()))
                || !(lr > 0.0 && lr.is_finite())
                || !(decay > 0.0 && decay <= 1.0)
            {
                eprintln!("error: --k and --lr must be positive, --decay in (0, 1]");
                return ExitCode::from(2);
            }
            let config = chuhan::tune::texel::TuneConfig {
                epochs,
                batch: batch as usize,
                lambda,
                learning_rate: lr,
                decay,
                seed,
                k,
                reg,
            };
            tune::run_tune(tune::TuneArgs {
                file: &file,
                output: &output,
                threads: threads as usize,
                limit,
                noisy,
                holdout,
                only: &only,
                config,
            })
        }
    }
}

/// Reads a text input (regular files only, at most [`chuhan::files::TEXT_LIMIT`] bytes).
pub(crate) fn read_text(path: &std::path::Path) -> Result<String, ExitCode> {
    chuhan::files::read_text(path).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

pub(crate) fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), ExitCode> {
    std::fs::write(path, bytes).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", path.display());
        ExitCode::from(2)
    })
}
