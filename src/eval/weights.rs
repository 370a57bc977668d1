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
pub const MATERIAL: [Pair; 7] = [(0, 0), (78, 48), (291, 46), (714, 157), (1790, 613), (772, 166), (132, 69)];

/// Game-phase weight of each kind (chariots most, horses and cannons next).
pub const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 3, 6, 3, 0];
/// Phase of the full board (2 x (2x6 + 2x3 + 2x3)).
pub const PHASE_MAX: i32 = 48;

/// Side-to-move bonus.
pub const TEMPO: i32 = 28;

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
        [0, 0, 0, -293, -184, -293, 0, 0, 0],
        [0, 0, 0, -98, 2, -98, 0, 0, 0],
        [0, 0, 0, 54, 87, 54, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -3, 0, -3, 0, 0, 0],
        [0, 0, 0, 7, 1, 7, 0, 0, 0],
        [0, 0, 0, -7, -14, -7, 0, 0, 0],
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
        [0, 0, 0, -60, 0, -60, 0, 0, 0],
        [0, 0, 0, 0, 44, 0, 0, 0, 0],
        [0, 0, 0, -28, 0, -28, 0, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, 0, -31, 0, -31, 0, 0, 0],
        [0, 0, 0, 0, -50, 0, 0, 0, 0],
        [0, 0, 0, -50, 0, -50, 0, 0, 0],
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
        [0, 0, 5, 0, 0, 0, 5, 0, 0],
        [0; 9],
        [3, 0, 0, 0, 81, 0, 0, 0, 3],
        [0; 9],
        [0, 0, 52, 0, 0, 0, 52, 0, 0],
    ],
    [
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0; 9],
        [0, 0, -26, 0, 0, 0, -26, 0, 0],
        [0; 9],
        [-27, 0, 0, 0, -30, 0, 0, 0, -27],
        [0; 9],
        [0, 0, -20, 0, 0, 0, -20, 0, 0],
    ],
);

/// Horses: central and advanced points, the "卧槽" points c8/g8 and the
/// river points near the enemy palace; the palace heart blocks the general.
pub const PST_HORSE: (Table, Table) = (
    [
        [129, 76, 206, 264, 106, 264, 206, 76, 129],
        [22, 39, 241, 88, 412, 88, 241, 39, 22],
        [183, 88, 52, 323, 323, 323, 52, 88, 183],
        [1, 226, 82, 184, 38, 184, 82, 226, 1],
        [40, 51, 39, 133, 151, 133, 39, 51, 40],
        [6, 23, 125, 49, 55, 49, 125, 23, 6],
        [15, -100, -4, -18, 73, -18, -4, -100, 15],
        [-10, -23, 10, 70, -2, 70, 10, -23, -10],
        [-64, -33, -30, 11, 12, 11, -30, -33, -64],
        [-217, -62, 19, -36, -418, -36, 19, -62, -217],
    ],
    [
        [33, 45, -1, 15, 31, 15, -1, 45, 33],
        [54, 49, 4, 17, -62, 17, 4, 49, 54],
        [36, 23, 22, -7, 15, -7, 22, 23, 36],
        [24, 17, 12, 25, 7, 25, 12, 17, 24],
        [36, 26, 40, 29, 20, 29, 40, 26, 36],
        [57, 35, 31, 29, 42, 29, 31, 35, 57],
        [0, 33, 27, 27, 36, 27, 27, 33, 0],
        [-45, 21, -53, 13, 11, 13, -53, 21, -45],
        [-100, -4, -39, -39, -208, -39, -39, -4, -100],
        [-45, -49, -34, 1, 36, 1, -34, -49, -45],
    ],
);

/// Chariots: open and rib files, the enemy palace ranks; a chariot at home
/// in the corner is undeveloped.
pub const PST_CHARIOT: (Table, Table) = (
    [
        [-11, 42, 24, 209, 99, 209, 24, 42, -11],
        [-15, 75, 23, 42, 231, 42, 23, 75, -15],
        [49, 33, 4, 60, 38, 60, 4, 33, 49],
        [50, 51, 104, 64, 57, 64, 104, 51, 50],
        [24, 24, 66, 44, 45, 44, 66, 24, 24],
        [2, 38, 59, 62, 49, 62, 59, 38, 2],
        [-1, 34, 55, 59, 63, 59, 55, 34, -1],
        [-49, 9, -9, 20, 28, 20, -9, 9, -49],
        [-53, -17, -21, 21, -22, 21, -21, -17, -53],
        [-54, 14, -4, 27, 17, 27, -4, 14, -54],
    ],
    [
        [-28, -27, -21, -74, -60, -74, -21, -27, -28],
        [31, -28, -1, 7, -10, 7, -1, -28, 31],
        [11, -16, 34, 43, 63, 43, 34, -16, 11],
        [20, 18, -9, 21, 37, 21, -9, 18, 20],
        [6, 22, 9, 20, 41, 20, 9, 22, 6],
        [13, 11, 21, 12, 41, 12, 21, 11, 13],
        [46, 39, 34, 32, 53, 32, 34, 39, 46],
        [-18, -22, 11, 17, 34, 17, 11, -22, -18],
        [-69, -41, -54, -18, -49, -18, -54, -41, -69],
        [-55, -53, -13, -35, -131, -35, -13, -53, -55],
    ],
);

/// Cannons: the central file (中炮), the home rank, and behind the enemy
/// pieces (bottom cannon a9/i9 corners); poor in front of the enemy palace.
pub const PST_CANNON: (Table, Table) = (
    [
        [48, 21, -69, -5, -246, -5, -69, 21, 48],
        [64, -11, -44, -29, -86, -29, -44, -11, 64],
        [43, 13, -5, 8, -11, 8, -5, 13, 43],
        [45, 22, 38, -18, 79, -18, 38, 22, 45],
        [31, -13, 46, -20, 139, -20, 46, -13, 31],
        [-10, 9, 36, 21, 101, 21, 36, 9, -10],
        [-4, -21, 49, 2, 84, 2, 49, -21, -4],
        [27, 19, 62, 58, 82, 58, 62, 19, 27],
        [37, 20, 52, 33, 54, 33, 52, 20, 37],
        [-47, -20, 80, 32, -62, 32, 80, -20, -47],
    ],
    [
        [-26, -20, 6, 16, 92, 16, 6, -20, -26],
        [1, -15, -12, -27, 43, -27, -12, -15, 1],
        [-15, -30, -56, -31, -31, -31, -56, -30, -15],
        [-44, -19, -33, -14, -22, -14, -33, -19, -44],
        [-23, -15, -43, -7, -42, -7, -43, -15, -23],
        [-6, -21, -52, -26, -36, -26, -52, -21, -6],
        [-11, -22, -49, -23, -25, -23, -49, -22, -11],
        [-29, -28, -47, -24, -4, -24, -47, -28, -29],
        [-38, -18, -45, -5, -1, -5, -45, -18, -38],
        [-50, -31, -73, -2, 36, -2, -73, -31, -50],
    ],
);

/// Soldiers: little at home, much more after the river (docs/rules.md section 1:
/// only then can they step sideways), most next to the enemy palace, little
/// on the enemy back rank where they can only move sideways.
pub const PST_SOLDIER: (Table, Table) = (
    [
        [-69, 86, 114, 120, 198, 120, 114, 86, -69],
        [25, 198, 240, 560, 1026, 560, 240, 198, 25],
        [10, 104, 161, 290, 423, 290, 161, 104, 10],
        [42, 102, 136, 170, 162, 170, 136, 102, 42],
        [56, 54, 106, 138, 114, 138, 106, 54, 56],
        [-24, 0, 21, 0, 4, 0, 21, 0, -24],
        [-28, 0, -35, 0, 26, 0, -35, 0, -28],
        [0; 9],
        [0; 9],
        [0; 9],
    ],
    [
        [22, 16, 9, -18, -62, -18, 9, 16, 22],
        [63, 62, 84, 55, -15, 55, 84, 62, 63],
        [115, 103, 99, 141, 102, 141, 99, 103, 115],
        [117, 136, 138, 130, 128, 130, 138, 136, 117],
        [92, 127, 135, 157, 157, 157, 135, 127, 92],
        [84, 0, 73, 0, 133, 0, 73, 0, 84],
        [78, 0, 56, 0, 116, 0, 56, 0, 78],
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
    (-23, -109),
    (19, -144),
    (18, -153),
    (19, -129),
    (35, -70),
    (44, -23),
    (51, -6),
    (54, 1),
    (58, 8),
    (69, 16),
    (62, 35),
    (63, 30),
    (76, 21),
    (80, 33),
    (97, 35),
    (104, 34),
    (85, 42),
    (94, 27),
];
/// Horse mobility, by the number of legal jumps (leg free, destination not
/// own; 0 to 8). A horse with at most one jump is trapped (马被困).
pub const HORSE_MOBILITY: [Pair; 9] =
    [(26, -150), (49, -89), (52, -58), (65, -38), (77, -19), (83, -1), (98, -4), (119, -1), (137, -8)];
/// Per horse leg blocked by an own piece.
pub const HORSE_LEG_BLOCKED: Pair = (-10, 6);
/// Cannon mobility, by the number of quiet points and captures (0 to 17).
pub const CANNON_MOBILITY: [Pair; 18] = [
    (0, -122),
    (9, -48),
    (9, -37),
    (25, -41),
    (21, -21),
    (26, -22),
    (31, -17),
    (29, -18),
    (33, -14),
    (28, -7),
    (34, -5),
    (38, -5),
    (41, -10),
    (45, -5),
    (50, -2),
    (35, -1),
    (47, 1),
    (49, 4),
];
/// A chariot with no own piece ahead of it on its file.
pub const CHARIOT_OPEN_FILE: Pair = (11, 27);
/// 空头炮: a cannon on the enemy general's file with nothing between.
pub const EMPTY_HEAD_CANNON: Pair = (161, -11);
/// 炮镇窝心马: a cannon on the general's file whose only screen is that side's horse on the palace heart.
pub const CANNON_PINS_PALACE_HORSE: Pair = (68, -32);
/// 沉底炮: a cannon on the enemy back rank while the enemy general stands on it.
pub const BOTTOM_CANNON: Pair = (97, -32);
/// A chariot on the enemy back rank while the enemy general stands on it.
pub const CHARIOT_BACK_RANK: Pair = (18, 25);
/// Per missing advisor, per enemy chariot.
pub const ADVISOR_MISSING_VS_CHARIOT: Pair = (-97, -31);
/// Per missing elephant, per enemy cannon.
pub const ELEPHANT_MISSING_VS_CANNON: Pair = (3, 43);
/// Two advisors guarding each other (士连).
pub const CONNECTED_ADVISORS: Pair = (-25, 12);
/// Two elephants guarding each other (相连).
pub const CONNECTED_ELEPHANTS: Pair = (28, 6);
/// Per pair of crossed soldiers side by side.
pub const SOLDIERS_CONNECTED: Pair = (2, 4);
/// Chariot, horse and cannon together (车马炮).
pub const CHARIOT_HORSE_CANNON: Pair = (-55, 145);
/// Horse and cannon without chariots (马炮 coordinate better than two of a kind).
pub const HORSE_CANNON_NO_CHARIOT: Pair = (-55, 97);
/// Two cannons without chariots (cannons lack screens in the endgame).
pub const DOUBLE_CANNON_NO_CHARIOT: Pair = (-10, -35);
// Attacks between pieces, by the kind index of the piece attacked (General,
// Advisor, Elephant, Horse, Chariot, Cannon, Soldier); an entry for a kind
// the term never counts stays (0, 0). A point is attacked by a piece when the
// piece could capture there were an enemy piece on it (a chariot up to the
// first piece on each line, a cannon on the first piece behind exactly one
// screen, a horse with a free leg, an elephant with a free eye, a soldier
// forward and, after the river, sideways, advisors and the general inside
// their palace); a piece defends the points it attacks.

/// Our piece attacked by an enemy soldier (advisor, elephant, horse, chariot, cannon).
pub const THREAT_BY_SOLDIER: [Pair; 7] = [(0, 0), (117, -26), (-5, -13), (-69, -58), (-26, -105), (-53, -76), (0, 0)];
/// Our chariot attacked by an enemy horse or cannon.
pub const THREAT_BY_MINOR: [Pair; 7] = [(0, 0), (0, 0), (0, 0), (0, 0), (-46, -35), (0, 0), (0, 0)];
/// Our horse, chariot or cannon attacked by an enemy advisor or elephant.
pub const THREAT_BY_DEFENDER: [Pair; 7] = [(0, 0), (0, 0), (0, 0), (-76, 38), (19, -45), (-45, 32), (0, 0)];
/// Our piece (any kind but the general) attacked by an enemy piece and
/// defended by none of ours, whichever side is to move.
pub const HANGING: [Pair; 7] = [(0, 0), (-8, -53), (-30, -17), (-57, -44), (-32, 59), (-51, -52), (-2, -32)];
/// Our piece pinned against our general: the only piece between the general
/// and an enemy chariot on a line, or one of the two pieces between the
/// general and an enemy cannon (moving it off the line would give check).
pub const PINNED: [Pair; 7] = [(0, 0), (20, -22), (-8, 3), (-84, -95), (-213, 41), (-28, -49), (17, -45)];
/// Material imbalance, our side's pairs: `(ours of kind a) * (ours of kind
/// b)` for kinds b <= a among advisor, elephant, horse, chariot, cannon and
/// soldier (index `a * (a + 1) / 2 + b`, kinds counted from the advisor).
pub const IMBALANCE_OURS: [Pair; 21] = [
    (-20, -2),
    (22, -17),
    (-4, -4),
    (-12, 15),
    (-28, -17),
    (-19, 47),
    (-3, 41),
    (-38, -102),
    (-22, 59),
    (-122, -90),
    (-17, 42),
    (-5, -18),
    (-28, 49),
    (-59, -24),
    (-52, 45),
    (0, 5),
    (10, -2),
    (-34, 82),
    (-23, 168),
    (-22, 70),
    (-4, 11),
];
/// Material imbalance against the enemy: `(ours of kind a) * (theirs of kind
/// b)` for kinds b < a (index `a * (a - 1) / 2 + b`), counted for both sides
/// like every term, so each weight values the pairing's asymmetry.
pub const IMBALANCE_THEIRS: [Pair; 15] = [
    (6, -4),
    (-30, -15),
    (24, -19),
    (-8, 20),
    (2, -68),
    (-2, 99),
    (66, -6),
    (-11, -47),
    (-9, 17),
    (23, -46),
    (-4, -36),
    (15, -34),
    (18, -65),
    (18, -193),
    (14, -54),
];
/// Attack units of pieces in the zone around the enemy palace, by kind index.
pub const KING_ATTACK_UNITS: [i32; 7] = [0, 0, 0, 3, 4, 3, 2];
/// Middlegame penalty for the attack units against a general (only with >= 2 attackers).
pub const KING_ATTACK: [i32; 16] = [0, 0, 4, 10, 39, 17, 6, 19, 18, 79, 41, 67, 94, -57, 116, 289];

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
pub const SCALE_EQUAL_ATTACKERS: i32 = 55;
/// A lone chariot (nothing else that attacks) against two advisors and two
/// elephants with at most one horse or cannon, or against a cannon and two
/// advisors: the defenders hold the draw.
pub const SCALE_CHARIOT_VS_FORTRESS: i32 = 4;
/// No chariot, and as attackers only a horse and a soldier, a cannon and a
/// soldier, or two cannons, against two advisors and two elephants.
pub const SCALE_TWO_VS_FULL_DEFENDERS: i32 = 7;
/// Two soldiers (nothing else that attacks) against two advisors and two elephants.
pub const SCALE_SOLDIER_PAIR_VS_FULL_DEFENDERS: i32 = 1;
