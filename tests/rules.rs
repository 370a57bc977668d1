//! Repetition verdicts from tests/data: rules.md 3.4 (both rule sets) and
//! repetition.txt (AXF cases asserted under Asian rules; contested cases only
//! reported), plus the judge's view of every prefix (no verdict before the
//! final move).

use chuhan::rules::{judge, play_moves, GameResult, Outcome, Reason, RuleSet, Rules};

struct Case {
    id: String,
    expected: String,
    fen: String,
    moves: Vec<String>,
}

fn result_text(o: &Outcome) -> &'static str {
    match o.result {
        GameResult::RedWins => "Red wins",
        GameResult::BlackWins => "Black wins",
        GameResult::Draw => "Draw",
        GameResult::Ongoing => "Undecided",
    }
}

fn run(case: &Case, set: RuleSet) -> Outcome {
    let pos = play_moves(&case.fen, false, case.moves.iter().map(|s| s.as_str()))
        .unwrap_or_else(|e| panic!("{}: {e}", case.id));
    judge(&pos, &Rules::from(set))
}

/// No prefix of the moves ends the game differently: a prefix is ongoing, or
/// (when a position reached its third occurrence a ply early, e.g. the start
/// position of a 4-ply cycle) already has the final result. With `strict`,
/// every prefix must be ongoing.
fn assert_prefixes(case: &Case, set: RuleSet, final_result: GameResult, strict: bool) {
    for k in 0..case.moves.len() {
        let pos = play_moves(&case.fen, false, case.moves[..k].iter().map(|s| s.as_str())).unwrap();
        let o = judge(&pos, &Rules::from(set));
        let ok = o == Outcome::ONGOING || (!strict && o.result == final_result);
        assert!(ok, "{} after {k} plies under {set}: {o}", case.id);
    }
}

fn fields(line: &str) -> Vec<String> {
    line.split(" | ").map(|s| s.trim().to_string()).collect()
}

#[test]
fn reference_verdicts_rules_md() {
    let text = include_str!("data/repetition_reference.txt");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let f = fields(line);
        let moves: Vec<String> = f[4].split_whitespace().map(String::from).collect();
        for (set, expected) in [(RuleSet::Asian, &f[1]), (RuleSet::Chinese, &f[2])] {
            let case = Case { id: f[0].clone(), expected: expected.clone(), fen: f[3].clone(), moves: moves.clone() };
            let o = run(&case, set);
            assert_eq!(result_text(&o), case.expected, "{} under {set}: {o} ({})", case.id, f[5]);
            assert!(o.reason != Reason::Ongoing);
            assert_prefixes(&case, set, o.result, false);
        }
        n += 1;
    }
    assert_eq!(n, 14);
}

fn repetition_txt() -> Vec<Case> {
    include_str!("data/repetition.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f = fields(line);
            Case {
                id: f[0].clone(),
                expected: f[1].clone(),
                fen: f[2].clone(),
                moves: f[3].split_whitespace().map(String::from).collect(),
            }
        })
        .collect()
}

/// Cases where rules.md (our specification) gives a different verdict from
/// the one the source (Fairy-Stockfish's AXF implementation) records, with the
/// rules.md verdict and why. They are asserted with the rules.md verdict and
/// reported.
const SPEC_DIFFERS: &[(&str, &str, &str)] = &[
    (
        "FSF-05",
        "Draw",
        "red's d4f4 re-creates the chase of the f1 soldier but also checks (cannon f4, screen f6): \
         rules.md 3.2 rank 1 needs a side that never checked, so red has rank 0",
    ),
    (
        "FSF-10",
        "Draw",
        "black's b1b3 chases the d3 cannon and discovers check from a1 (screen e1): \
         rules.md 3.2 rank 1 needs a side that never checked",
    ),
    (
        "FSF-21",
        "Draw",
        "black's advisor moves each take away the red horse g8's protection (f9e8 blocks the b8 \
         chariot's x-ray along rank 8, e8f9 removes the a8 cannon's screen), so the f8 chariot \
         newly threatens an unprotected horse every move: a mutual chase under rules.md 3.1",
    ),
    (
        "FSF-22",
        "Draw",
        "red's advisor moves each take away the black horse c1's protection (e1f0 removes the \
         i1 cannon's screen, f0e1 blocks the h1 chariot), so the d1 chariot newly threatens an \
         unprotected horse every move: a mutual chase under rules.md 3.1",
    ),
];

#[test]
fn repetition_txt_asian() {
    let cases = repetition_txt();
    assert_eq!(cases.len(), 36);
    let mut reported = Vec::new();
    for case in &cases {
        let o = run(case, RuleSet::Asian);
        if case.expected.contains("contested") {
            reported.push(format!("{}: contested, source {}, ours {o}", case.id, case.expected));
            continue;
        }
        let expected = match SPEC_DIFFERS.iter().find(|(id, _, _)| *id == case.id) {
            Some((_, spec, why)) => {
                reported.push(format!("{}: source {}, rules.md {spec} ({why})", case.id, case.expected));
                spec
            }
            None => case.expected.as_str(),
        };
        assert_eq!(result_text(&o), expected, "{}: {o}", case.id);
        assert_prefixes(case, RuleSet::Asian, o.result, case.id.starts_with("XQJS"));
    }
    for c in reported {
        println!("reported, not asserted as in the source: {c}");
    }
}

/// The repetition.txt cases under Chinese rules. The file gives AXF verdicts;
/// where CXA 2011 differs the case is reported, not asserted. Asserted here:
/// the plain-repetition cases (XQJS: idle moves only) and every case whose
/// Asian verdict is a perpetual check loss or a draw by mutual check (a
/// one-sided 长将 loses under both rule sets; mutual 长将 draws).
#[test]
fn repetition_txt_chinese() {
    for case in repetition_txt() {
        let asian = run(&case, RuleSet::Asian);
        let chinese = run(&case, RuleSet::Chinese);
        let same_by_rule = case.id.starts_with("XQJS")
            || matches!(asian.reason, Reason::Violation { violation: chuhan::rules::Violation::PerpetualCheck, .. });
        if same_by_rule {
            assert_eq!(chinese.result, asian.result, "{}: chinese {chinese}, asian {asian}", case.id);
        }
        println!("{:8} asian: {asian:40} chinese: {chinese}", case.id);
    }
}
