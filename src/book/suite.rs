//! The opening suite (`book/suite.epd`): distinct positions 4-10 plies deep
//! drawn from the book's lines, each labelled with its ECCO code, optionally
//! kept only when a scorer finds them roughly balanced.
//!
//! This module owns choosing the candidate positions (deduplicated, mirror
//! images counted once), the balance filter and the suite text format. It does
//! not search: the caller passes the scorer (Chuhan's search at a fixed depth)
//! to [`select`]. File format, one position per line:
//! `<FEN> ; <ECCO> <name>` or, once scored, `<FEN> ; <ECCO> <name> ; score <s>`.
//! Lines starting with `#` are comments.

use std::collections::HashMap;
use std::fmt;

use super::mirror_key;
use super::text::OpeningLine;
use crate::fen::FenError;
use crate::position::Position;

/// Shallowest suite position, in plies from the start.
pub const MIN_PLY: usize = 4;
/// Deepest suite position, in plies from the start.
pub const MAX_PLY: usize = 10;
/// Default balance limit (centipawn-like units of the scorer).
pub const BALANCE_LIMIT: i32 = 60;

/// One suite position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuitePosition {
    /// The position's FEN.
    pub fen: String,
    /// Plies from the start position.
    pub ply: usize,
    /// ECCO code of the heaviest book line through it.
    pub ecco: String,
    /// Name of that line's opening.
    pub(crate) name: String,
    /// The scorer's verdict (side to move's view), if scored.
    pub score: Option<i32>,
}

impl fmt::Display for SuitePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ; {} {}", self.fen, self.ecco, self.name)?;
        if let Some(s) = self.score {
            write!(f, " ; score {s}")?;
        }
        Ok(())
    }
}

/// All distinct positions `MIN_PLY..=MAX_PLY` plies into the lines, in order
/// of first appearance. A position and its mirror image count once; each is
/// labelled with the heaviest line through it (the first on ties).
pub fn candidates(lines: &[OpeningLine]) -> Vec<SuitePosition> {
    let mut seen: HashMap<u64, (usize, u16)> = HashMap::new();
    let mut out: Vec<SuitePosition> = Vec::new();
    for l in lines {
        let mut pos = Position::startpos();
        for (i, &m) in l.moves.iter().enumerate() {
            pos.make_move(m);
            let ply = i + 1;
            if !(MIN_PLY..=MAX_PLY).contains(&ply) {
                continue;
            }
            let key = pos.key().0.min(mirror_key(&pos));
            match seen.get_mut(&key) {
                Some((idx, w)) => {
                    if l.weight > *w {
                        *w = l.weight;
                        out[*idx].ecco.clone_from(&l.ecco);
                        out[*idx].name.clone_from(&l.name);
                    }
                }
                None => {
                    seen.insert(key, (out.len(), l.weight));
                    out.push(SuitePosition {
                        fen: pos.to_fen(),
                        ply,
                        ecco: l.ecco.clone(),
                        name: l.name.clone(),
                        score: None,
                    });
                }
            }
        }
    }
    out
}

/// Orders positions round-robin over their ECCO classes (letter and first
/// digit, `A0`..`E9`), keeping the order inside each class, so that the first
/// positions of the file (a short match plays only those) span the openings.
pub fn interleave(positions: Vec<SuitePosition>) -> Vec<SuitePosition> {
    let mut classes: Vec<(String, std::collections::VecDeque<SuitePosition>)> = Vec::new();
    for p in positions {
        let class: String = p.ecco.chars().take(2).collect();
        match classes.iter_mut().find(|(c, _)| *c == class) {
            Some((_, q)) => q.push_back(p),
            None => classes.push((class, std::collections::VecDeque::from([p]))),
        }
    }
    classes.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    loop {
        let mut any = false;
        for (_, q) in classes.iter_mut() {
            if let Some(p) = q.pop_front() {
                out.push(p);
                any = true;
            }
        }
        if !any {
            return out;
        }
    }
}

/// Scores every candidate with `score` (side-to-move view; `None` = could not
/// score) and keeps those with `|score| <= limit`, recording the score.
pub fn select(
    candidates: Vec<SuitePosition>,
    mut score: impl FnMut(&Position) -> Option<i32>,
    limit: i32,
) -> Vec<SuitePosition> {
    candidates
        .into_iter()
        .filter_map(|mut c| {
            let pos = Position::from_fen(&c.fen).ok()?;
            let s = score(&pos)?;
            (s.abs() <= limit).then(|| {
                c.score = Some(s);
                c
            })
        })
        .collect()
}

/// A suite line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuiteError {
    /// The FEN part is not a legal position.
    Fen { line: usize, error: FenError },
    /// No `; <ECCO> <name>` comment.
    Comment { line: usize },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Fen { line, error } => write!(f, "suite line {line}: {error}"),
            SuiteError::Comment { line } => write!(f, "suite line {line}: missing '; <ECCO> <name>'"),
        }
    }
}

impl std::error::Error for SuiteError {}

/// Parses a suite file into `(position, ECCO code, name, score)` entries.
pub fn parse(text: &str) -> Result<Vec<(Position, SuitePosition)>, SuiteError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut parts = t.split(';');
        let fen = parts.next().unwrap_or("").trim();
        let pos = Position::from_fen(fen).map_err(|error| SuiteError::Fen { line, error })?;
        let comment = parts.next().map(str::trim).filter(|c| !c.is_empty()).ok_or(SuiteError::Comment { line })?;
        let (ecco, name) = comment.split_once(' ').ok_or(SuiteError::Comment { line })?;
        let score = parts.next().and_then(|s| s.trim().strip_prefix("score ")).and_then(|s| s.trim().parse().ok());
        let ply = (pos.fullmove() as usize - 1) * 2 + (pos.side_to_move() == crate::board::Color::Black) as usize;
        let entry =
            SuitePosition { fen: fen.to_string(), ply, ecco: ecco.to_string(), name: name.trim().to_string(), score };
        out.push((pos, entry));
    }
    Ok(out)
}

/// The suite file text: a header comment and one line per position.
pub fn render(positions: &[SuitePosition], header: &str) -> String {
    let mut s = String::new();
    for h in header.lines() {
        s.push_str("# ");
        s.push_str(h);
        s.push('\n');
    }
    for p in positions {
        s.push_str(&p.to_string());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::text::parse_lines;

    #[test]
    fn candidates_dedup_mirrors_and_depths() {
        let text = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 | 5 | C00 | 中炮对屏风马\n\
                    b2e2 b9c7 b0c2 a9b9 a0b0 h9g7 | 9 | C00 | 镜像\n\
                    h2e2 h7e7 h0g2 h9g7 | 2 | D00 | 顺炮";
        let lines = parse_lines(text).unwrap();
        let c = candidates(&lines);
        // Plies 4, 5, 6 of the first line (the second is its mirror), ply 4 of the third.
        assert_eq!(c.len(), 4);
        assert!(c.iter().all(|p| (MIN_PLY..=MAX_PLY).contains(&p.ply)));
        assert_eq!(c[0].name, "镜像", "the heavier mirrored line names the position");
        assert_eq!(c[3].ecco, "D00");
        let text = render(&c, "test suite");
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed.len(), 4);
        assert_eq!(parsed[3].1.ecco, "D00");
        assert_eq!(parsed[3].1.name, "顺炮");
        let kept = select(c, |p| Some(if p.side_to_move() == crate::board::Color::Red { 10 } else { 100 }), 60);
        assert_eq!(kept.len(), 3);
        assert!(kept.iter().all(|p| p.score == Some(10)));
        let mixed = interleave(parsed.into_iter().map(|(_, e)| e).collect());
        let classes: Vec<&str> = mixed.iter().map(|p| &p.ecco[..2]).collect();
        assert_eq!(classes, ["C0", "D0", "C0", "C0"]);
        assert!(matches!(parse("bad fen ; C00 x"), Err(SuiteError::Fen { line: 1, .. })));
        assert!(matches!(parse(&format!("{} ; ", crate::fen::START_FEN)), Err(SuiteError::Comment { line: 1 })));
    }
}
