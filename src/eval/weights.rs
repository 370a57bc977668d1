//! Every evaluation weight, in one place so that they can be tuned.
//!
//! Units are centipawn-like. The values are fitted by `chuhan tune` to the
//! results of self-play games (README "Tuning"), not set by hand: the
//! material values below are the tuned ones (a horse 724 in the middlegame
//! and 202 in the endgame, a chariot 1866 and 731), and the piece-square
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
pub const MATERIAL: [Pair; 7] = [(0, 0), (69, 64), (307, 19), (724, 202), (1866, 731), (791, 220), (135, 42)];

/// Game-phase weight of each kind (chariots most, horses and cannons next).
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
/// Phase of the full board (2 x (2x6 + 2x3 + 2x3)).
pub const PHASE_MAX: i32 = 48;

/// Side-to-move bonus.
pub const TEMPO: i32 = 8;

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
        [0, 0, 0, -392, -336, -392, 0, 0, 0],
        [0, 0, 0, -112, 9, -112, 0, 0, 0],
        [0, 0, 0, 42, 126, 42, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, 23, 15, 23, 0, 0, 0],
        [0, 0, 0, 5, 7, 5, 0, 0, 0],
        [0, 0, 0, -8, -22, -8, 0, 0, 0],
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
        [0, 0, 0, -78, 0, -78, 0, 0, 0],
        [0, 0, 0, 0, 31, 0, 0, 0, 0],
        [0, 0, 0, -12, 0, -12, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -29, 0, -29, 0, 0, 0],
        [0, 0, 0, 0, -46, 0, 0, 0, 0],
        [0, 0, 0, -33, 0, -33, 0, 0, 0],
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
        [0, 0, 19, 0, 0, 0, 19, 0, 0],
        [0; 9],
        [19, 0, 0, 0, 87, 0, 0, 0, 19],
        [0; 9],
        [0, 0, 55, 0, 0, 0, 55, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, -37, 0, 0, 0, -37, 0, 0],
        [0; 9],
        [-41, 0, 0, 0, -49, 0, 0, 0, -41],
        [0; 9],
        [0, 0, -35, 0, 0, 0, -35, 0, 0],
    ],
);

/// Horses: central and advanced points, the "卧槽" points c8/g8 and the
/// river points near the enemy palace; the palace heart blocks the general.
pub const PST_HORSE: (Table, Table) = (
    [
        [17, 101, 181, 342, 259, 342, 181, 101, 17],
        [-51, 104, 317, 138, 503, 138, 317, 104, -51],
        [153, 134, 28, 395, 412, 395, 28, 134, 153],
        [-34, 296, 2, 312, 0, 312, 2, 296, -34],
        [53, 37, 69, 173, 78, 173, 69, 37, 53],
        [18, 12, 149, 7, 78, 7, 149, 12, 18],
        [-6, -31, -13, -54, 80, -54, -13, -31, -6],
        [-33, -51, -42, 131, -13, 131, -42, -51, -33],
        [-71, 2, -48, 21, -38, 21, -48, 2, -71],
        [-184, -118, 7, -84, -422, -84, 7, -118, -184],
    ],
    [
        [40, 40, 21, -21, 142, -21, 21, 40, 40],
        [116, -21, 3, 11, -48, 11, 3, -21, 116],
        [55, 32, 57, -9, -9, -9, 57, 32, 55],
        [43, 3, 70, -2, 36, -2, 70, 3, 43],
        [23, 46, 38, 31, 45, 31, 38, 46, 23],
        [6, 24, 19, 49, 24, 49, 19, 24, 6],
        [-12, 0, 28, 32, 23, 32, 28, 0, -12],
        [-49, 13, 11, -8, -32, -8, 11, 13, -49],
        [-140, -78, -8, -36, -178, -36, -8, -78, -140],
        [50, 24, -29, 10, -47, 10, -29, 24, 50],
    ],
);

/// Chariots: open and rib files, the enemy palace ranks; a chariot at home
/// in the corner is undeveloped.
pub const PST_CHARIOT: (Table, Table) = (
    [
        [2, 41, 6, 309, 135, 309, 6, 41, 2],
        [-60, 70, 28, 59, 236, 59, 28, 70, -60],
        [46, 31, 2, 39, 12, 39, 2, 31, 46],
        [20, 74, 100, 55, 11, 55, 100, 74, 20],
        [8, 19, 40, 71, 68, 71, 40, 19, 8],
        [-19, 68, 49, 50, 64, 50, 49, 68, -19],
        [6, 30, 60, 83, 101, 83, 60, 30, 6],
        [-32, 19, -9, 32, -30, 32, -9, 19, -32],
        [-46, -24, 11, -6, -50, -6, 11, -24, -46],
        [-68, 19, 14, 48, 35, 48, 14, 19, -68],
    ],
    [
        [-48, -27, -9, -121, -56, -121, -9, -27, -48],
        [-8, -10, -22, -3, 75, -3, -22, -10, -8],
        [-2, -2, 25, 71, 109, 71, 25, -2, -2],
        [5, 5, -14, 36, 72, 36, -14, 5, 5],
        [-7, 27, 29, 15, 38, 15, 29, 27, -7],
        [26, 0, 34, 37, 25, 37, 34, 0, 26],
        [49, 39, 21, 21, 46, 21, 21, 39, 49],
        [-9, -32, 3, 15, 117, 15, 3, -32, -9],
        [-57, -12, -42, 10, 20, 10, -42, -12, -57],
        [-104, -60, -104, 15, -146, 15, -104, -60, -104],
    ],
);

/// Cannons: the central file (中炮), the home rank, and behind the enemy
/// pieces (bottom cannon a9/i9 corners); poor in front of the enemy palace.
pub const PST_CANNON: (Table, Table) = (
    [
        [93, -7, -98, -37, -316, -37, -98, -7, 93],
        [90, -2, -99, -78, -182, -78, -99, -2, 90],
        [79, -8, -43, -56, -119, -56, -43, -8, 79],
        [49, 2, 18, -20, 52, -20, 18, 2, 49],
        [65, -48, 26, -64, 178, -64, 26, -48, 65],
        [6, 0, 66, 41, 117, 41, 66, 0, 6],
        [-31, 3, 34, 36, 173, 36, 34, 3, -31],
        [61, -2, 83, 74, 89, 74, 83, -2, 61],
        [48, 16, 107, 8, 93, 8, 107, 16, 48],
        [-61, -47, 78, -8, -73, -8, 78, -47, -61],
    ],
    [
        [-56, -6, 12, -12, -29, -12, 12, -6, -56],
        [-53, -25, 34, -8, 83, -8, 34, -25, -53],
        [-28, -25, -37, -58, 1, -58, -37, -25, -28],
        [-23, -4, -16, -5, -4, -5, -16, -4, -23],
        [-16, -2, -30, 40, -52, 40, -30, -2, -16],
        [-7, -2, -59, 5, -29, 5, -59, -2, -7],
        [-8, -21, -12, -23, -43, -23, -12, -21, -8],
        [-34, -4, -29, -3, 24, -3, -29, -4, -34],
        [-47, -8, -60, 29, 5, 29, -60, -8, -47],
        [-52, -77, -67, 2, 21, 2, -67, -77, -52],
    ],
);

/// Soldiers: little at home, much more after the river (docs/rules.md section 1:
/// only then can they step sideways), most next to the enemy palace, little
/// on the enemy back rank where they can only move sideways.
pub const PST_SOLDIER: (Table, Table) = (
    [
        [-285, -11, -90, 172, 159, 172, -90, -11, -285],
        [9, 397, 381, 742, 1232, 742, 381, 397, 9],
        [150, 275, 249, 367, 556, 367, 249, 275, 150],
        [13, 173, 156, 224, 262, 224, 156, 173, 13],
        [-16, 53, 84, 194, 156, 194, 84, 53, -16],
        [-79, 0, 5, 0, -17, 0, 5, 0, -79],
        [-79, 0, -75, 0, -10, 0, -75, 0, -79],
        [0; 9],
        [0; 9],
        [0; 9],
    ],
    [
        [54, 20, 41, -32, -64, -32, 41, 20, 54],
        [2, -1, 55, 66, 43, 66, 55, -1, 2],
        [61, 41, 71, 226, 155, 226, 71, 41, 61],
        [101, 75, 91, 77, 88, 77, 91, 75, 101],
        [132, 96, 131, 88, 95, 88, 131, 96, 132],
        [89, 0, 34, 0, 116, 0, 34, 0, 89],
        [97, 0, 42, 0, 117, 0, 42, 0, 97],
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

/// Chariot mobility, by the number of reachable points (quiet points and
/// captures, 0 to 17).
pub const CHARIOT_MOBILITY: [Pair; 18] = [
    (2, -7),
    (3, -22),
    (7, -25),
    (14, -15),
    (23, -6),
    (49, 19),
    (49, 16),
    (48, 19),
    (59, 10),
    (75, 15),
    (75, 23),
    (79, 13),
    (85, 19),
    (89, 16),
    (103, 18),
    (114, 15),
    (107, 26),
    (105, -1),
];
/// Horse mobility, by the number of legal jumps (leg free, destination not
/// own; 0 to 8). A horse with at most one jump is trapped (马被困).
pub const HORSE_MOBILITY: [Pair; 9] =
    [(1, -91), (27, -72), (31, -22), (58, -30), (84, 3), (99, 27), (114, 9), (151, 16), (160, -10)];
/// Per horse leg blocked by an own piece.
pub const HORSE_LEG_BLOCKED: Pair = (-11, 11);
/// Cannon mobility, by the number of quiet points and captures (0 to 17).
pub const CANNON_MOBILITY: [Pair; 18] = [
    (-15, -13),
    (-8, 5),
    (7, -4),
    (20, -6),
    (21, 0),
    (27, -5),
    (26, 7),
    (37, 2),
    (37, 9),
    (40, 7),
    (39, 9),
    (45, 13),
    (42, 6),
    (50, 3),
    (46, -14),
    (48, -10),
    (61, -7),
    (63, -3),
];
/// A chariot with no own piece ahead of it on its file.
pub const CHARIOT_OPEN_FILE: Pair = (26, 29);
/// 空头炮: a cannon on the enemy general's file with nothing between.
pub const EMPTY_HEAD_CANNON: Pair = (226, -41);
/// 炮镇窝心马: a cannon on the general's file whose only screen is that side's horse on the palace heart.
pub const CANNON_PINS_PALACE_HORSE: Pair = (53, -10);
/// 沉底炮: a cannon on the enemy back rank while the enemy general stands on it.
pub const BOTTOM_CANNON: Pair = (105, -13);
/// A chariot on the enemy back rank while the enemy general stands on it.
pub const CHARIOT_BACK_RANK: Pair = (-25, 39);
/// Per missing advisor, per enemy chariot.
pub const ADVISOR_MISSING_VS_CHARIOT: Pair = (-126, -100);
/// Per missing elephant, per enemy cannon.
pub const ELEPHANT_MISSING_VS_CANNON: Pair = (-1, 20);
/// Two advisors guarding each other (士连).
pub const CONNECTED_ADVISORS: Pair = (25, 24);
/// Two elephants guarding each other (相连).
pub const CONNECTED_ELEPHANTS: Pair = (58, 4);
/// Per pair of crossed soldiers side by side.
pub const SOLDIERS_CONNECTED: Pair = (84, -29);
/// Chariot, horse and cannon together (车马炮).
pub const CHARIOT_HORSE_CANNON: Pair = (-140, 366);
/// Horse and cannon without chariots (马炮 coordinate better than two of a kind).
pub const HORSE_CANNON_NO_CHARIOT: Pair = (27, 66);
/// Two cannons without chariots (cannons lack screens in the endgame).
pub const DOUBLE_CANNON_NO_CHARIOT: Pair = (-14, 81);
// Attacks between pieces, by the kind index of the piece attacked (General,
// Advisor, Elephant, Horse, Chariot, Cannon, Soldier); an entry for a kind
// the term never counts stays (0, 0). A point is attacked by a piece when the
// piece could capture there were an enemy piece on it (a chariot up to the
// first piece on each line, a cannon on the first piece behind exactly one
// screen, a horse with a free leg, an elephant with a free eye, a soldier
// forward and, after the river, sideways, advisors and the general inside
// their palace); a piece defends the points it attacks.

/// Our piece attacked by an enemy soldier (advisor, elephant, horse, chariot, cannon).
pub const THREAT_BY_SOLDIER: [Pair; 7] = [(0, 0), (102, 25), (-32, 34), (-81, -15), (-80, -72), (-134, 24), (0, 0)];
/// Our chariot attacked by an enemy horse or cannon.
pub const THREAT_BY_MINOR: [Pair; 7] = [(0, 0), (0, 0), (0, 0), (0, 0), (-57, -55), (0, 0), (0, 0)];
/// Our horse, chariot or cannon attacked by an enemy advisor or elephant.
pub const THREAT_BY_DEFENDER: [Pair; 7] = [(0, 0), (0, 0), (0, 0), (-97, 49), (-26, -14), (-25, 26), (0, 0)];
/// Our piece (any kind but the general) attacked by an enemy piece and
/// defended by none of ours, whichever side is to move.
pub const HANGING: [Pair; 7] = [(0, 0), (-17, -42), (-35, -7), (-63, -35), (-12, 38), (-57, -63), (13, -45)];
/// Our piece pinned against our general: the only piece between the general
/// and an enemy chariot on a line, or one of the two pieces between the
/// general and an enemy cannon (moving it off the line would give check).
pub const PINNED: [Pair; 7] = [(0, 0), (29, -12), (-14, 9), (-94, -79), (-204, 20), (-11, -82), (2, -21)];
/// Attack units of pieces in the zone around the enemy palace, by kind index.
pub const KING_ATTACK_UNITS: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];
/// Middlegame penalty for the attack units against a general (only with >= 2 attackers).
pub const KING_ATTACK: [i32; 16] = [0, 0, 4, 10, 52, 48, 45, 35, 128, 125, 41, 164, 97, -121, 264, 313];

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
/// A lone chariot (nothing else that attacks) against two advisors and two
/// elephants with at most one horse or cannon, or against a cannon and two
/// advisors: the defenders hold the draw.
pub const SCALE_CHARIOT_VS_FORTRESS: i32 = 4;
/// No chariot, and as attackers only a horse and a soldier, a cannon and a
/// soldier, or two cannons, against two advisors and two elephants.
pub const SCALE_TWO_VS_FULL_DEFENDERS: i32 = 7;
/// Two soldiers (nothing else that attacks) against two advisors and two elephants.
pub const SCALE_SOLDIER_PAIR_VS_FULL_DEFENDERS: i32 = 1;
