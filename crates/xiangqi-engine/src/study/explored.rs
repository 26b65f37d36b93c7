//! The tree a search explored, rebuilt from its trace events alone.
//!
//! Every backend's event stream names enough to place each node: depth-first
//! searches enter a node at `ply` under the node entered at `ply - 1`; SSS*
//! pushes a child (one ply down), a sibling (same ply) or the parent (one ply
//! up) of the descriptor it just popped; B* lists the children of the node it
//! expands. So the model works the same for textbook trees and positions, and
//! needs nothing from the game. Children keep the order they first appear in,
//! which is move order for every backend.

use std::collections::HashMap;

use crate::search::{BoundKind, Interval, NodeId, Score, Status, TraceEvent};

/// Nodes kept by default; past the cap the search goes on and the tree is shown
/// up to the cap.
pub const DEFAULT_NODE_CAP: usize = 200_000;

/// One MT pass seen at a node: the test value and what the node returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassVisit {
    pub pass: u32,
    pub gamma: Score,
    pub value: Option<(Score, BoundKind)>,
}

/// What the backend knew at one node. Scores are MAX's view, as in the events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploredNode {
    pub id: NodeId,
    pub parent: Option<usize>,
    /// In move order.
    pub children: Vec<usize>,
    pub ply: u32,
    /// 1-based index among the parent's children, when an event said it.
    pub k: Option<u32>,
    /// The window at the last entry (depth-first backends).
    pub window: Option<(Score, Score)>,
    /// The value returned at the last exit, with its bound kind.
    pub value: Option<(Score, BoundKind)>,
    /// The child (1-based) that supplied the value.
    pub best: Option<u32>,
    /// The static evaluation, when the node was evaluated as a leaf.
    pub leaf: Option<Score>,
    /// Whether the node was expanded (its children generated) at least once.
    pub expanded: bool,
    /// A cut-off after child `k`, with the number of siblings pruned.
    pub cutoff: Option<(u32, u32)>,
    /// SSS*: the last descriptor seen for the node (status and merit h).
    pub sss: Option<(Status, Score)>,
    /// MT-SSS* / MTD(f): the passes that reached the node.
    pub passes: Vec<PassVisit>,
    /// B*: the node's interval, as last generated or backed up.
    pub interval: Option<Interval>,
    /// Index of the event that first named the node.
    pub first_event: usize,
}

impl ExploredNode {
    fn new(id: NodeId, parent: Option<usize>, ply: u32, first_event: usize) -> ExploredNode {
        ExploredNode {
            id,
            parent,
            children: Vec::new(),
            ply,
            k: None,
            window: None,
            value: None,
            best: None,
            leaf: None,
            expanded: false,
            cutoff: None,
            sss: None,
            passes: Vec::new(),
            interval: None,
            first_event,
        }
    }

    /// Whether the search looked at this node itself (evaluated or expanded),
    /// not only generated it (SSS*'s Γ6 pushes, B*'s children).
    pub fn examined(&self) -> bool {
        self.leaf.is_some() || self.expanded
    }
}

/// Where a node goes that is not known yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Anchor {
    Root,
    Under(usize),
    /// Under a node the cap left out: dropped as well.
    Dropped,
}

/// The explored tree, fed one event at a time.
#[derive(Clone, Debug)]
pub struct ExploredTree {
    nodes: Vec<ExploredNode>,
    index: HashMap<NodeId, usize>,
    cap: usize,
    /// Nodes left out because of the cap.
    dropped: u64,
    events: usize,
    /// Depth-first: the node entered at each ply (`None`: dropped by the cap).
    stack: Vec<Option<usize>>,
    /// SSS*: the descriptor popped last.
    popped: Option<usize>,
    /// B*: the node whose children the next `Bounds` events list.
    listing: Option<Anchor>,
    pass: Option<(u32, Score)>,
    /// The node the last event was about.
    last: Option<usize>,
}

impl Default for ExploredTree {
    fn default() -> Self {
        ExploredTree::new(DEFAULT_NODE_CAP)
    }
}

impl ExploredTree {
    /// An empty tree that keeps at most `cap` nodes (at least the root).
    pub fn new(cap: usize) -> ExploredTree {
        ExploredTree {
            nodes: Vec::new(),
            index: HashMap::new(),
            cap: cap.max(1),
            dropped: 0,
            events: 0,
            stack: Vec::new(),
            popped: None,
            listing: None,
            pass: None,
            last: None,
        }
    }

    /// The tree of a whole recorded trace.
    pub fn from_events<M>(events: &[TraceEvent<M>], cap: usize) -> ExploredTree {
        let mut tree = ExploredTree::new(cap);
        for event in events {
            tree.feed(event);
        }
        tree
    }

    pub fn nodes(&self) -> &[ExploredNode] {
        &self.nodes
    }

    pub fn node(&self, index: usize) -> &ExploredNode {
        &self.nodes[index]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Whether the cap left nodes out ("tree shown up to N nodes").
    pub fn truncated(&self) -> bool {
        self.dropped > 0
    }

    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Events fed so far.
    pub fn events(&self) -> usize {
        self.events
    }

    pub fn root(&self) -> Option<usize> {
        (!self.nodes.is_empty()).then_some(0)
    }

    pub fn find(&self, id: NodeId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    /// The node the last event fed was about.
    pub fn last_node(&self) -> Option<usize> {
        self.last
    }

    /// Nodes evaluated as leaves.
    pub fn leaf_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.leaf.is_some()).count()
    }

    /// Nodes expanded.
    pub fn interior_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.expanded).count()
    }

    /// The principal variation from the root: at each node the child that
    /// supplied its value (`best`), else the first child whose value or
    /// solved merit equals the node's.
    pub fn principal_variation(&self) -> Vec<usize> {
        let mut line = Vec::new();
        let Some(mut at) = self.root() else {
            return line;
        };
        loop {
            let node = &self.nodes[at];
            let by_best = node.best.and_then(|k| {
                node.children
                    .iter()
                    .copied()
                    .find(|&c| self.nodes[c].k == Some(k))
                    .or_else(|| node.children.get(k as usize - 1).copied())
            });
            let own = node.value.map(|(v, _)| v).or(match node.sss {
                Some((Status::Solved, h)) => Some(h),
                _ => None,
            });
            let next = by_best.or_else(|| {
                let own = own?;
                node.children.iter().copied().find(|&c| {
                    let child = &self.nodes[c];
                    child.value.map(|(v, _)| v) == Some(own)
                        || child.sss == Some((Status::Solved, own))
                })
            });
            match next {
                Some(child) => {
                    line.push(child);
                    at = child;
                }
                None => return line,
            }
        }
    }

    /// Finds `id` or places it under `anchor`; `None` when the cap leaves it out.
    fn place(&mut self, id: NodeId, ply: u32, anchor: Anchor) -> Option<usize> {
        if let Some(&index) = self.index.get(&id) {
            return Some(index);
        }
        let parent = match anchor {
            Anchor::Root if self.nodes.is_empty() => None,
            Anchor::Root => {
                // A second root: the stream is not one search. Keep it under
                // nothing would break the tree, so it is dropped.
                self.dropped += 1;
                return None;
            }
            Anchor::Under(parent) => Some(parent),
            Anchor::Dropped => {
                self.dropped += 1;
                return None;
            }
        };
        if self.nodes.len() >= self.cap {
            self.dropped += 1;
            return None;
        }
        let index = self.nodes.len();
        self.nodes
            .push(ExploredNode::new(id, parent, ply, self.events));
        self.index.insert(id, index);
        if let Some(parent) = parent {
            self.nodes[parent].children.push(index);
        }
        Some(index)
    }

    /// Where an SSS* descriptor at `ply` goes, relative to the popped one.
    fn sss_anchor(&self, ply: u32) -> Anchor {
        let Some(popped) = self.popped else {
            return if self.nodes.is_empty() {
                Anchor::Root
            } else {
                Anchor::Dropped
            };
        };
        let popped_ply = self.nodes[popped].ply;
        if ply == popped_ply + 1 {
            Anchor::Under(popped)
        } else {
            match self.nodes[popped].parent {
                Some(parent) if ply == popped_ply => Anchor::Under(parent),
                _ => Anchor::Dropped,
            }
        }
    }

    fn known(&self, id: NodeId) -> Option<usize> {
        self.index.get(&id).copied()
    }

    /// Feeds one event; returns the node it is about, if any (kept by the cap).
    pub fn feed<M>(&mut self, event: &TraceEvent<M>) -> Option<usize> {
        use TraceEvent as E;
        let at = match *event {
            E::Enter {
                node,
                ply,
                alpha,
                beta,
            } => {
                let depth = ply as usize;
                self.stack.truncate(depth);
                let anchor = if ply == 0 {
                    Anchor::Root
                } else {
                    match self.stack.get(depth - 1) {
                        Some(Some(parent)) => Anchor::Under(*parent),
                        _ => Anchor::Dropped,
                    }
                };
                let index = self.place(node, ply, anchor);
                while self.stack.len() < depth {
                    self.stack.push(None);
                }
                self.stack.push(index);
                if let Some(index) = index {
                    if let Some(parent) = self.nodes[index].parent {
                        self.nodes[parent].expanded = true;
                    }
                    let pass = self.pass;
                    let n = &mut self.nodes[index];
                    n.window = Some((alpha, beta));
                    if let Some((pass, gamma)) = pass {
                        n.passes.push(PassVisit {
                            pass,
                            gamma,
                            value: None,
                        });
                    }
                }
                index
            }
            E::Leaf { node, value, .. } => {
                let index = self.known(node);
                if let Some(index) = index {
                    self.nodes[index].leaf = Some(value);
                }
                index
            }
            E::ChildValue { node, k, child, .. } => {
                if let Some(child) = self.known(child) {
                    self.nodes[child].k.get_or_insert(k);
                }
                self.known(node)
            }
            E::NewBest { node, k, .. } => {
                let index = self.known(node);
                if let Some(index) = index {
                    self.nodes[index].best = Some(k);
                }
                index
            }
            E::AlphaRaised { node, .. } | E::BetaLowered { node, .. } => self.known(node),
            E::Cutoff {
                node, k, pruned, ..
            } => {
                let index = self.known(node);
                if let Some(index) = index {
                    self.nodes[index].cutoff = Some((k, pruned));
                }
                index
            }
            E::Exit {
                node,
                value,
                kind,
                best,
                ..
            } => {
                let index = self.known(node);
                if let Some(index) = index {
                    let n = &mut self.nodes[index];
                    n.value = Some((value, kind));
                    if best.is_some() {
                        n.best = best;
                    }
                    if let Some(visit) = n.passes.last_mut()
                        && self.pass.is_some_and(|(pass, _)| pass == visit.pass)
                    {
                        visit.value = Some((value, kind));
                    }
                }
                index
            }
            E::TtProbe { node, .. } | E::TtHitCut { node, .. } | E::TtStore { node, .. } => {
                self.known(node)
            }
            E::PassStart { pass, gamma } => {
                self.pass = Some((pass, gamma));
                None
            }
            E::PassEnd { .. } | E::MtDone { .. } => self.root(),
            E::Pop { desc } => {
                let anchor = self.sss_anchor(desc.ply);
                let index = self.place(desc.node, desc.ply, anchor);
                if let Some(index) = index {
                    self.nodes[index].sss = Some((desc.status, desc.merit));
                }
                self.popped = index;
                index
            }
            E::Gamma { case } => {
                use crate::search::GammaCase::{G5, G6};
                if let Some(popped) = self.popped
                    && matches!(case, G5 | G6)
                {
                    self.nodes[popped].expanded = true;
                }
                self.popped
            }
            E::Push { desc } | E::OpenEntry { desc } => {
                let anchor = self.sss_anchor(desc.ply);
                let index = self.place(desc.node, desc.ply, anchor);
                if let Some(index) = index {
                    self.nodes[index].sss = Some((desc.status, desc.merit));
                }
                index
            }
            E::Purge { desc, .. } => self.known(desc.node),
            E::OpenSnapshot { .. } => self.popped.or(self.root()),
            E::SssDone { value } => {
                if let Some(root) = self.root() {
                    self.nodes[root].sss = Some((Status::Solved, value));
                    self.nodes[root].value = Some((value, BoundKind::Exact));
                }
                self.root()
            }
            E::Iteration { .. } => {
                self.listing = Some(match self.root() {
                    Some(root) => Anchor::Under(root),
                    None => Anchor::Dropped,
                });
                self.root()
            }
            E::Expand { node, .. } => {
                // The root's expansion comes first and names the root.
                let index = match self.known(node) {
                    Some(index) => Some(index),
                    None if self.nodes.is_empty() => self.place(node, 0, Anchor::Root),
                    None => None,
                };
                if let Some(index) = index {
                    self.nodes[index].expanded = true;
                }
                self.listing = Some(index.map_or(Anchor::Dropped, Anchor::Under));
                index
            }
            E::Bounds { node, interval } => {
                let anchor = self.listing.unwrap_or(Anchor::Dropped);
                let ply = match anchor {
                    Anchor::Under(parent) => self.nodes[parent].ply + 1,
                    _ => 0,
                };
                let index = self.place(node, ply, anchor);
                if let Some(index) = index {
                    self.nodes[index].interval = Some(interval);
                }
                index
            }
            E::Backup { node, new, .. } => {
                let index = self.known(node);
                if let Some(index) = index {
                    self.nodes[index].interval = Some(new);
                }
                index
            }
            E::Separation { candidate, .. } => self.known(candidate),
            E::Strategy { target, .. } => self.known(target),
            E::Descend { to, .. } => self.known(to),
            E::BStarStop { best, .. } => best.and_then(|b| self.known(b)),
            E::Widen { .. } | E::Restart | E::LimitReached { .. } => None,
        };
        self.events += 1;
        if at.is_some() {
            self.last = at;
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Algorithm, Backend, Limits, Recorder, Search, SearchOptions};
    use crate::tree::Tree;

    fn explored(text: &str, algorithm: Algorithm) -> (Tree, ExploredTree) {
        let tree = Tree::parse(text).unwrap();
        let mut recorder = Recorder::new();
        Backend::new(algorithm, &SearchOptions::default()).search(
            &mut tree.game(),
            &Limits::none(),
            &mut recorder,
        );
        let explored = ExploredTree::from_events(&recorder.events, 1000);
        (tree, explored)
    }

    #[test]
    fn alphabeta_on_aima_prunes_two_leaves_under_c() {
        let (tree, explored) =
            explored("(A (B 3 12 8) (C 2 4 6) (D 14 5 2))", Algorithm::AlphaBeta);
        assert_eq!(explored.leaf_count(), 7);
        assert_eq!(explored.interior_count(), 4);
        let c = explored
            .find(NodeId(tree.find("C").unwrap().into()))
            .unwrap();
        assert_eq!(explored.node(c).cutoff, Some((1, 2)));
        assert_eq!(
            explored.node(c).value,
            Some((Score::new(2), BoundKind::Upper))
        );
        let pv = explored.principal_variation();
        assert_eq!(
            explored.node(pv[0]).id,
            NodeId(tree.find("B").unwrap().into())
        );
    }

    #[test]
    fn a_cap_keeps_the_first_nodes_and_counts_the_rest() {
        let tree = Tree::parse("(A (B 3 12 8) (C 2 4 6) (D 14 5 2))").unwrap();
        let mut recorder = Recorder::new();
        Backend::new(Algorithm::Minimax, &SearchOptions::default()).search(
            &mut tree.game(),
            &Limits::none(),
            &mut recorder,
        );
        let explored = ExploredTree::from_events(&recorder.events, 5);
        assert_eq!(explored.len(), 5);
        assert!(explored.truncated());
        assert_eq!(explored.dropped(), 8);
    }
}
