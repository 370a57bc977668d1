//! Every evaluation weight, in one place so that they can be tuned.
//!
//! Units are centipawn-like. The values are fitted by `chuhan tune` to the
//! results of self-play games (README "Tuning"), not set by hand: the
//! material values below are the tuned ones (a horse 680 in the middlegame
//! and 234 in the endgame, a chariot 1748 and 836), and the piece-square
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
pub const MATERIAL: [Pair; 7] = [(0, 0), (83, 65), (305, 26), (680, 234), (1748, 836), (749, 255), (117, 42)];

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
        [0, 0, 0, -361, -266, -361, 0, 0, 0],
        [0, 0, 0, -128, 10, -128, 0, 0, 0],
        [0, 0, 0, 30, 122, 30, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, 20, 2, 20, 0, 0, 0],
        [0, 0, 0, 15, 7, 15, 0, 0, 0],
        [0, 0, 0, -7, -24, -7, 0, 0, 0],
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
        [0, 0, 0, -84, 0, -84, 0, 0, 0],
        [0, 0, 0, 0, 38, 0, 0, 0, 0],
        [0, 0, 0, -7, 0, -7, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -27, 0, -27, 0, 0, 0],
        [0, 0, 0, 0, -43, 0, 0, 0, 0],
        [0, 0, 0, -35, 0, -35, 0, 0, 0],
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
        [0, 0, 10, 0, 0, 0, 10, 0, 0],
        [0; 9],
        [20, 0, 0, 0, 91, 0, 0, 0, 20],
        [0; 9],
        [0, 0, 53, 0, 0, 0, 53, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, -31, 0, 0, 0, -31, 0, 0],
        [0; 9],
        [-39, 0, 0, 0, -49, 0, 0, 0, -39],
        [0; 9],
        [0, 0, -33, 0, 0, 0, -33, 0, 0],
    ],
);

/// Horses: central and advanced points, the "卧槽" points c8/g8 and the
/// river points near the enemy palace; the palace heart blocks the general.
pub const PST_HORSE: (Table, Table) = (
    [
        [72, 180, 218, 317, 153, 317, 218, 180, 72],
        [83, 197, 310, 122, 400, 122, 310, 197, 83],
        [96, 140, 38, 332, 388, 332, 38, 140, 96],
        [-34, 275, -17, 271, -30, 271, -17, 275, -34],
        [16, 32, 3, 177, 72, 177, 3, 32, 16],
        [-21, -7, 144, -18, 93, -18, 144, -7, -21],
        [-7, -74, 4, -70, 83, -70, 4, -74, -7],
        [-19, -61, -42, 95, -38, 95, -42, -61, -19],
        [-70, 26, -12, 33, -62, 33, -12, 26, -70],
        [6, -113, 19, -71, -296, -71, 19, -113, 6],
    ],
    [
        [8, 52, 14, 15, 76, 15, 14, 52, 8],
        [61, -36, 10, 16, -49, 16, 10, -36, 61],
        [76, 23, 68, 3, 0, 3, 68, 23, 76],
        [49, 16, 76, 7, 89, 7, 76, 16, 49],
        [63, 50, 87, 27, 43, 27, 87, 50, 63],
        [-1, 25, 19, 85, 13, 85, 19, 25, -1],
        [-23, 46, 15, 33, 21, 33, 15, 46, -23],
        [-47, 30, 26, 0, -29, 0, 26, 30, -47],
        [-150, -103, -18, -50, -147, -50, -18, -103, -150],
        [-98, 21, -87, -9, -124, -9, -87, 21, -98],
    ],
);

/// Chariots: open and rib files, the enemy palace ranks; a chariot at home
/// in the corner is undeveloped.
pub const PST_CHARIOT: (Table, Table) = (
    [
        [5, 17, -37, 267, 83, 267, -37, 17, 5],
        [21, 59, 51, 77, 234, 77, 51, 59, 21],
        [31, 32, 3, 46, 5, 46, 3, 32, 31],
        [23, 66, 90, 35, -2, 35, 90, 66, 23],
        [38, 21, 34, 72, 81, 72, 34, 21, 38],
        [-15, 53, 40, 45, 46, 45, 40, 53, -15],
        [-9, 43, 49, 63, 64, 63, 49, 43, -9],
        [-27, 11, -23, 21, -24, 21, -23, 11, -27],
        [-42, -16, 40, 6, -73, 6, 40, -16, -42],
        [-64, 19, 25, 63, 2, 63, 25, 19, -64],
    ],
    [
        [-55, -3, 21, -86, -33, -86, 21, -3, -55],
        [-60, 7, -29, -21, 83, -21, -29, 7, -60],
        [0, 2, 25, 84, 84, 84, 25, 2, 0],
        [-7, 13, 3, 47, 67, 47, 3, 13, -7],
        [-38, 28, 28, 7, 16, 7, 28, 28, -38],
        [26, 15, 29, 35, 26, 35, 29, 15, 26],
        [61, 29, 26, 48, 63, 48, 26, 29, 61],
        [-6, -31, -11, 21, 98, 21, -11, -31, -6],
        [-29, -18, -51, 3, 23, 3, -51, -18, -29],
        [-101, -42, -128, 6, -48, 6, -128, -42, -101],
    ],
);

/// Cannons: the central file (中炮), the home rank, and behind the enemy
/// pieces (bottom cannon a9/i9 corners); poor in front of the enemy palace.
pub const PST_CANNON: (Table, Table) = (
    [
        [89, -8, -103, -67, -231, -67, -103, -8, 89],
        [107, -6, -104, -96, -156, -96, -104, -6, 107],
        [60, -10, -106, -42, -165, -42, -106, -10, 60],
        [51, -6, 26, -25, 49, -25, 26, -6, 51],
        [115, -44, 27, -83, 157, -83, 27, -44, 115],
        [1, 0, 70, 38, 79, 38, 70, 0, 1],
        [-42, 11, 29, 31, 149, 31, 29, 11, -42],
        [60, 1, 72, 71, 96, 71, 72, 1, 60],
        [35, 1, 112, 12, 85, 12, 112, 1, 35],
        [-72, -45, 101, 11, -161, 11, 101, -45, -72],
    ],
    [
        [-43, 4, 30, 24, -75, 24, 30, 4, -43],
        [-51, -25, 36, 5, 25, 5, 36, -25, -51],
        [-40, -19, 59, -70, -14, -70, 59, -19, -40],
        [-22, -7, -23, 0, -4, 0, -23, -7, -22],
        [-51, -2, -44, 43, -37, 43, -44, -2, -51],
        [-16, 3, -53, -4, -15, -4, -53, 3, -16],
        [-9, -20, 1, -18, -33, -18, 1, -20, -9],
        [-32, -4, -24, -8, 11, -8, -24, -4, -32],
        [-42, -6, -75, 18, 25, 18, -75, -6, -42],
        [-30, -58, -88, -14, 52, -14, -88, -58, -30],
    ],
);

/// Soldiers: little at home, much more after the river (docs/rules.md section 1:
/// only then can they step sideways), most next to the enemy palace, little
/// on the enemy back rank where they can only move sideways.
pub const PST_SOLDIER: (Table, Table) = (
    [
        [-259, 93, -167, 193, 226, 193, -167, 93, -259],
        [49, 342, 358, 569, 950, 569, 358, 342, 49],
        [200, 295, 216, 291, 466, 291, 216, 295, 200],
        [16, 164, 137, 204, 293, 204, 137, 164, 16],
        [8, -6, 83, 187, 146, 187, 83, -6, 8],
        [-69, 0, 12, 0, -12, 0, 12, 0, -69],
        [-82, 0, -67, 0, -2, 0, -67, 0, -82],
        [0; 9],
        [0; 9],
        [0; 9],
    ],
    [
        [43, -4, 53, -38, -73, -38, 53, -4, 43],
        [3, 10, 57, 43, 74, 43, 57, 10, 3],
        [47, 35, 79, 227, 143, 227, 79, 35, 47],
        [105, 94, 114, 80, 53, 80, 114, 94, 105],
        [128, 140, 130, 86, 98, 86, 130, 140, 128],
        [85, 0, 30, 0, 108, 0, 30, 0, 85],
        [95, 0, 35, 0, 111, 0, 35, 0, 95],
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
pub const CHARIOT_MOBILITY: Pair = (8, 1);
/// Horse mobility, per legal jump (leg free, destination not own).
pub const HORSE_MOBILITY: Pair = (23, 3);
/// A horse with at most one jump (trapped, 马被困).
pub const HORSE_TRAPPED: Pair = (20, -92);
/// Per horse leg blocked by an own piece.
pub const HORSE_LEG_BLOCKED: Pair = (-5, 10);
/// Cannon mobility, per quiet point or capture.
pub const CANNON_MOBILITY: Pair = (5, -1);
/// A chariot with no own piece ahead of it on its file.
pub const CHARIOT_OPEN_FILE: Pair = (18, 37);
/// 空头炮: a cannon on the enemy general's file with nothing between.
pub const EMPTY_HEAD_CANNON: Pair = (217, -41);
/// 炮镇窝心马: a cannon on the general's file whose only screen is that side's horse on the palace heart.
pub const CANNON_PINS_PALACE_HORSE: Pair = (-9, 42);
/// 沉底炮: a cannon on the enemy back rank while the enemy general stands on it.
pub const BOTTOM_CANNON: Pair = (101, -17);
/// A chariot on the enemy back rank while the enemy general stands on it.
pub const CHARIOT_BACK_RANK: Pair = (-8, 12);
/// Per missing advisor, per enemy chariot.
pub const ADVISOR_MISSING_VS_CHARIOT: Pair = (-109, -96);
/// Per missing elephant, per enemy cannon.
pub const ELEPHANT_MISSING_VS_CANNON: Pair = (10, 11);
/// Two advisors guarding each other (士连).
pub const CONNECTED_ADVISORS: Pair = (21, 25);
/// Two elephants guarding each other (相连).
pub const CONNECTED_ELEPHANTS: Pair = (56, 8);
/// Per pair of crossed soldiers side by side.
pub const SOLDIERS_CONNECTED: Pair = (11, 23);
/// Chariot, horse and cannon together (车马炮).
pub const CHARIOT_HORSE_CANNON: Pair = (-113, 299);
/// Horse and cannon without chariots (马炮 coordinate better than two of a kind).
pub const HORSE_CANNON_NO_CHARIOT: Pair = (91, 33);
/// Two cannons without chariots (cannons lack screens in the endgame).
pub const DOUBLE_CANNON_NO_CHARIOT: Pair = (31, 67);
// Attacks between pieces, by the kind index of the piece attacked (General,
// Advisor, Elephant, Horse, Chariot, Cannon, Soldier); an entry for a kind
// the term never counts stays (0, 0). A point is attacked by a piece when the
// piece could capture there were an enemy piece on it (a chariot up to the
// first piece on each line, a cannon on the first piece behind exactly one
// screen, a horse with a free leg, an elephant with a free eye, a soldier
// forward and, after the river, sideways, advisors and the general inside
// their palace); a piece defends the points it attacks.

/// Our piece attacked by an enemy soldier (advisor, elephant, horse, chariot, cannon).
pub const THREAT_BY_SOLDIER: [Pair; 7] = [(0, 0), (-10, -10), (-15, -10), (-40, -30), (-60, -40), (-40, -30), (0, 0)];
/// Our chariot attacked by an enemy horse or cannon.
pub const THREAT_BY_MINOR: [Pair; 7] = [(0, 0), (0, 0), (0, 0), (0, 0), (-50, -35), (0, 0), (0, 0)];
/// Our horse, chariot or cannon attacked by an enemy advisor or elephant.
pub const THREAT_BY_DEFENDER: [Pair; 7] = [(0, 0), (0, 0), (0, 0), (-30, -20), (-50, -35), (-30, -20), (0, 0)];
/// Our piece (any kind but the general) attacked by an enemy piece and
/// defended by none of ours, whichever side is to move.
pub const HANGING: [Pair; 7] = [(0, 0), (-10, -10), (-10, -10), (-25, -20), (-40, -30), (-25, -20), (-8, -10)];
/// Our piece pinned against our general: the only piece between the general
/// and an enemy chariot on a line, or one of the two pieces between the
/// general and an enemy cannon (moving it off the line would give check).
pub const PINNED: [Pair; 7] = [(0, 0), (-5, -5), (-5, -5), (-20, -15), (-30, -20), (-20, -15), (-5, -5)];
/// Attack units of pieces in the zone around the enemy palace, by kind index.
pub const KING_ATTACK_UNITS: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];
/// Middlegame penalty for the attack units against a general (only with >= 2 attackers).
pub const KING_ATTACK: [i32; 16] = [0, 0, 4, 10, 87, 84, 40, 23, 108, 123, 45, 132, 73, -124, 251, 295];

// ---------------------------------------------------------------------------
// Drawish endgames: scale factors out of [`SCALE_FULL`].

/// No scaling.
pub const SCALE_FULL: i32 = 64;
/// The stronger side cannot cross the river at all (only defenders): it cannot win.
pub const SCALE_NO_ATTACKERS: i32 = 0;
/// A lone cannon (nothing else that attacks): cannot mate without screens.
pub const SCALE_LONE_CANNON: i32 = 14;
/// A lone horse against two or more defenders.
pub const SCALE_LONE_HORSE_VS_DEFENDERS: i32 = 5;
/// Soldiers only, all on the enemy back rank (they can only move sideways).
pub const SCALE_BOTTOM_SOLDIERS: i32 = 0;
/// A single soldier against two or more defenders.
pub const SCALE_LONE_SOLDIER_VS_DEFENDERS: i32 = 4;
/// One chariot each and nothing else that attacks.
pub const SCALE_CHARIOT_VS_CHARIOT: i32 = 4;
/// The stronger side's only extra is a soldier or defender and attacking pieces are level in kind.
pub const SCALE_EQUAL_ATTACKERS: i32 = 50;
