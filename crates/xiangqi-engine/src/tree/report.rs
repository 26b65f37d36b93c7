//! Running one backend on a tree and reporting the results under the keys of
//! the `.expected` files (§2.2): the `tree` command's output.

use serde_json::{Map, Value, json};

use crate::search::{
    Algorithm, Backend, Completion, Details, Interval, Limits, NodeNames, Recorder, Search,
    SearchOptions, SearchStats, trace_lines,
};
use crate::tree::{NodeIndex, Tree, TreeError};

/// What one algorithm found on one tree, with nodes given by their labels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeReport {
    pub algorithm: Algorithm,
    /// The root value, MAX's view: a point when proven.
    pub value: Interval,
    pub best_move: Option<String>,
    /// Distinct leaves evaluated, in order of first evaluation.
    pub leaves: Vec<String>,
    pub stats: SearchStats,
    pub details: Details,
    /// B*'s expanded nodes, in order.
    pub expanded: Vec<String>,
    pub completion: Completion,
    /// The trace as text lines (§2.3).
    pub trace: Vec<String>,
}

/// Searches `tree` with `algorithm`, recording its trace.
/// Table entries that make losing an entry to a full bucket vanishingly unlikely for
/// this tree (MT-SSS* matches SSS* leaf for leaf only with enough memory): about 16
/// buckets of 4 slots per node, so a bucket overflows with odds near 1e-8.
pub fn exact_table_entries(tree: &Tree) -> usize {
    tree.len().saturating_mul(64).next_power_of_two()
}

pub fn run_tree(
    tree: &Tree,
    algorithm: Algorithm,
    limits: &Limits,
    options: &SearchOptions,
) -> Result<TreeReport, TreeError> {
    tree.check_algorithm(algorithm)?;
    let mut game = tree.game();
    let mut recorder = Recorder::new();
    let options = SearchOptions {
        table_entries: options.table_entries.max(exact_table_entries(tree)),
        ..*options
    };
    let result = Backend::new(algorithm, &options).search(&mut game, limits, &mut recorder);
    let labels = |nodes: Vec<crate::search::NodeId>| -> Vec<String> {
        nodes
            .into_iter()
            .map(|node| NodeNames::label(tree, node).into_owned())
            .collect()
    };
    Ok(TreeReport {
        algorithm,
        value: result.value,
        best_move: result
            .best_move
            .map(|child: NodeIndex| Tree::label(tree, child).to_string()),
        leaves: labels(recorder.distinct_leaves()),
        stats: result.stats,
        details: result.details,
        expanded: labels(recorder.expanded()),
        completion: result.completion,
        trace: trace_lines(tree, &recorder.events),
    })
}

impl TreeReport {
    /// The JSON object of the `tree` command: the `.expected` keys of this
    /// algorithm with spaces turned into underscores.
    pub fn to_json(&self) -> Value {
        let mut object = Map::new();
        object.insert("value".into(), json!(self.value.exact()));
        object.insert("best_move".into(), json!(self.best_move));
        let prefix = self.algorithm.as_str();
        let key = |suffix: &str| format!("{prefix}_{suffix}");
        match (&self.details, self.algorithm) {
            (_, Algorithm::Minimax) => {
                object.insert(key("leaves"), json!(self.stats.leaves));
                object.insert(key("interior"), json!(self.stats.interior));
            }
            (_, Algorithm::AlphaBeta) => {
                object.insert(key("leaves"), json!(self.leaves));
                object.insert(key("leaf_count"), json!(self.stats.leaves));
                object.insert(key("interior"), json!(self.stats.interior));
            }
            (Details::Sss { steps, max_open }, _) => {
                object.insert(key("leaves"), json!(self.leaves));
                object.insert(key("leaf_count"), json!(self.stats.leaves));
                object.insert(key("interior"), json!(self.stats.interior));
                object.insert(key("steps"), json!(steps));
                object.insert(key("max_open"), json!(max_open));
            }
            (Details::Mt { passes }, _) => {
                object.insert(key("leaves"), json!(self.leaves));
                object.insert(key("passes"), json!(passes));
            }
            (
                Details::BStar {
                    stop,
                    expansions,
                    strategies,
                },
                _,
            ) => {
                object.insert(key("best"), json!(self.best_move));
                object.insert(key("stop"), json!(stop.name()));
                object.insert(key("expansions"), json!(expansions));
                object.insert(key("expanded"), json!(self.expanded));
                let letters: Vec<String> =
                    strategies.iter().map(|s| s.letter().to_string()).collect();
                object.insert(key("strategies"), json!(letters));
                object.insert(key("interval"), json!([self.value.lo, self.value.hi]));
            }
            (Details::None, _) => {}
        }
        if let Completion::LimitReached(limit) = self.completion {
            object.insert("limit_reached".into(), json!(limit.name()));
        }
        Value::Object(object)
    }

    /// The plain `key: value` lines of the `tree` command.
    pub fn plain_lines(&self) -> Vec<String> {
        let mut lines = vec![format!("algorithm: {}", self.algorithm)];
        if let Completion::LimitReached(limit) = self.completion {
            lines.push(format!("limit reached: {}", limit.name()));
        }
        match self.value.exact() {
            Some(value) => lines.push(format!("value: {value}")),
            None => lines.push(format!("value: unknown, within {}", self.value)),
        }
        lines.push(format!(
            "best move: {}",
            self.best_move.as_deref().unwrap_or("-")
        ));
        let list = |items: &[String]| {
            if items.is_empty() {
                "-".to_string()
            } else {
                items.join(" ")
            }
        };
        if let Details::BStar {
            stop,
            expansions,
            strategies,
        } = &self.details
        {
            lines.push(format!("interval: {}", self.value));
            lines.push(format!("stop: {}", stop.name()));
            lines.push(format!("expansions: {expansions}"));
            lines.push(format!("expanded: {}", list(&self.expanded)));
            let letters: Vec<String> = strategies.iter().map(|s| s.letter().to_string()).collect();
            lines.push(format!("strategies: {}", list(&letters)));
            return lines;
        }
        lines.push(format!("leaves: {}", list(&self.leaves)));
        lines.push(format!("leaf count: {}", self.stats.leaves));
        lines.push(format!("interior: {}", self.stats.interior));
        match self.details {
            Details::Sss { steps, max_open } => {
                lines.push(format!("steps: {steps}"));
                lines.push(format!("max open: {max_open}"));
            }
            Details::Mt { passes } => lines.push(format!("passes: {passes}")),
            _ => {}
        }
        lines
    }
}
