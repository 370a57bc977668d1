//! What a protocol search prints: its progress, and the final line the moment
//! it ends, with the UCCI policies that decorate `bestmove` (accepting an
//! offered draw, resigning).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::format;
use super::io::{write_line, Out};
use super::Dialect;
use crate::moves::Move;
use crate::position::Position;
use crate::score::{Score, MATE_BOUND};
use crate::search::report::{IterationInfo, SearchReporter};
use crate::search::SearchResult;

/// The reporter of one `go`.
pub(crate) struct GoReporter {
    pub(crate) out: Out,
    pub(crate) dialect: Dialect,
    /// The root position (to check the final move and judge a draw offer).
    pub(crate) position: Position,
    /// Set by `go draw` or `ponderhit draw`.
    pub(crate) draw_offered: Arc<AtomicBool>,
    /// Resign threshold (UCCI with `resign` on).
    pub(crate) resign: Option<u32>,
    /// Our previous search's final score (the resign rule looks at two).
    pub(crate) last_score: Option<Score>,
    /// Print the search time at the end (`debug`).
    pub debug: bool,
    /// The root's material count when info lines show win/draw/loss
    /// (`UCI_ShowWDL`).
    pub wdl: Option<i32>,
    pub start: Instant,
}

impl SearchReporter for GoReporter {
    fn on_iteration(&mut self, info: &IterationInfo) {
        if let Some(line) = format::info(info, self.dialect, self.wdl) {
            self.out.line(&line);
        }
    }

    fn on_currmove(&mut self, depth: u32, mv: Move, number: u32) {
        self.out.line(&format::currmove(depth, mv, number, self.dialect));
    }

    fn on_finish(&mut self, result: Option<&SearchResult>) {
        let mut o = self.out.lock();
        match result {
            Some(r) => {
                if self.debug {
                    let ms = self.start.elapsed().as_millis();
                    write_line(&mut o.writer, &format!("info string debug: search took {ms} ms"));
                }
                write_line(&mut o.writer, &self.final_line(r));
            }
            None => {
                // A bug in the search must not leave the GUI waiting for a move.
                write_line(&mut o.writer, "info string error: the search failed (internal error); no move");
                write_line(&mut o.writer, format::no_move(self.dialect));
            }
        }
        o.thinking = false;
    }
}

impl GoReporter {
    fn final_line(&self, r: &SearchResult) -> String {
        let legal = self.position.legal_moves();
        let Some(best) = r.best.filter(|m| legal.contains(m)) else {
            return format::no_move(self.dialect).to_string();
        };
        let ponder = r.ponder.filter(|p| {
            let mut after = self.position.clone();
            after.make_move(best);
            p.is_some() && after.is_legal(*p)
        });
        let mut suffix = None;
        if self.dialect == Dialect::Ucci {
            if self.draw_offered.load(Ordering::SeqCst) && crate::rules::is_dead_draw(self.position.board()) {
                suffix = Some("draw");
            } else if self.resign.is_some_and(|t| should_resign(r.score, self.last_score, t)) {
                suffix = Some("resign");
            }
        }
        format::bestmove(best, ponder, suffix)
    }
}

/// Resign when a mate against us is proven, or when this search and our
/// previous one both scored at or below `-threshold`.
pub(crate) fn should_resign(score: Score, previous: Option<Score>, threshold: u32) -> bool {
    let t = -(threshold as i32);
    score.0 <= -MATE_BOUND || (score.0 <= t && previous.is_some_and(|p| p.0 <= t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn resign_rule() {
        assert!(should_resign(Score(-MATE + 10), None, 1500));
        assert!(!should_resign(Score(-1600), None, 1500));
        assert!(should_resign(Score(-1600), Some(Score(-1500)), 1500));
        assert!(!should_resign(Score(-1600), Some(Score(-200)), 1500));
    }
}
