//! `UCI_ShowWDL` against the real binary: win/draw/loss per mille after the
//! score of every `info` line when it is on, none when it is off.

mod common;

use chuhan::eval::wdl;
use chuhan::position::Position;
use chuhan::score::Score;
use common::*;

const MATE_IN_ONE: &str = "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1";
const MATED: &str = "R2k5/1R7/9/9/9/9/9/9/9/4K4 b - - 0 1";

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.expect_line("uciok", SECS5);
    assert!(lines.iter().any(|l| l == "option name UCI_ShowWDL type check default false"), "{lines:?}");
    e
}

/// The score and the `wdl` triple of an info line, when it has them.
fn score_and_wdl(line: &str) -> (Option<Score>, Option<[u32; 3]>) {
    let w: Vec<&str> = line.split_whitespace().collect();
    let Some(i) = w.iter().position(|x| *x == "score") else { return (None, None) };
    let score = match (w.get(i + 1), w.get(i + 2).and_then(|v| v.parse::<i32>().ok())) {
        (Some(&"cp"), Some(v)) => Some(Score(v)),
        (Some(&"mate"), Some(n)) => Some(Score(if n > 0 { 30_000 - (2 * n - 1) } else { -30_000 - 2 * n })),
        _ => None,
    };
    let wdl = w.iter().position(|x| *x == "wdl").map(|j| {
        assert_eq!(j, i + 3, "wdl right after the score: {line}");
        let v: Vec<u32> = w[j + 1..j + 4].iter().map(|x| x.parse().expect(line)).collect();
        [v[0], v[1], v[2]]
    });
    (score, wdl)
}

fn search(e: &mut Engine, position: &str, go: &str) -> Vec<String> {
    e.send(position);
    e.send(go);
    let (lines, _) = e.expect_bestmove(SECS5 * 6);
    lines.into_iter().filter(|l| l.starts_with("info") && l.contains(" score ")).collect()
}

#[test]
fn every_score_carries_the_model_when_on() {
    let mut e = uci();
    e.send("setoption name UCI_ShowWDL value true");
    let root = Position::startpos();
    let m = wdl::material(root.board());
    assert_eq!(m, 42);
    let lines = search(&mut e, "position startpos moves h2e2", "go depth 6");
    assert!(lines.len() >= 6, "{lines:?}");
    for l in &lines {
        let (score, triple) = score_and_wdl(l);
        let (score, [w, d, lo]) = (score.expect(l), triple.expect(l));
        assert_eq!(w + d + lo, 1000, "{l}");
        let want = wdl::wdl(score, m);
        assert_eq!([w, d, lo], [want.win, want.draw, want.loss], "{l}");
    }
    // The material is the root's: a thinner position gives other numbers for the same score.
    let fen = "3akab2/9/4b4/9/9/2p1p4/9/2N1C4/9/3AK1B2 w - - 0 1";
    let m = wdl::material(Position::from_fen(fen).unwrap().board());
    assert_eq!(m, 6);
    for l in search(&mut e, &format!("position fen {fen}"), "go depth 5") {
        let (score, triple) = score_and_wdl(&l);
        let [w, d, lo] = triple.expect(&l);
        let want = wdl::wdl(score.expect(&l), m);
        assert_eq!([w, d, lo], [want.win, want.draw, want.loss], "{l}");
    }
    // Mates are certain, for either side.
    let lines = search(&mut e, &format!("position fen {MATE_IN_ONE}"), "go depth 4");
    let last = lines.last().unwrap();
    assert!(last.contains(" score mate 1 wdl 1000 0 0 "), "{lines:?}");
    let lines = search(&mut e, &format!("position fen {MATED}"), "go depth 4");
    assert_eq!(lines, ["info depth 0 score mate 0 wdl 0 0 1000"]);
    // And off again.
    e.send("setoption name UCI_ShowWDL value false");
    let lines = search(&mut e, "position startpos", "go depth 3");
    assert!(lines.iter().all(|l| !l.contains("wdl")), "{lines:?}");
}

#[test]
fn off_by_default() {
    let mut e = uci();
    let lines = search(&mut e, "position startpos moves h2e2", "go depth 6");
    assert!(lines.len() >= 6, "{lines:?}");
    assert!(lines.iter().all(|l| !l.contains("wdl")), "{lines:?}");
    let lines = search(&mut e, &format!("position fen {MATED}"), "go depth 4");
    assert_eq!(lines, ["info depth 0 score mate 0"]);
}

#[test]
fn book_moves_and_ucci_show_it_too() {
    let mut e = uci();
    e.send("setoption name UCI_ShowWDL value true");
    // A clock lets the built-in book answer; its line carries the evaluation and the model.
    let lines = search(&mut e, "position startpos", "go wtime 60000 btime 60000");
    assert_eq!(lines.len(), 1, "{lines:?}");
    let (score, triple) = score_and_wdl(&lines[0]);
    let want = wdl::wdl(score.unwrap(), 42);
    assert_eq!(triple, Some([want.win, want.draw, want.loss]), "{lines:?}");

    let mut e = Engine::start();
    e.send("ucci");
    e.expect_line("ucciok", SECS5);
    let lines = search(&mut e, "position startpos moves h2e2", "go depth 4");
    assert!(lines.iter().all(|l| !l.contains("wdl")), "{lines:?}");
    e.send("setoption showwdl true");
    let lines = search(&mut e, "position startpos moves h2e2", "go depth 4");
    assert!(!lines.is_empty());
    for l in &lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|x| *x == "score").unwrap();
        let want = wdl::wdl(Score(w[i + 1].parse().unwrap()), 42);
        assert_eq!(&w[i + 2..i + 6], ["wdl", &want.win.to_string(), &want.draw.to_string(), &want.loss.to_string()]);
    }
}
