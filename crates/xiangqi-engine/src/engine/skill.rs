//! Strength levels 1..=20. Level 20 is the full engine, untouched. Below it the engine
//! is weakened the way Stockfish's skill level does it: a smaller search (a node and a
//! depth cap that grow with the level) and, from the search's best four root moves, a
//! pick with a controlled error: each line's score gets a push that grows with the
//! weakness and with a seeded random draw, and the highest pushed score is played. The
//! pick is always one of the searched best lines, never a random piece move.

use xiangqi_core::rng::SplitMix64;

use super::limits::Limits;
use super::multipv::PvLine;

pub const MIN_LEVEL: u8 = 1;
/// Full strength.
pub const MAX_LEVEL: u8 = 20;
/// Lines a weakened search looks at to choose from.
pub const SKILL_LINES: usize = 4;
/// Largest random push, in centipawns, before the weakness scaling: about a soldier.
const MAX_SPREAD: i32 = 120;

/// Approximate Elo of each level on a scale where our full engine at 1,000 nodes per
/// move is 1000: levels 1, 5, 10 and 15 measured with tools/match.py (24 games each,
/// the levels at their own caps against the full engine at 200, 1,000 and 8,000
/// nodes); level 20 extrapolated, not measured (docs/engine.md, "Strength levels"). Levels in
/// between are interpolated.
pub const LEVEL_ELO: [(u8, i32); 5] = [(1, 350), (5, 400), (10, 1100), (15, 1600), (20, 2100)];

/// A strength level and the random state of its picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skill {
    level: u8,
    rng: SplitMix64,
}

impl Default for Skill {
    fn default() -> Self {
        Skill::new(MAX_LEVEL, 0)
    }
}

impl Skill {
    /// `level` is clamped to 1..=20; `seed` makes the picks reproducible.
    pub fn new(level: u8, seed: u64) -> Skill {
        Skill {
            level: level.clamp(MIN_LEVEL, MAX_LEVEL),
            rng: SplitMix64::new(seed),
        }
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    pub fn is_full_strength(&self) -> bool {
        self.level >= MAX_LEVEL
    }

    /// Node cap of a weakened level: 250 nodes at level 1, half as many again per level.
    pub fn node_cap(level: u8) -> u64 {
        (250.0 * 1.5f64.powi(i32::from(level.clamp(MIN_LEVEL, MAX_LEVEL)) - 1)) as u64
    }

    /// Depth cap of a weakened level, as Stockfish's skill levels pick at depth 1 + level.
    pub fn depth_cap(level: u8) -> u32 {
        1 + u32::from(level)
    }

    /// `limits` with this level's caps added (the tighter of each wins).
    pub fn limit(&self, limits: &Limits) -> Limits {
        if self.is_full_strength() {
            return limits.clone();
        }
        let mut capped = limits.clone();
        let nodes = Skill::node_cap(self.level);
        let depth = Skill::depth_cap(self.level);
        capped.nodes = Some(limits.nodes.map_or(nodes, |n| n.min(nodes)));
        capped.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        // An infinite search would ignore the caps.
        capped.infinite = false;
        capped
    }

    /// Chooses among `lines` (best first): the index of the line to play.
    pub fn pick(&mut self, lines: &[PvLine]) -> usize {
        if self.is_full_strength() || lines.len() < 2 {
            return 0;
        }
        let top = lines[0].score;
        let last = lines[lines.len() - 1].score;
        let spread = (top.saturating_sub(last)).clamp(0, MAX_SPREAD);
        let weakness = 120 - 2 * i32::from(self.level);
        let mut best = 0;
        let mut best_value = i32::MIN;
        for (index, line) in lines.iter().enumerate() {
            let random = (self.rng.next_u64() % weakness as u64) as i32;
            // Stockfish's formula: a deterministic push toward the worse lines, larger
            // for weaker levels, and a random one scaled by how far apart the lines are.
            let behind = (top - line.score).min(4 * MAX_SPREAD);
            let push = (weakness * behind + spread * random) / 128;
            let value = line.score.saturating_add(push);
            if value >= best_value {
                best_value = value;
                best = index;
            }
        }
        best
    }
}

/// The approximate Elo of `level`, interpolated between the measured levels.
pub fn elo_of_level(level: u8) -> i32 {
    let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
    for pair in LEVEL_ELO.windows(2) {
        let ((l0, e0), (l1, e1)) = (pair[0], pair[1]);
        if level <= l1 {
            let t = i32::from(level - l0);
            return e0 + (e1 - e0) * t / i32::from(l1 - l0);
        }
    }
    LEVEL_ELO[LEVEL_ELO.len() - 1].1
}

/// The strongest level whose Elo is at most `elo` (level 1 below the table).
pub fn level_for_elo(elo: i32) -> u8 {
    (MIN_LEVEL..=MAX_LEVEL)
        .rev()
        .find(|&level| elo_of_level(level) <= elo)
        .unwrap_or(MIN_LEVEL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::board::Move;

    fn line(score: i32, n: u8) -> PvLine {
        PvLine {
            score,
            pv: vec![Move::parse_coords(["h2e2", "b2e2", "h0g2", "c3c4"][n as usize]).unwrap()],
        }
    }

    #[test]
    fn full_strength_always_plays_the_best_line_and_keeps_limits() {
        let mut skill = Skill::default();
        let lines = [line(10, 0), line(9, 1), line(8, 2)];
        assert_eq!(skill.pick(&lines), 0);
        assert_eq!(skill.limit(&Limits::depth(30)), Limits::depth(30));
    }

    #[test]
    fn weak_levels_vary_among_close_lines_but_not_to_a_lost_one() {
        let mut skill = Skill::new(1, 7);
        let lines = [line(30, 0), line(25, 1), line(20, 2), line(-900, 3)];
        let picks: Vec<usize> = (0..200).map(|_| skill.pick(&lines)).collect();
        assert!(picks.contains(&1) && picks.contains(&2), "{picks:?}");
        assert!(!picks.contains(&3));
        // Seeded: the same seed gives the same picks.
        let mut again = Skill::new(1, 7);
        let repeat: Vec<usize> = (0..200).map(|_| again.pick(&lines)).collect();
        assert_eq!(picks, repeat);
    }

    #[test]
    fn caps_grow_with_the_level_and_elo_maps_back_to_levels() {
        for level in MIN_LEVEL..MAX_LEVEL - 1 {
            assert!(Skill::node_cap(level) < Skill::node_cap(level + 1));
            assert!(elo_of_level(level) < elo_of_level(level + 1));
            assert_eq!(level_for_elo(elo_of_level(level)), level);
        }
        assert_eq!(level_for_elo(-5000), MIN_LEVEL);
        assert_eq!(level_for_elo(99999), MAX_LEVEL);
        let limits = Skill::new(5, 0).limit(&Limits::infinite());
        assert_eq!(limits.nodes, Some(Skill::node_cap(5)));
        assert_eq!(limits.depth, Some(6));
        assert!(!limits.infinite);
    }
}
