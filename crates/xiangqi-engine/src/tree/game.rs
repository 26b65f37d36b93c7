//! A textbook tree as a [`Game`]: a cursor that moves between nodes.

use crate::search::{Game, INFINITY, Interval, IntervalGame, NodeId, Score};
use crate::tree::{NodeIndex, Tree};

/// A position in a [`Tree`]. A move is the index of the child it leads to.
/// Scores come out from the side to move: the file's MAX-view values are
/// negated at odd depth.
#[derive(Clone, Copy, Debug)]
pub struct TreeGame<'t> {
    tree: &'t Tree,
    node: NodeIndex,
}

impl<'t> TreeGame<'t> {
    pub fn new(tree: &'t Tree) -> Self {
        TreeGame {
            tree,
            node: tree.root(),
        }
    }

    /// The node the game is at.
    pub fn node(&self) -> NodeIndex {
        self.node
    }

    pub fn tree(&self) -> &'t Tree {
        self.tree
    }

    fn for_mover(&self, value: Score) -> Score {
        if self.tree.depth(self.node).is_multiple_of(2) {
            value
        } else {
            -value
        }
    }
}

impl Game for TreeGame<'_> {
    type Move = NodeIndex;

    fn moves(&self, out: &mut Vec<NodeIndex>) {
        out.extend_from_slice(self.tree.children(self.node));
    }

    fn play(&mut self, child: NodeIndex) {
        debug_assert_eq!(self.tree.parent(child), Some(self.node));
        self.node = child;
    }

    fn undo(&mut self, child: NodeIndex) {
        debug_assert_eq!(self.node, child);
        self.node = self.tree.parent(child).unwrap_or(self.tree.root());
    }

    /// A point leaf's value; otherwise the middle of the node's interval, or 0
    /// for an interior node without one (reached only with a depth horizon).
    fn evaluate(&self) -> Score {
        let interval = self
            .tree
            .leaf_interval(self.node)
            .or_else(|| self.tree.estimate(self.node));
        let value = interval.map_or(Score::ZERO, |Interval { lo, hi }| {
            // Tree values are far below the infinities, so this cannot overflow.
            Score::new((lo.get() + hi.get()).div_euclid(2))
        });
        self.for_mover(value)
    }

    /// A leaf with a point value is terminal: its value is exact.
    fn outcome(&self) -> Option<Score> {
        let value = self.tree.leaf_interval(self.node)?.exact()?;
        Some(self.for_mover(value))
    }

    fn key(&self) -> u64 {
        // splitmix64 of the salted index: distinct nodes, spread bits.
        xiangqi_core::rng::mix(
            self.tree
                .salt
                .wrapping_add(u64::from(self.node).wrapping_mul(xiangqi_core::rng::GOLDEN_GAMMA)),
        )
    }

    fn node_id(&self) -> NodeId {
        NodeId(u64::from(self.node))
    }
}

impl IntervalGame for TreeGame<'_> {
    /// A leaf's value or interval; an interior node's `=[lo,hi]`, or
    /// `[-inf, inf]` when the file gives none.
    fn interval(&mut self) -> Interval {
        let interval = self
            .tree
            .leaf_interval(self.node)
            .or_else(|| self.tree.estimate(self.node))
            .unwrap_or(Interval::new(-INFINITY, INFINITY));
        // Negating at odd depth turns MAX's view into the mover's (and back).
        interval.from_mover(self.tree.depth(self.node))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_from_the_side_to_move() {
        let tree = Tree::parse("((3 (=[1,8] 2 9)) 4)").unwrap();
        let mut game = tree.game();
        let mut moves = Vec::new();
        game.moves(&mut moves);
        assert_eq!(moves, [1, 6]);
        game.play(6);
        assert_eq!(game.outcome(), Some(Score::new(-4)), "depth 1: MIN to move");
        game.undo(6);
        game.play(1);
        game.play(3);
        assert_eq!(game.outcome(), None);
        assert_eq!(
            game.interval(),
            Interval::new(Score::new(1), Score::new(8)),
            "depth 2: MAX to move"
        );
        game.play(4);
        assert_eq!(game.outcome(), Some(Score::new(-2)));
        assert_eq!(game.interval(), Interval::point(Score::new(-2)));
        game.undo(4);
        game.undo(3);
        game.undo(1);
        assert_eq!(game.node(), 0);
        let other = Tree::parse("((3 (=[1,8] 2 9)) 5)").unwrap();
        assert_ne!(game.key(), other.game().key(), "keys differ between trees");
    }
}
