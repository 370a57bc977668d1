//! Every line the engine writes, in each dialect's spelling: the handshake,
//! `info` lines, scores, `bestmove` and its no-move forms, book moves,
//! `pophash`. Pure text: no state and no output of its own.

use super::options;
use super::Dialect;
use crate::book::BookMove;
use crate::eval::wdl;
use crate::moves::Move;
use crate::score::{Score, MATE};
use crate::search::report::IterationInfo;
use crate::tt::{Bound, TtProbe};

/// The reply to `ucci` / `uci`: id lines, one `option` line per advertised
/// option, `ucciok` / `uciok`.
pub(crate) fn handshake(dialect: Dialect) -> Vec<String> {
    let version = env!("CARGO_PKG_VERSION");
    let mut lines = match dialect {
        Dialect::Ucci => vec![
            format!("id name Chuhan {version}"),
            format!("id version {version}"),
            "id copyright GPL-3.0-or-later".to_string(),
            "id author The Chuhan authors".to_string(),
            "id user Chuhan".to_string(),
        ],
        Dialect::Uci => vec![format!("id name Chuhan {version}"), "id author The Chuhan authors".to_string()],
    };
    lines.extend(options::all().filter_map(|o| o.advert(dialect)));
    lines.push(match dialect {
        Dialect::Ucci => "ucciok".to_string(),
        Dialect::Uci => "uciok".to_string(),
    });
    lines
}

/// The final line of a search without a move.
pub(crate) fn no_move(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Ucci => "nobestmove",
        Dialect::Uci => "bestmove (none)",
    }
}

/// A score as the dialect prints it: UCCI a plain integer (mates are
/// `±(MATE - ply)`, MATE = 30000), UCI `cp N` / `mate N` (moves).
pub(crate) fn score(s: Score, dialect: Dialect) -> String {
    match dialect {
        Dialect::Ucci => s.0.to_string(),
        Dialect::Uci => match s.mate_moves() {
            Some(n) => format!("mate {n}"),
            None => format!("cp {}", s.0),
        },
    }
}

/// A score as [`score`] prints it, followed by ` wdl W D L` (win, draw and
/// loss per mille for the side to move, [`crate::eval::wdl`]) when `wdl` is
/// the material count of the root position (`UCI_ShowWDL` on), as Stockfish
/// prints them: `cp 35 wdl 355 333 312` (full board).
pub(crate) fn score_wdl(s: Score, dialect: Dialect, wdl: Option<i32>) -> String {
    match wdl {
        Some(m) => format!("{} wdl {}", score(s, dialect), wdl::wdl(s, m)),
        None => score(s, dialect),
    }
}

/// One iteration as an `info` line; `None` where the dialect does not show
/// it: UCCI GUIs read every `info ... score` line as the evaluation, so only
/// exact scores are shown there, while UCI marks bounds instead. `wdl`: the
/// root's material when the line shows win/draw/loss ([`score_wdl`]).
pub(crate) fn info(info: &IterationInfo, dialect: Dialect, wdl: Option<i32>) -> Option<String> {
    if dialect == Dialect::Ucci && info.bound != Bound::Exact {
        return None;
    }
    let mut s = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if dialect == Dialect::Uci || info.multipv > 1 {
        s.push_str(&format!(" multipv {}", info.multipv));
    }
    s.push_str(&format!(" score {}", score_wdl(info.score, dialect, wdl)));
    if dialect == Dialect::Uci {
        match info.bound {
            Bound::Lower => s.push_str(" lowerbound"),
            Bound::Upper => s.push_str(" upperbound"),
            Bound::Exact => {}
        }
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis()
    ));
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    Some(s)
}

/// The root move now searched.
pub(crate) fn currmove(depth: u32, mv: Move, number: u32, dialect: Dialect) -> String {
    match dialect {
        Dialect::Ucci => format!("info currmove {mv} currmovenumber {number}"),
        Dialect::Uci => format!("info depth {depth} currmove {mv} currmovenumber {number}"),
    }
}

/// `bestmove m [ponder p]` plus a UCCI suffix (`draw`, `resign`) when given.
pub(crate) fn bestmove(best: Move, ponder: Option<Move>, suffix: Option<&str>) -> String {
    let mut line = format!("bestmove {best}");
    if let Some(p) = ponder {
        line.push_str(&format!(" ponder {p}"));
    }
    if let Some(s) = suffix {
        line.push(' ');
        line.push_str(s);
    }
    line
}

/// The score line of a position without a legal move (the side to move has
/// lost), with ` wdl 0 0 1000` when `show_wdl`.
pub(crate) fn mated_now(dialect: Dialect, show_wdl: bool) -> String {
    format!("info depth 0 score {}", score_wdl(Score(-MATE), dialect, show_wdl.then_some(0)))
}

/// The lines of a book move played without searching: the evaluation
/// `eval` of the position as the score (the book weight is not a score:
/// GUIs would show it as one, and UCI tools adjudicate on it), the weight in
/// an `info string`, then `bestmove`. `wdl` as for [`info`].
pub(crate) fn book_move(bm: &BookMove, eval: Score, dialect: Dialect, wdl: Option<i32>) -> Vec<String> {
    vec![
        format!("info string book move {} weight {}", bm.mv, bm.weight),
        format!("info depth 0 score {} pv {}", score_wdl(eval, dialect, wdl), bm.mv),
        bestmove(bm.mv, bm.ponder, None),
    ]
}

/// The UCCI `probe` answer: `pophash [bestmove m] [lowerbound v depth d] [upperbound v depth d]`.
pub(crate) fn pophash(entry: Option<&TtProbe>) -> String {
    let mut line = String::from("pophash");
    if let Some(p) = entry {
        if let Some(m) = p.best {
            line.push_str(&format!(" bestmove {m}"));
        }
        // An entry may hold a move without a score it can vouch for.
        if let Some(v) = p.score.map(|s| s.0) {
            if matches!(p.bound, Bound::Lower | Bound::Exact) {
                line.push_str(&format!(" lowerbound {v} depth {}", p.depth));
            }
            if matches!(p.bound, Bound::Upper | Bound::Exact) {
                line.push_str(&format!(" upperbound {v} depth {}", p.depth));
            }
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn scores() {
        assert_eq!(score(Score(35), Dialect::Ucci), "35");
        assert_eq!(score(Score(MATE - 3), Dialect::Ucci), "29997");
        assert_eq!(score(Score(MATE - 3), Dialect::Uci), "mate 2");
        assert_eq!(score(Score(-MATE + 2), Dialect::Uci), "mate -1");
        assert_eq!(score(Score(-12), Dialect::Uci), "cp -12");
    }

    #[test]
    fn scores_with_wdl() {
        let w = wdl::wdl(Score(35), 42);
        assert_eq!(score_wdl(Score(35), Dialect::Uci, Some(42)), format!("cp 35 wdl {} {} {}", w.win, w.draw, w.loss));
        assert_eq!(score_wdl(Score(35), Dialect::Uci, None), "cp 35");
        assert_eq!(score_wdl(Score(35), Dialect::Uci, Some(42)), "cp 35 wdl 366 299 335");
        assert_eq!(score_wdl(Score(MATE - 3), Dialect::Uci, Some(10)), "mate 2 wdl 1000 0 0");
        assert_eq!(score_wdl(Score(35), Dialect::Ucci, Some(42)), format!("35 wdl {w}"));
        assert_eq!(mated_now(Dialect::Uci, true), "info depth 0 score mate 0 wdl 0 0 1000");
        assert_eq!(mated_now(Dialect::Uci, false), "info depth 0 score mate 0");
        assert_eq!(mated_now(Dialect::Ucci, false), "info depth 0 score -30000");
    }

    #[test]
    fn info_lines() {
        let m = Move::from_iccs("h2e2").unwrap();
        let mut i = IterationInfo {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Score(12),
            bound: Bound::Exact,
            nodes: 1000,
            nps: 50_000,
            hashfull: 3,
            time: Duration::from_millis(20),
            pv: vec![m],
        };
        assert_eq!(
            info(&i, Dialect::Ucci, None).unwrap(),
            "info depth 5 seldepth 9 score 12 nodes 1000 nps 50000 hashfull 3 time 20 pv h2e2"
        );
        assert_eq!(
            info(&i, Dialect::Uci, None).unwrap(),
            "info depth 5 seldepth 9 multipv 1 score cp 12 nodes 1000 nps 50000 hashfull 3 time 20 pv h2e2"
        );
        assert_eq!(
            info(&i, Dialect::Uci, Some(42)).unwrap(),
            format!(
                "info depth 5 seldepth 9 multipv 1 score cp 12 wdl {} nodes 1000 nps 50000 hashfull 3 time 20 pv h2e2",
                wdl::wdl(Score(12), 42)
            )
        );
        i.bound = Bound::Lower;
        assert_eq!(info(&i, Dialect::Ucci, None), None);
        assert!(info(&i, Dialect::Uci, None).unwrap().contains("score cp 12 lowerbound nodes"));
        assert!(info(&i, Dialect::Uci, Some(42)).unwrap().contains(" lowerbound nodes"));
    }

    #[test]
    fn handshakes_end_with_their_ok() {
        for (d, ok) in [(Dialect::Ucci, "ucciok"), (Dialect::Uci, "uciok")] {
            let lines = handshake(d);
            assert_eq!(lines.last().map(String::as_str), Some(ok));
            assert!(lines[0].starts_with("id name Chuhan"));
        }
        let uci = handshake(Dialect::Uci);
        for name in ["Hash", "Threads", "Ponder", "MultiPV", "Move Overhead", "Clear Hash", "Rules"] {
            let prefix = format!("option name {name} type ");
            assert_eq!(uci.iter().filter(|l| l.starts_with(&prefix)).count(), 1, "{name}");
        }
        assert!(uci.iter().all(|l| !l.starts_with("option usemillisec")));
    }
}
