//! `chuhan match`: the engine-vs-engine referee's command line and progress printer.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use chuhan::tools;

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

pub fn run_match(args: &[String]) -> ExitCode {
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
