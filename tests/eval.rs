//! Evaluation invariants: colour symmetry (flipping the board and swapping
//! colours and the side to move gives the same score), left-right mirror
//! symmetry, the incremental material + PST sums agreeing with a recompute
//! along seeded random games, and a few known judgements (drawish endgames
//! scaled down, material dominates).

use chuhan::eval::evaluate;
use chuhan::position::{Position, Psq};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

fn expand(row: &str) -> Vec<char> {
    let mut v = Vec::new();
    for c in row.chars() {
        match c.to_digit(10) {
            Some(n) => v.extend(std::iter::repeat_n('.', n as usize)),
            None => v.push(c),
        }
    }
    v
}

fn compress(cells: &[char]) -> String {
    let mut s = String::new();
    let mut empty = 0;
    for &c in cells {
        if c == '.' {
            empty += 1;
        } else {
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(c);
        }
    }
    if empty > 0 {
        s.push_str(&empty.to_string());
    }
    s
}

/// Colours swapped, board turned upside down, other side to move.
fn flip_colors(fen: &str) -> String {
    let mut parts = fen.split_whitespace();
    let board = parts.next().unwrap();
    let side = parts.next().unwrap_or("w");
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|r| {
            let swapped: Vec<char> = expand(r)
                .into_iter()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect();
            compress(&swapped)
        })
        .collect();
    format!("{} {} - - 0 1", rows.join("/"), if side == "w" { "b" } else { "w" })
}

fn mirror(fen: &str) -> String {
    let mut parts = fen.split_whitespace();
    let board = parts.next().unwrap();
    let side = parts.next().unwrap_or("w");
    let rows: Vec<String> = board
        .split('/')
        .map(|r| {
            let mut v = expand(r);
            v.reverse();
            compress(&v)
        })
        .collect();
    format!("{} {} - - 0 1", rows.join("/"), side)
}

#[test]
fn symmetric_under_colour_flip_and_mirror() {
    for fen in chuhan::fen::BENCH_FENS {
        let p = Position::from_fen(fen).unwrap();
        let f = Position::from_fen(&flip_colors(fen)).unwrap();
        let m = Position::from_fen(&mirror(fen)).unwrap();
        assert_eq!(evaluate(&p), evaluate(&f), "colour flip of {fen}");
        assert_eq!(evaluate(&p), evaluate(&m), "mirror of {fen}");
    }
}

#[test]
fn incremental_psq_matches_recompute_on_random_games() {
    let mut rng = StdRng::seed_from_u64(0xC4);
    for fen in chuhan::fen::BENCH_FENS.iter().take(12) {
        let mut pos = Position::from_fen(fen).unwrap();
        let start = *pos.psq();
        let mut made = 0;
        for _ in 0..120 {
            let moves = pos.legal_moves();
            let Some(&m) = moves.choose(&mut rng) else { break };
            pos.make_move(m);
            made += 1;
            assert_eq!(*pos.psq(), Psq::compute(pos.board()), "after {m} in {}", pos.to_fen());
        }
        for _ in 0..made {
            pos.unmake_move();
            assert_eq!(*pos.psq(), Psq::compute(pos.board()));
        }
        assert_eq!(*pos.psq(), start);
    }
}

#[test]
fn known_judgements() {
    let e = |fen: &str| evaluate(&Position::from_fen(fen).unwrap()).0;
    // A lone cannon cannot mate: scaled far below its material.
    let lone_cannon = e("3k5/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1");
    assert!(lone_cannon > 0 && lone_cannon < 100, "{lone_cannon}");
    // Chariot against bare general is winning.
    assert!(e("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1") > 800);
    // A horse against full defenders is drawish; with the defenders gone it is not.
    let vs_full = e("2bakab2/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1");
    let vs_bare = e("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1");
    assert!(vs_full < vs_bare / 2, "{vs_full} {vs_bare}");
    // The side to move sees the same position from the other side.
    let w = e("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    let b = e("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert!(w > 700 && b < -700);
    // (An earlier check here, that an empty-head cannon facing the general
    // scores better than the same cannon one file aside in a thin endgame,
    // held for the hand-set weights only: tuned on self-play results the
    // term keeps its middlegame value and loses its endgame one.)
}

#[test]
fn fortress_balances_are_scaled_toward_a_draw() {
    let e = |fen: &str| evaluate(&Position::from_fen(&format!("{fen} w - - 0 1")).unwrap()).0;
    // Each pair: a known drawn balance, then the same attackers against one
    // defender fewer (a win), which keeps its full evaluation.
    let pairs = [
        // A lone chariot against a horse and full defenders; against a horse and two advisors.
        ("2bakab2/9/4n4/9/9/3R5/9/9/9/4K4", "3aka3/9/4n4/9/9/3R5/9/9/9/4K4"),
        // A lone chariot against a cannon and two advisors; against a cannon and two elephants.
        ("3aka3/9/4c4/9/9/3R5/9/9/9/4K4", "2b1k1b2/9/4c4/9/9/3R5/9/9/9/4K4"),
        // Two soldiers against full defenders; against two advisors.
        ("2bakab2/9/9/9/2P1P4/9/9/9/9/4K4", "3aka3/9/9/9/2P1P4/9/9/9/9/4K4"),
        // A horse and a soldier against full defenders; against two advisors.
        ("2bakab2/9/9/4P4/9/9/2N6/9/9/4K4", "3aka3/9/9/4P4/9/9/2N6/9/9/4K4"),
        // A cannon and a soldier against full defenders; against two advisors.
        ("2bakab2/9/9/4P4/9/9/2C6/9/9/4K4", "3aka3/9/9/4P4/9/9/2C6/9/9/4K4"),
    ];
    for (draw, win) in pairs {
        let (d, w) = (e(draw), e(win));
        assert!(d > 0 && d < 80, "{draw}: {d}");
        assert!(w > 4 * d && w > 200, "{win}: {w} against {d}");
    }
    // Two cannons against full defenders: drawn; a cannon and a horse: not scaled.
    let cc = e("2bakab2/9/9/9/9/9/2C1C4/9/9/4K4");
    let cn = e("2bakab2/9/9/9/9/9/2C1N4/9/9/4K4");
    assert!(cc > 0 && cc < 100 && cn > 4 * cc, "{cc} {cn}");
    // The defending side sees the same verdict from its side.
    let black = evaluate(&Position::from_fen("3aka3/9/4c4/9/9/3R5/9/9/9/4K4 b - - 0 1").unwrap()).0;
    assert!(black < 0 && black > -80, "{black}");
}

#[test]
fn endgame_suite_positions_are_legal() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/book/endgames.epd")).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let pos = Position::from_fen(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!pos.legal_moves().is_empty(), "{line}: no legal move");
        n += 1;
    }
    assert!(n >= 300, "{n} positions");
}
