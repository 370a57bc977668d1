//! Zobrist keys: deterministic tables (fixed seed, fixed order) so that keys are
//! the same on every build and machine. The opening book stores these keys, so
//! changing anything here changes [`KEY_VERSION`] and invalidates books.

use crate::board::{Piece, Square};

/// Version of the key tables; the book format records it.
pub const KEY_VERSION: u32 = 1;

/// A Zobrist hash of a position (pieces and side to move).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Key(pub u64);

const SEED: u64 = 0x4348_5548_414E_0001; // "CHUHAN", version 1

// The keys come from SplitMix64 written out here rather than from the `rand`
// crate used elsewhere: the tables are built at compile time (`const fn`),
// which no `rand` generator supports, and they must never change with a crate
// upgrade, since opening books store the keys (see [`KEY_VERSION`]).
const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> ([[u64; 256]; 16], u64) {
    let mut t = [[0u64; 256]; 16];
    let mut state = SEED;
    let mut code = 1;
    while code < 16 {
        if code != 8 {
            let mut rank = 0;
            while rank < 10 {
                let mut file = 0;
                while file < 9 {
                    let (s, v) = splitmix64(state);
                    state = s;
                    t[code][Square::new(file, rank).0 as usize] = v;
                    file += 1;
                }
                rank += 1;
            }
        }
        code += 1;
    }
    let (_, side) = splitmix64(state);
    (t, side)
}

const TABLES: ([[u64; 256]; 16], u64) = build();

/// `PIECE_SQUARE[piece code][square]`; zero off the board.
pub static PIECE_SQUARE: [[u64; 256]; 16] = TABLES.0;
/// XORed in when Black is to move.
pub const SIDE: u64 = TABLES.1;

/// The key of `piece` on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}
