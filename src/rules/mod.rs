//! Game-end rules (docs/rules.md sections 2-4): checkmate and stalemate (no legal
//! move loses, section 2), repetition verdicts for perpetual check, chase and
//! (Chinese rules) mate threat under the Asian and Chinese rules (section 3:
//! [`repetition`], with the move classification in [`chase`] and the
//! explanation of a verdict in [`explain`]), the nine-round rule (3.3), the
//! natural move limit (自然限着) with the Asian check cap (section 4), and dead
//! draws (section 2: no piece able to cross the river and mate).
//!
//! Approximations, each stated in docs/rules.md beside its rule: dead draws are
//! only the constellations of [`is_dead_draw`] (2); the nine-round rule counts
//! attacking moves only and reads "the same pieces" as pieces that each make at
//! least two of the nine moves ([`nine_round_violator`], 3.3); checks made
//! before the FEN that starts the natural-limit count are not capped (4); and
//! those of the classification ([`chase`]).
//!
//! The public entry points are [`judge`] (the verdict at the current position
//! of a game history held by a [`Position`], for the match runner after each
//! move), [`judge_game`] (the first end of a game record given as FEN + ICCS
//! text, for the `judge` subcommand; typed errors), [`forbidden_moves`]
//! (moves that would complete a repetition the mover loses: UCCI `banmoves`
//! and the search root) and, for the search, [`RepetitionDetector`] (O(1)
//! in the common case; see its documentation for the score contract) and
//! [`natural_limit_reached`] (O(1) below 120 plies since the last capture).
//!
//! This module never searches, prints or keeps state between calls; it does
//! not wire itself into the search or the protocol.
//!
//! ```
//! use chuhan::rules::{judge_moves, RuleSet, Rules};
//!
//! // docs/rules.md 3.4 T01: red checks with the chariot forever and must lose.
//! let fen = "3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1";
//! let moves = "i0i9 d9d8 i9i8 d8d9 i8i9 d9d8 i9i8 d8d9 i8i9";
//! let outcome = judge_moves(fen, false, moves.split_whitespace(), &Rules::from(RuleSet::Asian)).unwrap();
//! assert_eq!(outcome.to_string(), "0-1 perpetual check by red");
//! ```

pub mod chase;
pub mod explain;
pub mod repetition;

use std::fmt;

use arrayvec::ArrayVec;

use crate::board::{Board, Color, PieceKind, Square};
use crate::fen::{FenError, Setup};
use crate::moves::{Move, MoveList};
use crate::position::{MoveError, Position};
pub use repetition::{RepetitionDetector, RepetitionVerdict, RuleSet, SpanVerdict, Violation};

/// Natural move limit in plies (docs/rules.md 4: 60 moves by both sides).
pub(crate) const NATURAL_LIMIT_PLIES: u32 = 120;
/// Checks per side since the last capture that count towards the natural
/// limit under the Asian policy (docs/rules.md 4).
pub(crate) const COUNTED_CHECKS: u32 = 10;
/// Moves of one piece in the nine-round rule (docs/rules.md 3.3).
pub(crate) const NINE_ROUNDS: usize = 9;

/// How the natural move limit counts plies (docs/rules.md 4).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum LimitPolicy {
    /// Only the first [`COUNTED_CHECKS`] checks per side since the last
    /// capture count; further checks and the replies to them do not.
    #[default]
    CheckCap,
    /// Every ply counts.
    Plain,
}

impl LimitPolicy {
    /// Parses `capped`/`asian` or `plain`.
    pub fn parse(text: &str) -> Option<LimitPolicy> {
        match text.trim().to_ascii_lowercase().as_str() {
            "capped" | "cap" | "checkcap" | "asian" => Some(LimitPolicy::CheckCap),
            "plain" => Some(LimitPolicy::Plain),
            _ => None,
        }
    }
}

/// The rules a game is judged by.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Repetition rules.
    pub set: RuleSet,
    /// Natural-limit counting.
    pub limit: LimitPolicy,
}

impl From<RuleSet> for Rules {
    fn from(set: RuleSet) -> Rules {
        Rules { set, limit: LimitPolicy::default() }
    }
}

/// The result of a game, as PGN writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`.
    Ongoing,
}

impl GameResult {
    /// The PGN result token.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Ongoing => "*",
        }
    }

    /// The win for `color`.
    pub(crate) const fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The loss for `color` (the win for the other side).
    pub const fn loss_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::BlackWins,
            Color::Black => GameResult::RedWins,
        }
    }

    /// The points `color` scores: 1 for a win, 0.5 for a draw, 0 for a loss
    /// (and 0 while the game is ongoing).
    pub(crate) fn points_for(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Why a game ended (or did not).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move (a loss, docs/rules.md 2).
    Stalemate,
    /// A forbidden perpetual (or nine-round) by the given side.
    Violation { by: Color, violation: Violation },
    /// A repetition in which neither or both sides broke the rules.
    Repetition,
    /// 120 plies without capture (docs/rules.md 4).
    NaturalMoveLimit,
    /// Neither side can win (docs/rules.md 2).
    InsufficientMaterial,
    /// The game goes on.
    Ongoing,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Checkmate => f.write_str("checkmate"),
            Reason::Stalemate => f.write_str("stalemate"),
            Reason::Violation { by, violation } => write!(f, "{} by {by}", violation.name()),
            Reason::Repetition => f.write_str("repetition"),
            Reason::NaturalMoveLimit => f.write_str("natural move limit"),
            Reason::InsufficientMaterial => f.write_str("insufficient material"),
            Reason::Ongoing => f.write_str("ongoing"),
        }
    }
}

/// A verdict on a game: result and reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The result.
    pub result: GameResult,
    /// Why.
    pub reason: Reason,
}

impl Outcome {
    /// The game goes on.
    pub const ONGOING: Outcome = Outcome { result: GameResult::Ongoing, reason: Reason::Ongoing };

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.result != GameResult::Ongoing
    }

    fn draw(reason: Reason) -> Outcome {
        Outcome { result: GameResult::Draw, reason }
    }
}

impl fmt::Display for Outcome {
    /// The judge line: `0-1 perpetual check by red`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result.pgn(), self.reason)
    }
}

/// The verdict on the game whose history `pos` holds (its state stack from
/// the root), judged at its current position, in this order:
/// 1. no legal move: the side to move loses (checkmate or stalemate, docs/rules.md 2);
/// 2. a third occurrence of the position: the repetition verdict (docs/rules.md 3);
/// 3. Chinese rules: the nine-round rule (docs/rules.md 3.3);
/// 4. the natural move limit (docs/rules.md 4; a mate on the limit ply already won in 1);
/// 5. no piece able to cross the river on either side (docs/rules.md 2);
///
/// otherwise ongoing. Only the final position is judged: a history that
/// continues past an earlier end is judged where it stands.
pub fn judge(history: &Position, rules: &Rules) -> Outcome {
    let side = history.side_to_move();
    if history.legal_moves().is_empty() {
        let reason = if history.in_check() { Reason::Checkmate } else { Reason::Stalemate };
        return Outcome { result: GameResult::win_for(!side), reason };
    }
    if let Some(v) = repetition::threefold_verdict(history, rules.set) {
        return match v {
            SpanVerdict::Draw => Outcome::draw(Reason::Repetition),
            SpanVerdict::Loss { loser, violation } => {
                Outcome { result: GameResult::win_for(!loser), reason: Reason::Violation { by: loser, violation } }
            }
        };
    }
    if rules.set == RuleSet::Chinese {
        if let Some(by) = nine_round_violator(history) {
            return Outcome {
                result: GameResult::win_for(!by),
                reason: Reason::Violation { by, violation: Violation::NineRound },
            };
        }
    }
    if natural_limit_reached(history, rules.limit) {
        return Outcome::draw(Reason::NaturalMoveLimit);
    }
    if is_dead_draw(history.board()) {
        return Outcome::draw(Reason::InsufficientMaterial);
    }
    Outcome::ONGOING
}

/// The legal moves of the side to move that would complete a repetition
/// (third occurrence) in which the mover is the violator (docs/rules.md 3).
/// The UCCI `banmoves` and the search root avoid them when anything else exists.
pub fn forbidden_moves(pos: &Position, rules: RuleSet) -> MoveList {
    let mut out = MoveList::new();
    let us = pos.side_to_move();
    let mut probe = pos.clone();
    for m in pos.legal_moves() {
        probe.make_move(m);
        if let Some(SpanVerdict::Loss { loser, .. }) = repetition::threefold_verdict(&probe, rules) {
            if loser == us {
                out.push(m);
            }
        }
        probe.unmake_move();
    }
    out
}

/// The natural-limit counter at the current position (docs/rules.md 4): plies
/// since the last capture (the FEN half-move field seeds it at the root),
/// where under [`LimitPolicy::CheckCap`] a side's checks beyond its first
/// [`COUNTED_CHECKS`] since the capture, and the replies to them, do not
/// count. Checks made before the root are unknown and not capped.
pub(crate) fn natural_limit_count(pos: &Position, policy: LimitPolicy) -> u32 {
    let states = pos.states();
    let n = states.len() - 1;
    let psc = states[n].plies_since_capture as usize;
    if policy == LimitPolicy::Plain {
        return psc as u32;
    }
    // The stretch since the last capture, or since the root whose FEN counter
    // seeds the count.
    let start = n - psc.min(n);
    let mut count = states[start].plies_since_capture as u32;
    let mut checks = [0u32; 2];
    // The mover of ply i is the side not to move at i.
    let mut mover = if (n - start).is_multiple_of(2) { pos.side_to_move() } else { !pos.side_to_move() };
    let mut skip_reply = false;
    for st in &states[start + 1..=n] {
        let excess_check = st.in_check && {
            checks[mover.index()] += 1;
            checks[mover.index()] > COUNTED_CHECKS
        };
        if !skip_reply && !excess_check {
            count += 1;
        }
        skip_reply = excess_check;
        mover = !mover;
    }
    count
}

/// Whether the natural move limit has been reached (docs/rules.md 4). O(1) while
/// fewer than [`NATURAL_LIMIT_PLIES`] plies have passed since the last capture.
/// The caller decides mate first: a mate on the limit ply wins.
#[inline]
pub(crate) fn natural_limit_reached(pos: &Position, policy: LimitPolicy) -> bool {
    pos.state().plies_since_capture as u32 >= NATURAL_LIMIT_PLIES
        && natural_limit_count(pos, policy) >= NATURAL_LIMIT_PLIES
}

/// Whether neither side can win (docs/rules.md 2): neither side has a piece able
/// to cross the river and attack (chariot, horse, cannon, soldier), or only
/// pieces in the known dead constellations:
/// - soldiers on the enemy's back rank (老兵/底兵): they only move sideways
///   along a rank the defending general can always leave for the ranks above
///   (the attacking general's facing rule covers one file only);
/// - a lone cannon when no other piece but the generals is on the board: it
///   has no screen to give check through (the attacking general cannot be
///   one: it would face the other general), so it can neither mate nor cover
///   points (单炮不胜单将).
///
/// This is the one definition of a dead draw: the judge, the match referee
/// and the engine's answer to a draw offer all ask it. (The evaluation's own
/// 0 for boards without any of those four kinds is its plainest case.)
pub(crate) fn is_dead_draw(board: &Board) -> bool {
    Color::ALL.iter().all(|&c| !has_mating_material(board, c))
}

fn has_mating_material(board: &Board, color: Color) -> bool {
    use PieceKind::*;
    if board.count(color, Chariot) > 0 || board.count(color, Horse) > 0 {
        return true;
    }
    let back_rank = if color == Color::Red { 9 } else { 0 };
    if board.squares_of(color, Soldier).any(|sq| sq.rank() != back_rank) {
        return true;
    }
    let cannons = board.count(color, Cannon);
    // Pieces other than the two generals on the whole board.
    let others: usize =
        Color::ALL.iter().map(|&c| PieceKind::ALL[1..].iter().map(|&k| board.count(c, k)).sum::<usize>()).sum();
    cannons > 0 && others > 1
}

/// The nine-round rule (docs/rules.md 3.3, Chinese rules, judge only): the side
/// that just moved made its last [`NINE_ROUNDS`] moves without a capture with
/// the same piece or pieces (each followed from point to point, each making
/// at least two of the nine moves, so at most four of them)
/// visiting three or more points, every move an attack (check, Chinese chase
/// or mate threat), while the opponent's moves in that stretch were not all
/// attacks. Returns the violator.
///
/// Approximations: the rule also names "aimless" moves, which no program can
/// decide, so only attacking moves count; "shuttling with the same pieces" is
/// read as "every piece used makes at least two of the nine moves": a piece
/// that moves once in the stretch is a new idea, not a shuttle, and keeps the
/// stretch legal.
pub(crate) fn nine_round_violator(pos: &Position) -> Option<Color> {
    let states = pos.states();
    let n = states.len() - 1;
    let span = 2 * NINE_ROUNDS - 1;
    if n < span || (states[n].plies_since_capture as usize) < span {
        return None;
    }
    let start = n - span;
    if states[start + 1..=n].iter().any(|st| !st.mv.is_some()) {
        return None;
    }
    // The violator's moves are plies n-16, n-14, ..., n, in that order: each
    // moves a piece already followed (from where its last move went) or
    // starts following a new one.
    let mut pieces: ArrayVec<(Square, usize), NINE_ROUNDS> = ArrayVec::new();
    let mut points: ArrayVec<Square, { 2 * NINE_ROUNDS }> = ArrayVec::new();
    for i in (0..NINE_ROUNDS).rev().map(|k| n - 2 * k) {
        let mv = states[i].mv;
        match pieces.iter_mut().find(|(sq, _)| *sq == mv.from()) {
            Some((sq, moves)) => {
                *sq = mv.to();
                *moves += 1;
            }
            None => {
                pieces.push((mv.to(), 1));
                if !points.contains(&mv.from()) {
                    points.push(mv.from());
                }
            }
        }
        if !points.contains(&mv.to()) {
            points.push(mv.to());
        }
    }
    if pieces.iter().any(|&(_, moves)| moves < 2) {
        return None;
    }
    if points.len() < 3 {
        return None;
    }
    let classes = repetition::classify_span(pos, start, true);
    let mover = !pos.side_to_move();
    let all_attacks = |side: Color| classes.iter().filter(|(c, _)| *c == side).all(|(_, m)| m.is_chinese_attack());
    (all_attacks(mover) && !all_attacks(!mover)).then_some(mover)
}

/// Why [`judge_moves`] could not build the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeError {
    /// The FEN is invalid.
    Fen(FenError),
    /// Move `number` (1-based, counting plies from the FEN) is unparsable or illegal.
    Move { number: usize, text: String, error: MoveError },
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Fen(e) => write!(f, "invalid FEN: {e}"),
            JudgeError::Move { number, text, error } => write!(f, "move {number} ({text}): {error}"),
        }
    }
}

impl std::error::Error for JudgeError {}

/// Builds the game from a FEN (validated strictly, or relaxed as
/// [`Position::from_setup_relaxed`]) and ICCS moves.
pub fn play_moves<'a>(
    fen: &str,
    relaxed: bool,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<Position, JudgeError> {
    let setup = Setup::parse(fen).map_err(JudgeError::Fen)?;
    let built = if relaxed { Position::from_setup_relaxed(&setup) } else { Position::from_setup(&setup) };
    let mut pos = built.map_err(|e| JudgeError::Fen(FenError::from(e)))?;
    for (i, text) in moves.into_iter().enumerate() {
        let m: Move = pos.parse_move(text).map_err(|error| JudgeError::Move {
            number: i + 1,
            text: text.chars().take(32).collect(),
            error,
        })?;
        pos.make_move(m);
    }
    Ok(pos)
}

/// [`play_moves`] then [`judge`] on the final position.
pub fn judge_moves<'a>(
    fen: &str,
    relaxed: bool,
    moves: impl IntoIterator<Item = &'a str>,
    rules: &Rules,
) -> Result<Outcome, JudgeError> {
    play_moves(fen, relaxed, moves).map(|pos| judge(&pos, rules))
}

/// The result of a game record: the first game end reached while replaying
/// the moves (a referee ignores moves played after the game was over), with
/// the number of moves played when it came; if none, the final position's
/// verdict (ongoing). Every move is still checked: an unparsable or illegal
/// move anywhere is an error.
pub fn judge_game<'a>(
    fen: &str,
    relaxed: bool,
    moves: impl IntoIterator<Item = &'a str>,
    rules: &Rules,
) -> Result<(Outcome, usize), JudgeError> {
    let mut pos = play_moves(fen, relaxed, std::iter::empty())?;
    let ended = |pos: &Position| Some(judge(pos, rules)).filter(Outcome::is_over);
    let mut first_end = ended(&pos).map(|o| (o, 0));
    let mut played = 0;
    for (i, text) in moves.into_iter().enumerate() {
        let m = pos.parse_move(text).map_err(|error| JudgeError::Move {
            number: i + 1,
            text: text.chars().take(32).collect(),
            error,
        })?;
        pos.make_move(m);
        played = i + 1;
        if first_end.is_none() {
            first_end = ended(&pos).map(|o| (o, played));
        }
    }
    Ok(first_end.unwrap_or((Outcome::ONGOING, played)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &[&str]) -> Position {
        play_moves(fen, false, moves.iter().copied()).unwrap()
    }

    #[test]
    fn mate_and_stalemate_lose() {
        // Two chariots: b0b9 mates (a8 covers rank 8, the general f0 the f-file).
        let pos = play("4k4/R8/9/9/9/9/9/9/9/1R3K3 w - - 0 1", &["b0b9"]);
        assert_eq!(judge(&pos, &Rules::default()).to_string(), "1-0 checkmate");
        // Stalemate: the black general d9 cannot go to d8 (soldier c8) or e9 (facing).
        let pos = Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert!(!pos.in_check());
        assert_eq!(judge(&pos, &Rules::default()).to_string(), "1-0 stalemate");
    }

    #[test]
    fn dead_draws() {
        let pos = Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1").unwrap();
        assert_eq!(judge(&pos, &Rules::default()).to_string(), "1/2-1/2 insufficient material");
        // A crossed soldier can still attack.
        let pos = Position::from_fen("3ak4/4a4/4b4/4P4/9/9/9/4B4/4A4/3AK4 w - - 0 1").unwrap();
        assert_eq!(judge(&pos, &Rules::default()), Outcome::ONGOING);
        // Only a bottom soldier: dead.
        let pos = Position::from_fen("3k4P/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        assert!(is_dead_draw(pos.board()));
        // A lone cannon: dead; with any possible screen (an advisor of either side,
        // a bottom soldier) it can mate.
        for (fen, dead) in [
            ("3k5/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1", true),
            ("3k5/9/9/9/9/4C4/9/9/4A4/4K4 w - - 0 1", false),
            ("3k1a3/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1", false),
            ("3k4P/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1", false),
            ("3k5/9/9/9/9/4c4/9/9/9/4K4 w - - 0 1", true),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(is_dead_draw(pos.board()), dead, "{fen}");
        }
        assert!(!is_dead_draw(Position::startpos().board()));
    }

    /// Plays a 4-ply cycle from a FEN whose half-move field is `halfmove` until
    /// `plies` plies are made; with `checks`, red's first move of each cycle checks.
    fn shuffle(halfmove: u32, plies: usize, checks: bool) -> Position {
        let fen = format!("3k5/9/9/9/9/9/9/9/9/5K2R w - - {halfmove} 1");
        let cycle: [&str; 4] = if checks { ["i0i9", "d9d8", "i9i0", "d8d9"] } else { ["i0i1", "d9d8", "i1i0", "d8d9"] };
        let mut pos = Position::from_fen(&fen).unwrap();
        for k in 0..plies {
            let m = pos.parse_move(cycle[k % 4]).unwrap();
            pos.make_move(m);
        }
        pos
    }

    #[test]
    fn natural_limit_boundary() {
        // The half-move field seeds the counter; 119 plies go on, 120 draw.
        let pos = shuffle(117, 2, false);
        assert_eq!(natural_limit_count(&pos, LimitPolicy::CheckCap), 119);
        assert!(!natural_limit_reached(&pos, LimitPolicy::CheckCap));
        assert!(!judge(&pos, &Rules::default()).is_over());
        let pos = shuffle(117, 3, false);
        assert_eq!(natural_limit_count(&pos, LimitPolicy::Plain), 120);
        assert!(natural_limit_reached(&pos, LimitPolicy::CheckCap));
        assert_eq!(judge(&pos, &Rules::default()).to_string(), "1/2-1/2 natural move limit");
        // A capture resets the counter.
        let pos = play("3k5/9/9/9/9/9/9/9/r8/5K2R w - - 119 1", &["i0i1", "a1i1"]);
        assert_eq!(natural_limit_count(&pos, LimitPolicy::CheckCap), 0);
    }

    #[test]
    fn mate_on_the_limit_ply_wins() {
        let fen = "4k4/R8/9/9/9/9/9/9/9/1R3K3 w - - 119 1";
        let pos = play(fen, &["b0b9"]);
        assert_eq!(natural_limit_count(&pos, LimitPolicy::CheckCap), 120);
        assert_eq!(judge(&pos, &Rules::default()).to_string(), "1-0 checkmate");
        let pos = play(fen, &["b0b1"]);
        assert_eq!(judge(&pos, &Rules::default()).to_string(), "1/2-1/2 natural move limit");
    }

    #[test]
    fn natural_limit_check_cap() {
        // Red checks on plies 1, 5, ..., 57 (15 checks). The 11th to 15th checks and
        // the replies to them do not count: 60 - 2 * 5 = 50.
        let pos = shuffle(0, 60, true);
        assert_eq!(natural_limit_count(&pos, LimitPolicy::Plain), 60);
        assert_eq!(natural_limit_count(&pos, LimitPolicy::CheckCap), 50);
        // With 10 checks exactly nothing is skipped (plies 1..=40 hold checks 1..=10).
        let pos = shuffle(0, 40, true);
        assert_eq!(natural_limit_count(&pos, LimitPolicy::CheckCap), 40);
        // The cap delays the limit: 120 plies with 30 checks are not yet a draw.
        let pos = shuffle(0, 120, true);
        assert_eq!(natural_limit_count(&pos, LimitPolicy::CheckCap), 80);
        assert!(!natural_limit_reached(&pos, LimitPolicy::CheckCap));
        assert!(natural_limit_reached(&pos, LimitPolicy::Plain));
    }

    #[test]
    fn forbidden_moves_complete_a_losing_repetition() {
        // T01 with the cycle played twice less the last move: i8i9 would complete red's
        // perpetual check (third occurrence); red's other moves are allowed.
        let moves = ["i0i9", "d9d8", "i9i8", "d8d9", "i8i9", "d9d8", "i9i8", "d8d9"];
        let pos = play("3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1", &moves);
        let banned: Vec<String> = forbidden_moves(&pos, RuleSet::Asian).iter().map(|m| m.to_string()).collect();
        assert_eq!(banned, vec!["i8i9"]);
        // Black's moves never lose here; one ply earlier black has nothing banned.
        let pos = play("3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1", &moves[..7]);
        assert!(forbidden_moves(&pos, RuleSet::Asian).is_empty());
        // An idle shuffle is a draw, never banned.
        let pos = play("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", &["a0a1", "d9d8", "a1a0", "d8d9", "a0a1", "d9d8", "a1a0"]);
        assert!(forbidden_moves(&pos, RuleSet::Asian).is_empty());
    }

    #[test]
    fn nine_round_rule() {
        // The red chariot chases the unprotected black cannon up and down the a-file
        // from nine different points of the i-file; black only flees. No position occurs
        // three times.
        let fen = "3k5/c8/9/9/9/9/9/9/8R/4K4 w - - 0 1";
        let moves = [
            "i1i8", "a8a6", "i8i6", "a6a3", "i6i3", "a3a7", "i3i7", "a7a5", "i7i5", "a5a2", "i5i2", "a2a8", "i2i8",
            "a8a4", "i8i4", "a4a6", "i4i6",
        ];
        let pos = assert_nine_round_violation_at_the_end(fen, &moves);
        // Asian rules have no nine-round rule.
        assert_eq!(judge(&pos, &Rules::default()), Outcome::ONGOING);
    }

    /// Under Chinese rules the game goes on through every prefix of `moves`
    /// and ends with red's nine-round violation on the last one.
    fn assert_nine_round_violation_at_the_end(fen: &str, moves: &[&str]) -> Position {
        let chinese = Rules::from(RuleSet::Chinese);
        for k in 0..moves.len() {
            let pos = play(fen, &moves[..k]);
            assert_eq!(judge(&pos, &chinese), Outcome::ONGOING, "after {k} plies");
        }
        let pos = play(fen, moves);
        assert_eq!(judge(&pos, &chinese).to_string(), "0-1 nine-round rule violation by red");
        pos
    }

    #[test]
    fn nine_round_rule_with_two_pieces() {
        // Two red chariots, on the i- and h-files, take turns chasing the
        // unprotected black cannon along the a-file; each red move makes a new
        // chase, black only flees; no capture, no threefold repetition.
        let fen = "3k5/c8/9/9/9/9/9/7R1/8R/4K4 w - - 0 1";
        let moves = [
            "i1i8", "a8a6", "h2h6", "a6a3", "i8i3", "a3a7", "h6h7", "a7a5", "i3i5", "a5a2", "h7h2", "a2a4", "i5i4",
            "a4a6", "h2h6", "a6a3", "i4i3",
        ];
        assert_nine_round_violation_at_the_end(fen, &moves);
        // A piece that moves once is not shuttling: a horse check, then the two
        // chariots chase the cannon eight times; every red move is an attack,
        // but the horse made only one of them.
        let fen3 = "3k5/9/9/c5N2/9/9/9/7R1/8R/4K4 w - - 0 1";
        let moves3 = [
            "g6f8", "d9d8", "i1i6", "a6a3", "h2h3", "a3a5", "i6i5", "a5a2", "h3h2", "a2a4", "i5i4", "a4a6", "h2h6",
            "a6a3", "i4i3", "a3a5", "h6h5",
        ];
        let chinese = Rules::from(RuleSet::Chinese);
        let pos = play(fen3, &moves3[..1]);
        assert!(pos.in_check());
        let pos = play(fen3, &moves3);
        // Every red move of the stretch is an attack and black's are not: only
        // the piece count keeps it legal.
        let classes = repetition::classify_span(&pos, 0, true);
        assert!(classes.iter().filter(|(c, _)| *c == Color::Red).all(|(_, m)| m.is_chinese_attack()));
        assert!(!classes.iter().filter(|(c, _)| *c == Color::Black).all(|(_, m)| m.is_chinese_attack()));
        assert_eq!(judge(&pos, &chinese), Outcome::ONGOING);
    }

    #[test]
    fn nine_round_rule_with_three_pieces() {
        // Three red pieces, each making at least two of the nine moves, every one
        // an attack: the chariot i1 (i1a1 and a1a7 chase the cannon), the
        // chariot h2 (checks and chases along the h-file and rank 7) and the
        // cannon g0 (g0g9 checks, g9g6 chases); black only flees and blocks.
        let fen = "3k5/c8/9/9/9/9/9/7R1/8R/4K1C2 w - - 0 1";
        let moves = [
            "i1a1", "a8a7", "h2h9", "d9d8", "h9h7", "a7d7", "a1a7", "d7c7", "h7h8", "d8d9", "h8h7", "c7f7", "h7h9",
            "f7f9", "g0g9", "f9f8", "g9g6",
        ];
        let pos = assert_nine_round_violation_at_the_end(fen, &moves);
        let classes = repetition::classify_span(&pos, 0, true);
        assert!(classes.iter().filter(|(c, _)| *c == Color::Red).all(|(_, m)| m.is_chinese_attack()));
        assert_eq!(judge(&pos, &Rules::default()), Outcome::ONGOING);
        // Control: the same stretch with the cannon's second move replaced by an
        // idle one is no violation (not every red move attacks).
        let mut idle = moves;
        idle[16] = "g9f9";
        let pos = play(fen, &idle);
        assert_eq!(judge(&pos, &Rules::from(RuleSet::Chinese)), Outcome::ONGOING);
    }

    #[test]
    fn judge_game_reports_the_first_end() {
        // T01's perpetual check is complete after 9 plies; two more moves do not undo it.
        let fen = "3k5/9/9/9/9/9/9/9/9/5K2R w - - 0 1";
        let moves = "i0i9 d9d8 i9i8 d8d9 i8i9 d9d8 i9i8 d8d9 i8i9 d9d8 i9i0";
        let rules = Rules::default();
        let (o, at) = judge_game(fen, false, moves.split_whitespace(), &rules).unwrap();
        assert_eq!((o.to_string().as_str(), at), ("0-1 perpetual check by red", 9));
        // The final position alone is not a repetition.
        assert_eq!(judge_moves(fen, false, moves.split_whitespace(), &rules).unwrap(), Outcome::ONGOING);
        // An ongoing game reports its length; a bad move after the end is still an error.
        let (o, at) = judge_game(fen, false, ["i0i1", "d9d8"], &rules).unwrap();
        assert_eq!((o, at), (Outcome::ONGOING, 2));
        let err = judge_game(fen, false, moves.split_whitespace().chain(["i0i0"]), &rules).unwrap_err();
        assert!(matches!(err, JudgeError::Move { number: 12, .. }), "{err}");
    }
}
