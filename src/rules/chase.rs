//! Move classification for the repetition rules (docs/rules.md 3.1 and 3.3): does a
//! move check, which enemy pieces does it newly *chase* (捉) under the Asian and
//! under the Chinese definition, and (Chinese rules only) does it threaten
//! mate (杀).
//!
//! Rules implemented here, by docs/rules.md section:
//! - 3.1 threats: a legal capture, as if the attacker's side were to move, so a
//!   pinned piece threatens only along its pin line ([`can_capture`]); no
//!   chases by the general or a soldier; no victims among generals and
//!   uncrossed soldiers;
//! - 3.1 protection: a legal recapture after the capture; a pinned defender or a
//!   general that would face the other general is a false root (假根);
//! - 3.1 the Asian chase: unprotected or falsely protected victims, and
//!   chariots under a horse or cannon, chariots/horses/cannons under an
//!   advisor or elephant whatever the protection; same-kind attacks the victim
//!   can answer by capturing back are exchange offers (兑);
//! - 3.3 the Chinese chase: also under-protected victims, by a small static
//!   exchange ([`exchange_value`]);
//! - 3.1 "newly": a set difference over (attacker, victim) pairs between the
//!   position before the move and after it, both with the mover to move (after
//!   the move: as if the opponent could pass). This covers direct,
//!   discovered and protection-removing chases, excludes a slider that only
//!   slides along the line it already attacked on, and, through
//!   [`Threats::standing`], a threat merely suspended by a check;
//! - 3.1 a parry is not a chase ([`Excuse::Parry`]): a pair that qualifies only
//!   because the move, blocking an enemy chariot's or cannon's attack on the
//!   attacker (or removing that cannon's screen), cut a protection running
//!   along that attack's line through the attacker's own point; a protection
//!   cut from the side still counts;
//! - 3.1 a chariot pinned by a horse: its attack on the pinning horse is no
//!   chase ([`Excuse::PinningHorse`]); the chariot itself, unable to capture
//!   back, can be chased by a chariot;
//! - 3.1 a move can be several things at once: checking moves are classified
//!   for chases too;
//! - 3.3 the mate threat: a new forced mate by consecutive checks within
//!   [`MATE_THREAT_DEPTH`] moves, were the mover to move again.
//!
//! Approximations (docs/rules.md 3.1, 3.3): quiet mating nets beyond that
//! horizon are idle; a move is classified on its own (no joint chases, no
//! causality between the two sides' moves); the parry rule recognises the
//! protection through the attacked piece's point only for enemy chariots and
//! cannons (the pieces that attack along lines).
//!
//! It owns the capture-threat analysis on a [`Board`]. It does not know about
//! repetitions or spans; [`super::repetition`] turns a sequence of classified
//! moves into a verdict, and [`super::explain`] names the reasons.
//!
//! Victims are reported as piece-id bit sets ([`VictimSet`], bit `id` set for
//! piece id 16..=47), so a fleeing victim stays the same victim.

use crate::attacks::{attacked_after, attacks_square, is_general_attacked};
use crate::board::{code_of, side_tag, Board, Color, Piece, PieceId, PieceKind, Square, EMPTY, OFF};
use crate::moves::Move;
use crate::position::Position;

/// A set of piece ids (bit `id` for id 16..=47).
pub(crate) type VictimSet = u64;

/// How deep (in moves of the attacker) the Chinese mate-threat test looks for
/// a mate by consecutive checks (docs/rules.md 3.3: "e.g. 3 moves").
pub const MATE_THREAT_DEPTH: u32 = 3;

/// What one move is, for the repetition rules.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveClass {
    /// The move gives check (including discovered check; docs/rules.md 3.1 将).
    pub check: bool,
    /// Enemy pieces newly chased under the Asian definition (docs/rules.md 3.1).
    pub chased: VictimSet,
    /// Enemy pieces newly chased under the Chinese definition (docs/rules.md 3.3:
    /// unprotected, falsely or under-protected, or a chariot attacked by a
    /// horse or cannon).
    pub chased_chinese: VictimSet,
    /// The move newly threatens mate by checks (docs/rules.md 3.3 杀): after it,
    /// were the mover to move again, it could force mate by consecutive checks
    /// within [`MATE_THREAT_DEPTH`] of its moves, and before it could not. Only
    /// computed when asked for and the move is neither a check nor a Chinese
    /// chase; otherwise false.
    pub mate_threat: bool,
}

impl MoveClass {
    /// Whether the move is an attack (打) in the Chinese sense (docs/rules.md 3.3).
    pub(crate) fn is_chinese_attack(&self) -> bool {
        self.check || self.chased_chinese != 0 || self.mate_threat
    }
}

/// Material values for the Chinese under-protection test (docs/rules.md 3.3):
/// chariot 4, horse 2, cannon 2, advisor 1, elephant 1, soldier 1. The general
/// gets a value larger than everything else together; it can only take part
/// in an exchange as its last capturer (legality forbids capturing onto an
/// attacked point).
pub(crate) const fn exchange_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General => 100,
        PieceKind::Chariot => 4,
        PieceKind::Horse | PieceKind::Cannon => 2,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Soldier => 1,
    }
}

#[inline]
fn piece_of(id: PieceId) -> Piece {
    Piece(code_of(id))
}

/// Whether the piece on `from` can legally capture the enemy piece on `to`,
/// whichever side is to move: it attacks `to` by its capture pattern and the
/// capture does not leave its own general attacked (or facing the other).
/// A pinned piece can therefore capture only along its pin line, e.g. its
/// pinner (docs/rules.md 3.1: "a pinned attacker threatens only its pinner").
pub(crate) fn can_capture(board: &Board, from: Square, to: Square) -> bool {
    let id = board.cell(from);
    let target = board.cell(to);
    if id == EMPTY || id == OFF || target == EMPTY || target == OFF {
        return false;
    }
    let piece = piece_of(id);
    let color = piece.color();
    if target & side_tag(color) != 0 || !attacks_square(board, piece, from, to) {
        return false;
    }
    let general = if piece.kind() == PieceKind::General { to } else { board.general(color) };
    if general == Square(0) {
        return true;
    }
    !attacked_after(board, from.0, to.0, id, general, !color)
}

/// Whether any piece of `color` can legally capture on `sq`.
pub(crate) fn has_capture_onto(board: &Board, color: Color, sq: Square) -> bool {
    board.pieces(color).any(|(_, _, from)| can_capture(board, from, sq))
}

/// The least valuable piece of `color` that can legally capture on `sq`.
fn least_valuable_capturer(board: &Board, color: Color, sq: Square) -> Option<Square> {
    board
        .pieces(color)
        .filter(|&(_, _, from)| can_capture(board, from, sq))
        .min_by_key(|&(_, piece, _)| exchange_value(piece.kind()))
        .map(|(_, _, from)| from)
}

/// Static exchange on `sq` with `side` to capture next: the material `side`
/// can gain by starting (or declining) a capture sequence there, each side
/// always recapturing with its least valuable legal capturer.
fn exchange_gain(board: &Board, sq: Square, side: Color) -> i32 {
    let Some(from) = least_valuable_capturer(board, side, sq) else { return 0 };
    let Some(victim) = board.piece_at(sq) else { return 0 };
    let mut next = board.clone();
    next.move_piece(from, sq);
    (exchange_value(victim.kind()) - exchange_gain(&next, sq, !side)).max(0)
}

/// Whether a piece is a possible chase victim at all: not a general, not a
/// soldier on its own side of the river (docs/rules.md 3.1).
pub(crate) fn is_victim_kind(piece: Piece, sq: Square) -> bool {
    match piece.kind() {
        PieceKind::General => false,
        PieceKind::Soldier => !sq.is_home_half(piece.color()),
        _ => true,
    }
}

/// Whether the attack counts whatever the victim's protection: a chariot
/// attacked by a horse or cannon, or a chariot, horse or cannon attacked by an
/// advisor or elephant (docs/rules.md 3.1).
fn is_stronger_victim(attacker: PieceKind, victim: PieceKind) -> bool {
    use PieceKind::*;
    match attacker {
        Horse | Cannon => victim == Chariot,
        Advisor | Elephant => matches!(victim, Chariot | Horse | Cannon),
        _ => false,
    }
}

/// The chase-qualifying capture threats of one side in a position, per
/// attacker id (`[attacker id] -> victims`), under both definitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Threats {
    /// Asian definition (docs/rules.md 3.1).
    pub(crate) asian: [VictimSet; 48],
    /// Chinese definition (docs/rules.md 3.3).
    pub(crate) chinese: [VictimSet; 48],
}

impl Threats {
    /// Computes the threats of `by` on `board` (as if `by` were to move).
    pub(crate) fn of(board: &Board, by: Color) -> Threats {
        Threats::compute(board, by, false)
    }

    /// Like [`Threats::of`], but when `by` is in check a capture counts as a
    /// threat if it would be legal without the current checking pieces (it
    /// does not expose the general to a new attack). This is the "before"
    /// set for a move that answers a check: a threat the check only
    /// suspended is not new once the check is answered.
    pub(crate) fn standing(board: &Board, by: Color) -> Threats {
        Threats::compute(board, by, is_general_attacked(board, by))
    }

    fn compute(board: &Board, by: Color, in_check: bool) -> Threats {
        let checkers = if in_check { crate::attacks::checkers(board, by) } else { Vec::new() };
        let mut t = Threats { asian: [0; 48], chinese: [0; 48] };
        for (aid, attacker, asq) in board.pieces(by) {
            let ak = attacker.kind();
            // docs/rules.md 3.1/3.3: chases by the general or a soldier are allowed.
            if ak == PieceKind::General || ak == PieceKind::Soldier {
                continue;
            }
            for (vid, victim, vsq) in board.pieces(!by) {
                if !is_victim_kind(victim, vsq) {
                    continue;
                }
                let threat =
                    can_capture(board, asq, vsq) || (in_check && can_capture_ignoring(board, asq, vsq, &checkers));
                if !threat {
                    continue;
                }
                let (asian, chinese) = classify_threat(board, asq, vsq, ak, victim.kind());
                if asian {
                    t.asian[aid as usize] |= 1u64 << vid;
                }
                if chinese {
                    t.chinese[aid as usize] |= 1u64 << vid;
                }
            }
        }
        t
    }
}

/// Whether `from` x `to` would be legal on `board` with the pieces on
/// `ignored` (other than the victim) taken off.
fn can_capture_ignoring(board: &Board, from: Square, to: Square, ignored: &[Square]) -> bool {
    if ignored.iter().all(|&sq| sq == to) {
        return false;
    }
    let mut b = board.clone();
    for &sq in ignored.iter().filter(|&&sq| sq != to && sq != from) {
        b.remove(sq);
    }
    can_capture(&b, from, to)
}

/// Why an attack on a victim qualifies as a chase ([`threat_reason`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ChaseReason {
    /// No piece of the victim's side attacks its point at all.
    Unprotected,
    /// Its defenders cannot legally recapture (a pinned defender, or a general
    /// that would face the other general: a fake root, 假根).
    FalselyProtected,
    /// Protected, but the exchange on its point wins material (Chinese rules only).
    UnderProtected,
    /// A chariot attacked by a horse or cannon: counts whatever the protection.
    ChariotByHorseOrCannon,
    /// A chariot, horse or cannon attacked by an advisor or elephant: counts
    /// whatever the protection.
    StrongerVictim,
}

impl ChaseReason {
    /// Text for explanations ("unprotected", ...).
    pub(crate) const fn text(self) -> &'static str {
        match self {
            ChaseReason::Unprotected => "unprotected",
            ChaseReason::FalselyProtected => "falsely protected",
            ChaseReason::UnderProtected => "under-protected",
            ChaseReason::ChariotByHorseOrCannon => "a chariot attacked by a horse or cannon",
            ChaseReason::StrongerVictim => "attacked by an advisor or elephant",
        }
    }
}

/// The rule-set verdicts on one legal capture threat `asq` x `vsq`:
/// (Asian reason, Chinese reason); `None` for no chase under that definition.
pub(crate) fn threat_reason(board: &Board, asq: Square, vsq: Square) -> (Option<ChaseReason>, Option<ChaseReason>) {
    let (Some(attacker), Some(victim)) = (board.piece_at(asq), board.piece_at(vsq)) else { return (None, None) };
    let (ak, vk) = (attacker.kind(), victim.kind());
    if matches!(ak, PieceKind::Horse | PieceKind::Cannon) && vk == PieceKind::Chariot {
        return (Some(ChaseReason::ChariotByHorseOrCannon), Some(ChaseReason::ChariotByHorseOrCannon));
    }
    if ak == vk && can_capture(board, vsq, asq) {
        return (None, None);
    }
    let mut after = board.clone();
    after.move_piece(asq, vsq);
    let defender = victim.color();
    if has_capture_onto(&after, defender, vsq) {
        let asian = is_stronger_victim(ak, vk).then_some(ChaseReason::StrongerVictim);
        let under = vk != PieceKind::Soldier && exchange_value(vk) - exchange_gain(&after, vsq, defender) > 0;
        return (asian, under.then_some(ChaseReason::UnderProtected));
    }
    let fake = after.pieces(defender).any(|(_, p, from)| attacks_square(&after, p, from, vsq));
    let why = if fake { ChaseReason::FalselyProtected } else { ChaseReason::Unprotected };
    (Some(why), Some(why))
}

/// Classifies one legal capture threat `asq` x `vsq` as (Asian chase, Chinese chase).
fn classify_threat(board: &Board, asq: Square, vsq: Square, ak: PieceKind, vk: PieceKind) -> (bool, bool) {
    // docs/rules.md 3.1 / 3.3: a chariot attacked by a horse or cannon always counts.
    if matches!(ak, PieceKind::Horse | PieceKind::Cannon) && vk == PieceKind::Chariot {
        return (true, true);
    }
    // docs/rules.md 3.1: same-type attack where the victim can capture back is an
    // exchange offer (兑), not a chase (both rule sets; docs/rules.md 3.3 lists 兑 as idle).
    if ak == vk && can_capture(board, vsq, asq) {
        return (false, false);
    }
    let mut after = board.clone();
    after.move_piece(asq, vsq);
    let defender = piece_of(board.cell(vsq)).color();
    let protected = has_capture_onto(&after, defender, vsq);
    // Asian: advisor/elephant on chariot, horse or cannon counts whatever the
    // protection; otherwise only an unprotected (or falsely protected) victim.
    let asian = is_stronger_victim(ak, vk) || !protected;
    // Chinese (docs/rules.md 3.3): unprotected, falsely protected or under-protected
    // (the exchange on the square gains material). A soldier traded for a
    // piece never counts as gain, so a soldier victim counts only unprotected.
    let chinese = if !protected {
        true
    } else if vk == PieceKind::Soldier {
        false
    } else {
        exchange_value(vk) - exchange_gain(&after, vsq, defender) > 0
    };
    (asian, chinese)
}

/// Why a newly qualifying (attacker, victim) pair is nevertheless no chase
/// (docs/rules.md 3.1, "a parry is not a chase").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Excuse {
    /// The move parried the attack of the enemy chariot or cannon on `attacker`
    /// (blocking its line, or taking away its screen), and the victim's only
    /// lost protection ran along that line through `attacker`'s point.
    Parry {
        /// The enemy piece whose attack was parried.
        parried: Square,
    },
    /// The attacker is a chariot pinned by the victim, a horse (it stands on
    /// the horse's leg towards its own general): its attack on the pinning horse is no chase.
    PinningHorse,
}

/// A newly qualifying (attacker, victim) pair of a move, with what decided it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NewThreat {
    /// The attacker's point after the move.
    pub(crate) attacker: Square,
    /// The victim's point.
    pub victim: Square,
    /// Qualifies under the Asian definition.
    pub(crate) asian: bool,
    /// Qualifies under the Chinese definition.
    pub(crate) chinese: bool,
    /// Why it is no chase after all, if it is excused.
    pub excuse: Option<Excuse>,
}

/// Whether the chariot on `csq` is pinned by the enemy horse on `hsq`: `csq`
/// is the horse's leg on a jump onto the chariot side's general.
fn pinned_by_horse(board: &Board, csq: Square, hsq: Square) -> bool {
    let (Some(chariot), Some(horse)) = (board.piece_at(csq), board.piece_at(hsq)) else { return false };
    if chariot.kind() != PieceKind::Chariot || horse.kind() != PieceKind::Horse || chariot.color() == horse.color() {
        return false;
    }
    let g = board.general(chariot.color());
    let leg = crate::attacks::HORSE_LEG[(g.0 as i16 - hsq.0 as i16 + 256) as usize];
    leg != 0 && hsq.offset(leg as i16) == csq
}

/// Whether `b` lies strictly between `a` and `c` on one rank or file.
fn strictly_between(a: Square, b: Square, c: Square) -> bool {
    let (af, ar, bf, br, cf, cr) = (a.file(), a.rank(), b.file(), b.rank(), c.file(), c.rank());
    (ar == br && br == cr && af.min(cf) < bf && bf < af.max(cf))
        || (af == bf && bf == cf && ar.min(cr) < br && br < ar.max(cr))
}

/// The defenders of `vsq` (pieces of its side that could legally recapture)
/// after the piece on `asq` captures there, as a piece-id set.
fn defenders(board: &Board, asq: Square, vsq: Square) -> u64 {
    let mut after = board.clone();
    let defender = match board.piece_at(vsq) {
        Some(p) => p.color(),
        None => return 0,
    };
    after.move_piece(asq, vsq);
    after
        .pieces(defender)
        .filter(|&(_, _, from)| can_capture(&after, from, vsq))
        .fold(0, |s, (id, _, _)| s | 1u64 << id)
}

/// docs/rules.md 3.1, "a parry is not a chase": whether the pair `bsq` x `vsq`
/// (the attacker did not move), newly qualifying after the move `m` from
/// `before` to `after`, owes its qualification only to protections that the
/// move cut while parrying an enemy attack on the attacker itself, along that
/// attack's line. Returns the parried enemy piece's point.
fn parry_excuse(before: &Board, after: &Board, m: Move, bsq: Square, vsq: Square) -> Option<Square> {
    let lost = defenders(before, bsq, vsq) & !defenders(after, bsq, vsq);
    if lost == 0 {
        return None;
    }
    let them = after.piece_at(vsq)?.color();
    let mut parried = None;
    for pid in victim_ids(lost) {
        let psq = before.square_of(pid);
        // The protection ran through the attacker's point: protector, attacker
        // and victim on one line, the attacker between them.
        if !strictly_between(psq, bsq, vsq) {
            return None;
        }
        // An enemy chariot or cannon on the protector's side of that line
        // (possibly the protector itself) attacked our piece before the move
        // and not after, and the move blocked or unscreened that segment.
        let found = before.pieces(them).find(|&(aid, a, asq)| {
            matches!(a.kind(), PieceKind::Chariot | PieceKind::Cannon)
                && after.square_of(aid) == asq
                && (asq == psq || strictly_between(psq, asq, bsq))
                && attacks_square(before, a, asq, bsq)
                && !attacks_square(after, a, asq, bsq)
                && (strictly_between(asq, m.to(), bsq) || strictly_between(asq, m.from(), bsq))
        });
        match found {
            Some((_, _, asq)) => parried = Some(asq),
            None => return None,
        }
    }
    parried
}

/// The newly qualifying (attacker, victim) pairs of the legal move `m` in
/// `pos` (the position before the move), judged as if the opponent could
/// pass after it, each with its excuse if it has one. `pos` is restored.
pub fn new_threats(pos: &mut Position, m: Move) -> Vec<NewThreat> {
    let us = pos.side_to_move();
    let before_board = pos.board().clone();
    let before = Threats::standing(&before_board, us);
    pos.make_move(m);
    let after = Threats::of(pos.board(), us);
    let out = new_threats_between(&before_board, pos.board(), m, &before, &after);
    pos.unmake_move();
    out
}

fn new_threats_between(
    before_board: &Board,
    board: &Board,
    m: Move,
    before: &Threats,
    after: &Threats,
) -> Vec<NewThreat> {
    let mut out = Vec::new();
    for i in 16..48 {
        let (na, nc) = (after.asian[i] & !before.asian[i], after.chinese[i] & !before.chinese[i]);
        if na | nc == 0 {
            continue;
        }
        let bsq = board.square_of(i as PieceId);
        for vid in victim_ids(na | nc) {
            let vsq = board.square_of(vid);
            let excuse = if pinned_by_horse(board, bsq, vsq) {
                Some(Excuse::PinningHorse)
            } else if bsq != m.to() && can_capture(before_board, bsq, vsq) {
                parry_excuse(before_board, board, m, bsq, vsq).map(|parried| Excuse::Parry { parried })
            } else {
                None
            };
            let bit = 1u64 << vid;
            out.push(NewThreat { attacker: bsq, victim: vsq, asian: na & bit != 0, chinese: nc & bit != 0, excuse });
        }
    }
    out
}

/// Classifies the legal move `m` in `pos` (the position before the move).
/// A checking move is also classified for chases (docs/rules.md 3.1: a move
/// can be several things at once). With `mate_threats`, a move that is
/// neither a check nor a Chinese chase is also tested for a mate threat
/// (docs/rules.md 3.3 杀; costly, Chinese rules only).
pub fn classify_move(pos: &mut Position, m: Move, mate_threats: bool) -> MoveClass {
    let us = pos.side_to_move();
    let before_board = pos.board().clone();
    let before = Threats::standing(&before_board, us);
    pos.make_move(m);
    let board = pos.board();
    let check = is_general_attacked(board, !us);
    let mut class = MoveClass { check, ..MoveClass::default() };
    let after = Threats::of(board, us);
    for t in new_threats_between(&before_board, board, m, &before, &after) {
        if t.excuse.is_none() {
            let bit = 1u64 << board.cell(t.victim);
            class.chased |= if t.asian { bit } else { 0 };
            class.chased_chinese |= if t.chinese { bit } else { 0 };
        }
    }
    if mate_threats && !check && class.chased_chinese == 0 {
        pos.make_null_move();
        let threat = mates_by_checks(pos, MATE_THREAT_DEPTH);
        pos.unmake_null_move();
        class.mate_threat = threat;
    }
    pos.unmake_move();
    // Only a new threat counts, as for chases: a mate the mover could already
    // force before the move (and did not play) is not threatened by it.
    if class.mate_threat && mates_by_checks(pos, MATE_THREAT_DEPTH) {
        class.mate_threat = false;
    }
    class
}

/// Whether the side to move can force mate with consecutive checks within
/// `depth` of its moves (the 杀 test of docs/rules.md 3.3).
pub fn mates_by_checks(pos: &mut Position, depth: u32) -> bool {
    if depth == 0 {
        return false;
    }
    for m in pos.legal_moves() {
        if !pos.gives_check(m) {
            continue;
        }
        pos.make_move(m);
        let replies = pos.legal_moves();
        let mated = replies.is_empty()
            || (depth > 1
                && replies.iter().all(|&r| {
                    pos.make_move(r);
                    let mate = mates_by_checks(pos, depth - 1);
                    pos.unmake_move();
                    mate
                }));
        pos.unmake_move();
        if mated {
            return true;
        }
    }
    false
}

/// Iterates the ids in a victim set.
pub(crate) fn victim_ids(set: VictimSet) -> impl Iterator<Item = PieceId> {
    (16u8..48).filter(move |&id| set & (1u64 << id) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(fen: &str, mv: &str) -> (Position, MoveClass) {
        let mut pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        let c = classify_move(&mut pos, m, true);
        (pos, c)
    }

    /// The id of the piece on `sq` (ICCS point) as a victim bit.
    fn bit(pos: &Position, sq: &str) -> VictimSet {
        1u64 << pos.board().cell(Square::parse(sq).unwrap())
    }

    #[test]
    fn unprotected_victim_is_chased() {
        // T04: chariot b3a3 attacks the lone horse on a7.
        let (pos, c) = class("4k4/9/n8/9/9/9/1R7/9/9/3K5 w - - 0 1", "b3a3");
        assert!(!c.check);
        assert_eq!(c.chased, bit(&pos, "a7"));
        assert_eq!(c.chased_chinese, bit(&pos, "a7"));
    }

    #[test]
    fn protected_victim_is_not_chased() {
        // T06: the horse on a7 is protected by the elephant on c5.
        let (_, c) = class("3rk4/9/n8/9/2b6/9/1R7/9/9/5K3 w - - 0 1", "b3a3");
        assert_eq!(c.chased, 0);
        assert_eq!(c.chased_chinese, 0);
    }

    #[test]
    fn pinned_defender_is_a_fake_root() {
        // T18: the advisor on e8 defends d7 but is pinned by the chariot on e1.
        let (pos, c) = class("4k4/4a4/3n5/9/9/9/9/1R7/4R4/5K3 w - - 0 1", "b2d2");
        assert_eq!(c.chased, bit(&pos, "d7"));
        // T19: without the pinning chariot the root is real.
        let (_, c) = class("4k4/4a4/3n5/9/9/9/9/1R7/9/5K3 w - - 0 1", "b2d2");
        assert_eq!(c.chased, 0);
    }

    #[test]
    fn general_defender_facing_the_other_is_a_fake_root() {
        // FSF-29: the general on e0 cannot retake on d0 (it would face d9).
        let (pos, c) = class("3k5/9/9/9/9/9/2r6/9/9/3NK4 b - - 0 1", "c3d3");
        assert_eq!(c.chased, bit(&pos, "d0"));
        // FSF-28: with the black horse on d6 the file is closed; the root is real.
        let (_, c) = class("3k5/9/9/3n5/9/9/2r6/9/9/3NK4 b - - 0 1", "c3d3");
        assert_eq!(c.chased, 0);
    }

    #[test]
    fn horse_or_cannon_on_chariot_counts_whatever_protection() {
        // T07: the chariot on a7 is protected by e7, the cannon still chases it.
        let (pos, c) = class("4k4/9/r3r4/9/9/pp7/9/9/1C7/3K5 w - - 0 1", "b1a1");
        assert_eq!(c.chased, bit(&pos, "a7"));
        assert_eq!(c.chased_chinese, bit(&pos, "a7"));
        // A horse (c3-b5) on the same protected chariot.
        let (pos, c) = class("4k4/9/r3r4/9/9/9/2N6/9/9/3K5 w - - 0 1", "c3b5");
        assert_eq!(c.chased, bit(&pos, "a7"));
        assert_eq!(c.chased_chinese, bit(&pos, "a7"));
    }

    #[test]
    fn advisor_or_elephant_attack_counts_whatever_protection() {
        // The elephant e2-c4 attacks the horse on a2, which the chariot on a5 protects.
        let (pos, c) = class("4k4/9/9/9/r8/9/9/n3B4/9/3K5 w - - 0 1", "e2c4");
        assert_eq!(c.chased, bit(&pos, "a2"));
        // The advisor f0-e1 attacks the horse on d2, which the chariot on d6 protects.
        let (pos, c) = class("4k4/9/9/3r5/9/9/9/3n5/9/3K1A3 w - - 0 1", "f0e1");
        assert_eq!(c.chased, bit(&pos, "d2"));
        // A chariot attacking the same protected horse is no chase (control).
        let (_, c) = class("4k4/9/9/3r5/9/9/9/3n5/9/R2K5 w - - 0 1", "a0a2");
        assert_eq!(c.chased, 0);
    }

    #[test]
    fn same_type_attack_is_an_exchange_offer() {
        // T20: chariot on chariot, the victim can capture back.
        let (_, c) = class("4k4/9/r8/9/9/9/1R7/9/9/3K5 w - - 0 1", "b3a3");
        assert_eq!((c.chased, c.chased_chinese), (0, 0));
        // Horse g3-f5 on the unprotected horse g7 that can capture back: exchange offer.
        let (_, c) = class("3k5/9/6n2/9/9/9/6N2/9/9/5K3 w - - 0 1", "g3f5");
        assert_eq!((c.chased, c.chased_chinese), (0, 0));
        // The same with the black horse's leg (g6) blocked: it cannot capture back, so
        // the unprotected horse is chased.
        let (pos, c) = class("3k5/9/6n2/6p2/9/9/6N2/9/9/5K3 w - - 0 1", "g3f5");
        assert_eq!(c.chased, bit(&pos, "g7"));
    }

    #[test]
    fn general_and_soldier_chases_are_allowed() {
        // T10: the general attacks the unprotected cannon.
        let (_, c) = class("5k3/9/9/9/9/9/9/3c5/4K4/9 w - - 0 1", "e1d1");
        assert_eq!((c.chased, c.chased_chinese), (0, 0));
        // T11: the soldier attacks the unprotected cannon.
        let (_, c) = class("3k5/9/4c4/3P5/9/9/9/9/9/5K3 w - - 0 1", "d6e6");
        assert_eq!((c.chased, c.chased_chinese), (0, 0));
    }

    #[test]
    fn uncrossed_soldier_is_not_a_victim() {
        // The chariot attacks a black soldier still on its own half (e6): no chase.
        let (_, c) = class("3k5/9/9/4p4/9/9/9/9/9/R3K4 w - - 0 1", "a0a6");
        assert_eq!((c.chased, c.chased_chinese), (0, 0));
        // The same soldier across the river (e4) is a victim.
        let (pos, c) = class("4k4/9/9/9/9/4p4/9/9/9/R2K5 w - - 0 1", "a0a4");
        assert_eq!(c.chased, bit(&pos, "e4"));
        assert_eq!(c.chased_chinese, bit(&pos, "e4"));
    }

    #[test]
    fn pinned_attacker_only_threatens_its_pinner() {
        // T21: the chariot on d3 is pinned by d9; its attack on the cannon is no threat.
        let (_, c) = class("3rk4/9/9/9/9/c8/3R5/9/9/3K5 w - - 0 1", "d3d4");
        assert_eq!((c.chased, c.chased_chinese), (0, 0));
    }

    #[test]
    fn discovered_chase_counts() {
        // FSF-05: moving the cannon off f4 makes f6 (screen f5) attack the soldier on f1.
        let (pos, c) = class("5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1", "f4d4");
        assert_eq!(c.chased, bit(&pos, "f1"));
    }

    #[test]
    fn removing_protection_counts() {
        // The red chariot a0 attacks the cannon a6, protected along rank 6 by the chariot
        // h6. The horse f4-e6 blocks the rank: the cannon loses its root and is chased by
        // the chariot that did not move.
        let (pos, c) = class("3k5/9/9/c6r1/9/5N3/9/9/9/R4K3 w - - 0 1", "f4e6");
        assert_eq!(c.chased, bit(&pos, "a6"));
        // Without the blocking move (the horse goes elsewhere) nothing is chased.
        let (_, c) = class("3k5/9/9/c6r1/9/5N3/9/9/9/R4K3 w - - 0 1", "f4g2");
        assert_eq!(c.chased, 0);
    }

    #[test]
    fn victim_move_checks_are_classified_as_checks() {
        // T22: the black cannon d7 checks through the advisor screen.
        let mut pos = Position::from_fen("5k3/9/c8/9/3R5/9/9/3A5/9/3K5 w - - 0 1").unwrap();
        let m = pos.parse_move("d5a5").unwrap();
        pos.make_move(m);
        let m = pos.parse_move("a7d7").unwrap();
        let c = classify_move(&mut pos, m, true);
        assert!(c.check);
        assert!(c.is_chinese_attack());
    }

    #[test]
    fn under_protected_victim_is_a_chinese_chase_only() {
        // The black cannon e5 is protected by the chariot e7 and attacked by the red
        // chariot e2. The horse b2-d3 adds a second attacker: two against one wins the
        // cannon (docs/rules.md 3.3 under-protection), a Chinese chase but not an Asian one.
        let (pos, c) = class("4k4/9/4r4/9/4c4/9/9/1N2R4/9/3K5 w - - 0 1", "b2d3");
        assert_eq!(c.chased, 0, "protected cannon: no Asian chase");
        assert_eq!(c.chased_chinese, bit(&pos, "e5"), "two attackers against one defender");
    }

    #[test]
    fn mate_threat_is_detected() {
        // Black general e9 with advisors d9 and e8; the red chariot a1 cannot mate by
        // checks, but from g1 it threatens g1g9 and mate along rank 9 / the g- and
        // f-files (the red general e0 covers the e-file).
        let fen = "3ak4/4a4/9/9/9/9/9/9/R8/4K4 w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(!mates_by_checks(&mut pos, MATE_THREAT_DEPTH));
        let m = pos.parse_move("a1g1").unwrap();
        let c = classify_move(&mut pos, m, true);
        assert!(!c.check && c.mate_threat && c.is_chinese_attack());
        // Not computed when not asked for.
        assert!(!classify_move(&mut pos, m, false).mate_threat);
        let m = pos.parse_move("a1a2").unwrap();
        assert!(!classify_move(&mut pos, m, true).mate_threat);
        // A threat that already existed before the move is not a new one: two chariots
        // can mate by checks before and after a quiet move.
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/1R3K3 w - - 0 1").unwrap();
        assert!(mates_by_checks(&mut pos, MATE_THREAT_DEPTH));
        let m = pos.parse_move("a1a8").unwrap();
        assert!(!classify_move(&mut pos, m, true).mate_threat);
    }

    #[test]
    fn can_capture_respects_pins_and_facing() {
        let pos = Position::from_fen("3rk4/9/9/9/9/c8/3R5/9/9/3K5 w - - 0 1").unwrap();
        let sq = |s: &str| Square::parse(s).unwrap();
        assert!(!can_capture(pos.board(), sq("d3"), sq("a3")));
        assert!(can_capture(pos.board(), sq("d3"), sq("d9")));
    }

    #[test]
    fn a_threat_suspended_by_check_is_not_new() {
        // The red chariot a1 attacks the unprotected black horse a7, but red is in check
        // from the chariot i0 along rank 0, so a1xa7 is illegal for now. The general steps
        // out of check (e0e1): the threat is legal again, but it is not a new chase.
        let fen = "3k5/9/n8/9/9/9/9/9/R8/3AK3r w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(pos.in_check());
        let a1a7 = Move::from_iccs("a1a7").unwrap();
        assert!(!pos.is_legal(a1a7));
        let m = pos.parse_move("e0e1").unwrap();
        let c = classify_move(&mut pos, m, false);
        assert_eq!((c.chased, c.chased_chinese), (0, 0));
    }
}
