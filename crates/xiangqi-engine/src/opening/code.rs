//! An ECCO code (Encyclopedia of Chinese Chess Openings): a letter A-E and a number
//! 00-99, "C45". A flank openings, B central cannon against defences without screen
//! horses, C central cannon against screen horses, D same- and opposite-direction
//! cannons, E elephant, pawn and other openings.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// An ECCO code, stored as `letter * 100 + number` (0 = A00 .. 499 = E99).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ecco(u16);

/// Why a text is not an ECCO code.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("'{0}' is not an ECCO code (a letter A-E and two digits, as C45)")]
pub struct EccoError(pub String);

impl Ecco {
    /// Codes there are: A00 to E99.
    pub const COUNT: u16 = 500;
    /// A00, other openings.
    pub const A00: Ecco = Ecco(0);

    /// From a letter ('A'-'E', either case) and a number below 100.
    pub fn new(letter: char, number: u8) -> Option<Ecco> {
        let index = "ABCDE".find(letter.to_ascii_uppercase())?;
        (number < 100).then(|| Ecco(index as u16 * 100 + u16::from(number)))
    }

    /// From its index `letter * 100 + number` (how the table stores it).
    pub fn from_index(index: u16) -> Option<Ecco> {
        (index < Ecco::COUNT).then_some(Ecco(index))
    }

    pub fn index(self) -> u16 {
        self.0
    }

    /// 'A' to 'E'.
    pub fn letter(self) -> char {
        char::from(b'A' + (self.0 / 100) as u8)
    }

    /// 0 to 99.
    pub fn number(self) -> u8 {
        (self.0 % 100) as u8
    }
}

impl fmt::Display for Ecco {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:02}", self.letter(), self.number())
    }
}

impl FromStr for Ecco {
    type Err = EccoError;

    fn from_str(text: &str) -> Result<Ecco, EccoError> {
        let bad = || EccoError(text.to_owned());
        let trimmed = text.trim();
        let mut chars = trimmed.chars();
        let letter = chars.next().ok_or_else(bad)?;
        let digits = chars.as_str();
        if digits.len() != 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        Ecco::new(letter, digits.parse().map_err(|_| bad())?).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let c45: Ecco = "C45".parse().unwrap();
        assert_eq!((c45.letter(), c45.number(), c45.index()), ('C', 45, 245));
        assert_eq!(c45.to_string(), "C45");
        assert_eq!("a07".parse::<Ecco>().unwrap().to_string(), "A07");
        assert_eq!(Ecco::from_index(499).unwrap().to_string(), "E99");
        assert_eq!(Ecco::from_index(500), None);
        for bad in ["", "C", "C4", "C450", "F10", "C4x", "45"] {
            assert_eq!(bad.parse::<Ecco>(), Err(EccoError(bad.to_owned())), "{bad}");
        }
    }
}
