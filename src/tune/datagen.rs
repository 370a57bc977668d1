//! Self-play data generation: games from the opening suite (`book/suite.epd`,
//! compiled in) plus a seeded number of random legal plies, both sides
//! searching each move to a fixed node count or depth with a fresh table per
//! game, ended by the rules ([`crate::rules::judge`]) or by score
//! adjudication; every searched position becomes a [`Record`].
//!
//! Game `i` depends only on the configuration and `i` (its opening is suite
//! position `i mod len`, its random plies come from a generator seeded with
//! the seed and `i`), so the games are the same whatever the thread count;
//! [`run`] writes them in index order, each game's lines in one write and
//! flushed, so an interrupted run leaves complete records.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::record::Record;
use crate::board::{Color, EMPTY};
use crate::moves::Move;
use crate::rules::{self, GameResult, Rules};
use crate::search::{Engine, NullReporter, SearchSignals};
use crate::time::SearchLimits;
use crate::tools::game::Opening;

/// How far each move is searched.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    Nodes(u64),
    Depth(u32),
}

/// A data-generation run.
#[derive(Clone, Debug)]
pub struct Config {
    pub games: u64,
    pub limit: Limit,
    pub threads: usize,
    pub seed: u64,
    /// Random legal plies played after the suite position (not recorded).
    pub random_plies: usize,
    /// The random plies are drawn again (up to 8 times, then the game is
    /// skipped) while a search scores the position beyond this.
    pub max_start_score: i32,
    /// Table size per game thread (MB).
    pub hash_mb: usize,
    /// Leave out positions in check, with a capture as best move or a mate score.
    pub quiet_only: bool,
    /// Resign adjudication: |score| >= this for `resign_plies` plies in a row (both sides agreeing).
    pub resign_score: i32,
    pub resign_plies: usize,
    /// Draw adjudication: from `draw_from_ply` on, |score| <= `draw_score` for `draw_plies` plies in a row.
    pub draw_from_ply: usize,
    pub draw_score: i32,
    pub draw_plies: usize,
    /// A game still going after this many searched plies is a draw.
    pub max_plies: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            games: 100,
            limit: Limit::Nodes(5000),
            threads: 1,
            seed: 1,
            random_plies: 2,
            max_start_score: 300,
            hash_mb: 16,
            quiet_only: false,
            resign_score: 1000,
            resign_plies: 6,
            draw_from_ply: 80,
            draw_score: 10,
            draw_plies: 12,
            max_plies: 400,
        }
    }
}

/// How a generated game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// By the rules: the judge's verdict.
    Rules(rules::Outcome),
    /// Both sides' scores beyond the resign threshold: this side lost.
    Resign(Color),
    /// Scores near 0 for long enough.
    AdjudicatedDraw,
    /// The ply cap.
    MaxPlies,
}

/// One generated game. Only `result` and `records` reach the output; the
/// rest is what the tests replay each game from.
#[derive(Clone, Debug)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Game {
    /// The suite position the game started from.
    pub(crate) root_fen: String,
    /// Every move from the root: the random plies, then the searched ones.
    pub(crate) moves: Vec<Move>,
    /// Searched plies start at `moves[random]`.
    pub(crate) random: usize,
    /// Red's points.
    pub(crate) result: f32,
    pub(crate) ending: Ending,
    /// One per searched position (all of them, flags set; [`run`] applies `quiet_only`).
    pub(crate) records: Vec<Record>,
}

/// Draws of the random plies before a game is given up.
const START_ATTEMPTS: usize = 8;

/// The generator of game `index`'s random plies.
fn game_rng(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17))
}

/// Plays game `index`. `None` if `stop` was raised or the opening gave no
/// playable, balanced position (then the game has no records).
pub(crate) fn play_game(
    cfg: &Config,
    index: u64,
    suite: &[Opening],
    engine: &mut Engine,
    stop: &AtomicBool,
) -> Option<Game> {
    let opening = &suite[(index % suite.len() as u64) as usize];
    let mut root = opening.root()?;
    for &m in &opening.moves {
        root.try_make_move(m).ok()?;
    }
    let root_fen = root.to_fen();
    let judge_rules = Rules::default();
    let limits = match cfg.limit {
        Limit::Nodes(n) => SearchLimits { nodes: Some(n.max(1)), ..SearchLimits::default() },
        Limit::Depth(d) => SearchLimits::depth(d.max(1)),
    };
    // Random plies; a draw that leaves the position lopsided (a search
    // scores it beyond `max_start_score`) is drawn again.
    let mut rng = game_rng(cfg.seed, index);
    let (mut pos, mut moves) = (root.clone(), Vec::new());
    let mut balanced = cfg.random_plies == 0;
    for _ in 0..START_ATTEMPTS {
        (pos, moves) = (root.clone(), Vec::new());
        let mut over = false;
        for _ in 0..cfg.random_plies {
            let legal = pos.legal_moves();
            let &m = legal.choose(&mut rng)?;
            pos.make_move(m);
            moves.push(m);
            if rules::judge(&pos, &judge_rules).is_over() {
                over = true;
                break;
            }
        }
        if over {
            continue;
        }
        if cfg.random_plies == 0 {
            break;
        }
        engine.new_game();
        let r = engine.search(&pos, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
        if r.score.0.abs() <= cfg.max_start_score {
            balanced = true;
            break;
        }
    }
    if !balanced {
        return None;
    }
    let random = moves.len();
    engine.new_game();
    let mut records: Vec<Record> = Vec::new();
    let (mut resign_run, mut draw_run) = (0usize, 0usize);
    let mut resign_sign = 0;
    let ending = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let outcome = rules::judge(&pos, &judge_rules);
        if outcome.is_over() {
            break Ending::Rules(outcome);
        }
        if records.len() >= cfg.max_plies {
            break Ending::MaxPlies;
        }
        let r = engine.search(&pos, &limits, None, Arc::new(SearchSignals::default()), &mut NullReporter);
        let Some(best) = r.best else {
            // Not reached: the judge saw the position has legal moves.
            break Ending::Rules(rules::judge(&pos, &judge_rules));
        };
        let red = pos.side_to_move() == Color::Red;
        let score = if red { r.score.0 } else { -r.score.0 };
        records.push(Record {
            fen: pos.to_fen(),
            score,
            best,
            result: 0.5,
            in_check: pos.in_check(),
            capture: pos.board().cell(best.to()) != EMPTY,
            mate: r.score.is_mate(),
            game: index,
        });
        // Adjudication on the scores of consecutive plies (Red's view, so
        // both sides agreeing means the same sign).
        let sign = score.signum();
        if score.abs() >= cfg.resign_score && sign == resign_sign {
            resign_run += 1;
        } else if score.abs() >= cfg.resign_score {
            resign_sign = sign;
            resign_run = 1;
        } else {
            resign_run = 0;
        }
        let searched = records.len();
        if searched + random >= cfg.draw_from_ply && score.abs() <= cfg.draw_score {
            draw_run += 1;
        } else {
            draw_run = 0;
        }
        pos.make_move(best);
        moves.push(best);
        if cfg.resign_plies > 0 && resign_run >= cfg.resign_plies {
            break Ending::Resign(if resign_sign > 0 { Color::Black } else { Color::Red });
        }
        if cfg.draw_plies > 0 && draw_run >= cfg.draw_plies {
            break Ending::AdjudicatedDraw;
        }
    };
    let result = match &ending {
        Ending::Rules(o) => match o.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            _ => 0.5,
        },
        Ending::Resign(Color::Red) => 0.0,
        Ending::Resign(Color::Black) => 1.0,
        Ending::AdjudicatedDraw | Ending::MaxPlies => 0.5,
    };
    for r in &mut records {
        r.result = result;
    }
    Some(Game { root_fen, moves, random, result, ending, records })
}

/// Progress of a run, for the caller to show.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub games_done: u64,
    pub games: u64,
    pub positions: u64,
    pub elapsed: Duration,
}

impl Progress {
    /// Positions written per second.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Estimated time left (from the games' rate).
    pub fn eta(&self) -> Option<Duration> {
        if self.games_done == 0 {
            return None;
        }
        let per_game = self.elapsed.as_secs_f64() / self.games_done as f64;
        Some(Duration::from_secs_f64(per_game * (self.games - self.games_done) as f64))
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    pub red_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    pub interrupted: bool,
    pub elapsed: Duration,
}

/// Plays `cfg.games` games on `cfg.threads` threads and writes their
/// records to `out` in game order (one write and a flush per game).
/// `progress` is called after each game written and about once a second.
/// When `stop` is raised, games in progress are abandoned and the games
/// already finished are written (in order as far as they go, then the rest
/// by index; every record carries its game index). Games whose opening gave
/// no playable position are skipped.
pub fn run(
    cfg: &Config,
    suite: &[Opening],
    out: &mut dyn Write,
    stop: &AtomicBool,
    mut progress: impl FnMut(&Progress),
) -> io::Result<Summary> {
    assert!(!suite.is_empty(), "empty opening suite");
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<(u64, Option<Game>)>();
    let mut summary = Summary::default();
    let mut write_error: Option<io::Error> = None;
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || {
                let mut engine = Engine::new(cfg.hash_mb.max(1), 1);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let game = play_game(cfg, i, suite, &mut engine, stop);
                    if stop.load(Ordering::Relaxed) && game.is_none() {
                        break;
                    }
                    if tx.send((i, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, Option<Game>> = BTreeMap::new();
        let mut expected = 0u64;
        let mut write = |game: Option<Game>, summary: &mut Summary| -> io::Result<()> {
            let Some(g) = game else { return Ok(()) };
            let mut text = String::new();
            let mut n = 0;
            for r in g.records.iter().filter(|r| !cfg.quiet_only || !r.is_noisy()) {
                text.push_str(&r.to_string());
                text.push('\n');
                n += 1;
            }
            out.write_all(text.as_bytes())?;
            out.flush()?;
            summary.games += 1;
            summary.positions += n;
            if g.result == 1.0 {
                summary.red_wins += 1;
            } else if g.result == 0.0 {
                summary.black_wins += 1;
            } else {
                summary.draws += 1;
            }
            Ok(())
        };
        let mut last_report = Instant::now();
        loop {
            let msg = rx.recv_timeout(Duration::from_millis(250));
            match msg {
                Ok((i, g)) => {
                    pending.insert(i, g);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            let mut wrote = false;
            while let Some(g) = pending.remove(&expected) {
                if write_error.is_none() {
                    if let Err(e) = write(g, &mut summary) {
                        write_error = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                expected += 1;
                wrote = true;
            }
            if wrote || last_report.elapsed() >= Duration::from_secs(1) {
                last_report = Instant::now();
                progress(&Progress {
                    games_done: expected,
                    games: cfg.games,
                    positions: summary.positions,
                    elapsed: start.elapsed(),
                });
            }
        }
        // Interrupted: what finished beyond a gap, by index.
        for (_, g) in std::mem::take(&mut pending) {
            if write_error.is_none() {
                if let Err(e) = write(g, &mut summary) {
                    write_error = Some(e);
                }
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    summary.interrupted = stop.load(Ordering::Relaxed);
    summary.elapsed = start.elapsed();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::tools::opening::default_suite;

    fn tiny() -> Config {
        Config { games: 3, limit: Limit::Nodes(200), threads: 2, seed: 5, random_plies: 2, ..Config::default() }
    }

    /// The records parse back into legal positions whose best moves are
    /// legal and link each position to the next; every record of a game has
    /// its result, and the result is what the game's ending says.
    #[test]
    fn tiny_games_write_consistent_records() {
        let suite = default_suite().unwrap();
        let cfg = tiny();
        let stop = AtomicBool::new(false);
        let mut engine = Engine::new(1, 1);
        for index in 0..cfg.games {
            let g = play_game(&cfg, index, &suite, &mut engine, &stop).unwrap();
            assert_eq!(g.moves.len(), g.random + g.records.len());
            // Replay the whole game from the root: the FENs match, and a
            // rules ending is the judge's verdict on the final position.
            let mut pos = Position::from_fen(&g.root_fen).unwrap();
            for (k, &m) in g.moves.iter().enumerate() {
                if k >= g.random {
                    let r = &g.records[k - g.random];
                    let (parsed, at) = Record::parse(&r.to_string()).unwrap();
                    assert_eq!(&parsed, r);
                    assert_eq!(at.to_fen(), pos.to_fen());
                    assert_eq!(r.best, m);
                    assert!(pos.legal_moves().contains(&m));
                    assert_eq!(r.result, g.result);
                    assert_eq!(r.in_check, pos.in_check());
                    assert_eq!(r.capture, pos.board().cell(m.to()) != EMPTY);
                }
                pos.make_move(m);
            }
            let verdict = rules::judge(&pos, &Rules::default());
            match &g.ending {
                Ending::Rules(o) => assert_eq!(*o, verdict),
                Ending::Resign(loser) => {
                    assert!(!verdict.is_over());
                    let last = &g.records[g.records.len() - cfg.resign_plies..];
                    let want = if *loser == Color::Red { 0.0 } else { 1.0 };
                    assert_eq!(g.result, want);
                    assert!(last
                        .iter()
                        .all(|r| r.score.abs() >= cfg.resign_score && (r.score > 0) == (*loser == Color::Black)));
                }
                Ending::AdjudicatedDraw => {
                    assert_eq!(g.result, 0.5);
                    let last = &g.records[g.records.len() - cfg.draw_plies..];
                    assert!(last.iter().all(|r| r.score.abs() <= cfg.draw_score));
                }
                Ending::MaxPlies => assert_eq!(g.records.len(), cfg.max_plies),
            }
        }
    }

    /// The file is the same for a seed whatever the thread count, and
    /// another seed gives other games.
    #[test]
    fn output_is_deterministic() {
        let suite = default_suite().unwrap();
        let stop = AtomicBool::new(false);
        let mut runs = Vec::new();
        for (threads, seed) in [(1, 5), (2, 5), (2, 6)] {
            let cfg = Config { games: 3, threads, seed, max_plies: 30, ..tiny() };
            let mut out = Vec::new();
            let s = run(&cfg, &suite, &mut out, &stop, |_| {}).unwrap();
            assert_eq!(s.games, 3);
            assert!(!s.interrupted);
            let text = String::from_utf8(out).unwrap();
            assert_eq!(text.lines().count() as u64, s.positions);
            let games: Vec<u64> = text.lines().map(|l| Record::parse(l).unwrap().0.game).collect();
            assert!(games.windows(2).all(|w| w[0] <= w[1]), "game order");
            runs.push(text);
        }
        assert_eq!(runs[0], runs[1]);
        assert_ne!(runs[1], runs[2]);
    }

    #[test]
    fn a_raised_stop_flag_ends_the_run_cleanly() {
        let suite = default_suite().unwrap();
        let stop = AtomicBool::new(true);
        let mut out = Vec::new();
        let s = run(&Config { games: 50, ..tiny() }, &suite, &mut out, &stop, |_| {}).unwrap();
        assert!(s.interrupted);
        assert_eq!(s.games, 0);
        assert!(out.is_empty());
    }
}
