//! Node and memory limits, the stop flag and the depth horizon: a limited
//! search stops at its limit, says so, and reports what it knows; it never aborts.

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use xiangqi_engine::search::{
    Algorithm, BStarStop, Backend, Completion, Details, INFINITY, Interval, Limit, Limits, NoTrace,
    Score, Search, SearchOptions, SearchResult,
};
use xiangqi_engine::tree::{NodeIndex, Tree, run_tree};

fn load(name: &str) -> Tree {
    let path = Path::new(crate::TOP).join(format!("tests/data/trees/{name}.tree"));
    Tree::parse(&fs::read_to_string(path).unwrap()).unwrap()
}

fn search(tree: &Tree, algorithm: Algorithm, limits: &Limits) -> SearchResult<NodeIndex> {
    let mut game = tree.game();
    let result =
        Backend::new(algorithm, &SearchOptions::default()).search(&mut game, limits, &mut NoTrace);
    assert_eq!(
        game.node(),
        tree.root(),
        "{algorithm}: the game is back at the root"
    );
    result
}

/// What the node budget counts: B* counts expansions, the others every
/// leaf evaluation and interior expansion.
fn budget_used(result: &SearchResult<NodeIndex>) -> u64 {
    match result.details {
        Details::BStar { expansions, .. } => expansions,
        _ => result.stats.nodes(),
    }
}

#[test]
fn a_node_budget_stops_exactly_at_the_limit() {
    for name in ["course-sss", "bstar-intro", "uneven"] {
        let tree = load(name);
        for algorithm in Algorithm::ALL {
            let full = search(&tree, algorithm, &Limits::none());
            let needed = budget_used(&full);
            assert_eq!(full.completion, Completion::Finished);

            let enough = search(&tree, algorithm, &Limits::none().with_nodes(needed));
            assert_eq!(
                enough.completion,
                Completion::Finished,
                "{name} {algorithm}"
            );
            assert_eq!(enough.value, full.value);
            assert_eq!(enough.best_move, full.best_move);

            for limit in [0, 1, needed / 2, needed - 1] {
                let cut = search(&tree, algorithm, &Limits::none().with_nodes(limit));
                assert_eq!(
                    cut.completion,
                    Completion::LimitReached(Limit::Nodes),
                    "{name} {algorithm} limit {limit}"
                );
                assert!(
                    budget_used(&cut) <= limit,
                    "{name} {algorithm} limit {limit}"
                );
                // Whatever is reported still holds.
                let value = full.value.exact().unwrap_or(full.value.lo);
                assert!(
                    cut.value.lo <= value && value <= cut.value.hi,
                    "{name} {algorithm}: {:?}",
                    cut.value
                );
            }
        }
    }
}

#[test]
fn a_stopped_search_says_so_in_its_trace() {
    let tree = load("course-sss");
    let limits = Limits::none().with_nodes(4);
    for algorithm in Algorithm::ALL {
        let report = run_tree(&tree, algorithm, &limits, &SearchOptions::default()).unwrap();
        assert_eq!(report.completion, Completion::LimitReached(Limit::Nodes));
        let limit_lines = report
            .trace
            .iter()
            .filter(|line| line.contains("limit reached: nodes"))
            .count();
        assert_eq!(limit_lines, 1, "{algorithm}: {:?}", report.trace);
        assert_eq!(report.to_json()["limit_reached"], "nodes");
    }
    let sss = run_tree(&tree, Algorithm::Sss, &limits, &SearchOptions::default()).unwrap();
    assert_eq!(
        sss.trace.last().unwrap(),
        "step 5: pop m/L/inf ; limit reached: nodes",
        "the step that hit the limit ends the trace"
    );
}

#[test]
fn partial_alphabeta_keeps_the_finished_root_moves() {
    let tree = load("aima-fig6-2");
    // A, B and its three leaves finish the first root move; C is cut off.
    let result = search(&tree, Algorithm::AlphaBeta, &Limits::none().with_nodes(6));
    assert_eq!(result.completion, Completion::LimitReached(Limit::Nodes));
    assert_eq!(result.value, Interval::new(Score::new(3), INFINITY));
    assert_eq!(result.best_move, tree.find("B"));
    let minimax = search(&tree, Algorithm::Minimax, &Limits::none().with_nodes(6));
    assert_eq!(minimax.value, Interval::new(Score::new(3), INFINITY));
}

#[test]
fn the_stop_flag_stops_every_backend() {
    let tree = load("course-sss");
    let stop = Arc::new(AtomicBool::new(true));
    for algorithm in Algorithm::ALL {
        let result = search(&tree, algorithm, &Limits::none().with_stop(stop.clone()));
        assert_eq!(
            result.completion,
            Completion::LimitReached(Limit::Stopped),
            "{algorithm}"
        );
        assert_eq!(result.stats.nodes(), 0);
    }
}

#[test]
fn sss_memory_cap_reports_an_upper_bound() {
    let tree = load("course-sss");
    let full = search(&tree, Algorithm::Sss, &Limits::none());
    // SSS* stores 19 of the 25 nodes: a b c d e l m h r s j v w f n o k x y.
    let roomy = search(
        &tree,
        Algorithm::Sss,
        &Limits::none().with_max_stored_nodes(19),
    );
    assert_eq!(roomy.completion, Completion::Finished);
    assert_eq!(roomy.value, full.value);
    for cap in [0, 1, 4, 12, 18] {
        let result = search(
            &tree,
            Algorithm::Sss,
            &Limits::none().with_max_stored_nodes(cap),
        );
        assert_eq!(
            result.completion,
            Completion::LimitReached(Limit::Memory),
            "cap {cap}"
        );
        assert!(
            result.value.hi >= Score::new(8),
            "the merit left is an upper bound: {:?}",
            result.value
        );
        assert_eq!(result.best_move, None);
    }
}

#[test]
fn bstar_memory_cap_stops_with_the_fallback_choice() {
    let tree = load("bstar-intro");
    // The root and its three children need 4 nodes.
    let none = search(
        &tree,
        Algorithm::BStar,
        &Limits::none().with_max_stored_nodes(3),
    );
    assert_eq!(none.completion, Completion::LimitReached(Limit::Memory));
    assert_eq!(none.best_move, None);
    // Root, then b (2 children): 6 nodes; a's expansion would need 8.
    let some = search(
        &tree,
        Algorithm::BStar,
        &Limits::none().with_max_stored_nodes(7),
    );
    assert_eq!(some.completion, Completion::LimitReached(Limit::Memory));
    let Details::BStar {
        stop, expansions, ..
    } = some.details
    else {
        panic!()
    };
    assert_eq!((stop, expansions), (BStarStop::Limit, 2));
    // a[4,20] b[2,9] c[0,8]: the highest lo wins.
    assert_eq!(some.best_move, tree.find("a"));
    assert_eq!(some.value, Interval::new(Score::new(4), Score::new(20)));
}

#[test]
fn bstar_node_limit_is_an_artificial_limit() {
    let tree = load("bstar-intro");
    let report = run_tree(
        &tree,
        Algorithm::BStar,
        &Limits::none().with_nodes(3),
        &SearchOptions::default(),
    )
    .unwrap();
    assert_eq!(report.expanded, ["root", "b", "a"]);
    let json = report.to_json();
    assert_eq!(json["bstar_stop"], "limit");
    assert_eq!(json["bstar_best"], "a");
    assert_eq!(
        json["value"],
        serde_json::Value::Null,
        "B* proved no exact value"
    );
    assert_eq!(report.trace.last().unwrap(), "stop limit best a");
}

#[test]
fn a_depth_horizon_makes_interior_nodes_leaves() {
    let tree = load("bstar-intro");
    let limits = Limits::none().with_depth(1);
    // a, b, c are evaluated at the middle of their intervals: 12, 9, 4.
    for algorithm in Algorithm::ALL.into_iter().filter(|a| a.is_exact()) {
        let result = search(&tree, algorithm, &limits);
        assert_eq!(result.value, Interval::point(Score::new(12)), "{algorithm}");
        assert_eq!(result.best_move, tree.find("a"), "{algorithm}");
        assert_eq!(result.stats.leaves, 3, "{algorithm}");
    }
    // B* cannot expand below the horizon, so it runs out of work.
    let bstar = search(&tree, Algorithm::BStar, &limits);
    let Details::BStar { stop, .. } = bstar.details else {
        panic!()
    };
    assert_eq!(stop, BStarStop::Exhausted);
    assert_eq!(bstar.best_move, tree.find("a"));
    assert_eq!(bstar.completion, Completion::Finished);
}

#[test]
fn bstar_is_exhausted_by_uncertain_leaves() {
    let tree = Tree::parse("(=[0,10] [1,5] u=[2,6] 0)").unwrap();
    let report = run_tree(
        &tree,
        Algorithm::BStar,
        &Limits::none(),
        &SearchOptions::default(),
    )
    .unwrap();
    assert_eq!(
        report.trace,
        [
            "expand root -> 1[1,5] u[2,6] 3[0,0]",
            "backup root [0,10] -> [2,6]",
            "root 1[1,5] u[2,6] 3[0,0]",
            "stop exhausted best u"
        ]
    );
}

#[test]
fn bstar_widening_goes_on_until_separation_survives() {
    let tree = load("bstar-intro");
    let options = SearchOptions {
        widen: Some(Score::new(5)),
        ..SearchOptions::default()
    };
    let report = run_tree(&tree, Algorithm::BStar, &Limits::none(), &options).unwrap();
    let at = |line: &str| {
        report
            .trace
            .iter()
            .position(|l| l == line)
            .unwrap_or_else(|| panic!("no '{line}' in {:#?}", report.trace))
    };
    // The first separation (a[12,12] against b[9,9]) is widened: c[0,8]
    // becomes [-5,13] and must be searched too.
    let widen = at("widen 5");
    assert_eq!(report.trace[widen - 1], "root a[12,12] b[9,9] c[0,8]");
    assert_eq!(report.trace[widen + 1], "restart");
    assert_eq!(report.trace[widen + 2], "root a[12,12] b[9,9] c[-5,13]");
    assert_eq!(report.trace.last().unwrap(), "stop separation best a");
    assert!(report.expanded.contains(&"c".to_string()));
    // A small widening leaves the separation standing.
    let small = SearchOptions {
        widen: Some(Score::new(1)),
        ..SearchOptions::default()
    };
    let report = run_tree(&tree, Algorithm::BStar, &Limits::none(), &small).unwrap();
    assert_eq!(
        report.trace[report.trace.len() - 2],
        "root a[12,12] b[9,9] c[-1,9]"
    );
    assert_eq!(report.expanded.len(), 7);
}
