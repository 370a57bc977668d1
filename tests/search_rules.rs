//! The rules module inside the search: repetition
//! verdicts as scores (docs/rules.md section 3), the root avoiding a move that
//! completes a forbidden repetition, and the rule set option changing the
//! verdict. Positions and move sequences are from docs/rules.md 3.4.

use std::sync::Arc;

use chuhan::moves::Move;
use chuhan::position::Position;
use chuhan::rules::{forbidden_moves, play_moves, RuleSet};
use chuhan::score::{mated_in, MATE_BOUND};
use chuhan::search::{CollectingReporter, Engine, NullReporter, SearchResult, SearchSignals};
use chuhan::time::SearchLimits;

/// docs/rules.md T01: the red chariot checks along ranks 9 and 8.
const T01: &str = "3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1";
/// T01's cycle: `i0i9` then `d9d8 i9i8 d8d9 i8i9` and again.
const T01_TWICE: [&str; 8] = ["i0i9", "d9d8", "i9i8", "d8d9", "i8i9", "d9d8", "i9i8", "d8d9"];
/// docs/rules.md T14: one check, one chase (asian: draw; chinese: red loses).
const T14: &str = "3k5/9/c8/8R/9/9/9/9/9/5K3 w - - 0 1";
const T14_CYCLE: [&str; 8] = ["i6i9", "d9d8", "i9i7", "a7a6", "i7i8", "d8d9", "i8i6", "a6a7"];

fn after(fen: &str, moves: &[&str]) -> Position {
    play_moves(fen, false, moves.iter().copied()).unwrap()
}

fn mv(pos: &Position, text: &str) -> Move {
    pos.parse_move(text).unwrap()
}

fn search(pos: &Position, rules: RuleSet, depth: u32, root: Option<&[Move]>) -> SearchResult {
    let mut e = Engine::new(16, 1);
    e.options_mut().rules = rules;
    e.search(pos, &SearchLimits::depth(depth), root, Arc::new(SearchSignals::default()), &mut NullReporter)
}

fn t14_twice() -> Position {
    let moves: Vec<&str> = T14_CYCLE.iter().chain(T14_CYCLE.iter()).copied().collect();
    after(T14, &moves)
}

#[test]
fn t01_engine_does_not_complete_a_forbidden_perpetual_check() {
    // Red to move; i8i9 would be the third occurrence of the position after
    // i0i9 with red checking on every move: red would lose (docs/rules.md 3.2).
    let pos = after(T01, &T01_TWICE);
    let check = mv(&pos, "i8i9");
    assert!(pos.gives_check(check));
    for rules in [RuleSet::Asian, RuleSet::Chinese] {
        assert_eq!(forbidden_moves(&pos, rules).to_vec(), vec![check], "{rules}");
        let r = search(&pos, rules, 6, None);
        let best = r.best.unwrap();
        assert_ne!(best, check, "{rules}: played the forbidden perpetual check");
        assert!(pos.is_legal(best));
        // A chariot against a bare general is not lost for red.
        assert!(r.score.0 > -MATE_BOUND, "{rules}: {:?}", r.score);
    }
}

#[test]
fn t01_root_filter_combines_with_banmoves() {
    let pos = after(T01, &T01_TWICE);
    let check = mv(&pos, "i8i9");
    let quiet = mv(&pos, "i8h8");
    // Of the two moves left by banmoves, the forbidden one is avoided: it is
    // not even searched (with MultiPV 2 only one line comes out).
    let mut e = Engine::new(16, 1);
    e.options_mut().multipv = 2;
    let mut rep = CollectingReporter::default();
    let r =
        e.search(&pos, &SearchLimits::depth(4), Some(&[check, quiet]), Arc::new(SearchSignals::default()), &mut rep);
    assert_eq!(r.best, Some(quiet));
    assert!(!rep.lines.is_empty() && rep.lines.iter().all(|l| l.multipv == 1 && l.pv[0] == quiet), "{:?}", rep.lines);
    // If it is the only move left, it is searched and scores as a loss by rule
    // (mated_in(1): the verdict comes at ply 1).
    let r = search(&pos, RuleSet::Asian, 4, Some(&[check]));
    assert_eq!(r.best, Some(check));
    assert_eq!(r.score, mated_in(1));
}

#[test]
fn engine_wins_when_the_opponent_can_only_hold_by_a_forbidden_perpetual() {
    // T01 with two black chariots on a1 and b1 threatening a1a0 mate: red can
    // only keep checking. The cycle has been played twice but for black's last
    // move; black, in check, keeps the repetition going with d8d9, after which
    // red's check i8i9 completes its forbidden perpetual and anything else
    // gets mated.
    let fen = "3k5/9/9/9/9/9/9/9/rr7/5K2R w - - 0 1";
    let pos = after(fen, &T01_TWICE[..7]);
    assert!(pos.in_check());
    let r = search(&pos, RuleSet::Asian, 8, None);
    assert_eq!(r.best, Some(mv(&pos, "d8d9")), "score {:?}", r.score);
    assert!(r.score.0 >= MATE_BOUND, "the score shows the win: {:?}", r.score);
}

#[test]
fn t14_rule_set_changes_the_verdict_in_the_search() {
    // After the cycle twice, i6i9 completes the third occurrence: a draw under
    // asian rules, a loss for red (one check, one chase) under chinese rules.
    let pos = t14_twice();
    let check = mv(&pos, "i6i9");
    assert!(forbidden_moves(&pos, RuleSet::Asian).is_empty());
    assert_eq!(forbidden_moves(&pos, RuleSet::Chinese).to_vec(), vec![check]);
    let only = [check];
    let asian = search(&pos, RuleSet::Asian, 4, Some(&only));
    assert_eq!(asian.best, Some(check));
    assert_eq!(asian.score.0, 0, "asian: the repetition is a draw");
    let chinese = search(&pos, RuleSet::Chinese, 4, Some(&only));
    assert_eq!(chinese.best, Some(check));
    assert_eq!(chinese.score, mated_in(1), "chinese: red loses by rule");
    // Free to choose, the engine avoids the move under chinese rules.
    let r = search(&pos, RuleSet::Chinese, 5, None);
    assert_ne!(r.best, Some(check));
}

#[test]
fn a_verdict_learnt_with_a_history_does_not_leak_through_the_table() {
    // The position of the test above, searched with its history: after d8d9
    // (seen once before the root) red can only complete the forbidden
    // perpetual or be mated, so "red loses" there. That verdict's span starts
    // before the root and runs through the root move, so it holds on this path
    // only: the root stores its mate, the node after d8d9 does not. The same
    // position from its FEN alone, without that history, is an ordinary
    // position: the table keys the two apart (the seen bit), so probing it
    // finds nothing learnt from the history.
    let fen = "3k5/9/9/9/9/9/9/9/rr7/5K2R w - - 0 1";
    let with_history = after(fen, &T01_TWICE[..7]);
    let mut e = Engine::new(16, 1);
    let r =
        e.search(&with_history, &SearchLimits::depth(8), None, Arc::new(SearchSignals::default()), &mut NullReporter);
    assert!(r.score.0 >= MATE_BOUND, "{:?}", r.score);
    let mut seen = with_history.clone();
    seen.make_move(mv(&seen, "d8d9"));
    let learnt = e.probe(&seen).expect("the position after d8d9 was searched");
    // Only the move is kept (the entry's score is not one any search trusts).
    assert!(learnt.best.is_some() && learnt.score.is_none_or(|s| s.0.abs() < MATE_BOUND), "{learnt:?}");
    let at_root = e.probe(&with_history).expect("the root was stored");
    assert!(at_root.score.is_some_and(|s| s.0 >= MATE_BOUND), "{at_root:?}");
    let alone = Position::from_fen(&seen.to_fen()).unwrap();
    assert_eq!(alone.key(), seen.key());
    assert_eq!(e.probe(&alone), None, "the verdict of the history leaked to the bare position");
}

/// A forbidden perpetual found inside the search gives mate-band scores to the
/// nodes between the cycle's first occurrence and its return; those scores
/// hold only on that path, so they must not be stored for the positions in
/// between, where another path (or another root) would read them as proven
/// mates. Here red's chariot i8 can check the general d9 around the cycle
/// i8i9 d9d8 i9i8 d8d9 back to the root; after i8i9 d9d8 i9i8 the return
/// d8d9 wins for black on this path only. From another root the same
/// position (the chariot's check from i0 to i8) is nothing of the kind.
#[test]
fn perpetual_verdicts_do_not_leave_mates_in_the_table() {
    let root = Position::from_fen("3k5/8R/9/9/9/9/9/9/9/5K3 w - - 0 1").unwrap();
    let inside = after("3k5/8R/9/9/9/9/9/9/9/5K3 w - - 0 1", &["i8i9", "d9d8", "i9i8"]);
    let mut e = Engine::new(16, 1);
    let mut found = 0;
    // Red also stalemates at once with i8e8 (a win): searching only the
    // checking move keeps the search on the cycle, where mate distance
    // pruning would otherwise cut the line short of storing anything.
    let only = [mv(&root, "i8i9")];
    let mut scores = Vec::new();
    for depth in [4, 6, 8] {
        let signals = Arc::new(SearchSignals::default());
        let r = e.search(&root, &SearchLimits::depth(depth), Some(&only), signals, &mut NullReporter);
        scores.push((depth, r.score.0, r.best));
        // The position after i8i9 d9d8 i9i8 reached fresh (no history): whatever the
        // table holds for it is not a mate.
        let fresh = Position::from_fen(&inside.to_fen()).unwrap();
        if let Some(p) = chuhan::search::probe_table(&e.table(), &fresh) {
            found += 1;
            assert!(
                p.score.is_none_or(|s| s.0.abs() < MATE_BOUND),
                "depth {depth}: stored {:?} {:?}",
                p.score,
                p.bound
            );
        }
    }
    assert!(found > 0, "the search never stored the position inside the cycle: {scores:?}");
    // The same position reached by another path (the chariot checking from i0)
    // in a later search with the same table: the verdict is the one a fresh
    // table gives (the chariot's real win: red mates; the length may differ,
    // the table's entries order the moves differently).
    let other = Position::from_fen("9/3k5/9/9/9/9/9/9/9/5K2R w - - 0 1").unwrap();
    let limits = SearchLimits::depth(8);
    let reused = e.search(&other, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
    let fresh = Engine::new(16, 1).search(&other, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
    let wins = |m: Option<i32>| m.is_some_and(|n| n > 0);
    assert!(wins(fresh.score.mate_moves()) && wins(reused.score.mate_moves()), "{:?} {:?}", reused.score, fresh.score);
}
