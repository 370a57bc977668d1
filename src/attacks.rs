//! Attack geometry: the displacement tables for horse legs, elephant eyes and
//! palace steps, per-square destination tables used by move generation, and
//! the test "is a general on this square attacked", which also covers the
//! rule that the two generals may never face each other on an open file
//! (docs/rules.md section 1).
//!
//! It deliberately knows nothing about side to move or history; callers pass a
//! cell accessor and the occupancy words through the general's point, so a
//! move can be tested without touching the board ([`attacked_after`]).

use crate::board::square::{DIAGONAL, EAST, HOME_HALF, IN_BOARD, IN_PALACE, NORTH, ORTHOGONAL, SOUTH, WEST};
use crate::board::{
    any_direction, code_of, first_on_line, line_after, Board, Color, Piece, PieceKind, Square, EMPTY, OFF,
};

/// Up to four destinations per square, terminated by 0.
pub type Steps4 = [u8; 4];
/// Up to eight `(destination, blocking point)` pairs per square, terminated by a 0 destination.
pub type Jumps8 = [(u8, u8); 8];
/// Up to four `(destination, blocking point)` pairs per square, terminated by a 0 destination.
pub type Jumps4 = [(u8, u8); 4];

const fn in_home_palace(sq: usize, color: usize) -> bool {
    IN_PALACE[sq] && HOME_HALF[color][sq]
}

/// One-step palace moves along `dirs` (orthogonal for the general, diagonal
/// for the advisor), staying inside the palace of the side whose half it is.
const fn build_palace_steps(dirs: [i16; 4]) -> [Steps4; 256] {
    let mut t = [[0u8; 4]; 256];
    let mut sq = 0;
    while sq < 256 {
        if IN_PALACE[sq] {
            let color = if HOME_HALF[0][sq] { 0 } else { 1 };
            let mut n = 0;
            let mut i = 0;
            while i < 4 {
                let to = (sq as i16 + dirs[i]) as usize;
                if in_home_palace(to, color) {
                    t[sq][n] = to as u8;
                    n += 1;
                }
                i += 1;
            }
        }
        sq += 1;
    }
    t
}

const fn build_elephant_steps() -> [[Jumps4; 256]; 2] {
    let mut t = [[[(0u8, 0u8); 4]; 256]; 2];
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < 256 {
            if HOME_HALF[color][sq] {
                let mut n = 0;
                let mut i = 0;
                while i < 4 {
                    let eye = (sq as i16 + DIAGONAL[i]) as usize;
                    let to = (sq as i16 + 2 * DIAGONAL[i]) as usize;
                    if to < 256 && HOME_HALF[color][to] {
                        t[color][sq][n] = (to as u8, eye as u8);
                        n += 1;
                    }
                    i += 1;
                }
            }
            sq += 1;
        }
        color += 1;
    }
    t
}

/// Horse jumps as (delta, leg delta).
pub const HORSE_JUMPS: [(i16, i16); 8] = [
    (2 * NORTH + EAST, NORTH),
    (2 * NORTH + WEST, NORTH),
    (2 * SOUTH + EAST, SOUTH),
    (2 * SOUTH + WEST, SOUTH),
    (2 * EAST + NORTH, EAST),
    (2 * EAST + SOUTH, EAST),
    (2 * WEST + NORTH, WEST),
    (2 * WEST + SOUTH, WEST),
];

const fn build_horse_steps() -> [Jumps8; 256] {
    let mut t = [[(0u8, 0u8); 8]; 256];
    let mut sq = 0;
    while sq < 256 {
        if IN_BOARD[sq] {
            let mut n = 0;
            let mut i = 0;
            while i < 8 {
                let to = sq as i16 + HORSE_JUMPS[i].0;
                let leg = sq as i16 + HORSE_JUMPS[i].1;
                if to >= 0 && to < 256 && IN_BOARD[to as usize] {
                    t[sq][n] = (to as u8, leg as u8);
                    n += 1;
                }
                i += 1;
            }
        }
        sq += 1;
    }
    t
}

const fn build_soldier_steps() -> [[[u8; 3]; 256]; 2] {
    let mut t = [[[0u8; 3]; 256]; 2];
    let mut color = 0;
    while color < 2 {
        let forward = if color == 0 { NORTH } else { SOUTH };
        let mut sq = 0;
        while sq < 256 {
            if IN_BOARD[sq] {
                let mut n = 0;
                let to = (sq as i16 + forward) as usize;
                if to < 256 && IN_BOARD[to] {
                    t[color][sq][n] = to as u8;
                    n += 1;
                }
                if !HOME_HALF[color][sq] {
                    let l = sq - 1;
                    let r = sq + 1;
                    if IN_BOARD[l] {
                        t[color][sq][n] = l as u8;
                        n += 1;
                    }
                    if IN_BOARD[r] {
                        t[color][sq][n] = r as u8;
                    }
                }
            }
            sq += 1;
        }
        color += 1;
    }
    t
}

const fn build_leg_table() -> [i8; 512] {
    let mut t = [0i8; 512];
    let mut i = 0;
    while i < 8 {
        t[(HORSE_JUMPS[i].0 + 256) as usize] = HORSE_JUMPS[i].1 as i8;
        i += 1;
    }
    t
}

const fn build_eye_table() -> [i8; 512] {
    let mut t = [0i8; 512];
    let mut i = 0;
    while i < 4 {
        t[(2 * DIAGONAL[i] + 256) as usize] = DIAGONAL[i] as i8;
        i += 1;
    }
    t
}

/// `GENERAL_STEPS[sq]`: palace points one orthogonal step away.
pub static GENERAL_STEPS: [Steps4; 256] = build_palace_steps(ORTHOGONAL);
/// `ADVISOR_STEPS[sq]`: palace points one diagonal step away.
pub static ADVISOR_STEPS: [Steps4; 256] = build_palace_steps(DIAGONAL);
/// `ELEPHANT_STEPS[color][sq]`: (destination, eye) pairs on that side of the river.
pub static ELEPHANT_STEPS: [[Jumps4; 256]; 2] = build_elephant_steps();
/// `HORSE_STEPS[sq]`: (destination, leg) pairs on the board.
pub static HORSE_STEPS: [Jumps8; 256] = build_horse_steps();
/// `SOLDIER_STEPS[color][sq]`: forward step, plus sideways steps after the river.
pub static SOLDIER_STEPS: [[[u8; 3]; 256]; 2] = build_soldier_steps();
/// `HORSE_LEG[to - from + 256]`: offset of the horse leg from `from`, 0 if no horse move.
pub static HORSE_LEG: [i8; 512] = build_leg_table();
/// `ELEPHANT_EYE[to - from + 256]`: offset of the elephant eye from `from`, 0 if no elephant move.
pub static ELEPHANT_EYE: [i8; 512] = build_eye_table();

/// Horse attacks on a square through each diagonal neighbour (the leg):
/// (leg delta, attacker delta 1, attacker delta 2).
pub const HORSE_ATTACK: [(i16, i16, i16); 4] = [
    (NORTH + EAST, 2 * NORTH + EAST, NORTH + 2 * EAST),
    (NORTH + WEST, 2 * NORTH + WEST, NORTH + 2 * WEST),
    (SOUTH + EAST, 2 * SOUTH + EAST, SOUTH + 2 * EAST),
    (SOUTH + WEST, 2 * SOUTH + WEST, SOUTH + 2 * WEST),
];

#[inline(always)]
fn step(sq: u8, d: i16) -> u8 {
    (sq as i16 + d) as u8
}

/// A piece attacking a general (see [`visit_general_attackers`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GeneralAttacker {
    /// Its point.
    pub sq: u8,
    /// Along a line (chariot, cannon, the facing general): the direction from
    /// the general to it; 0 for a horse or soldier.
    pub dir: i16,
    /// Whether it attacks as a cannon, over one screen.
    pub cannon: bool,
    /// For a horse: the (empty) leg point next to the general; 0 otherwise.
    pub leg: u8,
}

/// The piece of `by` attacking a general on `sq` along direction `d`, if
/// any: a chariot or the general as the first piece on the line, or a cannon
/// behind exactly one screen. `line` is the occupancy word through `sq` along
/// `d` (possibly with a move applied, see [`line_after`]) and `at` reads the
/// matching cells.
#[inline(always)]
pub fn line_attacker<F: Fn(u8) -> u8>(at: &F, line: u16, sq: u8, d: i16, by: Color) -> Option<GeneralAttacker> {
    let base = (by as u8) << 3;
    let s1 = first_on_line(line, sq, d);
    let first = at(s1);
    if first == OFF {
        return None;
    }
    let c1 = code_of(first);
    if c1 == base | PieceKind::Chariot as u8 || c1 == base | PieceKind::General as u8 {
        return Some(GeneralAttacker { sq: s1, dir: d, cannon: false, leg: 0 });
    }
    let s2 = first_on_line(line, s1, d);
    (code_of(at(s2)) == base | PieceKind::Cannon as u8).then_some(GeneralAttacker {
        sq: s2,
        dir: d,
        cannon: true,
        leg: 0,
    })
}

/// Calls `visit` with each piece of `by` attacking a general of the other
/// side standing on `sq` (lines, then soldiers, then horses) until it returns
/// true, and returns whether it did. Cells are read through `at` and the
/// occupancy words through `sq` (`rank`: its row, `file`: its column, see
/// [`Board::line`]), so a move can be tested without making it
/// ([`attacked_after`]). Includes the facing-generals rule: the `by` general
/// on the same file with nothing between counts as an attacker.
#[inline(always)]
pub fn visit_general_attackers<F: Fn(u8) -> u8>(
    at: F,
    rank: u16,
    file: u16,
    sq: Square,
    by: Color,
    mut visit: impl FnMut(GeneralAttacker) -> bool,
) -> bool {
    let base = (by as u8) << 3;
    let horse = base | PieceKind::Horse as u8;
    let soldier = base | PieceKind::Soldier as u8;
    let sq = sq.0;

    let by_line = any_direction(|d| {
        let line = if d == EAST || d == WEST { rank } else { file };
        line_attacker(&at, line, sq, d, by).is_some_and(&mut visit)
    });
    if by_line {
        return true;
    }
    // Soldiers: from in front of the general (their forward step) or beside it.
    let behind = if by == Color::Red { SOUTH } else { NORTH };
    for d in [behind, EAST, WEST] {
        let s = step(sq, d);
        if code_of(at(s)) == soldier && visit(GeneralAttacker { sq: s, dir: 0, cannon: false, leg: 0 }) {
            return true;
        }
    }
    // Horses, through empty legs (the diagonal neighbours).
    for &(leg, a, b) in &HORSE_ATTACK {
        let leg = step(sq, leg);
        if at(leg) == EMPTY {
            for h in [step(sq, a), step(sq, b)] {
                if code_of(at(h)) == horse && visit(GeneralAttacker { sq: h, dir: 0, cannon: false, leg }) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether a general of the other side standing on `sq` is attacked by a
/// piece of `by` (see [`visit_general_attackers`], which finds the same
/// pieces). Kept as its own boolean chain because it runs after every move
/// made: written through the visitor it measured 2-5% slower in `bench`.
#[inline(always)]
fn is_general_attacked_with<F: Fn(u8) -> u8>(at: F, rank: u16, file: u16, sq: Square, by: Color) -> bool {
    let base = (by as u8) << 3;
    let horse = base | PieceKind::Horse as u8;
    let soldier = base | PieceKind::Soldier as u8;
    let sq = sq.0;
    if any_direction(|d| line_attacker(&at, if d == EAST || d == WEST { rank } else { file }, sq, d, by).is_some()) {
        return true;
    }
    let behind = if by == Color::Red { SOUTH } else { NORTH };
    if code_of(at(step(sq, behind))) == soldier
        || code_of(at(step(sq, EAST))) == soldier
        || code_of(at(step(sq, WEST))) == soldier
    {
        return true;
    }
    HORSE_ATTACK.iter().any(|&(leg, a, b)| {
        at(step(sq, leg)) == EMPTY && (code_of(at(step(sq, a))) == horse || code_of(at(step(sq, b))) == horse)
    })
}

/// Whether `color`'s general is attacked on `board` (false if it has none).
#[inline]
pub fn is_general_attacked(board: &Board, color: Color) -> bool {
    let g = board.general(color);
    g != Square(0)
        && is_general_attacked_with(
            |s| board.cells()[s as usize],
            board.line(g.0, EAST),
            board.line(g.0, NORTH),
            g,
            !color,
        )
}

/// The cells as they would read with the piece `id` moved from `from` to `to`
/// (whatever stood on `to` removed).
#[inline(always)]
pub fn cells_after(cells: &[u8; 256], from: u8, to: u8, id: u8) -> impl Fn(u8) -> u8 + '_ {
    move |s: u8| {
        if s == to {
            id
        } else if s == from {
            EMPTY
        } else {
            cells[s as usize]
        }
    }
}

/// Whether a general of `!by` standing on `g` would be attacked by `by` with
/// the piece `id` moved from `from` to `to` (whatever stood on `to` removed),
/// without making the move.
#[inline(always)]
pub fn attacked_after(board: &Board, from: u8, to: u8, id: u8, g: Square, by: Color) -> bool {
    let at = cells_after(board.cells(), from, to, id);
    let rank = line_after(board.line(g.0, EAST), g.0, EAST, from, to);
    let file = line_after(board.line(g.0, NORTH), g.0, NORTH, from, to);
    is_general_attacked_with(at, rank, file, g, by)
}

/// Whether the two generals face each other on an open file.
pub fn generals_facing(board: &Board) -> bool {
    let r = board.general(Color::Red);
    let b = board.general(Color::Black);
    if r == Square(0) || b == Square(0) || r.file() != b.file() {
        return false;
    }
    let mut s = r.offset(NORTH);
    while s != b {
        if !board.is_empty(s) {
            return false;
        }
        s = s.offset(NORTH);
    }
    true
}

/// The squares of the `!color` pieces giving check to `color`'s general
/// (for a cannon, its square; for facing generals, the other general).
pub fn checkers(board: &Board, color: Color) -> Vec<Square> {
    let g = board.general(color);
    let mut out = Vec::new();
    if g == Square(0) {
        return out;
    }
    let by = !color;
    for (_, piece, sq) in board.pieces(by) {
        if attacks_square(board, piece, sq, g) {
            out.push(sq);
        }
    }
    out
}

/// Whether `piece` standing on `from` attacks the point `to` on `board` by its
/// capture pattern (ignoring whose turn it is and whether the capture would be
/// legal). The general "attacks" along an open file only when `to` holds the
/// other general, as the facing rule makes that an attack.
pub fn attacks_square(board: &Board, piece: Piece, from: Square, to: Square) -> bool {
    let color = piece.color();
    let delta = to.0 as i16 - from.0 as i16;
    match piece.kind() {
        PieceKind::General => {
            if GENERAL_STEPS[from.index()].contains(&to.0) && to.0 != 0 {
                return true;
            }
            let target = board.piece_at(to);
            target == Some(Piece::new(!color, PieceKind::General))
                && from.file() == to.file()
                && count_between(board, from, to) == Some(0)
        }
        PieceKind::Advisor => ADVISOR_STEPS[from.index()].contains(&to.0) && to.0 != 0,
        PieceKind::Elephant => {
            let eye = ELEPHANT_EYE[(delta + 256) as usize];
            eye != 0 && to.is_home_half(color) && board.is_empty(from.offset(eye as i16))
        }
        PieceKind::Horse => {
            let leg = HORSE_LEG[(delta + 256) as usize];
            leg != 0 && board.is_empty(from.offset(leg as i16))
        }
        PieceKind::Chariot => count_between(board, from, to) == Some(0),
        PieceKind::Cannon => count_between(board, from, to) == Some(1),
        PieceKind::Soldier => SOLDIER_STEPS[color.index()][from.index()].contains(&to.0) && to.0 != 0,
    }
}

/// Number of pieces strictly between two distinct points on one rank or file
/// (`None` when they share neither).
pub fn count_between(board: &Board, from: Square, to: Square) -> Option<u32> {
    if from == to {
        return None;
    }
    let d: i16 = if from.rank() == to.rank() {
        if to.0 > from.0 {
            EAST
        } else {
            WEST
        }
    } else if from.file() == to.file() {
        if to.0 > from.0 {
            NORTH
        } else {
            SOUTH
        }
    } else {
        return None;
    };
    let mut n = 0;
    let mut s = from.offset(d);
    while s != to {
        if !board.is_empty(s) {
            n += 1;
        }
        s = s.offset(d);
    }
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The visitor finds exactly the checking pieces that the per-piece
    /// `checkers` finds, and "any" agrees with `is_general_attacked`, over
    /// random games from the bench positions.
    #[test]
    fn general_attackers_agree() {
        let mut checks = 0;
        crate::test_support::random_walks(17, 1, 60, |pos, _| {
            let board = pos.board();
            for color in Color::ALL {
                let g = board.general(color);
                let mut found = Vec::new();
                let cells = board.cells();
                let (rank, file) = (board.line(g.0, EAST), board.line(g.0, NORTH));
                visit_general_attackers(
                    |s| cells[s as usize],
                    rank,
                    file,
                    g,
                    !color,
                    |a| {
                        found.push(Square(a.sq));
                        false
                    },
                );
                let mut expected = checkers(board, color);
                found.sort();
                expected.sort();
                assert_eq!(found, expected, "{} {color:?}", pos.to_fen());
                assert_eq!(!found.is_empty(), is_general_attacked(board, color));
                checks += found.len();
            }
        });
        assert!(checks > 50, "{checks}");
    }

    #[test]
    fn table_sizes() {
        let count4 = |t: &Steps4| t.iter().filter(|&&x| x != 0).count();
        let e1 = Square::new(4, 1);
        assert_eq!(count4(&GENERAL_STEPS[e1.index()]), 4);
        assert_eq!(count4(&ADVISOR_STEPS[e1.index()]), 4);
        assert_eq!(count4(&GENERAL_STEPS[Square::new(3, 0).index()]), 2);
        let e2 = Square::new(4, 2);
        assert_eq!(ELEPHANT_STEPS[0][e2.index()].iter().filter(|x| x.0 != 0).count(), 4);
        // c4 (Red) cannot cross to rank 6.
        assert_eq!(ELEPHANT_STEPS[0][Square::new(2, 4).index()].iter().filter(|x| x.0 != 0).count(), 2);
        assert_eq!(HORSE_STEPS[Square::new(4, 4).index()].iter().filter(|x| x.0 != 0).count(), 8);
        assert_eq!(HORSE_STEPS[Square::new(0, 0).index()].iter().filter(|x| x.0 != 0).count(), 2);
        assert_eq!(SOLDIER_STEPS[0][Square::new(4, 3).index()].iter().filter(|&&x| x != 0).count(), 1);
        assert_eq!(SOLDIER_STEPS[0][Square::new(4, 5).index()].iter().filter(|&&x| x != 0).count(), 3);
        assert_eq!(SOLDIER_STEPS[0][Square::new(0, 9).index()].iter().filter(|&&x| x != 0).count(), 1);
        assert_eq!(SOLDIER_STEPS[1][Square::new(4, 4).index()].iter().filter(|&&x| x != 0).count(), 3);
    }
}
