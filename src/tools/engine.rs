//! Engine processes for the match runner: spawning, the UCCI/UCI handshake,
//! options, `position`/`banmoves`/`go` and reading the answer with deadlines.
//!
//! A reader thread per engine turns its stdout into time-stamped lines on a
//! channel, so the referee can wait with a timeout and measure the move time
//! from the moment `go` was written to the moment `bestmove` was read. A dead
//! pipe is reported as [`EngineError::Disconnected`], never as a panic.
//!
//! This module does not judge moves or keep clocks (see `game` and `tc`).

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::board::Square;
use crate::moves::Move;

use super::tc::TimeControl;

/// The protocol spoken to an engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Protocol {
    /// UCCI (`ucci` / `ucciok`, `go time ... increment ...`).
    Ucci,
    /// UCI (`uci` / `uciok`, `go wtime ... btime ...`).
    Uci,
}

/// How to run one engine and how it is limited (from `-engine`/`-each`).
#[derive(Clone, Debug)]
pub(crate) struct EngineConfig {
    /// Display name (PGN tags, report).
    pub(crate) name: String,
    /// Program to run.
    pub(crate) cmd: String,
    /// Extra arguments.
    pub(crate) args: Vec<String>,
    /// Working directory.
    pub(crate) dir: Option<PathBuf>,
    /// Protocol.
    pub(crate) protocol: Protocol,
    /// Options sent after the handshake, in order.
    pub(crate) options: Vec<(String, String)>,
    /// Clock or fixed move time (`None`: no clock, only depth/nodes).
    pub(crate) tc: Option<TimeControl>,
    /// Depth limit (`depth=`).
    pub(crate) depth: Option<u32>,
    /// Node limit (`nodes=`).
    pub(crate) nodes: Option<u64>,
    /// Time an engine may overrun its clock before it loses on time, in ms
    /// (`None`: 0 with a clock, 100 with `st=`).
    pub(crate) time_margin_ms: Option<u64>,
    /// Rank numbering in the engine's move text: 0 (ICCS, `h9g7`) or 1
    /// (`h10g8`, as Fairy-Stockfish writes xiangqi moves in UCI mode).
    pub(crate) rank_base: u8,
    /// Time allowed for the handshake and for `readyok`, in ms.
    pub(crate) init_timeout_ms: u64,
}

impl EngineConfig {
    /// A config with defaults for everything but the command.
    pub(crate) fn new(cmd: &str) -> EngineConfig {
        EngineConfig {
            name: String::new(),
            cmd: cmd.to_string(),
            args: Vec::new(),
            dir: None,
            protocol: Protocol::Ucci,
            options: Vec::new(),
            tc: None,
            depth: None,
            nodes: None,
            time_margin_ms: None,
            rank_base: 0,
            init_timeout_ms: 10_000,
        }
    }

    /// The overrun allowed before a time forfeit, in ms.
    pub(crate) fn margin_ms(&self) -> u64 {
        self.time_margin_ms.unwrap_or(match self.tc {
            Some(TimeControl::MoveTime(_)) => 100,
            _ => 0,
        })
    }
}

/// What went wrong talking to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum EngineError {
    /// The program could not be started.
    Spawn(String),
    /// The engine closed its output or exited (crash).
    Disconnected,
    /// The engine did not answer `what` in time.
    Timeout(&'static str),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "cannot start engine: {e}"),
            EngineError::Disconnected => f.write_str("engine disconnected (crashed or exited)"),
            EngineError::Timeout(what) => write!(f, "engine did not send `{what}` in time"),
        }
    }
}

impl std::error::Error for EngineError {}

/// An engine's evaluation from its own side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum EngineScore {
    /// Centipawns (UCCI `score N`, UCI `score cp N`).
    Cp(i32),
    /// Mate in N moves (negative: being mated), UCI `score mate N`.
    Mate(i32),
}

impl EngineScore {
    /// A centipawn value for adjudication (mates as ±30000).
    pub(crate) fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(n) if n >= 0 => 30_000 - n,
            EngineScore::Mate(n) => -30_000 - n,
        }
    }
}

/// The end of one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reply {
    /// `bestmove <text>`; `resign` when the engine resigned with it.
    Move { text: String, resign: bool },
    /// `nobestmove` or `bestmove (none)`.
    NoMove,
    /// No answer before the deadline.
    TimedOut,
    /// The engine died.
    Disconnected,
}

/// An engine's answer to `go` with what it reported on the way.
#[derive(Clone, Debug)]
pub(crate) struct Thought {
    pub(crate) reply: Reply,
    /// Time from writing `go` to reading the reply, in ms.
    pub(crate) elapsed_ms: u64,
    /// The same in microseconds (for the referee's overhead figure).
    pub(crate) elapsed_us: u64,
    pub(crate) score: Option<EngineScore>,
    pub(crate) depth: Option<u32>,
    pub(crate) nodes: Option<u64>,
    /// The search time the engine itself reported last (`info ... time MS`).
    pub(crate) engine_time_ms: Option<u64>,
}

impl Thought {
    /// `reply` with nothing reported and no time elapsed yet.
    fn nothing_yet(reply: Reply) -> Thought {
        Thought { reply, elapsed_ms: 0, elapsed_us: 0, score: None, depth: None, nodes: None, engine_time_ms: None }
    }

    fn set_elapsed(&mut self, d: Duration) {
        self.elapsed_ms = d.as_millis() as u64;
        self.elapsed_us = d.as_micros() as u64;
    }
}

enum Line {
    Text(Instant, String),
    Eof,
}

/// A running engine process the referee drives (not to be confused with
/// [`crate::search::Engine`], Chuhan's own search).
pub(crate) struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    protocol: Protocol,
    rank_base: u8,
    /// The engine's `id name`, if it sent one.
    pub(crate) id_name: Option<String>,
    /// Option names the engine advertised.
    pub(crate) advertised: Vec<String>,
    dead: bool,
}

impl EngineProcess {
    /// Starts the program, does the handshake, sends the options and waits for `readyok`.
    pub(crate) fn start(config: &EngineConfig) -> Result<EngineProcess, EngineError> {
        let mut parts = config.cmd.split_whitespace();
        let program = parts.next().ok_or_else(|| EngineError::Spawn("empty command".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(parts).args(&config.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| EngineError::Spawn(format!("{}: {e}", config.cmd)))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or_else(|| EngineError::Spawn("no stdout pipe".into()))?;
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Line::Eof);
                        return;
                    }
                    Ok(_) => {
                        let now = Instant::now();
                        let text = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(Line::Text(now, text)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut engine = EngineProcess {
            child,
            stdin,
            rx,
            protocol: config.protocol,
            rank_base: config.rank_base,
            id_name: None,
            advertised: Vec::new(),
            dead: false,
        };
        engine.handshake(config)?;
        Ok(engine)
    }

    fn handshake(&mut self, config: &EngineConfig) -> Result<(), EngineError> {
        let deadline = Instant::now() + Duration::from_millis(config.init_timeout_ms);
        let (hello, ok) = match self.protocol {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci => ("uci", "uciok"),
        };
        self.send(hello)?;
        loop {
            let (_, line) = self.recv(Some(deadline))?.ok_or(EngineError::Timeout(ok))?;
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some(t) if t == ok => break,
                Some("id") if line.split_whitespace().nth(1) == Some("name") => {
                    self.id_name = Some(tokens.skip(1).collect::<Vec<_>>().join(" "));
                }
                Some("option") => {
                    let rest: Vec<&str> = tokens.collect();
                    let name = if rest.first() == Some(&"name") {
                        rest[1..].iter().take_while(|t| **t != "type").copied().collect::<Vec<_>>().join(" ")
                    } else {
                        rest.first().map(|s| s.to_string()).unwrap_or_default()
                    };
                    if !name.is_empty() {
                        self.advertised.push(name);
                    }
                }
                _ => {}
            }
        }
        match self.protocol {
            // Times are sent in milliseconds (docs/protocol.md: `usemillisec`).
            Protocol::Ucci => self.send("setoption usemillisec true")?,
            Protocol::Uci => {
                let user_sets_variant = config.options.iter().any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant"));
                if self.advertises("UCI_Variant") && !user_sets_variant {
                    self.send("setoption name UCI_Variant value xiangqi")?;
                }
            }
        }
        for (name, value) in &config.options {
            let line = match self.protocol {
                Protocol::Ucci => format!("setoption {name} {value}"),
                Protocol::Uci => format!("setoption name {name} value {value}"),
            };
            self.send(line.trim_end())?;
        }
        self.sync(deadline)
    }

    /// Whether the engine advertised an option (case-insensitive).
    fn advertises(&self, name: &str) -> bool {
        self.advertised.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// `isready` and wait for `readyok` until `deadline`.
    pub(crate) fn sync(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.send("isready")?;
        loop {
            let (_, line) = self.recv(Some(deadline))?.ok_or(EngineError::Timeout("readyok"))?;
            if line.split_whitespace().next() == Some("readyok") {
                return Ok(());
            }
        }
    }

    /// Tells the engine a new game starts (`ucinewgame`, or UCCI `setoption
    /// newgame` when advertised) and waits until it is ready.
    pub(crate) fn new_game(&mut self, timeout_ms: u64) -> Result<(), EngineError> {
        match self.protocol {
            Protocol::Uci => self.send("ucinewgame")?,
            Protocol::Ucci => {
                if self.advertises("newgame") {
                    self.send("setoption newgame")?;
                }
            }
        }
        self.sync(Instant::now() + Duration::from_millis(timeout_ms))
    }

    /// Writes one line (and flushes).
    pub(crate) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.dead {
            return Err(EngineError::Disconnected);
        }
        let stdin = self.stdin.as_mut().ok_or(EngineError::Disconnected)?;
        let ok = stdin.write_all(line.as_bytes()).and_then(|_| stdin.write_all(b"\n")).and_then(|_| stdin.flush());
        if ok.is_err() {
            self.dead = true;
            return Err(EngineError::Disconnected);
        }
        Ok(())
    }

    /// The next line, or `None` at the deadline.
    fn recv(&mut self, deadline: Option<Instant>) -> Result<Option<(Instant, String)>, EngineError> {
        if self.dead {
            return Err(EngineError::Disconnected);
        }
        let got = match deadline {
            Some(d) => self.rx.recv_timeout(d.saturating_duration_since(Instant::now())),
            None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match got {
            Ok(Line::Text(t, s)) => Ok(Some((t, s))),
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                Err(EngineError::Disconnected)
            }
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// A move in the engine's notation.
    pub(crate) fn move_text(&self, mv: Move) -> String {
        move_to_text(mv, self.rank_base)
    }

    /// Reads a move in the engine's notation (syntax only).
    pub(crate) fn parse_move(&self, text: &str) -> Option<Move> {
        move_from_text(text, self.rank_base)
    }

    /// Sends `position`, `banmoves` (UCCI, when not empty) and `go`, then waits
    /// for `bestmove` until `deadline` (`None`: wait forever).
    pub(crate) fn think(&mut self, position: &str, banmoves: &[Move], go: &str, deadline: Option<Duration>) -> Thought {
        let mut thought = Thought::nothing_yet(Reply::Disconnected);
        if self.send(position).is_err() {
            return thought;
        }
        if self.protocol == Protocol::Ucci && !banmoves.is_empty() {
            let list: Vec<String> = banmoves.iter().map(|&m| self.move_text(m)).collect();
            if self.send(&format!("banmoves {}", list.join(" "))).is_err() {
                return thought;
            }
        }
        if self.send(go).is_err() {
            return thought;
        }
        let start = Instant::now();
        let until = deadline.map(|d| start + d);
        loop {
            match self.recv(until) {
                Err(_) => {
                    thought.set_elapsed(start.elapsed());
                    thought.reply = Reply::Disconnected;
                    return thought;
                }
                Ok(None) => {
                    thought.set_elapsed(start.elapsed());
                    thought.reply = Reply::TimedOut;
                    return thought;
                }
                Ok(Some((at, line))) => {
                    let mut tokens = line.split_whitespace();
                    match tokens.next() {
                        Some("info") => parse_info(&line, &mut thought),
                        Some("nobestmove") => {
                            thought.set_elapsed(at.saturating_duration_since(start));
                            thought.reply = Reply::NoMove;
                            return thought;
                        }
                        Some("bestmove") => {
                            thought.set_elapsed(at.saturating_duration_since(start));
                            let rest: Vec<&str> = tokens.collect();
                            thought.reply = match rest.first() {
                                None | Some(&"(none)") | Some(&"0000") => Reply::NoMove,
                                Some(m) => Reply::Move { text: m.to_string(), resign: rest.contains(&"resign") },
                            };
                            return thought;
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// After a timed-out `go`: sends `stop` and waits up to `grace` for the
    /// late `bestmove`. Returns false when the engine stays silent (hung).
    pub(crate) fn recover_from_timeout(&mut self, grace: Duration) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let until = Instant::now() + grace;
        loop {
            match self.recv(Some(until)) {
                Ok(Some((_, line))) => {
                    let first = line.split_whitespace().next();
                    if first == Some("bestmove") || first == Some("nobestmove") {
                        return true;
                    }
                }
                _ => return false,
            }
        }
    }

    /// Asks the engine to quit, waits up to `grace`, then kills it.
    pub(crate) fn quit(mut self, grace: Duration) {
        self.shutdown(grace);
    }

    fn shutdown(&mut self, grace: Duration) {
        if !self.dead {
            let _ = self.send("quit");
        }
        self.stdin = None;
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Reaps the process when the owner forgot to (or could not) quit it.
        if let Ok(None) = self.child.try_wait() {
            self.shutdown(Duration::from_millis(200));
        }
    }
}

/// Reads the fields the referee records from an `info` line (UCCI `score N`,
/// UCI `score cp N` / `score mate N`).
fn parse_info(line: &str, thought: &mut Thought) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    let mut has_pv = false;
    let mut score = None;
    let mut bound = false;
    while i < tokens.len() {
        match tokens[i] {
            "depth" => {
                if let Some(d) = tokens.get(i + 1).and_then(|t| t.parse().ok()) {
                    thought.depth = Some(d);
                }
                i += 1;
            }
            "nodes" => {
                if let Some(n) = tokens.get(i + 1).and_then(|t| t.parse().ok()) {
                    thought.nodes = Some(n);
                }
                i += 1;
            }
            "time" => {
                if let Some(t) = tokens.get(i + 1).and_then(|t| t.parse().ok()) {
                    thought.engine_time_ms = Some(t);
                }
                i += 1;
            }
            "score" => match tokens.get(i + 1) {
                Some(&"cp") => {
                    score = tokens.get(i + 2).and_then(|t| t.parse().ok()).map(EngineScore::Cp);
                    i += 2;
                }
                Some(&"mate") => {
                    score = tokens.get(i + 2).and_then(|t| t.parse().ok()).map(EngineScore::Mate);
                    i += 2;
                }
                Some(t) => {
                    score = t.parse().ok().map(EngineScore::Cp);
                    i += 1;
                }
                None => {}
            },
            "lowerbound" | "upperbound" => bound = true,
            "pv" => {
                has_pv = true;
                break;
            }
            "string" => break,
            _ => {}
        }
        i += 1;
    }
    if let Some(s) = score {
        if !bound || has_pv || thought.score.is_none() {
            thought.score = Some(s);
        }
    }
}

/// A move as text with ranks counted from `rank_base` (0 = ICCS).
fn move_to_text(mv: Move, rank_base: u8) -> String {
    if rank_base == 0 {
        return mv.to_string();
    }
    let sq = |s: Square| format!("{}{}", (b'a' + s.file()) as char, s.rank() as u32 + rank_base as u32);
    format!("{}{}", sq(mv.from()), sq(mv.to()))
}

/// Reads a move with ranks counted from `rank_base` (syntax only).
fn move_from_text(text: &str, rank_base: u8) -> Option<Move> {
    if rank_base == 0 {
        return Move::from_iccs(text).ok();
    }
    let b = text.trim().as_bytes();
    let mut squares = Vec::with_capacity(2);
    let mut i = 0;
    while i < b.len() {
        let file = b[i].to_ascii_lowercase().wrapping_sub(b'a');
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let digits = std::str::from_utf8(&b[start..i]).ok()?;
        let rank: u32 = digits.parse().ok()?;
        let rank = rank.checked_sub(rank_base as u32)?;
        if file >= 9 || rank >= 10 || digits.len() > 2 {
            return None;
        }
        squares.push(Square::new(file, rank as u8));
    }
    match squares[..] {
        [from, to] if from != to => Some(Move::new(from, to)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_based_ranks_round_trip() {
        let m = Move::from_iccs("h9g7").unwrap();
        assert_eq!(move_to_text(m, 1), "h10g8");
        assert_eq!(move_from_text("h10g8", 1), Some(m));
        assert_eq!(move_from_text("h9g7", 0), Some(m));
        assert_eq!(move_to_text(m, 0), "h9g7");
        for bad in ["h0g8", "h11g8", "j1a1", "h1", "h1h1", "h1g2x", "", "a001b1"] {
            assert_eq!(move_from_text(bad, 1), None, "{bad}");
        }
    }

    #[test]
    fn info_lines() {
        let mut t = Thought::nothing_yet(Reply::NoMove);
        parse_info("info depth 7 seldepth 8 multipv 1 score cp -150 nodes 4906 time 16 pv h7c7 g3g4", &mut t);
        assert_eq!((t.depth, t.score, t.nodes), (Some(7), Some(EngineScore::Cp(-150)), Some(4906)));
        assert_eq!(t.engine_time_ms, Some(16));
        parse_info("info depth 9 score 35 pv h2e2", &mut t);
        assert_eq!((t.depth, t.score), (Some(9), Some(EngineScore::Cp(35))));
        parse_info("info depth 10 score mate -3 pv a0a1", &mut t);
        assert_eq!(t.score, Some(EngineScore::Mate(-3)));
        assert_eq!(EngineScore::Mate(-3).as_cp(), -29_997);
        parse_info("info string depth 99 score 5", &mut t);
        assert_eq!(t.depth, Some(10));
    }
}
