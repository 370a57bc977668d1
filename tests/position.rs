//! Position invariants: FEN validation errors, pinned Zobrist keys, seeded
//! random walks (incremental key = recomputed key and the board's derived
//! state consistent after every make and unmake;
//! FEN and key restored exactly), and the generator modes agreeing with each
//! other and with the legality tests.

use chuhan::board::{Color, PieceKind, Square};
use chuhan::fen::{FenError, START_FEN};
use chuhan::movegen::{generate, Captures, Evasions};
use chuhan::moves::{Move, MoveList};
use chuhan::position::{IllegalReason, MoveError, Position, PositionError};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn err(fen: &str) -> PositionError {
    match Position::from_fen(fen) {
        Err(FenError::Position(e)) => e,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

#[test]
fn fen_round_trip_and_aliases() {
    assert_eq!(Position::startpos().to_fen(), START_FEN);
    let p = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR").unwrap();
    assert_eq!(p.to_fen(), START_FEN);
    let p = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 b - - 17 40").unwrap();
    assert_eq!(p.to_fen(), "4k4/9/9/9/9/9/9/9/9/3K5 b - - 17 40");
    assert_eq!(p.state().plies_since_capture, 17);
}

#[test]
fn validation_names_what_and_where() {
    use PositionError::*;
    let sq = |s: &str| Square::parse(s).unwrap();
    assert_eq!(err("9/9/9/9/9/9/9/9/9/3K5 w"), MissingGeneral { color: Color::Black });
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/9 w"), MissingGeneral { color: Color::Red });
    assert_eq!(err("3k1k3/9/9/9/9/9/9/9/9/4K4 w"), ExtraGeneral { color: Color::Black, square: sq("f9") });
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/K8 w"), GeneralOutsidePalace { color: Color::Red, square: sq("a0") });
    assert_eq!(err("3k5/4a4/9/9/9/9/9/9/3A5/4K4 w"), AdvisorOffPoint { color: Color::Red, square: sq("d1") });
    assert_eq!(err("3k5/9/9/9/2B6/9/9/9/9/4K4 w"), ElephantOffPoint { color: Color::Red, square: sq("c5") });
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/1b2K4 w"), ElephantOffPoint { color: Color::Black, square: sq("b0") });
    assert_eq!(err("3k5/9/9/9/9/9/1P7/9/9/4K4 w"), SoldierOffPoint { color: Color::Red, square: sq("b3") });
    assert_eq!(err("3k5/9/9/9/9/9/9/P8/9/4K4 w"), SoldierOffPoint { color: Color::Red, square: sq("a2") });
    assert_eq!(err("3k5/p8/9/9/9/9/9/9/9/4K4 w"), SoldierOffPoint { color: Color::Black, square: sq("a8") });
    assert_eq!(
        err("3k5/9/9/9/9/RRR6/9/9/9/4K4 w"),
        TooManyPieces { color: Color::Red, kind: PieceKind::Chariot, max: 2 }
    );
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), GeneralsFacing { file: 'e' });
    assert_eq!(err("3k5/9/9/9/9/9/9/9/9/3RK4 w"), SideNotToMoveInCheck { color: Color::Black });
    // Soldiers anywhere across the river, and on the five files before it.
    assert!(Position::from_fen("3k5/9/9/1P7/9/P8/9/9/9/4K4 w").is_ok());
    // Error messages say what and where.
    let msg = Position::from_fen("3k5/9/9/9/9/9/9/9/3A5/4K4 w").unwrap_err().to_string();
    assert!(msg.contains("advisor") && msg.contains("d1"), "{msg}");
    let msg = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 x").unwrap_err().to_string();
    assert!(msg.contains("side"), "{msg}");
}

#[test]
fn zobrist_keys_are_pinned() {
    // The opening book stores these keys: changing them needs a new KEY_VERSION.
    let mut p = Position::startpos();
    assert_eq!(p.key().0, 0xabe8_49dc_70cd_7fbe, "start key {:#x}", p.key().0);
    p.make_move(p.parse_move("h2e2").unwrap());
    assert_eq!(p.key().0, 0x0848_f282_c5f1_a6e0, "after h2e2 {:#x}", p.key().0);
    let q = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1").unwrap();
    assert_eq!(q.key().0, 0x8e5e_dc56_a0bf_9658, "small {:#x}", q.key().0);
}

#[test]
fn move_text_two_steps() {
    let p = Position::startpos();
    assert!(matches!(p.parse_move("z9z9"), Err(MoveError::Syntax(_))));
    let reason = |t: &str| match p.parse_move(t) {
        Err(MoveError::Illegal(e)) => e.reason,
        other => panic!("{t}: {other:?}"),
    };
    assert_eq!(reason("e5e6"), IllegalReason::NoPiece);
    assert_eq!(reason("h7e7"), IllegalReason::NotYourPiece);
    assert_eq!(reason("h2g3"), IllegalReason::BadPieceMove);
    assert_eq!(reason("b0c0"), IllegalReason::BadPieceMove);
    assert_eq!(reason("b2b7"), IllegalReason::BadPieceMove); // a cannon capture needs exactly one screen
    assert_eq!(reason("b2b8"), IllegalReason::BadPieceMove); // a quiet cannon move may not jump
    assert!(p.parse_move("b2b9").is_ok());
    assert!(p.parse_move("h2h9").is_ok());
    // Facing generals: the only piece between them may not leave the file.
    let q = Position::from_fen("4k4/9/9/9/9/4C4/9/9/9/4K4 w").unwrap();
    assert_eq!(
        q.parse_move("e4d4").unwrap_err(),
        MoveError::Illegal(chuhan::position::IllegalMove {
            mv: Move::from_iccs("e4d4").unwrap(),
            reason: IllegalReason::LeavesGeneralAttacked
        })
    );
    let mut r = q.clone();
    assert!(r.try_make_move(Move::from_iccs("e4d4").unwrap()).is_err());
    assert_eq!(r.to_fen(), q.to_fen());
}

fn check_consistency(p: &Position, rng: &mut StdRng) {
    let all = p.legal_moves();
    // Captures = the legal moves onto an enemy piece.
    let mut caps = MoveList::new();
    generate::<Captures>(p, &mut caps);
    let mut expected: Vec<Move> = all.iter().copied().filter(|m| p.piece_at(m.to()).is_some()).collect();
    let mut got: Vec<Move> = caps.to_vec();
    expected.sort();
    got.sort();
    assert_eq!(got, expected, "captures in {}", p.to_fen());
    // Evasions = all legal moves.
    let mut ev = MoveList::new();
    generate::<Evasions>(p, &mut ev);
    assert_eq!(ev.len(), all.len());
    for &m in &all {
        assert!(p.is_legal(m), "{m} in {}", p.to_fen());
        let mut q = p.clone();
        q.make_move(m);
        assert_eq!(q.in_check(), p.gives_check(m), "gives_check {m} in {}", p.to_fen());
    }
    // Random 16-bit words and every origin/destination pair on a few squares:
    // is_legal agrees with the generator.
    for _ in 0..200 {
        let m = Move(rng.gen());
        assert_eq!(p.is_legal(m), all.contains(&m), "{m:?} in {}", p.to_fen());
    }
    for from in Square::all().filter(|s| p.piece_at(*s).is_some_and(|pc| pc.color() == p.side_to_move())) {
        for to in Square::all() {
            if from != to {
                let m = Move::new(from, to);
                assert_eq!(p.is_legal(m), all.contains(&m), "{m} in {}", p.to_fen());
            }
        }
    }
}

#[test]
fn random_walks_keep_keys_and_restore_exactly() {
    let mut rng = StdRng::seed_from_u64(20261130);
    let mut steps = 0;
    for game in 0..60 {
        let mut p = Position::startpos();
        let fen0 = p.to_fen();
        let key0 = p.key();
        let mut fens = vec![fen0.clone()];
        for _ in 0..200 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            if steps % 7 == 0 {
                check_consistency(&p, &mut rng);
            }
            // Prefer captures half of the time so games reach sparse endings.
            let caps: Vec<Move> = moves.iter().copied().filter(|m| p.piece_at(m.to()).is_some()).collect();
            let m = if !caps.is_empty() && rng.gen_bool(0.5) {
                *caps.choose(&mut rng).unwrap()
            } else {
                *moves.choose(&mut rng).unwrap()
            };
            p.make_move(m);
            steps += 1;
            assert_eq!(p.key(), p.compute_key(), "game {game}");
            // Occupancy words, presence mask and piece counts follow the move.
            assert!(p.board().is_consistent(), "{}", p.to_fen());
            // A FEN round trip gives the same key and the same legal moves.
            let again = Position::from_fen(&p.to_fen()).unwrap();
            assert_eq!(again.key(), p.key());
            assert_eq!(again.in_check(), p.in_check());
            fens.push(p.to_fen());
            if rng.gen_bool(0.05) && !p.in_check() {
                p.make_null_move();
                assert_eq!(p.key(), p.compute_key());
                p.unmake_null_move();
            }
        }
        while p.game_ply() > 0 {
            fens.pop();
            p.unmake_move();
            assert_eq!(p.key(), p.compute_key());
            assert!(p.board().is_consistent(), "{}", p.to_fen());
            assert_eq!(&p.to_fen(), fens.last().unwrap());
        }
        assert_eq!(p.to_fen(), fen0);
        assert_eq!(p.key(), key0);
    }
    assert!(steps > 5000, "{steps} steps");
}

#[test]
fn no_legal_move_positions() {
    // Black general d9 checkmated by two chariots: no legal move.
    let p = Position::from_fen("3k5/9/3R5/4R4/9/9/9/9/9/5K3 b").unwrap_or_else(|e| panic!("{e}"));
    assert!(p.legal_moves().is_empty());
}
