//! Scoring book positions with Chuhan's own search: the `--verify-depth` check
//! of `chuhan book build` (lines whose last position is clearly better for one
//! side) and the scorer of the opening suite's balance filter.
//!
//! This module owns only the glue between book lines and
//! [`crate::search::Engine`] (fixed-depth, one thread, table and histories
//! cleared per position so results do not depend on the order); it does not change the
//! search and never prints.

use std::sync::Arc;

use super::text::OpeningLine;
use crate::board::Color;
use crate::position::Position;
use crate::search::{Engine, NullReporter, SearchSignals};
use crate::time::SearchLimits;

/// Default threshold of the build check: a line's last position scoring
/// beyond this many centipawn units for one side is reported.
pub const VERIFY_LIMIT: i32 = 150;

/// A fixed-depth scorer over one search engine.
pub struct Scorer {
    engine: Engine,
    depth: u32,
}

impl Scorer {
    /// A scorer searching `depth` plies with a `hash_mb` table, one thread.
    pub fn new(depth: u32, hash_mb: usize) -> Scorer {
        Scorer { engine: Engine::new(hash_mb, 1), depth: depth.max(1) }
    }

    /// Score of `pos` from the side to move's view (mate scores included).
    pub fn score(&mut self, pos: &Position) -> i32 {
        self.engine.new_game();
        let limits = SearchLimits::depth(self.depth);
        let result = self.engine.search(pos, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
        result.score.0
    }

    /// Score of `pos` from Red's view.
    pub(crate) fn score_red(&mut self, pos: &Position) -> i32 {
        let s = self.score(pos);
        if pos.side_to_move() == Color::Red {
            s
        } else {
            -s
        }
    }
}

/// A book line whose last position is unbalanced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unbalanced {
    /// Line number in the text source.
    pub line: usize,
    /// ECCO code and name of the line.
    pub ecco: String,
    /// Name of the opening.
    pub name: String,
    /// Score of the last position, Red's view.
    pub score_red: i32,
}

/// Searches the last position of every line; returns those scoring beyond
/// `limit` for either side, in source order. `progress` is called after each
/// line with (lines done, total).
pub fn verify_lines(
    lines: &[OpeningLine],
    scorer: &mut Scorer,
    limit: i32,
    mut progress: impl FnMut(usize, usize),
) -> Vec<Unbalanced> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let mut pos = Position::startpos();
        for &m in &l.moves {
            pos.make_move(m);
        }
        let s = scorer.score_red(&pos);
        if s.abs() > limit {
            out.push(Unbalanced { line: l.line, ecco: l.ecco.clone(), name: l.name.clone(), score_red: s });
        }
        progress(i + 1, lines.len());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::suite;
    use crate::book::text::parse_lines;

    #[test]
    fn a_line_that_drops_a_chariot_is_reported() {
        // 车一平二 with the cannon still on h2: 炮8进9 takes the chariot for a
        // cannon.
        let text = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 | 1 | C00 | 中炮对屏风马\n\
                    g0e2 h9g7 h0g2 i9h9 i0h0 h7h0 | 1 | A10 | 飞相局 (blunder)";
        let lines = parse_lines(text).unwrap();
        let mut scorer = Scorer::new(4, 4);
        let mut calls = 0;
        // A chariot for a cannon is far beyond any opening imbalance.
        let limit = 2 * VERIFY_LIMIT;
        let bad = verify_lines(&lines, &mut scorer, limit, |_, _| calls += 1);
        assert_eq!(calls, 2);
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert_eq!(bad[0].line, 2);
        assert!(bad[0].score_red < -limit);
        // The suite filter with the same scorer keeps the balanced positions only.
        let cands = suite::candidates(&lines);
        let n = cands.len();
        let kept = suite::select(cands, |p| Some(scorer.score(p)), suite::BALANCE_LIMIT);
        assert!(kept.len() < n);
        assert!(kept.iter().all(|p| p.score.is_some_and(|s| s.abs() <= suite::BALANCE_LIMIT)));
    }
}
