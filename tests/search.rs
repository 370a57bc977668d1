//! Search limits and the Engine API as the protocol uses them: move time,
//! infinite (returns only after stop), ponder (returns only after ponderhit
//! plus the budget), node limit, root-move restriction (banmoves), MultiPV,
//! `go mate`, threads, the table probe.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use chuhan::position::Position;
use chuhan::search::{Bound, CollectingReporter, Engine, NullReporter, SearchSignals};
use chuhan::time::{Clock, SearchLimits};

const MIDGAME: &str = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 6 4";

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

#[test]
fn movetime_is_respected() {
    let p = pos(MIDGAME);
    let mut e = Engine::new(16, 1);
    let start = Instant::now();
    let limits = SearchLimits::movetime(Duration::from_millis(300));
    let r = e.search(&p, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
    let took = start.elapsed();
    assert!(took < Duration::from_millis(3000), "{took:?}");
    assert!(r.best.is_some_and(|m| p.is_legal(m)));
    assert!(r.depth >= 1 && r.nodes > 0);
}

#[test]
fn infinite_waits_for_stop() {
    let p = pos("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1");
    let mut e = Engine::new(4, 1);
    let signals = Arc::new(SearchSignals::default());
    let s2 = Arc::clone(&signals);
    let stopper = thread::spawn(move || {
        thread::sleep(Duration::from_millis(400));
        s2.stop.store(true, Ordering::SeqCst);
        Instant::now()
    });
    let limits = SearchLimits { infinite: true, depth: Some(3), ..Default::default() };
    let r = e.search(&p, &limits, None, Arc::clone(&signals), &mut NullReporter);
    let returned = Instant::now();
    assert!(signals.stop.load(Ordering::SeqCst), "returned before stop");
    let stopped_at = stopper.join().unwrap();
    assert!(returned.duration_since(stopped_at) < Duration::from_millis(1500));
    assert!(r.best.is_some());
}

#[test]
fn ponder_waits_for_ponderhit_then_uses_its_budget() {
    let p = pos(MIDGAME);
    let mut e = Engine::new(16, 1);
    let signals = Arc::new(SearchSignals::default());
    let s2 = Arc::clone(&signals);
    let hitter = thread::spawn(move || {
        thread::sleep(Duration::from_millis(400));
        s2.ponderhit.store(true, Ordering::SeqCst);
        Instant::now()
    });
    let clock = Clock { time: Duration::from_millis(3000), increment: Duration::ZERO, movestogo: Some(30) };
    let limits = SearchLimits { ponder: true, clock: Some(clock), ..Default::default() };
    let r = e.search(&p, &limits, None, Arc::clone(&signals), &mut NullReporter);
    let returned = Instant::now();
    assert!(signals.ponderhit.load(Ordering::SeqCst), "returned before ponderhit");
    let hit_at = hitter.join().unwrap();
    assert!(returned.duration_since(hit_at) < Duration::from_millis(2000), "did not stop after ponderhit");
    assert!(r.best.is_some());
}

#[test]
fn node_limit() {
    let p = pos(MIDGAME);
    let mut e = Engine::new(16, 1);
    let limits = SearchLimits { nodes: Some(20_000), ..Default::default() };
    let r = e.search(&p, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
    assert!(r.nodes >= 20_000 && r.nodes < 20_000 + 100, "{}", r.nodes);
    assert!(r.best.is_some());
}

#[test]
fn root_moves_restrict_the_search() {
    let p = pos(MIDGAME);
    let mut e = Engine::new(16, 1);
    let only = [p.parse_move("a3a4").unwrap(), p.parse_move("i3i4").unwrap()];
    let r = e.search(&p, &SearchLimits::depth(6), Some(&only), Arc::new(SearchSignals::default()), &mut NullReporter);
    assert!(r.best.is_some_and(|m| only.contains(&m)), "{:?}", r.best);
    // An empty restriction means "all moves".
    let r = e.search(&p, &SearchLimits::depth(3), Some(&[]), Arc::new(SearchSignals::default()), &mut NullReporter);
    assert!(r.best.is_some());
}

#[test]
fn multipv_reports_distinct_sorted_lines() {
    let p = pos(MIDGAME);
    let mut e = Engine::new(16, 1);
    e.options_mut().multipv = 3;
    let mut rep = CollectingReporter::default();
    let r = e.search(&p, &SearchLimits::depth(6), None, Arc::new(SearchSignals::default()), &mut rep);
    let last: Vec<_> = rep.lines.iter().filter(|l| l.depth == 6 && l.bound == Bound::Exact).collect();
    assert_eq!(last.iter().map(|l| l.multipv).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(last.windows(2).all(|w| w[0].score >= w[1].score));
    let firsts: Vec<_> = last.iter().map(|l| l.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(Some(firsts[0]), r.best);
    for l in &last {
        assert!(l.nodes > 0 && l.seldepth >= 6 && !l.pv.is_empty());
        // Every PV is a legal line.
        let mut q = p.clone();
        for &m in &l.pv {
            assert!(q.is_legal(m), "illegal {m} in pv {:?}", l.pv);
            q.make_move(m);
        }
    }
}

#[test]
fn go_mate_stops_at_the_mate() {
    let p = pos("2Rckab1C/4a4/4R3n/p5p2/9/2N6/2P5P/C5r2/4K4/2B2A3 w - - 0 1");
    let mut e = Engine::new(16, 1);
    let limits = SearchLimits { mate: Some(1), ..Default::default() };
    let r = e.search(&p, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
    assert_eq!(r.score.mate_moves(), Some(1));
    assert!(r.depth < 10, "kept searching after the mate: depth {}", r.depth);
}

#[test]
fn two_threads_and_probe() {
    let p = pos(MIDGAME);
    let mut e = Engine::new(1, 2);
    assert_eq!(e.hashfull(), 0);
    let r = e.search(&p, &SearchLimits::depth(8), None, Arc::new(SearchSignals::default()), &mut NullReporter);
    assert!(r.best.is_some_and(|m| p.is_legal(m)) && r.depth == 8);
    assert!(e.hashfull() > 0);
    // A helper may still have stored the root at a lower depth: only legality is certain.
    let probe = e.probe(&p).expect("root stored");
    assert!(probe.best.is_some_and(|m| p.is_legal(m)));
    e.new_game();
    assert!(e.probe(&p).is_none());
    // One thread: the last store at the root is the final iteration's.
    e.set_threads(1);
    e.set_hash(2);
    let r = e.search(&p, &SearchLimits::depth(8), None, Arc::new(SearchSignals::default()), &mut NullReporter);
    let probe = e.probe(&p).expect("root stored");
    assert_eq!(probe.best, r.best);
    assert_eq!(probe.depth, 8);
    assert_eq!(probe.bound, Bound::Exact);
    assert_eq!(probe.score, Some(r.score));
}

/// With two threads on the clock the threads vote for the move; whichever
/// thread's move is played, the last line reported leads with it.
#[test]
fn the_last_line_leads_with_the_move_played() {
    for fen in chuhan::fen::BENCH_FENS.iter().take(6) {
        let p = pos(fen);
        let mut e = Engine::new(16, 2);
        let mut rep = CollectingReporter::default();
        let limits = SearchLimits::movetime(Duration::from_millis(150));
        let r = e.search(&p, &limits, None, Arc::new(SearchSignals::default()), &mut rep);
        let best = r.best.expect("a move");
        assert!(p.is_legal(best), "{fen}");
        let last = rep.lines.last().expect("lines reported");
        assert_eq!(last.pv.first(), Some(&best), "{fen}: last line {:?}", last.pv);
        if let Some(ponder) = r.ponder {
            let mut q = p.clone();
            q.make_move(best);
            assert!(q.is_legal(ponder), "{fen}: ponder {ponder}");
        }
    }
}

#[test]
fn stop_before_start_still_returns_a_legal_move() {
    let p = pos(MIDGAME);
    let mut e = Engine::new(4, 1);
    let signals = Arc::new(SearchSignals::default());
    signals.stop.store(true, Ordering::Relaxed);
    let r = e.search(&p, &SearchLimits::default(), None, signals, &mut NullReporter);
    assert!(r.best.is_some_and(|m| p.is_legal(m)));
}

/// Every reported line replays legally, at every depth, on positions where a
/// zero-window search failing high at a PV node once let a stale line from
/// an earlier sibling's subtree into the PV (the line ended in a move that
/// ignored a check).
#[test]
fn every_reported_line_is_legal() {
    for (fen, limits) in [
        ("1nb1Ca3/5k3/b7P/9/9/r3p4/4r1C2/3p4B/4A2c1/2BK5 b - - 3 55", SearchLimits::depth(3)),
        ("3a1k1n1/1r1rc4/bC2b4/9/1P5Rp/6p1P/4P1p2/4C3B/9/3nK4 b - - 7 71", SearchLimits::depth(10)),
        (MIDGAME, SearchLimits::depth(9)),
    ] {
        let p = pos(fen);
        let mut e = Engine::new(16, 1);
        let mut rep = CollectingReporter::default();
        e.search(&p, &limits, None, Arc::new(SearchSignals::default()), &mut rep);
        assert!(!rep.lines.is_empty());
        for l in &rep.lines {
            let mut q = p.clone();
            for &m in &l.pv {
                assert!(q.is_legal(m), "{fen} depth {}: illegal {m} in pv {:?}", l.depth, l.pv);
                q.make_move(m);
            }
        }
    }
}

/// With a single legal reply a search on the clock stops after a few
/// iterations; with the same clock and a real choice it goes deeper.
#[test]
fn a_single_legal_reply_is_played_at_once_on_the_clock() {
    // Red is in check from the chariot on the e-file; the general cannot
    // go to d0 (facing the black general) or e1 (still in check): f0 only.
    let forced = pos("3k5/9/2n1b4/p1p3p2/4r4/2P3P2/P8/9/N8/R3K4 w - - 0 1");
    assert_eq!(forced.legal_moves().len(), 1);
    let clock = Clock { time: Duration::from_secs(60), increment: Duration::ZERO, movestogo: None };
    let limits = SearchLimits { clock: Some(clock), ..Default::default() };
    let mut e = Engine::new(16, 1);
    let r = e.search(&forced, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
    assert_eq!(r.best, forced.parse_move("e0f0").ok());
    assert!(r.depth <= 4, "searched {} plies for a forced move", r.depth);
    assert!(r.ponder.is_some(), "a ponder move comes with the forced move");
    // A fixed move time is the caller's to spend: not cut short.
    let limits = SearchLimits::movetime(Duration::from_millis(500));
    let r = e.search(&forced, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
    assert!(r.depth > 4, "a fixed move time was cut short at depth {}", r.depth);
}
