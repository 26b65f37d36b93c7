//! The compare view (`:compare [DEPTH]`): every backend on the current position at
//! depths 1..DEPTH, run on a thread of its own; the table of the deepest depth
//! and a chart of leaves per depth per backend fill in as the rows arrive.

use xiangqi_core::board::Position;
use xiangqi_engine::search::Algorithm;
use xiangqi_engine::study::{Problem, compare};

/// Depth of `:compare` without one.
pub const DEFAULT_DEPTH: u32 = 3;
/// Deepest `:compare` allowed: the OPEN-list SSS* takes long past it.
pub const MAX_DEPTH: u32 = 5;

/// What to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareRequest {
    pub position: Position,
    pub depth: u32,
}

/// One finished row, as the view keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareRowInfo {
    pub depth: u32,
    pub algorithm: Algorithm,
    pub leaves: u64,
    /// The table line of this row.
    pub line: String,
}

/// What the comparing thread reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompareUpdate {
    Row(CompareRowInfo),
    /// One depth is done: its checks, one line each.
    Checks {
        depth: u32,
        lines: Vec<String>,
    },
    Done,
    Failed(String),
}

/// The view's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompareView {
    pub shown: bool,
    pub running: bool,
    pub depth: u32,
    pub rows: Vec<CompareRowInfo>,
    pub checks: Vec<String>,
    pub error: Option<String>,
}

impl CompareView {
    /// Runs to go: one per backend and depth.
    pub fn total(&self) -> usize {
        self.depth as usize * Algorithm::ALL.len()
    }

    pub fn start(&mut self, depth: u32) {
        *self = CompareView {
            shown: true,
            running: true,
            depth,
            ..CompareView::default()
        };
    }

    pub fn apply(&mut self, update: CompareUpdate) {
        match update {
            CompareUpdate::Row(row) => self.rows.push(row),
            CompareUpdate::Checks { depth, lines } => {
                if depth == self.depth {
                    self.checks = lines;
                }
            }
            CompareUpdate::Done => self.running = false,
            CompareUpdate::Failed(message) => {
                self.running = false;
                self.error = Some(message);
            }
        }
    }

    /// The deepest depth with rows, and its table lines.
    pub fn table(&self) -> (u32, Vec<&str>) {
        let depth = self.rows.iter().map(|row| row.depth).max().unwrap_or(0);
        let lines = self
            .rows
            .iter()
            .filter(|row| row.depth == depth)
            .map(|row| row.line.as_str())
            .collect();
        (depth, lines)
    }

    /// Leaves per depth of one backend, for the chart.
    pub fn series(&self, algorithm: Algorithm) -> Vec<(u32, u64)> {
        self.rows
            .iter()
            .filter(|row| row.algorithm == algorithm)
            .map(|row| (row.depth, row.leaves))
            .collect()
    }
}

/// The work of the comparing thread: depths 1..=depth, each backend, `send`
/// after each row (false: nobody listens, stop).
pub fn run(request: &CompareRequest, send: &mut dyn FnMut(CompareUpdate) -> bool) {
    for depth in 1..=request.depth {
        let mut listening = true;
        let result = compare(
            Problem::Position(&request.position),
            Some(depth),
            &Algorithm::ALL,
            &mut |row| {
                let line = row.table_line();
                listening &= send(CompareUpdate::Row(CompareRowInfo {
                    depth,
                    algorithm: row.algorithm,
                    leaves: row.leaves,
                    line,
                }));
            },
        );
        match result {
            Ok(comparison) => {
                let lines = comparison
                    .checks
                    .iter()
                    .map(|c| {
                        let verdict = if c.holds { "holds" } else { "FAILS" };
                        format!("{verdict}: {} ({})", c.name, c.detail)
                    })
                    .collect();
                listening &= send(CompareUpdate::Checks { depth, lines });
            }
            Err(error) => {
                send(CompareUpdate::Failed(error.to_string()));
                return;
            }
        }
        if !listening {
            return;
        }
    }
    send(CompareUpdate::Done);
}

/// A row as the view shows it, with no time: for tests and for rows told by hand.
pub fn compare_view_row(depth: u32, algorithm: Algorithm, leaves: u64) -> CompareRowInfo {
    CompareRowInfo {
        depth,
        algorithm,
        leaves,
        line: format!(
            "{:<9} {:>8} {:>6} {:>8}",
            algorithm.as_str(),
            "-",
            "-",
            leaves
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_reports_every_row_then_the_checks_then_done() {
        let request = CompareRequest {
            position: Position::from_fen("4k4/9/9/9/9/9/9/2H6/R3C4/4K4 w - - 0 1").unwrap(),
            depth: 1,
        };
        let mut view = CompareView::default();
        view.start(1);
        run(&request, &mut |update| {
            view.apply(update);
            true
        });
        assert!(!view.running);
        assert_eq!(view.rows.len(), Algorithm::ALL.len());
        assert_eq!(view.table().0, 1);
        assert!(
            view.checks.iter().all(|line| line.starts_with("holds")),
            "{:?}",
            view.checks
        );
        assert_eq!(view.series(Algorithm::Minimax).len(), 1);
    }
}
