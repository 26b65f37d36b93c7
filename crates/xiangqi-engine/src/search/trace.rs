//! Typed trace events and the tracers that receive them.
//!
//! Backends call `tracer.event(..)` at every step. [`Tracer`] is a generic
//! parameter, so with [`NoTrace`] every call inlines to nothing and the
//! untraced search pays no cost. Events are `Copy`: nodes are named by
//! [`NodeId`], never by strings, and lists (OPEN snapshots, B* children) are
//! sent as a header event followed by one entry event per element.
//!
//! All scores, windows and intervals in events are from MAX's point of view
//! (the side to move at the root), as the textbooks draw them.

use serde::{Deserialize, Serialize};

use crate::search::game::NodeId;
use crate::search::score::{Interval, Score};

/// What a returned value says about the true value, judged against the window
/// the node was entered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundKind {
    Exact,
    /// Failed high: the true value is at least this.
    Lower,
    /// Failed low: the true value is at most this.
    Upper,
}

/// SSS* descriptor status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Live,
    Solved,
}

impl Status {
    /// `L` or `S`, as in the `.sss-trace` files.
    pub fn letter(self) -> char {
        match self {
            Status::Live => 'L',
            Status::Solved => 'S',
        }
    }
}

/// An SSS* OPEN-list entry `(n, s, h)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Descriptor {
    pub node: NodeId,
    pub ply: u32,
    pub status: Status,
    /// The merit `h`: an upper bound on every strategy through this node.
    pub merit: Score,
}

/// The six cases of Stockman's Γ operator, numbered as in Plaat et al. (1996).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GammaCase {
    G1,
    G2,
    G3,
    G4,
    G5,
    G6,
}

impl GammaCase {
    /// `G1` .. `G6`, as in the `.sss-trace` files.
    pub fn name(self) -> &'static str {
        match self {
            GammaCase::G1 => "G1",
            GammaCase::G2 => "G2",
            GammaCase::G3 => "G3",
            GammaCase::G4 => "G4",
            GammaCase::G5 => "G5",
            GammaCase::G6 => "G6",
        }
    }

    /// A one-line reason, for a UI.
    pub fn reason(self) -> &'static str {
        match self {
            GammaCase::G1 => "solved MIN-type node: parent solved, its other descendants purged",
            GammaCase::G2 => "solved MAX-type node: next sibling becomes live",
            GammaCase::G3 => "solved MAX-type last child: parent solved",
            GammaCase::G4 => "live leaf: evaluated",
            GammaCase::G5 => "live MIN node: first child becomes live",
            GammaCase::G6 => "live MAX node: every child becomes live",
        }
    }
}

/// B*'s root strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    ProveBest,
    DisproveRest,
}

impl Strategy {
    /// `P` or `D`, as in the `.expected` files.
    pub fn letter(self) -> char {
        match self {
            Strategy::ProveBest => 'P',
            Strategy::DisproveRest => 'D',
        }
    }

    /// `PROVEBEST` or `DISPROVEREST`, as in the `.bstar-trace` files.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::ProveBest => "PROVEBEST",
            Strategy::DisproveRest => "DISPROVEREST",
        }
    }

    pub fn other(self) -> Strategy {
        match self {
            Strategy::ProveBest => Strategy::DisproveRest,
            Strategy::DisproveRest => Strategy::ProveBest,
        }
    }
}

/// Why B* chose its strategy (Maven's rule, §7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrategyReason {
    /// Some root child has a strictly higher `lo` than U1.
    U1LacksBestLo,
    /// The alternation between the two strategies.
    Alternate,
    /// The rule's choice had an exhausted target, so the other one is used.
    TargetExhausted,
}

/// Why B* stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BStarStop {
    Separation,
    Limit,
    Exhausted,
}

impl BStarStop {
    /// `separation`, `limit` or `exhausted`, as in the `.expected` files.
    pub fn name(self) -> &'static str {
        match self {
            BStarStop::Separation => "separation",
            BStarStop::Limit => "limit",
            BStarStop::Exhausted => "exhausted",
        }
    }
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The node budget (`Limits::nodes`).
    Nodes,
    /// The memory cap of SSS* or B* (`Limits::max_stored_nodes`).
    Memory,
    /// The shared stop flag was raised.
    Stopped,
}

impl Limit {
    pub fn name(self) -> &'static str {
        match self {
            Limit::Nodes => "nodes",
            Limit::Memory => "memory",
            Limit::Stopped => "stopped",
        }
    }
}

/// How a null-window MT pass ended at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PassOutcome {
    /// `g >= gamma`: a new lower bound.
    FailedHigh,
    /// `g < gamma`: a new upper bound.
    FailedLow,
}

/// One step of a search. `ply` is the node's distance from the root; `k` is a
/// 1-based child index in move order.
///
/// The serde form (one JSON object per event, `"event"` naming the variant in
/// snake case) is the `jsonl` trace export; see `docs/trace-jsonl.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TraceEvent<M> {
    // --- depth-first searches: minimax, alpha-beta, MT passes -----------------
    /// A node is entered with window `(alpha, beta)`; minimax uses the full window.
    Enter {
        node: NodeId,
        ply: u32,
        alpha: Score,
        beta: Score,
    },
    /// One static evaluation (also SSS*'s Γ4 evaluation).
    Leaf {
        node: NodeId,
        ply: u32,
        value: Score,
    },
    /// Child `k`, reached by `mv`, returned `value`.
    ChildValue {
        node: NodeId,
        ply: u32,
        k: u32,
        mv: M,
        child: NodeId,
        value: Score,
    },
    /// Minimax: the running max (MAX node) or min (MIN node) improved.
    NewBest {
        node: NodeId,
        ply: u32,
        k: u32,
        value: Score,
    },
    /// Alpha-beta at a MAX node.
    AlphaRaised {
        node: NodeId,
        ply: u32,
        alpha: Score,
    },
    /// Alpha-beta at a MIN node.
    BetaLowered {
        node: NodeId,
        ply: u32,
        beta: Score,
    },
    /// A cut-off after child `k`; `pruned` children will not be visited.
    Cutoff {
        node: NodeId,
        ply: u32,
        k: u32,
        pruned: u32,
    },
    /// The node returns `value`; `best` is the child that supplied it, if any.
    Exit {
        node: NodeId,
        ply: u32,
        value: Score,
        kind: BoundKind,
        best: Option<u32>,
    },
    /// Transposition-table lookup.
    TtProbe {
        node: NodeId,
        ply: u32,
        hit: bool,
        lower: Score,
        upper: Score,
    },
    /// A stored bound alone answered the call.
    TtHitCut {
        node: NodeId,
        ply: u32,
        lower: Score,
        upper: Score,
    },
    /// Bounds stored for the node.
    TtStore {
        node: NodeId,
        ply: u32,
        lower: Score,
        upper: Score,
        best: Option<u32>,
    },

    // --- MT-SSS* and MTD(f) ----------------------------------------------------
    /// Pass `pass` asks "is the value >= gamma?" (window `(gamma-1, gamma)`).
    PassStart {
        pass: u32,
        gamma: Score,
    },
    /// The pass returned `value`; the root is now known to lie in `[lower, upper]`.
    PassEnd {
        pass: u32,
        value: Score,
        outcome: PassOutcome,
        lower: Score,
        upper: Score,
    },
    /// The value is proven after `passes` passes.
    MtDone {
        value: Score,
        passes: u32,
    },

    // --- SSS* ------------------------------------------------------------------
    /// The head of OPEN is popped.
    Pop {
        desc: Descriptor,
    },
    /// The Γ case applied to the popped descriptor.
    Gamma {
        case: GammaCase,
    },
    /// A descriptor goes onto OPEN.
    Push {
        desc: Descriptor,
    },
    /// Γ1 removes `desc`, a descendant of `ancestor`.
    Purge {
        ancestor: NodeId,
        desc: Descriptor,
    },
    /// OPEN after a step: `len` [`TraceEvent::OpenEntry`] events follow, head first.
    OpenSnapshot {
        len: u32,
    },
    OpenEntry {
        desc: Descriptor,
    },
    /// `(root, SOLVED, value)` was popped: SSS* is done.
    SssDone {
        value: Score,
    },

    // --- B* ----------------------------------------------------------------------
    /// Iteration `iteration` starts; `children` [`TraceEvent::Bounds`] events follow
    /// with the root children's intervals.
    Iteration {
        iteration: u32,
        children: u32,
    },
    /// One node's interval, inside an `Iteration` or `Expand` list.
    Bounds {
        node: NodeId,
        interval: Interval,
    },
    /// Whether some root child separates; `candidate` is that child, or U1.
    Separation {
        holds: bool,
        candidate: NodeId,
    },
    Strategy {
        strategy: Strategy,
        target: NodeId,
        reason: StrategyReason,
    },
    /// Going down from an expanded node to its most optimistic live child.
    Descend {
        from: NodeId,
        to: NodeId,
    },
    /// `node` is expanded; `children` [`TraceEvent::Bounds`] events follow.
    Expand {
        node: NodeId,
        children: u32,
    },
    /// A node's interval changed after an expansion below it.
    Backup {
        node: NodeId,
        old: Interval,
        new: Interval,
    },
    /// Maven's robustness trick: every uncertain interval widened by `delta`.
    Widen {
        delta: Score,
    },
    /// The search goes on after a widening broke the separation.
    Restart,
    /// B* stops; `best` is the chosen root child.
    #[serde(rename = "bstar_stop")]
    BStarStop {
        reason: BStarStop,
        best: Option<NodeId>,
    },

    // --- any backend ---------------------------------------------------------------
    /// A limit stopped the search; the result says what is known.
    LimitReached {
        limit: Limit,
    },
}

/// Receives trace events. Use it as a generic parameter, never as `dyn`.
pub trait Tracer<M> {
    /// False for tracers that ignore everything, so backends can skip work done
    /// only for the trace (OPEN snapshots, for instance).
    const ENABLED: bool = true;

    fn event(&mut self, event: TraceEvent<M>);
}

/// Ignores every event; compiles to nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl<M> Tracer<M> for NoTrace {
    const ENABLED: bool = false;

    #[inline(always)]
    fn event(&mut self, _event: TraceEvent<M>) {}
}

/// Keeps every event, in order.
#[derive(Clone, Debug)]
pub struct Recorder<M> {
    pub events: Vec<TraceEvent<M>>,
}

impl<M> Default for Recorder<M> {
    fn default() -> Self {
        Recorder { events: Vec::new() }
    }
}

impl<M> Recorder<M> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The nodes statically evaluated, in order, repeats included.
    pub fn leaves(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.events.iter().filter_map(|event| match event {
            TraceEvent::Leaf { node, .. } => Some(*node),
            _ => None,
        })
    }

    /// The distinct nodes statically evaluated, in order of first evaluation.
    pub fn distinct_leaves(&self) -> Vec<NodeId> {
        let mut seen = std::collections::HashSet::new();
        self.leaves().filter(|node| seen.insert(*node)).collect()
    }

    /// B*'s expanded nodes, in order.
    pub fn expanded(&self) -> Vec<NodeId> {
        self.events
            .iter()
            .filter_map(|event| match event {
                TraceEvent::Expand { node, .. } => Some(*node),
                _ => None,
            })
            .collect()
    }
}

impl<M> Tracer<M> for Recorder<M> {
    fn event(&mut self, event: TraceEvent<M>) {
        self.events.push(event);
    }
}

/// Any closure taking events is a tracer: handy for streaming events to a
/// channel or printing them as they happen.
impl<M, F: FnMut(TraceEvent<M>)> Tracer<M> for F {
    fn event(&mut self, event: TraceEvent<M>) {
        self(event)
    }
}
