//! The static evaluation term by term, for the `eval` command: each side's
//! middlegame and endgame sum of every constant of [`super::weights`], then
//! the phase blend, the scale factor, the side to move and the tempo. Built
//! from the coefficient trace ([`super::trace()`]), which runs the
//! evaluation's own code, so the rows are exactly the terms
//! [`super::evaluate`] adds and the final line is its value.

use super::params::{self, id, Role, Use, ENTRIES};
use super::trace::{side_coefficients, trace};
use crate::board::Color;
use crate::position::Position;

/// One constant's contribution: `(middlegame, endgame)` for Red and for Black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The constant's name in `weights.rs` (`MATERIAL`, `PST_HORSE`, `CHARIOT_MOBILITY`, ...).
    pub name: &'static str,
    pub red: (i64, i64),
    pub black: (i64, i64),
}

/// The evaluation of one position, step by step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Every constant that counts for either side, in `weights.rs` order.
    pub rows: Vec<Row>,
    /// Red minus Black, `(middlegame, endgame)`.
    pub total: (i64, i64),
    /// The game phase (0 = endgame .. `phase_max` = middlegame).
    pub phase: i32,
    pub phase_max: i32,
    /// `(mg * phase + eg * (phase_max - phase)) / phase_max`, Red's view.
    pub blended: i32,
    /// The scale factor's name, its value and the full scale (`SCALE_FULL`).
    pub scale: (&'static str, i32, i32),
    /// The blended value after scaling, Red's view.
    pub scaled: i32,
    pub side_to_move: Color,
    pub tempo: i32,
    /// Neither side can cross the river: the evaluation is 0.
    pub dead_draw: bool,
    /// The evaluation for the side to move (= [`super::evaluate`]).
    pub final_stm: i32,
}

impl Breakdown {
    /// The evaluation from Red's view.
    pub fn final_red(&self) -> i32 {
        if self.side_to_move == Color::Red {
            self.final_stm
        } else {
            -self.final_stm
        }
    }

    /// The breakdown as plain text lines, a table then the steps after it.
    pub fn render(&self) -> Vec<String> {
        let rule = format!(" {:-<28}+{:-<15}+{:-<15}+{:-<15}", "", "", "", "");
        let mut out = vec![
            format!(" {:<28}|{:^15}|{:^15}|{:^15}", "Term", "Red", "Black", "Total"),
            format!(" {:<28}|{:>7} {:>7}|{:>7} {:>7}|{:>7} {:>7}", "", "MG", "EG", "MG", "EG", "MG", "EG"),
            rule.clone(),
        ];
        for r in &self.rows {
            out.push(format!(
                " {:<28}|{:>7} {:>7}|{:>7} {:>7}|{:>7} {:>7}",
                r.name,
                r.red.0,
                r.red.1,
                r.black.0,
                r.black.1,
                r.red.0 - r.black.0,
                r.red.1 - r.black.1
            ));
        }
        let (rm, re) = self.rows.iter().fold((0, 0), |a, r| (a.0 + r.red.0, a.1 + r.red.1));
        let (bm, be) = self.rows.iter().fold((0, 0), |a, r| (a.0 + r.black.0, a.1 + r.black.1));
        out.push(rule);
        out.push(format!(
            " {:<28}|{:>7} {:>7}|{:>7} {:>7}|{:>7} {:>7}",
            "Total", rm, re, bm, be, self.total.0, self.total.1
        ));
        out.push(String::new());
        out.push(format!("Phase: {} of {} ({} = middlegame, 0 = endgame)", self.phase, self.phase_max, self.phase_max));
        let side = if self.side_to_move == Color::Red { "Red" } else { "Black" };
        if self.dead_draw {
            out.push("Dead draw: no chariot, horse, cannon or soldier on either side".to_string());
        } else {
            out.push(format!(
                "Blended (Red's view): ({} * {} + {} * {}) / {} = {}",
                self.total.0,
                self.phase,
                self.total.1,
                self.phase_max - self.phase,
                self.phase_max,
                self.blended
            ));
            let (name, value, full) = self.scale;
            let strong = match self.blended {
                v if v > 0 => "Red ahead",
                v if v < 0 => "Black ahead",
                _ => "level: Black's factor",
            };
            out.push(format!("Scale factor: {value}/{full} ({name}; {strong})"));
            out.push(format!("Scaled (Red's view): {}", self.scaled));
            out.push(format!("Tempo (side to move): {}", self.tempo));
        }
        out.push(format!("Final evaluation: {} (Red's view), {} ({side} to move)", self.final_red(), self.final_stm));
        out.iter_mut().for_each(|l| l.truncate(l.trim_end().len()));
        out
    }
}

/// The breakdown of the full evaluation of `pos`.
pub fn breakdown(pos: &Position) -> Breakdown {
    let w = params::defaults();
    let t = trace(pos);
    let [red, black] = side_coefficients(pos);
    let sum = |coef: &[i32], e: &params::Entry| {
        let (mut mg, mut eg) = (0i64, 0i64);
        for i in e.offset..e.offset + e.shape.len() {
            let c = coef[i] as i64;
            if c == 0 {
                continue;
            }
            match params::role(i) {
                Role::Mg => {
                    mg += c * w[i] as i64;
                    eg += c * w[params::eg_partner(i).expect("a pair has its endgame half")] as i64;
                }
                Role::MgOnly => mg += c * w[i] as i64,
                _ => {}
            }
        }
        (mg, eg)
    };
    let rows: Vec<Row> = ENTRIES
        .iter()
        .filter(|e| matches!(e.usage, Use::Pairs | Use::MgOnly))
        .map(|e| Row { name: e.name, red: sum(&red, e), black: sum(&black, e) })
        .filter(|r| r.red != (0, 0) || r.black != (0, 0))
        .collect();
    let total = rows.iter().fold((0, 0), |a, r| (a.0 + r.red.0 - r.black.0, a.1 + r.red.1 - r.black.1));
    let phase = t.phase(&w);
    let phase_max = w[id::PHASE_MAX];
    let (mg, eg) = (total.0 as i32, total.1 as i32);
    let blended = (mg * phase + eg * (phase_max - phase)) / phase_max;
    let s = t.scale[if blended > 0 { 0 } else { 1 }] as usize;
    let full = w[id::SCALE_FULL];
    let scaled = if s != id::SCALE_FULL { blended * w[s] / full } else { blended };
    let side_to_move = if t.red_to_move { Color::Red } else { Color::Black };
    let tempo = w[id::TEMPO];
    let final_stm = if t.dead_draw { 0 } else { (if t.red_to_move { scaled } else { -scaled }) + tempo };
    Breakdown {
        rows,
        total,
        phase,
        phase_max,
        blended,
        scale: (params::entry_of(s).0.name, w[s], full),
        scaled,
        side_to_move,
        tempo,
        dead_draw: t.dead_draw,
        final_stm,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    fn check(pos: &Position) -> Breakdown {
        let b = breakdown(pos);
        assert_eq!(b.final_stm, evaluate(pos).0, "{}", pos.to_fen());
        // The table's totals are the trace's sums.
        let (mg, eg) = trace(pos).sums(&params::defaults());
        assert_eq!(b.total, (mg, eg), "{}", pos.to_fen());
        b
    }

    #[test]
    fn the_total_is_the_evaluation() {
        for fen in crate::fen::BENCH_FENS {
            check(&Position::from_fen(fen).unwrap());
        }
        let mut n = 0;
        crate::test_support::random_walks(3, 4, 80, |pos, _| {
            check(pos);
            n += 1;
        });
        assert!(n > 500, "{n}");
        for fen in [
            "3k5/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1",
            "4k4/9/9/9/9/9/9/4c4/9/4K4 b - - 0 1",
            "3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1",
        ] {
            check(&Position::from_fen(fen).unwrap());
        }
    }

    #[test]
    fn rows_per_side() {
        // The start position: both sides alike, so every row is level.
        let b = check(&Position::startpos());
        assert!(b.rows.iter().all(|r| r.red == r.black), "{:?}", b.rows);
        let material = &b.rows[0];
        assert_eq!(material.name, "MATERIAL");
        let m = crate::eval::weights::MATERIAL;
        let mg = 2 * (m[1].0 + m[2].0 + m[3].0 + m[4].0 + m[5].0) + 5 * m[6].0;
        assert_eq!(material.red.0, mg as i64);
        assert_eq!(b.total, (0, 0));
        assert_eq!((b.phase, b.phase_max), (48, 48));
        assert_eq!(b.final_stm, crate::eval::weights::TEMPO);
        // A lone cannon: scaled toward a draw, Black to move sees it negative.
        let lone = Position::from_fen("3k5/9/9/9/9/9/9/4C4/9/4K4 b - - 0 1").unwrap();
        let b = check(&lone);
        assert_eq!(b.scale.0, "SCALE_LONE_CANNON");
        assert!(b.scaled.abs() < b.blended.abs());
        assert_eq!(b.final_red(), b.scaled - b.tempo);
        let text = b.render();
        assert!(text.iter().any(|l| l.starts_with(" MATERIAL ")), "{text:?}");
        assert!(text.iter().any(|l| l.contains("SCALE_LONE_CANNON")), "{text:?}");
        assert_eq!(
            text.last().unwrap(),
            &format!("Final evaluation: {} (Red's view), {} (Black to move)", b.final_red(), evaluate(&lone).0)
        );
        // A dead draw says so and is 0.
        let dead = check(&Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1").unwrap());
        assert!(dead.dead_draw && dead.final_stm == 0);
        assert!(dead.render().iter().any(|l| l.starts_with("Dead draw")));
    }
}
