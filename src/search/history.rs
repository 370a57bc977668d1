//! Move-ordering statistics of one search thread: butterfly history
//! (side, from, to), continuation history (previous piece and destination ->
//! this piece and destination), capture history (piece, destination,
//! victim), counter moves, killers and the static-evaluation corrections.
//! Kept between searches of a game, cleared on a new game. Updates use
//! "gravity" so values stay within [`HISTORY_MAX`].

use super::correction::CorrectionHistory;
use super::params::HISTORY_MAX;
use crate::board::code_of;
use crate::moves::Move;

/// `SQ90[square]`: the point index 0..90 (0 off the board).
static SQ90: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let f = i & 15;
        let r = i >> 4;
        if f >= 3 && f <= 11 && r >= 3 && r <= 12 {
            t[i] = ((r - 3) * 9 + (f - 3)) as u8;
        }
        i += 1;
    }
    t
};

/// Rows of the continuation table: piece code (16) x point (90).
pub const CONT_ROWS: usize = 16 * 90;

/// Index of a (piece code, destination) pair into continuation rows.
#[inline(always)]
pub fn cont_index(code: u8, to: u8) -> usize {
    code as usize * 90 + SQ90[to as usize] as usize
}

/// Column of the capture table for a capture of the piece on `cell` (its kind).
#[inline(always)]
pub fn victim_column(cell: u8) -> usize {
    (code_of(cell) & 7) as usize
}

/// Gravity update: moves `v` towards `bonus`'s sign, saturating at [`HISTORY_MAX`].
#[inline(always)]
pub fn gravity(v: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let x = *v as i32;
    *v = (x + b - x * b.abs() / HISTORY_MAX) as i16;
}

/// All ordering tables of one thread.
pub struct Histories {
    /// `butterfly[side][from90 * 90 + to90]`.
    pub butterfly: Vec<[i16; 8100]>,
    /// `continuation[row of the earlier move][row of this move]`.
    pub continuation: Vec<[i16; CONT_ROWS]>,
    /// `capture[piece code * 90 + to90][victim kind]`.
    pub capture: Vec<[i16; 8]>,
    /// `counter[row of the previous move]`.
    pub counter: Vec<Move>,
    /// Static-evaluation corrections.
    pub correction: CorrectionHistory,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            butterfly: vec![[0; 8100]; 2],
            continuation: vec![[0; CONT_ROWS]; CONT_ROWS],
            capture: vec![[0; 8]; CONT_ROWS],
            counter: vec![Move::NULL; CONT_ROWS],
            correction: CorrectionHistory::default(),
        }
    }
}

impl Histories {
    /// Resets everything (new game).
    pub fn clear(&mut self) {
        for t in &mut self.butterfly {
            t.fill(0);
        }
        for t in &mut self.continuation {
            t.fill(0);
        }
        for t in &mut self.capture {
            t.fill(0);
        }
        self.counter.fill(Move::NULL);
        self.correction.clear();
    }

    /// Butterfly index of a move.
    #[inline(always)]
    pub fn bf_index(m: Move) -> usize {
        SQ90[m.from().index()] as usize * 90 + SQ90[m.to().index()] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_saturates() {
        let mut v = 0i16;
        for _ in 0..1000 {
            gravity(&mut v, 1600);
        }
        assert!(v as i32 <= HISTORY_MAX && v as i32 > HISTORY_MAX - 200);
        for _ in 0..1000 {
            gravity(&mut v, -1600);
        }
        assert!(v as i32 >= -HISTORY_MAX && (v as i32) < -HISTORY_MAX + 200);
        assert_eq!(SQ90[crate::board::Square::new(8, 9).index()], 89);
    }
}
