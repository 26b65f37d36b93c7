//! Principal variations for the depth-first textbook backends, read off their trace
//! events (the backends themselves only return the best root move), and a tracer that
//! feeds two tracers at once.

use crate::search::{PassOutcome, Score, TraceEvent, Tracer};

/// Builds the principal variation as the search goes, the way engines keep a triangular
/// PV table: when a child's value improves on its parent's best so far (strictly, so the
/// left-most of equal children stays), the parent's line becomes that move followed by
/// the child's line. For MT-SSS* and MTD(f) it keeps the root line of the last pass
/// that failed high (the pass that found the best move); lines cut short by a stored
/// bound end there.
#[derive(Debug)]
pub(crate) struct PvCollector<M> {
    lines: Vec<Vec<M>>,
    best: Vec<Option<Score>>,
    passes: bool,
    last_fail_high: Vec<M>,
}

impl<M: Copy> PvCollector<M> {
    pub(crate) fn new() -> Self {
        PvCollector {
            lines: Vec::new(),
            best: Vec::new(),
            passes: false,
            last_fail_high: Vec::new(),
        }
    }

    /// The principal variation of the search just ended.
    pub(crate) fn line(&self) -> &[M] {
        if self.passes {
            &self.last_fail_high
        } else {
            self.lines.first().map_or(&[], Vec::as_slice)
        }
    }

    fn at(&mut self, ply: usize) {
        if self.lines.len() <= ply + 1 {
            self.lines.resize_with(ply + 2, Vec::new);
            self.best.resize(ply + 2, None);
        }
    }
}

impl<M: Copy> Tracer<M> for PvCollector<M> {
    fn event(&mut self, event: TraceEvent<M>) {
        match event {
            TraceEvent::Enter { ply, .. } => {
                let ply = ply as usize;
                self.at(ply);
                self.lines[ply].clear();
                self.best[ply] = None;
            }
            TraceEvent::ChildValue { ply, mv, value, .. } => {
                let ply = ply as usize;
                self.at(ply);
                // Values are from MAX's side: MAX moves at even plies.
                let better = self.best[ply].is_none_or(|best| {
                    if ply.is_multiple_of(2) {
                        value > best
                    } else {
                        value < best
                    }
                });
                if better {
                    self.best[ply] = Some(value);
                    let (parents, children) = self.lines.split_at_mut(ply + 1);
                    let line = &mut parents[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&children[0]);
                }
            }
            TraceEvent::PassEnd { outcome, .. } => {
                self.passes = true;
                if outcome == PassOutcome::FailedHigh {
                    self.last_fail_high.clear();
                    if let Some(root) = self.lines.first() {
                        self.last_fail_high.extend_from_slice(root);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Sends every event to both tracers. Enabled when either is.
pub(crate) struct Tee<'a, A, B>(pub(crate) &'a mut A, pub(crate) &'a mut B);

impl<M: Copy, A: Tracer<M>, B: Tracer<M>> Tracer<M> for Tee<'_, A, B> {
    const ENABLED: bool = A::ENABLED || B::ENABLED;

    #[inline]
    fn event(&mut self, event: TraceEvent<M>) {
        if A::ENABLED {
            self.0.event(event);
        }
        if B::ENABLED {
            self.1.event(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{AlphaBeta, Limits, Minimax, Search};
    use crate::tree::Tree;

    #[test]
    fn follows_the_best_line_of_a_textbook_tree() {
        // AIMA's tree: B is best (3), and its best reply is the left-most 3.
        let tree = Tree::parse("(A (B 3 12 8) (C 2 4 6) (D 14 5 2))").unwrap();
        for minimax in [true, false] {
            let mut game = tree.game();
            let mut pv = PvCollector::new();
            let limits = Limits::none();
            let result = if minimax {
                Minimax.search(&mut game, &limits, &mut pv)
            } else {
                AlphaBeta::default().search(&mut game, &limits, &mut pv)
            };
            assert_eq!(result.exact_value(), Some(Score::new(3)));
            assert_eq!(pv.line().len(), 2);
            assert_eq!(Some(pv.line()[0]), result.best_move);
        }
    }
}
