//! The repetition-rule concepts of docs/rules.md 3.1-3.3 on positions built to
//! isolate each one, in pairs that differ in the one thing the concept is
//! about: a parry (the cut protection on the attacker's line, or from the
//! side), a chariot pinned by a horse (with and without the pin), a check that
//! also chases (and one that chases nothing), a span made of two different
//! cycles, and the Chinese mate threats (长杀, 一将一杀). Every move sequence
//! is checked legal by the move generator when it is played.

use chuhan::rules::chase::{classify_move, mates_by_checks, MoveClass, MATE_THREAT_DEPTH};
use chuhan::rules::{judge, play_moves, RuleSet, Rules};
use chuhan::{Position, Square};

fn class(fen: &str, mv: &str) -> (Position, MoveClass) {
    let mut pos = Position::from_fen(fen).unwrap();
    let m = pos.parse_move(mv).unwrap();
    let c = classify_move(&mut pos, m, true);
    (pos, c)
}

/// The victim bit of the piece on `sq` in `pos`.
fn bit(pos: &Position, sq: &str) -> u64 {
    1u64 << pos.board().cell(Square::parse(sq).unwrap())
}

fn verdict(fen: &str, moves: &str, set: RuleSet) -> String {
    let pos = play_moves(fen, false, moves.split_whitespace()).unwrap();
    judge(&pos, &Rules::from(set)).to_string()
}

/// Plays `cycle` `times` times (a repetition is judged at the end).
fn cycles(cycle: &str, times: usize) -> String {
    vec![cycle; times].join(" ")
}

// ---- A parry is not a chase: the cut on the attacker's line vs from the side ----

/// The red chariot a5 attacks the black chariot e5, which attacks the red horse
/// f5; the horse is protected only by a5, through e5 (after e5xf5 the line
/// a5-f5 is open). The black horse b7-c5 blocks a5's attack on e5 and so cuts
/// that protection: the new threat on f5 comes from the parry, along the
/// attacker's own line through the attacked chariot's point. No chase.
const PARRY_ON_THE_LINE: &str = "5k3/9/1n7/9/R3rN3/9/9/9/9/3K5 b - - 0 1";
/// The same block b7-c5 of a5's attack (now on the black horse e5), but the
/// protection it cuts runs from the side: the red chariot c1 protects the red
/// cannon c6 along the c-file, and the horse e5 attacks that cannon. A new chase.
const PARRY_FROM_THE_SIDE: &str = "5k3/9/1n7/2C6/R3n4/9/9/9/2R6/3K5 b - - 0 1";

#[test]
fn a_parry_on_the_attackers_line_is_no_chase() {
    let (_, c) = class(PARRY_ON_THE_LINE, "b7c5");
    assert_eq!((c.chased, c.chased_chinese), (0, 0), "{c:?}");
    // Control: before the block the horse is protected, after it it is not:
    // the pair qualifies, only the parry excuses it.
    let mut pos = Position::from_fen(PARRY_ON_THE_LINE).unwrap();
    let m = pos.parse_move("b7c5").unwrap();
    let threats = chuhan::rules::chase::new_threats(&mut pos, m);
    assert_eq!(threats.len(), 1, "{threats:?}");
    assert_eq!(threats[0].victim, Square::parse("f5").unwrap());
    assert!(matches!(threats[0].excuse, Some(chuhan::rules::chase::Excuse::Parry { .. })));
}

#[test]
fn a_protection_cut_from_the_side_is_a_chase() {
    let (pos, c) = class(PARRY_FROM_THE_SIDE, "b7c5");
    assert_eq!(c.chased, bit(&pos, "c6"));
    assert_eq!(c.chased_chinese, bit(&pos, "c6"));
}

/// A whole repetition decided by the parry rule, with no pin anywhere: the red
/// cannon a8 attacks the black chariot f8 through one screen, alternately the
/// black advisor e8 and the red horse c8; black parries each attack (e8-f9
/// takes its screen away, f9-e8 makes a second screen), and every parry cuts
/// a8's protection of the red horse g8, which ran through f8. Red chases the
/// chariot on every move; black's moves are parries, not chases: red loses.
/// (Counting the cut protections as chases would make it a mutual chase and a draw.)
const PARRIES: &str = "3k5/C3arN2/9/1N7/9/9/9/9/9/4K4 b - - 0 1";
const PARRIES_CYCLE: &str = "e8f9 b6c8 f9e8 c8b6";

#[test]
fn a_chase_met_by_parries_is_one_sided() {
    let moves = cycles(PARRIES_CYCLE, 2);
    assert_eq!(verdict(PARRIES, &moves, RuleSet::Asian), "0-1 perpetual chase by red");
    assert_eq!(verdict(PARRIES, &moves, RuleSet::Chinese), "0-1 perpetual chase by red");
    let pos = play_moves(PARRIES, false, moves.split_whitespace()).unwrap();
    for (side, c) in chuhan::rules::repetition::classify_span(&pos, 0, true) {
        let red = side == chuhan::Color::Red;
        assert_eq!((c.chased != 0, c.chased_chinese != 0), (red, red), "{side}: {c:?}");
    }
}

// ---- A chariot pinned by a horse: its attack on the pinner is no chase ----

/// The red chariot d1 stands on the leg of the black horse c1 towards the red
/// general e0 (pinned). The red cannon a5-c5 cuts the black chariot c9's
/// protection of the horse (from the side, not a parry): d1 now attacks an
/// unprotected horse, but that horse is its pinner. No chase.
const PINNED: &str = "2r2k3/9/9/9/C8/9/9/9/2nR5/4K4 w - - 0 1";
/// The same with the red general on e1: the horse pins nothing. A chase.
const NOT_PINNED: &str = "2r2k3/9/9/9/C8/9/9/9/2nRK4/9 w - - 0 1";

#[test]
fn a_chariot_pinned_by_a_horse_does_not_chase_its_pinner() {
    let (_, c) = class(PINNED, "a5c5");
    assert_eq!((c.chased, c.chased_chinese), (0, 0), "{c:?}");
    let (pos, c) = class(NOT_PINNED, "a5c5");
    assert_eq!(c.chased, bit(&pos, "c1"));
    assert_eq!(c.chased_chinese, bit(&pos, "c1"));
}

// ---- A check can also be a chase ----

/// h3-h9 checks the general e9 along rank 9 and newly attacks the unprotected
/// black horse i9: check and chase.
const CHECK_AND_CHASE: &str = "4k3n/9/9/9/9/9/7R1/9/9/3K5 w - - 0 1";
/// The same check; the horse is protected by the black chariot i5: only a check.
const CHECK_ONLY: &str = "4k3n/9/9/9/8r/9/7R1/9/9/3K5 w - - 0 1";

#[test]
fn a_check_that_attacks_an_unprotected_piece_is_also_a_chase() {
    let (pos, c) = class(CHECK_AND_CHASE, "h3h9");
    assert!(c.check);
    assert_eq!(c.chased, bit(&pos, "i9"));
    let (_, c) = class(CHECK_ONLY, "h3h9");
    assert!(c.check);
    assert_eq!((c.chased, c.chased_chinese), (0, 0));
}

/// Red cannon a8 behind the red chariot b8 on rank 8; the black cannon d8
/// stands between them and the black advisor e8 and general f8. b8-b6 attacks
/// the cannon (now on d6) and discovers a8's check through the screen e8; d6-d8
/// blocks it; b6-b8 attacks the cannon again. With the cannon unprotected on d6
/// the check also chases it: red chases one piece on every move and loses.
const CHASE_THROUGH_CHECKS: &str = "9/CR1cak3/9/9/9/9/9/9/9/3K5 b - - 0 1";
/// The same with a red soldier on c6: from b6 the chariot no longer sees the
/// cannon on d6, so red's check there chases nothing; red checks once and
/// chases once (Asian: allowed; Chinese: 一将一捉, forbidden).
const CHECK_BREAKS_THE_CHASE: &str = "9/CR1cak3/9/2P6/9/9/9/9/9/3K5 b - - 0 1";
const CANNON_CYCLE: &str = "d8d6 b8b6 d6d8 b6b8";

#[test]
fn a_check_that_also_chases_keeps_the_chase_going() {
    let moves = cycles(CANNON_CYCLE, 2);
    assert_eq!(verdict(CHASE_THROUGH_CHECKS, &moves, RuleSet::Asian), "0-1 perpetual chase by red");
    assert_eq!(verdict(CHECK_BREAKS_THE_CHASE, &moves, RuleSet::Asian), "1/2-1/2 repetition");
    // Chinese: every red move is an attack in both (一将一捉 in the second).
    assert_eq!(verdict(CHASE_THROUGH_CHECKS, &moves, RuleSet::Chinese), "0-1 perpetual chase by red");
    assert_eq!(verdict(CHECK_BREAKS_THE_CHASE, &moves, RuleSet::Chinese), "0-1 perpetual attack by red");
    // The move that differs: b8-b6 checks in both, and chases only unprotected.
    let mut pos = play_moves(CHECK_BREAKS_THE_CHASE, false, ["d8d6"]).unwrap();
    let m = pos.parse_move("b8b6").unwrap();
    let c = classify_move(&mut pos, m, false);
    assert!(c.check && c.chased == 0, "{c:?}");
    let mut pos = play_moves(CHASE_THROUGH_CHECKS, false, ["d8d6"]).unwrap();
    let m = pos.parse_move("b8b6").unwrap();
    let c = classify_move(&mut pos, m, false);
    assert!(c.check && c.chased != 0, "{c:?}");
}

// ---- A span of two different cycles ----

/// T04's chase (the red chariot b3 against the unprotected black horse a7),
/// with an unprotected black cannon on c4 that the chariot can chase instead.
const TWO_VICTIMS: &str = "4k4/9/n8/9/9/2c6/1R7/9/9/3K5 w - - 0 1";
/// Red chases the horse: b3-a3 attacks a7, the horse flees to b9 or b5, and
/// b3 attacks it again on the b-file.
const HORSE_VIA_B9: &str = "b3a3 a7b9 a3b3 b9a7";
const HORSE_VIA_B5: &str = "b3a3 a7b5 a3b3 b5a7";
/// Red chases the cannon: b3-c3 attacks c4, the cannon steps to b4, b3 attacks it there.
const CANNON: &str = "b3c3 c4b4 c3b3 b4c4";

#[test]
fn a_mixed_span_is_judged_whole() {
    for (cycle_a, cycle_b, asian, chinese) in [
        // Two different routes, the same victim on every red move: red loses under both.
        (HORSE_VIA_B9, HORSE_VIA_B5, "0-1 perpetual chase by red", "0-1 perpetual chase by red"),
        // Different victims in the two cycles: the Asian rules need one victim
        // throughout (draw); the Chinese rules forbid chasing several (red loses).
        (HORSE_VIA_B9, CANNON, "1/2-1/2 repetition", "0-1 perpetual chase by red"),
        (CANNON, HORSE_VIA_B5, "1/2-1/2 repetition", "0-1 perpetual chase by red"),
        // The same cycle twice, as a control.
        (CANNON, CANNON, "0-1 perpetual chase by red", "0-1 perpetual chase by red"),
    ] {
        let moves = format!("{cycle_a} {cycle_b}");
        let pos = play_moves(TWO_VICTIMS, false, moves.split_whitespace()).unwrap();
        // The start position's third occurrence: the span is both cycles.
        assert_eq!(chuhan::rules::repetition::threefold_span_start(&pos), Some(0), "{moves}");
        assert_eq!(verdict(TWO_VICTIMS, &moves, RuleSet::Asian), asian, "{moves}");
        assert_eq!(verdict(TWO_VICTIMS, &moves, RuleSet::Chinese), chinese, "{moves}");
        // No earlier ply ends the game.
        for k in 0..8 {
            let prefix: Vec<&str> = moves.split_whitespace().take(k).collect();
            let pos = play_moves(TWO_VICTIMS, false, prefix.iter().copied()).unwrap();
            assert!(!judge(&pos, &Rules::from(RuleSet::Chinese)).is_over(), "{moves} after {k}");
        }
    }
}

// ---- Chinese rules: mate threats (杀) ----

/// 长杀: the red chariot g1 mates by g1-f1 whenever the black general f9
/// cannot step to e9. With the red cannon on g4 the e-file is open (e9 faces
/// the red general e1); with it on e4 and the black elephant on e7 as its
/// screen, the cannon covers e9. Red shuttles the cannon e4-g4 and back, each
/// time threatening f1 mate (never checking); black parries by shuttling the
/// elephant c9-e7 (on e7 it closes the e-file, on c9 it leaves the cannon
/// without a screen).
const LONG_MATE_THREAT: &str = "2b2k3/9/9/9/9/4C4/9/9/4K1R2/9 w - - 0 1";
const LONG_MATE_THREAT_CYCLE: &str = "e4g4 c9e7 g4e4 e7c9";

/// 一将一杀: the lone red chariot against the lone black general d8, the red
/// general e0 covering the e-file. h9-h8 checks (the general goes to d7);
/// h8-h9 then threatens d9 mate (d8 is on the chariot's file, e7 faces the
/// red general); the general goes back to d8, where it could take a chariot on d9.
const CHECK_AND_MATE_THREAT: &str = "7R1/3k5/9/9/9/9/9/9/9/4K4 w - - 0 1";
const CHECK_AND_MATE_THREAT_CYCLE: &str = "h9h8 d8d7 h8h9 d7d8";

/// Whether the side to move, in `fen` after `moves`, could mate by checks
/// within the mate-threat horizon if it were to move (the opponent passing).
fn threatens(fen: &str, moves: &[&str]) -> bool {
    let mut pos = play_moves(fen, false, moves.iter().copied()).unwrap();
    pos.make_null_move();
    mates_by_checks(&mut pos, MATE_THREAT_DEPTH)
}

#[test]
fn perpetual_mate_threat() {
    let cycle: Vec<&str> = LONG_MATE_THREAT_CYCLE.split_whitespace().collect();
    // Each red move creates the threat (none before it), each black move removes it.
    for k in [1, 3] {
        assert!(threatens(LONG_MATE_THREAT, &cycle[..k]), "after red's {k}");
        assert!(!threatens(LONG_MATE_THREAT, &cycle[..k - 1]), "before red's {k}");
    }
    // The threatened mate itself: after e4g4, g1f1 is mate (the general has no move).
    let mut pos = play_moves(LONG_MATE_THREAT, false, ["e4g4"]).unwrap();
    pos.make_null_move();
    let m = pos.parse_move("g1f1").unwrap();
    pos.make_move(m);
    assert!(pos.in_check() && pos.legal_moves().is_empty());
    let moves = cycles(LONG_MATE_THREAT_CYCLE, 2);
    assert_eq!(verdict(LONG_MATE_THREAT, &moves, RuleSet::Asian), "1/2-1/2 repetition");
    assert_eq!(verdict(LONG_MATE_THREAT, &moves, RuleSet::Chinese), "0-1 perpetual mate threat by red");
    // The classification: no red move checks or chases.
    let pos = play_moves(LONG_MATE_THREAT, false, moves.split_whitespace()).unwrap();
    let classes = chuhan::rules::repetition::classify_span(&pos, 0, true);
    for (side, c) in &classes {
        let red = *side == chuhan::Color::Red;
        assert_eq!((c.check, c.chased_chinese, c.mate_threat), (false, 0, red), "{side}: {c:?}");
    }
}

#[test]
fn one_check_one_mate_threat() {
    let cycle: Vec<&str> = CHECK_AND_MATE_THREAT_CYCLE.split_whitespace().collect();
    assert!(threatens(CHECK_AND_MATE_THREAT, &cycle[..3]));
    assert!(!threatens(CHECK_AND_MATE_THREAT, &cycle[..2]));
    // The threatened mate: h9d9 with the general on d7.
    let mut pos = play_moves(CHECK_AND_MATE_THREAT, false, cycle[..3].iter().copied()).unwrap();
    pos.make_null_move();
    let m = pos.parse_move("h9d9").unwrap();
    pos.make_move(m);
    assert!(pos.in_check() && pos.legal_moves().is_empty());
    let moves = cycles(CHECK_AND_MATE_THREAT_CYCLE, 2);
    // Asian: one check, one (allowed) mate threat: a draw. Chinese: 一将一杀 is forbidden.
    assert_eq!(verdict(CHECK_AND_MATE_THREAT, &moves, RuleSet::Asian), "1/2-1/2 repetition");
    assert_eq!(verdict(CHECK_AND_MATE_THREAT, &moves, RuleSet::Chinese), "0-1 perpetual attack by red");
    // Control: with the red general on f0 instead of e0 the e-file is open to the
    // black general (d7-e7 escapes), h8h9 threatens nothing, and red's moves are
    // one check and one idle move: allowed under both rule sets.
    let fen = "7R1/3k5/9/9/9/9/9/9/9/5K3 w - - 0 1";
    assert!(!threatens(fen, &cycle[..3]));
    assert_eq!(verdict(fen, &moves, RuleSet::Chinese), "1/2-1/2 repetition");
}
