//! The engine protocols: UCCI (Chinese GUIs) and UCI (Pikafish-style GUIs and
//! match tools), as one command model with two spellings.
//!
//! This module owns the command model ([`Command`], [`GoParams`],
//! [`OptionSetting`]), the parse errors ([`ProtocolError`]), the option table
//! shared by both dialects, and the entry point [`run`]. The dialect modules
//! ([`ucci`], [`uci`]) are pure text <-> command translations; [`session`] owns
//! the game state, the search thread and the output. Nothing here searches or
//! judges rules: that is the `search` module's (and later the `rules`
//! module's) job. Reference: `docs/protocol.md` (UCCI 3.0 plus our robustness contract).

pub mod format;
mod io;
pub mod options;
mod reporter;
pub mod session;
pub mod ucci;
pub mod uci;

use std::fmt;

use crate::fen::{FenError, Setup};
use crate::moves::{Move, MoveParseError};

pub use options::{OptionDef, OptionKind, OptionSetting, OptionValue, OPTIONS};
pub use session::run;

/// Deepest `go perft` served (it runs on the session thread, as in Stockfish).
pub(crate) const MAX_PERFT_DEPTH: u32 = 8;

/// Which protocol the session speaks; the first command (`ucci` or `uci`) decides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// UCCI 3.0 (ElephantEye, XQWizard and successors).
    Ucci,
    /// UCI as spoken by Pikafish-style xiangqi GUIs and match tools.
    Uci,
}

impl Dialect {
    /// Parses one input line in this dialect.
    pub(crate) fn parse(self, line: &str) -> Result<Command, ProtocolError> {
        match self {
            Dialect::Ucci => ucci::parse(line),
            Dialect::Uci => uci::parse(line),
        }
    }
}

/// One command from the GUI, independent of its spelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// A line with nothing but whitespace: ignored.
    Empty,
    /// `ucci`: start (or restart) a UCCI session.
    Ucci,
    /// `uci`: start (or restart) a UCI session.
    Uci,
    /// `isready`: answer `readyok` (also while thinking).
    IsReady,
    /// UCI `debug on|off`.
    Debug(bool),
    /// `setoption ...` with a known option and a checked value.
    SetOption(OptionSetting),
    /// UCI `ucinewgame` (UCCI spells it `setoption newgame`).
    NewGame,
    /// `position {startpos | fen F} [moves ...]`, also a bare `startpos ...` / `fen ...` line.
    Position(PositionSpec),
    /// UCCI `banmoves m1 m2 ...`: moves forbidden at the root of the current position.
    BanMoves(Vec<Move>),
    /// `go ...`.
    Go(GoParams),
    /// `ponderhit [draw]`.
    PonderHit {
        /// The opponent offers a draw with the move.
        draw: bool,
    },
    /// `stop`.
    Stop,
    /// UCCI `probe {startpos | fen F} [moves ...]`: print the hash entry.
    Probe(PositionSpec),
    /// `d`: the board, FEN, key and checkers (an engine author's command).
    Display,
    /// `eval`: the static evaluation term by term (an engine author's command).
    Eval,
    /// `flip`: the colours swapped and the board mirrored top to bottom.
    Flip,
    /// `bench [hash] [threads] [limit] [default|current|FILE] [depth|nodes|movetime]`.
    Bench(Vec<String>),
    /// `compiler`: how the binary was built.
    Compiler,
    /// `quit` (UCCI answers `bye`).
    Quit,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StartPosition {
    /// `startpos`.
    Start,
    /// `fen ...`: readable, but not yet validated as a position.
    Fen(Box<Setup>),
}

/// A `position` (or `probe`) argument: a start and the moves played from it.
/// The moves are syntactically ICCS; their legality is checked by the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PositionSpec {
    /// Where the game starts.
    pub(crate) start: StartPosition,
    /// The moves played since, in order.
    pub(crate) moves: Vec<Move>,
    /// UCI only: the words from the first one that is not a move on (UCI
    /// engines play the moves up to it and drop the rest).
    pub(crate) unreadable: Vec<String>,
}

/// The clock part of a `go` command, in the dialect's time unit (milliseconds;
/// seconds for UCCI after `setoption usemillisec false`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum GoClock {
    /// UCCI: the side to move's clock and optionally the opponent's.
    Relative {
        /// Time left for the side to move.
        time: u64,
        /// Moves to the next time control (`movestogo`).
        movestogo: Option<u32>,
        /// Increment per move (`increment`).
        increment: u64,
        /// Opponent's time left (`opptime`).
        opp_time: Option<u64>,
        /// Opponent's moves to go (`oppmovestogo`).
        opp_movestogo: Option<u32>,
        /// Opponent's increment (`oppincrement`).
        opp_increment: u64,
    },
    /// UCI: the clocks by colour (`wtime` is Red's).
    ByColor {
        /// Red's time left.
        wtime: Option<u64>,
        /// Black's time left.
        btime: Option<u64>,
        /// Red's increment.
        winc: u64,
        /// Black's increment.
        binc: u64,
        /// Moves to the next time control.
        movestogo: Option<u32>,
    },
}

/// The arguments of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GoParams {
    /// `go ponder`: think on the opponent's time; the clock starts at `ponderhit`.
    pub(crate) ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub(crate) draw_offered: bool,
    /// `depth N` (`depth infinite` sets [`GoParams::infinite`] instead).
    pub(crate) depth: Option<u32>,
    /// `nodes N`.
    pub(crate) nodes: Option<u64>,
    /// `movetime T` in the dialect's time unit.
    pub(crate) movetime: Option<u64>,
    /// `infinite`, `depth infinite`, or a bare `go`: search until `stop`.
    pub(crate) infinite: bool,
    /// UCI `mate N` (moves).
    pub(crate) mate: Option<u32>,
    /// The clock, if any.
    pub(crate) clock: Option<GoClock>,
    /// UCI `searchmoves ...`: restrict the root to these moves.
    pub(crate) searchmoves: Vec<Move>,
    /// `go perft N`: count the legal move tree instead of searching.
    pub(crate) perft: Option<u32>,
}

impl GoParams {
    /// Whether the command names no limit at all (bare `go`, `go ponder`).
    pub(crate) fn has_no_limit(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.mate.is_none()
            && self.clock.is_none()
    }
}

/// Why a line could not be turned into a [`Command`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ProtocolError {
    /// The first word is not a command of the dialect.
    UnknownCommand(String),
    /// A command ended before a required part.
    Missing {
        /// The command or keyword.
        after: &'static str,
        /// What was expected.
        what: &'static str,
    },
    /// A word that does not belong where it stands.
    Unexpected {
        /// The command.
        command: &'static str,
        /// The word.
        found: String,
    },
    /// A number that is not one.
    BadNumber {
        /// The keyword the number belongs to.
        what: String,
        /// The text found.
        found: String,
    },
    /// An option name no dialect knows.
    UnknownOption(String),
    /// A value the option does not accept.
    BadValue {
        /// The option.
        option: &'static str,
        /// The text found.
        found: String,
        /// What it accepts.
        expected: String,
    },
    /// The FEN cannot be read.
    Fen(FenError),
    /// A move in a move list is not ICCS.
    MoveSyntax {
        /// 1-based position in the list.
        index: usize,
        /// The syntax error.
        error: MoveParseError,
    },
    /// Two clock styles (`time` and `wtime`) in one `go`.
    MixedClocks,
    /// The line exceeds the length limit and was discarded.
    LineTooLong {
        /// Its length in bytes.
        bytes: usize,
    },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::UnknownCommand(line) => write!(f, "unknown command: {line}"),
            ProtocolError::Missing { after, what } => write!(f, "'{after}' needs {what}"),
            ProtocolError::Unexpected { command, found } => write!(f, "unexpected '{found}' in '{command}'"),
            ProtocolError::BadNumber { what, found } => write!(f, "{what}: '{found}' is not a valid number"),
            ProtocolError::UnknownOption(name) => write!(f, "unknown option '{name}' (ignored)"),
            ProtocolError::BadValue { option, found, expected } => {
                write!(f, "option {option}: '{found}' is not {expected} (option unchanged)")
            }
            ProtocolError::Fen(e) => write!(f, "bad FEN: {e} (position unchanged)"),
            ProtocolError::MoveSyntax { index, error } => {
                write!(f, "move {index} of the list: {error} (position unchanged)")
            }
            ProtocolError::MixedClocks => write!(f, "'go' mixes UCCI (time) and UCI (wtime/btime) clocks"),
            ProtocolError::LineTooLong { bytes } => write!(f, "line of {bytes} bytes is too long (discarded)"),
        }
    }
}

impl std::error::Error for ProtocolError {}

/// Longest echo of outside text inside an `info string`.
const CLIP_CHARS: usize = 60;

/// Outside text made safe to echo on one output line: control characters
/// become `?`, and at most 60 characters are kept.
pub(crate) fn clip(text: &str) -> String {
    let mut out: String = text.trim().chars().take(CLIP_CHARS).map(|c| if c.is_control() { '?' } else { c }).collect();
    if text.trim().chars().nth(CLIP_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// A word of an input line with its byte span (for "rest of line" values).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Token<'a> {
    pub(crate) text: &'a str,
    pub(crate) start: usize,
}

impl Token<'_> {
    /// Case-insensitive comparison with a lower-case keyword.
    pub(crate) fn is(&self, keyword: &str) -> bool {
        self.text.eq_ignore_ascii_case(keyword)
    }
}

/// Splits a line on any whitespace (docs/protocol.md: "tokenize on any whitespace").
pub(crate) fn tokenize(line: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                tokens.push(Token { text: &line[s..i], start: s });
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        tokens.push(Token { text: &line[s..], start: s });
    }
    tokens
}

/// Reads a non-negative integer; negative values (some GUIs send a negative
/// clock once a flag falls) are taken as zero.
pub(crate) fn number(what: &str, token: Option<&Token<'_>>, after: &'static str) -> Result<u64, ProtocolError> {
    let t = token.ok_or(ProtocolError::Missing { after, what: "a number" })?;
    if let Ok(v) = t.text.parse::<u64>() {
        return Ok(v);
    }
    match t.text.parse::<i64>() {
        Ok(v) if v < 0 => Ok(0),
        _ => Err(ProtocolError::BadNumber { what: what.to_string(), found: clip(t.text) }),
    }
}

/// [`number`] for counts that fit in `u32`.
pub(crate) fn small_number(what: &str, token: Option<&Token<'_>>, after: &'static str) -> Result<u32, ProtocolError> {
    let v = number(what, token, after)?;
    u32::try_from(v).map_err(|_| ProtocolError::BadNumber { what: what.to_string(), found: v.to_string() })
}

/// Parses `{startpos | fen F} [moves m ...]` from `tokens` (the words after
/// `position`, or a whole bare `startpos ...` / `fen ...` line).
/// `lenient` (UCI): the move list ends at the first word that is not a move,
/// which is kept in [`PositionSpec::unreadable`] with the words after it;
/// otherwise (UCCI) such a word makes the whole line an error.
pub(crate) fn parse_position_spec(
    tokens: &[Token<'_>],
    command: &'static str,
    lenient: bool,
) -> Result<PositionSpec, ProtocolError> {
    let first = tokens.first().ok_or(ProtocolError::Missing { after: command, what: "'startpos' or 'fen <FEN>'" })?;
    let moves_at = tokens.iter().position(|t| t.is("moves")).unwrap_or(tokens.len());
    let start = if first.is("startpos") {
        if let Some(extra) = tokens[1..moves_at].first() {
            return Err(ProtocolError::Unexpected { command, found: clip(extra.text) });
        }
        StartPosition::Start
    } else if first.is("fen") {
        if moves_at <= 1 {
            return Err(ProtocolError::Missing { after: "fen", what: "a FEN" });
        }
        let fen: Vec<&str> = tokens[1..moves_at].iter().map(|t| t.text).collect();
        StartPosition::Fen(Box::new(Setup::parse(&fen.join(" ")).map_err(ProtocolError::Fen)?))
    } else {
        return Err(ProtocolError::Unexpected { command, found: clip(first.text) });
    };
    let list = if moves_at < tokens.len() { &tokens[moves_at + 1..] } else { &[] };
    let readable =
        if lenient { list.iter().take_while(|t| Move::from_iccs(t.text).is_ok()).count() } else { list.len() };
    let moves = move_list(&list[..readable])?;
    let unreadable = list[readable..].iter().map(|t| clip(t.text)).collect();
    Ok(PositionSpec { start, moves, unreadable })
}

/// Reads a list of ICCS moves (syntax only), all or nothing.
pub(crate) fn move_list(tokens: &[Token<'_>]) -> Result<Vec<Move>, ProtocolError> {
    tokens
        .iter()
        .enumerate()
        .map(|(i, t)| Move::from_iccs(t.text).map_err(|error| ProtocolError::MoveSyntax { index: i + 1, error }))
        .collect()
}

/// Parses the words after `setoption`, in either form: `name <N> [value <V>]`
/// (UCI) or `<N> [<V>]` (UCCI, and the keyword-less form some xiangqi GUIs send
/// in UCI). Multi-word names (`Move Overhead`) are matched longest first.
pub(crate) fn parse_setoption(line: &str, tokens: &[Token<'_>]) -> Result<OptionSetting, ProtocolError> {
    let rest = &tokens[1..];
    let first = rest.first().ok_or(ProtocolError::Missing { after: "setoption", what: "an option name" })?;
    let (spec, value): (&'static OptionDef, Option<&str>) = if first.is("name") {
        let value_at = rest.iter().position(|t| t.is("value"));
        let name_tokens = &rest[1..value_at.unwrap_or(rest.len())];
        if name_tokens.is_empty() {
            return Err(ProtocolError::Missing { after: "setoption name", what: "an option name" });
        }
        let name: String = name_tokens.iter().map(|t| t.text).collect::<Vec<_>>().join(" ");
        let spec = options::find(&name).ok_or_else(|| ProtocolError::UnknownOption(clip(&name)))?;
        let value = value_at.map(|i| rest.get(i + 1).map_or("", |t| line[t.start..].trim()));
        (spec, value)
    } else {
        // Longest known name made of the first one to three words.
        let mut found = None;
        for n in (1..=rest.len().min(3)).rev() {
            let joined: String = rest[..n].iter().map(|t| t.text).collect();
            if let Some(spec) = options::find(&joined) {
                found = Some((spec, n));
                break;
            }
        }
        let (spec, n) = found.ok_or_else(|| ProtocolError::UnknownOption(clip(first.text)))?;
        let mut value_tokens = &rest[n..];
        if value_tokens.first().is_some_and(|t| t.is("value")) {
            value_tokens = &value_tokens[1..];
        }
        (spec, value_tokens.first().map(|t| line[t.start..].trim()))
    };
    Ok(OptionSetting { option: spec, value: spec.parse_value(value)? })
}

/// Parses the words of a `go` command. `ucci` selects the dialect's keywords:
/// UCCI `draw`, `time`, `increment`, `opptime`, ...; UCI `wtime`, `btime`,
/// `winc`, `binc`, `mate`, `searchmoves`. Both accept `ponder`, `depth`,
/// `nodes`, `movetime`, `infinite` and `movestogo`. Keywords may come in any
/// order; an unknown word is an error (the search does not start).
pub(crate) fn parse_go(tokens: &[Token<'_>], dialect: Dialect) -> Result<GoParams, ProtocolError> {
    let mut p = GoParams::default();
    let (mut time, mut inc, mut opp_time, mut opp_inc, mut opp_mtg) = (None, None, None, None, None);
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, None, None);
    let mut movestogo = None;
    let mut i = 1;
    while i < tokens.len() {
        let t = &tokens[i];
        let word = t.text.to_ascii_lowercase();
        let arg = tokens.get(i + 1);
        let ucci = dialect == Dialect::Ucci;
        let mut used = 2;
        match word.as_str() {
            "ponder" => {
                p.ponder = true;
                used = 1;
            }
            "draw" if ucci => {
                p.draw_offered = true;
                used = 1;
            }
            "infinite" => {
                p.infinite = true;
                used = 1;
            }
            "depth" => {
                if arg.is_some_and(|a| a.is("infinite")) {
                    p.infinite = true;
                } else {
                    p.depth = Some(small_number("depth", arg, "depth")?);
                }
            }
            "nodes" => p.nodes = Some(number("nodes", arg, "nodes")?),
            "movetime" => p.movetime = Some(number("movetime", arg, "movetime")?),
            "movestogo" => movestogo = Some(small_number("movestogo", arg, "movestogo")?),
            "time" if ucci => time = Some(number("time", arg, "time")?),
            "increment" if ucci => inc = Some(number("increment", arg, "increment")?),
            "opptime" if ucci => opp_time = Some(number("opptime", arg, "opptime")?),
            "oppincrement" if ucci => opp_inc = Some(number("oppincrement", arg, "oppincrement")?),
            "oppmovestogo" if ucci => opp_mtg = Some(small_number("oppmovestogo", arg, "oppmovestogo")?),
            "wtime" => wtime = Some(number("wtime", arg, "wtime")?),
            "btime" => btime = Some(number("btime", arg, "btime")?),
            "winc" => winc = Some(number("winc", arg, "winc")?),
            "binc" => binc = Some(number("binc", arg, "binc")?),
            "mate" if !ucci => p.mate = Some(small_number("mate", arg, "mate")?),
            "perft" => {
                let depth = small_number("perft", arg, "perft")?;
                if !(1..=MAX_PERFT_DEPTH).contains(&depth) {
                    return Err(ProtocolError::BadNumber {
                        what: format!("perft depth (1 to {MAX_PERFT_DEPTH})"),
                        found: depth.to_string(),
                    });
                }
                p.perft = Some(depth);
            }
            "searchmoves" if !ucci => {
                let n = tokens[i + 1..].iter().take_while(|t| Move::from_iccs(t.text).is_ok()).count();
                p.searchmoves = move_list(&tokens[i + 1..i + 1 + n])?;
                used = 1 + n;
            }
            _ => return Err(ProtocolError::Unexpected { command: "go", found: clip(t.text) }),
        }
        i += used;
    }
    let ucci_clock = time.is_some() || inc.is_some() || opp_time.is_some() || opp_inc.is_some() || opp_mtg.is_some();
    let uci_clock = wtime.is_some() || btime.is_some() || winc.is_some() || binc.is_some();
    if ucci_clock && uci_clock {
        return Err(ProtocolError::MixedClocks);
    }
    if ucci_clock {
        let time = time.ok_or(ProtocolError::Missing { after: "go", what: "'time T' with its increment/opptime" })?;
        p.clock = Some(GoClock::Relative {
            time,
            movestogo,
            increment: inc.unwrap_or(0),
            opp_time,
            opp_movestogo: opp_mtg,
            opp_increment: opp_inc.unwrap_or(0),
        });
    } else if uci_clock {
        p.clock = Some(GoClock::ByColor { wtime, btime, winc: winc.unwrap_or(0), binc: binc.unwrap_or(0), movestogo });
    } else if movestogo.is_some() {
        return Err(ProtocolError::Missing { after: "movestogo", what: "a clock (time, wtime or btime)" });
    }
    if p.has_no_limit() {
        // A bare `go` (or `go ponder`) searches until `stop` (docs/protocol.md).
        p.infinite = true;
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenize_any_whitespace() {
        let words: Vec<&str> = tokenize("  go \t time\u{0b}1000\r\n").iter().map(|t| t.text).collect();
        assert_eq!(words, ["go", "time", "1000"]);
        assert!(tokenize(" \r\n").is_empty());
    }

    #[test]
    fn clip_makes_one_safe_line() {
        assert_eq!(clip("a\rb\u{0}c"), "a?b?c");
        let long = "x".repeat(500);
        assert_eq!(clip(&long).len(), CLIP_CHARS + 3);
    }

    #[test]
    fn negative_clock_is_zero() {
        let toks = tokenize("go wtime -20 btime 500");
        let p = parse_go(&toks, Dialect::Uci).unwrap();
        assert_eq!(
            p.clock,
            Some(GoClock::ByColor { wtime: Some(0), btime: Some(500), winc: 0, binc: 0, movestogo: None })
        );
    }
}
