//! The option registry: every option either dialect knows, each in one
//! entry with its names in both dialects, its type, default and range, and
//! what setting it does. The handshake advertises from it, `setoption` parses
//! against it, and a new session applies every default through it, so a
//! default lives in one place and adding an option is one entry here (plus,
//! when it keeps state, the field its `apply` writes).
//!
//! Names are matched without regard to case, spaces, `_` or `-`, so `Move
//! Overhead`, `moveoverhead` and `move_overhead` are the same option, and each
//! dialect's spelling is accepted in the other dialect too.

use std::fmt;
use std::time::Duration;

use super::session::Session;
use super::{clip, Dialect, ProtocolError};
use crate::book;
use crate::eval::Knowledge;
use crate::rules::RuleSet;
use crate::search::{self, Pruning};

/// Largest hash size accepted, in MB.
pub(crate) const MAX_HASH_MB: i64 = 65_536;
/// Largest thread count accepted.
pub(crate) const MAX_THREADS: i64 = 256;

/// The type of an option, with its default (and bounds or choices).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check`.
    Check {
        /// Default value.
        default: bool,
    },
    /// `spin` with inclusive bounds.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `combo`: one of `vars`.
    Combo {
        /// Default choice (one of `vars`; advertised first).
        default: &'static str,
        /// Every choice, in their natural order.
        vars: &'static [&'static str],
    },
    /// `string`.
    Text {
        /// Default value.
        default: &'static str,
    },
    /// `button`.
    Button,
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A `check` value.
    Check(bool),
    /// A `spin` value, within the bounds.
    Spin(i64),
    /// A `combo` choice: one of the option's `vars`.
    Combo(&'static str),
    /// A `string` value (`<empty>` is read as the empty string).
    Text(String),
    /// A `button` press.
    Press,
}

impl OptionValue {
    fn check(&self) -> bool {
        matches!(self, OptionValue::Check(true))
    }

    fn spin(&self) -> i64 {
        match self {
            OptionValue::Spin(v) => *v,
            _ => 0,
        }
    }

    fn choice(&self) -> &'static str {
        match self {
            OptionValue::Combo(c) => c,
            _ => "",
        }
    }

    fn text(&self) -> &str {
        match self {
            OptionValue::Text(t) => t,
            _ => "",
        }
    }
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Check(v) => write!(f, "{v}"),
            OptionValue::Spin(v) => write!(f, "{v}"),
            OptionValue::Combo(c) => f.write_str(c),
            OptionValue::Text(t) => f.write_str(t),
            OptionValue::Press => f.write_str("press"),
        }
    }
}

/// What setting an option does to a session; returns the `info string`
/// notes to print (explanations, refusals).
pub(crate) type Apply = fn(&mut Session, &'static OptionDef, &OptionValue) -> Vec<String>;

/// One option.
pub struct OptionDef {
    /// Name in `ucci` option lines (None: not advertised under UCCI).
    pub(crate) ucci_name: Option<&'static str>,
    /// Name in `uci` option lines (None: not advertised under UCI).
    pub(crate) uci_name: Option<&'static str>,
    /// Further accepted spellings (normalized: lower case, no spaces, `_` or `-`).
    pub(crate) aliases: &'static [&'static str],
    /// Type, default and bounds.
    pub(crate) kind: OptionKind,
    pub(crate) apply: Apply,
}

impl fmt::Debug for OptionDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A recognised option with a checked value (a parsed `setoption`).
#[derive(Clone, Debug)]
pub struct OptionSetting {
    /// The option.
    pub(crate) option: &'static OptionDef,
    /// Its new value.
    pub(crate) value: OptionValue,
}

impl PartialEq for OptionSetting {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.option, other.option) && self.value == other.value
    }
}

impl Eq for OptionSetting {}

impl fmt::Display for OptionSetting {
    /// `name=value`, with the option's first name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.option.name(), self.value)
    }
}

const LEVELS: &[&str] = &["none", "small", "medium", "large"];
const RANDOMNESS: &[&str] = &["none", "tiny", "small", "medium", "large", "huge"];
const STYLES: &[&str] = &["solid", "normal", "risky"];
const RULES: &[&str] = &["asian", "chinese"];

fn level_index(v: &OptionValue) -> usize {
    LEVELS.iter().position(|l| *l == v.choice()).unwrap_or(LEVELS.len() - 1)
}

/// The book choice of each `randomness` level: `none` always plays the
/// heaviest move; `tiny` draws with weight^2, `small` weight^1.5, `medium`
/// in proportion to the weights, `large` weight^0.5, `huge` uniformly.
fn randomness(v: &OptionValue) -> book::Randomness {
    match v.choice() {
        "none" => book::Randomness::None,
        "tiny" => book::Randomness::Tiny,
        "small" => book::Randomness::Small,
        "large" => book::Randomness::Large,
        "huge" => book::Randomness::Huge,
        _ => book::Randomness::Medium,
    }
}

fn rule_set(v: &OptionValue) -> RuleSet {
    if v.choice() == "chinese" {
        RuleSet::Chinese
    } else {
        RuleSet::Asian
    }
}

fn none(_: &mut Session, _: &'static OptionDef, _: &OptionValue) -> Vec<String> {
    Vec::new()
}

fn note(text: String) -> Vec<String> {
    vec![text]
}

/// Every option, in the order they are advertised.
pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        ucci_name: Some("usemillisec"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Check { default: true },
        apply: |s, _, v| {
            s.settings.use_millisec = v.check();
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("batch"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Check { default: false },
        apply: |_, _, v| {
            note(format!("batch {v}: accepted; Chuhan always reads input while thinking, so batch changes nothing"))
        },
    },
    OptionDef {
        ucci_name: Some("debug"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Check { default: false },
        apply: |s, _, v| {
            s.settings.debug = v.check();
            Vec::new()
        },
    },
    // The GUI decides when to send `go ponder`; the engine needs no setting.
    OptionDef {
        ucci_name: Some("ponder"),
        uci_name: Some("Ponder"),
        aliases: &[],
        kind: OptionKind::Check { default: false },
        apply: none,
    },
    OptionDef {
        ucci_name: Some("usehash"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Check { default: true },
        apply: |s, _, v| {
            s.settings.use_hash = v.check();
            if v.check() {
                Vec::new()
            } else {
                note("usehash false: the hash table is cleared before every search".to_string())
            }
        },
    },
    OptionDef {
        ucci_name: Some("usebook"),
        uci_name: Some("OwnBook"),
        aliases: &[],
        kind: OptionKind::Check { default: true },
        apply: |s, _, v| {
            s.settings.use_book = v.check();
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("useegtb"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Check { default: false },
        apply: |_, _, v| {
            if v.check() {
                note("useegtb: endgame tablebases are not supported".to_string())
            } else {
                Vec::new()
            }
        },
    },
    OptionDef {
        ucci_name: Some("bookfiles"),
        uci_name: Some("BookFile"),
        aliases: &["bookfile"],
        kind: OptionKind::Text { default: "" },
        apply: |s, _, v| s.set_books(v.text()),
    },
    OptionDef {
        ucci_name: Some("egtbpaths"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Text { default: "" },
        apply: |_, _, v| {
            if v.text().is_empty() {
                Vec::new()
            } else {
                note("egtbpaths: endgame tablebases are not supported".to_string())
            }
        },
    },
    OptionDef {
        ucci_name: Some("hashsize"),
        uci_name: Some("Hash"),
        aliases: &[],
        kind: OptionKind::Spin { default: search::DEFAULT_HASH_MB as i64, min: 1, max: MAX_HASH_MB },
        apply: |s, _, v| s.set_hash(v.spin() as usize),
    },
    OptionDef {
        ucci_name: Some("threads"),
        uci_name: Some("Threads"),
        aliases: &[],
        kind: OptionKind::Spin { default: 1, min: 1, max: MAX_THREADS },
        apply: |s, _, v| {
            s.engine().set_threads(v.spin() as usize);
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("idle"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Combo { default: "none", vars: LEVELS },
        apply: |_, _, v| note(format!("idle {v}: accepted; it has no effect (Chuhan never idles on purpose)")),
    },
    OptionDef {
        ucci_name: Some("promotion"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Check { default: false },
        apply: |_, _, _| note("promotion: the promotion variant is not supported (standard rules only)".to_string()),
    },
    OptionDef {
        ucci_name: Some("pruning"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Combo { default: "large", vars: LEVELS },
        apply: |s, _, v| {
            s.engine().options_mut().pruning = Pruning::ALL[level_index(v)];
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("knowledge"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Combo { default: "large", vars: LEVELS },
        apply: |s, _, v| {
            s.engine().options_mut().knowledge = Knowledge::ALL[level_index(v)];
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("randomness"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Combo { default: "medium", vars: RANDOMNESS },
        apply: |s, _, v| {
            s.settings.randomness = randomness(v);
            note(format!(
                "randomness {v}: sets how the opening book chooses among its moves; the search stays deterministic"
            ))
        },
    },
    OptionDef {
        ucci_name: Some("style"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Combo { default: "normal", vars: STYLES },
        apply: |_, _, v| note(format!("style {v}: accepted; it has no effect (use contempt)")),
    },
    OptionDef {
        ucci_name: Some("newgame"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Button,
        apply: |s, _, _| {
            s.new_game();
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("rules"),
        uci_name: Some("Rules"),
        aliases: &[],
        kind: OptionKind::Combo { default: "asian", vars: RULES },
        apply: |s, _, v| {
            // docs/rules.md 3.2/3.3: the search judges repetitions under this rule set.
            s.engine().options_mut().rules = rule_set(v);
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("contempt"),
        uci_name: Some("Contempt"),
        aliases: &[],
        kind: OptionKind::Spin { default: 0, min: -1000, max: 1000 },
        apply: |s, _, v| {
            s.engine().options_mut().contempt = v.spin() as i32;
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("multipv"),
        uci_name: Some("MultiPV"),
        aliases: &[],
        kind: OptionKind::Spin { default: 1, min: 1, max: 128 },
        apply: |s, _, v| {
            s.engine().options_mut().multipv = v.spin() as u32;
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("moveoverhead"),
        uci_name: Some("Move Overhead"),
        aliases: &[],
        kind: OptionKind::Spin { default: search::DEFAULT_MOVE_OVERHEAD_MS as i64, min: 0, max: 5000 },
        apply: |s, _, v| {
            s.engine().options_mut().move_overhead = Duration::from_millis(v.spin() as u64);
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("clearhash"),
        uci_name: Some("Clear Hash"),
        aliases: &[],
        kind: OptionKind::Button,
        apply: |s, _, _| {
            s.engine().clear_hash();
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("showwdl"),
        uci_name: Some("UCI_ShowWDL"),
        aliases: &[],
        kind: OptionKind::Check { default: false },
        apply: |s, _, v| {
            s.settings.show_wdl = v.check();
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("resign"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Check { default: true },
        apply: |s, _, v| {
            s.settings.resign = v.check();
            Vec::new()
        },
    },
    OptionDef {
        ucci_name: Some("resignscore"),
        uci_name: None,
        aliases: &[],
        kind: OptionKind::Spin { default: 1500, min: 100, max: 100_000 },
        apply: |s, _, v| {
            s.settings.resign_score = v.spin() as u32;
            Vec::new()
        },
    },
];

/// The hidden `Tune_<name>` options of the search parameters
/// (`search::params::TABLE`): present in a build with the `tune` feature
/// only, where the parameters are runtime values.
pub(crate) fn tune_options() -> &'static [OptionDef] {
    static TUNE: std::sync::OnceLock<Vec<OptionDef>> = std::sync::OnceLock::new();
    TUNE.get_or_init(|| {
        if !cfg!(feature = "tune") {
            return Vec::new();
        }
        search::params::TABLE
            .iter()
            .map(|p| {
                // Built once per process; the names live as long as the table.
                let name: &'static str = Box::leak(format!("Tune_{}", p.name).into_boxed_str());
                OptionDef {
                    ucci_name: Some(name),
                    uci_name: Some(name),
                    aliases: &[],
                    kind: OptionKind::Spin { default: p.default as i64, min: p.min as i64, max: p.max as i64 },
                    apply: |_, def, v| match search::params::set(&def.name()["Tune_".len()..], v.spin() as i32) {
                        Ok(()) => Vec::new(),
                        Err(e) => vec![format!("error: {e}")],
                    },
                }
            })
            .collect()
    })
}

/// Every option in force: the registry, then the tuning options (if any).
pub(crate) fn all() -> impl Iterator<Item = &'static OptionDef> {
    OPTIONS.iter().chain(tune_options().iter())
}

/// Lower case without spaces, `_` or `-`: the form option names are compared in.
pub(crate) fn normalize(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace() && *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// The option called `name` (in any spelling), if there is one.
pub(crate) fn find(name: &str) -> Option<&'static OptionDef> {
    let n = normalize(name);
    all().find(|o| o.matches(&n))
}

impl OptionDef {
    /// The option's first name (UCCI's if it has one).
    pub(crate) fn name(&self) -> &'static str {
        self.ucci_name.or(self.uci_name).unwrap_or("?")
    }

    fn matches(&self, normalized: &str) -> bool {
        self.ucci_name.is_some_and(|n| normalize(n) == normalized)
            || self.uci_name.is_some_and(|n| normalize(n) == normalized)
            || self.aliases.contains(&normalized)
    }

    /// The default value (a press for buttons).
    pub(crate) fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default),
            OptionKind::Text { default } => OptionValue::Text(default.to_string()),
            OptionKind::Button => OptionValue::Press,
        }
    }

    /// The choices of a combo with the default first (some adapters, such as
    /// uci2wb, take the first choice listed as the default).
    fn vars_default_first(&self) -> Vec<&'static str> {
        match self.kind {
            OptionKind::Combo { default, vars } => {
                std::iter::once(default).chain(vars.iter().copied().filter(|v| *v != default)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The advertisement line for this option in `dialect`, if it is advertised there.
    pub(crate) fn advert(&self, dialect: Dialect) -> Option<String> {
        let name = match dialect {
            Dialect::Ucci => self.ucci_name?,
            Dialect::Uci => self.uci_name?,
        };
        let mut s = match dialect {
            Dialect::Ucci => format!("option {name} type "),
            Dialect::Uci => format!("option name {name} type "),
        };
        let vars: String = self.vars_default_first().iter().map(|v| format!(" var {v}")).collect();
        let default = match self.kind {
            OptionKind::Button => return Some(s + "button"),
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } => default.to_string(),
            OptionKind::Text { default } => default.to_string(),
        };
        match (dialect, self.kind) {
            (_, OptionKind::Check { .. }) => s.push_str("check"),
            // UCCI 3.0 puts the bounds and choices before the default, UCI after it.
            (Dialect::Ucci, OptionKind::Spin { min, max, .. }) => s.push_str(&format!("spin min {min} max {max}")),
            (Dialect::Ucci, OptionKind::Combo { .. }) => s.push_str(&format!("combo{vars}")),
            (Dialect::Uci, OptionKind::Spin { .. }) => s.push_str("spin"),
            (Dialect::Uci, OptionKind::Combo { .. }) => s.push_str("combo"),
            (_, OptionKind::Text { .. }) => s.push_str("string"),
            (_, OptionKind::Button) => {}
        }
        match (dialect, self.kind) {
            (Dialect::Uci, OptionKind::Text { .. }) if default.is_empty() => s.push_str(" default <empty>"),
            _ => {
                s.push_str(" default ");
                s.push_str(&default);
            }
        }
        if dialect == Dialect::Uci {
            match self.kind {
                OptionKind::Spin { min, max, .. } => s.push_str(&format!(" min {min} max {max}")),
                OptionKind::Combo { .. } => s.push_str(&vars),
                _ => {}
            }
        }
        // An empty string default leaves `default` last, without a trailing space.
        Some(s.trim_end().to_string())
    }

    /// Checks a value given for this option (`None`: no value given). A
    /// string value `<empty>` is the empty string, as GUIs that re-send every
    /// option write it.
    pub(crate) fn parse_value(&'static self, value: Option<&str>) -> Result<OptionValue, ProtocolError> {
        let option = self.name();
        let value = value.unwrap_or("");
        let bad = |expected: String| ProtocolError::BadValue { option, found: clip(value), expected };
        let lower = value.to_ascii_lowercase();
        Ok(match self.kind {
            OptionKind::Check { .. } => match lower.as_str() {
                "true" | "on" | "yes" | "1" => OptionValue::Check(true),
                "false" | "off" | "no" | "0" => OptionValue::Check(false),
                _ => return Err(bad("true, false, on or off".to_string())),
            },
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => OptionValue::Spin(v),
                _ => return Err(bad(format!("an integer from {min} to {max}"))),
            },
            OptionKind::Combo { vars, .. } => match vars.iter().find(|v| **v == lower) {
                Some(v) => OptionValue::Combo(v),
                None => return Err(bad(format!("one of {}", vars.join(", ")))),
            },
            OptionKind::Text { .. } if value == "<empty>" => OptionValue::Text(String::new()),
            OptionKind::Text { .. } => OptionValue::Text(value.to_string()),
            OptionKind::Button => OptionValue::Press,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str) -> &'static OptionDef {
        find(name).unwrap()
    }

    #[test]
    fn adverts() {
        let hash = def("hashsize");
        assert_eq!(hash.advert(Dialect::Ucci).unwrap(), "option hashsize type spin min 1 max 65536 default 16");
        assert_eq!(hash.advert(Dialect::Uci).unwrap(), "option name Hash type spin default 16 min 1 max 65536");
        let idle = def("idle");
        assert_eq!(
            idle.advert(Dialect::Ucci).unwrap(),
            "option idle type combo var none var small var medium var large default none"
        );
        assert!(idle.advert(Dialect::Uci).is_none());
        // A combo lists its default first.
        assert_eq!(
            def("pruning").advert(Dialect::Ucci).unwrap(),
            "option pruning type combo var large var none var small var medium default large"
        );
        let rules = def("Rules");
        assert_eq!(
            rules.advert(Dialect::Uci).unwrap(),
            "option name Rules type combo default asian var asian var chinese"
        );
        let books = def("bookfiles");
        assert_eq!(books.advert(Dialect::Ucci).unwrap(), "option bookfiles type string default");
        assert_eq!(books.advert(Dialect::Uci).unwrap(), "option name BookFile type string default <empty>");
        let own = def("OwnBook");
        assert_eq!(own.advert(Dialect::Uci).unwrap(), "option name OwnBook type check default true");
        assert_eq!(own.advert(Dialect::Ucci).unwrap(), "option usebook type check default true");
        assert_eq!(def("Clear Hash").advert(Dialect::Uci).unwrap(), "option name Clear Hash type button");
        let wdl = def("UCI_ShowWDL");
        assert_eq!(wdl.advert(Dialect::Uci).unwrap(), "option name UCI_ShowWDL type check default false");
        assert_eq!(wdl.advert(Dialect::Ucci).unwrap(), "option showwdl type check default false");
    }

    #[test]
    fn every_combo_lists_its_default_first_and_every_default_parses() {
        for o in OPTIONS {
            if let OptionKind::Combo { default, vars } = o.kind {
                assert!(vars.contains(&default), "{}", o.name());
                assert_eq!(o.vars_default_first()[0], default);
                assert_eq!(o.vars_default_first().len(), vars.len());
            }
            let shown = o.default_value().to_string();
            if o.kind != OptionKind::Button {
                assert_eq!(o.parse_value(Some(&shown)), Ok(o.default_value()), "{}", o.name());
            }
        }
    }

    #[test]
    fn names_are_unique_in_every_spelling() {
        for (i, a) in OPTIONS.iter().enumerate() {
            for name in a.ucci_name.iter().chain(a.uci_name.iter()) {
                let hits: Vec<usize> =
                    OPTIONS.iter().enumerate().filter(|(_, o)| o.matches(&normalize(name))).map(|(j, _)| j).collect();
                assert_eq!(hits, vec![i], "{name}");
            }
        }
    }

    #[test]
    fn tuning_options_exist_in_tune_builds_only() {
        let tune = find("Tune_ASPIRATION_DELTA");
        assert_eq!(tune.is_some(), cfg!(feature = "tune"));
        assert_eq!(tune_options().len(), if cfg!(feature = "tune") { search::params::TABLE.len() } else { 0 });
        if let Some(t) = tune {
            assert_eq!(
                t.advert(Dialect::Uci).unwrap(),
                "option name Tune_ASPIRATION_DELTA type spin default 25 min 5 max 100"
            );
        }
    }

    #[test]
    fn empty_marker_is_the_empty_string() {
        assert_eq!(def("BookFile").parse_value(Some("<empty>")), Ok(OptionValue::Text(String::new())));
        assert_eq!(def("egtbpaths").parse_value(Some("<empty>")), Ok(OptionValue::Text(String::new())));
        assert_eq!(def("BookFile").parse_value(Some("a.book")), Ok(OptionValue::Text("a.book".into())));
    }
}
