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

#[derive(Clone, Debug)]
pub struct Explorer {
    tree: ExploredTree,
    labels: Vec<String>,
    open: HashSet<usize>,
    selected: Option<usize>,
    /// Step mode: the selection follows the node of each new event.
    pub follow: bool,
    /// The node each trace line (in order) was about.
    line_nodes: Vec<Option<usize>>,
}

impl Default for Explorer {
    fn default() -> Self {
        Explorer::new(crate::study::DEFAULT_NODE_CAP)
    }
}

impl Explorer {
    pub fn new(cap: usize) -> Explorer {
        Explorer {
            tree: ExploredTree::new(cap),
            labels: Vec::new(),
            open: HashSet::new(),
            selected: None,
            follow: false,
            line_nodes: Vec::new(),
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

    pub fn tree(&self) -> &ExploredTree {
        &self.tree
    }

    pub fn label(&self, node: usize) -> &str {
        &self.labels[node]
    }

    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// The trace line (0-based, counting trace lines only) of the selected
    /// node's latest event up to now, for highlighting it in the log.
    pub fn selected_line(&self) -> Option<usize> {
        let selected = self.selected?;
        self.line_nodes.iter().rposition(|&n| n == Some(selected))
    }

    /// The node trace line `line` was about.
    pub fn line_node(&self, line: usize) -> Option<usize> {
        self.line_nodes.get(line).copied().flatten()
    }

    pub fn lines(&self) -> usize {
        self.line_nodes.len()
    }

    /// Feeds one event; `line` tells whether it completed a trace line.
    pub fn feed<M>(&mut self, event: &TraceEvent<M>, line: bool, names: &dyn NodeNames) {
        let before = self.tree.len();
        let at = self.tree.feed(event);
        for index in before..self.tree.len() {
            self.labels.push(short_label(names, self.tree.node(index)));
        }
        if before == 0 && !self.tree.is_empty() {
            self.open.insert(0);
            self.selected.get_or_insert(0);
        }
        if line {
            self.line_nodes.push(at.or(self.tree.last_node()));
        }
        if self.follow
            && let Some(at) = at
        {
            self.select(at);
        }
    }

    /// Selects `node` and opens its ancestors so that it shows.
    pub fn select(&mut self, node: usize) {
        let mut parent = self.tree.node(node).parent;
        while let Some(p) = parent {
            self.open.insert(p);
            parent = self.tree.node(p).parent;
        }
        self.selected = Some(node);
    }

    /// Selects the node of trace line `line` (the log's selection moved).
    pub fn select_line(&mut self, line: usize) -> bool {
        match self.line_node(line) {
            Some(node) => {
                self.select(node);
                true
            }
            None => false,
        }
    }

    pub fn is_open(&self, node: usize) -> bool {
        self.open.contains(&node)
    }

    /// All nodes in pre-order.
    fn preorder(&self) -> Vec<usize> {
        let mut order = Vec::with_capacity(self.tree.len());
        let mut stack: Vec<usize> = self.tree.root().into_iter().collect();
        while let Some(node) = stack.pop() {
            order.push(node);
            stack.extend(self.tree.node(node).children.iter().rev());
        }
        order
    }

    /// The rows shown: every node whose ancestors are all open, in pre-order.
    pub fn rows(&self) -> Vec<ExplorerRow> {
        let pv: HashSet<usize> = self.tree.principal_variation().into_iter().collect();
        let mut rows = Vec::new();
        let mut stack: Vec<(usize, u32)> = self.tree.root().map(|r| (r, 0)).into_iter().collect();
        while let Some((node, depth)) = stack.pop() {
            let n = self.tree.node(node);
            let open = self.open.contains(&node);
            rows.push(ExplorerRow {
                node,
                depth,
                label: self.labels[node].clone(),
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
        let Some(at) = rows.iter().position(|r| Some(r.node) == self.selected) else {
            self.selected = rows.first().map(|r| r.node);
            return;
        };
        let to = (at as isize + by).clamp(0, rows.len() as isize - 1) as usize;
        self.selected = Some(rows[to].node);
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
        let Some(node) = self.selected else { return };
        let children = &self.tree.node(node).children;
        if children.is_empty() {
            return;
        }
        if self.open.insert(node) {
            return;
        }
        self.selected = Some(children[0]);
    }

    /// Left: close the selected node, or go to its parent when closed.
    pub fn left(&mut self) {
        let Some(node) = self.selected else { return };
        if !self.open.remove(&node) {
            self.selected = self.tree.node(node).parent.or(Some(node));
        }
    }

    /// Enter: open or close the selected node.
    pub fn toggle(&mut self) {
        let Some(node) = self.selected else { return };
        if !self.open.remove(&node) && !self.tree.node(node).children.is_empty() {
            self.open.insert(node);
        }
    }

    /// `p`: the end of the principal variation, its nodes shown.
    pub fn jump_to_pv(&mut self) -> bool {
        match self.tree.principal_variation().last() {
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
            .selected
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
        self.next_where(|e, node| e.tree.node(node).cutoff.is_some_and(|(_, p)| p > 0))
    }

    /// `/`: the next node whose move text contains `text` (case-insensitive).
    pub fn search(&mut self, text: &str) -> bool {
        let needle = text.trim().to_lowercase();
        if needle.is_empty() {
            return false;
        }
        self.next_where(|e, node| e.labels[node].to_lowercase().contains(&needle))
    }

    /// The header line: counts, and the cap when it left nodes out.
    pub fn summary(&self) -> String {
        let tree = &self.tree;
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
