//! Static evaluation: [`evaluate`] scores a position from the side to move's
//! point of view. Material and piece-square values come incrementally from
//! the position ([`crate::position::Psq`], its tables built from
//! [`weights`]); the remaining terms are computed here. All weights live in
//! [`weights`]; for tuning, [`params`] names them as one vector and
//! [`trace()`] gives a position's coefficients over it, computed by this same
//! code (the positional terms go through a `Terms` sink: the engine's sums
//! with the compile-time weights, or the trace's recorder). [`breakdown`]
//! lays the trace out term by term for the `eval` command; [`wdl`] turns a
//! score into win/draw/loss probabilities.
//!
//! The evaluation knows no search and no repetition rules.

pub mod breakdown;
pub mod params;
pub(crate) mod trace;
pub mod wdl;
pub(crate) mod weights;

pub(crate) use trace::{trace, Trace};

use crate::attacks::{ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_JUMPS, SOLDIER_STEPS};
use crate::board::square::{EAST, NORTH, ORTHOGONAL, SOUTH, WEST};
use crate::board::{code_of, each_direction, side_tag, Board, Color, PieceKind, Square, EMPTY, OFF};
use crate::position::Position;
use crate::score::Score;
use weights::*;

/// The static evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> Score {
    Score(evaluate_raw(pos))
}

/// `mg` and `eg` blended by game phase `phase` (`PHASE_MAX`: all
/// middlegame, 0: all endgame).
#[inline(always)]
pub(crate) fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The game phase of `pos`, clamped to `0..=PHASE_MAX`.
#[inline(always)]
pub fn phase_of(pos: &Position) -> i32 {
    pos.psq().phase.clamp(0, PHASE_MAX)
}

/// The evaluation's own material value of the piece in a cell (0 for an
/// empty or off-board cell) at game phase `phase`, in evaluation units: what
/// capturing it changes the material balance by.
#[inline]
pub fn material_value(id: u8, phase: i32) -> i32 {
    let code = code_of(id);
    if code == 0 || code == 0x80 {
        0
    } else {
        let (mg, eg) = MATERIAL[((code & 7) - 1) as usize];
        taper(mg, eg, phase)
    }
}

/// `KING_ZONE[color][sq]`: the points around `color`'s palace where enemy
/// pieces count as attackers: files c..g of its first four ranks.
static KING_ZONE: [[bool; 256]; 2] = {
    let mut t = [[false; 256]; 2];
    let mut file = 2;
    while file <= 6 {
        let mut rank = 0;
        while rank <= 3 {
            t[0][Square::new(file, rank).index()] = true;
            t[1][Square::new(file, 9 - rank).index()] = true;
            rank += 1;
        }
        file += 1;
    }
    t
};

/// Piece counts of one side, by kind index.
#[derive(Copy, Clone, Default)]
struct Counts([i32; 7]);

impl Counts {
    #[inline(always)]
    fn of(board: &Board, color: Color) -> Counts {
        let mut c = Counts::default();
        for k in PieceKind::ALL {
            c.0[k.index()] = board.count(color, k) as i32;
        }
        c
    }
    fn get(&self, k: PieceKind) -> i32 {
        self.0[k.index()]
    }
    /// Chariots, horses, cannons and soldiers: pieces that can cross the river.
    fn attackers(&self) -> i32 {
        self.get(PieceKind::Chariot)
            + self.get(PieceKind::Horse)
            + self.get(PieceKind::Cannon)
            + self.get(PieceKind::Soldier)
    }
    fn defenders(&self) -> i32 {
        self.get(PieceKind::Advisor) + self.get(PieceKind::Elephant)
    }
}

/// Whether neither side has a chariot, horse, cannon or soldier (a piece
/// that can cross the river): nobody can win, and the evaluation is exactly
/// 0. This is the plainest of the dead draws of [`crate::rules::is_dead_draw`]
/// (docs/rules.md section 2); its other constellations (soldiers only on the
/// enemy's back rank, a lone cannon) are scaled down by `scale_factor`
/// instead of set to 0, which keeps the side ahead in material preferring
/// them. Treating them as 0 here would change the search.
#[inline(always)]
fn no_attackers_left(red: &Counts, black: &Counts) -> bool {
    red.attackers() == 0 && black.attackers() == 0
}

#[inline(always)]
fn add(acc: &mut (i32, i32), w: Pair, n: i32) {
    acc.0 += w.0 * n;
    acc.1 += w.1 * n;
}

/// Where the positional terms go: the running (middlegame, endgame) sums of
/// the engine's evaluation, or the coefficient trace of the tuner. Each call
/// carries the weight's compile-time value and its parameter index
/// ([`params::id`]); the sums ignore the index, the trace the value.
trait Terms {
    /// `n` times the pair `w` (parameters `id`, and its endgame partner).
    fn pair(&mut self, id: usize, w: Pair, n: i32);
    /// `n` times the middlegame-only weight `w` (parameter `id`).
    fn mg(&mut self, id: usize, w: i32, n: i32);
}

impl Terms for (i32, i32) {
    #[inline(always)]
    fn pair(&mut self, _id: usize, w: Pair, n: i32) {
        add(self, w, n);
    }
    #[inline(always)]
    fn mg(&mut self, _id: usize, w: i32, n: i32) {
        self.0 += w * n;
    }
}

/// `term!(t, NAME, n)`: adds `n` times the weight `NAME` of [`weights`] to
/// `t`, naming it once for both its value and its parameter index.
macro_rules! term {
    ($t:expr, $name:ident, $n:expr) => {
        $t.pair(params::id::$name, $name, $n)
    };
}

/// `term_of!(t, NAME, k, n)`: the same for entry `k` of an array of pairs.
macro_rules! term_of {
    ($t:expr, $name:ident, $k:expr, $n:expr) => {{
        let k: usize = $k;
        $t.pair(params::id::$name + 2 * k, $name[k], $n)
    }};
}

/// `scale!(NAME)`: a scale factor's value and parameter index.
macro_rules! scale {
    ($name:ident) => {
        ($name, params::id::$name)
    };
}

/// The first non-empty cells east, west, north and south of the point `s`,
/// and the number of empty points between them (the point's line mobility).
#[inline(always)]
fn blockers(board: &Board, s: u8) -> ([u8; 4], i32) {
    let (e, w, n, so) =
        (board.first_from(s, EAST), board.first_from(s, WEST), board.first_from(s, NORTH), board.first_from(s, SOUTH));
    let empty = (e as i32 - w as i32 - 2) + ((n >> 4) as i32 - (so >> 4) as i32 - 2);
    ([e, w, n, so], empty)
}

#[inline(always)]
fn is_kind(id: u8, color: Color, kind: PieceKind) -> bool {
    code_of(id) == (color as u8) << 3 | kind as u8
}

/// What one side's pieces attack, as masks over piece ids: bit `id` is set
/// when the piece `id` stands where a piece of the group could capture it
/// (an enemy piece: attacked; one of the side's own: defended). Chariots
/// reach the first piece on each line, cannons the first piece behind
/// exactly one screen, horses jump over a free leg, elephants over a free
/// eye on their own side of the river, soldiers step forward (and sideways
/// once across the river), advisors and the general step inside their
/// palace; the facing-generals rule is not an attack here. The mobility
/// loops of [`side_terms`] build them from the lines and jumps they look at
/// anyway, and the threat terms ([`threat_terms`]) read them with a few ANDs
/// per attacked piece.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub(crate) struct Attacks {
    soldiers: u64,
    /// Horses and cannons.
    minors: u64,
    /// Advisors and elephants.
    defenders: u64,
    /// Every piece, the general and the chariots included.
    any: u64,
}

/// The bit of the piece on a cell in [`Attacks`]: [`EMPTY`] (0) and [`OFF`]
/// (64) both land on bit 0, which is no piece's id (ids are 16..48).
#[inline(always)]
fn id_bit(cell: u8) -> u64 {
    1u64 << (cell & 63)
}

/// The threat and hanging-piece terms of `us`'s pieces, by kind, from what
/// each side attacks (`ours`, `theirs`; see [`Attacks`]). A loop over the
/// attacked pieces (a few at most) rather than a count per kind and term:
/// without the POPCNT instruction (the portable x86-64 build) a count costs
/// a dozen instructions.
#[inline(always)]
fn threat_terms<T: Terms>(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks, mut t: T) -> T {
    use PieceKind::*;
    // Every piece but the general (slot 0).
    let mut m = board.side_mask(us) & theirs.any & !(1 << side_tag(us));
    while m != 0 {
        let id = m.trailing_zeros() as u8;
        m &= m - 1;
        let b = 1u64 << id;
        let k = (code_of(id) & 7) as usize - 1;
        let by = |set: u64, kinds: bool| (set & b != 0 && kinds) as i32;
        term_of!(t, THREAT_BY_SOLDIER, k, by(theirs.soldiers, k <= Cannon.index()));
        term_of!(t, THREAT_BY_MINOR, k, by(theirs.minors, k == Chariot.index()));
        term_of!(t, THREAT_BY_DEFENDER, k, by(theirs.defenders, (Horse.index()..=Cannon.index()).contains(&k)));
        term_of!(t, HANGING, k, by(!ours.any, true));
    }
    t
}

/// The positional terms of Red and of Black, added to `r` and `b`: each
/// side's [`side_terms`], then the threat terms, which need what both sides
/// attack.
#[inline(always)]
fn positional_terms<T: Terms>(board: &Board, red: &Counts, black: &Counts, r: T, b: T) -> (T, T) {
    let (r, red_att) = side_terms(board, Color::Red, red, black, r);
    let (b, black_att) = side_terms(board, Color::Black, black, red, b);
    (
        threat_terms(board, Color::Red, &red_att, &black_att, r),
        threat_terms(board, Color::Black, &black_att, &red_att, b),
    )
}

/// Positional terms in favour of `us`, added to `t`, and what `us`'s pieces
/// attack (for [`threat_terms`], which needs both sides').
fn side_terms<T: Terms>(board: &Board, us: Color, own: &Counts, their: &Counts, mut t: T) -> (T, Attacks) {
    let cells = board.cells();
    let side = us.index();
    let mut att = Attacks::default();
    let mut chariots = 0;
    let them = !us;
    let tag = side_tag(us);
    let enemy = side_tag(them);
    let their_back_rank = if us == Color::Red { 9 } else { 0 };
    let their_heart = if us == Color::Red { Square::new(4, 8) } else { Square::new(4, 1) };
    let eg = board.general(them);
    let our_general = board.general(us);

    // Chariots: mobility, open file, back rank.
    for sq in board.squares_of(us, PieceKind::Chariot) {
        let ([e, w, n, so], empty) = blockers(board, sq.0);
        // Empty points plus captures.
        let mut mob = empty;
        for end in [e, w, n, so] {
            mob += (cells[end as usize] & enemy != 0) as i32;
            chariots |= id_bit(cells[end as usize]);
        }
        let ahead = if us == Color::Red { n } else { so };
        if cells[ahead as usize] & tag == 0 {
            term!(t, CHARIOT_OPEN_FILE, 1);
        }
        term_of!(t, CHARIOT_MOBILITY, mob as usize, 1);
        if sq.rank() == their_back_rank && eg.rank() == their_back_rank {
            term!(t, CHARIOT_BACK_RANK, 1);
        }
    }
    // Horses: mobility (a trapped horse is its low entries), legs blocked by own pieces.
    for sq in board.squares_of(us, PieceKind::Horse) {
        // Jumps with a free leg to a point that is on the board and not ours
        // (the padding keeps every jump inside the array).
        let mut mob = 0;
        for (jump, leg) in HORSE_JUMPS {
            let to = cells[(sq.0 as i16 + jump) as usize];
            let free = cells[(sq.0 as i16 + leg) as usize] == EMPTY;
            mob += (free && to & (tag | OFF) == 0) as i32;
            att.minors |= id_bit(to) * free as u64;
        }
        let mut blocked = 0;
        for d in ORTHOGONAL {
            if cells[(sq.0 as i16 + d) as u8 as usize] & tag != 0 {
                blocked += 1;
            }
        }
        term_of!(t, HORSE_MOBILITY, mob as usize, 1);
        term!(t, HORSE_LEG_BLOCKED, blocked);
    }
    // Cannons: mobility, empty-head cannon, pinned palace horse, bottom cannon.
    for sq in board.squares_of(us, PieceKind::Cannon) {
        let ([e, w, n, so], empty) = blockers(board, sq.0);
        let mut mob = empty;
        // Captures over each screen.
        for (screen, d) in [(e, EAST), (w, WEST), (n, NORTH), (so, SOUTH)] {
            if cells[screen as usize] != OFF {
                let target = cells[board.first_from(screen, d) as usize];
                mob += (target & enemy != 0) as i32;
                att.minors |= id_bit(target);
            }
        }
        term_of!(t, CANNON_MOBILITY, mob as usize, 1);
        if eg != Square(0) && sq.file() == eg.file() {
            let d: i16 = if eg.0 > sq.0 { NORTH } else { SOUTH };
            // Pieces between the cannon and the enemy general: 0, 1 (then
            // `screen` is its id) or 2 meaning "two or more".
            let first = board.first_from(sq.0, d);
            let (screens, screen) = if first == eg.0 {
                (0, EMPTY)
            } else if board.first_from(first, d) == eg.0 {
                (1, cells[first as usize])
            } else {
                (2, EMPTY)
            };
            if screens == 0 {
                term!(t, EMPTY_HEAD_CANNON, 1);
            } else if screens == 1 && is_kind(screen, them, PieceKind::Horse) && board.square_of(screen) == their_heart
            {
                term!(t, CANNON_PINS_PALACE_HORSE, 1);
            }
        }
        if sq.rank() == their_back_rank && eg.rank() == their_back_rank {
            term!(t, BOTTOM_CANNON, 1);
        }
    }
    // Crossed soldiers side by side. (The step tables end with cell 0,
    // which is off the board, when a point has fewer steps.)
    for sq in board.squares_of(us, PieceKind::Soldier) {
        for to in SOLDIER_STEPS[side][sq.index()] {
            att.soldiers |= id_bit(cells[to as usize]);
        }
        if !sq.is_home_half(us) {
            let right = cells[sq.index() + 1];
            if is_kind(right, us, PieceKind::Soldier) && !Square(sq.0 + 1).is_home_half(us) {
                term!(t, SOLDIERS_CONNECTED, 1);
            }
        }
    }
    // Connected advisors and elephants.
    if own.get(PieceKind::Advisor) == 2 {
        let mut it = board.squares_of(us, PieceKind::Advisor);
        if let (Some(a), Some(b)) = (it.next(), it.next()) {
            if matches!((a.0 as i16 - b.0 as i16).abs(), 15 | 17) {
                term!(t, CONNECTED_ADVISORS, 1);
            }
        }
    }
    if own.get(PieceKind::Elephant) == 2 {
        let mut it = board.squares_of(us, PieceKind::Elephant);
        if let (Some(a), Some(b)) = (it.next(), it.next()) {
            let delta = b.0 as i16 - a.0 as i16;
            if matches!(delta.abs(), 30 | 34) && cells[(a.0 as i16 + delta / 2) as usize] == EMPTY {
                term!(t, CONNECTED_ELEPHANTS, 1);
            }
        }
    }
    // What the defenders and the general attack.
    for sq in board.squares_of(us, PieceKind::Advisor) {
        for to in ADVISOR_STEPS[sq.index()] {
            att.defenders |= id_bit(cells[to as usize]);
        }
    }
    for sq in board.squares_of(us, PieceKind::Elephant) {
        for (to, eye) in ELEPHANT_STEPS[side][sq.index()] {
            att.defenders |= id_bit(cells[to as usize]) * (cells[eye as usize] == EMPTY) as u64;
        }
    }
    let mut general = 0;
    for to in GENERAL_STEPS[our_general.index()] {
        general |= id_bit(cells[to as usize]);
    }
    att.any = att.soldiers | att.minors | att.defenders | chariots | general;
    // Pins against our general along its four lines: the only piece before
    // an enemy chariot, or our pieces among the two before an enemy cannon
    // (looked for only when one stands on the general's file or rank).
    let on_line = |sq: Square| sq.file() == our_general.file() || sq.rank() == our_general.rank();
    let heavy = board.mask(them, PieceKind::Chariot) | board.mask(them, PieceKind::Cannon);
    if our_general != Square(0) && board.squares_in(heavy).any(on_line) {
        each_direction(|d| {
            let p1 = board.first_from(our_general.0, d);
            let first = cells[p1 as usize];
            if first == OFF {
                return;
            }
            let p2 = board.first_from(p1, d);
            let c2 = cells[p2 as usize];
            if c2 == OFF {
                return;
            }
            if is_kind(c2, them, PieceKind::Chariot) {
                if first & tag != 0 {
                    term_of!(t, PINNED, (code_of(first) & 7) as usize - 1, 1);
                }
                return;
            }
            if is_kind(cells[board.first_from(p2, d) as usize], them, PieceKind::Cannon) {
                for id in [first, c2] {
                    if id & tag != 0 {
                        term_of!(t, PINNED, (code_of(id) & 7) as usize - 1, 1);
                    }
                }
            }
        });
    }
    // Our general's safety: defenders against the enemy's attackers.
    term!(t, ADVISOR_MISSING_VS_CHARIOT, (2 - own.get(PieceKind::Advisor)) * their.get(PieceKind::Chariot));
    term!(t, ELEPHANT_MISSING_VS_CANNON, (2 - own.get(PieceKind::Elephant)) * their.get(PieceKind::Cannon));
    if our_general != Square(0) {
        // Enemy attackers near our palace: files c..g, our first four ranks.
        let zone = &KING_ZONE[us.index()];
        let mut units = 0;
        let mut attackers = 0;
        // Horses, chariots, cannons and soldiers: slots 5..=15.
        let mut m = board.side_mask(them) & !(0x1F << side_tag(them));
        while m != 0 {
            let id = m.trailing_zeros() as u8;
            m &= m - 1;
            if zone[board.square_of(id).index()] {
                units += KING_ATTACK_UNITS[(code_of(id) & 7) as usize - 1];
                attackers += 1;
            }
        }
        if attackers >= 2 {
            let i = units.min(15) as usize;
            t.mg(params::id::KING_ATTACK + i, KING_ATTACK[i], -1);
        }
    }
    // Combinations.
    let (c, h, p) = (own.get(PieceKind::Chariot), own.get(PieceKind::Horse), own.get(PieceKind::Cannon));
    if c > 0 && h > 0 && p > 0 {
        term!(t, CHARIOT_HORSE_CANNON, 1);
    }
    if c == 0 && h > 0 && p > 0 {
        term!(t, HORSE_CANNON_NO_CHARIOT, 1);
    }
    if c == 0 && p == 2 {
        term!(t, DOUBLE_CANNON_NO_CHARIOT, 1);
    }
    // Material imbalance over the six kinds other than the general.
    for a in 0..6 {
        let na = own.0[a + 1];
        if na == 0 {
            continue;
        }
        for b in 0..a {
            term_of!(t, IMBALANCE_OURS, a * (a + 1) / 2 + b, na * own.0[b + 1]);
            term_of!(t, IMBALANCE_THEIRS, a * (a - 1) / 2 + b, na * their.0[b + 1]);
        }
        term_of!(t, IMBALANCE_OURS, a * (a + 1) / 2 + a, na * na);
    }
    (t, att)
}

/// How much of an advantage for `strong` survives known drawish balances
/// (out of [`SCALE_FULL`]), with the factor's parameter index.
fn scale_factor(board: &Board, strong: Color, s: &Counts, w: &Counts) -> (i32, usize) {
    let (c, h, p, soldiers) =
        (s.get(PieceKind::Chariot), s.get(PieceKind::Horse), s.get(PieceKind::Cannon), s.get(PieceKind::Soldier));
    if s.attackers() == 0 {
        return scale!(SCALE_NO_ATTACKERS);
    }
    // Two advisors and two elephants (at most two of each).
    let full_defenders = w.defenders() == 4;
    if c + h + p == 0 {
        // Soldiers only.
        let back = if strong == Color::Red { 9 } else { 0 };
        if board.squares_of(strong, PieceKind::Soldier).all(|sq| sq.rank() == back) {
            return scale!(SCALE_BOTTOM_SOLDIERS);
        }
        if soldiers == 1 && w.defenders() >= 2 {
            return scale!(SCALE_LONE_SOLDIER_VS_DEFENDERS);
        }
        if soldiers == 2 && full_defenders {
            return scale!(SCALE_SOLDIER_PAIR_VS_FULL_DEFENDERS);
        }
        return scale!(SCALE_FULL);
    }
    if soldiers == 0 && c == 0 {
        if h == 0 && p == 1 {
            return scale!(SCALE_LONE_CANNON);
        }
        if h == 1 && p == 0 && w.defenders() >= 2 {
            return scale!(SCALE_LONE_HORSE_VS_DEFENDERS);
        }
    }
    if c == 0 && full_defenders && matches!((h, p, soldiers), (1, 0, 1) | (0, 1, 1) | (0, 2, 0)) {
        return scale!(SCALE_TWO_VS_FULL_DEFENDERS);
    }
    if c == 1 && h + p + soldiers == 0 {
        // A lone chariot.
        let (wr, wh, wc) = (w.get(PieceKind::Chariot), w.get(PieceKind::Horse), w.get(PieceKind::Cannon));
        if wr == 0 && ((full_defenders && wh + wc <= 1) || (w.get(PieceKind::Advisor) == 2 && wh == 0 && wc == 1)) {
            return scale!(SCALE_CHARIOT_VS_FORTRESS);
        }
        if wr == 1 && wh + wc + w.get(PieceKind::Soldier) == 0 {
            return scale!(SCALE_CHARIOT_VS_CHARIOT);
        }
    }
    if c == w.get(PieceKind::Chariot)
        && h + p == w.get(PieceKind::Horse) + w.get(PieceKind::Cannon)
        && soldiers <= w.get(PieceKind::Soldier) + 1
        && c + h + p <= 2
    {
        return scale!(SCALE_EQUAL_ATTACKERS);
    }
    scale!(SCALE_FULL)
}

/// How much the evaluation knows (UCCI `knowledge`), each level adding to the
/// one below. Also the switch for measuring what the terms are worth in
/// self-play with one binary.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Knowledge {
    /// Material only (tapered by phase), tempo, and the dead-draw rule.
    None,
    /// Plus the piece-square tables.
    Small,
    /// Plus the positional terms: mobility, king safety, structure,
    /// combinations, material imbalance, threats, hanging and pinned pieces.
    Medium,
    /// Plus the scaling of known drawish endgames toward 0.
    #[default]
    Large,
}

impl Knowledge {
    /// Every level, least knowledge first.
    pub(crate) const ALL: [Knowledge; 4] = [Knowledge::None, Knowledge::Small, Knowledge::Medium, Knowledge::Large];
}

/// The evaluation (at any [`Knowledge`] level) of `pos` when it is `pos`
/// after a null move from a position evaluated as `before` at that level.
/// The board is the same and only the side to move changed; the evaluation is
/// the board's value signed for the side to move plus [`TEMPO`], so it is
/// `-before + 2 * TEMPO`, except for a dead draw (0 for both sides).
#[inline]
pub(crate) fn evaluate_after_null(pos: &Position, before: i32) -> i32 {
    let board = pos.board();
    if no_attackers_left(&Counts::of(board, Color::Red), &Counts::of(board, Color::Black)) {
        return 0;
    }
    -before + 2 * TEMPO
}

/// [`evaluate`] as a plain integer.
pub(crate) fn evaluate_raw(pos: &Position) -> i32 {
    evaluate_impl(pos, Knowledge::Large)
}

/// The static evaluation with only the terms of `knowledge`, for the side to
/// move. The full evaluation (the default) runs as its own specialised copy.
#[inline]
pub(crate) fn evaluate_at(pos: &Position, knowledge: Knowledge) -> i32 {
    match knowledge {
        Knowledge::Large => evaluate_raw(pos),
        k => evaluate_impl(pos, k),
    }
}

#[inline(always)]
fn evaluate_impl(pos: &Position, knowledge: Knowledge) -> i32 {
    let board = pos.board();
    let red = Counts::of(board, Color::Red);
    let black = Counts::of(board, Color::Black);
    if no_attackers_left(&red, &black) {
        return 0;
    }
    let p = pos.psq();
    let (mut mg, mut eg) = if knowledge >= Knowledge::Small {
        (p.mg, p.eg)
    } else {
        let mut acc = (0, 0);
        for k in PieceKind::ALL {
            add(&mut acc, MATERIAL[k.index()], red.get(k) - black.get(k));
        }
        acc
    };
    if knowledge >= Knowledge::Medium {
        let (r, b) = positional_terms(board, &red, &black, (0, 0), (0, 0));
        mg += r.0 - b.0;
        eg += r.1 - b.1;
    }
    let mut v = taper(mg, eg, phase_of(pos));
    if knowledge >= Knowledge::Large {
        let (strong, s, w) = if v > 0 { (Color::Red, &red, &black) } else { (Color::Black, &black, &red) };
        let (scale, _) = scale_factor(board, strong, s, w);
        if scale != SCALE_FULL {
            v = v * scale / SCALE_FULL;
        }
    }
    let v = if pos.side_to_move() == Color::Red { v } else { -v };
    v + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut after a null move equals evaluating the position.
    #[test]
    fn evaluation_after_a_null_move() {
        for fen in crate::fen::BENCH_FENS.iter().chain(["4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1"].iter()) {
            let mut pos = Position::from_fen(fen).unwrap();
            if pos.in_check() {
                continue;
            }
            for k in Knowledge::ALL {
                let before = evaluate_at(&pos, k);
                pos.make_null_move();
                assert_eq!(evaluate_after_null(&pos, before), evaluate_at(&pos, k), "{fen} {k:?}");
                pos.unmake_null_move();
            }
        }
    }

    #[test]
    fn symmetric_and_sane() {
        let start = Position::startpos();
        assert_eq!(evaluate(&start).0, TEMPO);
        let mirrored =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1").unwrap();
        assert_eq!(evaluate(&mirrored).0, TEMPO);
        // Red a chariot up.
        let up = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
        assert!(evaluate(&up).0 > 800);
        // Bare generals and defenders: dead draw.
        let dead = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1").unwrap();
        assert_eq!(evaluate(&dead).0, 0);
    }

    #[test]
    fn knowledge_levels_add_terms() {
        // Red a chariot up, black to move: material alone is the chariot's value.
        let pos = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1").unwrap();
        let (mg, eg) = MATERIAL[PieceKind::Chariot.index()];
        let chariot = taper(mg, eg, phase_of(&pos));
        assert_eq!(evaluate_at(&pos, Knowledge::None), -chariot + TEMPO);
        let levels = [Knowledge::None, Knowledge::Small, Knowledge::Medium, Knowledge::Large];
        let values: Vec<i32> = levels.iter().map(|&k| evaluate_at(&pos, k)).collect();
        assert_ne!(values[0], values[1], "piece-square tables count at Small");
        assert_ne!(values[1], values[2], "positional terms count at Medium");
        assert_eq!(values[3], evaluate(&pos).0);
        // Large adds the drawish-endgame scaling: a lone cannon cannot win.
        let lone = Position::from_fen("3k5/9/9/9/9/9/9/4C4/9/4K4 w - - 0 1").unwrap();
        assert!(evaluate_at(&lone, Knowledge::Large).abs() < evaluate_at(&lone, Knowledge::Medium).abs());
    }

    /// Each side's own coefficient of entry `kind` of the array of pairs at
    /// parameter `base` (through the trace, so the tests pin the counting and
    /// not the weights).
    fn count(fen: &str, color: Color, base: usize, kind: PieceKind) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let [red, black] = trace::side_coefficients(&pos);
        let coef = if color == Color::Red { red } else { black };
        coef[base + 2 * kind.index()]
    }

    /// What `color` attacks, from the capture patterns of
    /// [`crate::attacks::attacks_square`] tried on every pair of pieces (the
    /// general's facing rule left out, as in [`Attacks`]).
    fn attacks_by_pattern(board: &Board, color: Color) -> Attacks {
        let mut att = Attacks::default();
        let mut chariots_and_general = 0;
        for (_, piece, from) in board.pieces(color) {
            for (id, _, to) in board.pieces(Color::Red).chain(board.pieces(Color::Black)) {
                let facing = piece.kind() == PieceKind::General && from.file() == to.file();
                if to == from
                    || !crate::attacks::attacks_square(board, piece, from, to)
                    || facing && !GENERAL_STEPS[from.index()].contains(&to.0)
                {
                    continue;
                }
                let bit = 1u64 << id;
                match piece.kind() {
                    PieceKind::Soldier => att.soldiers |= bit,
                    PieceKind::Horse | PieceKind::Cannon => att.minors |= bit,
                    PieceKind::Advisor | PieceKind::Elephant => att.defenders |= bit,
                    PieceKind::General | PieceKind::Chariot => chariots_and_general |= bit,
                }
            }
        }
        att.any = att.soldiers | att.minors | att.defenders | chariots_and_general;
        att
    }

    /// The attack masks the mobility loops build equal the capture patterns
    /// tried piece against piece, along seeded random games.
    #[test]
    fn attacks_follow_the_capture_patterns() {
        let mut seen = [0u32; 4];
        crate::test_support::random_walks(21, 3, 100, |pos, _| {
            let board = pos.board();
            for color in [Color::Red, Color::Black] {
                let counts = Counts::of(board, color);
                let (_, mut att) = side_terms(board, color, &counts, &counts, (0, 0));
                // Bit 0 collects empty and off-board cells; no piece has it.
                for set in [&mut att.soldiers, &mut att.minors, &mut att.defenders, &mut att.any] {
                    *set &= !1;
                }
                assert_eq!(att, attacks_by_pattern(board, color), "{color:?} {}", pos.to_fen());
                for (n, set) in seen.iter_mut().zip([att.soldiers, att.minors, att.defenders, att.any]) {
                    *n += (set != 0) as u32;
                }
            }
        });
        // Every group attacked something somewhere.
        assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
    }

    #[test]
    fn threats_by_soldiers() {
        let chariot = PieceKind::Chariot;
        // A crossed red soldier on e6 attacks the black chariot beside it on d6.
        assert_eq!(
            count("5k3/9/9/3rP4/9/9/9/9/9/4K4 w - - 0 1", Color::Black, params::id::THREAT_BY_SOLDIER, chariot),
            1
        );
        // Not yet across the river (e4, d4), it cannot step sideways.
        assert_eq!(
            count("5k3/9/9/9/9/3rP4/9/9/9/4K4 w - - 0 1", Color::Black, params::id::THREAT_BY_SOLDIER, chariot),
            0
        );
        // Forward it attacks at home too.
        assert_eq!(
            count("5k3/9/9/9/4r4/4P4/9/9/9/3K5 w - - 0 1", Color::Black, params::id::THREAT_BY_SOLDIER, chariot),
            1
        );
        // Black's soldier on f4 (crossed) attacks the red horse on e4 and the cannon on f3.
        let fen = "3k5/9/9/9/9/4Np3/5C3/9/9/4K4 w - - 0 1";
        assert_eq!(count(fen, Color::Red, params::id::THREAT_BY_SOLDIER, PieceKind::Horse), 1);
        assert_eq!(count(fen, Color::Red, params::id::THREAT_BY_SOLDIER, PieceKind::Cannon), 1);
        assert_eq!(count(fen, Color::Black, params::id::THREAT_BY_SOLDIER, PieceKind::Soldier), 0);
    }

    #[test]
    fn threats_by_lesser_pieces() {
        let id = params::id::THREAT_BY_MINOR;
        // The red horse on c2 jumps to d4 over the free leg c3.
        assert_eq!(count("5k3/9/9/9/9/3r5/9/2N6/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Chariot), 1);
        // A piece on c3 blocks the leg.
        assert_eq!(count("5k3/9/9/9/9/3r5/2P6/2N6/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Chariot), 0);
        // A red cannon on d0 over the screen d2 hits the chariot on d4, not over two screens.
        assert_eq!(count("4k4/9/9/9/9/3r5/9/3N5/9/3C1K3 w - - 0 1", Color::Black, id, PieceKind::Chariot), 1);
        assert_eq!(count("4k4/9/9/9/9/3r5/3N5/3N5/9/3C1K3 w - - 0 1", Color::Black, id, PieceKind::Chariot), 0);
        // Only chariots count as threatened by horses and cannons.
        assert_eq!(count("5k3/9/9/9/9/3n5/9/2N6/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Horse), 0);
        // The red elephant on e2 attacks the black horse on g4 over the free eye f3.
        let id = params::id::THREAT_BY_DEFENDER;
        assert_eq!(count("5k3/9/9/9/9/6n2/9/4B4/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Horse), 1);
        assert_eq!(count("5k3/9/9/9/9/6n2/5N3/4B4/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Horse), 0);
    }

    #[test]
    fn hanging_pieces() {
        let id = params::id::HANGING;
        // The red chariot on c2 attacks the black horse on c7, which nothing defends.
        assert_eq!(count("5k3/9/2n6/9/9/9/9/2R6/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Horse), 1);
        // A black chariot on c9 defends it.
        assert_eq!(count("2r2k3/9/2n6/9/9/9/9/2R6/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Horse), 0);
        // A black cannon on c9 over the screen on c8 defends it too.
        assert_eq!(count("2c2k3/2n6/2n6/9/9/9/9/2R6/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Horse), 0);
        // Not attacked at all: not hanging.
        assert_eq!(count("5k3/9/2n6/9/9/9/9/1R7/9/4K4 w - - 0 1", Color::Black, id, PieceKind::Horse), 0);
        // The side to move does not matter.
        assert_eq!(count("5k3/9/2n6/9/9/9/9/2R6/9/4K4 b - - 0 1", Color::Black, id, PieceKind::Horse), 1);
    }

    #[test]
    fn pins_against_the_general() {
        let id = params::id::PINNED;
        // A black chariot on e7, a red horse on e3 alone before the red general on e0.
        assert_eq!(count("3k5/9/4r4/9/9/9/4N4/9/9/4K4 w - - 0 1", Color::Red, id, PieceKind::Horse), 1);
        // Two pieces between: the chariot pins nothing.
        let two = "3k5/9/4r4/9/9/4P4/4N4/9/9/4K4 w - - 0 1";
        assert_eq!(count(two, Color::Red, id, PieceKind::Horse), 0);
        assert_eq!(count(two, Color::Red, id, PieceKind::Soldier), 0);
        // A cannon behind two red pieces pins both of them.
        let cannon = "3k5/9/4c4/9/9/4P4/9/4N4/9/4K4 w - - 0 1";
        assert_eq!(count(cannon, Color::Red, id, PieceKind::Horse), 1);
        assert_eq!(count(cannon, Color::Red, id, PieceKind::Soldier), 1);
        // Behind one red and one black piece it pins the red one only.
        let mixed = "3k5/9/4c4/9/9/4p4/9/4N4/9/4K4 w - - 0 1";
        assert_eq!(count(mixed, Color::Red, id, PieceKind::Horse), 1);
        assert_eq!(count(mixed, Color::Black, id, PieceKind::Soldier), 0);
        // Three pieces between: no pin; along a rank it works the same way.
        assert_eq!(count("3k5/9/4c4/4P4/9/4P4/9/4N4/9/4K4 w - - 0 1", Color::Red, id, PieceKind::Horse), 0);
        assert_eq!(count("3k5/9/9/9/9/9/9/9/9/1r1NK4 w - - 0 1", Color::Red, id, PieceKind::Horse), 1);
    }
}
