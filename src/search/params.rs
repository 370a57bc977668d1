//! Search parameters: every pruning margin, reduction and extension limit
//! is a named entry of one table ([`TABLE`]: name, default, range, SPSA
//! step), read through a function of its name, so the search code holds no
//! bare numbers and tuning touches this file only.
//!
//! In a normal build each function returns its default, a constant the
//! compiler folds in. Built with the `tune` cargo feature (`cargo build
//! --release --features tune`), each value is an atomic that the protocol
//! sets through a hidden spin option `Tune_<name>` (advertised in that build
//! only), so an SPSA driver (`tests/tools/spsa.py`) can tune them without
//! recompiling; [`set`] is the entry point.
//!
//! Units: scores in centipawn-like units of [`crate::eval`] (a horse 724/202 mg/eg),
//! depths in plies.
//!
//! Measured in self-play with `chuhan match` (one binary, the UCCI `pruning`
//! levels, 300 games from the opening suite at 1 s + 0.01 s; Elo with 95%
//! error, README "Strength"): shallow pruning (razoring, reverse futility,
//! futility, late move and SEE pruning) +197 +- 35; null move +78 +- 33
//! (measured without shallow pruning); late move reductions with internal
//! iterative reduction +191 +- 37. Earlier, in-process at 40 ms per move
//! over 136 games: check extension +28 +- 45; singular extensions -23 +- 45
//! (removed). At 20,000 nodes per move (suite openings, both colours): the
//! larger reductions of the `LMR_*` entries +9.4 +- 14.6 over 1403 games;
//! singular extensions with double/negative extensions and multi-cut, tried
//! again, -10.5 +- 29.1 over 330 games (not kept), and at 5 s + 0.05 s with a
//! salted excluded-move key +15.8 +- 13.3 over 992 games (kept); continuation history four
//! plies back with continuation-history pruning and a fail-low bonus for the
//! opponent's last move -13.0 +- 31.9 over 293 games (not kept); ProbCut
//! (captures passing SEE against beta + 250 - 60 if improving, verified by
//! quiescence then a depth - 4 search, from depth 5) -18.7 +- 42.1 over 149
//! games, and check extensions only for checks that do not lose material by
//! SEE -13.1 +- 34.4 over 239 games (both stopped early, not kept: short
//! tests at a fixed node count, where features that pay with depth show
//! least; ProbCut again at 2 s + 0.02 s against beta + 180 - 80 if
//! improving: +5.4 +- 12.0 over 1287 games, stopped, not kept). Quiet
//! checks at the first quiescence ply together with that
//! check-extension rule, at 5 s + 0.05 s: -1.0 +- 23.6 over 338 games (not
//! kept; the quiet checks cost about 5 % in nodes per second). With a `tune`
//! build against itself at 2 s + 0.02 s (suite openings, both colours, SPRT
//! [0, 10], both stopped unresolved, defaults kept): the margins that are in
//! evaluation units (razoring, reverse futility, futility, delta, null-move
//! evaluation divisor, aspiration window, double-extension and deeper
//! re-search margins) all times 1.6, to follow the horse from 420 to 724,
//! +5.1 +- 29.0 over 204 games; check extensions only from depth 6
//! (`CHECK_EXTENSION_DEPTH`) -2.0 +- 31.3 over 176 games; late move pruning
//! at non-improving nodes cut to a quarter of the improving count
//! (`LMP_NOT_IMPROVING_PCT` 25, `_ADD` 0, about what Pikafish-HCE prunes)
//! -33.6 +- 31.5 over 197 games (LLR -1.46); null-move reduction one ply
//! larger (`NULL_BASE` 4, as Pikafish-HCE) -12.5 +- 33.7 over 139 games
//! (LLR -0.64). An SPSA run (`tests/tools/spsa.py`, 180 iterations of 8
//! opening pairs at 25,000 nodes per move, 2,880 games) over the reverse
//! futility, futility, razoring, SEE and null-move evaluation margins and the
//! reduction offset, checked at 2 s + 0.02 s: -11.4 +- 25.4 over 306 games
//! (LLR -0.98; defaults kept). At 2 s + 0.02 s (SPRT [0, 10], accepted,
//! kept): the history bonus twice as large (`HISTORY_QUADRATIC` 24 -> 48,
//! `HISTORY_LINEAR` 32 -> 64, `HISTORY_BONUS_MAX` 1600 -> 3200, a fifth of
//! the tables' scale) +19.6 +- 13.9 over 1013 games. Unresolved and off:
//! the mate-threat extension (`MATE_THREAT_EXT` 1, a node whose null move
//! is mated searched one ply deeper) +7.2 +- 12.0 over 1300 games (LLR
//! 0.69), run again -9.1 +- 26.6 over 306, together +4.1 +- 10.3 over
//! 1606 games by pairs. The entries `CHECK_EXTENSION_DEPTH`, `LMR_TT_CAPTURE`,
//! `CAPTURE_FUTILITY_*` and `MATE_THREAT_EXT` default to the search without
//! them (the bench signature is unchanged), so a tune build tries them
//! through options. `TM_INSTABILITY` and `TM_PREV_MOVE` are read by time
//! management (the soft budget, see [`crate::time`]), not by the tree
//! search.

/// One tunable search parameter.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name (the option is `Tune_<name>`).
    pub name: &'static str,
    /// Default value.
    pub default: i32,
    /// Smallest value accepted.
    pub min: i32,
    /// Largest value accepted.
    pub max: i32,
    /// SPSA perturbation at the end of tuning (about 1/20 of the range).
    pub step: i32,
}

macro_rules! params {
    ($( $(#[$doc:meta])* $fname:ident / $name:ident = $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        /// Every tunable parameter, in one table.
        pub static TABLE: &[Param] = &[
            $( Param { name: stringify!($name), default: $default, min: $min, max: $max, step: $step }, )*
        ];

        #[cfg(not(feature = "tune"))]
        mod value {
            $( pub const $name: i32 = $default; )*
        }

        #[cfg(feature = "tune")]
        mod value {
            use std::sync::atomic::AtomicI32;
            $( pub static $name: AtomicI32 = AtomicI32::new($default); )*

            pub fn slot(name: &str) -> Option<&'static AtomicI32> {
                match name {
                    $( stringify!($name) => Some(&$name), )*
                    _ => None,
                }
            }
        }

        $(
            $(#[$doc])*
            #[inline(always)]
            pub fn $fname() -> i32 {
                #[cfg(not(feature = "tune"))]
                { value::$name }
                #[cfg(feature = "tune")]
                { value::$name.load(std::sync::atomic::Ordering::Relaxed) }
            }
        )*
    };
}

params! {
    /// Constant part of the late move reduction, in 1/1024 plies.
    lmr_offset / LMR_OFFSET = 1200, 0, 3072, 100;
    /// Divisor of `ln(depth) * ln(move_count)` in the late move reduction, in tenths.
    lmr_divisor / LMR_DIVISOR = 17, 10, 40, 2;
    /// History score worth one ply of reduction less (or more, if negative).
    lmr_history_divisor / LMR_HISTORY_DIVISOR = 8192, 2048, 32768, 800;
    /// History score of a move reduced by the base amount only (below it, more).
    lmr_history_bias / LMR_HISTORY_BIAS = 4000, 0, 16000, 500;
    /// Extra reduction at expected cut nodes, in 1/1024 plies.
    lmr_cut_node / LMR_CUT_NODE = 2048, 0, 4096, 128;
    /// Extra reduction when the evaluation is not improving, in 1/1024 plies.
    lmr_not_improving / LMR_NOT_IMPROVING = 1024, 0, 3072, 128;
    /// Less reduction at PV nodes: this many plies (in 1/1024) times 1 / (2 + depth).
    lmr_pv_scaled / LMR_PV_SCALED = 16384, 0, 40960, 1024;
    /// A reduced search beating alpha by this much (plus 4 per ply of
    /// reduction) is searched again one ply deeper than planned.
    lmr_deeper_margin / LMR_DEEPER_MARGIN = 30, 0, 200, 5;
    /// Razoring margin at depth 0.
    razor_base / RAZOR_BASE = 350, 0, 1000, 40;
    /// Razoring margin per ply.
    razor_slope / RAZOR_SLOPE = 220, 0, 600, 20;
    /// Deepest node where razoring applies.
    razor_depth / RAZOR_DEPTH = 3, 0, 8, 1;
    /// Reverse futility margin per ply.
    rfp_slope / RFP_SLOPE = 100, 20, 300, 10;
    /// Reverse futility margin taken off when the evaluation improves.
    rfp_improving / RFP_IMPROVING = 70, 0, 300, 10;
    /// Deepest node where reverse futility applies.
    rfp_depth / RFP_DEPTH = 8, 0, 16, 1;
    /// Futility margin at reduced depth 0.
    futility_base / FUTILITY_BASE = 150, 0, 600, 20;
    /// Futility margin per reduced ply.
    futility_slope / FUTILITY_SLOPE = 110, 20, 400, 10;
    /// Deepest (reduced) depth where futility pruning applies.
    futility_depth / FUTILITY_DEPTH = 8, 0, 16, 1;
    /// Late move pruning: quiet moves allowed at depth 0 (plus depth squared).
    lmp_base / LMP_BASE = 3, 0, 12, 1;
    /// Late move pruning when the evaluation is not improving: this percentage
    /// of the improving count, plus [`lmp_not_improving_add`].
    lmp_not_improving_pct / LMP_NOT_IMPROVING_PCT = 50, 10, 100, 5;
    /// Moves added to the not-improving late move pruning count.
    lmp_not_improving_add / LMP_NOT_IMPROVING_ADD = 1, 0, 4, 1;
    /// Deepest node where late move pruning applies.
    lmp_depth / LMP_DEPTH = 8, 0, 16, 1;
    /// SEE pruning of quiets: threshold per squared reduced ply (negated).
    see_quiet / SEE_QUIET = 25, 0, 120, 5;
    /// SEE pruning of captures: threshold per ply (negated).
    see_capture / SEE_CAPTURE = 110, 0, 400, 10;
    /// Deepest node where SEE pruning applies.
    see_prune_depth / SEE_PRUNE_DEPTH = 8, 0, 16, 1;
    /// Null-move reduction at depth 0.
    null_base / NULL_BASE = 3, 1, 6, 1;
    /// Depth per extra ply of null-move reduction.
    null_depth_divisor / NULL_DEPTH_DIVISOR = 3, 1, 8, 1;
    /// Evaluation margin over beta per extra ply of null-move reduction.
    null_eval_divisor / NULL_EVAL_DIVISOR = 200, 50, 800, 20;
    /// Most extra plies of null-move reduction from the evaluation margin.
    null_eval_max / NULL_EVAL_MAX = 3, 0, 6, 1;
    /// Shallowest node where null move is tried.
    null_min_depth / NULL_MIN_DEPTH = 2, 1, 6, 1;
    /// With at most this many chariots + horses + cannons for the side to
    /// move, a null-move cutoff is verified by a reduced search (zugzwang is plausible).
    null_verify_pieces / NULL_VERIFY_PIECES = 2, 0, 6, 1;
    /// Shallowest node where a null-move cutoff is verified.
    null_verify_depth / NULL_VERIFY_DEPTH = 6, 1, 16, 1;
    /// Plies added to a node whose null-move search was mated (the opponent
    /// threatens mate), within the extensions' ply limit (0: off).
    mate_threat_ext / MATE_THREAT_EXT = 0, 0, 2, 1;
    /// Internal iterative reduction: nodes without a TT move at this depth or more lose a ply.
    iir_depth / IIR_DEPTH = 4, 1, 12, 1;
    /// Quiescence delta pruning: a capture that cannot lift the score within
    /// this margin of alpha is skipped.
    delta_margin / DELTA_MARGIN = 200, 0, 800, 20;
    /// First aspiration window half-width.
    aspiration_delta / ASPIRATION_DELTA = 25, 5, 100, 3;
    /// Shallowest iteration using an aspiration window.
    aspiration_depth / ASPIRATION_DEPTH = 4, 1, 10, 1;
    /// History bonus: coefficient of depth squared.
    history_quadratic / HISTORY_QUADRATIC = 48, 0, 128, 6;
    /// History bonus: coefficient of depth.
    history_linear / HISTORY_LINEAR = 64, 0, 256, 10;
    /// Largest history bonus.
    history_bonus_max / HISTORY_BONUS_MAX = 3200, 400, 8000, 150;
    /// Check extensions are granted while the ply is below this multiple of the iteration depth.
    check_extension_ply_factor / CHECK_EXTENSION_PLY_FACTOR = 2, 1, 4, 1;
    /// Check extensions only at nodes at least this deep (0: every check).
    check_extension_depth / CHECK_EXTENSION_DEPTH = 0, 0, 16, 1;
    /// Extra reduction of late moves when the table move is a capture, in 1/1024 plies.
    lmr_tt_capture / LMR_TT_CAPTURE = 0, 0, 3072, 128;
    /// Futility pruning of captures below this reduced depth (0: none).
    capture_futility_depth / CAPTURE_FUTILITY_DEPTH = 0, 0, 16, 1;
    /// Capture futility margin at reduced depth 0 (plus the victim's material).
    capture_futility_base / CAPTURE_FUTILITY_BASE = 250, 0, 1200, 40;
    /// Capture futility margin per reduced ply.
    capture_futility_slope / CAPTURE_FUTILITY_SLOPE = 350, 0, 1200, 30;
    /// The capture's history divided by this joins the capture futility
    /// margin (0: history not used).
    capture_futility_hist_div / CAPTURE_FUTILITY_HIST_DIV = 0, 0, 32, 1;
    /// Shallowest node where the table move is tested for a singular extension
    /// (two plies more at PV nodes whose entry is on a PV).
    se_depth / SE_DEPTH = 5, 4, 12, 1;
    /// Singular margin per ply below the table score (one more when the
    /// node was on a PV but is not now).
    se_margin / SE_MARGIN = 3, 1, 12, 1;
    /// A table move this far below the singular beta is extended twice.
    se_double_margin / SE_DOUBLE_MARGIN = 25, 0, 200, 5;
    /// Most double extensions on one path.
    se_double_max / SE_DOUBLE_MAX = 10, 0, 20, 1;
    /// Time management: the soft budget grows by this many thousandths per
    /// recent best-move change at the root (at most four changes counted).
    tm_instability / TM_INSTABILITY = 350, 0, 2000, 50;
    /// Time management: 1 counts a fall of the score since this side's
    /// previous move like a fall between iterations (0: only the latter).
    tm_prev_move / TM_PREV_MOVE = 0, 0, 1, 1;
    /// Damping of the static evaluation toward 0 as reversible plies pile
    /// up: times `(N - plies since the last capture) / N` (0: none).
    eval_damp / EVAL_DAMP = 200, 0, 1000, 20;
}

/// Sets parameter `name` (as in [`TABLE`]) to `value`. Only a `tune` build
/// can: elsewhere the values are compiled in, and this says so.
pub fn set(name: &str, value: i32) -> Result<(), String> {
    let p = TABLE.iter().find(|p| p.name.eq_ignore_ascii_case(name)).ok_or(format!("no search parameter {name}"))?;
    if !(p.min..=p.max).contains(&value) {
        return Err(format!("{}: {value} is outside {}..{}", p.name, p.min, p.max));
    }
    #[cfg(feature = "tune")]
    {
        value::slot(p.name)
            .ok_or(format!("no search parameter {name}"))?
            .store(value, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }
    #[cfg(not(feature = "tune"))]
    Err(format!("{}: search parameters are compiled in; build with --features tune to set them", p.name))
}

/// `ln(i) * 128`, i = 0..64 (0 for i = 0).
const LN128: [i32; 64] = [
    0, 0, 89, 141, 177, 206, 229, 249, 266, 281, 295, 307, 318, 328, 338, 347, 355, 363, 370, 377, 383, 390, 396, 401,
    407, 412, 417, 422, 427, 431, 435, 440, 444, 448, 451, 455, 459, 462, 466, 469, 472, 475, 478, 481, 484, 487, 490,
    493, 496, 498, 501, 503, 506, 508, 511, 513, 515, 518, 520, 522, 524, 526, 528, 530,
];

/// Late move reduction in 1/1024 plies for the `move_count`-th move at `depth`
/// (before the node adjustments): `ln(depth) * ln(move_count) / 1.7 + 1.17`
/// with the default divisor and offset.
#[inline(always)]
pub fn lmr_base(depth: i32, move_count: i32) -> i32 {
    let d = depth.clamp(0, 63) as usize;
    let m = move_count.clamp(0, 63) as usize;
    LN128[d] * LN128[m] * 1024 / (128 * 128 * lmr_divisor() / 10) + lmr_offset()
}

/// One ply of reduction in the units of [`lmr_base`].
pub const LMR_UNIT: i32 = 1024;

/// Razoring: at `depth` <= [`razor_depth`], drop to quiescence when the
/// static evaluation is this far below alpha.
#[inline(always)]
pub fn razor_margin(depth: i32) -> i32 {
    razor_base() + razor_slope() * depth
}

/// Reverse futility (static null move): at `depth` <= [`rfp_depth`], a
/// static evaluation this far above beta fails high.
#[inline(always)]
pub fn rfp_margin(depth: i32, improving: bool) -> i32 {
    rfp_slope() * depth - if improving { rfp_improving() } else { 0 }
}

/// Futility pruning of quiet moves at reduced depth `lmr_depth` <= [`futility_depth`].
#[inline(always)]
pub fn futility_margin(lmr_depth: i32) -> i32 {
    futility_base() + futility_slope() * lmr_depth
}

/// Futility pruning of a capture at reduced depth `lmr_depth` (<
/// [`capture_futility_depth`]): pruned when the static evaluation plus the
/// victim's material plus this margin does not reach alpha.
#[inline(always)]
pub fn capture_futility_margin(lmr_depth: i32) -> i32 {
    capture_futility_base() + capture_futility_slope() * lmr_depth
}

/// Late move pruning: quiet moves after this many are skipped at `depth` <= [`lmp_depth`].
#[inline(always)]
pub fn lmp_count(depth: i32, improving: bool) -> i32 {
    let base = lmp_base() + depth * depth;
    if improving {
        base
    } else {
        base * lmp_not_improving_pct() / 100 + lmp_not_improving_add()
    }
}

/// SEE threshold below which a quiet move is pruned at reduced depth `lmr_depth`.
#[inline(always)]
pub fn see_quiet_margin(lmr_depth: i32) -> i32 {
    -see_quiet() * lmr_depth * lmr_depth
}

/// SEE threshold below which a capture is pruned at `depth`.
#[inline(always)]
pub fn see_capture_margin(depth: i32) -> i32 {
    -see_capture() * depth
}

/// Null-move reduction at `depth` with the static evaluation `eval_margin` above beta.
#[inline(always)]
pub fn null_reduction(depth: i32, eval_margin: i32) -> i32 {
    let e = eval_margin / null_eval_divisor();
    null_base() + depth / null_depth_divisor() + e.min(null_eval_max())
}

/// Singular beta: how far below the table score the other moves must stay
/// for the table move to be singular at `depth`.
#[inline(always)]
pub fn singular_margin(depth: i32, was_pv: bool) -> i32 {
    (se_margin() + was_pv as i32) * depth
}

/// History bonus for a move that caused a cutoff at `depth`.
#[inline(always)]
pub fn history_bonus(depth: i32) -> i32 {
    (history_quadratic() * depth * depth + history_linear() * depth).min(history_bonus_max())
}

/// Saturation bound of the history tables (the tables' scale, not tuned).
pub const HISTORY_MAX: i32 = 16_384;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        assert_eq!(lmr_base(1, 1), lmr_offset());
        assert!(lmr_base(10, 20) > lmr_base(10, 3));
        assert!(lmr_base(20, 20) > 6 * LMR_UNIT && lmr_base(63, 63) < 12 * LMR_UNIT);
        assert!(lmp_count(3, true) > lmp_count(3, false));
        assert!(null_reduction(12, 10_000) == 3 + 4 + 3);
        assert!(history_bonus(100) == 3200);
        assert!(see_quiet_margin(3) < see_quiet_margin(1));
    }

    #[test]
    fn table_is_consistent() {
        for (i, p) in TABLE.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(p.step > 0 && p.step <= p.max - p.min, "{}", p.name);
            assert!(TABLE[..i].iter().all(|q| !q.name.eq_ignore_ascii_case(p.name)), "{}", p.name);
        }
        assert!(set("no_such_parameter", 1).is_err());
        assert!(set("RAZOR_DEPTH", 99).is_err(), "out of range");
    }

    #[cfg(feature = "tune")]
    #[test]
    fn tune_builds_set_values() {
        set("ASPIRATION_DELTA", 40).unwrap();
        assert_eq!(aspiration_delta(), 40);
        set("aspiration_delta", 25).unwrap();
        assert_eq!(aspiration_delta(), 25);
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn normal_builds_refuse_to_set() {
        assert!(set("ASPIRATION_DELTA", 40).unwrap_err().contains("--features tune"));
        assert_eq!(aspiration_delta(), 25);
    }
}
