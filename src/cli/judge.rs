//! `chuhan judge`: the referee's verdict on a game.

use std::io::Write;
use std::process::ExitCode;

use chuhan::rules::{LimitPolicy, RuleSet, Rules};

pub fn run_judge(fen: &str, moves: &str, rules: &str, limit: &str, relaxed: bool) -> ExitCode {
    let Some(set) = RuleSet::parse(rules) else {
        eprintln!("error: unknown rules '{rules}' (expected asian or chinese)");
        return ExitCode::from(2);
    };
    let Some(limit) = LimitPolicy::parse(limit) else {
        eprintln!("error: unknown limit policy '{limit}' (expected capped or plain)");
        return ExitCode::from(2);
    };
    let moves: Vec<&str> = moves.split_whitespace().collect();
    match chuhan::rules::judge_game(fen, relaxed, moves.iter().copied(), &Rules { set, limit }) {
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
