//! Properties of the backends on random trees (§5.4, §4.2, §6.1, §7).

use std::collections::HashSet;

use proptest::prelude::*;
use xiangqi_core::rng::SplitMix64;
use xiangqi_engine::search::{
    AlphaBeta, BStar, BStarStop, Bounding, Completion, Details, Limits, Minimax, MtSss, Mtdf,
    NoTrace, Recorder, Score, Search, SearchResult, Sss, TranspositionTable,
};
use xiangqi_engine::tree::{NodeIndex, Tree, exact_table_entries};

/// A random game tree: leaves are MAX-view values.
#[derive(Clone, Debug)]
enum Shape {
    Leaf(i32),
    Node(Vec<Shape>),
}

impl Shape {
    /// Minimax value with MAX to move at even `depth`.
    fn value(&self, depth: u32) -> i32 {
        match self {
            Shape::Leaf(value) => *value,
            Shape::Node(children) => {
                let values = children.iter().map(|child| child.value(depth + 1));
                if depth.is_multiple_of(2) {
                    values.max().unwrap()
                } else {
                    values.min().unwrap()
                }
            }
        }
    }

    /// `.tree` text; `widen` gives each interior node an interval around its
    /// true value, `names` names every node.
    fn write(
        &self,
        out: &mut String,
        depth: u32,
        slack: &mut dyn FnMut() -> Option<(i32, i32)>,
        names: &mut Option<u32>,
    ) {
        let mut name = || {
            names.as_mut().map(|counter| {
                *counter += 1;
                format!("n{counter}")
            })
        };
        match self {
            Shape::Leaf(value) => match name() {
                Some(name) => out.push_str(&format!(" {name}={value}")),
                None => out.push_str(&format!(" {value}")),
            },
            Shape::Node(children) => {
                out.push_str(" (");
                if let Some(name) = name() {
                    out.push_str(&name);
                }
                if let Some((below, above)) = slack() {
                    let value = self.value(depth);
                    out.push_str(&format!("=[{},{}]", value - below, value + above));
                }
                for child in children {
                    child.write(out, depth + 1, slack, names);
                }
                out.push(')');
            }
        }
    }

    fn to_tree(&self, named: bool) -> Tree {
        let mut text = String::new();
        self.write(&mut text, 0, &mut || None, &mut named.then_some(0));
        Tree::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }
}

/// Parameters of a random tree, as in the spec's oracle (§5.4): depth 1-6,
/// branching up to 5, uneven depths, single-child nodes, tie-heavy values.
#[derive(Clone, Copy, Debug)]
struct TreeParams {
    depth: u32,
    branching: u64,
    uneven: bool,
    single_children: bool,
    /// Leaf values lie in `-spread..=spread`.
    spread: i32,
    seed: u64,
}

impl TreeParams {
    fn build(&self) -> Shape {
        // Seeded: the tree is a pure function of the parameters, so failures
        // reproduce and shrink through them.
        self.node(&mut SplitMix64::new(self.seed), 0)
    }

    fn node(&self, rng: &mut SplitMix64, depth: u32) -> Shape {
        let leaf_early = depth > 0 && self.uneven && rng.next_u64().is_multiple_of(4);
        if depth == self.depth || leaf_early {
            let span = 2 * self.spread as u64 + 1;
            return Shape::Leaf((rng.next_u64() % span) as i32 - self.spread);
        }
        let fewest = if self.single_children {
            1
        } else {
            2.min(self.branching)
        };
        let count = fewest + rng.next_u64() % (self.branching - fewest + 1);
        Shape::Node((0..count).map(|_| self.node(rng, depth + 1)).collect())
    }
}

fn tree_params() -> impl Strategy<Value = TreeParams> {
    (
        1u32..=6,
        1u64..=5,
        any::<bool>(),
        prop::bool::weighted(0.2),
        prop_oneof![Just(3), Just(60)],
        any::<u64>(),
    )
        .prop_map(
            |(depth, branching, uneven, single_children, spread, seed)| TreeParams {
                depth,
                branching,
                uneven,
                single_children,
                spread,
                seed,
            },
        )
}

fn random_tree() -> impl Strategy<Value = Shape> {
    tree_params().prop_map(|params| params.build())
}

fn run<S: Search<xiangqi_engine::tree::TreeGame<'static>>>(
    backend: &mut S,
    tree: &'static Tree,
) -> (SearchResult<NodeIndex>, Vec<NodeIndex>) {
    let mut game = tree.game();
    let mut recorder = Recorder::new();
    let result = backend.search(&mut game, &Limits::none(), &mut recorder);
    assert_eq!(
        game.node(),
        tree.root(),
        "the search must leave the game at the root"
    );
    let leaves = recorder
        .distinct_leaves()
        .into_iter()
        .map(|id| id.0 as NodeIndex)
        .collect();
    (result, leaves)
}

fn leak(tree: Tree) -> &'static Tree {
    Box::leak(Box::new(tree))
}

/// MT-SSS* matches SSS* only with enough memory: a table sized to the tree.
fn table(tree: &Tree) -> TranspositionTable<NodeIndex> {
    TranspositionTable::with_entries(exact_table_entries(tree))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn all_algorithms_agree_on_value_and_best_move(shape in random_tree(), named in any::<bool>(), guess in -70i32..70) {
        let tree = leak(shape.to_tree(named));
        let (reference, all_leaves) = run(&mut Minimax, tree);
        prop_assert_eq!(reference.value.exact(), Some(Score::new(shape.value(0))));
        prop_assert_eq!(all_leaves.len() as u64, reference.stats.leaves);
        let results = [
            run(&mut AlphaBeta::new(Bounding::FailSoft), tree).0,
            run(&mut AlphaBeta::new(Bounding::FailHard), tree).0,
            run(&mut Sss, tree).0,
            run(&mut MtSss::new(table(tree)), tree).0,
            run(&mut Mtdf::new(table(tree), Score::new(guess)), tree).0,
        ];
        for result in results {
            prop_assert_eq!(result.completion, Completion::Finished);
            prop_assert_eq!(result.value, reference.value);
            prop_assert_eq!(result.best_move, reference.best_move);
        }
    }

    #[test]
    fn sss_leaves_are_a_subset_of_alphabeta_leaves(shape in random_tree()) {
        let tree = leak(shape.to_tree(false));
        let (_, sss) = run(&mut Sss, tree);
        let (_, alphabeta) = run(&mut AlphaBeta::default(), tree);
        let (_, fail_hard) = run(&mut AlphaBeta::new(Bounding::FailHard), tree);
        prop_assert_eq!(&alphabeta, &fail_hard);
        let alphabeta: HashSet<_> = alphabeta.into_iter().collect();
        prop_assert!(sss.iter().all(|leaf| alphabeta.contains(leaf)), "SSS* {:?} vs alpha-beta {:?}", sss, alphabeta);
    }

    #[test]
    fn mtsss_evaluates_the_same_leaves_as_sss_in_the_same_order(shape in random_tree()) {
        let tree = leak(shape.to_tree(false));
        let (sss_result, sss) = run(&mut Sss, tree);
        let (mt_result, mt) = run(&mut MtSss::new(table(tree)), tree);
        prop_assert_eq!(&mt, &sss);
        // With a table no leaf is evaluated twice.
        prop_assert_eq!(mt_result.stats.leaves, mt.len() as u64);
        prop_assert_eq!(sss_result.stats.leaves, sss.len() as u64);
    }

    #[test]
    fn the_untraced_search_is_the_traced_search(shape in random_tree()) {
        let tree = leak(shape.to_tree(false));
        let mut game = tree.game();
        for backend in 0..5 {
            let untraced = search_with(backend, &mut game, &mut NoTrace);
            let traced = search_with(backend, &mut game, &mut Recorder::new());
            prop_assert_eq!(untraced, traced);
        }
    }

    #[test]
    fn bstar_picks_a_best_move_on_valid_intervals(shape in random_tree(), seed in any::<u64>(), widen in prop::option::of(1i32..6)) {
        // Seeded per case, so failures reproduce.
        let mut rng = SplitMix64::new(seed);
        let mut slack = move || {
            let draw = rng.next_u64();
            Some(((draw % 9) as i32, ((draw >> 8) % 9) as i32))
        };
        let mut text = String::new();
        shape.write(&mut text, 0, &mut slack, &mut None);
        let tree = leak(Tree::parse(&text).unwrap());
        let Shape::Node(children) = &shape else { unreachable!("the root is interior") };
        let (result, _) = run(&mut BStar::new(widen.map(Score::new)), tree);
        let Details::BStar { stop, .. } = result.details else { panic!("B* details") };
        prop_assert_eq!(stop, BStarStop::Separation, "exact leaves always separate");
        let best = result.best_move.expect("a best move");
        let rank = tree.children(tree.root()).iter().position(|&c| c == best).unwrap();
        prop_assert_eq!(children[rank].value(1), shape.value(0), "{}", text);
    }
}

fn search_with<T: xiangqi_engine::search::Tracer<NodeIndex>>(
    backend: usize,
    game: &mut xiangqi_engine::tree::TreeGame<'_>,
    tracer: &mut T,
) -> SearchResult<NodeIndex> {
    let limits = Limits::none();
    match backend {
        0 => Minimax.search(game, &limits, tracer),
        1 => AlphaBeta::default().search(game, &limits, tracer),
        2 => Sss.search(game, &limits, tracer),
        3 => MtSss::new(TranspositionTable::with_entries(1 << 12)).search(game, &limits, tracer),
        _ => BStar::default().search(game, &limits, tracer),
    }
}

/// A uniform tree of branching `b` and depth `d` over distinct values,
/// children sorted best first (MAX: descending, MIN: ascending).
fn best_ordered(b: usize, d: u32, values: &mut impl Iterator<Item = i32>, depth: u32) -> Shape {
    if depth == d {
        return Shape::Leaf(values.next().unwrap());
    }
    let mut children: Vec<Shape> = (0..b)
        .map(|_| best_ordered(b, d, values, depth + 1))
        .collect();
    children.sort_by_key(|child| {
        let value = child.value(depth + 1);
        if depth.is_multiple_of(2) {
            -value
        } else {
            value
        }
    });
    Shape::Node(children)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn alphabeta_on_best_ordered_trees_evaluates_the_minimal_tree(
        values in Just((0..1024).collect::<Vec<i32>>()).prop_shuffle()
    ) {
        for b in 2..=4usize {
            for d in 1..=5u32 {
                let shape = best_ordered(b, d, &mut values.iter().copied(), 0);
                let tree = leak(shape.to_tree(false));
                let (result, leaves) = run(&mut AlphaBeta::default(), tree);
                let minimal = b.pow(d.div_ceil(2)) + b.pow(d / 2) - 1;
                prop_assert_eq!(leaves.len(), minimal, "b={} d={}", b, d);
                prop_assert_eq!(result.stats.leaves as usize, minimal);
                prop_assert_eq!(result.value.exact(), Some(Score::new(shape.value(0))));
            }
        }
    }
}
