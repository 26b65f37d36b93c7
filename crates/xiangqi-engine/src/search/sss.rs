//! Stockman's SSS* (§5) with an explicit OPEN list: Γ cases as in Plaat et al.,
//! highest merit first, ties to the left-most node, Γ1 purges.
//!
//! The explored tree is kept in memory (capped by `Limits::max_stored_nodes`),
//! so a descriptor can be resumed at any node: the game is walked there along
//! the stored moves.

use crate::search::Search;
use crate::search::game::Game;
use crate::search::limits::{Budget, Completion, Details, Limits, SearchResult, SearchStats};
use crate::search::path::{PathTree, ROOT};
use crate::search::score::{INFINITY, Interval, Score, max_view};
use crate::search::trace::{Descriptor, GammaCase, Limit, Status, TraceEvent, Tracer};

/// SSS* with Stockman's OPEN list. Use it for textbook trees and teaching
/// traces; on deep searches prefer [`MtSss`](crate::search::MtSss), which
/// evaluates the same leaves with a bounded table instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sss;

#[derive(Clone, Copy, Debug)]
struct Entry {
    node: u32,
    status: Status,
    merit: Score,
}

/// Where a MIN node's moves sit in the shared move store (so Γ2 can find the
/// next sibling); empty for other nodes.
#[derive(Clone, Copy, Debug, Default)]
struct MoveSpan {
    start: u32,
    len: u32,
}

struct Run<'a, G: Game, T> {
    game: &'a mut G,
    tracer: &'a mut T,
    limits: &'a Limits,
    budget: Budget,
    tree: PathTree<G::Move, MoveSpan>,
    move_store: Vec<G::Move>,
    scratch: Vec<G::Move>,
    /// Sorted so that the head of OPEN is the last element.
    open: Vec<Entry>,
    stats: SearchStats,
    steps: u64,
    max_open: usize,
    best_move: Option<G::Move>,
}

impl<G: Game> Search<G> for Sss {
    fn search<T: Tracer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        tracer: &mut T,
    ) -> SearchResult<G::Move> {
        let root_id = game.node_id();
        let mut run = Run {
            game,
            tracer,
            limits,
            budget: Budget::new(limits),
            tree: PathTree::new(root_id, MoveSpan::default()),
            move_store: Vec::new(),
            scratch: Vec::new(),
            open: Vec::new(),
            stats: SearchStats::default(),
            steps: 0,
            max_open: 0,
            best_move: None,
        };
        let outcome = run.run();
        run.tree.goto(run.game, ROOT);
        let (value, completion) = match outcome {
            Ok(value) => (Interval::point(value), Completion::Finished),
            Err((limit, bound)) => (
                Interval::new(-INFINITY, bound),
                Completion::LimitReached(limit),
            ),
        };
        SearchResult {
            value,
            best_move: if completion == Completion::Finished {
                run.best_move
            } else {
                None
            },
            completion,
            stats: run.stats,
            details: Details::Sss {
                steps: run.steps,
                max_open: run.max_open,
            },
        }
    }
}

impl<G: Game, T: Tracer<G::Move>> Run<'_, G, T> {
    fn descriptor(&self, entry: Entry) -> Descriptor {
        let node = self.tree.node(entry.node);
        Descriptor {
            node: node.id,
            ply: node.ply,
            status: entry.status,
            merit: entry.merit,
        }
    }

    /// Whether `a` comes before `b` on OPEN: higher merit, then left-most.
    fn before(&self, a: Entry, b: Entry) -> bool {
        a.merit > b.merit || (a.merit == b.merit && self.tree.tree_order(a.node, b.node).is_lt())
    }

    fn push(&mut self, entry: Entry) {
        self.tracer.event(TraceEvent::Push {
            desc: self.descriptor(entry),
        });
        let at = self
            .open
            .partition_point(|&other| self.before(entry, other));
        self.open.insert(at, entry);
    }

    fn snapshot(&mut self) {
        self.max_open = self.max_open.max(self.open.len());
        if T::ENABLED {
            self.tracer.event(TraceEvent::OpenSnapshot {
                len: self.open.len() as u32,
            });
            for index in (0..self.open.len()).rev() {
                let desc = self.descriptor(self.open[index]);
                self.tracer.event(TraceEvent::OpenEntry { desc });
            }
        }
    }

    /// Refuses to grow the stored tree by `new_nodes` past the memory cap.
    fn reserve(&self, new_nodes: usize) -> Result<(), Limit> {
        if self.limits.memory_allows(self.tree.len() + new_nodes) {
            Ok(())
        } else {
            Err(Limit::Memory)
        }
    }

    fn add_child(&mut self, parent: u32, child_index: u32, mv: G::Move) -> u32 {
        let id = PathTree::<G::Move, MoveSpan>::peek_child(self.game, mv);
        self.tree
            .add(parent, child_index, mv, id, MoveSpan::default())
    }

    /// Runs to the solved root. On a limit, returns it with an upper bound on
    /// the root value (the highest merit left).
    fn run(&mut self) -> Result<Score, (Limit, Score)> {
        if let Err(limit) = self.reserve(0) {
            self.tracer.event(TraceEvent::LimitReached { limit });
            return Err((limit, INFINITY));
        }
        self.open.push(Entry {
            node: ROOT,
            status: Status::Live,
            merit: INFINITY,
        });
        self.snapshot();
        while let Some(entry) = self.open.pop() {
            self.steps += 1;
            self.tracer.event(TraceEvent::Pop {
                desc: self.descriptor(entry),
            });
            if entry.node == ROOT && entry.status == Status::Solved {
                self.tracer
                    .event(TraceEvent::SssDone { value: entry.merit });
                return Ok(entry.merit);
            }
            let step = match entry.status {
                Status::Solved => self.solved(entry),
                Status::Live => self.live(entry),
            };
            if let Err(limit) = step {
                self.tracer.event(TraceEvent::LimitReached { limit });
                return Err((limit, entry.merit));
            }
            self.snapshot();
        }
        unreachable!(
            "every Γ step pushes a descriptor, so OPEN empties only after the root is solved"
        )
    }

    /// Γ1, Γ2 or Γ3.
    fn solved(&mut self, entry: Entry) -> Result<(), Limit> {
        let node = self.tree.node(entry.node);
        let (parent, ply, child_index, mv) = (node.parent, node.ply, node.child_index, node.mv);
        if ply % 2 == 1 {
            // Γ1: a MIN-type node solved at the head: no sibling under the MAX
            // parent can do better, so the parent is solved.
            self.tracer.event(TraceEvent::Gamma {
                case: GammaCase::G1,
            });
            self.purge_below(parent);
            if parent == ROOT {
                self.best_move = mv;
            }
            self.push(Entry {
                node: parent,
                status: Status::Solved,
                merit: entry.merit,
            });
            return Ok(());
        }
        let span = self.tree.node(parent).data;
        let next = child_index + 1;
        if next < span.len {
            // Γ2: the MIN parent needs every child: the next one goes live.
            self.reserve(1)?;
            self.tracer.event(TraceEvent::Gamma {
                case: GammaCase::G2,
            });
            self.tree.goto(self.game, parent);
            let mv = self.move_store[(span.start + next) as usize];
            let sibling = self.add_child(parent, next, mv);
            self.push(Entry {
                node: sibling,
                status: Status::Live,
                merit: entry.merit,
            });
        } else {
            // Γ3: the MIN parent's last child is solved.
            self.tracer.event(TraceEvent::Gamma {
                case: GammaCase::G3,
            });
            self.push(Entry {
                node: parent,
                status: Status::Solved,
                merit: entry.merit,
            });
        }
        Ok(())
    }

    /// Γ4, Γ5 or Γ6.
    fn live(&mut self, entry: Entry) -> Result<(), Limit> {
        self.tree.goto(self.game, entry.node);
        let ply = self.tree.node(entry.node).ply;
        let mut moves = std::mem::take(&mut self.scratch);
        moves.clear();
        let terminal = self.game.outcome();
        if terminal.is_none() && !self.limits.at_horizon(ply) {
            self.game.moves(&mut moves);
        }
        let result = self.live_step(entry, ply, terminal, &moves);
        self.scratch = moves;
        result
    }

    fn live_step(
        &mut self,
        entry: Entry,
        ply: u32,
        terminal: Option<Score>,
        moves: &[G::Move],
    ) -> Result<(), Limit> {
        if terminal.is_some() || moves.is_empty() {
            // Γ4: evaluate the leaf; the strategy's merit is its smallest leaf.
            self.budget.charge()?;
            let value = max_view(terminal.unwrap_or_else(|| self.game.evaluate()), ply);
            self.stats.leaves += 1;
            self.tracer.event(TraceEvent::Gamma {
                case: GammaCase::G4,
            });
            self.tracer.event(TraceEvent::Leaf {
                node: self.tree.node(entry.node).id,
                ply,
                value,
            });
            self.push(Entry {
                node: entry.node,
                status: Status::Solved,
                merit: entry.merit.min(value),
            });
        } else if ply % 2 == 1 {
            // Γ5: a MIN node's children are taken one at a time.
            self.reserve(1)?;
            self.budget.charge()?;
            self.stats.interior += 1;
            self.tracer.event(TraceEvent::Gamma {
                case: GammaCase::G5,
            });
            let start = self.move_store.len() as u32;
            self.move_store.extend_from_slice(moves);
            *self.tree.data_mut(entry.node) = MoveSpan {
                start,
                len: moves.len() as u32,
            };
            let child = self.add_child(entry.node, 0, moves[0]);
            self.push(Entry {
                node: child,
                status: Status::Live,
                merit: entry.merit,
            });
        } else {
            // Γ6: every reply of a MAX node starts its own partial strategy.
            self.reserve(moves.len())?;
            self.budget.charge()?;
            self.stats.interior += 1;
            self.tracer.event(TraceEvent::Gamma {
                case: GammaCase::G6,
            });
            for (index, &mv) in moves.iter().enumerate() {
                let child = self.add_child(entry.node, index as u32, mv);
                self.push(Entry {
                    node: child,
                    status: Status::Live,
                    merit: entry.merit,
                });
            }
        }
        Ok(())
    }

    /// Γ1's purge: removes every descriptor of a node below `ancestor`.
    fn purge_below(&mut self, ancestor: u32) {
        let ancestor_id = self.tree.node(ancestor).id;
        for index in (0..self.open.len()).rev() {
            let entry = self.open[index];
            if self.tree.is_descendant(entry.node, ancestor) {
                self.tracer.event(TraceEvent::Purge {
                    ancestor: ancestor_id,
                    desc: self.descriptor(entry),
                });
            }
        }
        let tree = &self.tree;
        self.open
            .retain(|entry| !tree.is_descendant(entry.node, ancestor));
    }
}
