//! Search parameters: every pruning margin, reduction and extension limit
//! as a named `const fn` (or constant), so the search code holds no bare
//! numbers and tuning touches this file only.
//!
//! Units: scores in centipawn-like units of [`crate::eval`] (horse ~ 420),
//! depths in plies.
//!
//! Measured in self-play with `chuhan match` (one binary, the UCCI `pruning`
//! levels, 300 games from the opening suite at 1 s + 0.01 s; Elo with 95%
//! error, README "Strength"): shallow pruning (razoring, reverse futility,
//! futility, late move and SEE pruning) +197 +- 35; null move +78 +- 33
//! (measured without shallow pruning); late move reductions with internal
//! iterative reduction +191 +- 37. Earlier, in-process at 40 ms per move
//! over 136 games: check extension +28 +- 45; singular extensions -23 +- 45
//! (removed).

/// `ln(i) * 128`, i = 0..64 (0 for i = 0).
const LN128: [i32; 64] = [
    0, 0, 89, 141, 177, 206, 229, 249, 266, 281, 295, 307, 318, 328, 338, 347, 355, 363, 370, 377, 383, 390, 396, 401,
    407, 412, 417, 422, 427, 431, 435, 440, 444, 448, 451, 455, 459, 462, 466, 469, 472, 475, 478, 481, 484, 487, 490,
    493, 496, 498, 501, 503, 506, 508, 511, 513, 515, 518, 520, 522, 524, 526, 528, 530,
];

/// Late move reduction in 1/1024 plies for the `move_count`-th move at `depth`
/// (before the node adjustments): `ln(depth) * ln(move_count) / 2.1 + 0.3`.
pub const fn lmr_base(depth: i32, move_count: i32) -> i32 {
    let d = if depth > 63 {
        63
    } else if depth < 0 {
        0
    } else {
        depth
    };
    let m = if move_count > 63 {
        63
    } else if move_count < 0 {
        0
    } else {
        move_count
    };
    LN128[d as usize] * LN128[m as usize] * 1024 / (128 * 128 * 21 / 10) + 300
}

/// One ply of reduction in the units of [`lmr_base`].
pub const LMR_UNIT: i32 = 1024;
/// History score worth one ply of reduction less (or more, if negative).
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Razoring: at `depth` <= [`RAZOR_DEPTH`], drop to quiescence when the
/// static evaluation is this far below alpha.
pub const fn razor_margin(depth: i32) -> i32 {
    350 + 220 * depth
}
/// Deepest node where razoring applies.
pub const RAZOR_DEPTH: i32 = 3;

/// Reverse futility (static null move): at `depth` <= [`RFP_DEPTH`], a
/// static evaluation this far above beta fails high.
pub const fn rfp_margin(depth: i32, improving: bool) -> i32 {
    100 * depth - if improving { 70 } else { 0 }
}
/// Deepest node where reverse futility applies.
pub const RFP_DEPTH: i32 = 8;

/// Futility pruning of quiet moves at reduced depth `lmr_depth` <= [`FUTILITY_DEPTH`].
pub const fn futility_margin(lmr_depth: i32) -> i32 {
    150 + 110 * lmr_depth
}
/// Deepest (reduced) depth where futility pruning applies.
pub const FUTILITY_DEPTH: i32 = 8;

/// Late move pruning: quiet moves after this many are skipped at `depth` <= [`LMP_DEPTH`].
pub const fn lmp_count(depth: i32, improving: bool) -> i32 {
    let base = 3 + depth * depth;
    if improving {
        base
    } else {
        base / 2 + 1
    }
}
/// Deepest node where late move pruning applies.
pub const LMP_DEPTH: i32 = 8;

/// SEE threshold below which a quiet move is pruned at reduced depth `lmr_depth`.
pub const fn see_quiet_margin(lmr_depth: i32) -> i32 {
    -25 * lmr_depth * lmr_depth
}
/// SEE threshold below which a capture is pruned at `depth`.
pub const fn see_capture_margin(depth: i32) -> i32 {
    -110 * depth
}
/// Deepest node where SEE pruning applies.
pub const SEE_PRUNE_DEPTH: i32 = 8;

/// Null-move reduction at `depth` with the static evaluation `eval_margin` above beta.
pub const fn null_reduction(depth: i32, eval_margin: i32) -> i32 {
    let e = eval_margin / 200;
    3 + depth / 3 + if e > 3 { 3 } else { e }
}
/// Shallowest node where null move is tried.
pub const NULL_MIN_DEPTH: i32 = 2;
/// With at most this many chariots + horses + cannons for the side to move,
/// a null-move cutoff is verified by a reduced search (zugzwang is plausible).
pub const NULL_VERIFY_PIECES: usize = 2;
/// Shallowest node where a null-move cutoff is verified.
pub const NULL_VERIFY_DEPTH: i32 = 6;

/// Internal iterative reduction: nodes without a TT move at `depth` >= this lose a ply.
pub const IIR_DEPTH: i32 = 4;

/// Quiescence delta pruning: a capture that cannot lift the score within
/// this margin of alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;

/// First aspiration window half-width.
pub const ASPIRATION_DELTA: i32 = 25;
/// Shallowest iteration using an aspiration window.
pub const ASPIRATION_DEPTH: i32 = 4;

/// History bonus for a move that caused a cutoff at `depth`.
pub const fn history_bonus(depth: i32) -> i32 {
    let b = 24 * depth * depth + 32 * depth;
    if b > 1600 {
        1600
    } else {
        b
    }
}
/// Saturation bound of the history tables.
pub const HISTORY_MAX: i32 = 16_384;

/// Check extensions are granted while the ply is below this multiple of the iteration depth.
pub const CHECK_EXTENSION_PLY_FACTOR: i32 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert!(lmr_base(1, 1) < LMR_UNIT);
        assert!(lmr_base(10, 20) > lmr_base(10, 3));
        assert!(lmr_base(20, 20) > 2 * LMR_UNIT && lmr_base(63, 63) < 9 * LMR_UNIT);
        assert!(lmp_count(3, true) > lmp_count(3, false));
        assert!(null_reduction(12, 10_000) == 3 + 4 + 3);
        assert!(history_bonus(100) == 1600);
        assert!(see_quiet_margin(3) < see_quiet_margin(1));
    }
}
