//! Repetition verdicts (docs/rules.md section 3): finding a repeated position in
//! the state stack, classifying the moves of the span between the counted
//! occurrences ([`super::chase`]) and judging it under the Asian (AXF) or the
//! Chinese (CXA 2011) rules; plus the search-facing [`RepetitionDetector`]
//! with its counting filter keyed by the Zobrist key.
//!
//! Rules implemented here, by docs/rules.md section:
//! - 3: a repetition is the same position with the same side to move, found
//!   two plies at a time back to the last capture (or null move); the judge
//!   rules at the third occurrence over the span from the first of the last
//!   three ([`threefold_span_start`]); the search also at a second occurrence
//!   whose earlier one lies inside the searched line; a span of two different
//!   cycles is judged whole;
//! - 3.2 Asian ranks ([`asian_rank`]): 2 for a check on every move, 1 for the
//!   same victim chased on every move (checks count when they chase it), else
//!   0; the higher rank loses;
//! - 3.3 Chinese ([`chinese_forbidden`]): a side whose every move is an attack
//!   (check, Chinese chase, mate threat, in any mix) is forbidden; one side
//!   forbidden loses, both or neither draw, except that only checks against
//!   other attacks lose.
//!
//! Approximations: those of the classification ([`super::chase`]); inside the
//! search, draws found through a repetition are path-dependent results stored
//! like others (docs/rules.md 3.5).
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
    /// Asian Xiangqi Federation rules (docs/rules.md 3.2), the default.
    #[default]
    Asian,
    /// Chinese Xiangqi Association 2011 rules (docs/rules.md 3.3).
    Chinese,
}

impl RuleSet {
    /// The option value (`asian`, `chinese`).
    pub(crate) const fn name(self) -> &'static str {
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
    /// Nine-round rule (docs/rules.md 3.3, Chinese rules, judge only).
    NineRound,
}

impl Violation {
    /// Text for the judge line ("perpetual check" ...).
    pub(crate) const fn name(self) -> &'static str {
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
pub struct SideSummary {
    /// Moves of the side in the span.
    pub moves: usize,
    /// Of them, checks.
    pub(crate) checks: usize,
    /// Victims chased (Asian) on every move of the side.
    pub(crate) same_victims: VictimSet,
    /// Moves that chase (Asian).
    pub(crate) asian_chases: usize,
    /// Moves that chase (Chinese).
    pub(crate) chinese_chases: usize,
    /// Moves that threaten mate (Chinese).
    pub(crate) mate_threats: usize,
    /// Moves that are attacks (Chinese).
    pub(crate) attacks: usize,
}

/// The summary of `side`'s moves in classified span moves.
pub(crate) fn summarize(classes: &[(Color, MoveClass)], side: Color) -> SideSummary {
    let mut s = SideSummary {
        moves: 0,
        checks: 0,
        same_victims: !0,
        asian_chases: 0,
        chinese_chases: 0,
        mate_threats: 0,
        attacks: 0,
    };
    for (_, c) in classes.iter().filter(|(mover, _)| *mover == side) {
        s.moves += 1;
        s.checks += c.check as usize;
        s.same_victims &= c.chased;
        s.asian_chases += (c.chased != 0) as usize;
        s.chinese_chases += (c.chased_chinese != 0) as usize;
        s.mate_threats += c.mate_threat as usize;
        s.attacks += c.is_chinese_attack() as usize;
    }
    if s.moves == 0 {
        s.same_victims = 0;
    }
    s
}

/// Asian rank of a side (docs/rules.md 3.2): 2 if every move checked; 1 if it
/// chased the same victim on every move (a checking move counts when it also
/// chases that victim; a check that chases nothing breaks the chase); else 0.
/// The other side's checks play no part (AXF rule 18: a victim's checks do
/// not excuse the chaser).
pub(crate) fn asian_rank(s: &SideSummary) -> u8 {
    if s.moves > 0 && s.checks == s.moves {
        2
    } else if s.same_victims != 0 {
        1
    } else {
        0
    }
}

/// Whether a side is forbidden under the Chinese rules (长打, docs/rules.md
/// 3.3): it moved in the span and every one of its moves is an attack.
pub(crate) fn chinese_forbidden(s: &SideSummary) -> bool {
    s.moves > 0 && s.attacks == s.moves
}

/// The Chinese violation of a side whose every move is an attack.
pub(crate) fn chinese_violation(s: &SideSummary) -> Violation {
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
///
/// Asian (docs/rules.md 3.2): per side, rank 2 if every move checked, 1 if it never
/// checked and chased the same victim on every move, else 0; higher loses.
///
/// Chinese (docs/rules.md 3.3), with these approximations of CXA 2011:
/// - an attack is a check, a Chinese chase ([`MoveClass::chased_chinese`]:
///   unprotected, falsely or under-protected by a static exchange, or a
///   chariot under a horse/cannon) or a *new* mate threat by checks within
///   [`super::chase::MATE_THREAT_DEPTH`] moves; quiet mating nets beyond
///   that horizon are idle;
/// - 长打 is "every move of the side in the span is an attack", which covers
///   长将, 长捉 (one or several victims), 长杀 and every mix (一将一捉, ...);
/// - joint chases (several pieces chasing together), causality ("the chase
///   was forced by the opponent") and "cannot leave the line" are not
///   mechanised: the classification looks at each move alone.
pub(crate) fn verdict(classes: &[(Color, MoveClass)], rules: RuleSet) -> SpanVerdict {
    let red = summarize(classes, Color::Red);
    let black = summarize(classes, Color::Black);
    match rules {
        RuleSet::Asian => asian_decision(asian_rank(&red), asian_rank(&black)),
        RuleSet::Chinese => {
            let only_checks = |s: &SideSummary| s.moves > 0 && s.checks == s.moves;
            let side = |s: &SideSummary| (chinese_forbidden(s), only_checks(s), chinese_violation(s));
            chinese_decision(side(&red), side(&black))
        }
    }
}

/// The Asian verdict from the two sides' ranks (docs/rules.md 3.2: 2 for a
/// side that checked on every move, 1 for one that chased, 0 otherwise):
/// the higher rank loses, equal ranks draw.
fn asian_decision(red: u8, black: u8) -> SpanVerdict {
    let violation = |rank| if rank == 2 { Violation::PerpetualCheck } else { Violation::PerpetualChase };
    match red.cmp(&black) {
        std::cmp::Ordering::Greater => SpanVerdict::Loss { loser: Color::Red, violation: violation(red) },
        std::cmp::Ordering::Less => SpanVerdict::Loss { loser: Color::Black, violation: violation(black) },
        std::cmp::Ordering::Equal => SpanVerdict::Draw,
    }
}

/// The Chinese verdict from each side's (forbidden: every move an attack,
/// only checks, violation) (docs/rules.md 3.3, 长打): one forbidden side
/// loses; when both are, a side that only checks loses against one that
/// chases or threatens too (a one-sided perpetual check is never allowed),
/// otherwise it is a draw.
fn chinese_decision(red: (bool, bool, Violation), black: (bool, bool, Violation)) -> SpanVerdict {
    let loss = |loser, violation| SpanVerdict::Loss { loser, violation };
    match (red.0, black.0) {
        (true, false) => loss(Color::Red, red.2),
        (false, true) => loss(Color::Black, black.2),
        (true, true) => match (red.1, black.1) {
            (true, false) => loss(Color::Red, red.2),
            (false, true) => loss(Color::Black, black.2),
            _ => SpanVerdict::Draw,
        },
        (false, false) => SpanVerdict::Draw,
    }
}

/// Judges the span from `states()[start]` to the current position.
pub fn judge_span(pos: &Position, start: usize, rules: RuleSet) -> SpanVerdict {
    let classes = classify_span(pos, start, rules == RuleSet::Chinese);
    verdict(&classes, rules)
}

/// The threefold verdict at the current position, if it is a third (or later)
/// occurrence.
pub(crate) fn threefold_verdict(pos: &Position, rules: RuleSet) -> Option<SpanVerdict> {
    threefold_span_start(pos).map(|start| judge_span(pos, start, rules))
}

const FILTER_BITS: u32 = 13;
const FILTER_SIZE: usize = 1 << FILTER_BITS;
const CACHE_SIZE: usize = 1024;
/// The shortest cycle: each side moves away and back (a null move breaks a
/// cycle, see [`earlier_occurrences`]). With fewer plies since the last
/// capture no earlier occurrence can exist, so the filter is not asked.
const MIN_CYCLE_PLIES: u16 = 4;

/// The detector's answer at a node ([`RepetitionDetector::probe_node`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum NodeRepetition {
    /// The position has not occurred before in the reversible stretch.
    Fresh,
    /// It occurred once before, before the search root: no verdict yet, but a
    /// further repetition below it would be a third occurrence, so results
    /// under it depend on the path (the search keys its table on this).
    Seen,
    /// A repetition to judge: the verdict for the side to move, and the index
    /// (into `pos.states()`) of the occurrence the judged span starts from.
    Verdict(RepetitionVerdict, usize),
}

/// The search-facing repetition test.
///
/// It keeps a counting filter: one `u16` counter per bucket of the low
/// Zobrist-key bits, counting the positions on the current game + search
/// path. A position whose bucket holds only itself cannot have occurred
/// before, so the common case is one table lookup (none at all within three
/// plies of a capture, where no cycle fits). Only when the bucket holds
/// more does [`RepetitionDetector::probe`] walk back (two plies at a time,
/// not past the last capture or null move), and only when it finds a real
/// repetition does it judge the span. The judgement classifies only the
/// moves the verdict depends on: whether a move checks is read off the state
/// stack, a side that checked on every move needs nothing more, and a side's
/// moves stop being classified once one of them settles its rank (a move
/// without a chase under the Asian rules, without an attack under the
/// Chinese ones). The verdict is the one [`judge_span`] gives. Classifications
/// are cached per (position key, move) — a move's class depends only on the
/// position it is played in — so a cycle met again elsewhere in the tree
/// costs lookups only; a miss replays the span on a copy of the position.
///
/// Use in the search (one detector per search thread):
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
///
/// ```
/// use chuhan::rules::{RepetitionDetector, RepetitionVerdict, RuleSet};
/// use chuhan::Position;
///
/// // docs/rules.md T01: red has checked once around the cycle; the search starts here.
/// let mut pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1").unwrap();
/// for m in ["i0i9", "d9d8", "i9i8", "d8d9"] {
///     let mv = pos.parse_move(m).unwrap();
///     pos.make_move(mv);
/// }
/// let root = pos.game_ply();
/// let mut det = RepetitionDetector::new(RuleSet::Asian);
/// det.reset(&pos);
/// let mut verdicts = Vec::new();
/// for m in ["i8i9", "d9d8", "i9i8", "d8d9", "i8i9"] {
///     let mv = pos.parse_move(m).unwrap();
///     pos.make_move(mv);
///     det.push(pos.key());
///     verdicts.push(det.probe(&pos, root));
/// }
/// // The first i8i9 repeats a position from before the root (a second
/// // occurrence): no verdict. d8d9 returns to the root position, inside the
/// // search path: red checked on every move of that cycle, so red, to move,
/// // loses (score mated_in(ply)); the second i8i9 likewise wins for black.
/// use RepetitionVerdict::{Loss, Win};
/// assert_eq!(verdicts, [None, None, None, Some(Loss), Some(Win)]);
/// // Unwind as the search does.
/// for _ in 0..5 {
///     det.pop(pos.key());
///     pos.unmake_move();
/// }
/// assert!(!det.may_repeat(&pos));
/// ```
#[derive(Clone)]
pub struct RepetitionDetector {
    counts: Box<[u16; FILTER_SIZE]>,
    /// (tag, class) with tag = key ^ move hash (0 = empty).
    cache: Box<[(u64, MoveClass); CACHE_SIZE]>,
    /// The span replay (reused, so a classification allocates nothing).
    replay: Option<Position>,
    rules: RuleSet,
}

impl fmt::Debug for RepetitionDetector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RepetitionDetector({})", self.rules)
    }
}

/// What the lazy judgement of a span knows of one side
/// ([`RepetitionDetector::judge_span_lazy`]).
#[derive(Copy, Clone, Debug)]
struct SideTally {
    /// The side's moves in the span.
    moves: usize,
    /// Of them, checks (read off the state stack).
    checks: usize,
    /// Asian: the victims chased on every move classified so far; Chinese:
    /// nonzero while every move classified so far is an attack.
    open: VictimSet,
}

impl SideTally {
    fn all_checks(&self) -> bool {
        self.moves > 0 && self.checks == self.moves
    }
}

impl RepetitionDetector {
    /// An empty detector for `rules`.
    pub fn new(rules: RuleSet) -> RepetitionDetector {
        let cache = vec![(0u64, MoveClass::default()); CACHE_SIZE].into_boxed_slice();
        RepetitionDetector {
            counts: Box::new([0u16; FILTER_SIZE]),
            cache: cache.try_into().expect("CACHE_SIZE entries"),
            replay: None,
            rules,
        }
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
    pub fn probe(&mut self, pos: &Position, root_ply: usize) -> Option<RepetitionVerdict> {
        match self.probe_node(pos, root_ply) {
            NodeRepetition::Verdict(v, _) => Some(v),
            NodeRepetition::Fresh | NodeRepetition::Seen => None,
        }
    }

    /// What the history says about the current node: a verdict, or whether
    /// the position occurred before without one yet (once, before the root).
    #[inline(always)]
    pub(crate) fn probe_node(&mut self, pos: &Position, root_ply: usize) -> NodeRepetition {
        let st = pos.state();
        if st.plies_since_capture < MIN_CYCLE_PLIES || !self.may_repeat(pos) {
            return NodeRepetition::Fresh;
        }
        self.probe_slow(pos, root_ply)
    }

    #[cold]
    #[inline(never)]
    fn probe_slow(&mut self, pos: &Position, root_ply: usize) -> NodeRepetition {
        let mut occurrences = earlier_occurrences(pos);
        let Some(first) = occurrences.next() else {
            return NodeRepetition::Fresh;
        };
        let start = if first >= root_ply {
            first
        } else {
            match occurrences.next() {
                Some(second) => second,
                None => return NodeRepetition::Seen,
            }
        };
        NodeRepetition::Verdict(self.judge_span_lazy(pos, start), start)
    }

    #[inline]
    fn tag(key: Key, mv: crate::moves::Move) -> u64 {
        let t = key.0 ^ (mv.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        t | 1
    }

    #[inline]
    fn slot(tag: u64) -> usize {
        (tag >> 32) as usize % CACHE_SIZE
    }

    /// The cached class of the move of ply `i` (`states[i].mv` played in `states[i - 1]`).
    fn cached(&self, states: &[crate::position::StateInfo], i: usize) -> Option<MoveClass> {
        let tag = Self::tag(states[i - 1].key, states[i].mv);
        let (t, class) = self.cache[Self::slot(tag)];
        (t == tag).then_some(class)
    }

    /// `verdict(&classify_span(pos, start, ..), rules).for_side(side to move)`,
    /// classifying only the moves that decide it (see the type's
    /// documentation), through the class cache.
    ///
    /// Asian: a side that checked on every move ranks 2; if either side does,
    /// the ranks' order is known from the checks alone. Otherwise both ranks
    /// are 0 or 1: 1 while the victims chased on every move of the side so
    /// far (checking moves included) have a common piece, so a side is
    /// settled at 0 by its first move that breaks it.
    ///
    /// Chinese: a checking move is an attack; a side is forbidden unless one
    /// of its other moves is neither a chase nor a mate threat, and settled by
    /// the first such move.
    fn judge_span_lazy(&mut self, pos: &Position, start: usize) -> RepetitionVerdict {
        let states = pos.states();
        let n = states.len() - 1;
        let stm = pos.side_to_move();
        let chinese = self.rules == RuleSet::Chinese;
        // The mover of ply i is the side to move at i - 1: the side not to
        // move now when n - i is even. Index 0: Red, 1: Black.
        let mover = |i: usize| if (n - i).is_multiple_of(2) { !stm } else { stm };
        let idx = |c: Color| (c == Color::Black) as usize;
        let mut sides = [SideTally { moves: 0, checks: 0, open: !0 }; 2];
        for i in start + 1..=n {
            let s = &mut sides[idx(mover(i))];
            s.moves += 1;
            s.checks += states[i].in_check as usize;
        }
        for s in &mut sides {
            if s.moves == 0 {
                s.open = 0;
            }
        }
        let [red, black] = sides;
        if !chinese && (red.all_checks() || black.all_checks()) {
            // Asian: rank 2 against rank 2 draws, against 0 or 1 loses.
            let rank = |s: &SideTally| if s.all_checks() { 2 } else { 0 };
            return asian_decision(rank(&red), rank(&black)).for_side(stm);
        }
        // Whether the move of ply i needs its class (its side not settled yet,
        // and under the Chinese rules not a check, which is an attack anyway).
        let needs = |sides: &[SideTally; 2], i: usize| {
            let s = &sides[idx(mover(i))];
            s.open != 0 && !(chinese && states[i].in_check)
        };
        let fold = |s: &mut SideTally, class: MoveClass| {
            if chinese {
                if !class.is_chinese_attack() {
                    s.open = 0;
                }
            } else {
                s.open &= class.chased;
            }
        };
        // Cached classes first: they may settle a side for free.
        let mut missing = false;
        for i in start + 1..=n {
            if needs(&sides, i) {
                match self.cached(states, i) {
                    Some(class) => fold(&mut sides[idx(mover(i))], class),
                    None => missing = true,
                }
            }
        }
        if missing && (sides[0].open != 0 || sides[1].open != 0) {
            let mut replay = self.replay.take().unwrap_or_else(|| pos.clone());
            replay.copy_from(pos);
            for _ in start..n {
                replay.unmake_move();
            }
            for i in start + 1..=n {
                if sides[0].open == 0 && sides[1].open == 0 {
                    break;
                }
                let mv = states[i].mv;
                if needs(&sides, i) && self.cached(states, i).is_none() {
                    let class = classify_move(&mut replay, mv, chinese);
                    let tag = Self::tag(states[i - 1].key, mv);
                    self.cache[Self::slot(tag)] = (tag, class);
                    fold(&mut sides[idx(mover(i))], class);
                }
                replay.make_move(mv);
            }
            self.replay = Some(replay);
        }
        let [red, black] = sides;
        let v = if chinese {
            // A side is forbidden when every move is an attack.
            let side = |s: &SideTally| (s.open != 0, s.all_checks(), Violation::PerpetualAttack);
            chinese_decision(side(&red), side(&black))
        } else {
            // Neither side checked on every move: rank 1 while it chased throughout.
            asian_decision((red.open != 0) as u8, (black.open != 0) as u8)
        };
        v.for_side(stm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &str) -> Position {
        crate::rules::play_moves(fen, false, moves.split_whitespace()).unwrap()
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
        // The span of red's perpetual check: under the Asian rules the checks
        // alone decide it (nothing is classified); under the Chinese rules
        // only black's first move (idle: the general steps aside) is.
        let filled = |det: &RepetitionDetector| det.cache.iter().filter(|e| e.0 != 0).count();
        for (rules, classified) in [(RuleSet::Asian, 0), (RuleSet::Chinese, 1)] {
            let mut det = RepetitionDetector::new(rules);
            for m in &moves {
                let mv = pos.parse_move(m).unwrap();
                pos.make_move(mv);
            }
            let start = threefold_span_start(&pos).unwrap();
            assert_eq!(det.judge_span_lazy(&pos, start), RepetitionVerdict::Win);
            assert_eq!(filled(&det), classified, "{rules}");
            assert_eq!(judge_span(&pos, start, rules).for_side(pos.side_to_move()), RepetitionVerdict::Win);
            while pos.game_ply() > 0 {
                pos.unmake_move();
            }
        }
    }

    /// The lazy judgement agrees with the full classification on every span
    /// of seeded random shuffles (chases, checks, exchange offers, pins),
    /// with a fresh detector and with one whose cache is warm from the
    /// earlier spans, under both rule sets.
    #[test]
    fn lazy_judgement_equals_the_full_one() {
        use rand::{Rng, SeedableRng};
        use rand_xoshiro::Xoshiro256PlusPlus;
        let fens = [
            "4k4/9/n8/9/9/9/1R7/9/9/3K5 w - - 0 1",
            "3rk4/9/n8/9/2b6/9/1R7/9/9/5K3 w - - 0 1",
            "4k4/9/r3r4/9/9/pp7/9/9/1C7/3K5 w - - 0 1",
            "3k5/9/c8/8R/9/9/9/9/9/5K3 w - - 0 1",
            "4k4/4a4/3n5/9/9/9/9/1R7/4R4/5K3 w - - 0 1",
            "3rk4/9/9/9/9/c8/3R5/9/9/3K5 w - - 0 1",
            "5k3/9/c8/9/3R5/9/9/3A5/9/3K5 w - - 0 1",
            "3k5/9/4c4/3P5/9/9/9/9/9/5K3 w - - 0 1",
            "2bak4/4a4/2n1b4/p3p1R1p/9/2P3r2/P3P3P/4B1N2/4A4/3AK1B2 w - - 0 1",
        ];
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
        let (mut spans, mut losses) = (0, 0);
        for fen in fens {
            for rules in [RuleSet::Asian, RuleSet::Chinese] {
                let mut warm = RepetitionDetector::new(rules);
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // Mostly take back one's own move of two plies ago (cycles),
                    // else one of the first moves generated (checks and chases
                    // come up among them in these sparse positions).
                    let n = pos.game_ply();
                    let back = (n >= 2 && rng.gen_bool(0.7))
                        .then(|| pos.states()[n - 1].mv)
                        .map(|m| crate::moves::Move::new(m.to(), m.from()))
                        .filter(|m| moves.contains(m));
                    pos.make_move(back.unwrap_or_else(|| moves[rng.gen_range(0..moves.len().min(6))]));
                    let starts: Vec<usize> = earlier_occurrences(&pos).collect();
                    for start in starts {
                        let full = judge_span(&pos, start, rules).for_side(pos.side_to_move());
                        let mut fresh = RepetitionDetector::new(rules);
                        assert_eq!(fresh.judge_span_lazy(&pos, start), full, "{fen} {rules} from {start}");
                        assert_eq!(warm.judge_span_lazy(&pos, start), full, "{fen} {rules} from {start} (warm)");
                        spans += 1;
                        losses += (full != RepetitionVerdict::Draw) as u32;
                    }
                }
            }
        }
        assert!(spans > 200 && losses > 20, "spans {spans}, losses {losses}");
    }

    fn mv(check: bool, chased: VictimSet, chinese: VictimSet, mate: bool) -> MoveClass {
        MoveClass { check, chased, chased_chinese: chinese, mate_threat: mate }
    }
    const IDLE: MoveClass = MoveClass { check: false, chased: 0, chased_chinese: 0, mate_threat: false };
    const CHECK: MoveClass = MoveClass { check: true, chased: 0, chased_chinese: 0, mate_threat: false };

    /// A span alternating red and black moves.
    fn span(red: &[MoveClass], black: &[MoveClass]) -> Vec<(Color, MoveClass)> {
        red.iter().zip(black).flat_map(|(&r, &b)| [(Color::Red, r), (Color::Black, b)]).collect()
    }

    fn loss(loser: Color, violation: Violation) -> SpanVerdict {
        SpanVerdict::Loss { loser, violation }
    }

    #[test]
    fn asian_ranks() {
        let chase = |v: VictimSet| mv(false, v, v, false);
        use Color::*;
        // Perpetual check loses; mutual check draws.
        assert_eq!(
            verdict(&span(&[CHECK, CHECK], &[IDLE, IDLE]), RuleSet::Asian),
            loss(Red, Violation::PerpetualCheck)
        );
        assert_eq!(verdict(&span(&[CHECK, CHECK], &[CHECK, CHECK]), RuleSet::Asian), SpanVerdict::Draw);
        // Perpetual checker against perpetual chaser: the checker loses.
        assert_eq!(
            verdict(&span(&[CHECK, CHECK], &[chase(1 << 20), chase(1 << 20)]), RuleSet::Asian),
            loss(Red, Violation::PerpetualCheck)
        );
        // Perpetual chase of one victim loses; of two different victims alternately it is allowed.
        assert_eq!(
            verdict(&span(&[chase(1 << 40), chase(1 << 40 | 1 << 41)], &[IDLE, IDLE]), RuleSet::Asian),
            loss(Red, Violation::PerpetualChase)
        );
        assert_eq!(verdict(&span(&[chase(1 << 40), chase(1 << 41)], &[IDLE, IDLE]), RuleSet::Asian), SpanVerdict::Draw);
        // Mutual chase draws.
        assert_eq!(
            verdict(&span(&[chase(1 << 40), chase(1 << 40)], &[chase(1 << 20), chase(1 << 20)]), RuleSet::Asian),
            SpanVerdict::Draw
        );
        // One check one chase, one check one idle: allowed.
        assert_eq!(verdict(&span(&[CHECK, chase(1 << 40)], &[IDLE, IDLE]), RuleSet::Asian), SpanVerdict::Draw);
        assert_eq!(verdict(&span(&[CHECK, IDLE], &[IDLE, IDLE]), RuleSet::Asian), SpanVerdict::Draw);
        // The victim side's occasional check does not excuse the chaser (AXF rule 18).
        assert_eq!(
            verdict(&span(&[chase(1 << 40), chase(1 << 40)], &[CHECK, IDLE]), RuleSet::Asian),
            loss(Red, Violation::PerpetualChase)
        );
        // Perpetual mate threats are allowed under Asian rules.
        let mate = mv(false, 0, 0, true);
        assert_eq!(verdict(&span(&[mate, mate], &[IDLE, IDLE]), RuleSet::Asian), SpanVerdict::Draw);
    }

    #[test]
    fn chinese_attacks() {
        use Color::*;
        let chase = |v: VictimSet| mv(false, 0, v, false);
        let mate = mv(false, 0, 0, true);
        let c = RuleSet::Chinese;
        // 长将, 长捉 (several victims), 长杀, 一将一捉, 一将一杀, 一杀一捉 are all forbidden.
        assert_eq!(verdict(&span(&[CHECK, CHECK], &[IDLE, IDLE]), c), loss(Red, Violation::PerpetualCheck));
        assert_eq!(
            verdict(&span(&[chase(1 << 40), chase(1 << 41)], &[IDLE, IDLE]), c),
            loss(Red, Violation::PerpetualChase)
        );
        assert_eq!(verdict(&span(&[mate, mate], &[IDLE, IDLE]), c), loss(Red, Violation::PerpetualMateThreat));
        for pair in [[CHECK, chase(1 << 40)], [CHECK, mate], [mate, chase(1 << 40)]] {
            assert_eq!(verdict(&span(&pair, &[IDLE, IDLE]), c), loss(Red, Violation::PerpetualAttack));
        }
        // Two attacks against one attack back (二打对一还打): the two-attack side changes.
        assert_eq!(
            verdict(&span(&[chase(1 << 40), chase(1 << 40)], &[chase(1 << 20), IDLE]), c),
            loss(Red, Violation::PerpetualChase)
        );
        // Two idles against two chases (两闲对两捉): the chasing side changes.
        assert_eq!(
            verdict(&span(&[IDLE, IDLE], &[chase(1 << 20), chase(1 << 20)]), c),
            loss(Black, Violation::PerpetualChase)
        );
        // Both forbidden: draw; but only checks against chases: the checker loses.
        assert_eq!(verdict(&span(&[CHECK, CHECK], &[CHECK, CHECK]), c), SpanVerdict::Draw);
        assert_eq!(verdict(&span(&[chase(1 << 40), mate], &[chase(1 << 20), chase(1 << 21)]), c), SpanVerdict::Draw);
        assert_eq!(
            verdict(&span(&[CHECK, CHECK], &[chase(1 << 20), chase(1 << 20)]), c),
            loss(Red, Violation::PerpetualCheck)
        );
        // One check one idle is allowed.
        assert_eq!(verdict(&span(&[CHECK, IDLE], &[IDLE, IDLE]), c), SpanVerdict::Draw);
    }
}
