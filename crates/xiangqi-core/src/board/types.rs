//! Colours, piece kinds, pieces, squares and moves: the small value types everything shares.

use std::fmt;

/// A side. Red moves first and starts on ranks 0-4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Red, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

/// A piece type, without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    General = 0,
    Advisor = 1,
    Elephant = 2,
    Horse = 3,
    Chariot = 4,
    Cannon = 5,
    Soldier = 6,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::General,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Chariot,
        Kind::Cannon,
        Kind::Soldier,
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// The FEN letter (upper case), as xqbase and UCCI write it.
    pub const fn letter(self) -> char {
        match self {
            Kind::General => 'K',
            Kind::Advisor => 'A',
            Kind::Elephant => 'B',
            Kind::Horse => 'N',
            Kind::Chariot => 'R',
            Kind::Cannon => 'C',
            Kind::Soldier => 'P',
        }
    }

    /// Most pieces of this kind one side can have.
    pub const fn max_count(self) -> usize {
        match self {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Kind::General => "general",
            Kind::Advisor => "advisor",
            Kind::Elephant => "elephant",
            Kind::Horse => "horse",
            Kind::Chariot => "chariot",
            Kind::Cannon => "cannon",
            Kind::Soldier => "soldier",
        }
    }
}

/// A coloured piece, packed in a byte so the mailbox stays small: 0 is an empty point,
/// otherwise `colour * 8 + kind + 1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Piece(u8);

impl Piece {
    pub const NONE: Piece = Piece(0);

    #[inline]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece(((color as u8) << 3) | (kind as u8 + 1))
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn is_some(self) -> bool {
        self.0 != 0
    }

    /// The colour of a piece. Meaningless for `NONE`.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 >> 3 == 0 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The kind of a piece. Meaningless for `NONE`.
    #[inline]
    pub const fn kind(self) -> Kind {
        Kind::from_index(((self.0 & 7) - 1) as usize)
    }

    /// Index 0..16 for tables such as Zobrist keys.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter, accepting the WXF aliases `E` (elephant), `H` (horse) and `G`
    /// (general).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_uppercase() {
            'K' | 'G' => Kind::General,
            'A' => Kind::Advisor,
            'B' | 'E' => Kind::Elephant,
            'N' | 'H' => Kind::Horse,
            'R' => Kind::Chariot,
            'C' => Kind::Cannon,
            'P' => Kind::Soldier,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            f.write_str("-")
        } else {
            write!(f, "{}", self.fen_char())
        }
    }
}

/// A point of the board, `y * 9 + x`: file x = 0..8 (`a`..`i` from Red's left), rank
/// y = 0..9 (Red's back rank is 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 90;

    #[inline]
    pub const fn new(x: u8, y: u8) -> Square {
        Square(y * 9 + x)
    }

    /// Builds a square from an index known to be below 90.
    #[inline]
    pub const fn from_index(i: usize) -> Square {
        Square(i as u8)
    }

    /// Builds a square from signed coordinates, if they are on the board.
    #[inline]
    pub const fn try_new(x: i32, y: i32) -> Option<Square> {
        if x >= 0 && x < 9 && y >= 0 && y < 10 {
            Some(Square::new(x as u8, y as u8))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn x(self) -> u8 {
        self.0 % 9
    }

    #[inline]
    pub const fn y(self) -> u8 {
        self.0 / 9
    }

    /// The same point seen from the other side of the board (rotated by 180 degrees).
    #[inline]
    #[must_use]
    pub const fn rotated(self) -> Square {
        Square(89 - self.0)
    }

    /// The point mirrored top to bottom (Red's side to Black's), same file.
    #[inline]
    #[must_use]
    pub const fn flipped_rank(self) -> Square {
        Square::new(self.x(), 9 - self.y())
    }

    /// True on the side of the river where `color` starts.
    #[inline]
    pub const fn on_own_side(self, color: Color) -> bool {
        match color {
            Color::Red => self.y() <= 4,
            Color::Black => self.y() >= 5,
        }
    }

    /// True inside `color`'s palace (files d-f, the three ranks nearest its back rank).
    #[inline]
    pub const fn in_palace(self, color: Color) -> bool {
        let (x, y) = (self.x(), self.y());
        x >= 3
            && x <= 5
            && match color {
                Color::Red => y <= 2,
                Color::Black => y >= 7,
            }
    }

    /// ICCS name, ranks 0-9: `e0`.
    pub fn iccs(self) -> String {
        format!("{}{}", (b'a' + self.x()) as char, self.y())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x()) as char, self.y())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A move from one point to another, packed in 16 bits. It carries no piece: the
/// position it is played in supplies that.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Move(u16);

impl Move {
    /// Never a legal move (from and to are the same point); useful as "no move".
    pub const NULL: Move = Move(0);

    #[inline]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | ((to.0 as u16) << 7))
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The packed form, for hash tables and books.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from `bits()`; `None` if either point is off the board.
    pub const fn from_bits(bits: u16) -> Option<Move> {
        let (from, to) = (bits & 0x7f, bits >> 7);
        if from < 90 && to < 90 {
            Some(Move(bits))
        } else {
            None
        }
    }

    /// ICCS with ranks 0-9, lower case: `h2e2`.
    pub fn iccs(self) -> String {
        format!("{}{}", self.from(), self.to())
    }

    /// Reads plain coordinates `h2e2`, `H2-E2` or `h2-e2` (ranks 0-9). Legality is not checked.
    pub fn parse_coords(text: &str) -> Option<Move> {
        let bytes: Vec<u8> = text
            .bytes()
            .filter(|&b| b != b'-')
            .map(|b| b.to_ascii_lowercase())
            .collect();
        if bytes.len() != 4 || text.bytes().filter(|&b| b == b'-').count() > 1 {
            return None;
        }
        let square = |f: u8, r: u8| -> Option<Square> {
            if (b'a'..=b'i').contains(&f) && r.is_ascii_digit() {
                Some(Square::new(f - b'a', r - b'0'))
            } else {
                None
            }
        };
        Some(Move::new(
            square(bytes[0], bytes[1])?,
            square(bytes[2], bytes[3])?,
        ))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Moves travel as ICCS text (`"h2e2"`), as in the `jsonl` trace export.
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.iccs())
    }
}

impl<'de> serde::Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Move::parse_coords(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("'{text}' is not an ICCS move")))
    }
}
