//! The per-ply state stack. One [`StateInfo`] per ply played since the root
//! position; the repetition rules walk it backwards, search reads the current
//! one. It holds only what cannot be recomputed cheaply from the board.

use super::zobrist::Key;
use crate::board::PieceId;
use crate::moves::Move;

/// What a ply changed and what is known about the position it led to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct StateInfo {
    /// Key of the position after the move.
    pub key: Key,
    /// The move that led here ([`Move::NULL`] for the root and for null moves).
    pub mv: Move,
    /// Id of the piece it captured (0 if none).
    pub captured: PieceId,
    /// Whether the side to move (after the move) is in check.
    pub in_check: bool,
    /// Plies since the last capture (the FEN half-move counter at the root).
    pub plies_since_capture: u16,
}
