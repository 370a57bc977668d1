//! Game results, termination reasons, and THE rules adjudication function of
//! the match runner ([`judge`]): after every move the referee asks it whether
//! the game is over by the rules of the game. It is the engine's own
//! [`crate::rules::judge`] (docs/rules.md sections 2-4: mate and stalemate lose,
//! repetition verdicts under the chosen rule set, the natural move limit with
//! its check cap, dead draws), mapped onto the runner's terminations;
//! [`banned_moves`] is [`crate::rules::forbidden_moves`] (sent to UCCI engines
//! as `banmoves`, as the UCCI league referee did).
//!
//! Score-based adjudication (`-draw`, `-resign`) is not a rule of the game and
//! lives in `game`.

use std::fmt;

use crate::moves::Move;
use crate::position::Position;

/// A game's result; a [`Verdict`] always holds a finished one (never
/// `Ongoing`).
pub use crate::rules::GameResult;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// No legal move, in check.
    Checkmate,
    /// No legal move, not in check (a loss in xiangqi).
    Stalemate,
    /// Repetition verdict.
    Repetition,
    /// Natural move limit.
    MoveLimit,
    /// Neither side can win.
    InsufficientMaterial,
    /// An engine exceeded its time.
    TimeForfeit,
    /// An engine sent an illegal or unparsable move, or no move with legal moves left.
    IllegalMove,
    /// An engine crashed (closed its output) during the game.
    Crash,
    /// An engine without a clock stopped answering.
    Stall,
    /// An engine could not be started (no handshake, no `readyok`).
    StartFailure,
    /// An engine resigned (`bestmove ... resign`).
    Resignation,
    /// Score adjudication: draw.
    AdjudicatedDraw,
    /// Score adjudication: the losing side's score was hopeless.
    AdjudicatedLoss,
    /// The match was interrupted before the game ended.
    Aborted,
}

impl Termination {
    /// Text for the PGN `Termination` tag and the report.
    pub fn text(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::MoveLimit => "move limit",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "engine crash",
            Termination::Stall => "stalled engine",
            Termination::StartFailure => "engine failed to start",
            Termination::Resignation => "resignation",
            Termination::AdjudicatedDraw => "adjudication: draw",
            Termination::AdjudicatedLoss => "adjudication: resign",
            Termination::Aborted => "aborted",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A result with its reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub result: GameResult,
    pub termination: Termination,
}

pub use crate::rules::RuleSet;
use crate::rules::{self, LimitPolicy, Reason, Rules};

/// What the referee applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RuleSettings {
    pub(crate) rule_set: RuleSet,
    /// Natural-limit counting (docs/rules.md section 4; default: Asian check cap).
    pub(crate) limit: LimitPolicy,
    /// `-movelimit N`: an extra plain limit of N plies without capture when N
    /// is below the natural limit of 120 (0 = none).
    pub(crate) move_limit_plies: u32,
}

impl Default for RuleSettings {
    fn default() -> RuleSettings {
        RuleSettings { rule_set: RuleSet::Asian, limit: LimitPolicy::default(), move_limit_plies: 120 }
    }
}

/// Is the game over by the rules? `None` while it goes on.
pub fn judge(pos: &Position, settings: &RuleSettings) -> Option<Verdict> {
    let outcome = rules::judge(pos, &Rules { set: settings.rule_set, limit: settings.limit });
    let result = outcome.result;
    if result == GameResult::Ongoing {
        // A shorter plain limit asked for on the command line.
        let custom = settings.move_limit_plies;
        if custom > 0 && custom < rules::NATURAL_LIMIT_PLIES && pos.state().plies_since_capture as u32 >= custom {
            return Some(Verdict { result: GameResult::Draw, termination: Termination::MoveLimit });
        }
        return None;
    }
    let termination = match outcome.reason {
        Reason::Checkmate => Termination::Checkmate,
        Reason::Stalemate => Termination::Stalemate,
        Reason::Violation { .. } | Reason::Repetition => Termination::Repetition,
        Reason::NaturalMoveLimit => Termination::MoveLimit,
        Reason::InsufficientMaterial => Termination::InsufficientMaterial,
        Reason::Ongoing => return None,
    };
    Some(Verdict { result, termination })
}

/// Moves the side to move may not play because they would complete a
/// forbidden repetition in which it is the violator (sent to UCCI engines as
/// `banmoves`).
pub(crate) fn banned_moves(pos: &Position, settings: &RuleSettings) -> Vec<Move> {
    rules::forbidden_moves(pos, settings.rule_set).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    fn play(fen: &str, moves: &str) -> Position {
        rules::play_moves(fen, false, moves.split_whitespace()).unwrap()
    }

    #[test]
    fn checkmate_and_stalemate_lose() {
        // Two Red chariots mate on ranks 9 and 8.
        let pos = play("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "b0b9");
        assert_eq!(pos.side_to_move(), Color::Black);
        let v = judge(&pos, &RuleSettings::default()).unwrap();
        assert_eq!(v, Verdict { result: GameResult::RedWins, termination: Termination::Checkmate });
        // Black general: d8 is covered by the soldier, e9 faces the Red general.
        let pos = Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
        assert!(!pos.in_check());
        let v = judge(&pos, &RuleSettings::default()).unwrap();
        assert_eq!(v, Verdict { result: GameResult::RedWins, termination: Termination::Stalemate });
    }

    #[test]
    fn threefold_repetition_is_a_draw() {
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let pos = play(fen, "a0a1 d9d8 a1a0 d8d9");
        assert_eq!(judge(&pos, &RuleSettings::default()), None);
        let pos = play(fen, "a0a1 d9d8 a1a0 d8d9 a0a1 d9d8 a1a0 d8d9");
        assert_eq!(judge(&pos, &RuleSettings::default()).unwrap().termination, Termination::Repetition);
    }

    #[test]
    fn insufficient_material_and_move_limit() {
        let pos = Position::from_fen("3k5/4a4/9/9/9/9/9/4B4/9/4K4 w - - 0 1").unwrap();
        assert_eq!(judge(&pos, &RuleSettings::default()).unwrap().termination, Termination::InsufficientMaterial);
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80").unwrap();
        assert_eq!(judge(&pos, &RuleSettings::default()), None);
        let pos = play("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80", "a0a5");
        assert_eq!(judge(&pos, &RuleSettings::default()).unwrap().termination, Termination::MoveLimit);
        // A shorter plain limit from the command line.
        let short = RuleSettings { move_limit_plies: 40, ..RuleSettings::default() };
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 40 80").unwrap();
        assert_eq!(judge(&pos, &short).unwrap().termination, Termination::MoveLimit);
        assert_eq!(judge(&pos, &RuleSettings::default()), None);
    }

    #[test]
    fn start_position_is_not_over() {
        assert_eq!(judge(&Position::startpos(), &RuleSettings::default()), None);
    }
}
