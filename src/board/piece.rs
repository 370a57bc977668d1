//! Colours, piece kinds and coloured pieces, with their FEN letters and
//! Chinese names. Nothing here knows where a piece stands or how it moves.

use std::fmt;
use std::ops::Not;

/// A side. Red moves first.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// Index 0 (Red) or 1 (Black).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// English name, lower case ("red", "black").
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of xiangqi piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    General = 1,
    Advisor = 2,
    Elephant = 3,
    Horse = 4,
    Chariot = 5,
    Cannon = 6,
    Soldier = 7,
}

impl PieceKind {
    /// All kinds in slot order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// Index 0..7.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// How many pieces of this kind a side starts with (the legal maximum).
    pub const fn start_count(self) -> usize {
        match self {
            PieceKind::General => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }

    /// FEN letter in lower case (`k a b n r c p`).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::General => 'k',
            PieceKind::Advisor => 'a',
            PieceKind::Elephant => 'b',
            PieceKind::Horse => 'n',
            PieceKind::Chariot => 'r',
            PieceKind::Cannon => 'c',
            PieceKind::Soldier => 'p',
        }
    }

    /// English name.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }

    /// Parses a FEN letter (either case); accepts the aliases `e` (elephant) and
    /// `h` (horse).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_lowercase() {
            'k' => PieceKind::General,
            'a' => PieceKind::Advisor,
            'b' | 'e' => PieceKind::Elephant,
            'n' | 'h' => PieceKind::Horse,
            'r' => PieceKind::Chariot,
            'c' => PieceKind::Cannon,
            'p' => PieceKind::Soldier,
            _ => return None,
        })
    }
}

/// A coloured piece, packed as `color * 8 + kind` (1..=7 Red, 9..=15 Black).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(pub u8);

impl Piece {
    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece((color as u8) << 3 | kind as u8)
    }

    /// Its colour.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 8 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline]
    pub const fn kind(self) -> PieceKind {
        match self.0 & 7 {
            1 => PieceKind::General,
            2 => PieceKind::Advisor,
            3 => PieceKind::Elephant,
            4 => PieceKind::Horse,
            5 => PieceKind::Chariot,
            6 => PieceKind::Cannon,
            _ => PieceKind::Soldier,
        }
    }

    /// Index 0..16 for tables indexed by piece.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parses a FEN letter (upper case = Red), with the `e`/`h` aliases.
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        Some(Piece::new(color, kind))
    }

    /// Chinese name as used in move records (帅/将, 仕/士, 相/象, 马, 车, 炮, 兵/卒).
    pub const fn chinese(self) -> &'static str {
        match (self.color(), self.kind()) {
            (Color::Red, PieceKind::General) => "帅",
            (Color::Black, PieceKind::General) => "将",
            (Color::Red, PieceKind::Advisor) => "仕",
            (Color::Black, PieceKind::Advisor) => "士",
            (Color::Red, PieceKind::Elephant) => "相",
            (Color::Black, PieceKind::Elephant) => "象",
            (_, PieceKind::Horse) => "马",
            (_, PieceKind::Chariot) => "车",
            (_, PieceKind::Cannon) => "炮",
            (Color::Red, PieceKind::Soldier) => "兵",
            (Color::Black, PieceKind::Soldier) => "卒",
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color(), self.kind().name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(p.color(), color);
                assert_eq!(p.kind(), kind);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert_eq!(Piece::from_letter('E'), Some(Piece::new(Color::Red, PieceKind::Elephant)));
        assert_eq!(Piece::from_letter('h'), Some(Piece::new(Color::Black, PieceKind::Horse)));
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(!Color::Red, Color::Black);
    }
}
