//! An explicit search tree kept in memory (SSS*, B*), with a cursor that walks
//! a make/unmake [`Game`] to any stored node along the moves that lead to it.

use std::cmp::Ordering;

use crate::search::game::{Game, NodeId};

pub(crate) const ROOT: u32 = 0;

pub(crate) struct PathNode<M, D> {
    /// Unused for the root.
    pub(crate) parent: u32,
    pub(crate) ply: u32,
    /// 0-based position among the parent's moves.
    pub(crate) child_index: u32,
    /// The move from the parent; `None` for the root.
    pub(crate) mv: Option<M>,
    pub(crate) id: NodeId,
    pub(crate) data: D,
}

pub(crate) struct PathTree<M, D> {
    pub(crate) nodes: Vec<PathNode<M, D>>,
    /// The node the game is at.
    cursor: u32,
    scratch: Vec<u32>,
}

impl<M: Copy, D> PathTree<M, D> {
    /// A tree holding only the root, where the game is now.
    pub(crate) fn new(root_id: NodeId, data: D) -> Self {
        PathTree {
            nodes: vec![PathNode {
                parent: ROOT,
                ply: 0,
                child_index: 0,
                mv: None,
                id: root_id,
                data,
            }],
            cursor: ROOT,
            scratch: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn node(&self, index: u32) -> &PathNode<M, D> {
        &self.nodes[index as usize]
    }

    pub(crate) fn data_mut(&mut self, index: u32) -> &mut D {
        &mut self.nodes[index as usize].data
    }

    pub(crate) fn add(&mut self, parent: u32, child_index: u32, mv: M, id: NodeId, data: D) -> u32 {
        let ply = self.node(parent).ply + 1;
        self.nodes.push(PathNode {
            parent,
            ply,
            child_index,
            mv: Some(mv),
            id,
            data,
        });
        (self.nodes.len() - 1) as u32
    }

    /// The id of the child reached by `mv` from the node the game is at.
    pub(crate) fn peek_child<G: Game<Move = M>>(game: &mut G, mv: M) -> NodeId {
        game.play(mv);
        let id = game.node_id();
        game.undo(mv);
        id
    }

    fn step_up<G: Game<Move = M>>(&mut self, game: &mut G) {
        let node = self.node(self.cursor);
        game.undo(node.mv.expect("only the root has no move"));
        self.cursor = node.parent;
    }

    /// Moves the game from the cursor to `target`: up to the common ancestor,
    /// then down.
    pub(crate) fn goto<G: Game<Move = M>>(&mut self, game: &mut G, target: u32) {
        let mut down = std::mem::take(&mut self.scratch);
        down.clear();
        let mut target_side = target;
        while self.node(target_side).ply > self.node(self.cursor).ply {
            down.push(target_side);
            target_side = self.node(target_side).parent;
        }
        while self.node(self.cursor).ply > self.node(target_side).ply {
            self.step_up(game);
        }
        while self.cursor != target_side {
            self.step_up(game);
            down.push(target_side);
            target_side = self.node(target_side).parent;
        }
        for &node in down.iter().rev() {
            game.play(self.node(node).mv.expect("only the root has no move"));
            self.cursor = node;
        }
        self.scratch = down;
    }

    /// Whether `node` lies strictly below `ancestor`.
    pub(crate) fn is_descendant(&self, mut node: u32, ancestor: u32) -> bool {
        let ancestor_ply = self.node(ancestor).ply;
        while self.node(node).ply > ancestor_ply {
            node = self.node(node).parent;
            if node == ancestor {
                return true;
            }
        }
        false
    }

    /// Left-to-right (pre-order) comparison; an ancestor comes first.
    pub(crate) fn tree_order(&self, mut a: u32, mut b: u32) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let (ply_a, ply_b) = (self.node(a).ply, self.node(b).ply);
        while self.node(a).ply > ply_b {
            a = self.node(a).parent;
        }
        while self.node(b).ply > ply_a {
            b = self.node(b).parent;
        }
        if a == b {
            return ply_a.cmp(&ply_b);
        }
        while self.node(a).parent != self.node(b).parent {
            a = self.node(a).parent;
            b = self.node(b).parent;
        }
        self.node(a).child_index.cmp(&self.node(b).child_index)
    }
}
