//! Textbook game trees: the `.tree` format (§2.1), node labels, the tree's
//! [`Game`](crate::search::Game) implementation, `.expected` files and the
//! report the `tree` command prints.
//!
//! Values in a tree are from MAX's point of view; [`TreeGame`] turns them to
//! the side to move (negating at odd depth) so the negamax backends apply.

mod error;
mod expected;
mod game;
mod parse;
mod report;

use std::borrow::Cow;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

pub use error::{SourcePos, TreeError, TreeErrorKind};
pub use expected::{Expected, ExpectedError};
pub use game::TreeGame;
pub use parse::MAX_NESTING;
pub use report::{TreeReport, exact_table_entries, run_tree};

use crate::search::{Algorithm, Interval, NodeId, NodeNames};

/// Index of a node in a [`Tree`]: its pre-order number, the root being 0.
pub type NodeIndex = u32;

#[derive(Clone, Debug)]
struct Node {
    parent: Option<NodeIndex>,
    depth: u32,
    /// Leaf: its value; interior: its optional B* estimate. MAX's view.
    interval: Option<Interval>,
    children: Vec<NodeIndex>,
    name: Option<String>,
    label: String,
    pos: SourcePos,
}

/// A parsed `.tree` file.
#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    /// Mixed into node keys so that one transposition table can serve
    /// several trees without their node numbers colliding.
    salt: u64,
}

impl FromStr for Tree {
    type Err = TreeError;

    fn from_str(text: &str) -> Result<Tree, TreeError> {
        Tree::parse(text)
    }
}

impl Tree {
    /// Parses `.tree` text; errors name the rule broken and its line:column.
    pub fn parse(text: &str) -> Result<Tree, TreeError> {
        let parsed = parse::parse(text)?;
        let mut nodes: Vec<Node> = Vec::with_capacity(parsed.len());
        let mut dewey: Vec<String> = Vec::with_capacity(parsed.len());
        for node in parsed {
            let (depth, path) = match node.parent {
                None => (0, String::new()),
                Some(parent) => {
                    let rank = node.rank;
                    let parent_path = &dewey[parent as usize];
                    let path = if parent_path.is_empty() {
                        rank.to_string()
                    } else {
                        format!("{parent_path}.{rank}")
                    };
                    (nodes[parent as usize].depth + 1, path)
                }
            };
            let label = match (&node.name, node.parent) {
                (Some(name), _) => name.clone(),
                (None, None) => "root".to_string(),
                (None, Some(_)) => path.clone(),
            };
            dewey.push(path);
            nodes.push(Node {
                parent: node.parent,
                depth,
                interval: node.interval,
                children: node.children,
                name: node.name,
                label,
                pos: node.pos,
            });
        }
        let mut hasher = std::hash::DefaultHasher::new();
        text.hash(&mut hasher);
        Ok(Tree {
            nodes,
            salt: hasher.finish(),
        })
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Never true: a tree has at least a root and one child.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn root(&self) -> NodeIndex {
        0
    }

    /// Children in file order.
    pub fn children(&self, node: NodeIndex) -> &[NodeIndex] {
        &self.nodes[node as usize].children
    }

    pub fn parent(&self, node: NodeIndex) -> Option<NodeIndex> {
        self.nodes[node as usize].parent
    }

    /// Distance from the root; even depths are MAX nodes.
    pub fn depth(&self, node: NodeIndex) -> u32 {
        self.nodes[node as usize].depth
    }

    pub fn is_leaf(&self, node: NodeIndex) -> bool {
        self.children(node).is_empty()
    }

    /// The node's name if it has one, else its Dewey path (`root` for the root).
    pub fn label(&self, node: NodeIndex) -> &str {
        &self.nodes[node as usize].label
    }

    pub fn name(&self, node: NodeIndex) -> Option<&str> {
        self.nodes[node as usize].name.as_deref()
    }

    /// The node whose label is `label`.
    pub fn find(&self, label: &str) -> Option<NodeIndex> {
        (0..self.nodes.len() as NodeIndex).find(|&node| self.label(node) == label)
    }

    /// A leaf's value (a point, or an uncertain `[lo,hi]`), MAX's view.
    pub fn leaf_interval(&self, node: NodeIndex) -> Option<Interval> {
        self.is_leaf(node)
            .then(|| self.nodes[node as usize].interval)
            .flatten()
    }

    /// An interior node's B* estimate `=[lo,hi]`, MAX's view.
    pub fn estimate(&self, node: NodeIndex) -> Option<Interval> {
        (!self.is_leaf(node))
            .then(|| self.nodes[node as usize].interval)
            .flatten()
    }

    /// Where the node starts in the file.
    pub fn position(&self, node: NodeIndex) -> SourcePos {
        self.nodes[node as usize].pos
    }

    /// Whether some interior node carries an interval (the `bstar` keys of
    /// `.expected` files apply only then).
    pub fn has_estimates(&self) -> bool {
        (0..self.nodes.len() as NodeIndex).any(|node| self.estimate(node).is_some())
    }

    /// Checks that `algorithm` can search this tree: only B* accepts leaves
    /// with an uncertain value `[lo,hi]`, `lo < hi`.
    pub fn check_algorithm(&self, algorithm: Algorithm) -> Result<(), TreeError> {
        if algorithm == Algorithm::BStar {
            return Ok(());
        }
        let uncertain = (0..self.nodes.len() as NodeIndex).find_map(|node| {
            self.leaf_interval(node)
                .filter(|interval| interval.lo < interval.hi)
                .map(|interval| (node, interval))
        });
        match uncertain {
            None => Ok(()),
            Some((node, interval)) => Err(TreeError {
                pos: self.position(node),
                kind: TreeErrorKind::IntervalLeaf {
                    lo: interval.lo.get(),
                    hi: interval.hi.get(),
                    algorithm: algorithm.as_str().to_string(),
                },
            }),
        }
    }

    /// A game positioned at the root.
    pub fn game(&self) -> TreeGame<'_> {
        TreeGame::new(self)
    }

    fn index_of(&self, node: NodeId) -> Option<NodeIndex> {
        (node.0 < self.nodes.len() as u64).then_some(node.0 as NodeIndex)
    }
}

impl NodeNames for Tree {
    fn label(&self, node: NodeId) -> Cow<'_, str> {
        match self.index_of(node) {
            Some(index) => Cow::Borrowed(Tree::label(self, index)),
            None => Cow::Owned(format!("#{}", node.0)),
        }
    }

    fn children_after(&self, node: NodeId, searched: u32) -> Option<Vec<Cow<'_, str>>> {
        let children = self.children(self.index_of(node)?);
        Some(
            children
                .iter()
                .skip(searched as usize)
                .map(|&child| Cow::Borrowed(Tree::label(self, child)))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;

    #[test]
    fn labels_are_names_or_dewey_paths() {
        let tree = Tree::parse("(A (B 3 x=12) (1 (2 4)))").unwrap();
        let labels: Vec<&str> = (0..tree.len() as NodeIndex)
            .map(|n| tree.label(n))
            .collect();
        assert_eq!(
            labels,
            ["A", "B", "1.1", "x", "2", "2.1", "2.2", "2.2.1", "2.2.2"]
        );
        assert_eq!(Tree::parse("(1 2)").unwrap().label(0), "root");
        assert_eq!(tree.find("2.2.1"), Some(7));
        assert_eq!(tree.depth(7), 3);
    }

    #[test]
    fn heads_and_leaves_are_told_apart() {
        let tree = Tree::parse("(r=[0,9] (a=[1,5] 1 5) b=3 [2,2] c=[1,4])").unwrap();
        assert_eq!(
            tree.estimate(0),
            Some(Interval::new(Score::new(0), Score::new(9)))
        );
        assert_eq!(tree.label(1), "a");
        assert_eq!(
            tree.estimate(1),
            Some(Interval::new(Score::new(1), Score::new(5)))
        );
        let b = tree.find("b").unwrap();
        assert_eq!(tree.leaf_interval(b), Some(Interval::point(Score::new(3))));
        assert_eq!(
            tree.leaf_interval(tree.find("3").unwrap()),
            Some(Interval::point(Score::new(2)))
        );
        assert_eq!(
            tree.leaf_interval(tree.find("c").unwrap()),
            Some(Interval::new(Score::new(1), Score::new(4)))
        );
        assert!(tree.has_estimates());
    }

    #[test]
    fn only_bstar_accepts_interval_leaves() {
        let tree = Tree::parse("(1\n  [2,5])").unwrap();
        assert!(tree.check_algorithm(Algorithm::BStar).is_ok());
        let error = tree.check_algorithm(Algorithm::Sss).unwrap_err();
        assert_eq!(
            error.to_string(),
            "2:3: interval leaf [2,5] is accepted only by bstar, not by sss"
        );
        // A point interval is an ordinary value.
        assert!(
            Tree::parse("(1 [2,2])")
                .unwrap()
                .check_algorithm(Algorithm::Minimax)
                .is_ok()
        );
    }
}
