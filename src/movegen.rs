//! Legal move generation: all moves, captures only (for quiescence), and check
//! evasions. Moves reach a [`MoveSink`] with a flag saying whether they still
//! need the legality test: a [`MoveList`] tests at once and receives legal
//! moves only; a [`DeferredList`] keeps the flag so the consumer (the move
//! picker's quiet stage) tests only the moves it uses.
//!
//! Moves are generated from the piece lists with per-square destination
//! tables (and the board's occupancy words for the sliding pieces); legality
//! is decided per move. Out of check, a move can only expose its own general
//! if it leaves a point on the general's rank or file (a chariot line, a
//! cannon screen, the facing generals), leaves a horse-leg point next to the
//! general, lands on the general's rank or file (a new cannon screen), or is
//! a general move; every other move is legal without further work. Full
//! generation narrows that with a pin scan (the pieces whose departure could
//! expose the general, the points that would screen an enemy cannon);
//! captures-only generation yields few moves and flags by position alone.
//! Flagged moves get `Position::leaves_general_attacked`, which looks only at
//! the attacks the move can create.
//!
//! In check, a non-general move that touches neither the general's rank and
//! file, nor its diagonal neighbours, nor the points a horse attacks it from
//! cannot change whether it is attacked, so it is dropped untested; with a
//! single checker, a non-general move must land on the checker, between it
//! and the general or on a checking horse's leg, or move a checking cannon's
//! screen (anything else is dropped, and a chariot or cannon with none of
//! those points on its rank or file is not walked at all), and is then legal
//! exactly when it takes or blocks the checker (or leaves a checking cannon
//! with other than one screen) and opens no other attack. General moves and
//! double checks get the full test: is the general attacked with the move
//! applied to a virtual board.

use crate::attacks::{
    visit_general_attackers, GeneralAttacker, ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_ATTACK, HORSE_STEPS,
    SOLDIER_STEPS,
};
use crate::board::square::{EAST, NORTH, SOUTH, WEST};
use crate::board::Square;
use crate::board::{code_of, first_on_line, line_after, side_tag, Piece, PieceKind, EMPTY, OFF, SLOT_START};
use arrayvec::ArrayVec;

use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;

/// A generation mode.
pub trait GenKind {
    /// Whether non-captures are generated.
    const QUIETS: bool;
    /// Whether captures are generated.
    const CAPTURES: bool = true;
}

/// Every legal move.
pub struct All;
/// Legal captures only.
pub struct Captures;
/// Legal moves out of check (every legal move when not in check).
pub struct Evasions;
/// Legal non-captures only (the move picker's quiet stage, after the captures).
pub struct Quiets;

impl GenKind for All {
    const QUIETS: bool = true;
}
impl GenKind for Captures {
    const QUIETS: bool = false;
}
impl GenKind for Evasions {
    const QUIETS: bool = true;
}
impl GenKind for Quiets {
    const QUIETS: bool = true;
    const CAPTURES: bool = false;
}

/// Where generated moves go: each pseudo-legal move comes with whether it
/// needs the full legality test (`Position::leaves_general_attacked`); a
/// move without that flag is known legal.
pub trait MoveSink {
    /// Takes one pseudo-legal move.
    fn add(&mut self, pos: &Position, m: Move, needs_test: bool);
}

/// A plain list receives legal moves only: flagged moves are tested at once.
impl MoveSink for MoveList {
    #[inline(always)]
    fn add(&mut self, pos: &Position, m: Move, needs_test: bool) {
        if !needs_test || !pos.leaves_general_attacked(m) {
            self.push(m);
        }
    }
}

/// Pseudo-legal moves with their legality-test flags, for a consumer that
/// tests only the moves it actually uses (the move picker's quiet stage:
/// after a cutoff the rest are never tested).
pub type DeferredList = ArrayVec<(Move, bool), MAX_MOVES>;

impl MoveSink for DeferredList {
    #[inline(always)]
    fn add(&mut self, _pos: &Position, m: Move, needs_test: bool) {
        self.push((m, needs_test));
    }
}

/// Appends the legal moves of kind `G` to `list`.
#[inline]
pub fn generate<G: GenKind>(pos: &Position, list: &mut MoveList) {
    generate_into::<G, _>(pos, list)
}

/// Appends the moves of kind `G` to `sink`, each flagged with whether it
/// still needs the legality test (see [`MoveSink`]).
#[inline]
pub fn generate_into<G: GenKind, S: MoveSink>(pos: &Position, sink: &mut S) {
    match (G::QUIETS, G::CAPTURES) {
        (true, true) => generate_impl::<true, true, S>(pos, sink),
        (true, false) => generate_impl::<true, false, S>(pos, sink),
        _ => generate_impl::<false, true, S>(pos, sink),
    }
}

/// Number of legal moves (bulk counting for perft).
#[inline]
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate_impl::<true, true, MoveList>(pos, &mut list);
    list.len()
}

/// What a non-general move must avoid when the side to move is not in check:
/// the pieces whose departure could expose the general, and the points whose
/// occupation would give an enemy cannon its screen.
struct Exposure {
    /// Bit `slot` set: the piece in that slot of the side to move may be pinned.
    pinned: u16,
    /// For each direction from the general with an enemy cannon as the first
    /// piece: (direction, square of that cannon). Entering the points between
    /// gives the cannon a screen.
    danger: [(i16, u8); 4],
    danger_len: usize,
}

impl Exposure {
    fn compute(pos: &Position) -> Exposure {
        let board = pos.board();
        let cells = board.cells();
        let us = pos.side_to_move();
        let tag = side_tag(us);
        let them = !us;
        let g = board.general(us).0;
        let mut e = Exposure { pinned: 0, danger: [(0, 0); 4], danger_len: 0 };
        if g == 0 {
            return e;
        }
        let code = |id: u8| code_of(id);
        let enemy = |k: PieceKind| Piece::new(them, k).0;
        let pin = |id: u8, e: &mut Exposure| {
            if id & tag != 0 {
                e.pinned |= 1 << (id & 15);
            }
        };
        for d in [NORTH, SOUTH, EAST, WEST] {
            // The first three pieces on the ray (OFF once past the edge).
            let line = board.line(g, d);
            let s1 = first_on_line(line, g, d);
            let p1 = cells[s1 as usize];
            if p1 == OFF {
                continue;
            }
            if code(p1) == enemy(PieceKind::Cannon) {
                e.danger[e.danger_len] = (d, s1);
                e.danger_len += 1;
            }
            let s2 = first_on_line(line, s1, d);
            let p2 = cells[s2 as usize];
            if p2 == OFF {
                continue;
            }
            let c2 = code(p2);
            if c2 == enemy(PieceKind::Chariot) || c2 == enemy(PieceKind::General) {
                pin(p1, &mut e);
            }
            let p3 = cells[first_on_line(line, s2, d) as usize];
            if code(p3) == enemy(PieceKind::Cannon) {
                pin(p1, &mut e);
                pin(p2, &mut e);
            }
        }
        for &(leg, a, b) in &HORSE_ATTACK {
            let leg_sq = (g as i16 + leg) as u8;
            let id = cells[leg_sq as usize];
            if id & tag != 0 {
                let h = enemy(PieceKind::Horse);
                if code(cells[(g as i16 + a) as usize]) == h || code(cells[(g as i16 + b) as usize]) == h {
                    pin(id, &mut e);
                }
            }
        }
        e
    }

    #[inline(always)]
    fn in_danger(&self, g: u8, to: u8) -> bool {
        for &(d, end) in &self.danger[..self.danger_len] {
            let mut s = (g as i16 + d) as u8;
            while s != end {
                if s == to {
                    return true;
                }
                s = (s as i16 + d) as u8;
            }
        }
        false
    }
}

/// `NEAR_GENERAL[file difference + 8][rank difference + 9]`: whether a point
/// is on the rank or file of a general, diagonally next to it, or a horse's
/// jump away (the points that decide whether the general is attacked).
static NEAR_GENERAL: [[bool; 19]; 17] = {
    let mut t = [[false; 19]; 17];
    let mut dx: i32 = -8;
    while dx <= 8 {
        let mut dy: i32 = -9;
        while dy <= 9 {
            let (ax, ay) = (dx.abs(), dy.abs());
            t[(dx + 8) as usize][(dy + 9) as usize] = ax == 0 || ay == 0 || (ax <= 2 && ay <= 2 && ax + ay <= 3);
            dy += 1;
        }
        dx += 1;
    }
    t
};

/// See [`NEAR_GENERAL`] (a table load instead of a chain of branches).
#[inline(always)]
fn near_general(g: u8, sq: u8) -> bool {
    let dx = (sq & 15) as i32 - (g & 15) as i32;
    let dy = (sq >> 4) as i32 - (g >> 4) as i32;
    NEAR_GENERAL[(dx + 8) as usize][(dy + 9) as usize]
}

/// The one enemy piece giving check to the side to move's general on `g`,
/// when exactly one does.
fn single_checker(pos: &Position, g: u8) -> Option<GeneralAttacker> {
    let board = pos.board();
    let cells = board.cells();
    let mut found: ArrayVec<GeneralAttacker, 2> = ArrayVec::new();
    visit_general_attackers(
        |s| cells[s as usize],
        board.line(g, EAST),
        board.line(g, NORTH),
        Square(g),
        !pos.side_to_move(),
        |a| {
            found.push(a);
            found.is_full()
        },
    );
    (found.len() == 1).then(|| found[0])
}

/// Whether the non-general move `from`-`to` ends the check by `checker` on
/// the general on `g`: it takes the checker, blocks its line or horse leg, or
/// leaves a checking cannon with other than exactly one screen.
#[inline]
fn ends_check(checker: &GeneralAttacker, pos: &Position, g: u8, from: u8, to: u8) -> bool {
    if to == checker.sq {
        return true;
    }
    if checker.dir == 0 {
        return checker.leg != 0 && to == checker.leg;
    }
    let d = checker.dir;
    let line = line_after(pos.board().line(g, d), g, d, from, to);
    let first = first_on_line(line, g, d);
    if !checker.cannon {
        return first != checker.sq;
    }
    first == checker.sq || first_on_line(line, first, d) != checker.sq
}

/// Where a non-general move must go (or come from) to possibly end the check
/// by one `checker` of the general on `g`: onto the checker, onto a point
/// between them on its line, onto a checking horse's leg, or, for a checking
/// cannon, away from a point between them (its screen). A necessary condition
/// of [`ends_check`], cheap enough to run on every generated move, and a
/// rank/file filter that drops a sliding piece with none of those points on
/// its lines before its moves are walked.
#[derive(Copy, Clone)]
struct EvasionTargets {
    checker: u8,
    leg: u8,
    /// The open segment between the general and a line checker is the points
    /// `x` with `x & same == g & same` and `lo < x < hi` (`lo == hi` when the
    /// checker is a horse or soldier: empty).
    same: u8,
    g: u8,
    lo: u8,
    hi: u8,
    cannon: bool,
    /// Bit `col` / `row` (padded) set for the columns / rows of the points.
    cols: u16,
    rows: u16,
}

impl EvasionTargets {
    fn new(g: u8, c: &GeneralAttacker) -> EvasionTargets {
        let (mut cols, mut rows) = (1u16 << (c.sq & 15), 1u16 << (c.sq >> 4));
        if c.leg != 0 {
            cols |= 1 << (c.leg & 15);
            rows |= 1 << (c.leg >> 4);
        }
        let (lo, hi) = if c.dir == 0 { (g, g) } else { (g.min(c.sq), g.max(c.sq)) };
        let same = if c.dir == EAST || c.dir == WEST { 0xF0 } else { 0x0F };
        if c.dir != 0 {
            // The segment lies on the general's rank or file.
            if same == 0xF0 {
                rows |= 1 << (g >> 4);
                for col in (lo & 15)..(hi & 15) {
                    cols |= 1 << col;
                }
            } else {
                cols |= 1 << (g & 15);
                for row in (lo >> 4)..(hi >> 4) {
                    rows |= 1 << row;
                }
            }
        }
        EvasionTargets { checker: c.sq, leg: c.leg, same, g, lo, hi, cannon: c.cannon, cols, rows }
    }

    #[inline(always)]
    fn between(&self, x: u8) -> bool {
        (x ^ self.g) & self.same == 0 && self.lo < x && x < self.hi
    }

    /// Whether the move `from`-`to` could end the check (see the type).
    #[inline(always)]
    fn may_end(&self, from: u8, to: u8) -> bool {
        to == self.checker || (to == self.leg && to != 0) || self.between(to) || (self.cannon && self.between(from))
    }

    /// Whether a chariot or cannon on `from` has one of the points on its
    /// rank or file, or stands between (a cannon's screen).
    #[inline(always)]
    fn slider_may_reach(&self, from: u8) -> bool {
        (self.cols >> (from & 15)) & 1 != 0 || (self.rows >> (from >> 4)) & 1 != 0
    }
}

/// One generation run; `IN_CHECK` selects the evasion filter at compile time.
struct Gen<'a, const IN_CHECK: bool> {
    pos: &'a Position,
    g: u8,
    exposure: Exposure,
    /// In check by exactly one piece: that piece (evasions are then decided
    /// without the full attack test) and where the moves ending it can go.
    checker: Option<(GeneralAttacker, EvasionTargets)>,
    /// Captures only, out of check: moves are flagged by position alone
    /// instead of by computed pins (with few moves generated, cheaper than
    /// the pin scan). A constant of each generation variant.
    geometric: bool,
}

impl<const IN_CHECK: bool> Gen<'_, IN_CHECK> {
    /// Adds a non-general move, flagged for the legality test only when it
    /// could matter.
    #[inline(always)]
    fn add<S: MoveSink>(&self, sink: &mut S, from: u8, to: u8, sensitive_from: bool) {
        let m = Move::new(Square(from), Square(to));
        if IN_CHECK {
            match self.checker {
                // Legal exactly when the move ends the one check and opens no
                // other attack (attacks it can open run through its from and
                // to points or a freed horse leg).
                Some((c, targets)) => {
                    if !targets.may_end(from, to) {
                        debug_assert!(!ends_check(&c, self.pos, self.g, from, to), "{m} in {}", self.pos.to_fen());
                        return;
                    }
                    let legal = ends_check(&c, self.pos, self.g, from, to)
                        && !self.pos.attack_created(m, self.g, !self.pos.side_to_move());
                    debug_assert_eq!(
                        legal,
                        !self.pos.leaves_general_attacked(m),
                        "evasion {m} in {}",
                        self.pos.to_fen()
                    );
                    if legal {
                        sink.add(self.pos, m, false);
                    }
                }
                // Whether the general is attacked depends only on the points
                // of its rank and file, its diagonal neighbours (horse legs)
                // and the points a horse attacks it from. A move that touches
                // none of them leaves the check in place.
                None => {
                    if near_general(self.g, from) || near_general(self.g, to) {
                        sink.add(self.pos, m, true);
                    }
                }
            }
            return;
        }
        if self.geometric {
            // Only a move leaving the general's rank or file or a horse-leg
            // point next to it, or landing on its rank or file, can expose it.
            let (g, f, t) = (self.g, from, to);
            let on_line = |a: u8| (a ^ g) & 0x0F == 0 || (a ^ g) & 0xF0 == 0;
            let leg = matches!(f as i16 - g as i16, 15 | 17 | -15 | -17);
            sink.add(self.pos, m, on_line(f) || on_line(t) || leg);
            return;
        }
        if sensitive_from || self.exposure.danger_len != 0 {
            self.add_exposed(sink, m, sensitive_from);
        } else {
            sink.add(self.pos, m, false);
        }
    }

    /// [`Gen::add`] for a move whose legality may need the test: kept out of
    /// line so the generator's many add sites stay small.
    #[inline(never)]
    fn add_exposed<S: MoveSink>(&self, sink: &mut S, m: Move, sensitive_from: bool) {
        let safe = !sensitive_from && !self.exposure.in_danger(self.g, m.to().0);
        sink.add(self.pos, m, !safe);
    }

    /// Whether moves of the piece `id` need the full legality test.
    #[inline(always)]
    fn sensitive(&self, id: usize) -> bool {
        IN_CHECK || (self.exposure.pinned >> (id & 15)) & 1 != 0
    }
}

#[inline(always)]
fn generate_impl<const QUIETS: bool, const CAPTURES: bool, S: MoveSink>(pos: &Position, list: &mut S) {
    if pos.in_check() {
        generate_moves::<QUIETS, CAPTURES, true, S>(pos, list)
    } else {
        generate_moves::<QUIETS, CAPTURES, false, S>(pos, list)
    }
}

#[inline(never)]
fn generate_moves<const QUIETS: bool, const CAPTURES: bool, const IN_CHECK: bool, S: MoveSink>(
    pos: &Position,
    list: &mut S,
) {
    let us = pos.side_to_move();
    let board = pos.board();
    let cells = board.cells();
    let tag = side_tag(us);
    let them = side_tag(!us);
    let g = board.general(us).0;
    let geometric = !QUIETS && !IN_CHECK;
    let exposure = if IN_CHECK || geometric {
        Exposure { pinned: 0, danger: [(0, 0); 4], danger_len: 0 }
    } else {
        Exposure::compute(pos)
    };
    let checker =
        if IN_CHECK && g != 0 { single_checker(pos, g).map(|c| (c, EvasionTargets::new(g, &c))) } else { None };
    let gen = Gen::<IN_CHECK> { pos, g, exposure, checker, geometric };
    let ci = us.index();

    // Target test: empty (quiet) or enemy (capture); own pieces and OFF fail.
    macro_rules! target_ok {
        ($to:expr) => {{
            // Without branches: most targets fail, in no predictable pattern.
            let t = cells[$to as usize];
            (QUIETS & (t == EMPTY)) | (CAPTURES & (t & them != 0))
        }};
    }

    // General: every move is tested.
    if g != 0 {
        for &to in &GENERAL_STEPS[g as usize] {
            if to == 0 {
                break;
            }
            if target_ok!(to) {
                list.add(pos, Move::new(Square(g), Square(to)), true);
            }
        }
    }

    // Runs `$body` with `$from` and `$sens` bound for each piece of kind `$k`.
    macro_rules! each_piece {
        ($k:expr, |$id:ident, $from:ident, $sens:ident| $body:block) => {
            for slot in SLOT_START[$k]..SLOT_START[$k + 1] {
                let $id = (tag + slot) as usize;
                let $from = board.square_of($id as u8).0;
                if $from == 0 {
                    continue;
                }
                let $sens = gen.sensitive($id);
                $body
            }
        };
    }
    // Step tables (0-terminated destinations), optionally with a blocking point.
    macro_rules! steps {
        ($table:expr, $from:ident, $sens:ident) => {
            for &to in &$table {
                if to == 0 {
                    break;
                }
                if target_ok!(to) {
                    gen.add(list, $from, to, $sens);
                }
            }
        };
    }
    macro_rules! jumps {
        ($table:expr, $from:ident, $sens:ident) => {
            for &(to, block) in &$table {
                if to == 0 {
                    break;
                }
                if (cells[block as usize] == EMPTY) & target_ok!(to) {
                    gen.add(list, $from, to, $sens);
                }
            }
        };
    }

    each_piece!(1, |id, from, sens| { steps!(ADVISOR_STEPS[from as usize], from, sens) });
    each_piece!(2, |id, from, sens| { jumps!(ELEPHANT_STEPS[ci][from as usize], from, sens) });
    each_piece!(3, |id, from, sens| { jumps!(HORSE_STEPS[from as usize], from, sens) });
    each_piece!(6, |id, from, sens| { steps!(SOLDIER_STEPS[ci][from as usize], from, sens) });
    // Sliders out of reach of every point that could end a single check
    // have no evasion: their walks are skipped.
    let out_of_reach = |from: u8| IN_CHECK && gen.checker.is_some_and(|(_, t)| !t.slider_may_reach(from));
    // Chariots.
    each_piece!(4, |id, from, sens| {
        if out_of_reach(from) {
            continue;
        }
        for d in [NORTH, SOUTH, EAST, WEST] {
            if QUIETS {
                let mut to = (from as i16 + d) as u8;
                loop {
                    let t = cells[to as usize];
                    if t == EMPTY {
                        gen.add(list, from, to, sens);
                    } else {
                        if CAPTURES && t & them != 0 {
                            gen.add(list, from, to, sens);
                        }
                        break;
                    }
                    to = (to as i16 + d) as u8;
                }
            } else {
                let to = board.first_from(from, d);
                if cells[to as usize] & them != 0 {
                    gen.add(list, from, to, sens);
                }
            }
        }
    });
    // Cannons.
    each_piece!(5, |id, from, sens| {
        if out_of_reach(from) {
            continue;
        }
        for d in [NORTH, SOUTH, EAST, WEST] {
            let screen = if QUIETS {
                // Quiet moves up to the screen.
                let mut to = (from as i16 + d) as u8;
                while cells[to as usize] == EMPTY {
                    gen.add(list, from, to, sens);
                    to = (to as i16 + d) as u8;
                }
                to
            } else {
                board.first_from(from, d)
            };
            if !CAPTURES || cells[screen as usize] == OFF {
                continue; // off the board: no screen
            }
            // Jump the screen to the next piece.
            let to = board.first_from(screen, d);
            if cells[to as usize] & them != 0 {
                gen.add(list, from, to, sens);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    /// In check, the generated moves are exactly the legal ones found by
    /// trying every piece on every point with the full test, over random games
    /// (the single-checker shortcut and the near-general filter included).
    #[test]
    fn evasions_match_brute_force() {
        use crate::board::Color;
        let mut in_check = 0;
        crate::test_support::random_walks(3, 4, 80, |pos, list| {
            if pos.in_check() {
                in_check += 1;
                let side = pos.side_to_move();
                let mut brute: Vec<Move> = Vec::new();
                for color in [Color::Red, Color::Black] {
                    for (_, _, from) in pos.board().pieces(color) {
                        for to in Square::all() {
                            let m = Move::new(from, to);
                            if color == side && pos.is_legal(m) {
                                brute.push(m);
                            }
                        }
                    }
                }
                let mut got = list.to_vec();
                got.sort();
                brute.sort();
                assert_eq!(got, brute, "{}", pos.to_fen());
            }
        });
        assert!(in_check > 200, "{in_check}");
    }

    /// The table agrees with the definition for every pair of points.
    #[test]
    fn near_general_table() {
        for g in Square::all() {
            for sq in Square::all() {
                let (dx, dy) = ((sq.file() as i32 - g.file() as i32).abs(), (sq.rank() as i32 - g.rank() as i32).abs());
                let expected = dx == 0 || dy == 0 || (dx <= 2 && dy <= 2 && dx + dy <= 3);
                assert_eq!(near_general(g.0, sq.0), expected, "{g:?} {sq:?}");
            }
        }
    }

    #[test]
    fn start_position_has_44_moves() {
        let pos = Position::startpos();
        let mut list = MoveList::new();
        generate::<All>(&pos, &mut list);
        assert_eq!(list.len(), 44);
        let mut caps = MoveList::new();
        generate::<Captures>(&pos, &mut caps);
        // The two cannons can take the horses b9/h9.
        assert_eq!(caps.len(), 2);
        // Quiets: the rest, in the same order.
        let mut quiets = MoveList::new();
        generate::<Quiets>(&pos, &mut quiets);
        let rest: Vec<Move> = list.iter().copied().filter(|m| !caps.contains(m)).collect();
        assert_eq!(quiets.to_vec(), rest);
        for m in &list {
            assert!(pos.is_legal(*m));
        }
    }
}
