//! Repetition verdicts from tests/data: docs/rules.md 3.4 (both rule sets) and
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

/// Cases where docs/rules.md (our specification) gives a different verdict from
/// the one the source records, with the docs/rules.md verdict and why. They are
/// asserted with the docs/rules.md verdict and reported. None at present: every
/// uncontested case is asserted with its source's verdict.
const SPEC_DIFFERS: &[(&str, &str, &str)] = &[];

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
                reported.push(format!("{}: source {}, docs/rules.md {spec} ({why})", case.id, case.expected));
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

/// Cases of repetition.txt whose Chinese verdict (docs/rules.md 3.3) differs from
/// the Asian one, with the reason.
const CHINESE_DIFFERS: &[(&str, &str, &str)] = &[
    (
        "FSF-03",
        "Draw",
        "red chases the a6/b6 chariot every move, black's chariot chases the two red cannons \
         alternately: chasing several pieces is forbidden too, both sides forbidden -> draw",
    ),
    ("FSF-05", "Black wins", "red alternates a chase and a check (一将一捉), black is idle"),
    ("FSF-10", "Red wins", "black alternates a check-and-chase and a chase, red is idle"),
    (
        "FSF-19",
        "Black wins",
        "the red cannon attacks one of the black chariots on every move (several victims), \
         black's chariot moves are idle",
    ),
];

/// The repetition.txt cases under Chinese rules. The file records AXF
/// verdicts; the Chinese verdict equals the Asian one except for the cases
/// in [`CHINESE_DIFFERS`] (docs/rules.md 3.3 forbids everything that docs/rules.md 3.2
/// forbids in these cases, and more). The contested case is only reported.
#[test]
fn repetition_txt_chinese() {
    for case in repetition_txt() {
        let asian = run(&case, RuleSet::Asian);
        let chinese = run(&case, RuleSet::Chinese);
        println!("{:8} asian: {asian:40} chinese: {chinese}", case.id);
        if case.expected.contains("contested") {
            continue;
        }
        let expected = match CHINESE_DIFFERS.iter().find(|(id, _, _)| *id == case.id) {
            Some((_, verdict, _)) => verdict,
            None => result_text(&asian),
        };
        assert_eq!(result_text(&chinese), expected, "{}: chinese {chinese}, asian {asian}", case.id);
        if case.id.starts_with("XQJS") {
            assert_prefixes(&case, RuleSet::Chinese, chinese.result, true);
        }
    }
}

/// Random shuffles in sparse endgames: the counting filter never hides a
/// repetition, `probe` agrees with a direct scan of the state stack, and
/// push/pop leave the filter as a fresh reset would.
#[test]
fn detector_agrees_with_a_direct_scan() {
    use chuhan::rules::repetition::{earlier_occurrences, judge_span};
    use chuhan::rules::RepetitionDetector;
    use chuhan::Position;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    let fens = [
        "4k4/9/n8/9/9/9/1R7/9/9/3K5 w - - 0 1",
        "3k5/9/c8/8R/9/9/9/9/9/5K3 w - - 0 1",
        "5k3/9/c8/9/3R5/9/9/3A5/9/3K5 w - - 0 1",
    ];
    let mut rng = StdRng::seed_from_u64(5);
    let (mut hits, mut verdicts) = (0, 0);
    for fen in fens {
        for rules in [RuleSet::Asian, RuleSet::Chinese] {
            let mut pos = Position::from_fen(fen).unwrap();
            let mut det = RepetitionDetector::new(rules);
            det.reset(&pos);
            let root = 6;
            for _ in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer undoing the opponent's last idea: pick among few moves to repeat often.
                let m = moves[rng.gen_range(0..moves.len().min(3))];
                pos.make_move(m);
                det.push(pos.key());
                let occ: Vec<usize> = earlier_occurrences(&pos).collect();
                if !occ.is_empty() {
                    hits += 1;
                    assert!(det.may_repeat(&pos), "filter missed a repetition");
                }
                let expected = match occ.as_slice() {
                    [first, ..] if *first >= root => Some(*first),
                    [_, second, ..] => Some(*second),
                    _ => None,
                }
                .map(|start| judge_span(&pos, start, rules).for_side(pos.side_to_move()));
                let got = if pos.game_ply() > root { det.probe(&pos, root) } else { None };
                if pos.game_ply() > root {
                    assert_eq!(got, expected);
                    verdicts += got.is_some() as u32;
                }
            }
            while pos.game_ply() > 0 {
                det.pop(pos.key());
                pos.unmake_move();
            }
            // Only the root is left in the filter.
            assert!(!det.may_repeat(&pos));
        }
    }
    assert!(hits > 20 && verdicts > 10, "hits {hits}, verdicts {verdicts}");
}

/// Seeded random games, judged after every ply under both rule sets: the
/// judge never panics, an ended game stays consistent (a side with no legal
/// move lost), and judging is the same on a clone of the history.
#[test]
fn random_games_are_judged_consistently() {
    use chuhan::Position;
    use rand::{rngs::StdRng, Rng, SeedableRng};

    let mut rng = StdRng::seed_from_u64(55);
    let mut ended = 0;
    for _game in 0..12 {
        let mut pos = Position::startpos();
        for _ply in 0..160 {
            let moves = pos.legal_moves();
            for set in [RuleSet::Asian, RuleSet::Chinese] {
                let o = judge(&pos, &Rules::from(set));
                assert_eq!(judge(&pos.clone(), &Rules::from(set)), o);
                if moves.is_empty() {
                    assert!(matches!(o.reason, Reason::Checkmate | Reason::Stalemate));
                    assert_eq!(
                        o.result,
                        if pos.side_to_move() == chuhan::Color::Red {
                            GameResult::BlackWins
                        } else {
                            GameResult::RedWins
                        }
                    );
                }
            }
            if moves.is_empty() {
                ended += 1;
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            pos.make_move(m);
        }
    }
    println!("{ended} random games ended by mate or stalemate");
}

/// `explain_game` on every data case under both rule sets: the same verdict as
/// the judge, a span for every repetition verdict whose moves are the game's
/// last moves, and side summaries that add up to the span.
#[test]
fn explanations_agree_with_the_judge() {
    use chuhan::rules::explain::explain_game;
    use chuhan::rules::judge_game;
    let mut spans = 0;
    for case in repetition_txt() {
        for set in [RuleSet::Asian, RuleSet::Chinese] {
            let rules = Rules::from(set);
            let moves = case.moves.iter().map(|s| s.as_str());
            let (outcome, played) = judge_game(&case.fen, false, moves.clone(), &rules).unwrap();
            let x = explain_game(&case.fen, false, moves, &rules).unwrap();
            assert_eq!((x.outcome, x.played), (outcome, played), "{} {set}", case.id);
            let repetition = matches!(outcome.reason, Reason::Repetition | Reason::Violation { .. });
            assert_eq!(x.span.is_some(), repetition, "{} {set}", case.id);
            if let Some(span) = &x.span {
                spans += 1;
                assert_eq!(span.start + span.moves.len(), played, "{} {set}", case.id);
                for (m, text) in span.moves.iter().zip(&case.moves[span.start..played]) {
                    assert_eq!(&m.iccs, text);
                    assert!(!m.chinese.is_empty());
                }
                let total: usize = span.sides.iter().map(|s| s.summary.moves).sum();
                assert_eq!(total, span.moves.len());
                assert!(x.to_string().starts_with(&format!("{outcome}\n")));
            }
        }
    }
    assert!(spans >= 60, "{spans}");
}

/// The search's detector gives the full judgement's verdict at every ply of
/// every case of the data files (both rule sets, roots before, inside and at
/// the end of the cycles), with a fresh class cache and with one warm from
/// the earlier probes: it classifies only the moves the verdict needs, and
/// that never changes the verdict.
#[test]
fn detector_verdicts_equal_the_judge_on_the_data_cases() {
    use chuhan::rules::repetition::{earlier_occurrences, judge_span};
    use chuhan::rules::RepetitionDetector;

    let mut cases = repetition_txt();
    for line in include_str!("data/repetition_reference.txt").lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f = fields(line);
        cases.push(Case {
            id: f[0].clone(),
            expected: String::new(),
            fen: f[3].clone(),
            moves: f[4].split_whitespace().map(String::from).collect(),
        });
    }
    let (mut verdicts, mut losses) = (0, 0);
    for case in &cases {
        for rules in [RuleSet::Asian, RuleSet::Chinese] {
            let mut warm = RepetitionDetector::new(rules);
            for k in 1..=case.moves.len() {
                let pos = play_moves(&case.fen, false, case.moves[..k].iter().map(|s| s.as_str())).unwrap();
                let occ: Vec<usize> = earlier_occurrences(&pos).collect();
                for root in [0, k / 2, k - 1] {
                    let expected = match occ.as_slice() {
                        [first, ..] if *first >= root => Some(*first),
                        [_, second, ..] => Some(*second),
                        _ => None,
                    }
                    .map(|start| judge_span(&pos, start, rules).for_side(pos.side_to_move()));
                    let mut fresh = RepetitionDetector::new(rules);
                    fresh.reset(&pos);
                    warm.reset(&pos);
                    let at = format!("{} under {rules}, {k} plies, root {root}", case.id);
                    assert_eq!(fresh.probe(&pos, root), expected, "{at}");
                    assert_eq!(warm.probe(&pos, root), expected, "{at} (warm cache)");
                    verdicts += expected.is_some() as u32;
                    losses += expected.is_some_and(|v| v != chuhan::rules::RepetitionVerdict::Draw) as u32;
                }
            }
        }
    }
    assert!(verdicts > 300 && losses > 150, "verdicts {verdicts}, losses {losses}");
}
