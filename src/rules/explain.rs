//! Why a game ended the way the judge says (`chuhan judge --explain`): for a
//! repetition verdict (docs/rules.md section 3) or a nine-round violation
//! (docs/rules.md 3.3), every move of the span that decided it with its side,
//! ICCS and Chinese notation and its classification (check; chase of which
//! piece on which point and why; mate threat; idle and why: a block, an
//! exchange offer, a parry, an attack on a protected piece, a plain move),
//! then each side's summary and the rule that gave the verdict.
//!
//! The explanation is data ([`Explanation`]); the command line formats it.
//! The classification shown is the one the verdict used
//! ([`super::chase::classify_move`]); the notes beside it
//! ([`explain_move`]) name the pieces and the reasons, and never change a
//! verdict. Nothing here runs inside the search.

use std::fmt;

use super::chase::{
    can_capture, classify_move, is_victim_kind, new_threats, threat_reason, ChaseReason, Excuse, MoveClass,
};
use super::repetition::{
    asian_rank, chinese_forbidden, chinese_violation, summarize, threefold_span_start, verdict, RuleSet, SideSummary,
    SpanVerdict, Violation,
};
use super::{judge_game, play_moves, JudgeError, Outcome, Reason, Rules, NINE_ROUNDS};
use crate::attacks::attacks_square;
use crate::board::{Color, Piece, PieceKind, Square};
use crate::moves::Move;
use crate::position::Position;
use crate::tools::notation;

/// One fact about a move, for the explanation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Note {
    /// The move gives check.
    Check,
    /// A new chase (it counts for the verdict under the rules in force).
    Chase { attacker: Piece, from: Square, victim: Piece, at: Square, why: ChaseReason },
    /// The move newly threatens mate by checks (Chinese rules).
    MateThreat,
    /// The move blocks an enemy attack (or takes away the screen of an enemy
    /// cannon) on one of the mover's pieces.
    Block { attacker: Piece, from: Square, target: Piece, at: Square, screen: bool },
    /// A new same-type attack the victim can answer by capturing back (兑).
    ExchangeOffer { attacker: Piece, from: Square, victim: Piece, at: Square },
    /// A new attack on a protected piece that the rules in force do not count (跟).
    Follow { attacker: Piece, from: Square, victim: Piece, at: Square },
    /// A threat made new only by a protection the move cut while parrying an
    /// attack on the attacker, along that attack's line (no chase).
    Parry { attacker: Piece, from: Square, victim: Piece, at: Square, parried: Square },
    /// The attack of a chariot pinned by a horse on that horse (no chase).
    PinningHorse { attacker: Piece, from: Square, victim: Piece, at: Square },
}

fn name(p: Piece) -> String {
    format!("{} {}", p.color(), p.kind().name())
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Note::Check => f.write_str("gives check"),
            Note::Chase { attacker, from, victim, at, why } => {
                write!(
                    f,
                    "chases the {} on {at} with the {} on {from} ({})",
                    name(victim),
                    attacker.kind().name(),
                    why.text()
                )
            }
            Note::MateThreat => f.write_str("threatens mate by checks"),
            Note::Block { attacker, from, target, at, screen } => {
                let how = if screen { "takes away the screen of" } else { "blocks" };
                write!(f, "{how} the {} on {from} (attacking the {} on {at})", name(attacker), target.kind().name())
            }
            Note::ExchangeOffer { attacker, from, victim, at } => write!(
                f,
                "offers an exchange: the {} on {from} attacks the {} on {at}, which can capture back",
                attacker.kind().name(),
                name(victim)
            ),
            Note::Follow { attacker, from, victim, at } => write!(
                f,
                "the {} on {from} attacks the protected {} on {at} (a follow, no chase)",
                attacker.kind().name(),
                name(victim)
            ),
            Note::Parry { attacker, from, victim, at, parried } => write!(
                f,
                "parry, no chase: the {} on {from} threatens the {} on {at} only because the move cut its \
                 protection along the line of the attacker on {parried}",
                attacker.kind().name(),
                name(victim)
            ),
            Note::PinningHorse { attacker, from, victim, at } => write!(
                f,
                "no chase: the {} on {from}, pinned by the {} on {at}, attacks its pinner",
                attacker.kind().name(),
                name(victim)
            ),
        }
    }
}

/// One move of the explained span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainedMove {
    /// Its number in the game (1 = the first move after the FEN).
    pub(crate) ply: usize,
    /// The mover.
    pub(crate) side: Color,
    /// ICCS coordinates.
    pub iccs: String,
    /// Chinese notation.
    pub chinese: String,
    /// The classification the verdict used.
    pub(crate) class: MoveClass,
    /// What the move is, piece by piece.
    pub(crate) notes: Vec<Note>,
}

impl ExplainedMove {
    /// What the move counts as under `rules`: "check", "chase", "check + chase",
    /// "mate threat" or "idle".
    pub(crate) fn kind(&self, rules: RuleSet) -> String {
        let chase = match rules {
            RuleSet::Asian => self.class.chased != 0,
            RuleSet::Chinese => self.class.chased_chinese != 0,
        };
        let mut parts = Vec::new();
        if self.class.check {
            parts.push("check");
        }
        if chase {
            parts.push("chase");
        }
        if self.class.mate_threat {
            parts.push("mate threat");
        }
        if parts.is_empty() {
            parts.push("idle");
        }
        parts.join(" + ")
    }
}

/// One side's summary over the span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideReport {
    /// The side.
    pub(crate) side: Color,
    /// The counts the verdict used.
    pub summary: SideSummary,
    /// Pieces (with their points at the end of the span) chased on every one
    /// of the side's moves under the Asian definition.
    pub(crate) chased_throughout: Vec<(Piece, Square)>,
    /// What the counts make of the side under the rules in force.
    pub(crate) status: String,
}

/// What decided the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanExplanation {
    /// Game ply of the position the span starts from (0 = the FEN).
    pub start: usize,
    /// The moves after it, up to the end of the game.
    pub moves: Vec<ExplainedMove>,
    /// Red's and Black's summaries.
    pub sides: [SideReport; 2],
    /// The rule that decided, in words, with its docs/rules.md section.
    pub(crate) rule: String,
}

/// The explanation of a judged game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The judge's verdict (as `chuhan judge` prints it).
    pub outcome: Outcome,
    /// Moves played when the game ended (later ones are ignored).
    pub played: usize,
    /// The rules.
    pub(crate) rules: Rules,
    /// The deciding span, for a repetition verdict or a nine-round violation.
    pub span: Option<SpanExplanation>,
}

/// The notes of the legal move `m` in `pos` (the position before it) under
/// `rules`. `pos` is restored.
pub(crate) fn explain_move(pos: &mut Position, m: Move, rules: RuleSet) -> Vec<Note> {
    let us = pos.side_to_move();
    let before = pos.board().clone();
    let threats = new_threats(pos, m);
    let class = classify_move(pos, m, rules == RuleSet::Chinese);
    pos.make_move(m);
    let after = pos.board().clone();
    pos.unmake_move();
    let mut notes = Vec::new();
    if class.check {
        notes.push(Note::Check);
    }
    let counts = |t: &super::chase::NewThreat| if rules == RuleSet::Asian { t.asian } else { t.chinese };
    for t in &threats {
        let (Some(attacker), Some(victim)) = (after.piece_at(t.attacker), after.piece_at(t.victim)) else { continue };
        let (from, at) = (t.attacker, t.victim);
        match t.excuse {
            Some(Excuse::Parry { parried }) if counts(t) => {
                notes.push(Note::Parry { attacker, from, victim, at, parried })
            }
            Some(Excuse::PinningHorse) if counts(t) => notes.push(Note::PinningHorse { attacker, from, victim, at }),
            None if counts(t) => {
                let (asian, chinese) = threat_reason(&after, from, at);
                let why = if rules == RuleSet::Asian { asian } else { chinese };
                notes.push(Note::Chase { attacker, from, victim, at, why: why.unwrap_or(ChaseReason::Unprotected) });
            }
            _ => {}
        }
    }
    if class.mate_threat {
        notes.push(Note::MateThreat);
    }
    // New attacks that the rules in force do not count: exchange offers and follows.
    for (_, attacker, asq) in after.pieces(us) {
        if matches!(attacker.kind(), PieceKind::General | PieceKind::Soldier) {
            continue;
        }
        let old_sq = if asq == m.to() { m.from() } else { asq };
        for (_, victim, vsq) in after.pieces(!us) {
            if !is_victim_kind(victim, vsq) || !can_capture(&after, asq, vsq) || can_capture(&before, old_sq, vsq) {
                continue;
            }
            if threats.iter().any(|t| t.attacker == asq && t.victim == vsq) {
                continue;
            }
            let (asian, chinese) = threat_reason(&after, asq, vsq);
            if (if rules == RuleSet::Asian { asian } else { chinese }).is_some() {
                continue; // qualifies, but was not new as a qualifying pair
            }
            if attacker.kind() == victim.kind() && can_capture(&after, vsq, asq) {
                notes.push(Note::ExchangeOffer { attacker, from: asq, victim, at: vsq });
            } else {
                notes.push(Note::Follow { attacker, from: asq, victim, at: vsq });
            }
        }
    }
    // Blocks and removed screens: enemy attacks on our pieces (the general
    // included) that the move cut without moving the target or taking the attacker.
    for (_, attacker, from) in before.pieces(!us) {
        if from == m.to() {
            continue;
        }
        for (_, target, at) in after.pieces(us) {
            if at == m.to()
                || !attacks_square(&before, attacker, from, at)
                || attacks_square(&after, attacker, from, at)
            {
                continue;
            }
            let screen = attacker.kind() == PieceKind::Cannon && between(from, m.from(), at);
            let block = between(from, m.to(), at) || leg_or_eye(attacker, from, at) == Some(m.to());
            if screen || block {
                notes.push(Note::Block { attacker, from, target, at, screen });
            }
        }
    }
    notes
}

/// Whether `b` lies strictly between `a` and `c` on one rank or file.
fn between(a: Square, b: Square, c: Square) -> bool {
    let (lo_f, hi_f) = (a.file().min(c.file()), a.file().max(c.file()));
    let (lo_r, hi_r) = (a.rank().min(c.rank()), a.rank().max(c.rank()));
    (a.rank() == c.rank() && b.rank() == a.rank() && lo_f < b.file() && b.file() < hi_f)
        || (a.file() == c.file() && b.file() == a.file() && lo_r < b.rank() && b.rank() < hi_r)
}

/// The point that blocks a horse's (leg) or an elephant's (eye) move from `from` to `to`.
fn leg_or_eye(piece: Piece, from: Square, to: Square) -> Option<Square> {
    let delta = (to.0 as i16 - from.0 as i16 + 256) as usize;
    let off = match piece.kind() {
        PieceKind::Horse => crate::attacks::HORSE_LEG[delta],
        PieceKind::Elephant => crate::attacks::ELEPHANT_EYE[delta],
        _ => 0,
    };
    (off != 0).then(|| from.offset(off as i16))
}

fn side_report(classes: &[(Color, MoveClass)], side: Color, end: &Position, rules: RuleSet) -> SideReport {
    let s = summarize(classes, side);
    let chased_throughout: Vec<(Piece, Square)> = super::chase::victim_ids(s.same_victims)
        .filter_map(|id| {
            let sq = end.board().square_of(id);
            end.board().piece_at(sq).filter(|_| end.board().cell(sq) == id).map(|p| (p, sq))
        })
        .collect();
    let status = match rules {
        RuleSet::Asian => match asian_rank(&s) {
            2 => "rank 2: checked on every move (perpetual check)".to_string(),
            1 => {
                let victims: Vec<String> =
                    chased_throughout.iter().map(|&(p, sq)| format!("the {} on {sq}", name(p))).collect();
                format!("rank 1: chased {} on every move (perpetual chase)", victims.join(" and "))
            }
            _ => "rank 0: neither checked on every move nor chased one piece on every move".to_string(),
        },
        RuleSet::Chinese => {
            if chinese_forbidden(&s) {
                format!("forbidden: every move an attack ({})", chinese_violation(&s).name())
            } else {
                format!("allowed: {} of {} moves idle", s.moves - s.attacks, s.moves)
            }
        }
    };
    SideReport { side, summary: s, chased_throughout, status }
}

fn rule_text(v: SpanVerdict, red: &SideSummary, black: &SideSummary, rules: RuleSet) -> String {
    match rules {
        RuleSet::Asian => {
            let (r, b) = (asian_rank(red), asian_rank(black));
            match v {
                SpanVerdict::Draw => {
                    format!("Asian rules (docs/rules.md 3.2): equal ranks ({r} and {b}), the repetition is a draw")
                }
                SpanVerdict::Loss { loser, violation } => format!(
                    "Asian rules (docs/rules.md 3.2): {loser} has the higher rank ({} against {}): {} loses for {}",
                    r.max(b),
                    r.min(b),
                    loser,
                    violation.name()
                ),
            }
        }
        RuleSet::Chinese => match v {
            SpanVerdict::Draw => {
                if chinese_forbidden(red) && chinese_forbidden(black) {
                    "Chinese rules (docs/rules.md 3.3): both sides forbidden, the repetition is a draw".to_string()
                } else {
                    "Chinese rules (docs/rules.md 3.3): neither side forbidden, the repetition is a draw".to_string()
                }
            }
            SpanVerdict::Loss { loser, violation } => {
                let other = if loser == Color::Red { black } else { red };
                if chinese_forbidden(other) {
                    format!(
                        "Chinese rules (docs/rules.md 3.3): both sides forbidden, but {loser} only checks against \
                         an opponent who chases or threatens: {loser} loses for {}",
                        violation.name()
                    )
                } else {
                    format!(
                        "Chinese rules (docs/rules.md 3.3): {loser} is forbidden (长打) and {} is not: {loser} loses \
                         for {}",
                        !loser,
                        violation.name()
                    )
                }
            }
        },
    }
}

/// Judges the game as [`judge_game`] does and explains the verdict: for a
/// repetition or a nine-round violation, the span that decided it.
pub fn explain_game<'a>(
    fen: &str,
    relaxed: bool,
    moves: impl IntoIterator<Item = &'a str>,
    rules: &Rules,
) -> Result<Explanation, JudgeError> {
    let moves: Vec<&str> = moves.into_iter().collect();
    let (outcome, played) = judge_game(fen, relaxed, moves.iter().copied(), rules)?;
    let end = play_moves(fen, relaxed, moves[..played].iter().copied())?;
    let start = match outcome.reason {
        Reason::Violation { violation: Violation::NineRound, .. } => Some(end.game_ply() + 1 - 2 * NINE_ROUNDS),
        Reason::Violation { .. } | Reason::Repetition => threefold_span_start(&end),
        _ => None,
    };
    let span = start.map(|start| explain_span(&end, start, rules.set, outcome.reason));
    Ok(Explanation { outcome, played, rules: *rules, span })
}

fn explain_span(end: &Position, start: usize, set: RuleSet, reason: Reason) -> SpanExplanation {
    let n = end.game_ply();
    let mut replay = end.clone();
    for _ in start..n {
        replay.unmake_move();
    }
    let mut moves = Vec::with_capacity(n - start);
    let mut classes = Vec::with_capacity(n - start);
    for ply in start + 1..=n {
        let m = end.states()[ply].mv;
        let side = replay.side_to_move();
        let class = classify_move(&mut replay, m, set == RuleSet::Chinese);
        let notes = explain_move(&mut replay, m, set);
        let chinese = notation::chinese(&replay, m).unwrap_or_default();
        moves.push(ExplainedMove { ply, side, iccs: m.to_string(), chinese, class, notes });
        classes.push((side, class));
        replay.make_move(m);
    }
    let sides = [side_report(&classes, Color::Red, end, set), side_report(&classes, Color::Black, end, set)];
    let rule = match reason {
        Reason::Violation { by, violation: Violation::NineRound } => format!(
            "Chinese rules, nine-round rule (docs/rules.md 3.3): {by} made its last {NINE_ROUNDS} moves with the \
             same piece(s) over three or more points, every one an attack, while {} did not attack on every move",
            !by
        ),
        _ => rule_text(verdict(&classes, set), &sides[0].summary, &sides[1].summary, set),
    };
    SpanExplanation { start, moves, sides, rule }
}

impl fmt::Display for Explanation {
    /// The judge line, then (for a decided span) one line per move, the
    /// side summaries and the rule.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.outcome)?;
        let Some(span) = &self.span else {
            return writeln!(f, "no repetition span decided this game (rules {})", self.rules.set);
        };
        writeln!(
            f,
            "span: moves {}-{} after the position at ply {} (rules {})",
            span.start + 1,
            span.start + span.moves.len(),
            span.start,
            self.rules.set
        )?;
        for m in &span.moves {
            let notes: Vec<String> = m.notes.iter().filter(|n| **n != Note::Check).map(|n| n.to_string()).collect();
            let notes = match (notes.is_empty(), m.class.check) {
                (false, _) => notes.join("; "),
                (true, true) => "gives check".to_string(),
                (true, false) => "plain move".to_string(),
            };
            let head = m.kind(self.rules.set);
            writeln!(f, "{:>4}. {:<5} {} {}  {head}: {notes}", m.ply, m.side.name(), m.iccs, m.chinese)?;
        }
        for s in &span.sides {
            let t = &s.summary;
            match self.rules.set {
                RuleSet::Asian => writeln!(
                    f,
                    "{}: {} moves, {} checks, {} chases; {}",
                    s.side, t.moves, t.checks, t.asian_chases, s.status
                )?,
                RuleSet::Chinese => writeln!(
                    f,
                    "{}: {} moves, {} checks, {} chases, {} mate threats ({} attacks); {}",
                    s.side, t.moves, t.checks, t.chinese_chases, t.mate_threats, t.attacks, s.status
                )?,
            }
        }
        writeln!(f, "verdict: {}", span.rule)
    }
}
