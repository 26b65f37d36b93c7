//! Choosing a book move: the most played one, or with `variety` a less played one now
//! and then.

use xiangqi_core::board::Move;

use super::lookup::BookMove;

/// Picks among `moves` (most played first). `variety` 0 always takes the first; above
/// that each move is drawn with weight `count ^ (100 / variety)`: at 100 in proportion
/// to how often it was played, lower values favour the popular moves more and more.
/// `random` is any 64-bit random number (the caller's source, so tests can fix it).
pub fn choose(moves: &[BookMove], variety: u8, random: u64) -> Option<Move> {
    let first = moves.first()?;
    if variety == 0 || moves.len() == 1 {
        return Some(first.mv);
    }
    let exponent = 100.0 / f64::from(variety.min(100));
    let weights: Vec<f64> = moves
        .iter()
        .map(|m| f64::from(m.stats.count).powf(exponent))
        .collect();
    let total: f64 = weights.iter().sum();
    // 53 random bits make a uniform fraction in [0, 1).
    let mut target = (random >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (m, weight) in moves.iter().zip(&weights) {
        if target < *weight {
            return Some(m.mv);
        }
        target -= weight;
    }
    Some(first.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Source, Stats};

    fn moves() -> Vec<BookMove> {
        [("h2e2", 30), ("b2e2", 10), ("h0g2", 1)]
            .map(|(text, count)| BookMove {
                mv: Move::parse_coords(text).unwrap(),
                stats: Stats {
                    count,
                    ..Stats::default()
                },
                source: Source::Games,
            })
            .to_vec()
    }

    #[test]
    fn no_variety_plays_the_most_played() {
        for random in [0, 1 << 40, u64::MAX] {
            assert_eq!(choose(&moves(), 0, random).unwrap().iccs(), "h2e2");
        }
        assert_eq!(choose(&[], 50, 7), None);
    }

    #[test]
    fn full_variety_follows_the_counts() {
        // Weights 30, 10, 1 of 41: the fraction picks the interval it falls in.
        let at = |fraction: f64| ((fraction * (1u64 << 53) as f64) as u64) << 11;
        assert_eq!(choose(&moves(), 100, at(0.70)).unwrap().iccs(), "h2e2");
        assert_eq!(choose(&moves(), 100, at(0.80)).unwrap().iccs(), "b2e2");
        assert_eq!(choose(&moves(), 100, at(0.99)).unwrap().iccs(), "h0g2");
        // Weights squared (900, 100, 1): 0.80 now falls on the first move.
        assert_eq!(choose(&moves(), 50, at(0.80)).unwrap().iccs(), "h2e2");
    }
}
