//! The seam between the search backends and what they search: textbook trees
//! now, xiangqi positions later. Every backend is written against [`Game`] only.

use std::fmt::Debug;

use crate::search::score::{Interval, Score};

/// Identifies a node in trace events without allocating. The game chooses it:
/// a textbook tree uses the node's pre-order index, a position may use its
/// Zobrist key (the default). Renderers map it back to a label.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct NodeId(pub u64);

/// A two-player zero-sum game seen through make/unmake, in negamax convention:
/// every score is from the side to move at the current node.
///
/// A search calls [`Game::outcome`] first; a node with an outcome is terminal.
/// Otherwise it is a leaf when the search's depth horizon is reached or when
/// [`Game::moves`] yields nothing; leaves are scored by [`Game::evaluate`].
/// Searches always leave the game at the node they started from.
pub trait Game {
    /// A move from the current node to one of its children.
    type Move: Copy + Eq + Debug;

    /// Appends the moves of the current node to `out`, in the order the search
    /// should try them ("left to right").
    fn moves(&self, out: &mut Vec<Self::Move>);

    /// Makes `mv`, one of the moves just generated at the current node.
    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, the move that led to the current node.
    fn undo(&mut self, mv: Self::Move);

    /// Static evaluation of the current node, from the side to move.
    fn evaluate(&self) -> Score;

    /// The game-theoretic value of a terminal node from the side to move
    /// (mate, stalemate, a repetition verdict, a textbook leaf); `None` when
    /// play goes on.
    fn outcome(&self) -> Option<Score>;

    /// A hash of the current node, equal for transpositions: the key of the
    /// transposition table.
    fn key(&self) -> u64;

    /// How trace events name the current node.
    fn node_id(&self) -> NodeId {
        NodeId(self.key())
    }
}

/// A game that can bound a node's value, as B* needs.
pub trait IntervalGame: Game {
    /// `[lo, hi]` bounds on the current node's value, from the side to move:
    /// `lo` pessimistic, `hi` optimistic. Textbook trees read them from the file;
    /// positions can derive them from probe searches.
    fn interval(&mut self) -> Interval;
}
