//! Running a whole match: the schedule (round-robin, gauntlet, knockout), a
//! pool of worker threads (`-concurrency`) that each keep their own engine
//! processes, result bookkeeping (W-D-L, pentanomial pairs, SPRT, termination
//! counts), PGN output, progress lines and the final [`Report`].
//!
//! The library never prints: progress goes to a [`MatchObserver`] (the CLI
//! prints it); the PGN file is appended to as games finish.

use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Write as _};
use std::fs::OpenOptions;
use std::io::Write;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::board::Color;

use super::adjudicate::{GameResult, Termination};
use super::args::{MatchConfig, TournamentKind};
use super::engine::{EngineConfig, EngineError, EngineProcess};
use super::game::{self, GameRecord, GameSettings, Opening, Seat};
use super::opening::{self, OpeningError};
use super::pgn;
use super::stats::{Pentanomial, Sprt, SprtVerdict, Wdl};
use super::MatchRng;

/// Receives what happens during a match (the CLI prints it).
pub trait MatchObserver {
    /// A game finished; `progress` is the one-line summary after it.
    fn game_finished(&mut self, record: &GameRecord, progress: &str);
    /// A rating table every `-ratinginterval` games, and other notes.
    fn note(&mut self, text: &str);
}

/// An observer that ignores everything.
pub struct Silent;

impl MatchObserver for Silent {
    fn game_finished(&mut self, _: &GameRecord, _: &str) {}
    fn note(&mut self, _: &str) {}
}

/// A match that could not run at all.
#[derive(Debug)]
pub enum MatchError {
    Openings(OpeningError),
    PgnOut(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Openings(e) => e.fmt(f),
            MatchError::PgnOut(e) => write!(f, "cannot write PGN: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}

#[derive(Clone, Debug)]
struct Job {
    seq: usize,
    red: usize,
    black: usize,
    opening: Opening,
    round: u32,
    /// Pair id for pentanomial statistics (two games of one opening, colours swapped).
    pair: Option<usize>,
}

/// The worker pool: jobs in, finished games out.
struct Pool {
    job_tx: Option<mpsc::Sender<Job>>,
    result_rx: mpsc::Receiver<(Job, GameRecord)>,
    handles: Vec<thread::JoinHandle<()>>,
}

impl Pool {
    fn new(concurrency: usize, engines: Arc<Vec<EngineConfig>>, settings: Arc<GameSettings>) -> Pool {
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        let (result_tx, result_rx) = mpsc::channel();
        let handles = (0..concurrency)
            .map(|_| {
                let (job_rx, result_tx) = (Arc::clone(&job_rx), result_tx.clone());
                let (engines, settings) = (Arc::clone(&engines), Arc::clone(&settings));
                thread::spawn(move || worker(&job_rx, &result_tx, &engines, &settings))
            })
            .collect();
        Pool { job_tx: Some(job_tx), result_rx, handles }
    }

    fn submit(&self, job: Job) {
        if let Some(tx) = &self.job_tx {
            let _ = tx.send(job);
        }
    }

    fn next(&self) -> Option<(Job, GameRecord)> {
        self.result_rx.recv().ok()
    }

    fn close(mut self) {
        self.job_tx = None;
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

fn worker(
    jobs: &Mutex<mpsc::Receiver<Job>>,
    results: &mpsc::Sender<(Job, GameRecord)>,
    configs: &[EngineConfig],
    settings: &GameSettings,
) {
    let mut engines: HashMap<usize, EngineProcess> = HashMap::new();
    loop {
        let job = match jobs.lock() {
            Ok(rx) => match rx.recv() {
                Ok(j) => j,
                Err(_) => break,
            },
            Err(_) => break,
        };
        let record = run_job(&job, configs, settings, &mut engines);
        for f in &record.faulty {
            if let Some(e) = engines.remove(f) {
                e.quit(Duration::from_millis(100));
            }
        }
        if results.send((job, record)).is_err() {
            break;
        }
    }
    for (_, e) in engines.drain() {
        e.quit(Duration::from_millis(500));
    }
}

fn failed_record(job: &Job, configs: &[EngineConfig], loser: usize, error: &EngineError) -> GameRecord {
    let loser_color = if loser == job.red { Color::Red } else { Color::Black };
    let termination = match error {
        EngineError::Disconnected => Termination::Crash,
        _ => Termination::StartFailure,
    };
    GameRecord {
        red: job.red,
        black: job.black,
        red_name: configs[job.red].name.clone(),
        black_name: configs[job.black].name.clone(),
        fen: job.opening.fen.clone(),
        opening: job.opening.name.clone(),
        moves: Vec::new(),
        result: GameResult::loss_for(loser_color),
        termination,
        detail: format!("{}: {error}", configs[loser].name),
        tc_tags: [game::tc_tag(&configs[job.red]), game::tc_tag(&configs[job.black])],
        faulty: vec![loser],
        engine_moves: 0,
        referee_us: 0,
        gap_us: 0,
        gap_max_us: 0,
        gap_moves: 0,
    }
}

fn run_job(
    job: &Job,
    configs: &[EngineConfig],
    settings: &GameSettings,
    engines: &mut HashMap<usize, EngineProcess>,
) -> GameRecord {
    for idx in [job.red, job.black] {
        if let std::collections::hash_map::Entry::Vacant(slot) = engines.entry(idx) {
            match EngineProcess::start(&configs[idx]) {
                Ok(e) => {
                    slot.insert(e);
                }
                Err(e) => return failed_record(job, configs, idx, &e),
            }
        }
        let init = configs[idx].init_timeout_ms;
        if let Some(engine) = engines.get_mut(&idx) {
            if let Err(e) = engine.new_game(init) {
                return failed_record(job, configs, idx, &e);
            }
        }
    }
    // Both are present now; take them out to hold two mutable borrows.
    let (Some(mut red), Some(mut black)) = (engines.remove(&job.red), engines.remove(&job.black)) else {
        return failed_record(job, configs, job.red, &EngineError::Disconnected);
    };
    let record = game::play(
        [
            Seat { index: job.red, config: &configs[job.red], engine: &mut red },
            Seat { index: job.black, config: &configs[job.black], engine: &mut black },
        ],
        &job.opening,
        settings,
    );
    engines.insert(job.red, red);
    engines.insert(job.black, black);
    record
}

/// One knockout mini-match (docs/rules.md section 5: best of three, an extra
/// decisive game or a lot on a tie).
#[derive(Clone, Debug)]
struct MiniMatch {
    pub(crate) players: [usize; 2],
    pub(crate) points: [f64; 2],
    pub(crate) games: u32,
    /// Whether `players[0]` had Red in the first game (by lot).
    first_red: bool,
    pub(crate) winner: Option<usize>,
    /// Decided by lot after a drawn extra game.
    pub(crate) by_lot: bool,
}

impl MiniMatch {
    fn next_colours(&self, rng: &mut MatchRng) -> (usize, usize) {
        let a_red = if self.games == 3 { rng.gen::<bool>() } else { self.games.is_multiple_of(2) == self.first_red };
        if a_red {
            (self.players[0], self.players[1])
        } else {
            (self.players[1], self.players[0])
        }
    }

    fn record(&mut self, rec: &GameRecord, rng: &mut MatchRng) {
        for (k, &p) in self.players.iter().enumerate() {
            let color = if rec.red == p { Color::Red } else { Color::Black };
            self.points[k] += rec.result.points_for(color);
        }
        self.games += 1;
        let diff = self.points[0] - self.points[1];
        if self.games <= 3 {
            let left = 3 - self.games;
            if diff.abs() > left as f64 {
                self.winner = Some(if diff > 0.0 { self.players[0] } else { self.players[1] });
            }
        } else if rec.result != GameResult::Draw {
            let winner_color = if rec.result == GameResult::RedWins { rec.red } else { rec.black };
            self.winner = Some(winner_color);
        } else {
            self.by_lot = true;
            self.winner = Some(self.players[rng.gen_range(0..2)]);
        }
    }
}

/// Per-engine and per-match results; `Display` is the final report.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub(crate) names: Vec<String>,
    /// Per engine, against everyone.
    pub totals: Vec<Wdl>,
    /// Per ordered pair (i < j): i's results against j.
    pub(crate) pairs: BTreeMap<(usize, usize), Wdl>,
    /// Engine 0's pentanomial table against engine 1 (two-engine matches with `-repeat`).
    pub(crate) pentanomial: Option<Pentanomial>,
    pub sprt: Option<Sprt>,
    /// The SPRT verdict when it was reached (`Continue` if never).
    pub sprt_verdict: Option<SprtVerdict>,
    pub terminations: BTreeMap<Termination, u32>,
    pub games: u32,
    /// Knockout bracket lines.
    pub knockout: Vec<String>,
    /// Why the match stopped early, if it did.
    pub stopped: Option<String>,
    /// Whether it stopped because an engine failed (crash, hang, start) without `-recover`.
    pub stopped_by_fault: bool,
    /// Referee overhead: microseconds and engine moves over games that ended normally.
    pub(crate) referee_us: u64,
    pub(crate) referee_moves: u64,
    /// Clock gap (referee time minus the engine's reported search time), see [`GameRecord::gap_us`].
    pub(crate) gap_us: u64,
    pub(crate) gap_max_us: u64,
    pub(crate) gap_moves: u64,
}

impl Report {
    fn new(names: Vec<String>) -> Report {
        let n = names.len();
        Report { names, totals: vec![Wdl::default(); n], ..Report::default() }
    }

    fn add(&mut self, rec: &GameRecord) {
        self.games += 1;
        *self.terminations.entry(rec.termination).or_insert(0) += 1;
        if rec.termination == Termination::Aborted {
            // No result: counted as played, not scored.
            return;
        }
        for (idx, color) in [(rec.red, Color::Red), (rec.black, Color::Black)] {
            let t = &mut self.totals[idx];
            match rec.result.points_for(color) {
                p if p > 0.75 => t.wins += 1,
                p if p < 0.25 => t.losses += 1,
                _ => t.draws += 1,
            }
        }
        let (i, j, color_i) =
            if rec.red < rec.black { (rec.red, rec.black, Color::Red) } else { (rec.black, rec.red, Color::Black) };
        let w = self.pairs.entry((i, j)).or_default();
        match rec.result.points_for(color_i) {
            p if p > 0.75 => w.wins += 1,
            p if p < 0.25 => w.losses += 1,
            _ => w.draws += 1,
        }
        let normal = !matches!(
            rec.termination,
            Termination::TimeForfeit
                | Termination::Crash
                | Termination::Stall
                | Termination::StartFailure
                | Termination::Aborted
        );
        if normal {
            self.referee_us += rec.referee_us;
            self.referee_moves += rec.engine_moves as u64;
        }
        self.gap_us += rec.gap_us;
        self.gap_max_us = self.gap_max_us.max(rec.gap_max_us);
        self.gap_moves += rec.gap_moves as u64;
    }

    /// Engine 0 against engine 1 (two-engine matches).
    pub fn head_to_head(&self) -> Wdl {
        self.pairs.get(&(0, 1)).copied().unwrap_or_default()
    }

    /// The SPRT LLR now (pentanomial when pairs exist).
    pub fn llr(&self) -> Option<f64> {
        let s = self.sprt?;
        Some(match &self.pentanomial {
            Some(p) if p.pairs() > 0 => p.llr(s.elo0, s.elo1),
            _ => self.head_to_head().llr(s.elo0, s.elo1),
        })
    }

    /// The one-line progress summary.
    fn progress_line(&self, total: Option<u32>) -> String {
        let mut s = match total {
            Some(t) => format!("Games {}/{}", self.games, t),
            None => format!("Games {}", self.games),
        };
        if self.names.len() == 2 {
            let w = self.head_to_head();
            let _ = write!(
                s,
                ": {} vs {}: {}-{}-{} [{:.3}]",
                self.names[0],
                self.names[1],
                w.wins,
                w.draws,
                w.losses,
                w.score()
            );
            if let Some(e) = w.elo() {
                let _ = write!(s, " Elo {} ± {}", fmt_elo(e.elo), fmt_elo(e.error));
            }
        } else {
            let leader =
                (0..self.names.len()).max_by(|&a, &b| self.totals[a].points().total_cmp(&self.totals[b].points()));
            if let Some(l) = leader {
                let _ =
                    write!(s, ": leader {} {:.1}/{}", self.names[l], self.totals[l].points(), self.totals[l].games());
            }
        }
        if let (Some(llr), Some(sp)) = (self.llr(), self.sprt) {
            let (lo, hi) = sp.bounds();
            let _ = write!(s, " LLR {llr:.2} ({lo:.2}, {hi:.2})");
        }
        s
    }

    /// The rating table (per engine, plus pairwise for two engines).
    fn rating_table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<4} {:<24} {:>8} {:>9} {:>6} {:>16} {:>7} {:>6}",
            "Rank", "Name", "Elo", "+/-", "Games", "W-D-L", "Score", "Draw"
        );
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| self.totals[b].score().total_cmp(&self.totals[a].score()));
        for (rank, &i) in order.iter().enumerate() {
            let t = self.totals[i];
            let (elo, err) = t.elo().map(|e| (fmt_elo(e.elo), fmt_elo(e.error))).unwrap_or(("-".into(), "-".into()));
            let _ = writeln!(
                s,
                "{:<4} {:<24} {:>8} {:>9} {:>6} {:>16} {:>6.1}% {:>5.1}%",
                rank + 1,
                self.names[i],
                elo,
                err,
                t.games(),
                format!("{}-{}-{}", t.wins, t.draws, t.losses),
                100.0 * t.score(),
                100.0 * t.draw_ratio()
            );
        }
        s
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        // `+ 0.0` turns -0.0 into 0.0.
        format!("{:.1}", x + 0.0)
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Final report: {} games", self.games)?;
        f.write_str(&self.rating_table())?;
        for (&(i, j), w) in &self.pairs {
            write!(
                f,
                "{} vs {}: W-D-L {}-{}-{}, score {:.1}/{} ({:.1}%)",
                self.names[i],
                self.names[j],
                w.wins,
                w.draws,
                w.losses,
                w.points(),
                w.games(),
                100.0 * w.score()
            )?;
            if let Some(e) = w.elo() {
                write!(f, ", Elo {} ± {} (95%)", fmt_elo(e.elo), fmt_elo(e.error))?;
            }
            writeln!(f, ", LOS {:.1}%, draw ratio {:.1}%", 100.0 * w.los(), 100.0 * w.draw_ratio())?;
        }
        if let Some(p) = &self.pentanomial {
            if p.pairs() > 0 {
                let q = p.0;
                write!(
                    f,
                    "Pentanomial [LL, LD, DD+WL, WD, WW] = [{}, {}, {}, {}, {}] over {} pairs",
                    q[0],
                    q[1],
                    q[2],
                    q[3],
                    q[4],
                    p.pairs()
                )?;
                if let Some(e) = p.elo() {
                    write!(f, ", Elo {} ± {} (95%)", fmt_elo(e.elo), fmt_elo(e.error))?;
                }
                writeln!(f)?;
            }
        }
        if let (Some(s), Some(llr)) = (self.sprt, self.llr()) {
            let (lo, hi) = s.bounds();
            let verdict = match self.sprt_verdict.unwrap_or(SprtVerdict::Continue) {
                SprtVerdict::AcceptH1 => "H1 accepted",
                SprtVerdict::AcceptH0 => "H0 accepted",
                SprtVerdict::Continue => "inconclusive",
            };
            writeln!(
                f,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} (bounds {:.3}, {:.3}): {verdict}",
                s.elo0, s.elo1, s.alpha, s.beta, llr, lo, hi
            )?;
        }
        if !self.knockout.is_empty() {
            writeln!(f, "Knockout:")?;
            for line in &self.knockout {
                writeln!(f, "  {line}")?;
            }
        }
        write!(f, "Terminations:")?;
        for (t, n) in &self.terminations {
            write!(f, " {}: {n};", t.text())?;
        }
        writeln!(f)?;
        if self.referee_moves > 0 {
            writeln!(
                f,
                "Referee overhead: {:.3} ms per move over {} moves",
                self.referee_us as f64 / 1000.0 / self.referee_moves as f64,
                self.referee_moves
            )?;
        }
        if self.gap_moves > 0 {
            writeln!(
                f,
                "Clock gap (referee move time minus the engine's reported search time): mean {:.3} ms, max {:.3} ms over {} moves",
                self.gap_us as f64 / 1000.0 / self.gap_moves as f64,
                self.gap_max_us as f64 / 1000.0,
                self.gap_moves
            )?;
        }
        if let Some(why) = &self.stopped {
            writeln!(f, "Stopped early: {why}")?;
        }
        Ok(())
    }
}

/// Bookkeeping around the pool while a match runs.
struct Runner<'a> {
    cfg: &'a MatchConfig,
    report: Report,
    observer: &'a mut dyn MatchObserver,
    pgn: Option<std::fs::File>,
    pair_scores: HashMap<usize, Vec<(usize, f64)>>,
    date: String,
    total: Option<u32>,
}

impl Runner<'_> {
    fn finish(&mut self, job: &Job, rec: &GameRecord) -> Result<(), MatchError> {
        self.report.add(rec);
        if let Some(file) = &mut self.pgn {
            let round = format!("{}.{}", job.round + 1, job.seq + 1);
            file.write_all(
                pgn::game_to_pgn_in(rec, &self.cfg.event, &round, &self.date, self.cfg.pgn_notation).as_bytes(),
            )
            .map_err(|e| MatchError::PgnOut(e.to_string()))?;
        }
        if let Some(pair) = job.pair {
            let score0 =
                if rec.red == 0 { rec.result.points_for(Color::Red) } else { rec.result.points_for(Color::Black) };
            let v = self.pair_scores.entry(pair).or_default();
            v.push((job.seq, score0));
            if v.len() == 2 {
                let (a, b) = (v[0].1, v[1].1);
                self.report.pentanomial.get_or_insert_with(Pentanomial::default).add_pair(a, b);
            }
        }
        if let (Some(s), Some(llr)) = (self.report.sprt, self.report.llr()) {
            if self.report.sprt_verdict.unwrap_or(SprtVerdict::Continue) == SprtVerdict::Continue {
                let v = s.verdict(llr);
                self.report.sprt_verdict = Some(v);
                if v != SprtVerdict::Continue {
                    self.report.stopped = Some(format!("SPRT finished (LLR {llr:.3})"));
                }
            }
        }
        if !rec.faulty.is_empty() && !self.cfg.recover && self.report.stopped.is_none() {
            self.report.stopped = Some(format!("{} (use -recover to restart engines and go on)", rec.detail));
            self.report.stopped_by_fault = true;
        }
        let line = self.report.progress_line(self.total);
        self.observer.game_finished(rec, &line);
        let interval = self.cfg.rating_interval;
        if interval > 0 && self.report.games.is_multiple_of(interval) {
            let table = self.report.rating_table();
            self.observer.note(&table);
        }
        Ok(())
    }

    /// Runs `jobs` with at most `concurrency` in flight; stops submitting once
    /// the match is stopped. Returns the finished games in job order.
    fn run_batch(&mut self, pool: &Pool, jobs: Vec<Job>) -> Result<Vec<(Job, GameRecord)>, MatchError> {
        let mut queue = jobs.into_iter();
        let mut in_flight = 0;
        let mut done = Vec::new();
        let mut failure = None;
        loop {
            while in_flight < self.cfg.concurrency && self.report.stopped.is_none() && failure.is_none() {
                match queue.next() {
                    Some(j) => {
                        pool.submit(j);
                        in_flight += 1;
                    }
                    None => break,
                }
            }
            if in_flight == 0 {
                break;
            }
            let Some((job, rec)) = pool.next() else { break };
            in_flight -= 1;
            if failure.is_none() {
                if let Err(e) = self.finish(&job, &rec) {
                    failure = Some(e);
                }
            }
            done.push((job, rec));
        }
        if let Some(e) = failure {
            return Err(e);
        }
        done.sort_by_key(|(j, _)| j.seq);
        Ok(done)
    }
}

/// Runs the match and returns the final report.
pub fn run(cfg: &MatchConfig, observer: &mut dyn MatchObserver) -> Result<Report, MatchError> {
    let openings = match &cfg.openings {
        _ if cfg.start_position_only => vec![Opening::default()],
        Some(spec) => opening::load(spec, cfg.seed).map_err(MatchError::Openings)?,
        None => opening::default_suite().map_err(MatchError::Openings)?,
    };
    let pgn = match &cfg.pgn_out {
        Some(path) => Some({
            // A FIFO would block the open until someone reads it, a directory cannot be written.
            if let Ok(meta) = std::fs::metadata(path) {
                use std::os::unix::fs::FileTypeExt;
                let t = meta.file_type();
                if t.is_dir() || t.is_fifo() || t.is_socket() {
                    return Err(MatchError::PgnOut(format!("{}: not a regular file", path.display())));
                }
            }
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| MatchError::PgnOut(format!("{}: {e}", path.display())))?
        }),
        None => None,
    };
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let mut report = Report::new(names);
    report.sprt = cfg.sprt;
    let mut runner =
        Runner { cfg, report, observer, pgn, pair_scores: HashMap::new(), date: pgn::today(), total: None };
    let pool = Pool::new(cfg.concurrency, Arc::new(cfg.engines.clone()), Arc::new(cfg.game.clone()));
    let mut rng = MatchRng::seed_from_u64(cfg.seed);
    let mut next_opening = 0usize;
    let mut take_opening = || {
        let o = openings[next_opening % openings.len()].clone();
        next_opening += 1;
        o
    };
    let result = match cfg.tournament {
        TournamentKind::RoundRobin | TournamentKind::Gauntlet => {
            let n = cfg.engines.len();
            let encounters: Vec<(usize, usize)> = if cfg.tournament == TournamentKind::Gauntlet {
                (1..n).map(|j| (0, j)).collect()
            } else {
                (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
            };
            let mut jobs = Vec::new();
            let mut pair_id = 0;
            for round in 0..cfg.rounds {
                for &(i, j) in &encounters {
                    let mut opening = Opening::default();
                    for g in 0..cfg.games {
                        let (red, black) = if g % 2 == 0 { (i, j) } else { (j, i) };
                        let pair = if cfg.repeat {
                            if g % 2 == 0 {
                                opening = take_opening();
                                pair_id += 1;
                            }
                            // Pentanomial pairs only when the second game exists.
                            (g + 1 < cfg.games || g % 2 == 1).then_some(pair_id)
                        } else {
                            opening = take_opening();
                            None
                        };
                        let pair = if n == 2 { pair } else { None };
                        jobs.push(Job { seq: jobs.len(), red, black, opening: opening.clone(), round, pair });
                    }
                }
            }
            runner.total = Some(jobs.len() as u32);
            runner.run_batch(&pool, jobs).map(|_| ())
        }
        TournamentKind::Knockout => run_knockout(&mut runner, &pool, &mut rng, &mut take_opening),
    };
    pool.close();
    result?;
    Ok(runner.report)
}

fn run_knockout(
    runner: &mut Runner<'_>,
    pool: &Pool,
    rng: &mut MatchRng,
    take_opening: &mut dyn FnMut() -> Opening,
) -> Result<(), MatchError> {
    let mut players: Vec<usize> = (0..runner.cfg.engines.len()).collect();
    let mut round = 0u32;
    let mut seq = 0usize;
    while players.len() > 1 && runner.report.stopped.is_none() {
        // Random pairing; the odd player out gets a bye and advances.
        players.shuffle(rng);
        let bye = if players.len() % 2 == 1 { players.pop() } else { None };
        let mut matches: Vec<MiniMatch> = players
            .chunks(2)
            .map(|c| MiniMatch {
                players: [c[0], c[1]],
                points: [0.0; 2],
                games: 0,
                first_red: rng.gen::<bool>(),
                winner: None,
                by_lot: false,
            })
            .collect();
        while matches.iter().any(|m| m.winner.is_none()) && runner.report.stopped.is_none() {
            let mut jobs = Vec::new();
            let mut owners = Vec::new();
            for (k, m) in matches.iter().enumerate() {
                if m.winner.is_none() {
                    let (red, black) = m.next_colours(rng);
                    jobs.push(Job { seq, red, black, opening: take_opening(), round, pair: None });
                    owners.push((seq, k));
                    seq += 1;
                }
            }
            for (job, rec) in runner.run_batch(pool, jobs)? {
                if let Some(&(_, k)) = owners.iter().find(|(s, _)| *s == job.seq) {
                    matches[k].record(&rec, rng);
                }
            }
        }
        let names = &runner.report.names;
        let mut next: Vec<usize> = Vec::new();
        for m in &matches {
            let [a, b] = m.players;
            let line = format!(
                "round {}: {} {}-{} {}{}",
                round + 1,
                names[a],
                m.points[0],
                m.points[1],
                names[b],
                match m.winner {
                    Some(w) => format!(" -> {}{}", names[w], if m.by_lot { " (by lot)" } else { "" }),
                    None => " (unfinished)".into(),
                }
            );
            runner.report.knockout.push(line);
            if let Some(w) = m.winner {
                next.push(w);
            }
        }
        if let Some(b) = bye {
            runner.report.knockout.push(format!("round {}: {} has a bye", round + 1, names[b]));
            next.push(b);
        }
        players = next;
        round += 1;
    }
    if players.len() == 1 && runner.report.stopped.is_none() {
        let w = runner.report.names[players[0]].clone();
        runner.report.knockout.push(format!("winner: {w}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(red: usize, black: usize, result: GameResult) -> GameRecord {
        GameRecord {
            red,
            black,
            red_name: String::new(),
            black_name: String::new(),
            fen: None,
            opening: None,
            moves: Vec::new(),
            result,
            termination: Termination::Checkmate,
            detail: String::new(),
            tc_tags: [String::new(), String::new()],
            faulty: Vec::new(),
            engine_moves: 10,
            referee_us: 1000,
            gap_us: 3000,
            gap_max_us: 900,
            gap_moves: 10,
        }
    }

    #[test]
    fn report_counts_both_sides() {
        let mut r = Report::new(vec!["a".into(), "b".into()]);
        r.add(&rec(0, 1, GameResult::RedWins));
        r.add(&rec(1, 0, GameResult::RedWins));
        r.add(&rec(1, 0, GameResult::Draw));
        assert_eq!(r.head_to_head(), Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(r.totals[1], Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(r.terminations[&Termination::Checkmate], 3);
        let mut aborted = rec(0, 1, GameResult::Draw);
        aborted.termination = Termination::Aborted;
        r.add(&aborted);
        assert_eq!((r.games, r.head_to_head().games()), (4, 3));
        let text = r.to_string();
        assert!(text.contains("a vs b: W-D-L 1-1-1"), "{text}");
        assert!(text.contains("Referee overhead: 0.100 ms per move"), "{text}");
        assert!(text.contains("mean 0.300 ms, max 0.900 ms over 30 moves"), "{text}");
    }

    #[test]
    fn mini_match_best_of_three() {
        let mut rng = MatchRng::seed_from_u64(3);
        let mut m =
            MiniMatch { players: [4, 7], points: [0.0; 2], games: 0, first_red: true, winner: None, by_lot: false };
        assert_eq!(m.next_colours(&mut rng), (4, 7));
        m.record(&rec(4, 7, GameResult::RedWins), &mut rng);
        assert_eq!(m.next_colours(&mut rng), (7, 4));
        m.record(&rec(7, 4, GameResult::BlackWins), &mut rng);
        assert_eq!(m.winner, Some(4));
        // Tie after three games: an extra game decides; a drawn extra game goes to lot.
        let mut m =
            MiniMatch { players: [1, 2], points: [0.0; 2], games: 0, first_red: false, winner: None, by_lot: false };
        m.record(&rec(2, 1, GameResult::RedWins), &mut rng);
        m.record(&rec(1, 2, GameResult::RedWins), &mut rng);
        m.record(&rec(2, 1, GameResult::Draw), &mut rng);
        assert_eq!((m.winner, m.games), (None, 3));
        m.record(&rec(1, 2, GameResult::Draw), &mut rng);
        assert!(m.by_lot && m.winner.is_some());
        let mut m =
            MiniMatch { players: [1, 2], points: [1.5; 2], games: 3, first_red: false, winner: None, by_lot: false };
        m.record(&rec(1, 2, GameResult::BlackWins), &mut rng);
        assert_eq!((m.winner, m.by_lot), (Some(2), false));
    }
}
