//! Plain minimax (§3), written once for both players in negamax form.

use crate::search::Search;
use crate::search::game::{Game, NodeId};
use crate::search::limits::{Budget, Limits, SearchResult, SearchStats};
use crate::search::score::{INFINITY, Score, max_view};
use crate::search::trace::{BoundKind, Limit, TraceEvent, Tracer};

/// Visits every node; the reference the other backends must agree with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Minimax;

impl<G: Game> Search<G> for Minimax {
    fn search<T: Tracer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        let mut walk = Walk {
            game,
            tracer,
            limits,
            budget: Budget::new(limits),
            stats: SearchStats::default(),
            stopped: None,
            root_best: None,
            move_lists: Vec::new(),
        };
        let value = walk.value(0);
        SearchResult::depth_first(
            value,
            walk.root_best.map(|(_, mv)| mv),
            walk.stopped,
            walk.root_best,
            walk.stats,
        )
    }
}

struct Walk<'a, G: Game, T> {
    game: &'a mut G,
    tracer: &'a mut T,
    limits: &'a Limits,
    budget: Budget,
    stats: SearchStats,
    stopped: Option<Limit>,
    /// Best value and move among the root children finished so far.
    root_best: Option<(Score, G::Move)>,
    /// One reusable move list per ply.
    move_lists: Vec<Vec<G::Move>>,
}

impl<G: Game, T: Tracer<G::Move>> Walk<'_, G, T> {
    fn stop(&mut self, limit: Limit) -> Score {
        self.stopped = Some(limit);
        self.tracer.event(TraceEvent::LimitReached { limit });
        Score::ZERO
    }

    /// The negamax value of the current node; 0 once stopped.
    fn value(&mut self, ply: u32) -> Score {
        let node = self.game.node_id();
        self.tracer.event(TraceEvent::Enter {
            node,
            ply,
            alpha: -INFINITY,
            beta: INFINITY,
        });
        let terminal = self.game.outcome();
        if self.move_lists.len() <= ply as usize {
            self.move_lists.resize_with(ply as usize + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply as usize]);
        moves.clear();
        if terminal.is_none() && !self.limits.at_horizon(ply) {
            self.game.moves(&mut moves);
        }
        let value = self.value_with(ply, node, terminal, &moves);
        self.move_lists[ply as usize] = moves;
        value
    }

    fn value_with(
        &mut self,
        ply: u32,
        node: NodeId,
        terminal: Option<Score>,
        moves: &[G::Move],
    ) -> Score {
        if let Err(limit) = self.budget.charge() {
            return self.stop(limit);
        }
        if terminal.is_some() || moves.is_empty() {
            let value = terminal.unwrap_or_else(|| self.game.evaluate());
            self.stats.leaves += 1;
            self.tracer.event(TraceEvent::Leaf {
                node,
                ply,
                value: max_view(value, ply),
            });
            self.tracer.event(TraceEvent::Exit {
                node,
                ply,
                value: max_view(value, ply),
                kind: BoundKind::Exact,
                best: None,
            });
            return value;
        }
        self.stats.interior += 1;
        let mut best = -INFINITY;
        let mut best_k = None;
        for (index, &mv) in moves.iter().enumerate() {
            let k = index as u32 + 1;
            self.game.play(mv);
            let child = self.game.node_id();
            let value = -self.value(ply + 1);
            self.game.undo(mv);
            if self.stopped.is_some() {
                return Score::ZERO;
            }
            self.tracer.event(TraceEvent::ChildValue {
                node,
                ply,
                k,
                mv,
                child,
                value: max_view(value, ply),
            });
            // Strictly better only: ties keep the left-most child.
            if value > best {
                best = value;
                best_k = Some(k);
                self.tracer.event(TraceEvent::NewBest {
                    node,
                    ply,
                    k,
                    value: max_view(value, ply),
                });
                if ply == 0 {
                    self.root_best = Some((value, mv));
                }
            }
        }
        self.tracer.event(TraceEvent::Exit {
            node,
            ply,
            value: max_view(best, ply),
            kind: BoundKind::Exact,
            best: best_k,
        });
        best
    }
}
