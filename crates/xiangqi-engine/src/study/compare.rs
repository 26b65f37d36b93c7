//! `compare`: every backend on the same problem (same move order, same depth),
//! one row each, and the classic results checked on the rows.
//!
//! The searches walk the game *tree*: a node is its move path, and MT-SSS* and
//! MTD(f) key their table by that path, so transpositions are not merged.
//! Stockman's and Plaat's theorems are about trees; on a graph a table hit
//! could skip a leaf SSS* evaluates. No other backend gets a table.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde_json::{Value, json};

use crate::engine::position_game::PositionGame;
use crate::engine::probe::{ProbeSettings, Prober};
use crate::engine::score::from_search;
use crate::engine::{PositionNames, Verdict};
use crate::search::{
    Algorithm, Backend, Completion, Details, Game, INFINITY, Interval, IntervalGame, Limits,
    NodeId, Score, Search, SearchOptions, SearchResult, TraceEvent, Tracer,
};
use crate::tree::{Tree, TreeError};
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::notation::Notation;

/// B*'s expansion budget in a comparison (it proves a best move, not a value).
pub const BSTAR_EXPANSIONS: u64 = 300;

/// What is compared: a position (to a depth) or a textbook tree.
#[derive(Clone, Copy, Debug)]
pub enum Problem<'a> {
    Position(&'a Position),
    Tree(&'a Tree),
}

/// A row's value, in the problem's own units: a position's from Red's view, like every
/// score shown; a tree's from its MAX player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowValue {
    /// Centipawns, or a tree's leaf units.
    Plain(i32),
    /// Red mates in N moves (negative: Black mates in -N).
    Mate(i32),
    /// The search did not prove a value.
    Unknown,
}

/// The compare table's columns: name and width (`<` left-aligned).
const COLUMNS: [(&str, usize); 7] = [
    ("algorithm", 9),
    ("value", 8),
    ("best", 6),
    ("leaves", 8),
    ("interior", 8),
    ("peak-mem", 9),
    ("seconds", 7),
];

/// The header of the table's lines ([`Row::table_line`]).
pub fn table_header() -> String {
    let cells = COLUMNS.map(|(name, _)| name.to_owned());
    table_line(&cells)
}

fn table_line(cells: &[String; 7]) -> String {
    let mut line = format!("{:<1$}", cells[0], COLUMNS[0].1);
    for (cell, (_, width)) in cells.iter().zip(COLUMNS).skip(1) {
        line.push_str(&format!(" {cell:>width$}"));
    }
    line
}

impl RowValue {
    fn to_json(self) -> Value {
        match self {
            RowValue::Plain(v) => json!(v),
            RowValue::Mate(n) => json!(format!("mate {n}")),
            RowValue::Unknown => Value::Null,
        }
    }
}

impl std::fmt::Display for RowValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowValue::Plain(v) => write!(f, "{v}"),
            RowValue::Mate(n) => write!(f, "mate {n}"),
            RowValue::Unknown => f.write_str("-"),
        }
    }
}

/// One backend's run.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub algorithm: Algorithm,
    pub value: RowValue,
    /// ICCS for positions, the child's label for trees.
    pub best_move: Option<String>,
    /// Static evaluations (B*: interval estimates).
    pub leaves: u64,
    pub interior: u64,
    /// Entries of the backend's own structures at their largest: stack frames
    /// (minimax, alpha-beta), OPEN descriptors (SSS*), table entries in use
    /// (MT-SSS*, MTD(f)), stored nodes (B*).
    pub peak_memory: u64,
    pub seconds: f64,
    /// Distinct leaves in order of first evaluation.
    pub leaf_order: Vec<NodeId>,
    pub finished: bool,
}

impl Row {
    /// The row as a line of the table under [`table_header`].
    pub fn table_line(&self) -> String {
        table_line(&[
            self.algorithm.as_str().to_owned(),
            self.value.to_string(),
            self.best_move.clone().unwrap_or_else(|| "-".to_owned()),
            self.leaves.to_string(),
            self.interior.to_string(),
            self.peak_memory.to_string(),
            format!("{:.3}", self.seconds),
        ])
    }
}

/// A classic result, checked on the rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub name: String,
    pub holds: bool,
    pub detail: String,
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub depth: u32,
    /// The values are a position's, from Red's view (else a tree's MAX player's).
    pub red_view: bool,
    pub rows: Vec<Row>,
    pub checks: Vec<Check>,
}

impl Comparison {
    /// The `--json` object: `{"depth", "rows": [...], "checks": [...]}`.
    pub fn to_json(&self) -> Value {
        let rows: Vec<Value> = self
            .rows
            .iter()
            .map(|row| {
                json!({
                    "algorithm": row.algorithm.as_str(),
                    "value": row.value.to_json(),
                    "best_move": row.best_move,
                    "leaves": row.leaves,
                    "interior": row.interior,
                    "peak_memory": row.peak_memory,
                    "seconds": (row.seconds * 1e6).round() / 1e6,
                })
            })
            .collect();
        let checks: Vec<Value> = self
            .checks
            .iter()
            .map(|c| json!({"name": c.name, "holds": c.holds, "detail": c.detail}))
            .collect();
        let values = if self.red_view { "red" } else { "max" };
        json!({"depth": self.depth, "values": values, "rows": rows, "checks": checks})
    }

    /// The plain table and the checks, one line each.
    pub fn lines(&self) -> Vec<String> {
        let values = if self.red_view {
            "values in centipawns from Red's view"
        } else {
            "values from the tree's MAX player's view"
        };
        let mut lines = vec![format!("depth {}, {values}", self.depth), table_header()];
        lines.extend(self.rows.iter().map(Row::table_line));
        for check in &self.checks {
            let verdict = if check.holds { "holds" } else { "FAILS" };
            lines.push(format!("{verdict}: {} ({})", check.name, check.detail));
        }
        lines
    }

    pub fn row(&self, algorithm: Algorithm) -> Option<&Row> {
        self.rows.iter().find(|row| row.algorithm == algorithm)
    }
}

/// Why a comparison cannot run.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("depth must be at least 1")]
    ZeroDepth,
    #[error("{0}")]
    Tree(#[from] TreeError),
}

/// Collects the distinct leaves and the deepest ply, nothing else: with
/// `ENABLED` false the backends skip their trace-only work (OPEN snapshots).
#[derive(Default)]
struct LeafTracer {
    seen: HashSet<NodeId>,
    order: Vec<NodeId>,
    deepest: u32,
}

impl<M> Tracer<M> for LeafTracer {
    const ENABLED: bool = false;

    fn event(&mut self, event: TraceEvent<M>) {
        if let TraceEvent::Leaf { node, ply, .. } = event {
            self.deepest = self.deepest.max(ply);
            if self.seen.insert(node) {
                self.order.push(node);
            }
        }
    }
}

/// A game whose table key is its node id (the move path): a tree, not a graph.
struct PathKeyed<G>(G);

impl<G: Game> Game for PathKeyed<G> {
    type Move = G::Move;

    fn moves(&self, out: &mut Vec<G::Move>) {
        self.0.moves(out)
    }
    fn play(&mut self, mv: G::Move) {
        self.0.play(mv)
    }
    fn undo(&mut self, mv: G::Move) {
        self.0.undo(mv)
    }
    fn evaluate(&self) -> Score {
        self.0.evaluate()
    }
    fn outcome(&self) -> Option<Score> {
        self.0.outcome()
    }
    fn key(&self) -> u64 {
        self.0.node_id().0
    }
    fn node_id(&self) -> NodeId {
        self.0.node_id()
    }
}

impl<G: IntervalGame> IntervalGame for PathKeyed<G> {
    fn interval(&mut self) -> Interval {
        self.0.interval()
    }
}

/// The height of a tree: its deepest node's depth.
pub fn tree_height(tree: &Tree) -> u32 {
    (0..tree.len() as u32)
        .map(|node| tree.depth(node))
        .max()
        .unwrap_or(0)
}

/// Runs `algorithms` on `problem` to `depth` (a tree's whole height when
/// `None`); `progress` sees each row as it is done.
pub fn compare(
    problem: Problem<'_>,
    depth: Option<u32>,
    algorithms: &[Algorithm],
    progress: &mut dyn FnMut(&Row),
) -> Result<Comparison, CompareError> {
    if depth == Some(0) {
        return Err(CompareError::ZeroDepth);
    }
    let shown_depth = match (depth, problem) {
        (Some(depth), _) => depth,
        (None, Problem::Tree(tree)) => tree_height(tree),
        (None, Problem::Position(_)) => 3,
    };
    let depth = match problem {
        Problem::Position(_) => Some(shown_depth),
        Problem::Tree(_) => depth,
    };
    if let Problem::Tree(tree) = problem {
        for &algorithm in algorithms {
            tree.check_algorithm(algorithm)?;
        }
    }
    // One book of deep node names for every run, so that a path has the same id in
    // every backend's leaves (paths up to 4 plies need no book).
    let names = match problem {
        Problem::Position(pos) => Some(PositionNames::new(pos, Notation::Iccs)),
        Problem::Tree(_) => None,
    };
    // The MT table gets room for many times the nodes alpha-beta visits, so
    // that (as the theorem assumes) no entry is lost.
    let table_entries = if algorithms
        .iter()
        .any(|a| matches!(a, Algorithm::MtSss | Algorithm::Mtdf))
    {
        let nodes =
            run_one(problem, Algorithm::AlphaBeta, depth, 0, names.as_ref()).leaves * 2 + 64;
        (nodes.saturating_mul(16) as usize).clamp(1 << 10, 1 << 22)
    } else {
        0
    };
    let mut rows = Vec::new();
    for &algorithm in algorithms {
        let row = run_one(problem, algorithm, depth, table_entries, names.as_ref());
        progress(&row);
        rows.push(row);
    }
    let checks = checks(&rows);
    Ok(Comparison {
        depth: shown_depth,
        red_view: matches!(problem, Problem::Position(_)),
        rows,
        checks,
    })
}

fn run_one(
    problem: Problem<'_>,
    algorithm: Algorithm,
    depth: Option<u32>,
    table: usize,
    names: Option<&PositionNames>,
) -> Row {
    let limits = Limits {
        depth,
        nodes: (algorithm == Algorithm::BStar).then_some(BSTAR_EXPANSIONS),
        ..Limits::default()
    };
    match problem {
        Problem::Tree(tree) => {
            let mut game = PathKeyed(tree.game());
            let (result, row) = run_game(&mut game, algorithm, &limits, table);
            finish_row(
                row,
                &result,
                |v| RowValue::Plain(v.get()),
                |child| tree.label(child).to_string(),
            )
        }
        Problem::Position(pos) => {
            let mut inner = match names {
                Some(names) => PositionGame::with_names(pos, names),
                None => PositionGame::new(pos),
            };
            if algorithm == Algorithm::BStar {
                let settings = ProbeSettings::default();
                let mut prober = Prober::new(settings);
                prober.start(settings, Arc::new(AtomicBool::new(false)));
                inner.prober = Some(prober);
            }
            let mut game = PathKeyed(inner);
            let (result, row) = run_game(&mut game, algorithm, &limits, table);
            let side = pos.side_to_move();
            finish_row(
                row,
                &result,
                |value| position_value(value, side),
                |mv: Move| mv.iccs(),
            )
        }
    }
}

/// A position's MAX-view score (for `side` to move) from Red's view: centipawns, or
/// "mate N".
fn position_value(value: Score, side: Color) -> RowValue {
    match Verdict::from_score(from_search(value)).red_view(side) {
        Verdict::Centipawns(cp) => RowValue::Plain(cp),
        Verdict::Mate(n) => RowValue::Mate(n),
    }
}

fn finish_row<M>(
    mut row: Row,
    result: &SearchResult<M>,
    value: impl Fn(Score) -> RowValue,
    name: impl Fn(M) -> String,
) -> Row
where
    M: Copy,
{
    row.value = match (row.algorithm, result.exact_value()) {
        (Algorithm::BStar, _) if result.value.lo > -INFINITY => value(result.value.lo),
        (_, Some(v)) if row.finished => value(v),
        _ => RowValue::Unknown,
    };
    row.best_move = result.best_move.map(name);
    row
}

fn run_game<G: IntervalGame>(
    game: &mut G,
    algorithm: Algorithm,
    limits: &Limits,
    table: usize,
) -> (SearchResult<G::Move>, Row) {
    let mut tracer = LeafTracer::default();
    let start = Instant::now();
    let options = SearchOptions {
        table_entries: table,
        // MTD(f) starts from the static value of the root.
        first_guess: if algorithm == Algorithm::Mtdf {
            game.evaluate()
        } else {
            Score::ZERO
        },
        ..SearchOptions::default()
    };
    let mut backend = Backend::new(algorithm, &options);
    let result = backend.search(game, limits, &mut tracer);
    let memory = backend.table_occupied().map(|entries| entries as u64);
    let seconds = start.elapsed().as_secs_f64();
    let peak_memory = memory.unwrap_or(match (&result.details, algorithm) {
        (Details::Sss { max_open, .. }, _) => *max_open as u64,
        (_, Algorithm::BStar) => result.stats.leaves + 1,
        _ => u64::from(tracer.deepest) + 1,
    });
    let row = Row {
        algorithm,
        value: RowValue::Unknown,
        best_move: None,
        leaves: result.stats.leaves,
        interior: result.stats.interior,
        peak_memory,
        seconds,
        leaf_order: tracer.order,
        finished: result.completion == Completion::Finished,
    };
    (result, row)
}

/// The classic results, each on the rows it needs.
pub fn checks(rows: &[Row]) -> Vec<Check> {
    let mut checks = Vec::new();
    let exact: Vec<&Row> = rows.iter().filter(|r| r.algorithm.is_exact()).collect();
    if exact.len() >= 2 {
        let first = exact[0].value;
        let holds = exact.iter().all(|r| r.value == first && r.finished);
        let detail: Vec<String> = exact
            .iter()
            .map(|r| format!("{} {}", r.algorithm.as_str(), r.value))
            .collect();
        checks.push(Check {
            name: "every exact backend returns the same value".into(),
            holds,
            detail: detail.join(", "),
        });
    }
    let find = |a: Algorithm| rows.iter().find(|r| r.algorithm == a);
    if let (Some(sss), Some(ab)) = (find(Algorithm::Sss), find(Algorithm::AlphaBeta)) {
        let ab_set: HashSet<NodeId> = ab.leaf_order.iter().copied().collect();
        let outside = sss
            .leaf_order
            .iter()
            .filter(|leaf| !ab_set.contains(leaf))
            .count();
        checks.push(Check {
            name: "SSS* evaluates no leaf that alpha-beta skips (Stockman)".into(),
            holds: outside == 0,
            detail: format!(
                "{} of sss's {} leaves are outside alphabeta's {}",
                outside,
                sss.leaf_order.len(),
                ab.leaf_order.len()
            ),
        });
        checks.push(Check {
            name: "SSS* never evaluates more leaves than alpha-beta".into(),
            holds: sss.leaves <= ab.leaves,
            detail: format!("sss {} <= alphabeta {}", sss.leaves, ab.leaves),
        });
    }
    if let (Some(mt), Some(sss)) = (find(Algorithm::MtSss), find(Algorithm::Sss)) {
        let same = mt.leaf_order == sss.leaf_order;
        let first_difference = mt
            .leaf_order
            .iter()
            .zip(&sss.leaf_order)
            .position(|(a, b)| a != b)
            .unwrap_or(mt.leaf_order.len().min(sss.leaf_order.len()));
        checks.push(Check {
            name: "MT-SSS* evaluates the same leaves as SSS*, in the same order (Plaat et al.)"
                .into(),
            holds: same,
            detail: if same {
                format!("{} leaves each", sss.leaf_order.len())
            } else {
                format!(
                    "mtsss {} leaves, sss {}, first difference at leaf {}",
                    mt.leaf_order.len(),
                    sss.leaf_order.len(),
                    first_difference + 1
                )
            },
        });
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_course_tree_shows_sss_saving_two_leaves() {
        let tree = Tree::parse(
            "(a (b (e l=9 m=3) (f n=7 o=2) (g p=4 q=6)) (c (h r=3 s=2) (i t=5 u=1)) (d (j v=3 w=8) (k x=5 y=9)))",
        )
        .unwrap();
        let comparison = compare(
            Problem::Tree(&tree),
            None,
            &[Algorithm::AlphaBeta, Algorithm::Sss, Algorithm::MtSss],
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(comparison.depth, 3);
        assert_eq!(comparison.row(Algorithm::Sss).unwrap().leaves, 10);
        assert_eq!(comparison.row(Algorithm::AlphaBeta).unwrap().leaves, 12);
        assert_eq!(comparison.row(Algorithm::Sss).unwrap().peak_memory, 6);
        assert_eq!(
            comparison.row(Algorithm::Sss).unwrap().best_move.as_deref(),
            Some("d")
        );
        assert!(
            comparison.checks.iter().all(|c| c.holds),
            "{:?}",
            comparison.checks
        );
        assert_eq!(comparison.checks.len(), 4);
    }

    #[test]
    fn depth_zero_is_refused() {
        let tree = Tree::parse("(1 2)").unwrap();
        let error = compare(Problem::Tree(&tree), Some(0), &Algorithm::ALL, &mut |_| {});
        assert_eq!(error.unwrap_err().to_string(), "depth must be at least 1");
    }
}
