//! One refereed game between two engine processes: the referee owns the
//! board (our own [`Position`]), checks every move, runs both clocks, asks
//! [`adjudicate::judge`] after every move, applies the optional score
//! adjudication (`-draw`, `-resign`, `-maxmoves`) and records everything the
//! PGN needs.
//!
//! It does not start or restart engines (the tournament's workers do) and
//! does not write files.

use std::time::Duration;

use crate::board::Color;
use crate::moves::Move;
use crate::position::Position;

use super::adjudicate::{self, GameResult, RuleSettings, Termination, Verdict};
use super::engine::{EngineConfig, EngineProcess, EngineScore, Protocol, Reply};
use super::notation;
use super::tc::{GameClock, TimeControl};

/// A start position: a FEN (`None`: the standard start) and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Opening {
    pub(crate) fen: Option<String>,
    pub moves: Vec<Move>,
    /// A label for the PGN `Opening` tag (e.g. the suite's `A00 中兵局`).
    pub(crate) name: Option<String>,
}

impl Opening {
    /// The root position (before the opening moves).
    pub(crate) fn root(&self) -> Option<Position> {
        match &self.fen {
            None => Some(Position::startpos()),
            Some(f) => Position::from_fen(f).ok(),
        }
    }
}

/// `-draw movenumber=N movecount=M score=S`: from move N on, a draw once both
/// engines have reported |score| <= S for M consecutive moves each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct DrawAdjudication {
    pub(crate) move_number: u32,
    pub(crate) move_count: u32,
    pub(crate) score: i32,
}

/// `-resign movecount=M score=S [twosided=true]`: an engine that reports a
/// score <= -S for M consecutive moves loses (two-sided: and its opponent
/// reports >= S for those moves).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ResignAdjudication {
    pub(crate) move_count: u32,
    pub(crate) score: i32,
    pub(crate) two_sided: bool,
}

/// What a game is played under besides the engines' own limits.
#[derive(Clone, Debug)]
pub(crate) struct GameSettings {
    pub(crate) rules: RuleSettings,
    pub(crate) draw: Option<DrawAdjudication>,
    pub(crate) resign: Option<ResignAdjudication>,
    /// Draw after this many full moves (`-maxmoves`), 0 = never.
    pub(crate) max_moves: u32,
    /// How long to wait for a move without a clock (depth/nodes), in ms.
    pub(crate) hang_timeout_ms: u64,
    /// How long to wait for `bestmove` after `stop` when a move came late, in ms.
    pub(crate) stop_grace_ms: u64,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            rules: RuleSettings::default(),
            draw: None,
            resign: None,
            max_moves: 0,
            hang_timeout_ms: 60_000,
            stop_grace_ms: 1000,
        }
    }
}

/// One move of a game record.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MoveRecord {
    pub(crate) mv: Move,
    /// Chinese notation (炮二平五).
    pub(crate) chinese: String,
    pub(crate) score: Option<EngineScore>,
    pub(crate) depth: Option<u32>,
    pub(crate) time_ms: u64,
    /// Played from the opening, not by an engine.
    pub(crate) book: bool,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Engine indices (into the match's engine list) of Red and Black.
    pub(crate) red: usize,
    pub(crate) black: usize,
    pub red_name: String,
    pub black_name: String,
    /// FEN of the root (`None`: the standard start position).
    pub(crate) fen: Option<String>,
    /// The opening's label, if the suite gave one.
    pub(crate) opening: Option<String>,
    pub(crate) moves: Vec<MoveRecord>,
    pub result: GameResult,
    pub(crate) termination: Termination,
    /// Human-readable detail ("Black's move h9h1 is illegal: ...").
    pub detail: String,
    /// PGN `TimeControl` tags of Red and Black.
    pub(crate) tc_tags: [String; 2],
    /// Engines (by match index) that must be restarted before their next game.
    pub(crate) faulty: Vec<usize>,
    /// Engine moves played and the referee's own time over them (wall time of
    /// the game minus the engines' thinking time), in microseconds.
    pub(crate) engine_moves: u32,
    pub(crate) referee_us: u64,
    /// Referee-measured move time minus the engine's own last reported search
    /// time (`info time`), summed and maximal, over `gap_moves` moves, in
    /// microseconds: how much the referee's clock charges beyond the search.
    pub(crate) gap_us: u64,
    pub(crate) gap_max_us: u64,
    pub(crate) gap_moves: u32,
}

/// Everything about one seat at the board.
pub(crate) struct Seat<'a> {
    pub(crate) index: usize,
    pub(crate) config: &'a EngineConfig,
    pub(crate) engine: &'a mut EngineProcess,
}

/// The PGN `TimeControl` value of an engine's limits.
pub(crate) fn tc_tag(config: &EngineConfig) -> String {
    let mut parts = Vec::new();
    if let Some(tc) = &config.tc {
        parts.push(tc.pgn_tag());
    }
    if let Some(d) = config.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = config.nodes {
        parts.push(format!("nodes={n}"));
    }
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.join(" ")
    }
}

/// The `go` line for the side to move (`me`), with both clocks.
fn go_command(config: &EngineConfig, me: Color, clocks: &[Option<GameClock>; 2]) -> String {
    let mut go = String::from("go");
    let (mine, theirs) = (&clocks[me.index()], &clocks[(!me).index()]);
    match (&config.tc, mine) {
        (Some(TimeControl::Clock(_)), Some(c)) => match config.protocol {
            Protocol::Ucci => {
                go.push_str(&format!(" time {}", c.remaining_ms()));
                if let Some(m) = c.moves_to_go() {
                    go.push_str(&format!(" movestogo {m}"));
                }
                if c.increment_ms() > 0 {
                    go.push_str(&format!(" increment {}", c.increment_ms()));
                }
                if let Some(o) = theirs {
                    go.push_str(&format!(" opptime {}", o.remaining_ms()));
                    if let Some(m) = o.moves_to_go() {
                        go.push_str(&format!(" oppmovestogo {m}"));
                    }
                    if o.increment_ms() > 0 {
                        go.push_str(&format!(" oppincrement {}", o.increment_ms()));
                    }
                }
            }
            Protocol::Uci => {
                let o = theirs.as_ref().unwrap_or(c);
                let (red, black) = if me == Color::Red { (c, o) } else { (o, c) };
                go.push_str(&format!(
                    " wtime {} btime {} winc {} binc {}",
                    red.remaining_ms(),
                    black.remaining_ms(),
                    red.increment_ms(),
                    black.increment_ms()
                ));
                if let Some(m) = c.moves_to_go() {
                    go.push_str(&format!(" movestogo {m}"));
                }
            }
        },
        (Some(TimeControl::MoveTime(ms)), _) => match config.protocol {
            // UCCI has no `movetime`: the whole budget with one move to go.
            Protocol::Ucci => go.push_str(&format!(" time {ms} movestogo 1")),
            Protocol::Uci => go.push_str(&format!(" movetime {ms}")),
        },
        _ => {}
    }
    if let Some(d) = config.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = config.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    go
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// Plays one game. `seats[0]` plays Red. Engines must be started and told
/// about the new game already.
pub(crate) fn play(seats: [Seat<'_>; 2], opening: &Opening, settings: &GameSettings) -> GameRecord {
    let [mut red, mut black] = seats;
    let mut record = GameRecord {
        red: red.index,
        black: black.index,
        red_name: red.config.name.clone(),
        black_name: black.config.name.clone(),
        fen: opening.fen.clone(),
        opening: opening.name.clone(),
        moves: Vec::new(),
        result: GameResult::Draw,
        termination: Termination::Aborted,
        detail: String::new(),
        tc_tags: [tc_tag(red.config), tc_tag(black.config)],
        faulty: Vec::new(),
        engine_moves: 0,
        referee_us: 0,
        gap_us: 0,
        gap_max_us: 0,
        gap_moves: 0,
    };
    let Some(mut pos) = opening.root() else {
        record.detail = "invalid opening FEN".into();
        return record;
    };
    let root_fen = pos.to_fen();
    // UCCI engines get the FEN after the last capture plus the moves since
    // (what UCCI GUIs send); UCI engines the root and all moves.
    let mut ucci_base = (root_fen.clone(), 0usize);
    for &mv in &opening.moves {
        let Ok(mv) = pos.resolve_move(mv) else {
            record.detail = format!("illegal opening move {mv}");
            return record;
        };
        let chinese = notation::chinese(&pos, mv).unwrap_or_default();
        pos.make_move(mv);
        record.moves.push(MoveRecord { mv, chinese, score: None, depth: None, time_ms: 0, book: true });
        if pos.state().captured != 0 {
            ucci_base = (pos.to_fen(), record.moves.len());
        }
    }
    let mut clocks = [GameClock::new_opt(&red.config.tc), GameClock::new_opt(&black.config.tc)];
    let mut draw_run = 0u32;
    let mut resign_run = [0u32; 2];
    let mut last_scores: [Option<i32>; 2] = [None, None];
    let started = std::time::Instant::now();
    let mut thinking_us = 0u64;

    let verdict = loop {
        if let Some(v) = adjudicate::judge(&pos, &settings.rules) {
            record.detail = match v.termination {
                Termination::Checkmate => format!("{} mates", side_name(!pos.side_to_move())),
                Termination::Stalemate => format!("{} has no legal move", side_name(pos.side_to_move())),
                // A decisive repetition is a forbidden perpetual (once `judge` is `rules::judge`).
                Termination::Repetition if v.result != GameResult::Draw => {
                    format!(
                        "forbidden repetition by {}",
                        side_name(if v.result == GameResult::RedWins { Color::Black } else { Color::Red })
                    )
                }
                Termination::Repetition => "threefold repetition".into(),
                Termination::MoveLimit => format!("{} plies without capture", settings.rules.move_limit_plies),
                _ => "neither side can win".into(),
            };
            break v;
        }
        if settings.max_moves > 0 && record.moves.len() as u32 >= 2 * settings.max_moves {
            record.detail = format!("{} moves played (-maxmoves)", settings.max_moves);
            break Verdict { result: GameResult::Draw, termination: Termination::AdjudicatedDraw };
        }
        let me = pos.side_to_move();
        let seat = if me == Color::Red { &mut red } else { &mut black };
        let config = seat.config;
        let position = position_command(seat.engine, config.protocol, &root_fen, &ucci_base, &record.moves);
        let go = go_command(config, me, &clocks);
        let margin = config.margin_ms();
        let budget = match (&config.tc, &clocks[me.index()]) {
            (Some(TimeControl::Clock(_)), Some(c)) => Some(c.remaining_ms()),
            (Some(TimeControl::MoveTime(ms)), _) => Some(*ms),
            _ => None,
        };
        let deadline = match (&config.tc, &clocks[me.index()]) {
            (Some(TimeControl::Clock(_)), Some(c)) => Some(c.remaining_ms() + margin + 1),
            (Some(TimeControl::MoveTime(ms)), _) => Some(ms + margin + 1),
            _ => Some(settings.hang_timeout_ms),
        };
        let banned = adjudicate::banned_moves(&pos, &settings.rules);
        let thought = seat.engine.think(&position, &banned, &go, deadline.map(Duration::from_millis));
        thinking_us += thought.elapsed_us;
        record.engine_moves += 1;
        if let (Some(t), Reply::Move { .. }) = (thought.engine_time_ms, &thought.reply) {
            let gap = thought.elapsed_us.saturating_sub(t * 1000);
            record.gap_us += gap;
            record.gap_max_us = record.gap_max_us.max(gap);
            record.gap_moves += 1;
        }
        let loses = Verdict { result: GameResult::loss_for(me), termination: Termination::IllegalMove };
        let text = match thought.reply {
            Reply::Disconnected => {
                record.faulty.push(seat.index);
                record.detail = format!("{} ({}) disconnected", side_name(me), config.name);
                break Verdict { termination: Termination::Crash, ..loses };
            }
            Reply::TimedOut => {
                if !seat.engine.recover_from_timeout(Duration::from_millis(settings.stop_grace_ms)) {
                    record.faulty.push(seat.index);
                }
                let clocked = config.tc.is_some();
                record.detail = format!(
                    "{} ({}) {} after {} ms{}",
                    side_name(me),
                    config.name,
                    if clocked { "lost on time" } else { "did not answer" },
                    thought.elapsed_ms,
                    time_note(budget, thought.engine_time_ms)
                );
                let termination = if clocked { Termination::TimeForfeit } else { Termination::Stall };
                break Verdict { termination, ..loses };
            }
            Reply::NoMove => {
                record.detail = format!("{} ({}) claimed no move with legal moves left", side_name(me), config.name);
                break loses;
            }
            Reply::Move { text, resign } => {
                if resign {
                    record.detail = format!("{} ({}) resigns", side_name(me), config.name);
                    break Verdict { termination: Termination::Resignation, ..loses };
                }
                text
            }
        };
        // Clock first: a move that came too late loses even if legal.
        let on_time = match (&config.tc, &mut clocks[me.index()]) {
            (Some(TimeControl::Clock(_)), Some(c)) => c.charge(thought.elapsed_ms, margin),
            (Some(TimeControl::MoveTime(ms)), _) => thought.elapsed_ms <= ms + margin,
            _ => true,
        };
        if !on_time {
            record.detail = format!(
                "{} ({}) lost on time after {} ms{}",
                side_name(me),
                config.name,
                thought.elapsed_ms,
                time_note(budget, thought.engine_time_ms)
            );
            break Verdict { termination: Termination::TimeForfeit, ..loses };
        }
        let mv = match seat.engine.parse_move(&text).map(|m| pos.resolve_move(m)) {
            Some(Ok(m)) if !banned.contains(&m) => m,
            Some(Ok(_)) => {
                record.detail = format!("{} ({}) played the banned move {text}", side_name(me), config.name);
                break loses;
            }
            Some(Err(e)) => {
                record.detail = format!("{} ({}) sent an illegal move: {e}", side_name(me), config.name);
                break loses;
            }
            None => {
                let shown: String = text.chars().take(32).collect();
                record.detail = format!("{} ({}) sent an unparsable move `{shown}`", side_name(me), config.name);
                break loses;
            }
        };
        let chinese = notation::chinese(&pos, mv).unwrap_or_default();
        pos.make_move(mv);
        if pos.state().captured != 0 {
            ucci_base = (pos.to_fen(), record.moves.len() + 1);
        }
        record.moves.push(MoveRecord {
            mv,
            chinese,
            score: thought.score,
            depth: thought.depth,
            time_ms: thought.elapsed_ms,
            book: false,
        });

        // Score adjudication (cutechess semantics).
        let cp = thought.score.map(EngineScore::as_cp);
        last_scores[me.index()] = cp;
        if let Some(d) = settings.draw {
            let in_range = cp.is_some_and(|s| s.abs() <= d.score);
            draw_run = if in_range { draw_run + 1 } else { 0 };
            if pos.fullmove() >= d.move_number && draw_run >= 2 * d.move_count {
                record.detail = format!("both scores within {} for {} moves", d.score, d.move_count);
                break Verdict { result: GameResult::Draw, termination: Termination::AdjudicatedDraw };
            }
        }
        if let Some(r) = settings.resign {
            let other = last_scores[(!me).index()];
            let hopeless = cp.is_some_and(|s| s <= -r.score) && (!r.two_sided || other.is_some_and(|s| s >= r.score));
            resign_run[me.index()] = if hopeless { resign_run[me.index()] + 1 } else { 0 };
            if resign_run[me.index()] >= r.move_count {
                record.detail =
                    format!("{} ({}) score below -{} for {} moves", side_name(me), config.name, r.score, r.move_count);
                break Verdict { result: GameResult::loss_for(me), termination: Termination::AdjudicatedLoss };
            }
        }
    };
    record.referee_us = (started.elapsed().as_micros() as u64).saturating_sub(thinking_us);
    record.result = verdict.result;
    record.termination = verdict.termination;
    record
}

/// ` (had N ms, engine reported M ms)` for time-loss details.
fn time_note(budget: Option<u64>, engine_ms: Option<u64>) -> String {
    match (budget, engine_ms) {
        (Some(b), Some(e)) => format!(" (had {b} ms; its last reported search time {e} ms)"),
        (Some(b), None) => format!(" (had {b} ms)"),
        (None, Some(e)) => format!(" (its last reported search time {e} ms)"),
        (None, None) => String::new(),
    }
}

fn position_command(
    engine: &EngineProcess,
    protocol: Protocol,
    root_fen: &str,
    ucci_base: &(String, usize),
    moves: &[MoveRecord],
) -> String {
    let (fen, from) = match protocol {
        Protocol::Ucci => (ucci_base.0.as_str(), ucci_base.1),
        Protocol::Uci => (root_fen, 0),
    };
    let mut cmd = format!("position fen {fen}");
    if from < moves.len() {
        cmd.push_str(" moves");
        for m in &moves[from..] {
            cmd.push(' ');
            cmd.push_str(&engine.move_text(m.mv));
        }
    }
    cmd
}

impl GameClock {
    /// A clock for a clocked control, `None` otherwise.
    fn new_opt(tc: &Option<TimeControl>) -> Option<GameClock> {
        tc.as_ref().and_then(GameClock::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_lines() {
        let mut c = EngineConfig::new("x");
        c.tc = Some(TimeControl::parse("40/90+1").unwrap());
        let clocks = [GameClock::new_opt(&c.tc), GameClock::new_opt(&c.tc)];
        assert_eq!(
            go_command(&c, Color::Red, &clocks),
            "go time 90000 movestogo 40 increment 1000 opptime 90000 oppmovestogo 40 oppincrement 1000"
        );
        c.protocol = Protocol::Uci;
        assert_eq!(
            go_command(&c, Color::Black, &clocks),
            "go wtime 90000 btime 90000 winc 1000 binc 1000 movestogo 40"
        );
        c.tc = Some(TimeControl::MoveTime(50));
        assert_eq!(go_command(&c, Color::Red, &[None, None]), "go movetime 50");
        c.protocol = Protocol::Ucci;
        assert_eq!(go_command(&c, Color::Red, &[None, None]), "go time 50 movestogo 1");
        c.tc = None;
        c.depth = Some(3);
        c.nodes = Some(1000);
        assert_eq!(go_command(&c, Color::Red, &[None, None]), "go depth 3 nodes 1000");
        assert_eq!(tc_tag(&c), "depth=3 nodes=1000");
    }
}
