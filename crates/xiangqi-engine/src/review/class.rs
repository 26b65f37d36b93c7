//! How good a move was, by how many percentage points of winning chance it gave away.

use std::fmt;

use xiangqi_core::record::nag;

/// A move's class. The thresholds are points of winning chance (0..100) lost: see
/// docs/review.md for why these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveClass {
    /// The move the engine would have played.
    Best,
    /// Another move that loses less than an inaccuracy.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// Points lost from which a move is an inaccuracy, a mistake, a blunder.
pub const INACCURACY_LOSS: f64 = 10.0;
pub const MISTAKE_LOSS: f64 = 20.0;
pub const BLUNDER_LOSS: f64 = 30.0;

impl MoveClass {
    /// The class of a move that lost `loss` points; `best` when it is the engine's move.
    pub fn of(loss: f64, best: bool) -> MoveClass {
        if best {
            MoveClass::Best
        } else if loss >= BLUNDER_LOSS {
            MoveClass::Blunder
        } else if loss >= MISTAKE_LOSS {
            MoveClass::Mistake
        } else if loss >= INACCURACY_LOSS {
            MoveClass::Inaccuracy
        } else {
            MoveClass::Good
        }
    }

    /// The name the JSON report uses.
    pub fn name(self) -> &'static str {
        match self {
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }

    /// An inaccuracy, a mistake or a blunder: a move worth pointing out.
    pub fn is_error(self) -> bool {
        self >= MoveClass::Inaccuracy
    }

    /// The suffix players write after such a move: `?!`, `?`, `??` (empty otherwise).
    pub fn symbol(self) -> &'static str {
        match self {
            MoveClass::Inaccuracy => "?!",
            MoveClass::Mistake => "?",
            MoveClass::Blunder => "??",
            MoveClass::Best | MoveClass::Good => "",
        }
    }

    /// The PGN NAG of the symbol: `$6`, `$2`, `$4`.
    pub fn nag(self) -> Option<u8> {
        match self {
            MoveClass::Inaccuracy => Some(nag::DUBIOUS),
            MoveClass::Mistake => Some(nag::MISTAKE),
            MoveClass::Blunder => Some(nag::BLUNDER),
            MoveClass::Best | MoveClass::Good => None,
        }
    }

    /// The class a NAG marks, if it marks one (to read a reviewed game back).
    pub fn from_nag(value: u8) -> Option<MoveClass> {
        match value {
            nag::DUBIOUS => Some(MoveClass::Inaccuracy),
            nag::MISTAKE => Some(MoveClass::Mistake),
            nag::BLUNDER => Some(MoveClass::Blunder),
            _ => None,
        }
    }
}

impl fmt::Display for MoveClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_and_marks() {
        assert_eq!(MoveClass::of(45.0, true), MoveClass::Best);
        assert_eq!(MoveClass::of(9.99, false), MoveClass::Good);
        assert_eq!(MoveClass::of(10.0, false), MoveClass::Inaccuracy);
        assert_eq!(MoveClass::of(19.9, false), MoveClass::Inaccuracy);
        assert_eq!(MoveClass::of(20.0, false), MoveClass::Mistake);
        assert_eq!(MoveClass::of(30.0, false), MoveClass::Blunder);
        assert_eq!(MoveClass::of(100.0, false), MoveClass::Blunder);
        let marks: Vec<_> = [
            MoveClass::Inaccuracy,
            MoveClass::Mistake,
            MoveClass::Blunder,
        ]
        .iter()
        .map(|c| (c.symbol(), c.nag()))
        .collect();
        assert_eq!(marks, [("?!", Some(6)), ("?", Some(2)), ("??", Some(4))]);
        for class in [
            MoveClass::Inaccuracy,
            MoveClass::Mistake,
            MoveClass::Blunder,
        ] {
            assert_eq!(MoveClass::from_nag(class.nag().unwrap()), Some(class));
        }
        assert!(!MoveClass::Good.is_error() && MoveClass::Inaccuracy.is_error());
        assert_eq!(format!("{}", MoveClass::Best), "best");
    }
}
