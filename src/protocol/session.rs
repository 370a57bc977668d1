//! A protocol session: the state behind the commands (position, root bans,
//! options, the [`Engine`]) and the threads that keep the engine responsive.
//!
//! Three threads: a reader (bytes from the GUI, decoded lossily, cut into
//! lines of bounded length), the session loop (this module: parses each line
//! in the session's dialect and acts), and, while thinking, one search thread
//! that owns the engine, reports through a [`SearchReporter`] and prints
//! `bestmove` itself the moment the search returns. The loop never waits for a
//! search except before a command that needs the engine (`go`, `setoption`,
//! `ucinewgame`, `quit`), and then it stops the search first; `probe` while
//! thinking reads the running search's table (lock-free, shared). `position`
//! and `banmoves` act on the session's own copy, which a running search never
//! reads, so they need not wait.
//!
//! The opening book: the session holds the books of `bookfiles` / `BookFile`
//! (default: the embedded book) and, when `usebook` / `OwnBook` is on and a
//! `go` is a move in a game ([`book_applies`]), answers from the book at once
//! without searching. The probe itself (legality, weighted choice, repetition
//! guard) is the `book` module's; this module only maps the options onto it.
//!
//! Every output line goes through one lock and is flushed at once, so lines
//! from the two threads never interleave. Repetition verdicts are the search's
//! (the `rules` option sets `SearchOptions::rules`).

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::{
    ucci, uci, Command, Dialect, GoClock, GoParams, Level, OptionSetting, PositionSpec, ProtocolError, Randomness,
    RulesChoice, StartPosition, Style, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, DEFAULT_RESIGN_SCORE,
};
use crate::board::{Color, PieceKind};
use crate::book::{self, BookMove, OpeningBook, ProbeOptions};
use crate::eval::Knowledge;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::rules::RuleSet;
use crate::score::{Score, MATE, MATE_BOUND};
use crate::search::report::{IterationInfo, SearchReporter};
use crate::search::{probe_table, Engine, Pruning, SearchOptions, SearchResult, SearchSignals};
use crate::time::{Clock, SearchLimits, TimeManager};
use crate::tt::{Bound, TranspositionTable};

/// Longest input line accepted, in bytes; longer lines are discarded whole.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Time after which the search's current root move is reported (`currmove`).
pub const CURRMOVE_AFTER: Duration = Duration::from_secs(3);

/// What the reader thread delivers.
enum Input {
    /// One line, without its terminator, decoded lossily, and when it was read.
    Line(String, Instant),
    /// A line longer than [`MAX_LINE_BYTES`] (discarded): its length and its
    /// first word.
    TooLong(usize, String),
    /// End of input (or a read error).
    End,
}

/// The output side shared by the session loop and the search thread.
struct Output {
    writer: Box<dyn Write + Send>,
    /// Whether a search is running and has not printed its final line yet.
    thinking: bool,
}

#[derive(Clone)]
struct Out(Arc<Mutex<Output>>);

impl Out {
    fn lock(&self) -> std::sync::MutexGuard<'_, Output> {
        // A panic while holding the lock cannot leave a half-written line
        // behind (lines are written whole), so a poisoned lock is still usable.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Writes one whole line and flushes it. Write errors (the GUI went away)
    /// are ignored: the session ends at end of input anyway.
    fn line(&self, text: &str) {
        let mut o = self.lock();
        write_line(&mut o.writer, text);
    }

    fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }
}

fn write_line(w: &mut Box<dyn Write + Send>, text: &str) {
    let mut buf = String::with_capacity(text.len() + 1);
    buf.push_str(text);
    buf.push('\n');
    let _ = w.write_all(buf.as_bytes());
    let _ = w.flush();
}

/// Runs a session on `input`/`output` until `quit` or end of input and
/// returns the process exit code (0).
pub fn run<R: Read + Send + 'static, W: Write + Send + 'static>(input: R, output: W) -> i32 {
    let (tx, rx) = mpsc::channel();
    // The reader ends by itself at end of input; if the session ends first
    // (quit), it is left blocked in `read` and dies with the process.
    let _reader = thread::Builder::new().name("chuhan-reader".into()).spawn(move || {
        let mut reader = BufReader::with_capacity(64 * 1024, input);
        loop {
            let item = read_line(&mut reader);
            let end = matches!(item, Input::End);
            if tx.send(item).is_err() || end {
                break;
            }
        }
    });
    let out = Out(Arc::new(Mutex::new(Output { writer: Box::new(output), thinking: false })));
    let mut session = Session::new(out);
    session.serve(rx);
    0
}

/// Reads one line (ended by LF, CR or end of input) of at most
/// [`MAX_LINE_BYTES`] bytes, whatever the bytes.
fn read_line<R: BufRead>(reader: &mut R) -> Input {
    let mut line: Vec<u8> = Vec::new();
    let mut total = 0usize;
    loop {
        let (consumed, done) = match reader.fill_buf() {
            Ok([]) => {
                return if total == 0 {
                    Input::End
                } else if total > MAX_LINE_BYTES {
                    Input::TooLong(total, first_word(&line))
                } else {
                    Input::Line(String::from_utf8_lossy(&line).into_owned(), Instant::now())
                };
            }
            Ok(buf) => {
                // A line ends at LF or CR: CRLF then yields an empty line
                // (ignored), and old CR-only input still reads line by line.
                let (chunk, done) = match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                    Some(i) => (&buf[..i], i + 1),
                    None => (buf, 0),
                };
                if total + chunk.len() <= MAX_LINE_BYTES {
                    line.extend_from_slice(chunk);
                }
                total += chunk.len();
                if done > 0 {
                    (done, true)
                } else {
                    (chunk.len(), false)
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Input::End,
        };
        reader.consume(consumed);
        if done {
            return if total > MAX_LINE_BYTES {
                Input::TooLong(total, first_word(&line))
            } else {
                Input::Line(String::from_utf8_lossy(&line).into_owned(), Instant::now())
            };
        }
    }
}

fn first_word(line: &[u8]) -> String {
    let head = &line[..line.len().min(64)];
    String::from_utf8_lossy(head).split_whitespace().next().unwrap_or("").to_ascii_lowercase()
}

/// Whether a line starting with `word` sets the position.
fn is_position_word(word: &str) -> bool {
    matches!(word.to_ascii_lowercase().as_str(), "position" | "fen" | "startpos")
}

/// Settings that only the session (not the engine) uses.
#[derive(Clone, Debug)]
struct Settings {
    use_millisec: bool,
    batch: bool,
    debug: bool,
    ponder: bool,
    use_hash: bool,
    use_book: bool,
    book_files: String,
    hash_mb: u32,
    threads: u32,
    idle: Level,
    pruning: Level,
    knowledge: Level,
    randomness: Randomness,
    style: Style,
    rules: RulesChoice,
    resign: bool,
    resign_score: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            use_millisec: true,
            batch: false,
            debug: false,
            ponder: false,
            use_hash: true,
            use_book: true,
            book_files: String::new(),
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            idle: Level::None,
            pruning: Level::Large,
            knowledge: Level::Large,
            randomness: Randomness::Medium,
            style: Style::Normal,
            rules: RulesChoice::Asian,
            resign: true,
            resign_score: DEFAULT_RESIGN_SCORE,
        }
    }
}

/// A search in progress on its own thread.
struct Running {
    handle: JoinHandle<(Engine, Option<Score>)>,
    signals: Arc<SearchSignals>,
    /// Set by `ponderhit draw` while the search runs.
    draw_offered: Arc<AtomicBool>,
    pondering: bool,
    /// The searching engine's table, for `probe` while thinking.
    table: Arc<TranspositionTable>,
}

struct Session {
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
    settings: Settings,
    /// Final score of our last search that ran to its own end (resign rule).
    last_score: Option<Score>,
    /// The engine's search options as last set (to rebuild a lost engine).
    options: SearchOptions,
    /// When the line being handled was read (a `go` charges the time since
    /// to the clock).
    received: Instant,
    /// The opening books in force, probed in this order (`bookfiles`).
    books: Vec<LoadedBook>,
    /// Book load errors not reported yet (the embedded book is loaded before
    /// the handshake; its errors are printed after it).
    book_errors: Vec<String>,
    /// Seed of the book's weighted choice, drawn anew for every game.
    book_seed: u64,
}

/// One opening book the session probes, with the name it was given.
struct LoadedBook {
    name: String,
    book: OpeningBook,
}

/// The `bookfiles` entry that names the book compiled into the binary.
pub const EMBEDDED_BOOK_NAME: &str = "embedded";

impl Session {
    fn new(out: Out) -> Session {
        let mut engine = Engine::new(DEFAULT_HASH_MB as usize, 1);
        // The advertised default (the option table) is the one in force.
        engine.options_mut().move_overhead = Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS as u64);
        let options = engine.options().clone();
        Session {
            out,
            dialect: None,
            engine: Some(engine),
            running: None,
            position: Position::startpos(),
            position_failed: false,
            banned: Vec::new(),
            settings: Settings::default(),
            last_score: None,
            options,
            received: Instant::now(),
            books: Vec::new(),
            book_errors: Vec::new(),
            book_seed: fresh_seed(),
        }
        .with_default_books()
    }

    fn with_default_books(mut self) -> Session {
        let (books, errors) = load_books("");
        self.books = books;
        self.book_errors = errors;
        self
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
    fn handle(&mut self, line: &str) -> bool {
        let parsed = match self.dialect {
            Some(d) => d.parse(line),
            // Before the handshake both spellings are understood, but only the
            // handshake itself (and `isready` / `quit`) is served.
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
        if self.dialect.is_none()
            && !matches!(command, Command::Ucci | Command::Uci | Command::IsReady | Command::Quit | Command::Empty)
        {
            self.out.info("error: send 'ucci' or 'uci' first (the first command chooses the protocol)");
            return true;
        }
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

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = Some(dialect);
        let lines = match dialect {
            Dialect::Ucci => ucci::handshake(),
            Dialect::Uci => uci::handshake(),
        };
        let mut o = self.out.lock();
        for l in &lines {
            write_line(&mut o.writer, l);
        }
        for e in self.book_errors.drain(..) {
            write_line(&mut o.writer, &format!("info string {e}"));
        }
    }

    /// Stops a running search (if any) and takes the engine back.
    fn wait_idle(&mut self) -> &mut Engine {
        if let Some(run) = self.running.take() {
            run.signals.stop.store(true, Ordering::SeqCst);
            match run.handle.join() {
                Ok((engine, score)) => {
                    self.engine = Some(engine);
                    if score.is_some() {
                        self.last_score = score;
                    }
                }
                Err(_) => {
                    // The search thread panicked: its engine is gone. Start a
                    // fresh one with the same settings rather than stop serving.
                    let dialect = self.dialect();
                    let mut o = self.out.lock();
                    write_line(&mut o.writer, "info string error: the search failed; the engine was reset");
                    if o.thinking {
                        write_line(&mut o.writer, no_move(dialect));
                        o.thinking = false;
                    }
                }
            }
        }
        let (hash, threads) = (self.settings.hash_mb as usize, self.settings.threads as usize);
        let options = self.options.clone();
        self.engine.get_or_insert_with(|| {
            let mut e = Engine::new(hash, threads);
            *e.options_mut() = options;
            e
        })
    }

    fn stop(&mut self) {
        let mut o = self.out.lock();
        match &self.running {
            Some(run) if o.thinking => run.signals.stop.store(true, Ordering::SeqCst),
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
                    run.draw_offered.store(true, Ordering::SeqCst);
                }
                run.signals.ponderhit.store(true, Ordering::SeqCst);
            }
            _ => {
                drop(o);
                self.out.info("error: ponderhit while not pondering (ignored)");
            }
        }
    }

    fn quit(&mut self) {
        if self.running.is_some() {
            self.wait_idle();
        }
        if self.dialect == Some(Dialect::Ucci) {
            self.out.line("bye");
        }
    }

    fn new_game(&mut self) {
        self.wait_idle().new_game();
        self.last_score = None;
        self.banned.clear();
        self.book_seed = fresh_seed();
    }

    /// Builds the position on a copy and swaps it in only if every move is legal.
    fn build_position(spec: &PositionSpec) -> Result<Position, String> {
        let mut pos = match &spec.start {
            StartPosition::Start => Position::startpos(),
            StartPosition::Fen(setup) => {
                Position::from_setup(setup).map_err(|e| format!("bad FEN: {e} (position unchanged)"))?
            }
        };
        for (i, &m) in spec.moves.iter().enumerate() {
            pos.try_make_move(m).map_err(|e| format!("move {} of the list: {e} (position unchanged)", i + 1))?;
        }
        Ok(pos)
    }

    fn set_position(&mut self, spec: &PositionSpec) {
        match Self::build_position(spec) {
            Ok(pos) => {
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

    fn no_move_text(&self) -> &'static str {
        no_move(self.dialect())
    }

    fn set_option(&mut self, o: OptionSetting) {
        self.wait_idle();
        // `wait_idle` always leaves an engine in place.
        let Some(engine) = self.engine.as_mut() else { return };
        let mut note: Option<String> = None;
        match o {
            OptionSetting::UseMillisec(v) => self.settings.use_millisec = v,
            OptionSetting::Batch(v) => {
                self.settings.batch = v;
                note = Some(format!(
                    "batch {}: stored; Chuhan always reads input while thinking, so batch changes nothing",
                    on_off(v)
                ));
            }
            OptionSetting::Debug(v) => self.settings.debug = v,
            OptionSetting::Ponder(v) => self.settings.ponder = v,
            OptionSetting::UseHash(v) => {
                self.settings.use_hash = v;
                if !v {
                    note = Some("usehash false: the hash table is cleared before every search".to_string());
                }
            }
            OptionSetting::UseBook(v) => self.settings.use_book = v,
            OptionSetting::BookFiles(f) => {
                let (books, errors) = load_books(&f);
                for e in errors {
                    self.out.info(&e);
                }
                note = Some(books_summary(&books));
                self.books = books;
                self.settings.book_files = f;
            }
            OptionSetting::UseEgtb(v) => {
                if v {
                    note = Some("useegtb: endgame tablebases are not supported".to_string());
                }
            }
            OptionSetting::EgtbPaths(_) => note = Some("egtbpaths: endgame tablebases are not supported".to_string()),
            OptionSetting::HashSize(mb) => match hash_fits(mb, self.settings.hash_mb) {
                Ok(()) => {
                    engine.set_hash(mb as usize);
                    self.settings.hash_mb = mb;
                }
                Err(available) => {
                    note = Some(format!(
                        "error: hashsize {mb} MB does not fit in the {available} MB of memory available; \
                         keeping {} MB",
                        self.settings.hash_mb
                    ))
                }
            },
            OptionSetting::Threads(n) => {
                engine.set_threads(n as usize);
                self.settings.threads = n;
            }
            OptionSetting::Idle(l) => {
                self.settings.idle = l;
                note = Some(format!("idle {l:?}: stored; it has no effect (Chuhan never idles on purpose)"));
            }
            OptionSetting::Promotion(_) => {
                note = Some("promotion: the promotion variant is not supported (standard rules only)".to_string())
            }
            OptionSetting::Pruning(l) => {
                self.settings.pruning = l;
                engine.options_mut().pruning = Pruning::ALL[l as usize];
            }
            OptionSetting::Knowledge(l) => {
                self.settings.knowledge = l;
                engine.options_mut().knowledge = Knowledge::ALL[l as usize];
            }
            OptionSetting::Randomness(r) => {
                self.settings.randomness = r;
                note = Some(format!(
                    "randomness {r:?}: sets how the opening book chooses among its moves; the search stays deterministic"
                ));
            }
            OptionSetting::Style(s) => {
                self.settings.style = s;
                note = Some(format!("style {s:?}: stored; it has no effect (use contempt)"));
            }
            OptionSetting::NewGame => {
                engine.new_game();
                self.last_score = None;
                self.banned.clear();
                self.book_seed = fresh_seed();
            }
            OptionSetting::Rules(r) => {
                self.settings.rules = r;
                // docs/rules.md 3.2/3.3: the search judges repetitions under this rule set.
                engine.options_mut().rules = rule_set(r);
            }
            OptionSetting::Contempt(c) => engine.options_mut().contempt = c,
            OptionSetting::MultiPv(n) => engine.options_mut().multipv = n,
            OptionSetting::MoveOverhead(ms) => {
                engine.options_mut().move_overhead = Duration::from_millis(ms as u64);
            }
            OptionSetting::ClearHash => engine.clear_hash(),
            OptionSetting::Resign(v) => self.settings.resign = v,
            OptionSetting::ResignScore(v) => self.settings.resign_score = v,
        }
        self.options = engine.options().clone();
        if let Some(n) = note {
            self.out.info(&n);
        }
    }

    fn probe(&mut self, spec: &PositionSpec) {
        let pos = match Self::build_position(spec) {
            Ok(p) => p,
            Err(e) => {
                self.out.info(&format!("error: probe: {e}"));
                return;
            }
        };
        // docs/protocol.md "States": answered at once, also while thinking.
        let entry = match &self.running {
            Some(run) => probe_table(&run.table, &pos),
            None => self.wait_idle().probe(&pos),
        };
        let mut line = String::from("pophash");
        if let Some(p) = entry {
            if let Some(m) = p.best {
                line.push_str(&format!(" bestmove {m}"));
            }
            if let Some(v) = p.score.map(|s| s.0) {
                if matches!(p.bound, Bound::Lower | Bound::Exact) {
                    line.push_str(&format!(" lowerbound {v} depth {}", p.depth));
                }
                if matches!(p.bound, Bound::Upper | Bound::Exact) {
                    line.push_str(&format!(" upperbound {v} depth {}", p.depth));
                }
            }
        }
        self.out.line(&line);
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
            // `movetime T` means "think T ms" (as in Stockfish): the move
            // overhead protects clocks, so it is given back here because the
            // time manager takes it off every budget.
            movetime: p.movetime.map(|t| dur(t).saturating_add(self.options.move_overhead)),
            mate: p.mate,
            infinite: p.infinite,
            ponder: p.ponder,
            clock,
        }
    }

    fn go(&mut self, p: &GoParams) {
        self.wait_idle();
        let dialect = self.dialect();
        if self.position_failed {
            self.out.info("error: the last position could not be set; no move");
            self.out.line(self.no_move_text());
            return;
        }
        let legal = self.position.legal_moves();
        let mut root: MoveList = legal.iter().copied().filter(|m| !self.banned.contains(m)).collect();
        if !p.searchmoves.is_empty() {
            root.retain(|m| p.searchmoves.contains(m));
        }
        if legal.is_empty() {
            // No legal move loses (docs/rules.md section 2): report the mate and no move.
            let score = match dialect {
                Dialect::Ucci => format!("info depth 0 score {}", -MATE),
                Dialect::Uci => "info depth 0 score mate 0".to_string(),
            };
            self.out.line(&score);
            self.out.line(self.no_move_text());
            return;
        }
        if root.is_empty() {
            self.out.info("error: every legal move is banned or excluded; no move");
            self.out.line(self.no_move_text());
            return;
        }
        if p.depth == Some(0) {
            // UCCI `go depth 0`: the static evaluation and no move (docs/protocol.md).
            let eval = crate::eval::evaluate(&self.position);
            self.out.line(&format!("info depth 0 score {}", format_score(eval, dialect)));
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
            let overhead = self.options.move_overhead;
            let tm = TimeManager::new(&limits, overhead);
            let budget = if tm.soft != Duration::MAX {
                format!("budget soft {} ms hard {} ms", tm.soft.as_millis(), tm.hard.as_millis())
            } else {
                "no time limit".to_string()
            };
            self.out.info(&format!("debug: {budget}, {} root moves, {limits:?}", root.len()));
        }
        let use_hash = self.settings.use_hash;
        let restricted = root.len() != legal.len();
        let root_moves: Option<Vec<Move>> = restricted.then(|| root.to_vec());
        let signals = Arc::new(SearchSignals::default());
        let draw_offered = Arc::new(AtomicBool::new(p.draw_offered));
        let job = Job {
            position: self.position.clone(),
            limits,
            root_moves,
            signals: Arc::clone(&signals),
            draw_offered: Arc::clone(&draw_offered),
            out: self.out.clone(),
            dialect,
            resign: (dialect == Dialect::Ucci && self.settings.resign).then_some(self.settings.resign_score),
            last_score: self.last_score,
            debug,
            received: self.received,
        };
        let Some(mut engine) = self.engine.take() else {
            // Not reachable (`wait_idle` put an engine back), but never leave
            // the GUI without an answer.
            self.out.line(self.no_move_text());
            return;
        };
        if !use_hash {
            engine.clear_hash();
        }
        self.out.lock().thinking = true;
        let table = engine.table();
        let spawned = thread::Builder::new().name("chuhan-search".into()).spawn(move || job.run(engine));
        match spawned {
            Ok(handle) => {
                self.running = Some(Running { handle, signals, draw_offered, pondering: p.ponder, table });
            }
            Err(e) => {
                // The engine moved into the failed closure; a fresh one replaces it.
                self.out.lock().thinking = false;
                self.out.info(&format!("error: cannot start the search thread: {e}"));
                self.out.line(self.no_move_text());
            }
        }
    }
}

impl Session {
    /// The book move for this `go`, if the book is in use and this `go` is a
    /// move in a game (see [`book_applies`]). Candidates are limited to the
    /// root moves (so banned moves are out) and never include a move that
    /// completes a repetition the mover would lose under the rules in force
    /// (docs/rules.md 3, via `rules::forbidden_moves`); the book itself also
    /// refuses any move back into an earlier position. Books are probed in
    /// the `bookfiles` order and the first with a candidate answers.
    fn book_move(&self, p: &GoParams, root: &MoveList) -> Option<BookMove> {
        if !self.settings.use_book || self.books.is_empty() || !book_applies(p) {
            return None;
        }
        let forbidden = crate::rules::forbidden_moves(&self.position, rule_set(self.settings.rules));
        let exclude = |m: Move| !root.contains(&m) || forbidden.contains(&m);
        let options = ProbeOptions { randomness: book_randomness(self.settings.randomness), seed: self.book_seed };
        self.books.iter().find_map(|b| b.book.probe(&self.position, options, &exclude))
    }

    /// Reports a book move and plays it at once, without searching. UCCI
    /// shows the book weight as the score; UCI shows `score cp 0`
    /// and the weight in an `info string`, because UCI tools read `score cp`
    /// as an evaluation (adjudication) and a weight is not one.
    fn play_book_move(&mut self, bm: BookMove) {
        let dialect = self.dialect();
        let info = match dialect {
            Dialect::Ucci => format!("info depth 0 score {} pv {}", bm.weight, bm.mv),
            Dialect::Uci => format!("info depth 0 score cp 0 pv {}", bm.mv),
        };
        let mut best = format!("bestmove {}", bm.mv);
        if let Some(reply) = bm.ponder {
            best.push_str(&format!(" ponder {reply}"));
        }
        // A book move carries no evaluation for the resign rule.
        self.last_score = None;
        let mut o = self.out.lock();
        if dialect == Dialect::Uci {
            write_line(&mut o.writer, &format!("info string book move {} weight {}", bm.mv, bm.weight));
        }
        write_line(&mut o.writer, &info);
        write_line(&mut o.writer, &best);
    }
}

/// The repetition rule set of the `rules` option (search, book exclusion hook).
fn rule_set(r: RulesChoice) -> RuleSet {
    match r {
        RulesChoice::Asian => RuleSet::Asian,
        RulesChoice::Chinese => RuleSet::Chinese,
    }
}

/// Whether a `go` may be answered from the book: a move in a game, i.e. a
/// clock (`time`/`wtime`/`btime`) or a `movetime`, and nothing that asks for
/// analysis or a search of a given size: not `ponder` (the predicted move is
/// searched; book moves are answered at once when it is our turn), not
/// `infinite` or a bare `go` (analysis mode), not `depth`, `nodes` or `mate`
/// (fixed-size searches, as test suites and fixed-depth matches use), not
/// UCI `searchmoves`.
pub fn book_applies(p: &GoParams) -> bool {
    !p.ponder
        && !p.infinite
        && p.depth.is_none()
        && p.nodes.is_none()
        && p.mate.is_none()
        && p.searchmoves.is_empty()
        && (p.clock.is_some() || p.movetime.is_some())
}

/// The book choice for each UCCI `randomness` level: `none` always plays the
/// heaviest move; `tiny` draws with weight^2, `small` weight^1.5, `medium`
/// (the default) in proportion to the weights, `large` weight^0.5, `huge`
/// uniformly among the candidates.
fn book_randomness(r: Randomness) -> book::Randomness {
    match r {
        Randomness::None => book::Randomness::None,
        Randomness::Tiny => book::Randomness::Tiny,
        Randomness::Small => book::Randomness::Small,
        Randomness::Medium => book::Randomness::Medium,
        Randomness::Large => book::Randomness::Large,
        Randomness::Huge => book::Randomness::Huge,
    }
}

/// A seed for the book's choice: different in every session and game, so
/// the engine varies its openings (with `randomness none` it does not matter).
fn fresh_seed() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    h.write_u128(nanos);
    h.finish()
}

/// Loads the books of a `bookfiles` value: `;`-separated paths, probed in
/// that order; the entry `embedded` names the book compiled into the binary;
/// an empty value means the embedded book alone. A file that cannot be read
/// or is not a valid book is left out with an error line naming it; the
/// others still load. Returns the books and the error lines.
fn load_books(value: &str) -> (Vec<LoadedBook>, Vec<String>) {
    let mut names: Vec<&str> = value.split(';').map(str::trim).filter(|n| !n.is_empty()).collect();
    if names.is_empty() {
        names.push(EMBEDDED_BOOK_NAME);
    }
    let mut books = Vec::new();
    let mut errors = Vec::new();
    for name in names {
        let loaded = if name.eq_ignore_ascii_case(EMBEDDED_BOOK_NAME) {
            OpeningBook::embedded()
        } else {
            OpeningBook::load(std::path::Path::new(name))
        };
        match loaded {
            Ok(book) => books.push(LoadedBook { name: name.to_string(), book }),
            Err(e) => errors.push(format!("error: book file '{}' not used: {e}", path_text(name))),
        }
    }
    (books, errors)
}

/// A book path as printed: whole (paths are long), control characters shown as `?`.
fn path_text(name: &str) -> String {
    name.chars().take(1024).map(|c| if c.is_control() { '?' } else { c }).collect()
}

/// The `info string` that says which books are in force after `bookfiles`.
fn books_summary(books: &[LoadedBook]) -> String {
    if books.is_empty() {
        return "bookfiles: no book loaded; moves are searched".to_string();
    }
    let list: Vec<String> =
        books.iter().map(|b| format!("{} ({} records)", path_text(&b.name), b.book.len())).collect();
    format!("bookfiles: probing {}", list.join(", then "))
}

/// Whether a `mb` table can replace the current `current_mb` one: the new
/// table is filled before the old one is freed, and filling more memory than
/// the machine has would get the process killed. Where the available memory
/// is unknown (no `/proc/meminfo`), any size is tried. `Err` holds the MB available.
fn hash_fits(mb: u32, current_mb: u32) -> Result<(), u64> {
    let Ok(info) = std::fs::read_to_string("/proc/meminfo") else { return Ok(()) };
    let available_kb = info
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse::<u64>().ok());
    match available_kb {
        // Keep 64 MB for everything else; the current table is still allocated.
        Some(kb) if (mb as u64) + 64 > kb / 1024 + current_mb as u64 => Err(kb / 1024),
        _ => Ok(()),
    }
}

/// The final line of a search without a move.
fn no_move(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Ucci => "nobestmove",
        Dialect::Uci => "bestmove (none)",
    }
}

fn on_off(v: bool) -> &'static str {
    if v {
        "true"
    } else {
        "false"
    }
}

/// Everything the search thread needs.
struct Job {
    position: Position,
    limits: SearchLimits,
    root_moves: Option<Vec<Move>>,
    signals: Arc<SearchSignals>,
    draw_offered: Arc<AtomicBool>,
    out: Out,
    dialect: Dialect,
    /// Resign threshold (UCCI with `resign` on).
    resign: Option<u32>,
    last_score: Option<Score>,
    debug: bool,
    /// When the `go` line was read.
    received: Instant,
}

impl Job {
    /// Searches, prints the final line, and hands the engine back with the
    /// final score when the search ran to its own end.
    fn run(mut self, mut engine: Engine) -> (Engine, Option<Score>) {
        let start = Instant::now();
        // The time since the `go` line was read (parsing, waiting for the
        // previous search, starting this thread: milliseconds on a loaded
        // machine) is already gone from the clock. Pondering starts its clock
        // at ponderhit, so it is not charged there.
        if !self.limits.ponder {
            let lag = self.received.elapsed();
            if let Some(mt) = self.limits.movetime.as_mut() {
                *mt = mt.saturating_sub(lag);
            }
            if let Some(c) = self.limits.clock.as_mut() {
                c.time = c.time.saturating_sub(lag);
            }
        }
        let mut reporter = Reporter { out: self.out.clone(), dialect: self.dialect, start };
        let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            engine.search(
                &self.position,
                &self.limits,
                self.root_moves.as_deref(),
                Arc::clone(&self.signals),
                &mut reporter,
            )
        }));
        let result: SearchResult = match searched {
            Ok(r) => r,
            Err(_) => {
                // A bug in the search must not leave the GUI waiting for a
                // move: say so, answer "no move", and forget what was learnt.
                engine.new_game();
                let mut o = self.out.lock();
                write_line(&mut o.writer, "info string error: the search failed (internal error); no move");
                write_line(&mut o.writer, no_move(self.dialect));
                o.thinking = false;
                return (engine, None);
            }
        };
        let line = self.final_line(&result);
        let mut o = self.out.lock();
        if self.debug {
            write_line(&mut o.writer, &format!("info string debug: search took {} ms", start.elapsed().as_millis()));
        }
        write_line(&mut o.writer, &line);
        o.thinking = false;
        drop(o);
        (engine, result.best.is_some().then_some(result.score))
    }

    fn final_line(&self, r: &SearchResult) -> String {
        let legal = self.position.legal_moves();
        let Some(best) = r.best.filter(|m| legal.contains(m)) else {
            return no_move(self.dialect).to_string();
        };
        let mut line = format!("bestmove {best}");
        if let Some(p) = r.ponder.filter(|p| p.is_some()) {
            let mut after = self.position.clone();
            after.make_move(best);
            if after.is_legal(p) {
                line.push_str(&format!(" ponder {p}"));
            }
        }
        if self.dialect == Dialect::Ucci {
            if self.draw_offered.load(Ordering::SeqCst) && is_dead_drawn(&self.position) {
                line.push_str(" draw");
            } else if let Some(threshold) = self.resign {
                if should_resign(r.score, self.last_score, threshold) {
                    line.push_str(" resign");
                }
            }
        }
        line
    }
}

/// Neither side can possibly win: no chariot, horse, cannon or soldier left on
/// either side (docs/rules.md section 2, "Draw").
pub fn is_dead_drawn(pos: &Position) -> bool {
    Color::ALL.iter().all(|&c| {
        [PieceKind::Chariot, PieceKind::Horse, PieceKind::Cannon, PieceKind::Soldier]
            .iter()
            .all(|&k| pos.board().count(c, k) == 0)
    })
}

/// Resign when a mate against us is proven, or when this search and our
/// previous one both scored at or below `-threshold`.
pub fn should_resign(score: Score, previous: Option<Score>, threshold: u32) -> bool {
    let t = -(threshold as i32);
    score.0 <= -MATE_BOUND || (score.0 <= t && previous.is_some_and(|p| p.0 <= t))
}

/// A score as the dialect prints it: UCCI a plain integer (mates are
/// `±(MATE - ply)`, MATE = 30000), UCI `cp N` / `mate N`.
pub fn format_score(s: Score, dialect: Dialect) -> String {
    match dialect {
        Dialect::Ucci => s.0.to_string(),
        Dialect::Uci => match s.mate_moves() {
            Some(n) => format!("mate {n}"),
            None => format!("cp {}", s.0),
        },
    }
}

/// Formats one iteration as an `info` line.
pub fn format_info(info: &IterationInfo, dialect: Dialect) -> String {
    let mut s = format!("info depth {} seldepth {}", info.depth, info.seldepth);
    if dialect == Dialect::Uci || info.multipv > 1 {
        s.push_str(&format!(" multipv {}", info.multipv));
    }
    s.push_str(&format!(" score {}", format_score(info.score, dialect)));
    if dialect == Dialect::Uci {
        match info.bound {
            Bound::Lower => s.push_str(" lowerbound"),
            Bound::Upper => s.push_str(" upperbound"),
            Bound::Exact => {}
        }
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis()
    ));
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

/// Prints search progress in the session's dialect.
struct Reporter {
    out: Out,
    dialect: Dialect,
    start: Instant,
}

impl SearchReporter for Reporter {
    fn on_iteration(&mut self, info: &IterationInfo) {
        // UCCI GUIs read every `info ... score` line as the evaluation: only
        // exact scores are shown there; UCI marks bounds instead.
        if self.dialect == Dialect::Ucci && info.bound != Bound::Exact {
            return;
        }
        self.out.line(&format_info(info, self.dialect));
    }

    fn on_currmove(&mut self, depth: u32, mv: Move, number: u32) {
        if self.start.elapsed() < CURRMOVE_AFTER {
            return;
        }
        let line = match self.dialect {
            Dialect::Ucci => format!("info currmove {mv} currmovenumber {number}"),
            Dialect::Uci => format!("info depth {depth} currmove {mv} currmovenumber {number}"),
        };
        self.out.line(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

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

    #[test]
    fn load_books_keeps_the_good_ones_in_order() {
        let (books, errors) = load_books("");
        assert_eq!((books.len(), errors.len()), (1, 0));
        assert_eq!(books[0].name, EMBEDDED_BOOK_NAME);
        let (books, errors) = load_books(" /nonexistent/a.book ; Embedded ;;/nonexistent/b.book");
        assert_eq!(books.len(), 1);
        assert_eq!(errors.len(), 2);
        assert!(errors[0].starts_with("error: book file '/nonexistent/a.book' not used: "), "{errors:?}");
        assert!(errors[1].contains("'/nonexistent/b.book'"), "{errors:?}");
        let (books, errors) = load_books("/nonexistent/a.book");
        assert!(books.is_empty() && errors.len() == 1);
        assert_eq!(books_summary(&books), "bookfiles: no book loaded; moves are searched");
    }

    #[test]
    fn randomness_levels_map_one_to_one() {
        let all = Randomness::ALL;
        let mapped: Vec<book::Randomness> = all.iter().map(|&r| book_randomness(r)).collect();
        for (r, b) in all.iter().zip(&mapped) {
            assert_eq!(book::Randomness::from_ucci(&format!("{r:?}")), Some(*b));
        }
        assert_eq!(book_randomness(Settings::default().randomness), book::Randomness::default());
    }

    fn lines_of(input: &[u8]) -> Vec<Input> {
        let mut r = BufReader::with_capacity(7, Cursor::new(input.to_vec()));
        let mut v = Vec::new();
        loop {
            let i = read_line(&mut r);
            let end = matches!(i, Input::End);
            v.push(i);
            if end {
                return v;
            }
        }
    }

    fn text(i: &Input) -> String {
        match i {
            Input::Line(s, _) => s.clone(),
            Input::TooLong(n, w) => format!("<too long {n} {w}>"),
            Input::End => "<end>".to_string(),
        }
    }

    #[test]
    fn reader_cuts_lines_and_decodes_lossily() {
        let got: Vec<String> = lines_of(b"ucci\r\nisready\n\n\xff\xfego\rstop\nlast").iter().map(text).collect();
        assert_eq!(got, ["ucci", "", "isready", "", "\u{fffd}\u{fffd}go", "stop", "last", "<end>"]);
        let mut long = b"Position ".to_vec();
        long.resize(MAX_LINE_BYTES + 10, b'x');
        long.extend_from_slice(b"\nisready\n");
        let got: Vec<String> = lines_of(&long).iter().map(text).collect();
        assert_eq!(
            got,
            [format!("<too long {} position>", MAX_LINE_BYTES + 10), "isready".to_string(), "<end>".to_string()]
        );
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
        let out = Out(Arc::new(Mutex::new(Output { writer: Box::new(sink.clone()), thinking: false })));
        (Session::new(out), sink)
    }

    fn take(sink: &Sink) -> String {
        String::from_utf8(std::mem::take(&mut *sink.0.lock().unwrap())).unwrap()
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
        let e = s.engine.as_ref().unwrap();
        assert_eq!(e.options().move_overhead, Duration::from_millis(77));
        assert_eq!(e.options().multipv, 3);
        assert_eq!(e.options().contempt, -12);
        assert_eq!(e.threads(), 2);
        assert_eq!(s.settings.hash_mb, 4);
        s.handle("setoption name Rules value chinese");
        assert_eq!(s.settings.rules, RulesChoice::Chinese);
        assert_eq!(s.engine.as_ref().unwrap().options().rules, RuleSet::Chinese);
        assert!(!take(&sink).contains("info string rules"), "no 'not applied' note any more");
        s.handle("setoption name Rules value asian");
        assert_eq!(s.engine.as_ref().unwrap().options().rules, RuleSet::Asian);
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
        // movetime: the overhead (77 ms) is given back, so the search thinks the full time.
        s.handle("setoption usemillisec true");
        let p = match ucci::parse("go movetime 100") {
            Ok(Command::Go(p)) => p,
            other => panic!("{other:?}"),
        };
        let limits = s.limits(&p);
        assert_eq!(limits.movetime, Some(Duration::from_millis(177)));
        assert_eq!(TimeManager::new(&limits, Duration::from_millis(77)).hard, Duration::from_millis(100));
    }

    #[test]
    fn scores() {
        assert_eq!(format_score(Score(35), Dialect::Ucci), "35");
        assert_eq!(format_score(Score(MATE - 3), Dialect::Ucci), "29997");
        assert_eq!(format_score(Score(MATE - 3), Dialect::Uci), "mate 2");
        assert_eq!(format_score(Score(-MATE + 2), Dialect::Uci), "mate -1");
        assert_eq!(format_score(Score(-12), Dialect::Uci), "cp -12");
    }

    #[test]
    fn resign_and_draw_rules() {
        assert!(should_resign(Score(-MATE + 10), None, 1500));
        assert!(!should_resign(Score(-1600), None, 1500));
        assert!(should_resign(Score(-1600), Some(Score(-1500)), 1500));
        assert!(!should_resign(Score(-1600), Some(Score(-200)), 1500));
        assert!(is_dead_drawn(&Position::from_fen("3k5/4a4/9/9/9/9/9/4B4/4A4/4KA3 w").unwrap()));
        assert!(!is_dead_drawn(&Position::from_fen("3k5/9/9/9/9/9/9/9/4p4/4K4 w").unwrap()));
        assert!(!is_dead_drawn(&Position::startpos()));
    }
}
