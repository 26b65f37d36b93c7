//! The textbook backends (minimax, alpha-beta, SSS*, MT-SSS*, MTD(f), B*) on positions,
//! through [`PositionGame`], with the engine's limits and the engine's result.
//!
//! * The depth-first backends deepen iteratively, 1, 2, 3, ... plies up to the depth
//!   limit, as the strong engine does, so a search stopped by its node budget, its time
//!   or the stop flag still answers with the last completed depth's move. MTD(f) starts
//!   each iteration from the previous one's value (its first guess). A proven mate ends
//!   the deepening: more depth cannot make it shorter.
//! * SSS* keeps its whole tree: it stops at `max_stored_nodes` and keeps the last depth
//!   it finished. MT-SSS* and MTD(f) use a transposition table instead, cleared at the
//!   start of each search so that a fixed-depth search gives the fixed-depth value.
//! * B* runs once over probe intervals ([`probe`](super::probe)) until separation, its
//!   limit or exhaustion. Its node budget counts expansions; with no node or time limit
//!   it gets `bstar_expansions`. A depth limit is the deepest ply it may expand to. Its
//!   score is the chosen move's pessimistic bound; its depth the deepest ply generated.
//! * Time limits reach the backends through their stop flag, raised by a watcher thread
//!   at the deadline (or when the caller's flag rises).
//!
//! Reported nodes are the backends' own counts (leaf evaluations plus expansions; for
//! B*, plus the probe searches' nodes).
//!
//! A traced search with its events as text lines, nodes named by their moves:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use xiangqi_core::board::{Move, Position};
//! use xiangqi_engine::engine::{Limits, PositionNames, PositionSearcher};
//! use xiangqi_core::notation::Notation;
//! use xiangqi_engine::search::{Algorithm, TraceEvent, TraceText};
//!
//! let pos = Position::from_fen("4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1").unwrap();
//! let names = PositionNames::new(&pos, Notation::Chinese);
//! let mut text = TraceText::new(&names);
//! let mut lines = Vec::new();
//! let mut tracer = |event: TraceEvent<Move>| lines.extend(text.feed(&event));
//! let result = PositionSearcher::default().search(
//!     Algorithm::AlphaBeta,
//!     &pos,
//!     &Limits::depth(1),
//!     &AtomicBool::new(false),
//!     &mut |_| {},
//!     &mut tracer,
//!     Some(&names),
//! );
//! assert_eq!(lines[0], "enter root alpha=-inf beta=inf");
//! // Moves are tried in piece-square gain order: the chariot across the river first.
//! assert_eq!(lines[1], "enter 车四进五 alpha=-inf beta=inf");
//! assert_eq!(result.best_move.unwrap().iccs(), "a5e5");
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::search::{
    self, Algorithm, BStar, Backend, Completion, Details, INFINITY, NoTrace, Score,
    SearchOptions as BackendOptions, Tracer, TranspositionTable,
};
use xiangqi_core::board::{Move, Position};

use super::limits::Limits;
use super::move_paths::PositionNames;
use super::position_game::{PositionGame, ordered_moves};
use super::probe::{ProbeSettings, Prober};
use super::pv_trace::{PvCollector, Tee};
use super::score::from_search;
use super::score::mated_in;
use super::search::{SearchInfo, SearchResult, nodes_per_second};

/// Deepest iteration of the depth-first backends.
pub const MAX_ITERATION_DEPTH: u32 = 64;
/// How often the watcher looks at the clock and the caller's stop flag.
const WATCH_INTERVAL: Duration = Duration::from_millis(1);

/// Memory one node of SSS*'s or B*'s stored tree takes, roughly (node, OPEN entry, moves).
const STORED_NODE_BYTES: usize = 64;

/// Settings of the textbook backends on positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BackendSettings {
    /// MT-SSS* and MTD(f) transposition table, in MB.
    pub table_mb: usize,
    /// SSS* and B* keep their tree in memory: at most this many nodes.
    pub max_stored_nodes: usize,
    /// B*'s expansion budget when no node or time limit is given.
    pub bstar_expansions: u64,
    /// How B* estimates intervals.
    pub probe: ProbeSettings,
}

impl BackendSettings {
    /// Settings whose MT table and stored trees each take about `mb` megabytes.
    pub fn with_memory_mb(mb: usize) -> BackendSettings {
        BackendSettings {
            table_mb: mb,
            max_stored_nodes: stored_nodes_in(mb),
            bstar_expansions: 300,
            probe: ProbeSettings::default(),
        }
    }
}

fn stored_nodes_in(mb: usize) -> usize {
    mb.max(1).saturating_mul(1 << 20) / STORED_NODE_BYTES
}

impl Default for BackendSettings {
    fn default() -> Self {
        BackendSettings::with_memory_mb(16)
    }
}

/// Runs the textbook backends on positions, keeping their memory (the MT table, the B*
/// prober) from one search to the next.
pub struct PositionSearcher {
    pub settings: BackendSettings,
    table: Option<TranspositionTable<Move>>,
    prober: Option<Box<Prober>>,
    details: Details,
}

impl Default for PositionSearcher {
    fn default() -> Self {
        PositionSearcher::new(BackendSettings::default())
    }
}

/// Raises `done` when dropped, so the watcher ends even if the search panics.
struct DoneOnDrop<'a>(&'a AtomicBool);

impl Drop for DoneOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Runs `body` with a stop flag of its own that rises when `stop` does or at `deadline`.
fn with_watched_stop<R>(
    stop: &AtomicBool,
    deadline: Option<Instant>,
    body: impl FnOnce(Arc<AtomicBool>) -> R,
) -> R {
    let flag = Arc::new(AtomicBool::new(stop.load(Ordering::Relaxed)));
    let done = AtomicBool::new(false);
    thread::scope(|scope| {
        let watched = Arc::clone(&flag);
        let done_ref = &done;
        scope.spawn(move || {
            while !done_ref.load(Ordering::Acquire) {
                if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                    watched.store(true, Ordering::Relaxed);
                    return;
                }
                thread::sleep(WATCH_INTERVAL);
            }
        });
        let _done = DoneOnDrop(&done);
        body(flag)
    })
}

/// The best move so far of an iterative search: move, value (generic scale), line, depth.
struct Answer {
    mv: Move,
    value: Score,
    pv: Vec<Move>,
    depth: u32,
}

impl PositionSearcher {
    pub fn new(settings: BackendSettings) -> PositionSearcher {
        PositionSearcher {
            settings,
            table: None,
            prober: None,
            details: Details::None,
        }
    }

    /// What the last search's backend reported beyond the result: SSS*'s steps, the MT
    /// passes, B*'s stop reason and strategies (of the last completed depth when
    /// deepening).
    pub fn last_details(&self) -> &Details {
        &self.details
    }

    /// Gives the MT table and the stored trees about `mb` megabytes each (the table is
    /// made again at the next search).
    pub fn set_memory_mb(&mut self, mb: usize) {
        self.settings.max_stored_nodes = stored_nodes_in(mb);
        if mb != self.settings.table_mb {
            self.settings.table_mb = mb;
            self.table = None;
        }
    }

    /// Searches `pos` with `algorithm` (`alphabeta` is the textbook alpha-beta here),
    /// within `limits`, until `stop` rises. `report` gets each completed depth (B*: its
    /// one result); `tracer` every trace event. Node ids in the events are move paths;
    /// with `names`, nodes deeper than the packed paths are numbered there so that
    /// `names` can label every node.
    #[allow(clippy::too_many_arguments)]
    pub fn search<T: Tracer<Move>>(
        &mut self,
        algorithm: Algorithm,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
        tracer: &mut T,
        names: Option<&PositionNames>,
    ) -> SearchResult {
        let start = Instant::now();
        self.details = Details::None;
        let mut root_moves = Vec::new();
        ordered_moves(pos, &mut root_moves);
        let Some(&first_move) = root_moves.first() else {
            return SearchResult {
                best_move: None,
                ponder: None,
                score: mated_in(0),
                depth: 0,
                seldepth: 0,
                nodes: 0,
                time: start.elapsed(),
                pv: Vec::new(),
                lines: Vec::new(),
            };
        };
        let mut game = match names {
            Some(names) => PositionGame::with_names(pos, names),
            None => PositionGame::new(pos),
        };
        let (soft, hard) = limits.time_budget();
        let deadline = hard.map(|hard| start + hard);
        with_watched_stop(stop, deadline, |flag| {
            let run = Run {
                limits,
                flag,
                start,
                soft,
                first_move,
            };
            if algorithm == Algorithm::BStar {
                self.bstar(&run, &mut game, report, tracer)
            } else {
                self.deepen(algorithm, &run, &mut game, report, tracer)
            }
        })
    }

    /// The depth-first backends, deepened iteratively.
    fn deepen<T: Tracer<Move>>(
        &mut self,
        algorithm: Algorithm,
        run: &Run<'_>,
        game: &mut PositionGame,
        report: &mut dyn FnMut(&SearchInfo),
        tracer: &mut T,
    ) -> SearchResult {
        let mut backend = self.backend(algorithm);
        let max_depth = run
            .limits
            .depth
            .unwrap_or(MAX_ITERATION_DEPTH)
            .clamp(1, MAX_ITERATION_DEPTH);
        let mut nodes = 0u64;
        let mut answer: Option<Answer> = None;
        let mut guess = search::Game::evaluate(game);
        for depth in 1..=max_depth {
            let limits = search::Limits {
                depth: Some(depth),
                nodes: run.limits.nodes.map(|limit| limit.saturating_sub(nodes)),
                max_stored_nodes: Some(self.settings.max_stored_nodes),
                stop: Some(Arc::clone(&run.flag)),
            };
            if let Backend::Mtdf(mtdf) = &mut backend {
                mtdf.first_guess = guess;
            }
            // SSS*'s OPEN list would flood a collector with snapshots: it reports its
            // best move only.
            let mut pv = PvCollector::new();
            let result = if algorithm == Algorithm::Sss {
                search::Search::search(&mut backend, game, &limits, tracer)
            } else {
                search::Search::search(&mut backend, game, &limits, &mut Tee(tracer, &mut pv))
            };
            nodes += result.stats.nodes();
            let (Completion::Finished, Some(value), Some(mv)) =
                (result.completion, result.exact_value(), result.best_move)
            else {
                if answer.is_none() {
                    // Nothing finished: the partial search's move and bound, if any.
                    self.details = result.details;
                    answer = Some(Answer {
                        mv: result.best_move.unwrap_or(run.first_move),
                        value: if result.value.lo > -INFINITY {
                            result.value.lo
                        } else {
                            guess
                        },
                        pv: Vec::new(),
                        depth: 0,
                    });
                }
                break;
            };
            guess = value;
            self.details = result.details;
            let line = checked_line(game.position(), mv, pv.line());
            let time = run.start.elapsed();
            report(&SearchInfo {
                depth,
                seldepth: depth,
                score: from_search(value),
                nodes,
                nps: nodes_per_second(nodes, time),
                time,
                pv: line.clone(),
                hashfull: 0,
                lines: Vec::new(),
            });
            answer = Some(Answer {
                mv,
                value,
                pv: line,
                depth,
            });
            if run.soft.is_some_and(|soft| time >= soft) {
                break;
            }
            if value.mate_plies().is_some_and(|plies| depth >= plies) {
                break;
            }
        }
        self.put_back(backend);
        let answer = answer.expect("the first iteration always answers");
        run.result(answer, nodes)
    }

    /// B* over probe intervals.
    fn bstar<T: Tracer<Move>>(
        &mut self,
        run: &Run<'_>,
        game: &mut PositionGame,
        report: &mut dyn FnMut(&SearchInfo),
        tracer: &mut T,
    ) -> SearchResult {
        let limits = run.limits;
        let timed = limits.movetime.is_some() || limits.clock.is_some() || limits.infinite;
        let budget = limits
            .nodes
            .or((!timed).then_some(self.settings.bstar_expansions));
        let bstar_limits = search::Limits {
            depth: limits.depth,
            nodes: budget,
            max_stored_nodes: Some(self.settings.max_stored_nodes),
            stop: Some(Arc::clone(&run.flag)),
        };
        let mut prober = self
            .prober
            .take()
            .unwrap_or_else(|| Box::new(Prober::new(self.settings.probe)));
        prober.start(self.settings.probe, Arc::clone(&run.flag));
        game.prober = Some(*prober);
        let result = search::Search::search(&mut BStar::new(None), game, &bstar_limits, tracer);
        let prober = game.prober.take().expect("B* hands the prober back");
        let nodes = result.stats.nodes() + prober.nodes;
        self.prober = Some(Box::new(prober));
        self.details = result.details.clone();

        let mv = result.best_move.unwrap_or(run.first_move);
        // The chosen move has the highest pessimistic bound, the root's.
        let value = if result.value.lo > -INFINITY {
            result.value.lo
        } else {
            Score::ZERO
        };
        let depth = game.deepest_ply();
        let answer = Answer {
            mv,
            value,
            pv: vec![mv],
            depth,
        };
        let result = run.result(answer, nodes);
        report(&SearchInfo {
            depth: result.depth,
            seldepth: result.seldepth,
            score: result.score,
            nodes: result.nodes,
            nps: result.nps(),
            time: result.time,
            pv: result.pv.clone(),
            hashfull: 0,
            lines: Vec::new(),
        });
        result
    }

    /// A depth-first backend, with the MT table when it needs one.
    fn backend(&mut self, algorithm: Algorithm) -> Backend<Move> {
        // The MT backends get this searcher's table in place of a minimal one.
        let options = BackendOptions {
            table_entries: 8,
            ..BackendOptions::default()
        };
        let mut backend = Backend::new(algorithm, &options);
        if !matches!(algorithm, Algorithm::MtSss | Algorithm::Mtdf) {
            return backend;
        }
        let mut table = self
            .table
            .take()
            .unwrap_or_else(|| TranspositionTable::with_megabytes(self.settings.table_mb));
        table.clear();
        match &mut backend {
            Backend::MtSss(mt) => mt.table = table,
            Backend::Mtdf(mt) => mt.table = table,
            _ => unreachable!("only the MT backends use a table"),
        }
        backend
    }

    /// Keeps the MT table for the next search.
    fn put_back(&mut self, backend: Backend<Move>) {
        match backend {
            Backend::MtSss(mt) => self.table = Some(mt.table),
            Backend::Mtdf(mt) => self.table = Some(mt.table),
            _ => {}
        }
    }
}

/// What one search shares with its backends.
struct Run<'a> {
    limits: &'a Limits,
    flag: Arc<AtomicBool>,
    start: Instant,
    soft: Option<Duration>,
    first_move: Move,
}

impl Run<'_> {
    fn result(&self, answer: Answer, nodes: u64) -> SearchResult {
        SearchResult {
            best_move: Some(answer.mv),
            ponder: answer.pv.get(1).copied(),
            score: from_search(answer.value),
            depth: answer.depth,
            seldepth: answer.depth,
            nodes,
            time: self.start.elapsed(),
            pv: answer.pv,
            lines: Vec::new(),
        }
    }
}

/// `line` if it is a legal line from `pos` starting with `best`; else as much of it as
/// is legal, or just `best`.
fn checked_line(pos: &Position, best: Move, line: &[Move]) -> Vec<Move> {
    if line.first() != Some(&best) {
        return vec![best];
    }
    let mut pos = pos.clone();
    let mut checked = Vec::with_capacity(line.len());
    for &mv in line {
        if !pos.is_legal(mv) {
            break;
        }
        pos.make_move(mv);
        checked.push(mv);
    }
    checked
}

/// Searches `pos` with a textbook backend chosen by name (`alphabeta` is the textbook
/// alpha-beta, not the strong engine), sending every trace event to `tracer`. Node ids
/// are move paths that [`PositionNames`] labels; nodes deeper than
/// [`COMPACT_PLIES`](super::move_paths::COMPACT_PLIES) need
/// [`PositionSearcher::search`] with names to be labelled.
pub fn search_position_with<T: Tracer<Move>>(
    algorithm: Algorithm,
    pos: &Position,
    limits: &Limits,
    stop: &AtomicBool,
    tracer: &mut T,
) -> SearchResult {
    PositionSearcher::default().search(algorithm, pos, limits, stop, &mut |_| {}, tracer, None)
}

/// The same without a trace.
pub fn search_position(
    algorithm: Algorithm,
    pos: &Position,
    limits: &Limits,
    stop: &AtomicBool,
) -> SearchResult {
    search_position_with(algorithm, pos, limits, stop, &mut NoTrace)
}
