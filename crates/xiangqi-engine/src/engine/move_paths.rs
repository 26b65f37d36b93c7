//! Node ids for searches on positions, and the labels they stand for: the move path
//! from the root, written in a move notation (`炮二平五,马8进7`).
//!
//! A node id is built from the path itself, so searches that come back to a node (SSS*
//! resuming a descriptor, the MT passes) give it the same id. Paths of up to
//! [`COMPACT_PLIES`] moves are packed into the id (14 bits a move) and need no memory at
//! all. Deeper nodes are numbered in a shared [`PositionNames`] book when the search has
//! one, up to [`BOOK_CAPACITY`] nodes; past that, or without a book, a deep node's id is
//! derived from its position and shows as `#hex`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::search::{NodeId, NodeNames};
use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{Notation, format_move};

/// Paths up to this many moves are packed into the id.
pub const COMPACT_PLIES: u32 = 4;
/// Most deep nodes one book numbers; deeper ones beyond it show as `#hex`.
pub const BOOK_CAPACITY: usize = 1 << 20;
/// How a label separates the moves of its path (no notation uses a comma).
pub const PATH_SEPARATOR: char = ',';

const TAG_SHIFT: u32 = 56;
const PAYLOAD_MASK: u64 = (1 << TAG_SHIFT) - 1;
const MOVE_BITS: u32 = 14;
const MOVE_MASK: u64 = (1 << MOVE_BITS) - 1;
/// Tag of a node numbered in a book.
const TAG_BOOK: u64 = 0xff;
/// Tag of a deep node without a book entry.
const TAG_UNNAMED: u64 = 0xfe;

/// The id of the root of every position search.
pub const ROOT_ID: NodeId = NodeId(0);

fn tag(id: NodeId) -> u64 {
    id.0 >> TAG_SHIFT
}

/// The deep nodes of one search tree: each one's parent and the move from it.
#[derive(Debug, Default)]
struct Book {
    nodes: Vec<(NodeId, Move)>,
    index: HashMap<(NodeId, Move), u32>,
}

/// Turns node ids of a search from `root` into move paths. Clones share one book, so
/// a clone handed to the search (which numbers deep nodes) and one kept by the tracer
/// (which labels them) agree.
#[derive(Clone, Debug)]
pub struct PositionNames {
    root: Position,
    notation: Notation,
    book: Arc<Mutex<Book>>,
}

impl PositionNames {
    /// Names for searches from `root`, written in `notation`.
    pub fn new(root: &Position, notation: Notation) -> PositionNames {
        PositionNames {
            root: root.clone(),
            notation,
            book: Arc::default(),
        }
    }

    pub fn root(&self) -> &Position {
        &self.root
    }

    fn book(&self) -> MutexGuard<'_, Book> {
        // A panic elsewhere cannot leave the book half-written: every update is one push
        // and one insert.
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The moves from the root to `node`, or `None` for an id without a path.
    pub fn path(&self, node: NodeId) -> Option<Vec<Move>> {
        // Collected from the node upwards, then turned round.
        let mut reversed = Vec::new();
        let mut current = node;
        let book = self.book();
        while tag(current) == TAG_BOOK {
            let &(parent, mv) = book.nodes.get((current.0 & PAYLOAD_MASK) as usize)?;
            reversed.push(mv);
            current = parent;
        }
        let length = tag(current);
        if length > u64::from(COMPACT_PLIES) {
            return None;
        }
        // The packed path keeps its last move in the lowest bits.
        let bits = current.0 & PAYLOAD_MASK;
        for i in 0..length as u32 {
            reversed.push(Move::from_bits(
                ((bits >> (MOVE_BITS * i)) & MOVE_MASK) as u16,
            )?);
        }
        reversed.reverse();
        Some(reversed)
    }
}

impl NodeNames for PositionNames {
    fn label(&self, node: NodeId) -> Cow<'_, str> {
        let Some(path) = self.path(node) else {
            return Cow::Owned(format!("#{:x}", node.0 & PAYLOAD_MASK));
        };
        if path.is_empty() {
            return Cow::Borrowed("root");
        }
        let mut pos = self.root.clone();
        let mut label = String::new();
        for mv in path {
            if !label.is_empty() {
                label.push(PATH_SEPARATOR);
            }
            if !pos.is_legal(mv) {
                // Not a path of this root (an id from another search): say what it is.
                label.push_str(&mv.iccs());
                continue;
            }
            label.push_str(&format_move(&pos, mv, self.notation));
            pos.make_move(mv);
        }
        Cow::Owned(label)
    }
}

/// The id of the child reached by `mv` from the node `parent` at `ply`; `fallback` is
/// used when the child can be given no path id. Numbers deep nodes in `names` if given.
pub(crate) fn child_id(
    parent: NodeId,
    parent_ply: u32,
    mv: Move,
    names: Option<&PositionNames>,
    fallback: u64,
) -> NodeId {
    if parent_ply < COMPACT_PLIES && tag(parent) == u64::from(parent_ply) {
        let moves = ((parent.0 & PAYLOAD_MASK) << MOVE_BITS) | u64::from(mv.bits());
        return NodeId((u64::from(parent_ply + 1) << TAG_SHIFT) | moves);
    }
    let unnamed = NodeId((TAG_UNNAMED << TAG_SHIFT) | (fallback & PAYLOAD_MASK));
    let Some(names) = names else {
        return unnamed;
    };
    if tag(parent) == TAG_UNNAMED {
        return unnamed;
    }
    let mut book = names.book();
    if let Some(&index) = book.index.get(&(parent, mv)) {
        return NodeId((TAG_BOOK << TAG_SHIFT) | u64::from(index));
    }
    if book.nodes.len() >= BOOK_CAPACITY {
        return unnamed;
    }
    let index = book.nodes.len() as u32;
    book.nodes.push((parent, mv));
    book.index.insert((parent, mv), index);
    NodeId((TAG_BOOK << TAG_SHIFT) | u64::from(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::parse_coords(text).unwrap()
    }

    #[test]
    fn shallow_paths_are_packed_and_deep_ones_booked() {
        let names = PositionNames::new(&Position::startpos(), Notation::Chinese);
        let line = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"].map(mv);
        let mut id = ROOT_ID;
        for (ply, &m) in line.iter().enumerate() {
            id = child_id(id, ply as u32, m, Some(&names), 0);
        }
        assert_eq!(names.path(id).unwrap(), line);
        assert_eq!(
            names.label(id),
            "炮二平五,马8进7,马二进三,车9平8,车一平二,马2进3"
        );
        assert_eq!(names.label(ROOT_ID), "root");
        // The same path gets the same id again.
        let mut again = ROOT_ID;
        for (ply, &m) in line.iter().enumerate() {
            again = child_id(again, ply as u32, m, Some(&names), 0);
        }
        assert_eq!(again, id);
    }

    #[test]
    fn deep_nodes_without_a_book_show_their_fallback() {
        let names = PositionNames::new(&Position::startpos(), Notation::Iccs);
        let line = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"].map(mv);
        let mut id = ROOT_ID;
        for (ply, &m) in line.iter().enumerate() {
            id = child_id(id, ply as u32, m, None, 0xabc);
        }
        assert_eq!(names.label(id), "#abc");
        let four = child_id(ROOT_ID, 0, line[0], None, 0);
        assert_eq!(names.label(four), "h2e2");
    }
}
