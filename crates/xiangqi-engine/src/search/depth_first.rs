//! The depth-first alpha-beta core shared by the `alphabeta` backend and the
//! MT passes of MT-SSS* and MTD(f). Negamax inside; trace events are turned to
//! MAX's point of view on the way out.

use crate::search::game::{Game, NodeId};
use crate::search::limits::{Budget, Limits, SearchStats};
use crate::search::score::{INFINITY, Score, max_view};
use crate::search::trace::{BoundKind, Limit, TraceEvent, Tracer};
use crate::search::tt::TranspositionTable;

/// How values outside the window are returned (§4.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bounding {
    /// Return the best value found, which may lie outside the window. Required
    /// whenever results are stored and reused.
    #[default]
    FailSoft,
    /// Clamp interior results to the window: the textbook form of the `.ab-trace` files.
    FailHard,
}

pub(crate) struct DepthFirst<'a, G: Game, T> {
    game: &'a mut G,
    tracer: &'a mut T,
    limits: &'a Limits,
    budget: Budget,
    bounding: Bounding,
    table: Option<&'a mut TranspositionTable<G::Move>>,
    move_lists: Vec<Vec<G::Move>>,
    pub(crate) stats: SearchStats,
    pub(crate) stopped: Option<Limit>,
    /// The root move that supplied the root's last returned value.
    pub(crate) root_best: Option<G::Move>,
    /// Best exact value and move among the root children finished so far, for
    /// a search that is stopped part way.
    pub(crate) root_progress: Option<(Score, G::Move)>,
}

impl<'a, G: Game, T: Tracer<G::Move>> DepthFirst<'a, G, T> {
    pub(crate) fn new(
        game: &'a mut G,
        tracer: &'a mut T,
        limits: &'a Limits,
        bounding: Bounding,
        table: Option<&'a mut TranspositionTable<G::Move>>,
    ) -> Self {
        debug_assert!(
            table.is_none() || bounding == Bounding::FailSoft,
            "stored bounds need fail-soft values"
        );
        DepthFirst {
            game,
            tracer,
            limits,
            budget: Budget::new(limits),
            bounding,
            table,
            move_lists: Vec::new(),
            stats: SearchStats::default(),
            stopped: None,
            root_best: None,
            root_progress: None,
        }
    }

    pub(crate) fn tracer(&mut self) -> &mut T {
        self.tracer
    }

    fn stop(&mut self, limit: Limit) {
        if self.stopped.is_none() {
            self.stopped = Some(limit);
            self.tracer.event(TraceEvent::LimitReached { limit });
        }
    }

    fn draft(&self, ply: u32) -> u32 {
        self.limits
            .depth
            .map_or(u32::MAX, |depth| depth.saturating_sub(ply))
    }

    fn exit(
        &mut self,
        node: NodeId,
        ply: u32,
        value: Score,
        window: (Score, Score),
        best: Option<u32>,
    ) {
        if T::ENABLED {
            let mover_kind = if value <= window.0 {
                BoundKind::Upper
            } else if value >= window.1 {
                BoundKind::Lower
            } else {
                BoundKind::Exact
            };
            // MAX's lower bound is MIN's upper bound.
            let kind = match (mover_kind, ply % 2) {
                (BoundKind::Upper, 1) => BoundKind::Lower,
                (BoundKind::Lower, 1) => BoundKind::Upper,
                (kind, _) => kind,
            };
            self.tracer.event(TraceEvent::Exit {
                node,
                ply,
                value: max_view(value, ply),
                kind,
                best,
            });
        }
    }

    fn raised(&mut self, node: NodeId, ply: u32, alpha: Score) {
        // A negamax alpha at a MIN node is MAX's beta.
        let event = if ply.is_multiple_of(2) {
            TraceEvent::AlphaRaised { node, ply, alpha }
        } else {
            TraceEvent::BetaLowered {
                node,
                ply,
                beta: -alpha,
            }
        };
        self.tracer.event(event);
    }

    fn bounds_event(ply: u32, lower: Score, upper: Score) -> (Score, Score) {
        if ply.is_multiple_of(2) {
            (lower, upper)
        } else {
            (-upper, -lower)
        }
    }

    /// Alpha-beta from the current node with window `(alpha, beta)`, negamax:
    /// the result is from the side to move. With a table this is Plaat's
    /// alpha-beta with memory (§6.1). Returns 0 once a limit has stopped it;
    /// callers check `stopped`.
    pub(crate) fn search(&mut self, ply: u32, alpha: Score, beta: Score) -> Score {
        if self.stopped.is_some() {
            return Score::ZERO;
        }
        let node = self.game.node_id();
        if T::ENABLED {
            let (alpha_max, beta_max) = Self::bounds_event(ply, alpha, beta);
            self.tracer.event(TraceEvent::Enter {
                node,
                ply,
                alpha: alpha_max,
                beta: beta_max,
            });
        }
        let window = (alpha, beta);
        let (mut alpha, mut beta) = (alpha, beta);
        let key = self.game.key();
        let draft = self.draft(ply);

        if let Some(table) = self.table.as_deref_mut() {
            let entry = table.probe(key, draft).copied();
            if T::ENABLED {
                let (lower, upper) = entry.map_or((-INFINITY, INFINITY), |e| (e.lower, e.upper));
                let (lower, upper) = Self::bounds_event(ply, lower, upper);
                self.tracer.event(TraceEvent::TtProbe {
                    node,
                    ply,
                    hit: entry.is_some(),
                    lower,
                    upper,
                });
            }
            if let Some(entry) = entry {
                let answer = if entry.lower >= beta || entry.lower == entry.upper {
                    Some(entry.lower)
                } else if entry.upper <= alpha {
                    Some(entry.upper)
                } else {
                    None
                };
                if let Some(value) = answer {
                    if T::ENABLED {
                        let (lower, upper) = Self::bounds_event(ply, entry.lower, entry.upper);
                        self.tracer.event(TraceEvent::TtHitCut {
                            node,
                            ply,
                            lower,
                            upper,
                        });
                    }
                    self.exit(node, ply, value, window, None);
                    return value;
                }
                alpha = alpha.max(entry.lower);
                beta = beta.min(entry.upper);
            }
        }

        if self.move_lists.len() <= ply as usize {
            self.move_lists.resize_with(ply as usize + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.move_lists[ply as usize]);
        moves.clear();
        let terminal = self.game.outcome();
        if terminal.is_none() && !self.limits.at_horizon(ply) {
            self.game.moves(&mut moves);
        }

        if terminal.is_some() || moves.is_empty() {
            self.move_lists[ply as usize] = moves;
            if let Err(limit) = self.budget.charge() {
                self.stop(limit);
                return Score::ZERO;
            }
            let value = terminal.unwrap_or_else(|| self.game.evaluate());
            self.stats.leaves += 1;
            self.tracer.event(TraceEvent::Leaf {
                node,
                ply,
                value: max_view(value, ply),
            });
            self.store(node, ply, key, draft, (Some(value), Some(value)), None);
            self.exit(node, ply, value, window, None);
            return value;
        }

        if let Err(limit) = self.budget.charge() {
            self.move_lists[ply as usize] = moves;
            self.stop(limit);
            return Score::ZERO;
        }
        self.stats.interior += 1;

        let count = moves.len() as u32;
        let mut best_value = -INFINITY;
        let mut best_index: Option<usize> = None;
        let mut running_alpha = alpha;
        let mut cut = false;
        for (index, &mv) in moves.iter().enumerate() {
            let k = index as u32 + 1;
            self.game.play(mv);
            let child = self.game.node_id();
            let value = -self.search(ply + 1, -beta, -running_alpha);
            self.game.undo(mv);
            if self.stopped.is_some() {
                self.move_lists[ply as usize] = moves;
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
            match self.bounding {
                Bounding::FailSoft => {
                    if value > best_value {
                        best_value = value;
                        best_index = Some(index);
                    }
                    if best_value >= beta {
                        cut = true;
                    } else if best_value > running_alpha {
                        running_alpha = best_value;
                        self.raised(node, ply, running_alpha);
                    }
                }
                Bounding::FailHard => {
                    if value >= beta {
                        best_index = Some(index);
                        cut = true;
                    } else if value > running_alpha {
                        running_alpha = value;
                        best_index = Some(index);
                        self.raised(node, ply, running_alpha);
                    }
                    best_value = if cut { beta } else { running_alpha };
                }
            }
            if let Some(best) = best_index.filter(|_| ply == 0 && best_value < beta) {
                self.root_progress = Some((best_value, moves[best]));
            }
            if cut {
                self.tracer.event(TraceEvent::Cutoff {
                    node,
                    ply,
                    k,
                    pruned: count - k,
                });
                break;
            }
        }

        let best = best_index.map(|index| (index as u32 + 1, moves[index]));
        if ply == 0 {
            self.root_best = best.map(|(_, mv)| mv);
        }
        self.move_lists[ply as usize] = moves;
        let bounds = if best_value <= alpha {
            (None, Some(best_value))
        } else if best_value >= beta {
            (Some(best_value), None)
        } else {
            (Some(best_value), Some(best_value))
        };
        self.store(node, ply, key, draft, bounds, best);
        self.exit(node, ply, best_value, window, best.map(|(k, _)| k));
        best_value
    }

    /// Stores `(lower, upper)` (either may be absent) and the best child `(k, move)`.
    fn store(
        &mut self,
        node: NodeId,
        ply: u32,
        key: u64,
        draft: u32,
        (lower, upper): (Option<Score>, Option<Score>),
        best: Option<(u32, G::Move)>,
    ) {
        let Some(table) = self.table.as_deref_mut() else {
            return;
        };
        let entry = table.store(key, draft, lower, upper, best.map(|(_, mv)| mv));
        if T::ENABLED {
            let (lower, upper) = Self::bounds_event(ply, entry.lower, entry.upper);
            self.tracer.event(TraceEvent::TtStore {
                node,
                ply,
                lower,
                upper,
                best: best.map(|(k, _)| k),
            });
        }
    }
}
