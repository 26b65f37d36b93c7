//! Material signatures such as `KRKAABB`: the pieces of the stronger side, then those of
//! the weaker side, each starting with its general. A table is always stored with the
//! stronger side as Red; a position with the stronger side Black is probed rotated.

use std::fmt;
use std::str::FromStr;

use super::EgtbError;
use xiangqi_core::board::{Color, Kind, Position};

/// Letters in a signature, in the order they are written after the general. The horse is
/// `H` here (FEN writes `N`; both are read).
const ORDER: [Kind; 6] = [
    Kind::Chariot,
    Kind::Horse,
    Kind::Cannon,
    Kind::Soldier,
    Kind::Advisor,
    Kind::Elephant,
];

/// Rough piece values that decide which side of a signature is the stronger one.
const fn weight(kind: Kind) -> u32 {
    match kind {
        Kind::General => 0,
        Kind::Chariot => 9,
        Kind::Horse | Kind::Cannon => 4,
        Kind::Advisor | Kind::Elephant => 2,
        Kind::Soldier => 1,
    }
}

/// How many pieces of each kind one side has (indexed by `Kind::index`; the general
/// always counts 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Side(pub [u8; 7]);

impl Side {
    fn bare() -> Side {
        let mut counts = [0; 7];
        counts[Kind::General.index()] = 1;
        Side(counts)
    }

    pub fn count(&self, kind: Kind) -> u8 {
        self.0[kind.index()]
    }

    /// Pieces on the board for this side, the general included.
    pub fn pieces(&self) -> u32 {
        self.0.iter().map(|&c| u32::from(c)).sum()
    }

    /// True if the side has a chariot, horse, cannon or soldier.
    pub fn can_attack(&self) -> bool {
        [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Soldier]
            .iter()
            .any(|&k| self.count(k) > 0)
    }

    /// Sort key: the larger one is the stronger side. Attackers count first: only
    /// they can mate, so `KHKAABB` has the horse's side first.
    fn strength(&self) -> (u32, u32, [u8; 6]) {
        let value = |kinds: &[Kind]| -> u32 {
            kinds
                .iter()
                .map(|&k| weight(k) * u32::from(self.count(k)))
                .sum()
        };
        (
            value(&[Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Soldier]),
            value(&[Kind::Advisor, Kind::Elephant]),
            ORDER.map(|k| self.count(k)),
        )
    }

    fn of(pos: &Position, color: Color) -> Side {
        let mut counts = [0; 7];
        for kind in Kind::ALL {
            counts[kind.index()] = pos.pieces(color, kind).count_ones() as u8;
        }
        Side(counts)
    }

    fn write(&self, out: &mut String) {
        out.push('K');
        for kind in ORDER {
            let letter = if kind == Kind::Horse {
                'H'
            } else {
                kind.letter()
            };
            for _ in 0..self.count(kind) {
                out.push(letter);
            }
        }
    }
}

/// The material of an ending: the stronger side (stored as Red) and the weaker side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    pub strong: Side,
    pub weak: Side,
}

impl Material {
    /// The material of a position, and whether Red is the weaker side (the position must
    /// then be rotated and its colours swapped to be looked up).
    pub fn of(pos: &Position) -> (Material, bool) {
        let (red, black) = (Side::of(pos, Color::Red), Side::of(pos, Color::Black));
        Material::from_sides(red, black)
    }

    /// Orders two sides into a material; true if `red` turned out the weaker one.
    pub fn from_sides(red: Side, black: Side) -> (Material, bool) {
        if red.strength() >= black.strength() {
            (
                Material {
                    strong: red,
                    weak: black,
                },
                false,
            )
        } else {
            (
                Material {
                    strong: black,
                    weak: red,
                },
                true,
            )
        }
    }

    /// Pieces on the board, both generals included.
    pub fn pieces(&self) -> u32 {
        self.strong.pieces() + self.weak.pieces()
    }

    /// Both sides have the same pieces: a position and its colour-swapped twin are both
    /// in the table.
    pub fn is_symmetric(&self) -> bool {
        self.strong == self.weak
    }

    /// The endings one capture away, each once.
    pub fn captures(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for (side, other) in [(self.strong, self.weak), (self.weak, self.strong)] {
            for kind in ORDER {
                if side.count(kind) > 0 {
                    let mut less = side;
                    less.0[kind.index()] -= 1;
                    let (m, _) = Material::from_sides(less, other);
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// This ending and every ending captures can lead to, smallest first, so each
    /// table's sub-endings are solved before it.
    pub fn closure(&self) -> Vec<Material> {
        let mut all = vec![*self];
        let mut i = 0;
        while i < all.len() {
            for m in all[i].captures() {
                if !all.contains(&m) {
                    all.push(m);
                }
            }
            i += 1;
        }
        all.sort_by_key(|m| (m.pieces(), m.to_string()));
        all
    }

    /// Every ending with one chariot, horse, cannon or soldier against any advisors and
    /// elephants, plus `KxK` endings of defenders only.
    pub fn one_attacker_vs_defenders() -> Vec<Material> {
        let mut out = Vec::new();
        for attacker in [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Soldier] {
            for weak in defender_sides() {
                let mut strong = Side::bare();
                strong.0[attacker.index()] = 1;
                out.push(Material { strong, weak });
            }
        }
        out
    }

    /// Endings with one attacking piece on each side and at most `max_defenders`
    /// advisors and elephants in all.
    pub fn attacker_each(max_defenders: u32) -> Vec<Material> {
        let attackers = [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Soldier];
        let defenders = defender_sides();
        let mut out = Vec::new();
        for a in attackers {
            for b in attackers {
                for da in &defenders {
                    for db in &defenders {
                        if da.pieces() + db.pieces() - 2 > max_defenders {
                            continue;
                        }
                        let (mut sa, mut sb) = (*da, *db);
                        sa.0[a.index()] += 1;
                        sb.0[b.index()] += 1;
                        let (m, _) = Material::from_sides(sa, sb);
                        if !out.contains(&m) {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out
    }
}

/// A general with 0-2 advisors and 0-2 elephants: the nine defending sides.
fn defender_sides() -> Vec<Side> {
    let mut out = Vec::new();
    for a in 0..=2 {
        for b in 0..=2 {
            let mut side = Side::bare();
            side.0[Kind::Advisor.index()] = a;
            side.0[Kind::Elephant.index()] = b;
            out.push(side);
        }
    }
    out
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(16);
        self.strong.write(&mut out);
        self.weak.write(&mut out);
        f.write_str(&out)
    }
}

impl FromStr for Material {
    type Err = EgtbError;

    /// Reads `KRKAABB`: two groups each starting with `K`, pieces from `RHNCPABE`, the
    /// stronger side first, at most as many of a kind as the game has.
    fn from_str(text: &str) -> Result<Material, EgtbError> {
        let bad = |why: String| EgtbError::BadMaterial {
            name: text.to_string(),
            why,
        };
        let upper = text.to_ascii_uppercase();
        if !upper.starts_with('K') {
            return Err(bad(
                "it must start with K (the stronger side's general)".into()
            ));
        }
        let mut sides = Vec::new();
        for (column, c) in upper.chars().enumerate() {
            let kind = match c {
                'K' => {
                    sides.push(Side([0; 7]));
                    Kind::General
                }
                'R' => Kind::Chariot,
                'H' | 'N' => Kind::Horse,
                'C' => Kind::Cannon,
                'P' => Kind::Soldier,
                'A' => Kind::Advisor,
                'B' | 'E' => Kind::Elephant,
                _ => {
                    return Err(bad(format!(
                        "unexpected '{c}' at column {}: use K R H C P A B",
                        column + 1
                    )));
                }
            };
            let side = sides.last_mut().expect("the name starts with K");
            side.0[kind.index()] += 1;
            if usize::from(side.count(kind)) > kind.max_count() {
                return Err(bad(format!(
                    "more than {} {}s on one side",
                    kind.max_count(),
                    kind.name()
                )));
            }
        }
        if sides.len() != 2 {
            return Err(bad(format!(
                "it needs exactly two generals (K), found {}",
                sides.len()
            )));
        }
        let material = Material {
            strong: sides[0],
            weak: sides[1],
        };
        let (canonical, swapped) = Material::from_sides(sides[0], sides[1]);
        if swapped {
            return Err(bad(format!("the stronger side comes first: {canonical}")));
        }
        Ok(material)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order() {
        let m: Material = "KRKAABB".parse().unwrap();
        assert_eq!(m.to_string(), "KRKAABB");
        assert_eq!("knkea".parse::<Material>().unwrap().to_string(), "KHKAB");
        let err = "KAKR".parse::<Material>().unwrap_err().to_string();
        assert_eq!(
            err,
            "bad material 'KAKR': the stronger side comes first: KRKA"
        );
        assert!("KRRRK".parse::<Material>().is_err());
        assert!("KR".parse::<Material>().is_err());
        assert!("KXK".parse::<Material>().is_err());
        assert!("RKK".parse::<Material>().is_err());
    }

    #[test]
    fn closure_lists_sub_endings_first() {
        let m: Material = "KRKA".parse().unwrap();
        let names: Vec<String> = m.closure().iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["KK", "KAK", "KRK", "KRKA"]);
        assert_eq!(Material::one_attacker_vs_defenders().len(), 36);
    }
}
