//! The explorer: an [`ExploredTree`] with the state a UI needs to walk it
//! (open nodes, the selection, search), and the map between trace lines and
//! nodes that keeps the explorer and the search log in step.

use std::collections::HashSet;

use crate::search::{NodeNames, TraceEvent};
use crate::study::explored::ExploredTree;
use crate::study::export::{node_facts, short_label};

/// One visible row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorerRow {
    pub node: usize,
    pub depth: u32,
    pub label: String,
    pub facts: String,
    pub has_children: bool,
    pub open: bool,
    pub on_pv: bool,
    pub cut: bool,
}

/// One iteration's tree, with the UI's state over it.
#[derive(Clone, Debug)]
struct Layer {
    tree: ExploredTree,
    labels: Vec<String>,
    open: HashSet<usize>,
    selected: Option<usize>,
}

impl Layer {
    fn new(cap: usize) -> Layer {
        Layer {
            tree: ExploredTree::new(cap),
            labels: Vec::new(),
            open: HashSet::new(),
            selected: None,
        }
    }
}

/// The explorer shows one iteration at a time: an iterative search (every backend on
/// positions) searches the root again at each depth, and each iteration is its own
/// tree. The last is shown unless another is asked for.
#[derive(Clone, Debug)]
pub struct Explorer {
    layers: Vec<Layer>,
    /// The iteration shown.
    shown: usize,
    /// An earlier iteration was asked for: new iterations do not take its place.
    pinned: bool,
    cap: usize,
    /// The search shown ended (its root returned): the next event starts an iteration.
    ended: bool,
    /// Inside MT passes: a root exit ends a pass, not the iteration.
    in_passes: bool,
    /// Step mode: the selection follows the node of each new event.
    pub follow: bool,
    /// The iteration and node each trace line (in order) was about.
    line_nodes: Vec<Option<(usize, usize)>>,
    /// SSS*: the node of the step under way (its `Pop`), which the step's line and
    /// its OPEN list are about.
    step_node: Option<usize>,
}

impl Default for Explorer {
    fn default() -> Self {
        Explorer::new(crate::study::DEFAULT_NODE_CAP)
    }
}

impl Explorer {
    pub fn new(cap: usize) -> Explorer {
        Explorer {
            layers: vec![Layer::new(cap)],
            shown: 0,
            pinned: false,
            cap,
            ended: false,
            in_passes: false,
            follow: false,
            line_nodes: Vec::new(),
            step_node: None,
        }
    }

    /// An explorer over a whole recorded trace; `lines` says for each event
    /// whether it completed a trace line.
    pub fn from_events<M>(events: &[TraceEvent<M>], names: &dyn NodeNames, cap: usize) -> Explorer {
        let mut explorer = Explorer::new(cap);
        let mut text = crate::search::TraceText::new(names);
        for event in events {
            let line = text.feed(event).is_some();
            explorer.feed(event, line, names);
        }
        explorer
    }

    fn layer(&self) -> &Layer {
        &self.layers[self.shown]
    }

    fn layer_mut(&mut self) -> &mut Layer {
        &mut self.layers[self.shown]
    }

    /// The tree of the iteration shown.
    pub fn tree(&self) -> &ExploredTree {
        &self.layer().tree
    }

    /// Iterations seen so far (at least one).
    pub fn iterations(&self) -> usize {
        self.layers.len()
    }

    /// The iteration shown, from 0.
    pub fn shown_iteration(&self) -> usize {
        self.shown
    }

    /// Shows the iteration `by` before (negative) or after the one shown; false when
    /// there is none. Back on the last, new iterations are shown as they come.
    pub fn show_iteration(&mut self, by: i8) -> bool {
        let to = self.shown as isize + isize::from(by);
        if to < 0 || to >= self.layers.len() as isize {
            return false;
        }
        self.shown = to as usize;
        self.pinned = self.shown + 1 < self.layers.len();
        true
    }

    pub fn label(&self, node: usize) -> &str {
        &self.layer().labels[node]
    }

    pub fn selected(&self) -> Option<usize> {
        self.layer().selected
    }

    /// The trace line (0-based, counting trace lines only) of the selected
    /// node's latest event up to now, for highlighting it in the log.
    pub fn selected_line(&self) -> Option<usize> {
        let selected = (self.shown, self.selected()?);
        self.line_nodes.iter().rposition(|&n| n == Some(selected))
    }

    /// The node trace line `line` was about, in the iteration shown.
    pub fn line_node(&self, line: usize) -> Option<usize> {
        match self.line_nodes.get(line).copied().flatten() {
            Some((layer, node)) if layer == self.shown => Some(node),
            _ => None,
        }
    }

    pub fn lines(&self) -> usize {
        self.line_nodes.len()
    }

    /// Whether `event` starts a new iteration, and notes the ends of searches.
    fn starts_iteration<M>(&mut self, event: &TraceEvent<M>) -> bool {
        use TraceEvent as E;
        let starts = self.ended && !matches!(event, E::LimitReached { .. });
        if starts {
            self.ended = false;
        }
        match event {
            E::PassStart { .. } => self.in_passes = true,
            E::MtDone { .. } => {
                self.in_passes = false;
                self.ended = true;
            }
            E::Exit { ply: 0, .. } if !self.in_passes => self.ended = true,
            E::SssDone { .. } | E::BStarStop { .. } => self.ended = true,
            _ => {}
        }
        starts
    }

    /// Feeds one event; `line` tells whether it completed a trace line.
    pub fn feed<M>(&mut self, event: &TraceEvent<M>, line: bool, names: &dyn NodeNames) {
        if self.starts_iteration(event) {
            self.layers.push(Layer::new(self.cap));
            if !self.pinned || self.follow {
                self.shown = self.layers.len() - 1;
                self.pinned = false;
            }
        }
        let current = self.layers.len() - 1;
        let layer = &mut self.layers[current];
        let before = layer.tree.len();
        let mut at = layer.tree.feed(event);
        match event {
            TraceEvent::Pop { .. } => self.step_node = at,
            // OPEN's entries belong to the step that popped a node.
            TraceEvent::OpenSnapshot { .. } | TraceEvent::OpenEntry { .. } => {
                at = self.step_node.or(at);
            }
            _ => {}
        }
        for index in before..layer.tree.len() {
            layer
                .labels
                .push(short_label(names, layer.tree.node(index)));
        }
        if before == 0 && !layer.tree.is_empty() {
            layer.open.insert(0);
            layer.selected.get_or_insert(0);
        }
        if line {
            let node = at.or(layer.tree.last_node());
            self.line_nodes.push(node.map(|node| (current, node)));
        }
        if self.follow
            && let Some(at) = at
        {
            self.shown = current;
            self.pinned = false;
            self.select(at);
        }
    }

    /// Selects `node` of the iteration shown and opens its ancestors so that it shows.
    pub fn select(&mut self, node: usize) {
        let layer = self.layer_mut();
        let mut parent = layer.tree.node(node).parent;
        while let Some(p) = parent {
            layer.open.insert(p);
            parent = layer.tree.node(p).parent;
        }
        layer.selected = Some(node);
    }

    /// Selects the node of trace line `line` (the log's selection moved), showing its
    /// iteration.
    pub fn select_line(&mut self, line: usize) -> bool {
        match self.line_nodes.get(line).copied().flatten() {
            Some((layer, node)) => {
                self.shown = layer;
                self.pinned = layer + 1 < self.layers.len();
                self.select(node);
                true
            }
            None => false,
        }
    }

    pub fn is_open(&self, node: usize) -> bool {
        self.layer().open.contains(&node)
    }

    /// All nodes in pre-order.
    fn preorder(&self) -> Vec<usize> {
        let tree = self.tree();
        let mut order = Vec::with_capacity(tree.len());
        let mut stack: Vec<usize> = tree.root().into_iter().collect();
        while let Some(node) = stack.pop() {
            order.push(node);
            stack.extend(tree.node(node).children.iter().rev());
        }
        order
    }

    /// The rows shown: every node whose ancestors are all open, in pre-order.
    pub fn rows(&self) -> Vec<ExplorerRow> {
        let layer = self.layer();
        let pv: HashSet<usize> = layer.tree.principal_variation().into_iter().collect();
        let mut rows = Vec::new();
        let mut stack: Vec<(usize, u32)> = layer.tree.root().map(|r| (r, 0)).into_iter().collect();
        while let Some((node, depth)) = stack.pop() {
            let n = layer.tree.node(node);
            let open = layer.open.contains(&node);
            rows.push(ExplorerRow {
                node,
                depth,
                label: layer.labels[node].clone(),
                facts: node_facts(n),
                has_children: !n.children.is_empty(),
                open,
                on_pv: node == 0 || pv.contains(&node),
                cut: n.cutoff.is_some_and(|(_, pruned)| pruned > 0),
            });
            if open {
                stack.extend(n.children.iter().rev().map(|&c| (c, depth + 1)));
            }
        }
        rows
    }

    fn move_in_rows(&mut self, by: isize) {
        let rows = self.rows();
        let selected = self.selected();
        let layer = self.layer_mut();
        let Some(at) = rows.iter().position(|r| Some(r.node) == selected) else {
            layer.selected = rows.first().map(|r| r.node);
            return;
        };
        let to = (at as isize + by).clamp(0, rows.len() as isize - 1) as usize;
        layer.selected = Some(rows[to].node);
    }

    pub fn up(&mut self) {
        self.move_in_rows(-1);
    }

    pub fn down(&mut self) {
        self.move_in_rows(1);
    }

    pub fn page(&mut self, rows: isize) {
        self.move_in_rows(rows);
    }

    /// Right: open the selected node, or go to its first child when open.
    pub fn right(&mut self) {
        let layer = self.layer_mut();
        let Some(node) = layer.selected else { return };
        let Some(&first) = layer.tree.node(node).children.first() else {
            return;
        };
        if layer.open.insert(node) {
            return;
        }
        layer.selected = Some(first);
    }

    /// Left: close the selected node, or go to its parent when closed.
    pub fn left(&mut self) {
        let layer = self.layer_mut();
        let Some(node) = layer.selected else { return };
        if !layer.open.remove(&node) {
            layer.selected = layer.tree.node(node).parent.or(Some(node));
        }
    }

    /// Enter: open or close the selected node.
    pub fn toggle(&mut self) {
        let layer = self.layer_mut();
        let Some(node) = layer.selected else { return };
        if !layer.open.remove(&node) && !layer.tree.node(node).children.is_empty() {
            layer.open.insert(node);
        }
    }

    /// `p`: the end of the principal variation, its nodes shown.
    pub fn jump_to_pv(&mut self) -> bool {
        match self.tree().principal_variation().last() {
            Some(&end) => {
                self.select(end);
                true
            }
            None => false,
        }
    }

    /// The next node after the selection, in pre-order and wrapping round,
    /// that satisfies `wanted`.
    fn next_where(&mut self, wanted: impl Fn(&Explorer, usize) -> bool) -> bool {
        let order = self.preorder();
        let start = self
            .selected()
            .and_then(|s| order.iter().position(|&n| n == s))
            .map_or(0, |at| at + 1);
        let found = (0..order.len())
            .map(|i| order[(start + i) % order.len()])
            .find(|&node| wanted(self, node));
        match found {
            Some(node) => {
                self.select(node);
                true
            }
            None => false,
        }
    }

    /// `x`: the next cut-off.
    pub fn next_cutoff(&mut self) -> bool {
        self.next_where(|e, node| e.tree().node(node).cutoff.is_some_and(|(_, p)| p > 0))
    }

    /// `/`: the next node whose move text contains `text` (case-insensitive).
    pub fn search(&mut self, text: &str) -> bool {
        let needle = text.trim().to_lowercase();
        if needle.is_empty() {
            return false;
        }
        self.next_where(|e, node| e.label(node).to_lowercase().contains(&needle))
    }

    /// The header line: counts, and the cap when it left nodes out.
    pub fn summary(&self) -> String {
        let tree = self.tree();
        let mut text = format!(
            "{} nodes, {} leaves, {} interior",
            tree.len(),
            tree.leaf_count(),
            tree.interior_count()
        );
        if tree.truncated() {
            text = format!("tree shown up to {} nodes; {text}", tree.len());
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Algorithm, Backend, Limits, Recorder, Search, SearchOptions};
    use crate::tree::Tree;

    fn explorer(text: &str, algorithm: Algorithm) -> (Tree, Explorer) {
        let tree = Tree::parse(text).unwrap();
        let mut recorder = Recorder::new();
        Backend::new(algorithm, &SearchOptions::default()).search(
            &mut tree.game(),
            &Limits::none(),
            &mut recorder,
        );
        let explorer = Explorer::from_events(&recorder.events, &tree, 1000);
        (tree, explorer)
    }

    #[test]
    fn keys_walk_open_and_search_the_tree() {
        let (_, mut e) = explorer("(A (B 3 12 8) (C 2 4 6) (D 14 5 2))", Algorithm::AlphaBeta);
        assert_eq!(e.rows().len(), 4, "root open, its children closed");
        e.down();
        assert_eq!(e.label(e.selected().unwrap()), "B");
        e.right();
        assert_eq!(e.rows().len(), 7);
        e.right();
        assert_eq!(e.label(e.selected().unwrap()), "1.1");
        e.left();
        assert_eq!(e.label(e.selected().unwrap()), "B");
        assert!(e.next_cutoff());
        assert_eq!(e.label(e.selected().unwrap()), "C");
        assert!(e.search("d"));
        assert_eq!(e.label(e.selected().unwrap()), "D");
        assert!(e.jump_to_pv());
        assert_eq!(e.label(e.selected().unwrap()), "1.1");
        assert!(!e.search("zz"));
    }
}
