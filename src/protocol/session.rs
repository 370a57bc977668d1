//! A protocol session: the state behind the commands (position, root bans,
//! settings, books, the [`Engine`]) and the handler of each command.
//!
//! The session loop reads lines from the reader thread ([`super::io`]),
//! parses each in the session's dialect and acts. A `go` hands the engine to
//! its own search thread ([`Engine::go`]), whose reporter
//! ([`super::reporter`]) prints progress and `bestmove` itself the moment the
//! search ends. The loop never waits for a search except before a command
//! that needs the engine (`go`, `setoption`, `ucinewgame`, `quit`), and then
//! it stops the search first; `probe` while thinking reads the running
//! search's table (lock-free, shared). `position` and `banmoves` act on the
//! session's own copy, which a running search never reads, so they need not
//! wait. Options are the registry's ([`super::options`]); every line's
//! spelling is [`super::format`]'s.
//!
//! The opening book: the session holds the books of `bookfiles` / `BookFile`
//! (default: the embedded book) and, when `usebook` / `OwnBook` is on and a
//! `go` is a move in a game ([`book_applies`]), answers from the book at once
//! without searching. The probe itself (legality, weighted choice, repetition
//! guard) is the `book` module's.

use std::io::{Read, Write};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::io::{spawn_reader, write_line, Input, Out};
use super::options::{OptionSetting, OPTIONS};
use super::reporter::GoReporter;
use super::{format, ucci, Command, Dialect, GoClock, GoParams, PositionSpec, ProtocolError, StartPosition};
use crate::board::Color;
use crate::book::set::BookSet;
use crate::book::{self, BookMove, ProbeOptions};
use crate::position::Position;
use crate::score::Score;
use crate::search::{self, probe_table, Engine, RootMoves, SearchHandle, SearchJob};
use crate::time::{Clock, SearchLimits, TimeManager};

/// Runs a session on `input`/`output` until `quit` or end of input and
/// returns the process exit code (0).
pub fn run<R: Read + Send + 'static, W: Write + Send + 'static>(input: R, output: W) -> i32 {
    let rx = spawn_reader(input);
    let mut session = Session::new(Out::new(Box::new(output)));
    session.serve(rx);
    0
}

/// The settings only the session (not the engine) uses; the options'
/// `apply` functions write them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Settings {
    pub use_millisec: bool,
    pub debug: bool,
    pub use_hash: bool,
    pub use_book: bool,
    pub randomness: book::Randomness,
    pub resign: bool,
    pub resign_score: u32,
    /// `UCI_ShowWDL`: scores carry ` wdl W D L`.
    pub show_wdl: bool,
}

/// A search in progress on its own thread.
struct Running {
    handle: SearchHandle,
    /// Set by `ponderhit draw` while the search runs.
    draw_offered: Arc<AtomicBool>,
    pondering: bool,
}

pub(crate) struct Session {
    out: Out,
    dialect: Option<Dialect>,
    /// `None` only while a search thread owns it.
    engine: Option<Engine>,
    running: Option<Running>,
    position: Position,
    /// Set by a `position` that could not be set up: the next `go` answers
    /// `nobestmove` (the previous good position is kept meanwhile).
    position_failed: bool,
    banned: Vec<Move>,
    pub(crate) settings: Settings,
    /// Final score of our last search that ran to its own end (resign rule).
    last_score: Option<Score>,
    /// When the line being handled was read (a `go` charges the time since
    /// to the clock).
    received: Instant,
    /// The opening books in force (`bookfiles`).
    books: BookSet,
    /// Errors met while applying the defaults (before the handshake), printed after it.
    startup_errors: Vec<String>,
    /// Seed of the book's weighted choice, drawn anew for every game.
    book_seed: u64,
}

use crate::moves::Move;

impl Session {
    pub(crate) fn new(out: Out) -> Session {
        let mut s = Session {
            out,
            dialect: None,
            engine: Some(Engine::new(search::DEFAULT_HASH_MB, 1)),
            running: None,
            position: Position::startpos(),
            position_failed: false,
            banned: Vec::new(),
            settings: Settings::default(),
            last_score: None,
            received: Instant::now(),
            books: BookSet::default(),
            startup_errors: Vec::new(),
            book_seed: rand::random(),
        };
        // Every option starts at its registry default, applied as a
        // `setoption` would; notes are for `setoption`s, but errors are kept
        // for after the handshake.
        for o in OPTIONS {
            if o.kind != super::OptionKind::Button {
                let notes = (o.apply)(&mut s, o, &o.default_value());
                s.startup_errors.extend(notes.into_iter().filter(|n| n.starts_with("error")));
            }
        }
        s
    }

    fn serve(&mut self, rx: Receiver<Input>) {
        loop {
            let line = match rx.recv() {
                Ok(Input::Line(line, at)) => {
                    self.received = at;
                    line
                }
                Ok(Input::TooLong(bytes, word)) => {
                    let e = ProtocolError::LineTooLong { bytes };
                    self.report_error(&e, is_position_word(&word));
                    continue;
                }
                // End of input behaves like `quit` (docs/protocol.md).
                Ok(Input::End) | Err(_) => {
                    self.quit();
                    return;
                }
            };
            if !self.handle(&line) {
                return;
            }
        }
    }

    /// Handles one line; false when the session ends.
    pub(crate) fn handle(&mut self, line: &str) -> bool {
        if self.dialect.is_none() {
            let first = line.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
            if !matches!(first.as_str(), "" | "ucci" | "uci" | "isready" | "quit") {
                // A client that starts without a handshake is served as UCI
                // (as Stockfish-family engines do).
                self.dialect = Some(Dialect::Uci);
                let errors = self.startup_error_lines();
                self.out.lines(&errors);
            }
        }
        let parsed = match self.dialect {
            Some(d) => d.parse(line),
            // Before the handshake only the handshake itself, `isready` and
            // `quit` come here.
            None => ucci::parse(line),
        };
        let command = match parsed {
            Ok(c) => c,
            Err(ProtocolError::UnknownCommand(text)) => {
                self.out.info(&format!("unknown command: {text}"));
                return true;
            }
            Err(e) => {
                let first = line.split_whitespace().next().unwrap_or("");
                self.report_error(&e, is_position_word(first));
                return true;
            }
        };
        match command {
            Command::Empty => {}
            Command::Ucci => self.handshake(Dialect::Ucci),
            Command::Uci => self.handshake(Dialect::Uci),
            Command::IsReady => self.out.line("readyok"),
            Command::Debug(on) => self.settings.debug = on,
            Command::SetOption(o) => self.set_option(o),
            Command::NewGame => self.new_game(),
            Command::Position(spec) => self.set_position(&spec),
            Command::BanMoves(moves) => self.ban_moves(moves),
            Command::Go(params) => self.go(&params),
            Command::PonderHit { draw } => self.ponderhit(draw),
            Command::Stop => self.stop(),
            Command::Probe(spec) => self.probe(&spec),
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Flip => self.flip(),
            Command::Bench(args) => self.bench(&args),
            Command::Compiler => {
                let lines: Vec<String> = crate::build_info::compiler_text().lines().map(str::to_string).collect();
                self.out.lines(&lines);
            }
            Command::Quit => {
                self.quit();
                return false;
            }
        }
        true
    }

    /// Reports a line that could not be served. A `position` line that cannot
    /// be read is a bad position: the previous one stays, and the next `go`
    /// gets no move (docs/protocol.md robustness contract).
    fn report_error(&mut self, e: &ProtocolError, sets_position: bool) {
        if sets_position && self.dialect.is_some() {
            self.position_failed = true;
            self.out.info(&format!("error: {e}; the next go answers {}", self.no_move_text()));
        } else {
            self.out.info(&format!("error: {e}"));
        }
    }

    fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or(Dialect::Ucci)
    }

    fn no_move_text(&self) -> &'static str {
        format::no_move(self.dialect())
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = Some(dialect);
        let mut lines = format::handshake(dialect);
        lines.extend(self.startup_error_lines());
        self.out.lines(&lines);
    }

    /// The errors met while applying the defaults, as `info string` lines
    /// (once: they are printed when the session's dialect is chosen).
    fn startup_error_lines(&mut self) -> Vec<String> {
        self.startup_errors.drain(..).map(|e| format!("info string {e}")).collect()
    }

    /// Stops a running search (if any) and takes the engine back.
    pub(crate) fn engine(&mut self) -> &mut Engine {
        if let Some(run) = self.running.take() {
            run.handle.stop();
            let (engine, result) = run.handle.join();
            self.engine = Some(engine);
            match result {
                Ok(r) if r.best.is_some() => self.last_score = Some(r.score),
                Ok(_) => {}
                Err(e) => {
                    // The reporter has answered unless the thread itself died.
                    let mut o = self.out.lock();
                    if o.thinking {
                        write_line(&mut o.writer, &format!("info string error: {e}; the engine was reset"));
                        write_line(&mut o.writer, format::no_move(self.dialect.unwrap_or(Dialect::Ucci)));
                        o.thinking = false;
                    }
                }
            }
        }
        self.engine.get_or_insert_with(|| Engine::new(search::DEFAULT_HASH_MB, 1))
    }

    fn stop(&mut self) {
        let mut o = self.out.lock();
        match &self.running {
            Some(run) if o.thinking => run.handle.stop(),
            // UCCI answers a `stop` when idle with `nobestmove` (docs/protocol.md); UCI ignores it.
            _ if self.dialect == Some(Dialect::Ucci) => write_line(&mut o.writer, "nobestmove"),
            _ => {}
        }
    }

    fn ponderhit(&mut self, draw: bool) {
        let o = self.out.lock();
        match &self.running {
            Some(run) if o.thinking && run.pondering => {
                if draw {
                    run.draw_offered.store(true, std::sync::atomic::Ordering::SeqCst);
                }
                run.handle.ponderhit();
            }
            _ => {
                drop(o);
                self.out.info("error: ponderhit while not pondering (ignored)");
            }
        }
    }

    fn quit(&mut self) {
        if self.running.is_some() {
            self.engine();
        }
        if self.dialect == Some(Dialect::Ucci) {
            self.out.line("bye");
        }
    }

    pub(crate) fn new_game(&mut self) {
        self.engine().new_game();
        self.last_score = None;
        self.banned.clear();
        self.book_seed = rand::random();
    }

    /// Builds the position on a copy. The FEN may place advisors, elephants
    /// and soldiers on points no game reaches (puzzles do): such a position is
    /// accepted with a warning, since the engine plays it correctly. In UCCI
    /// every move must be legal or nothing is applied; in UCI (`lenient`) the
    /// moves are applied up to the first one that is unreadable or illegal,
    /// and the rest are dropped with a warning (the Stockfish convention).
    /// Returns the position and the warnings.
    fn build_position(spec: &PositionSpec, lenient: bool) -> Result<(Position, Vec<String>), String> {
        let mut warnings = Vec::new();
        let mut pos = match &spec.start {
            StartPosition::Start => Position::startpos(),
            StartPosition::Fen(setup) => match Position::from_setup(setup) {
                Ok(p) => p,
                Err(strict) => match Position::from_setup_relaxed(setup) {
                    Ok(p) => {
                        warnings.push(format!("warning: {strict}; accepted (the engine plays such positions)"));
                        p
                    }
                    Err(e) => return Err(format!("bad FEN: {e} (position unchanged)")),
                },
            },
        };
        for (i, &m) in spec.moves.iter().enumerate() {
            if let Err(e) = pos.try_make_move(m) {
                if !lenient {
                    return Err(format!("move {} of the list: {e} (position unchanged)", i + 1));
                }
                let dropped = spec.moves.len() - i + spec.unreadable.len();
                warnings.push(format!(
                    "warning: move {} of the list: {e}; it and the rest of the list ({dropped} moves) were dropped",
                    i + 1
                ));
                return Ok((pos, warnings));
            }
        }
        if let Some(word) = spec.unreadable.first() {
            warnings.push(format!(
                "warning: move {} of the list: '{word}' is not a move; it and the rest of the list ({} words) were dropped",
                spec.moves.len() + 1,
                spec.unreadable.len()
            ));
        }
        Ok((pos, warnings))
    }

    fn set_position(&mut self, spec: &PositionSpec) {
        match Self::build_position(spec, self.dialect == Some(Dialect::Uci)) {
            Ok((pos, warnings)) => {
                for w in warnings {
                    self.out.info(&w);
                }
                self.position = pos;
                self.position_failed = false;
                self.banned.clear();
            }
            Err(e) => {
                self.position_failed = true;
                self.out.info(&format!("error: {e}; the next go answers {}", self.no_move_text()));
            }
        }
    }

    /// `d`: the board as drawn, FEN, key, and the pieces giving check.
    fn display(&mut self) {
        let pos = &self.position;
        let mut lines: Vec<String> = pos.to_string().lines().map(str::to_string).collect();
        lines.push(format!("Key: {:016X}", pos.key().0));
        let checkers = crate::attacks::checkers(pos.board(), pos.side_to_move());
        let list: Vec<String> = checkers.iter().map(|sq| sq.to_string()).collect();
        lines.push(format!("Checkers: {}", list.join(" ")));
        self.out.lines(&lines);
    }

    /// `eval`: the static evaluation of the position term by term, plain
    /// text as `d` prints it (docs/protocol.md).
    fn eval(&mut self) {
        if self.position_failed {
            self.out.info("error: the last position could not be set; no evaluation");
            return;
        }
        self.out.lines(&crate::eval::breakdown::breakdown(&self.position).render());
    }

    /// `bench ...` (the arguments of `chuhan bench`; `current` is the
    /// session's position): one line per position, Stockfish's summary and
    /// `<nodes> nodes <nps> nps`. It runs on the session thread, as in
    /// Stockfish, after stopping any search.
    fn bench(&mut self, args: &[String]) {
        self.engine();
        let spec = match crate::bench::BenchSpec::parse(args) {
            Ok(s) => s,
            Err(e) => {
                self.out.info(&format!("error: bench: {e}"));
                return;
            }
        };
        let out = self.out.clone();
        let mut index = 0;
        let result = crate::bench::run(&spec, &self.position.to_fen(), |l| {
            index += 1;
            let best = l.best.map_or_else(|| "(none)".to_string(), |m| m.to_string());
            out.line(&format!("{index:2} {:>10} {best} {}", l.nodes, l.fen));
        });
        match result {
            Ok(report) => {
                let mut lines: Vec<String> = report.summary().to_vec();
                lines.push(format!("{} nodes {} nps", report.nodes, report.nps()));
                self.out.lines(&lines);
            }
            Err(e) => self.out.info(&format!("error: bench: {e}")),
        }
    }

    /// `flip`: the position with the colours swapped and the board mirrored
    /// top to bottom (the same game from the other side; the history is not kept).
    fn flip(&mut self) {
        let flipped = flipped_fen(&self.position.to_fen());
        match Position::from_fen(&flipped) {
            Ok(p) => {
                self.position = p;
                self.position_failed = false;
                self.banned.clear();
            }
            Err(e) => self.out.info(&format!("error: flip: {e} (position unchanged)")),
        }
    }

    fn ban_moves(&mut self, moves: Vec<Move>) {
        let mut banned = Vec::with_capacity(moves.len());
        for m in moves {
            match self.position.resolve_move(m) {
                Ok(m) => banned.push(m),
                Err(e) => self.out.info(&format!("error: banmoves: {e} (not a move here; skipped)")),
            }
        }
        self.banned = banned;
    }

    fn set_option(&mut self, o: OptionSetting) {
        self.engine();
        for note in (o.option.apply)(self, o.option, &o.value) {
            self.out.info(&note);
        }
    }

    /// `bookfiles`: loads the books named; returns the error lines and the summary.
    pub(crate) fn set_books(&mut self, value: &str) -> Vec<String> {
        let (books, mut notes) = BookSet::load(value);
        notes.push(books.summary());
        self.books = books;
        notes
    }

    /// `hashsize`: a new table of `mb` MB, unless it would not fit in memory.
    /// The new table is filled before the old one is freed, and filling more
    /// memory than the machine has would get the process killed; where the
    /// available memory is unknown, any size is tried.
    pub(crate) fn set_hash(&mut self, mb: usize) -> Vec<String> {
        let engine = self.engine();
        let current = engine.hash_mb();
        if mb == current {
            return Vec::new();
        }
        // Keep 64 MB for everything else; the current table is still allocated.
        match crate::memory::available_mb() {
            Some(avail) if mb as u64 + 64 > avail + current as u64 => vec![format!(
                "error: hashsize {mb} MB does not fit in the {avail} MB of memory available; keeping {current} MB"
            )],
            _ => {
                engine.set_hash(mb);
                Vec::new()
            }
        }
    }

    fn probe(&mut self, spec: &PositionSpec) {
        let pos = match Self::build_position(spec, false) {
            Ok((p, _)) => p,
            Err(e) => {
                self.out.info(&format!("error: probe: {e}"));
                return;
            }
        };
        // docs/protocol.md "States": answered at once, also while thinking.
        let entry = match &self.running {
            Some(run) => probe_table(run.handle.table(), &pos),
            None => self.engine().probe(&pos),
        };
        self.out.line(&format::pophash(entry.as_ref()));
    }

    fn move_overhead(&self) -> Duration {
        self.engine
            .as_ref()
            .map_or(Duration::from_millis(search::DEFAULT_MOVE_OVERHEAD_MS), |e| e.options().move_overhead)
    }

    /// The search limits of a `go`, with times converted to durations.
    fn limits(&self, p: &GoParams) -> SearchLimits {
        let unit = if self.settings.use_millisec || self.dialect() == Dialect::Uci { 1 } else { 1000 };
        let dur = |v: u64| Duration::from_millis(v.saturating_mul(unit));
        let clock = p.clock.as_ref().map(|c| match *c {
            GoClock::Relative { time, movestogo, increment, .. } => {
                Clock { time: dur(time), increment: dur(increment), movestogo }
            }
            GoClock::ByColor { wtime, btime, winc, binc, movestogo } => {
                let (t, inc) = match self.position.side_to_move() {
                    Color::Red => (wtime, winc),
                    Color::Black => (btime, binc),
                };
                // A clock that names only the other side leaves us no time to plan with.
                Clock { time: dur(t.unwrap_or(0)), increment: dur(inc), movestogo }
            }
        });
        SearchLimits {
            depth: p.depth,
            nodes: p.nodes,
            // `movetime T`: the answer must be there within T ms, so the time
            // manager keeps the move overhead back from it as from a clock
            // (fixed-time GUIs flag an engine that answers late).
            movetime: p.movetime.map(dur),
            mate: p.mate,
            infinite: p.infinite,
            ponder: p.ponder,
            clock,
        }
    }

    fn go(&mut self, p: &GoParams) {
        let rules = self.engine().options().rules;
        let dialect = self.dialect();
        if self.position_failed {
            self.out.info("error: the last position could not be set; no move");
            self.out.line(self.no_move_text());
            return;
        }
        let root = RootMoves::new(&self.position, &self.banned, &p.searchmoves, rules);
        if root.legal().is_empty() {
            // No legal move loses (docs/rules.md section 2): report the mate and no move.
            self.out.lines(&[format::mated_now(dialect, self.settings.show_wdl), self.no_move_text().to_string()]);
            return;
        }
        if root.candidates().is_empty() {
            self.out.info("error: every legal move is banned or excluded; no move");
            self.out.line(self.no_move_text());
            return;
        }
        if let Some(depth) = p.perft {
            self.perft(depth);
            return;
        }
        if p.depth == Some(0) {
            // UCCI `go depth 0`: the static evaluation and no move (docs/protocol.md).
            let eval = crate::eval::evaluate(&self.position);
            self.out.line(&format!("info depth 0 score {}", format::score_wdl(eval, dialect, self.wdl_material())));
            self.out.line(self.no_move_text());
            return;
        }
        if let Some(bm) = self.book_move(p, &root) {
            self.play_book_move(bm);
            return;
        }
        let limits = self.limits(p);
        let debug = self.settings.debug;
        if debug {
            let tm = TimeManager::new(&limits, self.move_overhead(), self.position.fullmove());
            let budget = if tm.soft != Duration::MAX {
                format!("budget soft {} ms hard {} ms", tm.soft.as_millis(), tm.hard.as_millis())
            } else {
                "no time limit".to_string()
            };
            self.out.info(&format!("debug: {budget}, {} root moves, {limits:?}", root.candidates().len()));
        }
        let draw_offered = Arc::new(AtomicBool::new(p.draw_offered));
        let reporter = GoReporter {
            out: self.out.clone(),
            dialect,
            position: self.position.clone(),
            draw_offered: Arc::clone(&draw_offered),
            resign: (dialect == Dialect::Ucci && self.settings.resign).then_some(self.settings.resign_score),
            last_score: self.last_score,
            debug,
            wdl: self.wdl_material(),
            start: Instant::now(),
        };
        let job = SearchJob { position: self.position.clone(), limits, root, issued: self.received };
        let Some(mut engine) = self.engine.take() else { return };
        if !self.settings.use_hash {
            engine.clear_hash();
        }
        self.out.lock().thinking = true;
        match engine.go(job, Box::new(reporter)) {
            Ok(handle) => self.running = Some(Running { handle, draw_offered, pondering: p.ponder }),
            Err((engine, e)) => {
                self.engine = Some(engine);
                self.out.lock().thinking = false;
                self.out.info(&format!("error: cannot start the search thread: {e}"));
                self.out.line(self.no_move_text());
            }
        }
    }

    /// `go perft N`: each root move with its leaf count (`h2e2: 1`), a blank
    /// line and `Nodes searched: N`, as Pikafish prints them (tools check
    /// moves this way).
    fn perft(&mut self, depth: u32) {
        let counts = crate::perft::divide(&self.position, depth, 1);
        let mut lines: Vec<String> = counts.iter().map(|(m, n)| format!("{m}: {n}")).collect();
        lines.push(String::new());
        lines.push(format!("Nodes searched: {}", counts.iter().map(|&(_, n)| n).sum::<u64>()));
        self.out.lines(&lines);
    }

    /// The book move for this `go`, if the book is in use and this `go` is a
    /// move in a game (see [`book_applies`]). Candidates are limited to the
    /// root moves (so banned moves are out) and never include a move that
    /// completes a repetition the mover would lose under the rules in force
    /// (docs/rules.md section 3); the book itself also refuses any move back
    /// into an earlier position. Books are probed in the `bookfiles` order
    /// and the first with a candidate answers.
    fn book_move(&self, p: &GoParams, root: &RootMoves) -> Option<BookMove> {
        if !self.settings.use_book || self.books.is_empty() || !book_applies(p) {
            return None;
        }
        let exclude = |m: Move| !root.candidates().contains(&m) || root.is_forbidden(m);
        let options = ProbeOptions { randomness: self.settings.randomness, seed: self.book_seed };
        self.books.probe(&self.position, options, &exclude)
    }

    /// Reports a book move and plays it at once, without searching. The score
    /// shown is the static evaluation (the book weight goes in an `info
    /// string`: GUIs and match tools read `score` as an evaluation).
    fn play_book_move(&mut self, bm: BookMove) {
        // A book move carries no evaluation for the resign rule.
        self.last_score = None;
        let eval = crate::eval::evaluate(&self.position);
        self.out.lines(&format::book_move(&bm, eval, self.dialect(), self.wdl_material()));
    }

    /// The material count of the position (the root of the next search) when
    /// scores show win/draw/loss, as Stockfish takes the root's material.
    fn wdl_material(&self) -> Option<i32> {
        self.settings.show_wdl.then(|| crate::eval::wdl::material(self.position.board()))
    }
}

/// Whether a `go` may be answered from the book: a move in a game, i.e. a
/// clock (`time`/`wtime`/`btime`) or a `movetime`, and nothing that asks for
/// analysis or a search of a given size: not `ponder` (the predicted move is
/// searched; book moves are answered at once when it is our turn), not
/// `infinite` or a bare `go` (analysis mode), not `depth`, `nodes` or `mate`
/// (fixed-size searches, as test suites and fixed-depth matches use), not
/// UCI `searchmoves`.
pub(crate) fn book_applies(p: &GoParams) -> bool {
    !p.ponder
        && !p.infinite
        && p.depth.is_none()
        && p.nodes.is_none()
        && p.mate.is_none()
        && p.searchmoves.is_empty()
        && (p.clock.is_some() || p.movetime.is_some())
}

/// The FEN of the position with colours swapped and ranks mirrored.
fn flipped_fen(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(board) = fields.first_mut() {
        let swapped: String = board
            .chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect();
        *board = swapped.split('/').rev().collect::<Vec<_>>().join("/");
    }
    if let Some(side) = fields.get_mut(1) {
        *side = if side == "w" { "b".to_string() } else { "w".to_string() };
    }
    fields.join(" ")
}

/// Whether a line starting with `word` sets the position.
fn is_position_word(word: &str) -> bool {
    matches!(word.to_ascii_lowercase().as_str(), "position" | "fen" | "startpos")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::uci;
    use crate::rules::RuleSet;
    use std::sync::Mutex;

    #[test]
    fn book_applies_only_to_moves_in_a_game() {
        let clock = Some(GoClock::ByColor { wtime: Some(1000), btime: Some(1000), winc: 0, binc: 0, movestogo: None });
        let timed = GoParams { clock, ..GoParams::default() };
        assert!(book_applies(&timed));
        assert!(book_applies(&GoParams { movetime: Some(100), ..GoParams::default() }));
        assert!(!book_applies(&GoParams::default()), "bare go: no limit");
        assert!(!book_applies(&GoParams { infinite: true, ..GoParams::default() }));
        assert!(!book_applies(&GoParams { ponder: true, ..timed.clone() }));
        assert!(!book_applies(&GoParams { depth: Some(5), ..timed.clone() }));
        assert!(!book_applies(&GoParams { nodes: Some(5000), ..timed.clone() }));
        assert!(!book_applies(&GoParams { mate: Some(3), ..timed.clone() }));
        let m = Position::startpos().parse_move("h2e2").unwrap();
        assert!(!book_applies(&GoParams { searchmoves: vec![m], ..timed }));
    }

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session() -> (Session, Sink) {
        let sink = Sink::default();
        (Session::new(Out::new(Box::new(sink.clone()))), sink)
    }

    fn take(sink: &Sink) -> String {
        String::from_utf8(std::mem::take(&mut *sink.0.lock().unwrap())).unwrap()
    }

    #[test]
    fn defaults_come_from_the_registry() {
        let (mut s, _) = session();
        assert!(s.settings.use_millisec && s.settings.use_hash && s.settings.use_book && s.settings.resign);
        assert_eq!(s.settings.resign_score, 1500);
        assert!(!s.settings.show_wdl);
        assert_eq!(s.settings.randomness, book::Randomness::Medium);
        let e = s.engine();
        assert_eq!(e.options().move_overhead, Duration::from_millis(search::DEFAULT_MOVE_OVERHEAD_MS));
        assert_eq!((e.hash_mb(), e.threads(), e.options().multipv), (16, 1, 1));
        assert_eq!(e.options().rules, RuleSet::Asian);
        assert!(!s.books.is_empty());
    }

    #[test]
    fn position_is_atomic() {
        let (mut s, sink) = session();
        assert!(s.handle("ucci"));
        take(&sink);
        s.handle("position startpos moves h2e2 h9g7");
        let good = s.position.to_fen();
        assert_eq!(s.position.game_ply(), 2);
        s.handle("banmoves b0c2");
        assert_eq!(s.banned.len(), 1);
        // The third move is illegal: nothing of the list is applied, the
        // previous position and its bans stay, and `go` is refused.
        s.handle("position startpos moves h2e2 h9g7 h0g2 h0g2");
        assert_eq!(s.position.to_fen(), good);
        assert_eq!(s.position.game_ply(), 2);
        assert!(s.position_failed);
        assert!(take(&sink).starts_with("info string error: move 4 of the list: illegal move h0g2"));
        s.handle("go depth 1");
        assert!(take(&sink).ends_with("nobestmove\n"));
        // A bad FEN and an unreadable move behave the same.
        s.handle("position fen 9/9/9 w moves h2e2");
        s.handle("position startpos moves h2e2 xyz");
        assert_eq!(s.position.to_fen(), good);
        // A good position clears the failure and the bans.
        s.handle("position startpos moves c3c4");
        assert!(!s.position_failed && s.banned.is_empty());
        assert_eq!(s.position.game_ply(), 1);
        assert!(!s.handle("quit"));
        assert!(take(&sink).ends_with("bye\n"));
    }

    #[test]
    fn options_reach_the_engine() {
        let (mut s, sink) = session();
        s.handle("uci");
        s.handle("setoption name Move Overhead value 77");
        s.handle("setoption name MultiPV value 3");
        s.handle("setoption name Contempt value -12");
        s.handle("setoption name Threads value 2");
        s.handle("setoption name Hash value 4");
        let e = s.engine();
        assert_eq!(e.options().move_overhead, Duration::from_millis(77));
        assert_eq!(e.options().multipv, 3);
        assert_eq!(e.options().contempt, -12);
        assert_eq!(e.threads(), 2);
        assert_eq!(s.engine().hash_mb(), 4);
        s.handle("setoption name Rules value chinese");
        assert_eq!(s.engine().options().rules, RuleSet::Chinese);
        assert!(!take(&sink).contains("info string rules"), "no 'not applied' note any more");
        s.handle("setoption name Rules value asian");
        assert_eq!(s.engine().options().rules, RuleSet::Asian);
        s.handle("setoption usemillisec false");
        let p = match uci::parse("go wtime 5 btime 7") {
            Ok(Command::Go(p)) => p,
            other => panic!("{other:?}"),
        };
        // UCI times are always milliseconds; Red to move reads wtime.
        assert_eq!(s.limits(&p).clock.unwrap().time, Duration::from_millis(5));
        s.dialect = Some(Dialect::Ucci);
        let p = match ucci::parse("go time 5 increment 1") {
            Ok(Command::Go(p)) => p,
            other => panic!("{other:?}"),
        };
        let c = s.limits(&p).clock.unwrap();
        assert_eq!((c.time, c.increment), (Duration::from_secs(5), Duration::from_secs(1)));
        // movetime: the overhead (77 ms) is kept back, as from a clock.
        s.handle("setoption usemillisec true");
        let p = match ucci::parse("go movetime 100") {
            Ok(Command::Go(p)) => p,
            other => panic!("{other:?}"),
        };
        let limits = s.limits(&p);
        assert_eq!(limits.movetime, Some(Duration::from_millis(100)));
        assert_eq!(TimeManager::new(&limits, Duration::from_millis(77), 1).hard, Duration::from_millis(23));
    }
}
