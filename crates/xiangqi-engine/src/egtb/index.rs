//! Position indexing for one material: each piece group (pieces of one kind and colour)
//! takes a combination of the points that kind can ever stand on (generals 9, advisors
//! 5, elephants 7, soldiers the 63 points not behind their start, others 90), and the
//! groups combine in mixed radix. The stronger side is Red.
//!
//! Red's general is the most significant digit, with its six points on files d and e
//! first: positions with it on file f are the mirror images of others, so a file stores
//! only the first two thirds of each side-to-move block (`stored`), and a lookup
//! mirrors a position whose Red general stands on file f.

use super::material::Material;
use xiangqi_core::board::tables::legal_points;
use xiangqi_core::board::{Color, Kind, Piece, Position, Square};

/// Most pieces a table may hold, both sides.
pub const MAX_PIECES: usize = 16;

/// One group of identical pieces.
#[derive(Debug, Clone)]
struct Group {
    piece: Piece,
    count: usize,
    /// The points the kind may stand on, in index order.
    domain: Vec<Square>,
    /// Position of a point in `domain`, or `u8::MAX`.
    slot: [u8; 90],
    /// Number of combinations: C(domain, count).
    size: u64,
    /// Mixed-radix weight of this group's digit.
    stride: u64,
}

/// Maps positions of one material to indexes and back.
#[derive(Debug, Clone)]
pub struct Indexer {
    pub material: Material,
    groups: Vec<Group>,
    /// Positions per side to move (the full space, both mirror halves).
    pub per_side: u64,
    /// Positions per side to move that a file stores (Red general on files d-e).
    pub stored: u64,
    binomial: Vec<[u64; 6]>,
}

/// A position as the indexer sees it: one point per piece, in group order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub squares: [Square; MAX_PIECES],
    pub side: Color,
}

impl Indexer {
    pub fn new(material: Material) -> Indexer {
        let mut groups = Vec::new();
        let mut add = |piece: Piece, count: usize| {
            if count == 0 {
                return;
            }
            let mut domain: Vec<Square> =
                xiangqi_core::board::Squares(legal_points(piece.kind(), piece.color())).collect();
            if piece == Piece::new(Color::Red, Kind::General) {
                // Files d and e first, so the mirror half (file f) is a suffix.
                domain.sort_by_key(|s| (s.x() == 5, s.index()));
            }
            let mut slot = [u8::MAX; 90];
            for (i, s) in domain.iter().enumerate() {
                slot[s.index()] = i as u8;
            }
            groups.push(Group {
                piece,
                count,
                domain,
                slot,
                size: 0,
                stride: 0,
            });
        };
        add(Piece::new(Color::Red, Kind::General), 1);
        add(Piece::new(Color::Black, Kind::General), 1);
        for (color, side) in [(Color::Red, material.strong), (Color::Black, material.weak)] {
            for kind in [
                Kind::Chariot,
                Kind::Horse,
                Kind::Cannon,
                Kind::Soldier,
                Kind::Advisor,
                Kind::Elephant,
            ] {
                add(Piece::new(color, kind), usize::from(side.count(kind)));
            }
        }
        let mut binomial = vec![[0u64; 6]; 91];
        for (n, row) in binomial.iter_mut().enumerate() {
            for (k, cell) in row.iter_mut().enumerate() {
                *cell = if n < k { 0 } else { choose(n as u64, k as u64) };
            }
        }
        let mut stride = 1u64;
        for g in groups.iter_mut().rev() {
            g.size = binomial[g.domain.len()][g.count];
            g.stride = stride;
            stride = stride.saturating_mul(g.size);
        }
        let per_side = stride;
        let stored = per_side / 9 * 6;
        Indexer {
            material,
            groups,
            per_side,
            stored,
            binomial,
        }
    }

    /// Pieces on the board.
    pub fn piece_count(&self) -> usize {
        self.groups.iter().map(|g| g.count).sum()
    }

    /// The piece of each slot of a placement, in order.
    pub fn pieces(&self) -> Vec<Piece> {
        let mut out = Vec::new();
        for g in &self.groups {
            out.extend(std::iter::repeat_n(g.piece, g.count));
        }
        out
    }

    /// The placement of index `index` (side to move in the top part). Pieces may overlap;
    /// `build` refuses those.
    pub fn decode(&self, index: u64) -> Placement {
        let side = if index >= self.per_side {
            Color::Black
        } else {
            Color::Red
        };
        let mut rest = index % self.per_side;
        let mut squares = [Square::from_index(0); MAX_PIECES];
        let mut at = 0;
        for g in &self.groups {
            let mut digit = rest / g.stride;
            rest %= g.stride;
            // Unrank a combination (combinatorial number system), largest element first.
            let mut n = g.domain.len();
            for k in (1..=g.count).rev() {
                n -= 1;
                while self.binomial[n][k] > digit {
                    n -= 1;
                }
                digit -= self.binomial[n][k];
                squares[at + k - 1] = g.domain[n];
            }
            at += g.count;
        }
        Placement { squares, side }
    }

    /// The index of a placement, if every piece stands on a point of its domain.
    pub fn encode(&self, placement: &Placement) -> Option<u64> {
        let mut index = 0u64;
        let mut at = 0;
        for g in &self.groups {
            let mut slots = [0u8; 5];
            for (i, s) in placement.squares[at..at + g.count].iter().enumerate() {
                let slot = g.slot[s.index()];
                if slot == u8::MAX {
                    return None;
                }
                slots[i] = slot;
            }
            let slots = &mut slots[..g.count];
            slots.sort_unstable();
            let digit: u64 = slots
                .iter()
                .enumerate()
                .map(|(k, &s)| self.binomial[usize::from(s)][k + 1])
                .sum();
            index += digit * g.stride;
            at += g.count;
        }
        Some(
            index
                + if placement.side == Color::Black {
                    self.per_side
                } else {
                    0
                },
        )
    }

    /// The placement of a position of this material. `flip`: the stronger side is Black
    /// there, so the board is rotated and the colours swapped (an exact symmetry).
    pub fn placement(&self, pos: &Position, flip: bool) -> Placement {
        let mut squares = [Square::from_index(0); MAX_PIECES];
        let mut at = 0;
        for g in &self.groups {
            let color = if flip {
                g.piece.color().opponent()
            } else {
                g.piece.color()
            };
            for s in pos.squares_of(color, g.piece.kind()) {
                squares[at] = if flip { s.rotated() } else { s };
                at += 1;
            }
        }
        let side = pos.side_to_move();
        Placement {
            squares,
            side: if flip { side.opponent() } else { side },
        }
    }

    /// The position of a placement: `None` if pieces overlap or the side that just moved
    /// is in check (generals facing included).
    pub fn build(&self, placement: &Placement) -> Option<Position> {
        let mut pos = Position::empty();
        self.build_into(placement, &mut pos).then_some(pos)
    }

    /// `build` into an existing position, keeping its history's allocation; false (and
    /// `pos` meaningless) where `build` gives `None`.
    pub fn build_into(&self, placement: &Placement, pos: &mut Position) -> bool {
        pos.clear();
        let mut taken = 0u128;
        let mut at = 0;
        for g in &self.groups {
            for &s in &placement.squares[at..at + g.count] {
                let bit = 1u128 << s.index();
                if taken & bit != 0 {
                    return false;
                }
                taken |= bit;
                pos.put(s, g.piece);
            }
            at += g.count;
        }
        pos.finish_placement(placement.side)
    }

    /// True if the index lies in the part a file stores (Red general on files d-e).
    pub fn is_stored(&self, index: u64) -> bool {
        index % self.per_side < self.stored
    }

    /// Maps a full index to its slot in a file's data, mirroring if needed.
    pub fn stored_slot(&self, placement: &Placement) -> Option<u64> {
        let placement = if placement.squares[0].x() == 5 {
            mirrored(placement, self.piece_count())
        } else {
            *placement
        };
        let index = self.encode(&placement)?;
        let side = index / self.per_side;
        Some(side * self.stored + index % self.per_side)
    }
}

/// The placement mirrored left to right (file a <-> file i).
pub fn mirrored(placement: &Placement, count: usize) -> Placement {
    let mut out = *placement;
    for s in &mut out.squares[..count] {
        *s = Square::new(8 - s.x(), s.y());
    }
    out
}

fn choose(n: u64, k: u64) -> u64 {
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_piece_domains() {
        let ix = Indexer::new("KRKAABB".parse().unwrap());
        assert_eq!(ix.per_side, 9 * 9 * 90 * 10 * 21);
        assert_eq!(ix.stored, 6 * 9 * 90 * 10 * 21);
        let ix = Indexer::new("KPK".parse().unwrap());
        assert_eq!(ix.per_side, 9 * 9 * 63);
    }

    #[test]
    fn decode_encode_round_trip() {
        let ix = Indexer::new("KHKAAB".parse().unwrap());
        for index in (0..2 * ix.per_side).step_by(97) {
            let p = ix.decode(index);
            assert_eq!(ix.encode(&p), Some(index));
        }
    }
}
