//! Every evaluation weight, in one place so that they can be tuned.
//!
//! Units are centipawn-like with a horse worth about 420 (common xiangqi knowledge: chariot
//! about two horses, horse about a cannon, soldiers small at home and rising
//! sharply after crossing the river). A pair is `(middlegame, endgame)`,
//! blended by the game phase. Piece-square tables are written from Red's
//! point of view as the board is drawn: the first row is rank 9 (Black's
//! back rank), the last row rank 0 (Red's back rank), files a..i left to
//! right. Black uses the vertically flipped point.
//!
//! Nothing here computes anything.

/// A (middlegame, endgame) pair.
pub type Pair = (i32, i32);

/// Material by kind index (General, Advisor, Elephant, Horse, Chariot, Cannon, Soldier).
pub const MATERIAL: [Pair; 7] = [(0, 0), (120, 110), (120, 110), (420, 460), (1000, 1050), (450, 420), (45, 70)];

/// Game-phase weight of each kind (chariots most, horses and cannons next).
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
/// Phase of the full board (2 x (2x6 + 2x3 + 2x3)).
pub const PHASE_MAX: i32 = 48;

/// Side-to-move bonus.
pub const TEMPO: i32 = 20;

/// Piece values for static exchange evaluation and MVV-LVA, by kind index.
pub const SEE_VALUE: [i32; 7] = [5000, 120, 120, 430, 1000, 440, 80];

type Table = [[i16; 9]; 10];

/// General: stay on the home point; leaving it early is risky (mg), the
/// centre of the palace is fine in the endgame.
pub const PST_GENERAL: (Table, Table) = (
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -25, -30, -25, 0, 0, 0],
        [0, 0, 0, -12, -10, -12, 0, 0, 0],
        [0, 0, 0, -4, 4, -4, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -10, -6, -10, 0, 0, 0],
        [0, 0, 0, -2, 4, -2, 0, 0, 0],
        [0, 0, 0, -2, 2, -2, 0, 0, 0],
    ],
);

/// Advisors: the palace heart is their best point.
pub const PST_ADVISOR: (Table, Table) = (
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -4, 0, -4, 0, 0, 0],
        [0, 0, 0, 0, 6, 0, 0, 0, 0],
        [0; 9],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -2, 0, -2, 0, 0, 0],
        [0, 0, 0, 0, 4, 0, 0, 0, 0],
        [0; 9],
    ],
);

/// Elephants: the central point guards both wings; edge points are weak.
pub const PST_ELEPHANT: (Table, Table) = (
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, -2, 0, 0, 0, -2, 0, 0],
        [0; 9],
        [-4, 0, 0, 0, 6, 0, 0, 0, -4],
        [0; 9],
        [0; 9],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, -2, 0, 0, 0, -2, 0, 0],
        [0; 9],
        [-3, 0, 0, 0, 4, 0, 0, 0, -3],
        [0; 9],
        [0; 9],
    ],
);

/// Horses: central and advanced points, the "卧槽" points c8/g8 and the
/// river points near the enemy palace; the palace heart blocks the general.
pub const PST_HORSE: (Table, Table) = (
    [
        [0, -3, 5, 4, 2, 4, 5, -3, 0],
        [4, 8, 24, 9, -5, 9, 24, 8, 4],
        [4, 10, 11, 18, 11, 18, 11, 10, 4],
        [5, 20, 12, 19, 12, 19, 12, 20, 5],
        [2, 12, 11, 15, 16, 15, 11, 12, 2],
        [2, 10, 13, 14, 15, 14, 13, 10, 2],
        [4, 6, 10, 7, 10, 7, 10, 6, 4],
        [0, 4, 6, 7, 4, 7, 6, 4, 0],
        [-6, 2, 4, 5, -12, 5, 4, 2, -6],
        [-4, -8, 0, -2, 0, -2, 0, -8, -4],
    ],
    [
        [-6, -2, 2, 4, 2, 4, 2, -2, -6],
        [-2, 6, 12, 12, 8, 12, 12, 6, -2],
        [0, 8, 14, 16, 16, 16, 14, 8, 0],
        [0, 10, 14, 18, 18, 18, 14, 10, 0],
        [-2, 8, 12, 16, 18, 16, 12, 8, -2],
        [-4, 6, 10, 14, 14, 14, 10, 6, -4],
        [-6, 2, 6, 8, 8, 8, 6, 2, -6],
        [-8, 0, 2, 4, 2, 4, 2, 0, -8],
        [-10, -4, 0, 0, -6, 0, 0, -4, -10],
        [-12, -8, -4, -4, -4, -4, -4, -8, -12],
    ],
);

/// Chariots: open and rib files, the enemy palace ranks; a chariot at home
/// in the corner is undeveloped.
pub const PST_CHARIOT: (Table, Table) = (
    [
        [6, 8, 6, 14, 12, 14, 6, 8, 6],
        [6, 12, 9, 16, 30, 16, 9, 12, 6],
        [6, 8, 7, 14, 16, 14, 7, 8, 6],
        [6, 13, 13, 16, 16, 16, 13, 13, 6],
        [8, 11, 11, 14, 15, 14, 11, 11, 8],
        [8, 12, 12, 14, 15, 14, 12, 12, 8],
        [4, 9, 4, 12, 14, 12, 4, 9, 4],
        [-2, 8, 4, 12, 12, 12, 4, 8, -2],
        [5, 8, 6, 12, 0, 12, 6, 8, 5],
        [-12, 6, 4, 12, 0, 12, 4, 6, -12],
    ],
    [
        [4, 4, 4, 8, 8, 8, 4, 4, 4],
        [4, 6, 6, 10, 14, 10, 6, 6, 4],
        [4, 6, 6, 10, 10, 10, 6, 6, 4],
        [4, 6, 6, 8, 8, 8, 6, 6, 4],
        [2, 4, 4, 6, 6, 6, 4, 4, 2],
        [2, 4, 4, 6, 6, 6, 4, 4, 2],
        [0, 2, 2, 4, 4, 4, 2, 2, 0],
        [0, 2, 2, 4, 4, 4, 2, 2, 0],
        [0, 2, 2, 4, 4, 4, 2, 2, 0],
        [0, 0, 0, 2, 2, 2, 0, 0, 0],
    ],
);

/// Cannons: the central file (中炮), the home rank, and behind the enemy
/// pieces (bottom cannon a9/i9 corners); poor in front of the enemy palace.
pub const PST_CANNON: (Table, Table) = (
    [
        [6, 4, 0, -10, -12, -10, 0, 4, 6],
        [2, 2, 0, -4, -14, -4, 0, 2, 2],
        [2, 2, 0, -10, -8, -10, 0, 2, 2],
        [0, 0, -2, 4, 10, 4, -2, 0, 0],
        [0, 0, 0, 2, 8, 2, 0, 0, 0],
        [-2, 0, 4, 2, 6, 2, 4, 0, -2],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [4, 0, 8, 6, 10, 6, 8, 0, 4],
        [0, 2, 4, 6, 6, 6, 4, 2, 0],
        [0, 0, 2, 6, 6, 6, 2, 0, 0],
    ],
    [
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
        [0, 0, 0, 2, 4, 2, 0, 0, 0],
    ],
);

/// Soldiers: little at home, much more after the river (docs/rules.md section 1:
/// only then can they step sideways), most next to the enemy palace, little
/// on the enemy back rank where they can only move sideways.
pub const PST_SOLDIER: (Table, Table) = (
    [
        [0, 0, 0, 10, 20, 10, 0, 0, 0],
        [60, 80, 100, 120, 130, 120, 100, 80, 60],
        [60, 80, 100, 120, 130, 120, 100, 80, 60],
        [50, 62, 72, 86, 92, 86, 72, 62, 50],
        [40, 50, 56, 66, 70, 66, 56, 50, 40],
        [5, 0, 10, 0, 15, 0, 10, 0, 5],
        [0, 0, -2, 0, 6, 0, -2, 0, 0],
        [0; 9],
        [0; 9],
        [0; 9],
    ],
    [
        [0, 0, 10, 20, 30, 20, 10, 0, 0],
        [80, 100, 120, 140, 150, 140, 120, 100, 80],
        [80, 100, 120, 140, 150, 140, 120, 100, 80],
        [75, 90, 100, 115, 120, 115, 100, 90, 75],
        [70, 80, 90, 100, 105, 100, 90, 80, 70],
        [10, 0, 15, 0, 20, 0, 15, 0, 10],
        [0, 0, 5, 0, 10, 0, 5, 0, 0],
        [0; 9],
        [0; 9],
        [0; 9],
    ],
);

/// All tables by kind index.
pub const PST: [(Table, Table); 7] =
    [PST_GENERAL, PST_ADVISOR, PST_ELEPHANT, PST_HORSE, PST_CHARIOT, PST_CANNON, PST_SOLDIER];

// ---------------------------------------------------------------------------
// Positional terms (pairs are (middlegame, endgame); signs as applied).

/// Chariot mobility, per reachable point.
pub const CHARIOT_MOBILITY: Pair = (6, 8);
/// Horse mobility, per legal jump (leg free, destination not own).
pub const HORSE_MOBILITY: Pair = (10, 12);
/// A horse with at most one jump (trapped, 马被困).
pub const HORSE_TRAPPED: Pair = (-35, -30);
/// Per horse leg blocked by an own piece.
pub const HORSE_LEG_BLOCKED: Pair = (-6, -3);
/// Cannon mobility, per quiet point or capture.
pub const CANNON_MOBILITY: Pair = (3, 2);
/// A chariot with no own piece ahead of it on its file.
pub const CHARIOT_OPEN_FILE: Pair = (18, 8);
/// 空头炮: a cannon on the enemy general's file with nothing between.
pub const EMPTY_HEAD_CANNON: Pair = (90, 30);
/// 炮镇窝心马: a cannon on the general's file whose only screen is that side's horse on the palace heart.
pub const CANNON_PINS_PALACE_HORSE: Pair = (55, 20);
/// 沉底炮: a cannon on the enemy back rank while the enemy general stands on it.
pub const BOTTOM_CANNON: Pair = (35, 10);
/// A chariot on the enemy back rank while the enemy general stands on it.
pub const CHARIOT_BACK_RANK: Pair = (25, 15);
/// Per missing advisor, per enemy chariot.
pub const ADVISOR_MISSING_VS_CHARIOT: Pair = (-30, -20);
/// Per missing elephant, per enemy cannon.
pub const ELEPHANT_MISSING_VS_CANNON: Pair = (-25, -12);
/// Two advisors guarding each other (士连).
pub const CONNECTED_ADVISORS: Pair = (15, 10);
/// Two elephants guarding each other (相连).
pub const CONNECTED_ELEPHANTS: Pair = (15, 10);
/// Per pair of crossed soldiers side by side.
pub const SOLDIERS_CONNECTED: Pair = (10, 25);
/// Chariot, horse and cannon together (车马炮).
pub const CHARIOT_HORSE_CANNON: Pair = (15, 0);
/// Horse and cannon without chariots (马炮 coordinate better than two of a kind).
pub const HORSE_CANNON_NO_CHARIOT: Pair = (0, 18);
/// Two cannons without chariots (cannons lack screens in the endgame).
pub const DOUBLE_CANNON_NO_CHARIOT: Pair = (0, -20);
/// Attack units of pieces in the zone around the enemy palace, by kind index.
pub const KING_ATTACK_UNITS: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];
/// Middlegame penalty for the attack units against a general (only with >= 2 attackers).
pub const KING_ATTACK: [i32; 16] = [0, 0, 4, 10, 18, 28, 40, 54, 70, 88, 108, 130, 154, 180, 208, 238];

// ---------------------------------------------------------------------------
// Drawish endgames: scale factors out of [`SCALE_FULL`].

/// No scaling.
pub const SCALE_FULL: i32 = 64;
/// The stronger side cannot cross the river at all (only defenders): it cannot win.
pub const SCALE_NO_ATTACKERS: i32 = 0;
/// A lone cannon (nothing else that attacks): cannot mate without screens.
pub const SCALE_LONE_CANNON: i32 = 6;
/// A lone horse against two or more defenders.
pub const SCALE_LONE_HORSE_VS_DEFENDERS: i32 = 8;
/// Soldiers only, all on the enemy back rank (they can only move sideways).
pub const SCALE_BOTTOM_SOLDIERS: i32 = 4;
/// A single soldier against two or more defenders.
pub const SCALE_LONE_SOLDIER_VS_DEFENDERS: i32 = 12;
/// One chariot each and nothing else that attacks.
pub const SCALE_CHARIOT_VS_CHARIOT: i32 = 16;
/// The stronger side's only extra is a soldier or defender and attacking pieces are level in kind.
pub const SCALE_EQUAL_ATTACKERS: i32 = 40;
