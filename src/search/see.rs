//! Static exchange evaluation for xiangqi: the material balance of the
//! capture sequence on one point, each side recapturing with its least
//! valuable attacker. Attackers are recomputed on a scratch copy of the
//! board after every capture, so cannon screens that appear or vanish and
//! horse legs that open are seen (docs/rules.md section 1: the cannon captures by
//! jumping exactly one screen, the horse is blocked at its leg, the elephant
//! at its eye and never crosses the river). A general may recapture only
//! when the point is then not attacked. Pins are ignored.

use crate::attacks::{ADVISOR_STEPS, GENERAL_STEPS, HORSE_JUMPS, SOLDIER_STEPS};
use crate::board::square::{DIAGONAL, EAST, HOME_HALF, IN_PALACE, NORTH, ORTHOGONAL, SOUTH, WEST};
use crate::board::{code_of, each_direction, first_on_line, line_after, Color, PieceKind, EMPTY, OFF};
use crate::eval::weights::SEE_VALUE;
use crate::moves::Move;
use crate::position::Position;

/// SEE value of the piece in a cell (0 for an empty cell).
#[inline]
pub fn cell_value(id: u8) -> i32 {
    let code = code_of(id);
    if code == 0 || code == 0x80 {
        0
    } else {
        SEE_VALUE[((code & 7) - 1) as usize]
    }
}

#[inline(always)]
fn at(cells: &[u8; 256], sq: i16) -> u8 {
    cells[(sq & 0xFF) as usize]
}

/// The least valuable piece of `side` attacking `to` on `cells`, whose
/// occupancy words through `to` are `rank` and `file`: (square, value).
fn least_valuable_attacker(cells: &[u8; 256], rank: u16, file: u16, to: u8, side: Color) -> Option<(u8, i32)> {
    let base = (side as u8) << 3;
    let is = |id: u8, kind: PieceKind| code_of(id) == base | kind as u8;
    let t = to as i16;
    let ci = side.index();
    let home = HOME_HALF[ci][to as usize];
    let palace = home && IN_PALACE[to as usize];
    // Soldiers: from behind (their forward step) or, when `to` is across the
    // river, beside it (then the soldier has crossed too).
    let forward = if side == Color::Red { NORTH } else { SOUTH };
    for d in ORTHOGONAL {
        let can = if d == NORTH || d == SOUTH { d == forward } else { !home };
        let s = t - d;
        if can && is(at(cells, s), PieceKind::Soldier) {
            debug_assert!(SOLDIER_STEPS[ci][(s & 0xFF) as usize].contains(&to));
            return Some(((s & 0xFF) as u8, SEE_VALUE[PieceKind::Soldier.index()]));
        }
    }
    // Advisors and elephants: inside their own palace / half only.
    if palace {
        for d in DIAGONAL {
            let s = t + d;
            if is(at(cells, s), PieceKind::Advisor) && ADVISOR_STEPS[(s & 0xFF) as usize].contains(&to) {
                return Some(((s & 0xFF) as u8, SEE_VALUE[PieceKind::Advisor.index()]));
            }
        }
    }
    if home {
        for d in DIAGONAL {
            let s = t + 2 * d;
            if is(at(cells, s), PieceKind::Elephant) && at(cells, t + d) == EMPTY {
                return Some(((s & 0xFF) as u8, SEE_VALUE[PieceKind::Elephant.index()]));
            }
        }
    }
    // Horses: a horse on `s` reaches `to` if its leg next to `s` is empty.
    for (jump, leg) in HORSE_JUMPS {
        let s = t - jump;
        if is(at(cells, s), PieceKind::Horse) && at(cells, s + leg) == EMPTY {
            return Some(((s & 0xFF) as u8, SEE_VALUE[PieceKind::Horse.index()]));
        }
    }
    // Lines: first piece may be a chariot, the one behind the first screen a cannon.
    let mut chariot = None;
    let mut cannon = None;
    each_direction(|d| {
        let line = if d == EAST || d == WEST { rank } else { file };
        let s = first_on_line(line, to, d);
        let first = cells[s as usize];
        if first == OFF {
            return;
        }
        if chariot.is_none() && is(first, PieceKind::Chariot) {
            chariot = Some(s);
        }
        let s = first_on_line(line, s, d);
        if cannon.is_none() && is(cells[s as usize], PieceKind::Cannon) {
            cannon = Some(s);
        }
    });
    if let Some(s) = cannon {
        return Some((s, SEE_VALUE[PieceKind::Cannon.index()]));
    }
    if let Some(s) = chariot {
        return Some((s, SEE_VALUE[PieceKind::Chariot.index()]));
    }
    if !palace {
        return None;
    }
    for d in ORTHOGONAL {
        let s = t + d;
        if is(at(cells, s), PieceKind::General) && GENERAL_STEPS[(s & 0xFF) as usize].contains(&to) {
            return Some(((s & 0xFF) as u8, SEE_VALUE[PieceKind::General.index()]));
        }
    }
    None
}

/// The exchange value of `m` for the side to move (0 for a quiet move to a
/// safe point, negative when the moved piece is lost for less).
pub fn see(pos: &Position, m: Move) -> i32 {
    let board = pos.board();
    let mut cells = *board.cells();
    let to = m.to().0;
    let mut rank = board.line(to, EAST);
    let mut file = board.line(to, NORTH);
    let mut gain = [0i32; 40];
    let mut d = 0usize;
    gain[0] = cell_value(cells[to as usize]);
    let mut a_sq = m.from().0;
    let mut a_val = cell_value(cells[a_sq as usize]);
    let mut side = pos.side_to_move();
    loop {
        d += 1;
        gain[d] = a_val - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d >= 38 {
            break;
        }
        cells[to as usize] = cells[a_sq as usize];
        cells[a_sq as usize] = EMPTY;
        rank = line_after(rank, to, EAST, a_sq, to);
        file = line_after(file, to, NORTH, a_sq, to);
        side = !side;
        match least_valuable_attacker(&cells, rank, file, to, side) {
            Some((s, v)) => {
                if v == SEE_VALUE[PieceKind::General.index()] {
                    // The general may only take if the point is then safe.
                    let saved = (cells[to as usize], cells[s as usize]);
                    cells[to as usize] = cells[s as usize];
                    cells[s as usize] = EMPTY;
                    let (r, f) = (line_after(rank, to, EAST, s, to), line_after(file, to, NORTH, s, to));
                    let defended = least_valuable_attacker(&cells, r, f, to, !side).is_some();
                    cells[to as usize] = saved.0;
                    cells[s as usize] = saved.1;
                    if defended {
                        break;
                    }
                }
                a_sq = s;
                a_val = v;
            }
            None => break,
        }
    }
    while d > 1 {
        d -= 1;
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
    }
    gain[0]
}

/// Whether the exchange value of `m` is at least `threshold`.
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let cells = pos.board().cells();
    let victim = cell_value(cells[m.to().index()]);
    // Bounds without the exchange: the mover may stop after its capture (the
    // result is at least victim - attacker) and the opponent may decline to
    // recapture (at most victim).
    if victim < threshold {
        return false;
    }
    if victim - cell_value(cells[m.from().index()]) >= threshold {
        return true;
    }
    see(pos, m) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        see(&pos, m)
    }

    #[test]
    fn exchanges() {
        let v = |k: PieceKind| SEE_VALUE[k.index()];
        let (horse, chariot) = (v(PieceKind::Horse), v(PieceKind::Chariot));
        // Chariot takes an undefended horse.
        assert_eq!(see_of("4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"), horse);
        // ... defended by a soldier stepping forward from e6.
        assert_eq!(see_of("4k4/9/9/4p4/4n4/9/9/9/4R4/3K5 w - - 0 1", "e1e5"), horse - chariot);
        // A cannon on e8 defends e5 only with exactly one screen between.
        assert_eq!(see_of("3k5/4c4/9/9/4n4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"), horse);
        assert_eq!(see_of("3k5/4c4/4b4/9/4n4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"), horse - chariot);
        // A horse on g6 defends e5 unless its leg f6 is blocked.
        assert_eq!(see_of("3k5/9/9/5Pn2/4n4/9/9/9/4R4/4K4 w - - 0 1", "e1e5"), horse);
        assert_eq!(see_of("3k5/9/9/6n2/4n4/9/9/9/4R4/4K4 w - - 0 1", "e1e5"), horse - chariot);
        // A cannon takes over the screen e3 and is lost to the chariot on e8; the red
        // chariot on e0 cannot take back through the screen.
        assert_eq!(see_of("5k3/4r4/9/9/4n4/9/4P4/9/4C4/3KR4 w - - 0 1", "e1e5"), horse - v(PieceKind::Cannon));
        // Quiet moves: to a safe point 0, into a crossed soldier's sideways attack loses the chariot.
        assert_eq!(see_of("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "e1e3"), 0);
        assert_eq!(see_of("3k5/9/9/9/9/9/3p5/9/4R4/4K4 w - - 0 1", "e1e3"), -chariot);
    }

    /// The shortcuts of `see_ge` agree with the full exchange on random positions.
    #[test]
    fn see_ge_shortcuts_agree() {
        let mut tested = 0;
        crate::test_support::random_walks(11, 1, 40, |pos, moves| {
            for &m in moves {
                let v = see(pos, m);
                for t in [-500, -100, 0, 1, 100, 430, 1000] {
                    assert_eq!(see_ge(pos, m, t), v >= t, "{m} t={t} in {}", pos.to_fen());
                    tested += 1;
                }
            }
        });
        assert!(tested > 10_000);
    }
}
