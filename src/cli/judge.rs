//! `chuhan judge`: the referee's verdict on a game; with `--explain`, the
//! deciding span move by move ([`chuhan::rules::explain`], docs/rules.md section 3).

use std::io::Write;
use std::process::ExitCode;

use chuhan::rules::{LimitPolicy, RuleSet, Rules};

pub fn run_judge(fen: &str, moves: &str, rules: &str, limit: &str, relaxed: bool, explain: bool) -> ExitCode {
    let Some(set) = RuleSet::parse(rules) else {
        eprintln!("error: unknown rules '{rules}' (expected asian or chinese)");
        return ExitCode::from(2);
    };
    let Some(limit) = LimitPolicy::parse(limit) else {
        eprintln!("error: unknown limit policy '{limit}' (expected capped or plain)");
        return ExitCode::from(2);
    };
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let rules = Rules { set, limit };
    if explain {
        return match chuhan::rules::explain::explain_game(fen, relaxed, moves.iter().copied(), &rules) {
            Ok(x) => {
                if x.played < moves.len() {
                    eprintln!(
                        "note: the game ended after move {}; the {} later move(s) are ignored",
                        x.played,
                        moves.len() - x.played
                    );
                }
                let _ = write!(std::io::stdout(), "{x}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        };
    }
    match chuhan::rules::judge_game(fen, relaxed, moves.iter().copied(), &rules) {
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
