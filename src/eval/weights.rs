//! Every evaluation weight, in one place so that they can be tuned.
//!
//! Units are centipawn-like. The values are fitted by `chuhan tune` to the
//! results of self-play games (README "Tuning"), not set by hand: the
//! material values below are the tuned ones (a horse 560 in the middlegame
//! and 359 in the endgame, a chariot 1416 and 1034), and the piece-square
//! tables add to them. A pair is `(middlegame, endgame)`,
//! blended by the game phase. Piece-square tables are written from Red's
//! point of view as the board is drawn: the first row is rank 9 (Black's
//! back rank), the last row rank 0 (Red's back rank), files a..i left to
//! right. Black uses the vertically flipped point.
//!
//! Nothing here computes anything.

/// A (middlegame, endgame) pair.
pub type Pair = (i32, i32);

/// Material by kind index (General, Advisor, Elephant, Horse, Chariot, Cannon, Soldier).
pub const MATERIAL: [Pair; 7] = [(0, 0), (80, 63), (285, 43), (560, 359), (1416, 1034), (636, 335), (84, 83)];

/// Game-phase weight of each kind (chariots most, horses and cannons next).
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
/// Phase of the full board (2 x (2x6 + 2x3 + 2x3)).
pub const PHASE_MAX: i32 = 48;

/// Side-to-move bonus.
pub const TEMPO: i32 = 1;

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
        [0, 0, 0, -303, -266, -277, 0, 0, 0],
        [0, 0, 0, -125, 6, -80, 0, 0, 0],
        [0, 0, 0, 31, 108, 9, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, 24, 19, 41, 0, 0, 0],
        [0, 0, 0, 10, -9, 18, 0, 0, 0],
        [0, 0, 0, -10, -30, 1, 0, 0, 0],
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
        [0, 0, 0, -75, 0, -83, 0, 0, 0],
        [0, 0, 0, 0, 37, 0, 0, 0, 0],
        [0, 0, 0, -3, 0, -13, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -18, 0, -25, 0, 0, 0],
        [0, 0, 0, 0, -54, 0, 0, 0, 0],
        [0, 0, 0, -49, 0, -17, 0, 0, 0],
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
        [0, 0, -17, 0, 0, 0, 32, 0, 0],
        [0; 9],
        [-15, 0, 0, 0, 93, 0, 0, 0, 5],
        [0; 9],
        [0, 0, 62, 0, 0, 0, 34, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, -16, 0, 0, 0, -28, 0, 0],
        [0; 9],
        [-27, 0, 0, 0, -50, 0, 0, 0, -18],
        [0; 9],
        [0, 0, -24, 0, 0, 0, -32, 0, 0],
    ],
);

/// Horses: central and advanced points, the "卧槽" points c8/g8 and the
/// river points near the enemy palace; the palace heart blocks the general.
pub const PST_HORSE: (Table, Table) = (
    [
        [-29, -117, 83, 121, 75, 123, -40, 214, 125],
        [181, 31, 236, -45, 222, 128, 216, 103, -27],
        [35, 16, 52, 119, 245, 265, 23, 98, 49],
        [-8, 182, -5, 286, -13, 192, 9, 205, -67],
        [16, 62, 107, 182, 69, 187, -68, 50, 4],
        [21, -26, 129, -34, 114, 0, 97, -23, -193],
        [-16, -36, -59, -17, 64, -77, -11, -95, -127],
        [-31, -117, -62, 209, -57, 10, -18, -32, -8],
        [-60, 87, -11, 28, -57, -11, 42, 79, -54],
        [23, -101, 68, -85, -161, 8, -30, -80, -201],
    ],
    [
        [-79, 42, 117, 82, 19, 85, 76, -97, 4],
        [-40, 29, -6, -1, -90, -51, -1, 61, -14],
        [40, 42, 21, -17, 11, -55, 7, 8, 41],
        [-69, 23, 57, -42, 43, -24, 24, 22, 78],
        [11, 17, 2, -20, 1, -25, 87, 42, 1],
        [65, 15, 38, 65, -31, 41, 5, 30, -7],
        [106, 11, 85, -4, 0, -3, 5, -7, 12],
        [-43, 23, 32, -108, -27, 19, -18, -30, -85],
        [-120, 103, -41, -59, -162, 6, -144, 82, -198],
        [-65, -5, -198, -13, -124, 4, -26, 9, -209],
    ],
);

/// Chariots: open and rib files, the enemy palace ranks; a chariot at home
/// in the corner is undeveloped.
pub const PST_CHARIOT: (Table, Table) = (
    [
        [69, 9, -43, 216, 111, 146, -94, -3, -62],
        [31, 80, 72, 95, 160, 54, -2, 25, 67],
        [52, 22, 24, 17, -46, 68, 30, 33, 75],
        [-4, 45, 87, 70, 30, 8, 59, 51, 27],
        [99, 42, 9, 73, 137, 92, 5, 2, 84],
        [3, 68, 3, 5, 22, 18, 31, 18, -41],
        [-53, 50, 46, 61, 96, 66, 8, 35, 68],
        [-14, 30, -61, 15, 49, -22, 4, -20, -55],
        [-32, -7, 18, -1, -85, -18, -26, -35, -49],
        [-28, 10, -32, 75, 163, 14, 5, -4, -73],
    ],
    [
        [-63, 0, 23, -31, 130, 21, 19, -3, -69],
        [-51, -50, -55, -94, 83, 4, 1, 46, -55],
        [-2, 0, 14, 145, 66, 73, -3, -17, -22],
        [-11, 26, -1, -6, 16, 67, 22, 18, -13],
        [-63, 5, 41, 10, -23, -8, 61, 47, -95],
        [5, 5, 60, 54, 13, 66, 33, 33, 19],
        [82, 13, 4, 69, 17, 71, 41, 43, -10],
        [-34, -18, 11, 46, 38, 39, -68, -46, 28],
        [10, -48, -46, -5, 9, -10, 65, 4, -93],
        [-100, -20, -29, 38, 103, 90, -71, -68, -66],
    ],
);

/// Cannons: the central file (中炮), the home rank, and behind the enemy
/// pieces (bottom cannon a9/i9 corners); poor in front of the enemy palace.
pub const PST_CANNON: (Table, Table) = (
    [
        [140, -26, -65, -90, -171, -6, -89, 45, 19],
        [54, -9, -66, -74, -128, -138, -98, -32, 192],
        [-127, 18, -28, -107, -131, -14, -118, -23, 135],
        [20, -18, 22, -23, 42, -48, 31, 22, 83],
        [114, -42, 38, 8, 120, -103, 73, 4, 37],
        [-50, -13, 59, -19, 89, 45, 47, -31, -42],
        [2, 4, -48, 26, 111, 21, 49, -4, 2],
        [84, -7, 29, 17, 73, 53, 84, 19, 24],
        [-58, -6, 57, 5, 42, 33, 175, 26, 10],
        [-70, -76, -24, 29, -150, 4, 40, -35, -105],
    ],
    [
        [-73, 30, -5, 40, -17, -54, 20, -16, 16],
        [-33, 15, -1, -53, -41, 41, 28, 97, -17],
        [6, -61, -38, -37, -12, -89, 66, 27, -133],
        [-5, -1, -3, 1, -21, 7, -76, -16, -36],
        [-36, 47, -46, 28, -46, 36, -30, 14, 0],
        [-4, 17, -100, 31, -42, -64, -7, 27, -35],
        [0, -11, -20, -4, -50, -50, 25, -7, 23],
        [-30, 37, 28, 18, 36, 5, -41, 5, -23],
        [-42, -49, -7, 27, 50, 18, -53, 70, 60],
        [-59, -37, -12, -23, 40, 11, -82, -29, 13],
    ],
);

/// Soldiers: little at home, much more after the river (docs/rules.md section 1:
/// only then can they step sideways), most next to the enemy palace, little
/// on the enemy back rank where they can only move sideways.
pub const PST_SOLDIER: (Table, Table) = (
    [
        [105, 46, -205, 124, 195, 201, 39, 155, 24],
        [-13, 132, 146, 513, 528, 523, 381, 149, 112],
        [265, 265, 138, 279, 371, 155, 140, 90, -47],
        [32, 229, 154, 199, 275, 137, 90, 107, 16],
        [11, 37, 79, 76, 89, 179, 48, -47, -4],
        [-4, 0, 21, 0, -21, 0, 17, 0, -65],
        [-8, 0, -60, 0, -2, 0, -31, 0, -78],
        [0; 9],
        [0; 9],
        [0; 9],
    ],
    [
        [62, -12, 51, -41, -123, -65, -40, -53, 80],
        [-15, 138, 73, 12, 129, 26, 42, 51, 146],
        [66, 119, 126, 223, 125, 269, 138, 143, 143],
        [101, 117, 82, 47, 35, 80, 120, 105, 67],
        [97, 77, 82, 199, 130, 81, 129, 166, 110],
        [44, 0, 17, 0, 92, 0, -5, 0, 51],
        [44, 0, -1, 0, 99, 0, 7, 0, 63],
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
pub const CHARIOT_MOBILITY: Pair = (8, 2);
/// Horse mobility, per legal jump (leg free, destination not own).
pub const HORSE_MOBILITY: Pair = (20, -2);
/// A horse with at most one jump (trapped, 马被困).
pub const HORSE_TRAPPED: Pair = (26, -127);
/// Per horse leg blocked by an own piece.
pub const HORSE_LEG_BLOCKED: Pair = (-5, 7);
/// Cannon mobility, per quiet point or capture.
pub const CANNON_MOBILITY: Pair = (4, -3);
/// A chariot with no own piece ahead of it on its file.
pub const CHARIOT_OPEN_FILE: Pair = (23, 21);
/// 空头炮: a cannon on the enemy general's file with nothing between.
pub const EMPTY_HEAD_CANNON: Pair = (181, -34);
/// 炮镇窝心马: a cannon on the general's file whose only screen is that side's horse on the palace heart.
pub const CANNON_PINS_PALACE_HORSE: Pair = (-56, -31);
/// 沉底炮: a cannon on the enemy back rank while the enemy general stands on it.
pub const BOTTOM_CANNON: Pair = (83, -28);
/// A chariot on the enemy back rank while the enemy general stands on it.
pub const CHARIOT_BACK_RANK: Pair = (-12, 27);
/// Per missing advisor, per enemy chariot.
pub const ADVISOR_MISSING_VS_CHARIOT: Pair = (-78, -98);
/// Per missing elephant, per enemy cannon.
pub const ELEPHANT_MISSING_VS_CANNON: Pair = (10, 9);
/// Two advisors guarding each other (士连).
pub const CONNECTED_ADVISORS: Pair = (11, 46);
/// Two elephants guarding each other (相连).
pub const CONNECTED_ELEPHANTS: Pair = (40, -5);
/// Per pair of crossed soldiers side by side.
pub const SOLDIERS_CONNECTED: Pair = (-44, 28);
/// Chariot, horse and cannon together (车马炮).
pub const CHARIOT_HORSE_CANNON: Pair = (-56, 183);
/// Horse and cannon without chariots (马炮 coordinate better than two of a kind).
pub const HORSE_CANNON_NO_CHARIOT: Pair = (-23, 104);
/// Two cannons without chariots (cannons lack screens in the endgame).
pub const DOUBLE_CANNON_NO_CHARIOT: Pair = (31, 56);
/// Attack units of pieces in the zone around the enemy palace, by kind index.
pub const KING_ATTACK_UNITS: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];
/// Middlegame penalty for the attack units against a general (only with >= 2 attackers).
pub const KING_ATTACK: [i32; 16] = [0, 0, 4, 10, 51, 84, 50, 29, 111, 97, 106, 139, 190, 12, 317, 271];

// ---------------------------------------------------------------------------
// Drawish endgames: scale factors out of [`SCALE_FULL`].

/// No scaling.
pub const SCALE_FULL: i32 = 64;
/// The stronger side cannot cross the river at all (only defenders): it cannot win.
pub const SCALE_NO_ATTACKERS: i32 = 0;
/// A lone cannon (nothing else that attacks): cannot mate without screens.
pub const SCALE_LONE_CANNON: i32 = 7;
/// A lone horse against two or more defenders.
pub const SCALE_LONE_HORSE_VS_DEFENDERS: i32 = 5;
/// Soldiers only, all on the enemy back rank (they can only move sideways).
pub const SCALE_BOTTOM_SOLDIERS: i32 = 0;
/// A single soldier against two or more defenders.
pub const SCALE_LONE_SOLDIER_VS_DEFENDERS: i32 = 5;
/// One chariot each and nothing else that attacks.
pub const SCALE_CHARIOT_VS_CHARIOT: i32 = 6;
/// The stronger side's only extra is a soldier or defender and attacking pieces are level in kind.
pub const SCALE_EQUAL_ATTACKERS: i32 = 47;
