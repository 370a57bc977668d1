//! The evaluation's weights as one vector of named integer parameters, for
//! the tuner: [`defaults`] flattens every constant of [`super::weights`]
//! (except `SEE_VALUE`, which belongs to the search) in the order of
//! [`ENTRIES`], [`name`] and [`role`] describe each element, and
//! [`render_weights`] writes a vector back as the Rust source of
//! `weights.rs` (same layout, names and comments; only the values change).
//!
//! Flattening, per shape of constant:
//! - a scalar: one element (`TEMPO`);
//! - a pair `(mg, eg)`: two elements, `NAME.mg` then `NAME.eg`;
//! - an array of pairs: `NAME[k].mg`, `NAME[k].eg` for each k;
//! - a piece-square table pair `(mg table, eg table)`: the middlegame table
//!   row by row (`NAME.mg[row][file]`, row 0 = rank 9 as the file draws it),
//!   then the endgame table;
//! - an array of integers: `NAME[k]`.
//!
//! The evaluation code names each weight once (`term!(t, NAME, n)`), which
//! gives both the compile-time value and the parameter index in [`id`], so
//! the per-position coefficient trace ([`super::trace()`]) needs no list of
//! terms beyond the evaluation itself.

use super::weights::{self, Pair};

/// What a parameter is, for the tuner and the trace.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The middlegame half of a pair: the evaluation is linear in it; the
    /// trace carries its coefficient (the endgame half has the same one).
    Mg,
    /// The endgame half of a pair (its coefficient is its `Mg` partner's).
    Eg,
    /// A middlegame-only linear weight (`KING_ATTACK`).
    MgOnly,
    /// The side-to-move bonus, added after blending and scaling.
    Tempo,
    /// A drawish-endgame scale factor (out of `SCALE_FULL`); the evaluation
    /// multiplies the blended value by it.
    Scale,
    /// An integer that selects or counts rather than weighs (phase weights,
    /// the phase maximum, attack units, `SCALE_FULL`): evaluation through
    /// the vector honours phase weights and the phase maximum, but the tuner
    /// keeps all of them fixed.
    Fixed,
}

/// The shape of one constant of `weights.rs`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Scalar,
    Pair,
    PairArray(usize),
    Array(usize),
    Tables,
}

impl Shape {
    /// Number of scalar parameters.
    #[allow(clippy::len_without_is_empty)]
    pub(crate) const fn len(self) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::Pair => 2,
            Shape::PairArray(n) => 2 * n,
            Shape::Array(n) => n,
            Shape::Tables => 180,
        }
    }
}

type Table = [[i16; 9]; 10];

/// A constant that flattens into parameters.
pub(crate) trait Flat {
    const SHAPE: Shape;
    fn flatten(&self, out: &mut Vec<i32>);
}

impl Flat for i32 {
    const SHAPE: Shape = Shape::Scalar;
    fn flatten(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
}

impl Flat for Pair {
    const SHAPE: Shape = Shape::Pair;
    fn flatten(&self, out: &mut Vec<i32>) {
        out.extend([self.0, self.1]);
    }
}

impl<const N: usize> Flat for [Pair; N] {
    const SHAPE: Shape = Shape::PairArray(N);
    fn flatten(&self, out: &mut Vec<i32>) {
        for p in self {
            out.extend([p.0, p.1]);
        }
    }
}

impl<const N: usize> Flat for [i32; N] {
    const SHAPE: Shape = Shape::Array(N);
    fn flatten(&self, out: &mut Vec<i32>) {
        out.extend_from_slice(self);
    }
}

impl Flat for (Table, Table) {
    const SHAPE: Shape = Shape::Tables;
    fn flatten(&self, out: &mut Vec<i32>) {
        for t in [&self.0, &self.1] {
            out.extend(t.iter().flatten().map(|&v| v as i32));
        }
    }
}

/// The shape of a constant (for the compile-time layout).
pub(crate) const fn shape_of<T: Flat>(_: &T) -> Shape {
    T::SHAPE
}

/// How a constant's elements are used (with its shape this gives [`role`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Use {
    /// Pairs, arrays of pairs, table pairs: middlegame and endgame halves.
    Pairs,
    MgOnly,
    Tempo,
    Scale,
    Fixed,
}

/// One constant of `weights.rs` in the vector.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    /// The constant's name in `weights.rs`.
    pub(crate) name: &'static str,
    /// Index of its first element.
    pub(crate) offset: usize,
    pub(crate) shape: Shape,
    pub(crate) usage: Use,
}

macro_rules! layout {
    (@ids $acc:expr ;) => {
        /// Number of parameters.
        pub(crate) const COUNT: usize = $acc;
    };
    (@ids $acc:expr ; $name:ident $usage:ident, $($rest:tt)*) => {
        #[allow(missing_docs)]
        pub(crate) const $name: usize = $acc;
        layout!(@ids $acc + super::shape_of(&weights::$name).len() ; $($rest)*);
    };
    ($($name:ident $usage:ident,)*) => {
        /// Index of the first parameter of each constant of `weights.rs`.
        pub(crate) mod id {
            use super::weights;
            layout!(@ids 0 ; $($name $usage,)*);
        }

        /// Number of parameters.
        pub const COUNT: usize = id::COUNT;

        /// Every constant in the vector, in order.
        pub(crate) const ENTRIES: &[Entry] = &[$(Entry {
            name: stringify!($name),
            offset: id::$name,
            shape: shape_of(&weights::$name),
            usage: Use::$usage,
        },)*];

        /// The compiled weights as a vector.
        pub fn defaults() -> Vec<i32> {
            let mut out = Vec::with_capacity(COUNT);
            $(Flat::flatten(&weights::$name, &mut out);)*
            debug_assert_eq!(out.len(), COUNT);
            out
        }
    };
}

layout! {
    MATERIAL Pairs,
    PHASE_WEIGHT Fixed,
    PHASE_MAX Fixed,
    TEMPO Tempo,
    PST_GENERAL Pairs,
    PST_ADVISOR Pairs,
    PST_ELEPHANT Pairs,
    PST_HORSE Pairs,
    PST_CHARIOT Pairs,
    PST_CANNON Pairs,
    PST_SOLDIER Pairs,
    CHARIOT_MOBILITY Pairs,
    HORSE_MOBILITY Pairs,
    HORSE_LEG_BLOCKED Pairs,
    CANNON_MOBILITY Pairs,
    CHARIOT_OPEN_FILE Pairs,
    EMPTY_HEAD_CANNON Pairs,
    CANNON_PINS_PALACE_HORSE Pairs,
    BOTTOM_CANNON Pairs,
    CHARIOT_BACK_RANK Pairs,
    ADVISOR_MISSING_VS_CHARIOT Pairs,
    ELEPHANT_MISSING_VS_CANNON Pairs,
    CONNECTED_ADVISORS Pairs,
    CONNECTED_ELEPHANTS Pairs,
    SOLDIERS_CONNECTED Pairs,
    CHARIOT_HORSE_CANNON Pairs,
    HORSE_CANNON_NO_CHARIOT Pairs,
    DOUBLE_CANNON_NO_CHARIOT Pairs,
    THREAT_BY_SOLDIER Pairs,
    THREAT_BY_MINOR Pairs,
    THREAT_BY_DEFENDER Pairs,
    HANGING Pairs,
    PINNED Pairs,
    IMBALANCE_OURS Pairs,
    IMBALANCE_THEIRS Pairs,
    KING_ATTACK_UNITS Fixed,
    KING_ATTACK MgOnly,
    SCALE_FULL Fixed,
    SCALE_NO_ATTACKERS Scale,
    SCALE_LONE_CANNON Scale,
    SCALE_LONE_HORSE_VS_DEFENDERS Scale,
    SCALE_BOTTOM_SOLDIERS Scale,
    SCALE_LONE_SOLDIER_VS_DEFENDERS Scale,
    SCALE_CHARIOT_VS_CHARIOT Scale,
    SCALE_EQUAL_ATTACKERS Scale,
    SCALE_CHARIOT_VS_FORTRESS Scale,
    SCALE_TWO_VS_FULL_DEFENDERS Scale,
    SCALE_SOLDIER_PAIR_VS_FULL_DEFENDERS Scale,
}

/// First parameter of each kind's piece-square tables, by kind index.
pub(crate) const PST_IDS: [usize; 7] = [
    id::PST_GENERAL,
    id::PST_ADVISOR,
    id::PST_ELEPHANT,
    id::PST_HORSE,
    id::PST_CHARIOT,
    id::PST_CANNON,
    id::PST_SOLDIER,
];

/// The constant holding parameter `i`, and `i`'s place in it.
pub(crate) fn entry_of(i: usize) -> (&'static Entry, usize) {
    let k = ENTRIES.partition_point(|e| e.offset <= i) - 1;
    (&ENTRIES[k], i - ENTRIES[k].offset)
}

/// What parameter `i` is.
pub(crate) fn role(i: usize) -> Role {
    let (e, j) = entry_of(i);
    match e.usage {
        Use::Pairs => {
            let eg = match e.shape {
                Shape::Tables => j >= 90,
                _ => j % 2 == 1,
            };
            if eg {
                Role::Eg
            } else {
                Role::Mg
            }
        }
        Use::MgOnly => Role::MgOnly,
        Use::Tempo => Role::Tempo,
        Use::Scale => Role::Scale,
        Use::Fixed => Role::Fixed,
    }
}

/// The endgame partner of a middlegame pair parameter (`None` for others).
pub(crate) fn eg_partner(i: usize) -> Option<usize> {
    let (e, j) = entry_of(i);
    match (e.usage, e.shape) {
        (Use::Pairs, Shape::Tables) if j < 90 => Some(i + 90),
        (Use::Pairs, Shape::Tables) => None,
        (Use::Pairs, _) if j % 2 == 0 => Some(i + 1),
        _ => None,
    }
}

/// The parameter on the mirrored point of a piece-square table entry
/// (file a <-> i, b <-> h, ...; the board is left-right symmetric, so the
/// tuner ties the two); `i` itself for every other parameter and for the
/// middle file.
pub(crate) fn mirror(i: usize) -> usize {
    let (e, j) = entry_of(i);
    match e.shape {
        Shape::Tables => {
            let file = j % 9;
            i - file + (8 - file)
        }
        _ => i,
    }
}

/// The name of the `weights.rs` constant that holds parameter `i`
/// (`PST_HORSE` for `PST_HORSE.eg[2][4]`).
pub fn constant(i: usize) -> &'static str {
    entry_of(i).0.name
}

/// Whether `weights.rs` has a constant of this name in the vector.
pub fn is_constant(name: &str) -> bool {
    ENTRIES.iter().any(|e| e.name == name)
}

/// The name of parameter `i`: `MATERIAL[3].mg`, `PST_HORSE.eg[2][4]`, `KING_ATTACK[5]`, `TEMPO`.
pub fn name(i: usize) -> String {
    let (e, j) = entry_of(i);
    let phase = |eg: bool| if eg { "eg" } else { "mg" };
    match e.shape {
        Shape::Scalar => e.name.to_string(),
        Shape::Pair => format!("{}.{}", e.name, phase(j == 1)),
        Shape::PairArray(_) => format!("{}[{}].{}", e.name, j / 2, phase(j % 2 == 1)),
        Shape::Array(_) => format!("{}[{}]", e.name, j),
        Shape::Tables => format!("{}.{}[{}][{}]", e.name, phase(j >= 90), j % 90 / 9, j % 9),
    }
}

/// The line width `cargo fmt` keeps (`rustfmt.toml`).
const MAX_WIDTH: usize = 120;

/// An array literal laid out as `cargo fmt` lays it out when the value starts
/// at `column` and is followed by `;`: on one line if it fits; else on one
/// line of its own, indented, after a line break (the result then starts with
/// `\n`) if it fits there; otherwise one element per line (pairs), or as many
/// elements per line as fit (integers, which rustfmt packs).
fn render_list(items: Vec<String>, column: usize, pack: bool) -> String {
    let one_line = format!("[{}]", items.join(", "));
    if column + one_line.len() < MAX_WIDTH {
        return one_line;
    }
    if 4 + one_line.len() < MAX_WIDTH {
        return format!("\n    {one_line}");
    }
    let mut s = String::from("[\n");
    let mut line = String::new();
    for item in items {
        // " item," joins the line when packing and it fits.
        if pack && !line.is_empty() && line.len() + item.len() + 2 <= MAX_WIDTH {
            line.push_str(&format!(" {item},"));
        } else {
            if !line.is_empty() {
                s.push_str(&line);
                s.push('\n');
            }
            line = format!("    {item},");
        }
    }
    s.push_str(&line);
    s.push_str("\n]");
    s
}

/// The right-hand side of a constant that starts at `column` of its line,
/// formatted as `weights.rs` writes it.
fn render_value(e: &Entry, v: &[i32], column: usize) -> String {
    let list = |items: Vec<String>| format!("[{}]", items.join(", "));
    match e.shape {
        Shape::Scalar => v[0].to_string(),
        Shape::Pair => format!("({}, {})", v[0], v[1]),
        Shape::PairArray(_) => {
            render_list(v.chunks(2).map(|p| format!("({}, {})", p[0], p[1])).collect(), column, false)
        }
        Shape::Array(_) => render_list(v.iter().map(|x| x.to_string()).collect(), column, true),
        Shape::Tables => {
            let mut s = String::from("(\n");
            for t in v.chunks(90) {
                s.push_str("    [\n");
                for row in t.chunks(9) {
                    if row.iter().all(|&x| x == 0) {
                        s.push_str("        [0; 9],\n");
                    } else {
                        s.push_str(&format!("        {},\n", list(row.iter().map(|x| x.to_string()).collect())));
                    }
                }
                s.push_str("    ],\n");
            }
            s.push(')');
            s
        }
    }
}

/// The source of `weights.rs` as compiled into this binary.
pub const WEIGHTS_SOURCE: &str = include_str!("weights.rs");

/// Why a vector cannot be written back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// The vector has the wrong length.
    Length { expected: usize, got: usize },
    /// A value does not fit the constant's type (piece-square tables are `i16`).
    OutOfRange { name: String, value: i32 },
    /// The template lacks a constant (it is not a `weights.rs`).
    Missing(&'static str),
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::Length { expected, got } => write!(f, "{got} parameters, expected {expected}"),
            RenderError::OutOfRange { name, value } => write!(f, "{name} = {value} does not fit its type"),
            RenderError::Missing(n) => write!(f, "the template has no constant {n}"),
        }
    }
}

impl std::error::Error for RenderError {}

/// `template` (the text of a `weights.rs`, normally [`WEIGHTS_SOURCE`]) with
/// the value of every constant in [`ENTRIES`] replaced by `values`; comments,
/// order and everything else stay as they are. The defaults give the
/// template back unchanged.
pub fn render_weights(template: &str, values: &[i32]) -> Result<String, RenderError> {
    if values.len() != COUNT {
        return Err(RenderError::Length { expected: COUNT, got: values.len() });
    }
    for e in ENTRIES {
        if e.shape == Shape::Tables {
            for (j, &v) in values[e.offset..e.offset + 180].iter().enumerate() {
                if i16::try_from(v).is_err() {
                    return Err(RenderError::OutOfRange { name: name(e.offset + j), value: v });
                }
            }
        }
    }
    let mut out = String::with_capacity(template.len() + 1024);
    let mut rest = template;
    for e in ENTRIES {
        let head = format!("pub const {}:", e.name);
        let at = rest.find(&head).ok_or(RenderError::Missing(e.name))?;
        // `=`, then the value on the same line or (rustfmt's choice for a
        // value that fits on a line of its own) on the next.
        let sign = rest[at..].find('=').ok_or(RenderError::Missing(e.name))? + at;
        let eq = rest.len() - rest[sign + 1..].trim_start().len();
        // The value ends at the first `;` outside brackets (`[0; 9]` has one inside).
        let mut depth = 0i32;
        let mut end = None;
        for (k, c) in rest[eq..].char_indices() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ';' if depth == 0 => {
                    end = Some(eq + k);
                    break;
                }
                _ => {}
            }
        }
        let end = end.ok_or(RenderError::Missing(e.name))?;
        out.push_str(&rest[..=sign]);
        let column = sign + 2 - rest[..sign].rfind('\n').map_or(0, |n| n + 1);
        let value = render_value(e, &values[e.offset..e.offset + e.shape.len()], column);
        if !value.starts_with('\n') {
            out.push(' ');
        }
        out.push_str(&value);
        rest = &rest[end..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_contiguous_and_named() {
        let mut next = 0;
        for e in ENTRIES {
            assert_eq!(e.offset, next, "{}", e.name);
            next += e.shape.len();
        }
        assert_eq!(next, COUNT);
        assert_eq!(defaults().len(), COUNT);
        let names: std::collections::HashSet<String> = (0..COUNT).map(name).collect();
        assert_eq!(names.len(), COUNT, "names are unique");
        assert_eq!(name(id::PST_HORSE + 90 + 2 * 9 + 4), "PST_HORSE.eg[2][4]");
        assert_eq!(name(id::MATERIAL + 7), "MATERIAL[3].eg");
        assert_eq!(defaults()[id::MATERIAL + 7], weights::MATERIAL[3].1);
        assert_eq!(defaults()[id::PST_HORSE + 90 + 2 * 9 + 4], weights::PST_HORSE.1[2][4] as i32);
        assert_eq!(role(id::PST_HORSE + 90), Role::Eg);
        assert_eq!(eg_partner(id::PST_HORSE + 5), Some(id::PST_HORSE + 95));
        assert_eq!(eg_partner(id::CHARIOT_MOBILITY), Some(id::CHARIOT_MOBILITY + 1));
        assert_eq!(eg_partner(id::CHARIOT_MOBILITY + 1), None);
        assert_eq!(role(id::KING_ATTACK + 3), Role::MgOnly);
        assert_eq!(role(id::TEMPO), Role::Tempo);
        assert_eq!(role(id::SCALE_LONE_CANNON), Role::Scale);
        assert_eq!(role(id::SCALE_FULL), Role::Fixed);
    }

    /// Arrays that fit stay on their line; longer ones break as rustfmt
    /// breaks them: one pair per line, integers packed within the width.
    #[test]
    fn long_arrays_wrap_as_rustfmt_wraps() {
        let pairs = |n: usize, v: i32| (0..n).map(|_| format!("({v}, {v})")).collect::<Vec<_>>();
        let head = "pub const X: [Pair; 3] = ".len();
        assert_eq!(render_list(pairs(3, -12), head, false), "[(-12, -12), (-12, -12), (-12, -12)]");
        let long = render_list(pairs(12, -123), head, false);
        assert_eq!(long, format!("[\n{}]", "    (-123, -123),\n".repeat(12)));
        // Too long after `= ` but short enough for a line of its own.
        let own_line = render_list(pairs(9, -12), head, false);
        assert_eq!(own_line, format!("\n    [{}]", pairs(9, -12).join(", ")));
        let ints: Vec<String> = (0..60).map(|i| (i * 100).to_string()).collect();
        let packed = render_list(ints.clone(), head, true);
        let lines: Vec<&str> = packed.lines().collect();
        assert_eq!((lines[0], *lines.last().unwrap()), ("[", "]"));
        assert!(lines.len() > 3, "{packed}");
        for l in &lines[1..lines.len() - 1] {
            assert!(l.starts_with("    ") && l.ends_with(',') && l.len() <= MAX_WIDTH, "{l:?}");
        }
        let items: Vec<&str> =
            lines[1..lines.len() - 1].iter().flat_map(|l| l.trim().trim_end_matches(',').split(", ")).collect();
        assert_eq!(items, ints);
        // A full line: the next item would not have fitted on it.
        let first_next = lines[2].trim().split(',').next().unwrap();
        assert!(lines[1].len() + 1 + first_next.len() + 1 > MAX_WIDTH);
    }

    #[test]
    fn defaults_render_the_file_unchanged() {
        let text = render_weights(WEIGHTS_SOURCE, &defaults()).unwrap();
        assert_eq!(text, WEIGHTS_SOURCE);
        // A changed value lands in its place and nowhere else.
        let mut v = defaults();
        let (mg, eg) = (v[id::HORSE_LEG_BLOCKED], v[id::HORSE_LEG_BLOCKED + 1]);
        v[id::HORSE_LEG_BLOCKED + 1] = eg + 1;
        let row: Vec<i32> = v[id::PST_SOLDIER + 9..id::PST_SOLDIER + 18].to_vec();
        v[id::PST_SOLDIER + 9 + 4] += 1;
        let text = render_weights(WEIGHTS_SOURCE, &v).unwrap();
        assert!(!WEIGHTS_SOURCE.contains(&format!("pub const HORSE_LEG_BLOCKED: Pair = ({mg}, {});", eg + 1)));
        assert!(text.contains(&format!("pub const HORSE_LEG_BLOCKED: Pair = ({mg}, {});", eg + 1)));
        let mut changed = row.clone();
        changed[4] += 1;
        let line = |r: &[i32]| format!("[{}],", r.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
        assert!(WEIGHTS_SOURCE.contains(&line(&row)) && !WEIGHTS_SOURCE.contains(&line(&changed)));
        assert!(text.contains(&line(&changed)));
        assert_eq!(text.lines().zip(WEIGHTS_SOURCE.lines()).filter(|(a, b)| a != b).count(), 2);
        // A value rustfmt would move to a line of its own is written there,
        // and such a file reads back as a template.
        let mut wide = defaults();
        let threats = id::THREAT_BY_SOLDIER..id::THREAT_BY_SOLDIER + 14;
        wide[threats].fill(-1000);
        let moved = render_weights(WEIGHTS_SOURCE, &wide).unwrap();
        let own_line = format!("pub const THREAT_BY_SOLDIER: [Pair; 7] =\n    [{}];", ["(-1000, -1000)"; 7].join(", "));
        assert!(moved.contains(&own_line), "{moved}");
        assert_eq!(render_weights(&moved, &wide).unwrap(), moved);
        assert_eq!(render_weights(&moved, &defaults()).unwrap(), WEIGHTS_SOURCE);
        v[id::PST_SOLDIER] = 40_000;
        assert!(matches!(render_weights(WEIGHTS_SOURCE, &v), Err(RenderError::OutOfRange { .. })));
        assert!(matches!(render_weights(WEIGHTS_SOURCE, &v[1..]), Err(RenderError::Length { .. })));
    }
}
