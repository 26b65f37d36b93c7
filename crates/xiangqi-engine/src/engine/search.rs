//! The alpha-beta searcher for positions: iterative deepening with aspiration windows
//! around a principal variation search (negamax, fail-soft), a transposition table,
//! null-move pruning, late move reductions and pruning, check extensions, and a
//! quiescence search (`quiescence.rs`). Scores are from the side to move.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

use super::limits::Limits;
use super::multipv::PvLine;
use super::ordering::{HISTORY_MAX, History, Killers, MovePicker, OrderingHints};
use super::repetition;
use super::score::{
    DRAW, INFINITE, MATE_BOUND, MAX_PLY, Verdict, from_table, mate_in, mated_in, to_table,
};
use super::tt::{Bound, TranspositionTable};
use crate::eval;
use xiangqi_core::board::rules::NO_CAPTURE_LIMIT;
use xiangqi_core::board::{Move, Position};

mod node_count;
mod node_facts;

/// Switches for the search's enhancements; all on by default. Turning them off gives a
/// plainer alpha-beta for study and for comparing with the textbook backends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    pub quiescence: bool,
    pub null_move: bool,
    pub late_move_reductions: bool,
    /// Reverse futility, futility and late move pruning near the leaves.
    pub pruning: bool,
    pub check_extensions: bool,
    pub aspiration: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            quiescence: true,
            null_move: true,
            late_move_reductions: true,
            pruning: true,
            check_extensions: true,
            aspiration: true,
        }
    }
}

/// Progress after each completed iteration: the one iteration report, whatever engine
/// searched (external engines' `info` lines are read into it too).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// Side to move's score in centipawns, or a mate score (see `score`).
    pub score: i32,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// Permille of the transposition table used by this search.
    pub hashfull: u32,
    /// With MultiPV above 1: every line of this iteration, best first (`pv` and `score`
    /// are the first). Empty for a single-line search.
    pub lines: Vec<PvLine>,
}

impl SearchInfo {
    pub fn verdict(&self) -> Verdict {
        Verdict::from_score(self.score)
    }
}

/// The answer of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move (it has lost).
    pub best_move: Option<Move>,
    /// The expected reply, if the principal variation has one.
    pub ponder: Option<Move>,
    pub score: i32,
    /// Deepest completed iteration (0 if none completed).
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// With MultiPV above 1: the lines of the last iteration, best first. Empty for a
    /// single-line search.
    pub lines: Vec<PvLine>,
}

impl SearchResult {
    pub fn verdict(&self) -> Verdict {
        Verdict::from_score(self.score)
    }

    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.time)
    }
}

pub(crate) fn nodes_per_second(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros) as u64
}

/// No repetition in a subtree: its value does not depend on the path to it.
const PATH_FREE: isize = isize::MAX;
/// How far ahead by static evaluation a side must be for its quiet moves against a
/// confined general to be searched in full (a mating attack, not a balanced endgame).
const MATING_EDGE: i32 = 200;

/// Late move reduction by depth and move number: about ln(d) * ln(m) / 2. Computed once:
/// short searches (B*'s probes) start a searcher thousands of times.
static REDUCTIONS: LazyLock<Box<[[u8; 64]; 64]>> = LazyLock::new(reduction_table);

fn reduction_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.1) as u8;
        }
    }
    t
}

/// The searcher's state for one search.
pub(crate) struct Searcher<'a> {
    pub(crate) pos: Position,
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) history: &'a mut History,
    pub(crate) options: SearchOptions,
    pub(crate) killers: Killers,
    stop: &'a AtomicBool,
    node_limit: u64,
    deadline: Option<Instant>,
    pub(crate) start: Instant,
    /// Nodes this thread searched.
    pub(crate) nodes: u64,
    /// In a parallel search: every thread's nodes, each adding its own every 1024 nodes,
    /// so the node limit bounds the whole search.
    shared_nodes: Option<&'a AtomicU64>,
    /// This thread's nodes already added to `shared_nodes`.
    flushed_nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) stopped: bool,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pub(crate) pv_len: [usize; MAX_PLY + 1],
    pub(crate) buffers: Vec<(Vec<Move>, Vec<i32>)>,
    evals: [i32; MAX_PLY + 2],
    /// `eval::pst::sum` of the position at each ply of the current line, kept here
    /// rather than in `Position` so the board knows nothing of the evaluation.
    psq: [i32; MAX_PLY + 2],
    /// Lowest ply referenced by a repetition verdict in the value just returned (see
    /// `PATH_FREE`); a value that reaches above its node must not be stored as a score.
    pub(crate) path_ply: isize,
    root_depth: i32,
    /// Best root move of the iteration in progress, with its score and variation.
    root_best: Option<(Move, i32, Vec<Move>)>,
    /// Root moves left out of this root search: the earlier MultiPV lines' first moves.
    pub(crate) root_excluded: Vec<Move>,
    reductions: &'static [[u8; 64]; 64],
    /// Endgame tables, probed at every node below the root whose material they cover.
    pub(crate) tablebases: Option<std::sync::Arc<crate::egtb::Tablebases>>,
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        pos: &Position,
        tt: &'a TranspositionTable,
        history: &'a mut History,
        options: SearchOptions,
        limits: &Limits,
        stop: &'a AtomicBool,
    ) -> Self {
        let start = Instant::now();
        let (_, hard) = limits.time_budget();
        Searcher {
            pos: pos.clone(),
            tt,
            history,
            options,
            killers: Killers::default(),
            stop,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: hard.map(|h| start + h),
            start,
            nodes: 0,
            shared_nodes: None,
            flushed_nodes: 0,
            seldepth: 0,
            stopped: false,
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            buffers: (0..=MAX_PLY)
                .map(|_| (Vec::with_capacity(64), Vec::with_capacity(64)))
                .collect(),
            evals: [0; MAX_PLY + 2],
            psq: {
                let mut psq = [0; MAX_PLY + 2];
                psq[0] = eval::pst::sum(pos);
                psq
            },
            path_ply: PATH_FREE,
            root_depth: 0,
            root_best: None,
            root_excluded: Vec::new(),
            reductions: &REDUCTIONS,
            tablebases: None,
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The principal variation of the last completed root search.
    pub(crate) fn root_pv(&self) -> Vec<Move> {
        self.pv[0][..self.pv_len[0]].to_vec()
    }

    pub(crate) fn take_root_best(&mut self) -> Option<(Move, i32, Vec<Move>)> {
        self.root_best.take()
    }

    /// The static evaluation of the position at `ply` of the current line.
    #[inline]
    pub(crate) fn evaluate_at(&self, ply: usize) -> i32 {
        eval::evaluate_with(&self.pos, self.psq[ply])
    }

    /// Makes `mv` at `ply`, keeping the piece-square sum of `ply + 1`.
    #[inline]
    pub(crate) fn make_move_at(&mut self, ply: usize, mv: Move) {
        self.psq[ply + 1] = self.psq[ply] + eval::pst::delta(&self.pos, mv);
        self.pos.make_move(mv);
    }

    /// One root search of `depth` plies in the window (alpha, beta).
    pub(crate) fn search_root(&mut self, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.root_depth = depth;
        self.negamax(depth, alpha, beta, 0, true)
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    pub(crate) fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if ply > 0
            && let Some(tb) = &self.tablebases
            && let Some(score) = super::tablebase::score(tb, &self.pos, ply)
        {
            // The game's repetition verdicts still come first; the table's value is
            // exact otherwise, whatever the depth left.
            if let Some((verdict, distance)) = repetition::verdict(&self.pos, ply) {
                self.path_ply = ply as isize - distance as isize;
                return verdict;
            }
            self.path_ply = PATH_FREE;
            return score;
        }
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply);
        }
        self.path_ply = PATH_FREE;

        if ply > 0 {
            if let Some((score, distance)) = repetition::verdict(&self.pos, ply) {
                self.path_ply = ply as isize - distance as isize;
                return score;
            }
            if self.pos.halfmove_clock() >= NO_CAPTURE_LIMIT {
                return DRAW;
            }
            // Mate distance pruning: no line from here can beat a mate already found.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        if self.count_node_and_check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate_at(ply);
        }

        let key = self.pos.key();
        let entry = self.tt.probe(key);
        let mut tt_move = Move::NULL;
        if let Some(hit) = entry {
            tt_move = hit.mv;
            let score = from_table(hit.score, ply);
            if !pv_node && hit.depth >= depth && hit.bound.decides(score, alpha, beta) {
                return score;
            }
        }

        // Internal iterative reduction: a node the table knows nothing about is likely
        // less important, and searching it shallower first is cheaper than guessing.
        if depth >= 4 && tt_move.is_null() {
            depth -= 1;
        }

        let in_check = self.pos.in_check();
        let static_eval = if in_check {
            -INFINITE
        } else if let Some(hit) = entry {
            hit.eval
        } else {
            self.evaluate_at(ply)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        self.killers.clear_ply(ply + 1);

        // Against a side with nothing left to attack with, endgames are won by quiet
        // mates and stalemates (a win in xiangqi), which pruning on a good static score
        // (reverse futility, null move, futility) would hide.
        let selective = self.opponent_can_attack();
        let mut node_path = PATH_FREE;
        if selective && !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta near the leaves, a quiet move will not
            // bring the score back down. Not for a side that may have no move at all.
            if self.options.pruning
                && depth <= 6
                && static_eval - 85 * (depth - i32::from(improving)) >= beta
                && !self.lacks_mobile_pieces()
            {
                return static_eval;
            }
            if self.options.null_move
                && depth >= 2
                && static_eval >= beta
                && self.pos.last_move().is_some_and(|m| !m.is_null())
                && self.null_move_allowed()
            {
                let reduction = 3 + depth / 4 + ((static_eval - beta) / 200).min(2);
                let null_depth = depth - 1 - reduction;
                self.psq[ply + 1] = self.psq[ply];
                self.pos.make_null_move();
                let value = -self.negamax(null_depth, -beta, -beta + 1, ply + 1, false);
                // Quiescence cannot see a quiet mate threat, so a pass that fails high
                // there must also survive the opponent's mates in one.
                let mate_threat =
                    value >= beta && null_depth <= 0 && self.mate_in_one_exists(ply + 1);
                self.pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                node_path = node_path.min(self.path_ply);
                if value >= beta && !mate_threat {
                    self.path_ply = node_path;
                    return if value >= MATE_BOUND { beta } else { value };
                }
            }
        }

        let previous = self.pos.last_move().unwrap_or(Move::NULL);
        let hints = OrderingHints {
            tt_move,
            killers: self.killers.get(ply),
            counter: self.history.counter_move(&self.pos, previous),
        };
        let (moves, scores) = std::mem::take(&mut self.buffers[ply]);
        let mut picker = MovePicker::new(hints, false, moves, scores);
        let mut best = -INFINITE;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets_tried: [Move; 64] = [Move::NULL; 64];
        let mut quiet_count = 0usize;
        let original_alpha = alpha;
        // The quiet moves of a side well ahead, against a confined general, are neither
        // reduced nor pruned: any of them may start the mate. (In check, where the static
        // evaluation is -INFINITE, neither applies anyway.)
        let reducible =
            selective && !(static_eval >= MATING_EDGE && self.opponent_general_confined());

        while let Some((mv, order)) = picker.next(&mut self.pos, self.history) {
            if ply == 0 && self.root_excluded.contains(&mv) {
                continue;
            }
            let capture = self.pos.piece_at(mv.to()).is_some();

            // Near the leaves, once one move has held, skip what will not matter: late quiet
            // moves, quiet moves far below alpha, and captures that lose material; checks
            // are kept. Decided before making the move, which most skipped moves never need.
            if self.options.pruning && ply > 0 && !pv_node && !in_check && best > -MATE_BOUND {
                let late_limit = (3 + depth * depth) as usize >> usize::from(!improving);
                let late = reducible && !capture && depth <= 4 && searched >= late_limit;
                let futile =
                    reducible && !capture && depth <= 3 && static_eval + 110 * depth <= alpha;
                let losing_capture = capture && order < 0 && depth <= 3;
                if late || futile {
                    // Both hold for every quiet move after this one.
                    picker.stop_sorting_quiets();
                }
                if (late || futile || losing_capture) && !self.pos.gives_check(mv) {
                    continue;
                }
            }
            self.tt.prefetch(self.pos.key_after(mv));
            self.make_move_at(ply, mv);
            let gives_check = self.pos.in_check();

            let extension = i32::from(
                self.options.check_extensions
                    && gives_check
                    && ply < 2 * self.root_depth as usize + 8,
            );
            let new_depth = depth - 1 + extension;
            let mut value;
            if searched == 0 {
                value = -self.negamax(new_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                let mut reduction = 0;
                // Not where `reducible` is false (a side with no attackers, or a mating
                // attack on a confined general): there the win is a quiet mate or
                // stalemate, often a late quiet move that a reduction would hide.
                if self.options.late_move_reductions
                    && reducible
                    && depth >= 3
                    && searched > usize::from(pv_node)
                    && !capture
                    && !in_check
                    && !gives_check
                {
                    reduction =
                        i32::from(self.reductions[(depth as usize).min(63)][searched.min(63)]);
                    if pv_node {
                        reduction -= 1;
                    }
                    if !improving {
                        reduction += 1;
                    }
                    if mv == hints.killers[0] || mv == hints.killers[1] || mv == hints.counter {
                        reduction -= 1;
                    }
                    if order.abs() <= HISTORY_MAX {
                        reduction -= order / 6000;
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                value = -self.negamax(new_depth - reduction, -alpha - 1, -alpha, ply + 1, false);
                if value > alpha && reduction > 0 {
                    value = -self.negamax(new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if pv_node && value > alpha && value < beta {
                    value = -self.negamax(new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            let child_path = self.path_ply;
            self.pos.unmake_move(mv);
            if self.stopped {
                self.buffers[ply] = picker.into_buffers();
                return 0;
            }
            searched += 1;

            if value > best {
                best = value;
                if value > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if ply == 0 {
                        self.root_best = Some((mv, value, self.pv[0][..self.pv_len[0]].to_vec()));
                    }
                    if value >= beta {
                        // Only the refutation's value stands behind a cut-off.
                        node_path = child_path;
                        if !capture {
                            self.reward_quiet(
                                mv,
                                previous,
                                depth,
                                ply,
                                &quiets_tried[..quiet_count],
                            );
                        }
                        break;
                    }
                    alpha = value;
                }
            }
            node_path = node_path.min(child_path);
            if !capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            }
        }
        let generated = picker.generated();
        self.buffers[ply] = picker.into_buffers();

        if searched == 0 {
            // No legal move (pruning needs a searched move first, so none was skipped):
            // checkmate and stalemate both lose in xiangqi.
            debug_assert_eq!(generated, 0);
            self.path_ply = PATH_FREE;
            return mated_in(ply);
        }

        self.path_ply = node_path;
        // A root search without some moves does not know the position's value.
        if ply == 0 && !self.root_excluded.is_empty() {
            return best;
        }
        let bound = if node_path < ply as isize {
            Bound::None
        } else if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move,
            to_table(best, ply),
            static_eval,
            depth,
            bound,
        );
        best
    }

    /// Killer, counter move and history bonus for the quiet move that cut off; a malus
    /// for the quiet moves tried before it.
    fn reward_quiet(&mut self, mv: Move, previous: Move, depth: i32, ply: usize, tried: &[Move]) {
        self.killers.add(ply, mv);
        let bonus = (depth * depth * 16).min(2400);
        self.history.update(&self.pos, mv, bonus);
        for &other in tried {
            self.history.update(&self.pos, other, -bonus);
        }
        self.history.set_counter_move(&self.pos, previous, mv);
    }
}
