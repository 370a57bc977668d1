//! # Chuhan (楚汉), a Xiangqi engine
//!
//! Chuhan plays Xiangqi (Chinese chess). The library holds all logic: the
//! board and legal move generation, FEN, Zobrist keys, perft; the binary
//! `chuhan` is a thin front end over it.
//!
//! ```
//! use chuhan::position::Position;
//! use chuhan::perft::perft;
//!
//! let mut pos = Position::startpos();
//! assert_eq!(pos.legal_moves().len(), 44);
//! assert_eq!(perft(&mut pos, 3), 79_666);
//! let m = pos.parse_move("h2e2").unwrap(); // central cannon, 炮二平五
//! pos.make_move(m);
//! assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
//! ```
//!
//! Coordinates are ICCS: files `a`..`i` from Red's left, ranks `0`..`9` from
//! Red's back rank.

pub mod attacks;
pub mod bench;
pub mod board;
pub mod book;
pub mod build_info;
pub mod eval;
pub mod fen;
pub mod files;
pub mod memory;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod score;
pub mod search;
#[cfg(test)]
pub(crate) mod test_support;
pub mod time;
pub mod tools;
pub mod tt;
pub mod tune;

pub use board::{Color, Piece, PieceKind, Square};
pub use fen::{FenError, Setup, START_FEN};
pub use moves::{Move, MoveList};
pub use position::Position;
