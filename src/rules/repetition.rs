//! Repetition verdicts (rules.md section 3): finding a repeated position in
//! the state stack, classifying the moves of the span between the counted
//! occurrences ([`super::chase`]) and judging it under the Asian (AXF) or the
//! Chinese (CXA 2011) rules; plus the search-facing [`RepetitionDetector`]
//! with its counting filter keyed by the Zobrist key.
//!
//! It does not decide other game ends (mate, natural move limit, material):
//! that is [`super`]'s job, nor does it turn verdicts into scores: the search
//! does that (see [`RepetitionDetector`]).

use std::fmt;

use super::chase::{classify_move, MoveClass, VictimSet};
use crate::board::Color;
use crate::position::{Key, Position};

/// Which repetition rules apply (UCCI/UCI option `rules`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Asian Xiangqi Federation rules (rules.md 3.2), the default.
    #[default]
    Asian,
    /// Chinese Xiangqi Association 2011 rules (rules.md 3.3).
    Chinese,
}

impl RuleSet {
    /// The option value (`asian`, `chinese`).
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Asian => "asian",
            RuleSet::Chinese => "chinese",
        }
    }

    /// Parses an option value (case-insensitive).
    pub fn parse(text: &str) -> Option<RuleSet> {
        match text.trim().to_ascii_lowercase().as_str() {
            "asian" | "axf" | "wxf" => Some(RuleSet::Asian),
            "chinese" | "cxa" => Some(RuleSet::Chinese),
            _ => None,
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a side did over a repetition span, when it is the violator.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// Every move checked (长将).
    PerpetualCheck,
    /// Every move chased (长捉; Asian: the same victim throughout).
    PerpetualChase,
    /// Every move threatened mate (长杀, Chinese rules).
    PerpetualMateThreat,
    /// Every move was an attack of mixed kinds (一将一捉 and the like, Chinese rules).
    PerpetualAttack,
    /// Nine-round rule (rules.md 3.3, Chinese rules, judge only).
    NineRound,
}

impl Violation {
    /// Text for the judge line ("perpetual check" ...).
    pub const fn name(self) -> &'static str {
        match self {
            Violation::PerpetualCheck => "perpetual check",
            Violation::PerpetualChase => "perpetual chase",
            Violation::PerpetualMateThreat => "perpetual mate threat",
            Violation::PerpetualAttack => "perpetual attack",
            Violation::NineRound => "nine-round rule violation",
        }
    }
}

/// The verdict on a repetition span.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpanVerdict {
    /// Neither or both sides broke the rules.
    Draw,
    /// `loser` broke the rules and loses.
    Loss { loser: Color, violation: Violation },
}

/// A repetition verdict seen from the side to move (for the search).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionVerdict {
    /// Draw score.
    Draw,
    /// The side to move wins (the opponent completed a forbidden perpetual).
    Win,
    /// The side to move loses (it is the violator).
    Loss,
}

impl SpanVerdict {
    /// The verdict for `side`.
    pub fn for_side(self, side: Color) -> RepetitionVerdict {
        match self {
            SpanVerdict::Draw => RepetitionVerdict::Draw,
            SpanVerdict::Loss { loser, .. } if loser == side => RepetitionVerdict::Loss,
            SpanVerdict::Loss { .. } => RepetitionVerdict::Win,
        }
    }
}

/// Indices (into `pos.states()`) of earlier occurrences of the current
/// position, most recent first, within the reversible stretch: back to the
/// last capture or null move and never before the stack's root.
pub fn earlier_occurrences(pos: &Position) -> impl Iterator<Item = usize> + '_ {
    let states = pos.states();
    let n = states.len() - 1;
    let key = states[n].key;
    let reach = (states[n].plies_since_capture as usize).min(n);
    // Stop at the most recent null move (a pass breaks the cycle).
    let stop = (n - reach..=n).rev().find(|&i| i > n - reach && !states[i].mv.is_some()).unwrap_or(n - reach);
    n.checked_sub(2)
        .into_iter()
        .flat_map(move |last| (stop..=last).rev().step_by(2))
        // Same key, same side to move (keys include the side; distance is even).
        .filter(move |&i| states[i].key == key)
}

/// The start index of the span to judge at the current position for a game
/// (threefold: the current position is the third occurrence; with more, the
/// last three count), if any.
pub fn threefold_span_start(pos: &Position) -> Option<usize> {
    earlier_occurrences(pos).nth(1)
}

/// Classifies every move played after `states()[start]` up to the current
/// position. Replays them on a copy; mate threats only when `chinese`.
pub fn classify_span(pos: &Position, start: usize, chinese: bool) -> Vec<(Color, MoveClass)> {
    let n = pos.game_ply();
    let mut replay = pos.clone();
    for _ in start..n {
        replay.unmake_move();
    }
    let states = pos.states();
    let mut out = Vec::with_capacity(n - start);
    for st in &states[start + 1..=n] {
        let mover = replay.side_to_move();
        let class = classify_move(&mut replay, st.mv, chinese);
        out.push((mover, class));
        replay.make_move(st.mv);
    }
    out
}

/// Per-side summary of a span.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct SideSummary {
    moves: usize,
    checks: usize,
    /// Victims chased (Asian) on every move of the side.
    same_victims: VictimSet,
    /// Moves that chase (Chinese).
    chinese_chases: usize,
    /// Moves that threaten mate (Chinese).
    mate_threats: usize,
    /// Moves that are attacks (Chinese).
    attacks: usize,
}

fn summarize(classes: &[(Color, MoveClass)], side: Color) -> SideSummary {
    let mut s = SideSummary { moves: 0, checks: 0, same_victims: !0, chinese_chases: 0, mate_threats: 0, attacks: 0 };
    for (_, c) in classes.iter().filter(|(mover, _)| *mover == side) {
        s.moves += 1;
        s.checks += c.check as usize;
        s.same_victims &= c.chased;
        s.chinese_chases += (c.chased_chinese != 0) as usize;
        s.mate_threats += c.mate_threat as usize;
        s.attacks += c.is_chinese_attack() as usize;
    }
    if s.moves == 0 {
        s.same_victims = 0;
    }
    s
}

/// Asian rank of a side (rules.md 3.2): 2 if every move checked; 1 if it
/// never checked and chased the same victim on every move; else 0. The other
/// side's checks play no part (AXF rule 18: a victim's checks do not excuse
/// the chaser).
fn asian_rank(s: &SideSummary) -> u8 {
    if s.moves > 0 && s.checks == s.moves {
        2
    } else if s.checks == 0 && s.same_victims != 0 {
        1
    } else {
        0
    }
}

/// The Chinese violation of a side whose every move is an attack.
fn chinese_violation(s: &SideSummary) -> Violation {
    if s.checks == s.moves {
        Violation::PerpetualCheck
    } else if s.chinese_chases == s.moves {
        Violation::PerpetualChase
    } else if s.mate_threats == s.moves {
        Violation::PerpetualMateThreat
    } else {
        Violation::PerpetualAttack
    }
}

/// Judges classified span moves under `rules`.
pub fn verdict(classes: &[(Color, MoveClass)], rules: RuleSet) -> SpanVerdict {
    let red = summarize(classes, Color::Red);
    let black = summarize(classes, Color::Black);
    match rules {
        RuleSet::Asian => {
            // rules.md 3.2: higher rank loses, equal ranks draw.
            let (r, b) = (asian_rank(&red), asian_rank(&black));
            let violation = |rank| if rank == 2 { Violation::PerpetualCheck } else { Violation::PerpetualChase };
            match r.cmp(&b) {
                std::cmp::Ordering::Greater => SpanVerdict::Loss { loser: Color::Red, violation: violation(r) },
                std::cmp::Ordering::Less => SpanVerdict::Loss { loser: Color::Black, violation: violation(b) },
                std::cmp::Ordering::Equal => SpanVerdict::Draw,
            }
        }
        RuleSet::Chinese => {
            // rules.md 3.3: a side is forbidden (长打) when every move is an attack.
            let forbidden = |s: &SideSummary| s.moves > 0 && s.attacks == s.moves;
            let only_checks = |s: &SideSummary| s.moves > 0 && s.checks == s.moves;
            let loss = |loser, s: &SideSummary| SpanVerdict::Loss { loser, violation: chinese_violation(s) };
            match (forbidden(&red), forbidden(&black)) {
                (true, false) => loss(Color::Red, &red),
                (false, true) => loss(Color::Black, &black),
                // Both forbidden: draw, except that a side that only checks against a
                // side that chases or threatens (not only checks) loses: a one-sided
                // perpetual check is never allowed.
                (true, true) => match (only_checks(&red), only_checks(&black)) {
                    (true, false) => loss(Color::Red, &red),
                    (false, true) => loss(Color::Black, &black),
                    _ => SpanVerdict::Draw,
                },
                (false, false) => SpanVerdict::Draw,
            }
        }
    }
}

/// Judges the span from `states()[start]` to the current position.
pub fn judge_span(pos: &Position, start: usize, rules: RuleSet) -> SpanVerdict {
    let classes = classify_span(pos, start, rules == RuleSet::Chinese);
    verdict(&classes, rules)
}

/// The threefold verdict at the current position, if it is a third (or later)
/// occurrence.
pub fn threefold_verdict(pos: &Position, rules: RuleSet) -> Option<SpanVerdict> {
    threefold_span_start(pos).map(|start| judge_span(pos, start, rules))
}

const FILTER_BITS: u32 = 13;
const FILTER_SIZE: usize = 1 << FILTER_BITS;

/// The search-facing repetition test.
///
/// It keeps a counting filter: one `u16` counter per bucket of the low
/// Zobrist-key bits, counting the positions on the current game + search
/// path. A position whose bucket holds only itself cannot have occurred
/// before, so the common case is one table lookup. Only when the bucket holds
/// more does [`RepetitionDetector::probe`] walk back (two plies at a time,
/// not past the last capture or null move), and only when it finds a real
/// repetition does it classify the span (replaying it on a copy; rare).
///
/// Use in the search:
/// - after [`RepetitionDetector::reset`] with the root position (game history
///   included), call [`RepetitionDetector::push`] with the new key after every
///   `make_move`/`make_null_move` and [`RepetitionDetector::pop`] with the key
///   being taken back before every unmake;
/// - at every non-root node call `probe(pos, root_ply)`, `root_ply` being
///   `pos.game_ply()` at the search root. It judges at the third occurrence,
///   or at the second when the earlier one lies inside the search path
///   (index `>= root_ply`).
/// - Turn the verdict into a score for the side to move: `Win` ->
///   `mate_in(ply)` (i.e. `MATE - ply`), `Loss` -> `mated_in(ply)`
///   (`-MATE + ply`), `Draw` -> the draw score. These scores depend on the
///   path: never store them (or bounds derived from them) in the TT as exact
///   path-independent values.
#[derive(Clone)]
pub struct RepetitionDetector {
    counts: Box<[u16]>,
    rules: RuleSet,
}

impl fmt::Debug for RepetitionDetector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RepetitionDetector({})", self.rules)
    }
}

impl RepetitionDetector {
    /// An empty detector for `rules`.
    pub fn new(rules: RuleSet) -> RepetitionDetector {
        RepetitionDetector { counts: vec![0u16; FILTER_SIZE].into_boxed_slice(), rules }
    }

    /// The rule set.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Changes the rule set (keeps the filter).
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
    }

    #[inline(always)]
    fn bucket(key: Key) -> usize {
        (key.0 as usize) & (FILTER_SIZE - 1)
    }

    /// Refills the filter with every position of `pos`'s state stack.
    pub fn reset(&mut self, pos: &Position) {
        self.counts.fill(0);
        for st in pos.states() {
            self.push(st.key);
        }
    }

    /// Records a position entered (call after make).
    #[inline(always)]
    pub fn push(&mut self, key: Key) {
        let c = &mut self.counts[Self::bucket(key)];
        *c = c.wrapping_add(1);
    }

    /// Forgets a position left (call before unmake, with its key).
    #[inline(always)]
    pub fn pop(&mut self, key: Key) {
        let c = &mut self.counts[Self::bucket(key)];
        *c = c.wrapping_sub(1);
    }

    /// Whether the current position may have occurred before (filter only).
    #[inline(always)]
    pub fn may_repeat(&self, pos: &Position) -> bool {
        self.counts[Self::bucket(pos.key())] > 1
    }

    /// The repetition verdict at the current node, if one applies (see the
    /// type's documentation for the search contract).
    #[inline]
    pub fn probe(&self, pos: &Position, root_ply: usize) -> Option<RepetitionVerdict> {
        if !self.may_repeat(pos) {
            return None;
        }
        self.probe_slow(pos, root_ply)
    }

    #[cold]
    fn probe_slow(&self, pos: &Position, root_ply: usize) -> Option<RepetitionVerdict> {
        let mut occurrences = earlier_occurrences(pos);
        let first = occurrences.next()?;
        let start = if first >= root_ply { first } else { occurrences.next()? };
        Some(judge_span(pos, start, self.rules).for_side(pos.side_to_move()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn occurrences_are_found_two_plies_apart() {
        let pos = play("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a1 d9d8 a1a0 d8d9 a0a1 d9d8 a1a0 d8d9");
        let occ: Vec<usize> = earlier_occurrences(&pos).collect();
        assert_eq!(occ, vec![4, 0]);
        assert_eq!(threefold_span_start(&pos), Some(0));
        assert_eq!(threefold_verdict(&pos, RuleSet::Asian), Some(SpanVerdict::Draw));
    }

    #[test]
    fn a_capture_or_null_move_breaks_the_chain() {
        let mut pos = play("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a1 d9d8 a1a0 d8d9");
        assert_eq!(earlier_occurrences(&pos).count(), 1);
        pos.make_null_move();
        pos.make_null_move();
        assert_eq!(earlier_occurrences(&pos).count(), 0);
    }

    #[test]
    fn detector_filter_and_probe() {
        let fen = "3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let mut det = RepetitionDetector::new(RuleSet::Asian);
        det.reset(&pos);
        let moves = ["i0i9", "d9d8", "i9i8", "d8d9", "i8i9", "d9d8", "i9i8", "d8d9", "i8i9"];
        let mut seen = Vec::new();
        for (k, m) in moves.iter().enumerate() {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
            det.push(pos.key());
            // Search from the start position: root_ply 0, second occurrences count.
            seen.push((k + 1, det.probe(&pos, 0)));
        }
        // Ply 5 repeats ply 1 (black to move after red's check): red's checks lose.
        assert_eq!(seen[4], (5, Some(RepetitionVerdict::Win)));
        assert_eq!(seen[0].1, None);
        // A root after the cycle: the second occurrence lies before it, only a third counts.
        assert_eq!(det.probe(&pos, 8), Some(RepetitionVerdict::Win));
        for _ in 0..moves.len() {
            det.pop(pos.key());
            pos.unmake_move();
        }
        let mut fresh = RepetitionDetector::new(RuleSet::Asian);
        fresh.reset(&pos);
        assert_eq!(fresh.counts, det.counts);
    }
}
