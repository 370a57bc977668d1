//! The staged move picker: yields the legal moves of a node in the order the
//! search wants them, generating lazily so that a cutoff by the first moves
//! saves the rest of the work.
//!
//! Main search: TT move, good captures (SEE >= 0, by victim value and
//! capture history), killers, counter move, quiet moves by butterfly +
//! continuation history, bad captures. In check: TT move, then all evasions
//! (captures first). Quiescence: TT move if it captures, then captures by
//! victim value (the caller prunes by SEE). Every legal move is yielded
//! exactly once (a test drives perft through the picker).
//!
//! Captures and evasions come from the generator already legal; quiet moves
//! come pseudo-legal with a flag on the few that need the legality test
//! (moves of a possibly pinned piece, general moves), which is run only when
//! the move's turn comes, so a cutoff saves the tests of the rest. Moves from
//! outside the generator (TT, killers, counter) are tested with
//! `Position::is_legal`.

use arrayvec::ArrayVec;

use super::history::{cont_index, victim_column, Histories, CONT_ROWS};
use super::see::{cell_value, see_ge};
use crate::board::{code_of, EMPTY};
use crate::movegen::{generate, generate_into, Captures, DeferredList, Evasions, Quiets};
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    EvTtMove,
    GenEvasions,
    Evasions,
    QTtMove,
    QGenCaptures,
    QCaptures,
    Done,
}

/// What the picker needs from the search to score quiet moves.
pub struct OrderContext<'a> {
    /// The thread's history tables.
    pub hist: &'a Histories,
    /// Continuation rows of the moves one and two plies back.
    pub cont: [usize; 2],
}

/// A staged move picker for one node.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    moves: ArrayVec<(Move, i32), MAX_MOVES>,
    /// The quiet stage's moves, best first, each packed as one sort key (see
    /// [`quiet_key`]) with its legality-test flag: a flagged move is tested
    /// only when its turn comes.
    quiets: ArrayVec<i64, MAX_MOVES>,
    cur: usize,
    bad: ArrayVec<Move, MAX_MOVES>,
    bad_cur: usize,
    /// When set, the quiet stage yields only the quiet moves that give check
    /// and counts the legal ones it passes over (late move pruning that keeps
    /// quiet checks; see [`MovePicker::take_skipped`]).
    pub quiet_checks_only: bool,
    skipped: u32,
}

/// Scores quiet moves by butterfly + continuation history, with the node's
/// three history rows looked up once.
struct QuietScorer<'a> {
    butterfly: &'a [i16; 8100],
    cont: [&'a [i16; CONT_ROWS]; 2],
}

impl<'a> QuietScorer<'a> {
    #[inline(always)]
    fn new(pos: &Position, ctx: &OrderContext<'a>) -> QuietScorer<'a> {
        let h = ctx.hist;
        QuietScorer {
            butterfly: &h.butterfly[pos.side_to_move().index()],
            cont: [&h.continuation[ctx.cont[0]], &h.continuation[ctx.cont[1]]],
        }
    }

    #[inline(always)]
    fn score(&self, pos: &Position, m: Move) -> i32 {
        let code = code_of(pos.board().cell(m.from()));
        let row = cont_index(code, m.to().0);
        self.butterfly[Histories::bf_index(m)] as i32 + self.cont[0][row] as i32 + self.cont[1][row] as i32
    }
}

/// A quiet move as one integer that sorts (descending) by `score`, then by
/// generation index `i` (ascending), carrying the move and its test flag.
#[inline(always)]
fn quiet_key(score: i32, i: usize, m: Move, test: bool) -> i64 {
    (score as i64) << 32 | ((255 - i as i64) << 24) | (test as i64) << 16 | m.0 as i64
}

#[inline]
fn is_capture(pos: &Position, m: Move) -> bool {
    pos.board().cell(m.to()) != EMPTY
}

impl MovePicker {
    /// A picker for a main-search node (in check: evasions).
    #[inline(always)]
    pub fn new(pos: &Position, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        let stage = if pos.in_check() { Stage::EvTtMove } else { Stage::TtMove };
        MovePicker::at_stage(stage, tt_move, killers, counter)
    }

    /// A picker for a quiescence node: captures (in check: all evasions).
    #[inline(always)]
    pub fn new_qsearch(pos: &Position, tt_move: Move) -> MovePicker {
        let stage = if pos.in_check() { Stage::EvTtMove } else { Stage::QTtMove };
        MovePicker::at_stage(stage, tt_move, [Move::NULL; 2], Move::NULL)
    }

    /// Built in place by the callers above (the lists are large and not
    /// initialised; building and then changing a picker made the compiler
    /// copy it).
    #[inline(always)]
    fn at_stage(stage: Stage, tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        MovePicker {
            stage,
            tt_move,
            killers,
            counter,
            moves: ArrayVec::new(),
            quiets: ArrayVec::new(),
            cur: 0,
            bad: ArrayVec::new(),
            bad_cur: 0,
            quiet_checks_only: false,
            skipped: 0,
        }
    }

    fn capture_score(pos: &Position, hist: &Histories, m: Move) -> i32 {
        let cells = pos.board().cells();
        let mover = cells[m.from().index()];
        let victim = cells[m.to().index()];
        cell_value(victim) * 8 - cell_value(mover) / 16
            + hist.capture[cont_index(code_of(mover), m.to().0)][victim_column(victim)] as i32 / 8
    }

    /// Selection step: moves the best-scored remaining move to `cur` and returns it.
    fn pick_best(&mut self) -> Option<Move> {
        if self.cur >= self.moves.len() {
            return None;
        }
        let mut best = self.cur;
        for i in self.cur + 1..self.moves.len() {
            if self.moves[i].1 > self.moves[best].1 {
                best = i;
            }
        }
        self.moves.swap(self.cur, best);
        let m = self.moves[self.cur].0;
        self.cur += 1;
        Some(m)
    }

    /// How many legal quiet moves were passed over since the last call
    /// because of [`MovePicker::quiet_checks_only`] (they come before the move
    /// just returned).
    #[inline]
    pub fn take_skipped(&mut self) -> u32 {
        std::mem::take(&mut self.skipped)
    }

    fn is_special_quiet(&self, m: Move) -> bool {
        m == self.tt_move || m == self.killers[0] || m == self.killers[1] || m == self.counter
    }

    /// The next move, or `None` when all have been yielded.
    pub fn next(&mut self, pos: &Position, ctx: &OrderContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove | Stage::EvTtMove | Stage::QTtMove => {
                    let q = self.stage == Stage::QTtMove;
                    self.stage = match self.stage {
                        Stage::TtMove => Stage::GenCaptures,
                        Stage::EvTtMove => Stage::GenEvasions,
                        _ => Stage::QGenCaptures,
                    };
                    let m = self.tt_move;
                    if m.is_some() && pos.is_legal(m) && (!q || is_capture(pos, m)) {
                        return Some(m);
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenCaptures | Stage::QGenCaptures => {
                    let mut list = MoveList::new();
                    generate::<Captures>(pos, &mut list);
                    self.moves.clear();
                    self.cur = 0;
                    for &m in &list {
                        if m != self.tt_move {
                            self.moves.push((m, Self::capture_score(pos, ctx.hist, m)));
                        }
                    }
                    self.stage = if self.stage == Stage::GenCaptures { Stage::GoodCaptures } else { Stage::QCaptures };
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(m) => {
                        if see_ge(pos, m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 | Stage::Killer2 => {
                    let i = (self.stage == Stage::Killer2) as usize;
                    self.stage = if i == 0 { Stage::Killer2 } else { Stage::Counter };
                    let m = self.killers[i];
                    let valid = m.is_some()
                        && m != self.tt_move
                        && (i == 0 || m != self.killers[0])
                        && pos.is_legal(m)
                        && !is_capture(pos, m);
                    // Keep only killers that are yielded, so the quiet stage skips exactly those.
                    self.killers[i] = if valid { m } else { Move::NULL };
                    if valid {
                        return Some(m);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let m = self.counter;
                    let valid = m.is_some()
                        && m != self.tt_move
                        && m != self.killers[0]
                        && m != self.killers[1]
                        && pos.is_legal(m)
                        && !is_capture(pos, m);
                    self.counter = if valid { m } else { Move::NULL };
                    if valid {
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    self.cur = 0;
                    let mut list = DeferredList::new();
                    generate_into::<Quiets, _>(pos, &mut list);
                    let scorer = QuietScorer::new(pos, ctx);
                    for (i, &(m, test)) in list.iter().enumerate() {
                        if !self.is_special_quiet(m) {
                            self.quiets.push(quiet_key(scorer.score(pos, m), i, m, test));
                        }
                    }
                    // Best first; the keys are distinct and ties in score go
                    // in generation order, so the order of the legal moves
                    // does not depend on the untested ones.
                    self.quiets.sort_unstable_by(|a, b| b.cmp(a));
                }
                Stage::Quiets => {
                    // An inner loop: passing over a move does not go back
                    // through the stage dispatch.
                    while self.cur < self.quiets.len() {
                        let key = self.quiets[self.cur];
                        let (m, test) = (Move(key as u16), key & 1 << 16 != 0);
                        self.cur += 1;
                        if test && pos.leaves_general_attacked(m) {
                            continue;
                        }
                        if self.quiet_checks_only && !pos.gives_check(m) {
                            self.skipped += 1;
                            continue;
                        }
                        return Some(m);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        self.bad_cur += 1;
                        return Some(self.bad[self.bad_cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    let mut list = MoveList::new();
                    generate::<Evasions>(pos, &mut list);
                    self.moves.clear();
                    self.cur = 0;
                    let scorer = QuietScorer::new(pos, ctx);
                    for &m in &list {
                        if m == self.tt_move {
                            continue;
                        }
                        let s = if is_capture(pos, m) {
                            1 << 24 | Self::capture_score(pos, ctx.hist, m)
                        } else {
                            scorer.score(pos, m)
                        };
                        self.moves.push((m, s));
                    }
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions | Stage::QCaptures => match self.pick_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

    /// Perft driven by the picker, with TT moves, killers and counter moves
    /// taken from elsewhere in the tree (often illegal here), checking at
    /// every node that the picker yields exactly the generator's moves and,
    /// out of check, in the order of its stages.
    fn picker_perft(pos: &mut Position, depth: u32, hist: &Histories, hints: &mut Vec<Move>) -> u64 {
        if depth == 0 {
            return 1;
        }
        let n = hints.len();
        let pick = |i: usize| if n > 0 { hints[(i * 7 + depth as usize) % n] } else { Move::NULL };
        let tt = if depth.is_multiple_of(3) { Move(0x1234) } else { pick(1) };
        let mut picker = MovePicker::new(pos, tt, [pick(2), pick(3)], pick(5));
        let ctx = OrderContext { hist, cont: [0, 0] };
        let mut seen = Vec::new();
        while let Some(m) = picker.next(pos, &ctx) {
            seen.push(m);
        }
        let mut expected: Vec<Move> = pos.legal_moves().to_vec();
        let mut got = seen.clone();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "picker moves differ in {}", pos.to_fen());
        if !pos.in_check() {
            // The stages' order: the TT move (when legal), the captures that
            // do not lose material (SEE >= 0), the quiet moves, then the
            // losing captures; the captures are exactly the legal ones.
            let tt_legal = tt.is_some() && pos.is_legal(tt);
            let rest = if tt_legal {
                assert_eq!(seen[0], tt, "TT move first in {}", pos.to_fen());
                &seen[1..]
            } else {
                &seen[..]
            };
            let stage = |m: Move| match (is_capture(pos, m), see_ge(pos, m, 0)) {
                (true, true) => 0,
                (false, _) => 1,
                (true, false) => 2,
            };
            assert!(rest.windows(2).all(|w| stage(w[0]) <= stage(w[1])), "stage order in {}", pos.to_fen());
            let mut caps: Vec<Move> = seen.iter().copied().filter(|&m| is_capture(pos, m)).collect();
            let mut c: Vec<Move> = pos.legal_moves().iter().copied().filter(|&m| is_capture(pos, m)).collect();
            caps.sort();
            c.sort();
            assert_eq!(caps, c);
        }
        let mut total = 0;
        for m in seen {
            hints.push(m);
            pos.make_move(m);
            total += picker_perft(pos, depth - 1, hist, hints);
            pos.unmake_move();
        }
        hints.truncate(n);
        total
    }

    /// With `quiet_checks_only` set after the `j`-th quiet move, the picker
    /// continues with exactly the moves of its full order except the quiet
    /// non-checks, and before each move (and at the end) reports how many of
    /// those it passed over (the search adds those to its move count).
    #[test]
    fn quiet_checks_only_keeps_the_order_and_counts_the_rest() {
        let mut hist = Histories::default();
        // Distinct history values so the order is not just generation order.
        for (i, v) in hist.butterfly.iter_mut().flat_map(|t| t.iter_mut()).enumerate() {
            *v = ((i * 7919) % 601) as i16 - 300;
        }
        let ctx = OrderContext { hist: &hist, cont: [0, 0] };
        let (mut checks_seen, mut skipped_seen) = (0, 0);
        crate::test_support::random_walks(9, 1, 30, |pos, _| {
            if !pos.in_check() {
                let mut full = Vec::new();
                let mut p = MovePicker::new(pos, Move::NULL, [Move::NULL; 2], Move::NULL);
                while let Some(m) = p.next(pos, &ctx) {
                    full.push(m);
                }
                for j in [0, 1, 3, 5, 8] {
                    // The expected (move, passed over before it) after the switch.
                    let mut expected = Vec::new();
                    let (mut quiets, mut pending, mut switched) = (0, 0, j == 0);
                    for &m in &full {
                        if switched && !is_capture(pos, m) && !pos.gives_check(m) {
                            pending += 1;
                            continue;
                        }
                        if switched {
                            expected.push((m, pending));
                            pending = 0;
                        }
                        if !is_capture(pos, m) {
                            quiets += 1;
                            switched |= quiets == j;
                        }
                    }
                    let mut got = Vec::new();
                    let mut p = MovePicker::new(pos, Move::NULL, [Move::NULL; 2], Move::NULL);
                    p.quiet_checks_only = j == 0;
                    let mut quiets = 0;
                    while let Some(m) = p.next(pos, &ctx) {
                        let skipped = p.take_skipped();
                        if p.quiet_checks_only {
                            got.push((m, skipped));
                        } else {
                            assert_eq!(skipped, 0);
                        }
                        if !is_capture(pos, m) {
                            quiets += 1;
                            p.quiet_checks_only |= quiets == j;
                        }
                    }
                    let tail = p.take_skipped();
                    if p.quiet_checks_only {
                        assert_eq!(tail, pending, "tail, switch after {j} in {}", pos.to_fen());
                        assert_eq!(got, expected, "switch after {j} in {}", pos.to_fen());
                        skipped_seen += tail + got.iter().map(|g| g.1).sum::<u32>();
                        checks_seen += got.iter().filter(|g| !is_capture(pos, g.0)).count();
                    }
                }
            }
        });
        assert!(checks_seen > 50 && skipped_seen > 1000, "{checks_seen} {skipped_seen}");
    }

    /// The fast `gives_check` (attacks the move creates) agrees with the full
    /// attack test on the virtual board, over random games from the bench positions.
    #[test]
    fn gives_check_agrees_with_the_full_test() {
        let mut checks = 0;
        crate::test_support::random_walks(7, 1, 60, |pos, moves| {
            for &m in moves {
                let fast = pos.gives_check(m);
                assert_eq!(fast, pos.gives_check_full(m), "{m} in {}", pos.to_fen());
                checks += fast as u32;
            }
        });
        assert!(checks > 100);
    }

    #[test]
    fn picker_perft_equals_perft() {
        let hist = Histories::default();
        for (fen, depth) in [
            (crate::fen::START_FEN, 3),
            ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", 2),
            ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", 3),
            ("3k5/4P4/9/4n4/9/9/9/4K4/4A4/3C5 b - - 0 1", 4),
        ] {
            let mut pos = Position::from_fen(fen).unwrap();
            let expected = perft(&mut pos.clone(), depth);
            let mut hints = Vec::new();
            assert_eq!(picker_perft(&mut pos, depth, &hist, &mut hints), expected, "{fen}");
        }
    }
}
