//! A game position: the board, the side to move and the per-ply state stack
//! since the root, with make/unmake (incremental Zobrist key), null moves, check
//! detection and legality tests.
//!
//! `make_move` trusts its caller (the move must be legal: debug-asserted);
//! untrusted text goes through [`Position::resolve_move`] or
//! [`Position::try_make_move`]. Repetition verdicts are the `rules` module's job;
//! this module only keeps the history they need.

pub mod psq;
pub mod state;
pub mod zobrist;

use std::fmt;

use crate::attacks::{self, ADVISOR_STEPS, ELEPHANT_EYE, GENERAL_STEPS, HORSE_ATTACK, HORSE_LEG, SOLDIER_STEPS};
use crate::board::square::{EAST, NORTH, SOUTH, WEST};
use crate::board::{code_of, line_after, side_tag, Board, Color, Piece, PieceKind, Square, EMPTY};
use crate::fen::{FenError, Setup};
use crate::movegen::{generate, All};
use crate::moves::{Move, MoveList, MoveParseError};
pub use psq::Psq;
pub use state::StateInfo;
pub use zobrist::Key;

/// Why a setup is not a legal xiangqi position (docs/rules.md section 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no general.
    MissingGeneral { color: Color },
    /// A side has a second general.
    ExtraGeneral { color: Color, square: Square },
    /// More pieces of one kind than a side starts with.
    TooManyPieces { color: Color, kind: PieceKind, max: usize },
    /// A general outside its palace.
    GeneralOutsidePalace { color: Color, square: Square },
    /// An advisor off the five points it can occupy.
    AdvisorOffPoint { color: Color, square: Square },
    /// An elephant off its seven points (including across the river).
    ElephantOffPoint { color: Color, square: Square },
    /// A soldier behind its start rank, or on its own half off files a, c, e, g, i.
    SoldierOffPoint { color: Color, square: Square },
    /// The two generals face each other on an open file.
    GeneralsFacing { file: char },
    /// The side that is not to move is in check (it could be captured).
    SideNotToMoveInCheck { color: Color },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            MissingGeneral { color } => write!(f, "{color} has no general"),
            ExtraGeneral { color, square } => write!(f, "{color} has a second general on {square}"),
            TooManyPieces { color, kind, max } => {
                write!(f, "{color} has more than {max} {}{}", kind.name(), if *max > 1 { "s" } else { "" })
            }
            GeneralOutsidePalace { color, square } => write!(f, "{color} general on {square} is outside its palace"),
            AdvisorOffPoint { color, square } => write!(f, "{color} advisor on {square} is off its five palace points"),
            ElephantOffPoint { color, square } => write!(f, "{color} elephant on {square} is off its seven points"),
            SoldierOffPoint { color, square } => {
                write!(f, "{color} soldier on {square} cannot stand there (behind its start rank or off its files)")
            }
            GeneralsFacing { file } => write!(f, "the generals face each other on file {file}"),
            SideNotToMoveInCheck { color } => write!(f, "{color} is in check but it is not {color}'s turn"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A syntactically valid move that is not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

/// The reason in an [`IllegalMove`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// No piece on the origin point.
    NoPiece,
    /// The piece there belongs to the side not to move.
    NotYourPiece,
    /// The piece cannot move that way (or the destination holds an own piece).
    BadPieceMove,
    /// The move would leave the mover's general attacked or facing the other.
    LeavesGeneralAttacked,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            IllegalReason::NoPiece => "no piece on its origin",
            IllegalReason::NotYourPiece => "the piece on its origin belongs to the side not to move",
            IllegalReason::BadPieceMove => "the piece cannot move there",
            IllegalReason::LeavesGeneralAttacked => "it leaves the general attacked",
        };
        write!(f, "illegal move {}: {why}", self.mv)
    }
}

impl std::error::Error for IllegalMove {}

/// Either step of reading a move from text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not ICCS text.
    Syntax(MoveParseError),
    /// ICCS, but not legal here.
    Illegal(IllegalMove),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {}

/// Board, side to move and history since the root.
#[derive(Clone)]
pub struct Position {
    board: Board,
    side: Color,
    /// `states[0]` describes the root; one more entry per ply made.
    states: Vec<StateInfo>,
    /// Move number of the root.
    root_fullmove: u32,
    /// Material + piece-square sums, updated in make/unmake ([`psq`]).
    psq: Psq,
}

impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        Position::from_fen(crate::fen::START_FEN).expect("start FEN is valid")
    }

    /// Parses and validates a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Position::from_setup(&Setup::parse(fen)?)?)
    }

    /// Validates a setup into a position (docs/rules.md section 1 placement rules).
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        Position::build(setup, true)
    }

    /// Like [`Position::from_setup`], but lets advisors, elephants and soldiers
    /// stand on points no game can bring them to (composed perft positions from
    /// other generators do that). Generals must still be in their palaces, piece
    /// counts within the start counts, generals not facing and the side not to
    /// move not in check: the engine relies on those.
    pub fn from_setup_relaxed(setup: &Setup) -> Result<Position, PositionError> {
        Position::build(setup, false)
    }

    fn build(setup: &Setup, strict: bool) -> Result<Position, PositionError> {
        let mut board = Board::empty();
        for sq in Square::all() {
            let Some(piece) = setup.piece_at(sq) else { continue };
            if strict || piece.kind() == PieceKind::General {
                check_placement(piece, sq)?;
            }
            if board.add(piece, sq).is_none() {
                let (color, kind) = (piece.color(), piece.kind());
                return Err(if kind == PieceKind::General {
                    PositionError::ExtraGeneral { color, square: sq }
                } else {
                    PositionError::TooManyPieces { color, kind, max: kind.start_count() }
                });
            }
        }
        for color in Color::ALL {
            if board.general(color) == Square(0) {
                return Err(PositionError::MissingGeneral { color });
            }
        }
        if attacks::generals_facing(&board) {
            return Err(PositionError::GeneralsFacing { file: (b'a' + board.general(Color::Red).file()) as char });
        }
        if attacks::is_general_attacked(&board, !setup.side) {
            return Err(PositionError::SideNotToMoveInCheck { color: !setup.side });
        }
        let in_check = attacks::is_general_attacked(&board, setup.side);
        let psq = Psq::compute(&board);
        let mut pos = Position {
            board,
            side: setup.side,
            states: Vec::with_capacity(256),
            root_fullmove: setup.fullmove.max(1),
            psq,
        };
        let key = pos.compute_key();
        pos.states.push(StateInfo {
            key,
            mv: Move::NULL,
            captured: EMPTY,
            in_check,
            plies_since_capture: setup.halfmove.min(u16::MAX as u32) as u16,
        });
        Ok(pos)
    }

    /// Makes this position a copy of `other`, reusing this one's state stack
    /// allocation (a scratch position for replays allocates once).
    pub fn copy_from(&mut self, other: &Position) {
        let Position { board, side, states, root_fullmove, psq } = other;
        self.board.clone_from(board);
        self.side = *side;
        self.states.clone_from(states);
        self.root_fullmove = *root_fullmove;
        self.psq = *psq;
    }

    /// The unvalidated setup of the current position.
    pub fn to_setup(&self) -> Setup {
        let mut s = Setup::empty();
        for sq in Square::all() {
            s.board[sq.point_index()] = self.board.piece_at(sq);
        }
        s.side = self.side;
        s.halfmove = self.state().plies_since_capture as u32;
        s.fullmove = self.fullmove();
        s
    }

    /// Canonical FEN of the current position.
    pub fn to_fen(&self) -> String {
        self.to_setup().to_fen()
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The current state (last entry of the stack).
    #[inline]
    pub fn state(&self) -> &StateInfo {
        // The stack always holds the root state.
        &self.states[self.states.len() - 1]
    }

    /// The whole state stack, root first.
    #[inline]
    pub fn states(&self) -> &[StateInfo] {
        &self.states
    }

    /// Plies made since the root.
    #[inline]
    pub fn game_ply(&self) -> usize {
        self.states.len() - 1
    }

    /// Current move number (as in FEN).
    pub fn fullmove(&self) -> u32 {
        let root_black = (self.side == Color::Black) ^ (self.game_ply() % 2 == 1);
        let plies = self.game_ply() as u32 + root_black as u32;
        self.root_fullmove + plies / 2
    }

    /// Zobrist key of the current position.
    #[inline]
    pub fn key(&self) -> Key {
        self.state().key
    }

    /// Incremental material + piece-square sums (Red's view), see [`psq`].
    #[inline]
    pub fn psq(&self) -> &Psq {
        &self.psq
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.state().in_check
    }

    /// The piece on a point.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// The key recomputed from scratch (for verification).
    pub fn compute_key(&self) -> Key {
        let mut k = 0u64;
        for color in Color::ALL {
            for (_, piece, sq) in self.board.pieces(color) {
                k ^= zobrist::piece_key(piece, sq);
            }
        }
        if self.side == Color::Black {
            k ^= zobrist::SIDE;
        }
        Key(k)
    }

    /// Plays a legal move (debug-asserted). Use [`Position::try_make_move`] for
    /// moves from outside.
    #[inline]
    pub fn make_move(&mut self, m: Move) {
        self.make_move_impl(m, None);
    }

    /// [`Position::make_move`] for a caller that already knows whether `m`
    /// gives check ([`Position::gives_check`]), saving the attack test.
    #[inline]
    pub fn make_move_checking(&mut self, m: Move, gives_check: bool) {
        self.make_move_impl(m, Some(gives_check));
    }

    #[inline(always)]
    fn make_move_impl(&mut self, m: Move, gives_check: Option<bool>) {
        debug_assert!(self.is_legal(m), "illegal move {m} in {}", self.to_fen());
        let (from, to) = (m.from(), m.to());
        let prev = *self.state();
        let mover = self.board.cell(from);
        let captured = self.board.move_piece(from, to);
        self.psq.make(mover, from.index(), to.index(), captured);
        let code = code_of(mover) as usize;
        let mut key = prev.key.0
            ^ zobrist::PIECE_SQUARE[code][from.index()]
            ^ zobrist::PIECE_SQUARE[code][to.index()]
            ^ zobrist::SIDE;
        let plies_since_capture = if captured != EMPTY {
            key ^= zobrist::PIECE_SQUARE[code_of(captured) as usize][to.index()];
            0
        } else {
            prev.plies_since_capture.saturating_add(1)
        };
        self.side = !self.side;
        let in_check = gives_check.unwrap_or_else(|| attacks::is_general_attacked(&self.board, self.side));
        debug_assert_eq!(in_check, attacks::is_general_attacked(&self.board, self.side));
        self.states.push(StateInfo { key: Key(key), mv: m, captured, in_check, plies_since_capture });
        debug_assert_eq!(self.key(), self.compute_key());
        debug_assert_eq!(self.psq, Psq::compute(&self.board));
        debug_assert!(self.board.is_consistent());
    }

    /// Takes back the last move made with [`Position::make_move`].
    #[inline]
    pub fn unmake_move(&mut self) {
        debug_assert!(self.states.len() > 1, "unmake at the root");
        if self.states.len() <= 1 {
            return;
        }
        let st = self.states.pop().unwrap_or_default();
        self.side = !self.side;
        self.board.unmove_piece(st.mv.from(), st.mv.to(), st.captured);
        let mover = self.board.cell(st.mv.from());
        self.psq.unmake(mover, st.mv.from().index(), st.mv.to().index(), st.captured);
        debug_assert_eq!(self.key(), self.compute_key());
        debug_assert_eq!(self.psq, Psq::compute(&self.board));
    }

    /// Passes the turn (search only; never while in check).
    pub fn make_null_move(&mut self) {
        debug_assert!(!self.in_check());
        let prev = *self.state();
        self.side = !self.side;
        self.states.push(StateInfo {
            key: Key(prev.key.0 ^ zobrist::SIDE),
            mv: Move::NULL,
            captured: EMPTY,
            in_check: false,
            plies_since_capture: prev.plies_since_capture.saturating_add(1),
        });
    }

    /// Takes back a null move.
    pub fn unmake_null_move(&mut self) {
        debug_assert!(self.states.len() > 1 && !self.state().mv.is_some());
        if self.states.len() > 1 {
            self.states.pop();
            self.side = !self.side;
        }
    }

    /// Whether `m` obeys the movement rules of the piece on its origin (docs/rules.md
    /// section 1), ignoring whether it leaves the general attacked.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        self.pseudo_check(m).is_ok()
    }

    fn pseudo_check(&self, m: Move) -> Result<(), IllegalReason> {
        let (from, to) = (m.from(), m.to());
        if !from.is_on_board() || !to.is_on_board() || from == to {
            return Err(IllegalReason::BadPieceMove);
        }
        let us = self.side;
        let id = self.board.cell(from);
        if id == EMPTY {
            return Err(IllegalReason::NoPiece);
        }
        if id & side_tag(us) == 0 {
            return Err(IllegalReason::NotYourPiece);
        }
        if self.board.cell(to) & side_tag(us) != 0 {
            return Err(IllegalReason::BadPieceMove);
        }
        let delta = to.0 as i16 - from.0 as i16;
        let ok = match Piece(code_of(id)).kind() {
            PieceKind::General => GENERAL_STEPS[from.index()].contains(&to.0),
            PieceKind::Advisor => ADVISOR_STEPS[from.index()].contains(&to.0),
            PieceKind::Elephant => {
                let eye = ELEPHANT_EYE[(delta + 256) as usize];
                eye != 0 && to.is_home_half(us) && self.board.is_empty(from.offset(eye as i16))
            }
            PieceKind::Horse => {
                let leg = HORSE_LEG[(delta + 256) as usize];
                leg != 0 && self.board.is_empty(from.offset(leg as i16))
            }
            PieceKind::Chariot => attacks::count_between(&self.board, from, to) == Some(0),
            PieceKind::Cannon => {
                let between = attacks::count_between(&self.board, from, to);
                if self.board.is_empty(to) {
                    between == Some(0)
                } else {
                    between == Some(1)
                }
            }
            PieceKind::Soldier => SOLDIER_STEPS[us.index()][from.index()].contains(&to.0),
        };
        if ok {
            Ok(())
        } else {
            Err(IllegalReason::BadPieceMove)
        }
    }

    /// Whether the general of `color`, standing on `g` after the move `m` is
    /// played, would be attacked. The move is applied to a virtual board.
    #[inline(always)]
    fn attacked_after(&self, m: Move, g: Square, color: Color) -> bool {
        let (from, to) = (m.from().0, m.to().0);
        let mover = self.board.cells()[from as usize];
        attacks::attacked_after(&self.board, from, to, mover, g, !color)
    }

    /// Whether the pseudo-legal move `m` leaves the mover's general attacked.
    #[inline]
    pub fn leaves_general_attacked(&self, m: Move) -> bool {
        let g = self.board.general(self.side);
        if g == m.from() || self.in_check() {
            // The general moves, or is attacked now: the full test.
            return self.attacked_after(m, if g == m.from() { m.to() } else { g }, self.side);
        }
        let fast = self.attack_created(m, g.0, !self.side);
        debug_assert_eq!(fast, self.attacked_after(m, g, self.side), "legality of {m} in {}", self.to_fen());
        fast
    }

    /// Whether `m` is legal in this position (any 16-bit value is accepted).
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && !self.leaves_general_attacked(m)
    }

    /// Whether the legal move `m` checks the opponent's general.
    ///
    /// The opponent's general is not attacked before the move (it is our turn
    /// in a legal position), so only attacks the move creates are looked for:
    /// along the general's lines through `from` (a discovered chariot, cannon
    /// or facing general) and through `to` (the mover itself, or a new cannon
    /// screen), a horse leg freed at `from`, and the mover's own horse or
    /// soldier attack from `to`. Debug builds check it against the full test.
    #[inline]
    pub fn gives_check(&self, m: Move) -> bool {
        let fast = self.attack_created(m, self.board.general(!self.side).0, self.side);
        debug_assert_eq!(fast, self.gives_check_full(m), "gives_check {m} in {}", self.to_fen());
        fast
    }

    /// [`Position::gives_check`] by the full attack test on the virtual board
    /// (the reference the fast test is checked against).
    pub(crate) fn gives_check_full(&self, m: Move) -> bool {
        self.attacked_after(m, self.board.general(!self.side), !self.side)
    }

    /// Whether the move `m` makes `by` attack the general standing on `g`
    /// (which stays there), given that `by` does not attack it before the
    /// move. Only attacks the move can create are looked for: along the
    /// general's lines through `from` and `to`, a horse leg freed at `from`,
    /// and the mover's own horse or soldier attack when the mover is `by`'s.
    #[inline(always)]
    pub(crate) fn attack_created(&self, m: Move, g: u8, by: Color) -> bool {
        if g == 0 {
            return false;
        }
        let (from, to) = (m.from().0, m.to().0);
        let cells = self.board.cells();
        let mover = cells[from as usize];
        let base = (by as u8) << 3;
        let own = |k: PieceKind| base | k as u8;
        let at = attacks::cells_after(cells, from, to, mover);
        // The direction from the general to `s` when `s` is on its rank or file.
        let direction = |s: u8| -> i16 {
            if (s ^ g) & 0xF0 == 0 {
                if s > g {
                    EAST
                } else {
                    WEST
                }
            } else if (s ^ g) & 0x0F == 0 {
                if s > g {
                    NORTH
                } else {
                    SOUTH
                }
            } else {
                0
            }
        };
        let line_attack =
            |d: i16| attacks::line_attacker(&at, line_after(self.board.line(g, d), g, d, from, to), g, d, by).is_some();
        let (df, dt) = (direction(from), direction(to));
        if (df != 0 && line_attack(df)) || (dt != 0 && dt != df && line_attack(dt)) {
            return true;
        }
        let code = code_of(mover);
        if code == own(PieceKind::Horse) {
            let leg = HORSE_LEG[(g as i16 - to as i16 + 256) as usize];
            if leg != 0 && at((to as i16 + leg as i16) as u8) == EMPTY {
                return true;
            }
        } else if code == own(PieceKind::Soldier) {
            let forward = if by == Color::Red { NORTH } else { SOUTH };
            if matches!(g as i16 - to as i16, EAST | WEST) || g as i16 - to as i16 == forward {
                return true;
            }
        }
        // A horse leg next to the general freed by the move.
        if matches!(from as i16 - g as i16, 15 | 17 | -15 | -17) {
            for &(leg, a, b) in &HORSE_ATTACK {
                if (g as i16 + leg) as u8 == from {
                    let horse = own(PieceKind::Horse);
                    return code_of(at((g as i16 + a) as u8)) == horse || code_of(at((g as i16 + b) as u8)) == horse;
                }
            }
        }
        false
    }

    /// Checks a syntactically valid move against the position.
    pub fn resolve_move(&self, m: Move) -> Result<Move, IllegalMove> {
        self.pseudo_check(m).map_err(|reason| IllegalMove { mv: m, reason })?;
        if self.leaves_general_attacked(m) {
            return Err(IllegalMove { mv: m, reason: IllegalReason::LeavesGeneralAttacked });
        }
        Ok(m)
    }

    /// Reads ICCS text and checks it: the two steps of [`Move::from_iccs`] and
    /// [`Position::resolve_move`].
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let m = Move::from_iccs(text).map_err(MoveError::Syntax)?;
        self.resolve_move(m).map_err(MoveError::Illegal)
    }

    /// Plays a move from outside after checking it; the position is unchanged on error.
    pub fn try_make_move(&mut self, m: Move) -> Result<(), IllegalMove> {
        let m = self.resolve_move(m)?;
        self.make_move(m);
        Ok(())
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate::<All>(self, &mut list);
        list
    }

    /// The captured piece of the last move, if any.
    pub fn last_captured(&self) -> Option<Piece> {
        let id = self.state().captured;
        (id != EMPTY).then(|| Piece(code_of(id)))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                match self.board.piece_at(Square::new(file, rank)) {
                    Some(p) => write!(f, " {}", p.letter())?,
                    None => write!(f, " .")?,
                }
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{}", self.to_fen())
    }
}

/// Placement rules of docs/rules.md section 1 for one piece.
fn check_placement(piece: Piece, sq: Square) -> Result<(), PositionError> {
    let color = piece.color();
    // Work in Red's frame: flip Black's points.
    let red_sq = if color == Color::Red { sq } else { sq.flip() };
    let (f, r) = (red_sq.file(), red_sq.rank());
    let error = match piece.kind() {
        PieceKind::General if !(3..=5).contains(&f) || r > 2 => {
            PositionError::GeneralOutsidePalace { color, square: sq }
        }
        PieceKind::Advisor if !matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)) => {
            PositionError::AdvisorOffPoint { color, square: sq }
        }
        PieceKind::Elephant if !matches!((f, r), (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)) => {
            PositionError::ElephantOffPoint { color, square: sq }
        }
        PieceKind::Soldier if r < 3 || (r <= 4 && f % 2 == 1) => PositionError::SoldierOffPoint { color, square: sq },
        _ => return Ok(()),
    };
    Err(error)
}
