//! Berliner's B* (§7): best-first proof that one root move is at least as good
//! as all others, over `[lo, hi]` intervals, with Maven's strategy rule,
//! artificial limits and optional widening.
//!
//! Intervals are kept from MAX's point of view (the "minimax form" of §7.2);
//! the game supplies them from the side to move and they are turned on arrival.

use crate::search::Search;
use crate::search::game::{Game, IntervalGame};
use crate::search::limits::{Budget, Completion, Details, Limits, SearchResult, SearchStats};
use crate::search::path::{PathTree, ROOT};
use crate::search::score::{Interval, Score};
use crate::search::trace::{BStarStop, Limit, Strategy, StrategyReason, TraceEvent, Tracer};

/// B* over a game's interval estimates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BStar {
    /// Maven's robustness trick: after a separation, widen every uncertain
    /// interval by this much and go on until separation survives the widening.
    pub widen: Option<Score>,
}

impl BStar {
    pub fn new(widen: Option<Score>) -> BStar {
        BStar { widen }
    }
}

/// What B* records per node (§7.5).
#[derive(Clone, Copy, Debug)]
struct NodeState {
    /// Current bounds, MAX's view.
    interval: Interval,
    /// The estimate the node was generated with, to widen from.
    estimate: Interval,
    /// A game-theoretic value: never widened.
    terminal: bool,
    /// Whether the node can have children at all.
    expandable: bool,
    expanded: bool,
    exhausted: bool,
    /// Children are stored contiguously from `first_child`.
    first_child: u32,
    child_count: u32,
}

struct Run<'a, G: Game, T> {
    game: &'a mut G,
    tracer: &'a mut T,
    limits: &'a Limits,
    budget: Budget,
    widen: Option<Score>,
    widened: bool,
    tree: PathTree<G::Move, NodeState>,
    moves: Vec<G::Move>,
    stats: SearchStats,
    expansions: u64,
    strategies: Vec<Strategy>,
    limit: Option<Limit>,
}

impl<G: IntervalGame> Search<G> for BStar {
    fn search<T: Tracer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        let root_id = game.node_id();
        let root_state = estimate(game, limits, 0, None, &mut Vec::new());
        let mut run = Run {
            game,
            tracer,
            limits,
            budget: Budget::new(limits),
            widen: self.widen,
            widened: false,
            tree: PathTree::new(root_id, root_state),
            moves: Vec::new(),
            stats: SearchStats::default(),
            expansions: 0,
            strategies: Vec::new(),
            limit: None,
        };
        let (stop, best) = run.run();
        run.tree.goto(run.game, ROOT);
        let best_node = best.map(|index| run.tree.node(index));
        run.tracer.event(TraceEvent::BStarStop {
            reason: stop,
            best: best_node.map(|node| node.id),
        });
        SearchResult {
            value: run.tree.node(ROOT).data.interval,
            best_move: best_node.and_then(|node| node.mv),
            completion: match run.limit {
                Some(limit) => Completion::LimitReached(limit),
                None => Completion::Finished,
            },
            stats: run.stats,
            details: Details::BStar {
                stop,
                expansions: run.expansions,
                strategies: run.strategies,
            },
        }
    }
}

/// The state of the node the game is at, `ply` plies below the root.
fn estimate<G: IntervalGame>(
    game: &mut G,
    limits: &Limits,
    ply: u32,
    widen: Option<Score>,
    moves: &mut Vec<G::Move>,
) -> NodeState {
    let outcome = game.outcome();
    let mover_view = outcome.map_or_else(|| game.interval(), Interval::point);
    let estimate = mover_view.from_mover(ply);
    moves.clear();
    if outcome.is_none() && !limits.at_horizon(ply) {
        game.moves(moves);
    }
    let expandable = !moves.is_empty();
    let terminal = outcome.is_some();
    let interval = match widen {
        Some(delta) if !terminal => estimate.widened(delta),
        _ => estimate,
    };
    NodeState {
        interval,
        estimate,
        terminal,
        expandable,
        expanded: false,
        exhausted: !expandable,
        first_child: 0,
        child_count: 0,
    }
}

impl<G: IntervalGame, T: Tracer<G::Move>> Run<'_, G, T> {
    fn state(&self, node: u32) -> &NodeState {
        &self.tree.node(node).data
    }

    fn children(&self, node: u32) -> std::ops::Range<u32> {
        let state = self.state(node);
        state.first_child..state.first_child + state.child_count
    }

    fn is_max(&self, node: u32) -> bool {
        self.tree.node(node).ply.is_multiple_of(2)
    }

    fn stop_at_limit(&mut self, limit: Limit) -> (BStarStop, Option<u32>) {
        self.limit = Some(limit);
        self.tracer.event(TraceEvent::LimitReached { limit });
        (BStarStop::Limit, self.fallback_choice())
    }

    /// The iterations of §7.4, until separation, a limit or exhaustion.
    fn run(&mut self) -> (BStarStop, Option<u32>) {
        if !self.state(ROOT).expandable {
            return (BStarStop::Exhausted, None);
        }
        if let Err(limit) = self.expand(ROOT) {
            return self.stop_at_limit(limit);
        }
        let mut iteration = 0;
        let mut previous: Option<Strategy> = None;
        loop {
            iteration += 1;
            self.report_root(iteration);
            let separated = self.separated_child();
            let (u1, u2) = self.candidates();
            self.tracer.event(TraceEvent::Separation {
                holds: separated.is_some(),
                candidate: self.tree.node(separated.unwrap_or(u1)).id,
            });
            if let Some(best) = separated {
                match self.widen {
                    Some(delta) if !self.widened => {
                        self.widened = true;
                        self.tracer.event(TraceEvent::Widen { delta });
                        self.apply_widening(delta);
                        self.tracer.event(TraceEvent::Restart);
                        continue;
                    }
                    _ => return (BStarStop::Separation, Some(best)),
                }
            }
            if let Err(limit) = self.budget.check() {
                return self.stop_at_limit(limit);
            }
            let Some(u2) = u2 else {
                unreachable!("a root with one child is always separated")
            };

            // Maven's rule, made deterministic (§7.4 step 3).
            let u1_lo = self.state(u1).interval.lo;
            let (mut strategy, mut reason) = if self
                .children(ROOT)
                .any(|child| self.state(child).interval.lo > u1_lo)
            {
                (Strategy::ProveBest, StrategyReason::U1LacksBestLo)
            } else if previous != Some(Strategy::DisproveRest) {
                (Strategy::DisproveRest, StrategyReason::Alternate)
            } else {
                (Strategy::ProveBest, StrategyReason::Alternate)
            };
            let target_of = |strategy| match strategy {
                Strategy::ProveBest => u1,
                Strategy::DisproveRest => u2,
            };
            if self.state(target_of(strategy)).exhausted {
                strategy = strategy.other();
                reason = StrategyReason::TargetExhausted;
                if self.state(target_of(strategy)).exhausted {
                    return (BStarStop::Exhausted, self.fallback_choice());
                }
            }
            let target = target_of(strategy);
            self.tracer.event(TraceEvent::Strategy {
                strategy,
                target: self.tree.node(target).id,
                reason,
            });
            self.strategies.push(strategy);
            previous = Some(strategy);

            let frontier = self.descend(target);
            if let Err(limit) = self.expand(frontier) {
                return self.stop_at_limit(limit);
            }
        }
    }

    fn report_root(&mut self, iteration: u32) {
        if !T::ENABLED {
            return;
        }
        let children = self.children(ROOT);
        self.tracer.event(TraceEvent::Iteration {
            iteration,
            children: children.len() as u32,
        });
        for child in children {
            self.tracer.event(TraceEvent::Bounds {
                node: self.tree.node(child).id,
                interval: self.state(child).interval,
            });
        }
    }

    /// The left-most root child whose `lo` reaches every other child's `hi`.
    fn separated_child(&self) -> Option<u32> {
        self.children(ROOT).find(|&candidate| {
            let lo = self.state(candidate).interval.lo;
            self.children(ROOT)
                .all(|other| other == candidate || lo >= self.state(other).interval.hi)
        })
    }

    /// U1, the left-most root child with the highest `hi`, and U2, the
    /// left-most with the highest `hi` among the others.
    fn candidates(&self) -> (u32, Option<u32>) {
        let highest_hi = |exclude: Option<u32>| {
            let mut best: Option<u32> = None;
            for child in self.children(ROOT) {
                if Some(child) == exclude {
                    continue;
                }
                if best.is_none_or(|b| self.state(child).interval.hi > self.state(b).interval.hi) {
                    best = Some(child);
                }
            }
            best
        };
        let u1 = highest_hi(None).expect("the root is expanded");
        (u1, highest_hi(Some(u1)))
    }

    /// At a limit or when exhausted: the highest `lo`, then the highest `hi`,
    /// then the left-most root child.
    fn fallback_choice(&self) -> Option<u32> {
        let mut best: Option<u32> = None;
        for child in self.children(ROOT) {
            let better = best.is_none_or(|b| {
                let (new, old) = (self.state(child).interval, self.state(b).interval);
                (new.lo, new.hi) > (old.lo, old.hi)
            });
            if better {
                best = Some(child);
            }
        }
        best
    }

    /// From `target` down through expanded nodes to the first unexpanded one,
    /// taking at each node the live child with the best optimistic bound for
    /// the side to move (highest `hi` at MAX, lowest `lo` at MIN; left-most on ties).
    fn descend(&mut self, target: u32) -> u32 {
        let mut node = target;
        while self.state(node).expanded {
            let maximizing = self.is_max(node);
            let mut chosen: Option<u32> = None;
            for child in self.children(node) {
                let state = self.state(child);
                if state.exhausted {
                    continue;
                }
                let better = chosen.is_none_or(|c| {
                    let current = self.state(c).interval;
                    if maximizing {
                        state.interval.hi > current.hi
                    } else {
                        state.interval.lo < current.lo
                    }
                });
                if better {
                    chosen = Some(child);
                }
            }
            let child = chosen.expect("an expanded node that is not exhausted has a live child");
            self.tracer.event(TraceEvent::Descend {
                from: self.tree.node(node).id,
                to: self.tree.node(child).id,
            });
            node = child;
        }
        node
    }

    /// Generates the children of `node` with their intervals, then backs up.
    fn expand(&mut self, node: u32) -> Result<(), Limit> {
        self.tree.goto(self.game, node);
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        self.game.moves(&mut moves);
        if !self.limits.memory_allows(self.tree.len() + moves.len()) {
            self.moves = moves;
            return Err(Limit::Memory);
        }
        if let Err(limit) = self.budget.charge() {
            self.moves = moves;
            return Err(limit);
        }
        self.expansions += 1;
        self.stats.interior += 1;
        let ply = self.tree.node(node).ply + 1;
        let first_child = self.tree.len() as u32;
        let mut child_moves = Vec::new();
        for (index, &mv) in moves.iter().enumerate() {
            self.game.play(mv);
            let id = self.game.node_id();
            let widen = self.widen.filter(|_| self.widened);
            let state = estimate(self.game, self.limits, ply, widen, &mut child_moves);
            self.game.undo(mv);
            self.stats.leaves += 1;
            self.tree.add(node, index as u32, mv, id, state);
        }
        let state = self.tree.data_mut(node);
        state.expanded = true;
        state.first_child = first_child;
        state.child_count = moves.len() as u32;
        self.moves = moves;
        if T::ENABLED {
            let children = self.children(node);
            self.tracer.event(TraceEvent::Expand {
                node: self.tree.node(node).id,
                children: children.len() as u32,
            });
            for child in children {
                self.tracer.event(TraceEvent::Bounds {
                    node: self.tree.node(child).id,
                    interval: self.state(child).interval,
                });
            }
        }
        self.back_up(node);
        Ok(())
    }

    /// The interval and exhaustion of an expanded node, from its children.
    fn backed_up(&self, node: u32) -> (Interval, bool) {
        let maximizing = self.is_max(node);
        let mut children = self.children(node).map(|child| self.state(child));
        let first = children.next().expect("expanded nodes have children");
        let (mut interval, mut exhausted) = (first.interval, first.exhausted);
        for child in children {
            let (lo, hi) = (child.interval.lo, child.interval.hi);
            interval = if maximizing {
                Interval::new(interval.lo.max(lo), interval.hi.max(hi))
            } else {
                Interval::new(interval.lo.min(lo), interval.hi.min(hi))
            };
            exhausted &= child.exhausted;
        }
        (interval, exhausted)
    }

    /// Recomputes `node` and every ancestor up to the root (§7.2).
    fn back_up(&mut self, mut node: u32) {
        loop {
            let (interval, exhausted) = self.backed_up(node);
            let old = self.state(node).interval;
            if old != interval {
                self.tracer.event(TraceEvent::Backup {
                    node: self.tree.node(node).id,
                    old,
                    new: interval,
                });
            }
            let state = self.tree.data_mut(node);
            state.interval = interval;
            state.exhausted = exhausted;
            if node == ROOT {
                break;
            }
            node = self.tree.node(node).parent;
        }
    }

    /// Widens every uncertain frontier interval and recomputes the rest.
    fn apply_widening(&mut self, delta: Score) {
        for index in 0..self.tree.len() as u32 {
            let state = self.tree.data_mut(index);
            if !state.expanded && !state.terminal {
                state.interval = state.estimate.widened(delta);
            }
        }
        // Children always come after their parent, so a reverse sweep sees
        // every child before its parent.
        for index in (0..self.tree.len() as u32).rev() {
            if self.state(index).expanded {
                let (interval, _) = self.backed_up(index);
                self.tree.data_mut(index).interval = interval;
            }
        }
    }
}
