//! The prover's work of the trainer as plain data: a request any driver can run on a
//! thread (the local terminal loop, an SSH session, a test inline) with the pure [`run`],
//! and the answer the session applies. A mate in 5 can take the prover seconds.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use xiangqi_core::board::{Move, Position};
use xiangqi_engine::engine::mate_prover::MateProver;
use xiangqi_engine::puzzle::{longest_defence, mating_move};

use super::proof_tree::{self, ProofNode};

/// Nodes the prover may search for one question of the trainer; past it the answer
/// says less (never a guess).
pub const JUDGE_BUDGET: u64 = 400_000;

/// Nodes one request may search in all (a wrong move in a mate in 5 asks many
/// questions); past it the answer says less.
pub const REQUEST_BUDGET: u64 = 1_000_000;

/// How many moves past the ones left "that also mates, but in K" looks.
const SLOWER_MATE_LOOKS: u32 = 2;

/// Work for the prover, tagged with the session's request id.
#[derive(Debug, Clone)]
pub enum PuzzleRequest {
    /// Judge the solver's `mv` in `before` (solver to move, `moves_left` moves to mate).
    /// `certified_wrong`: certification already proved it does not mate in time (the
    /// first move is unique), so only the refutation is asked.
    Judge {
        id: u64,
        before: Position,
        mv: Move,
        moves_left: u32,
        certified_wrong: bool,
    },
    /// A move that mates in `moves_left` from `before` (solver to move).
    Hint {
        id: u64,
        before: Position,
        moves_left: u32,
    },
    /// Every reply of the defender (to move in `position`) with how long it lasts, and
    /// the attacker's answer: one node of the proof tree.
    Node {
        id: u64,
        position: Position,
        moves_left: u32,
    },
}

impl PuzzleRequest {
    /// The answer of a request the prover never got to (cancelled, or refused by a
    /// busy server): as when its budget runs out, it says nothing it did not prove.
    pub fn unanswered(&self) -> PuzzleAnswer {
        match *self {
            PuzzleRequest::Judge { id, mv, .. } => PuzzleAnswer::Judged {
                id,
                mv,
                judgement: Judgement::Unproven,
            },
            PuzzleRequest::Hint { id, .. } => PuzzleAnswer::Hint { id, mv: None },
            PuzzleRequest::Node { id, .. } => PuzzleAnswer::Node { id, node: None },
        }
    }

    pub fn id(&self) -> u64 {
        match self {
            PuzzleRequest::Judge { id, .. }
            | PuzzleRequest::Hint { id, .. }
            | PuzzleRequest::Node { id, .. } => *id,
        }
    }
}

/// Two requests are the same work when they have the same id (effects are compared in
/// tests; positions are not comparable).
impl PartialEq for PuzzleRequest {
    fn eq(&self, other: &PuzzleRequest) -> bool {
        self.id() == other.id()
    }
}

impl Eq for PuzzleRequest {}

/// What a judged move is worth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    /// It mates in the moves left too; the defender answers with `reply` (its longest
    /// defence; `None`: the defender has no move, the puzzle is solved).
    AlsoMates { reply: Option<Move> },
    /// It does not mate in the moves left: `refutation` escapes (or mates the solver,
    /// `mates_solver`); `slower_mate`: it still mates, proven, in this many moves.
    Wrong {
        refutation: Option<Move>,
        mates_solver: bool,
        slower_mate: Option<u32>,
    },
    /// The prover's budget ran out before it could tell.
    Unproven,
}

/// The prover's answer to a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleAnswer {
    Judged {
        id: u64,
        mv: Move,
        judgement: Judgement,
    },
    /// `None`: no move found within the budget.
    Hint { id: u64, mv: Option<Move> },
    /// `None`: the budget ran out.
    Node { id: u64, node: Option<ProofNode> },
}

impl PuzzleAnswer {
    pub fn id(&self) -> u64 {
        match self {
            PuzzleAnswer::Judged { id, .. }
            | PuzzleAnswer::Hint { id, .. }
            | PuzzleAnswer::Node { id, .. } => *id,
        }
    }
}

/// Does the work of `request` with a fresh prover (exact, bounded by [`JUDGE_BUDGET`]
/// a question).
pub fn run(request: &PuzzleRequest) -> PuzzleAnswer {
    answer(request, MateProver::with_budget(JUDGE_BUDGET))
}

/// `run`, giving up (an answer that proves nothing) once `stop` is set: a server's job
/// whose player took the move back or left.
pub fn run_until_stopped(request: &PuzzleRequest, stop: &Arc<AtomicBool>) -> PuzzleAnswer {
    if stop.load(Ordering::Relaxed) {
        return request.unanswered();
    }
    answer(
        request,
        MateProver::with_budget(JUDGE_BUDGET).with_stop(Arc::clone(stop)),
    )
}

fn answer(request: &PuzzleRequest, mut prover: MateProver) -> PuzzleAnswer {
    match request {
        PuzzleRequest::Judge {
            id,
            before,
            mv,
            moves_left,
            certified_wrong,
        } => PuzzleAnswer::Judged {
            id: *id,
            mv: *mv,
            judgement: judge(before, *mv, *moves_left, *certified_wrong, &mut prover),
        },
        PuzzleRequest::Hint {
            id,
            before,
            moves_left,
        } => {
            let mut pos = before.clone();
            PuzzleAnswer::Hint {
                id: *id,
                mv: mating_move(&mut pos, *moves_left, &mut prover)
                    .ok()
                    .flatten(),
            }
        }
        PuzzleRequest::Node {
            id,
            position,
            moves_left,
        } => PuzzleAnswer::Node {
            id: *id,
            node: proof_tree::node(position, *moves_left, &mut prover).ok(),
        },
    }
}

fn judge(
    before: &Position,
    mv: Move,
    moves_left: u32,
    certified_wrong: bool,
    prover: &mut MateProver,
) -> Judgement {
    let mut after = before.clone();
    after.make_move(mv);
    let rest = moves_left.saturating_sub(1);
    if !certified_wrong {
        match prover.defender_lost_within(&mut after, rest) {
            Ok(true) => {
                return match longest_defence(&mut after, rest, prover) {
                    Ok(reply) => Judgement::AlsoMates { reply },
                    Err(_) => Judgement::Unproven,
                };
            }
            Ok(false) => {}
            Err(_) => return Judgement::Unproven,
        }
    }
    let refutation = refutation(&mut after, rest, prover);
    let mates_solver = refutation.is_some_and(|reply| {
        after.make_move(reply);
        let mated = !after.has_legal_move();
        after.unmake_move(reply);
        mated
    });
    let slower_mate = if mates_solver || prover.nodes() > REQUEST_BUDGET {
        None
    } else {
        slower_mate(&mut after, moves_left, prover)
    };
    Judgement::Wrong {
        refutation,
        mates_solver,
        slower_mate,
    }
}

/// A reply of the defender (to move in `after`) proven to escape a mate in `rest`: one
/// that leaves the solver without a move if there is one, else the first that escapes
/// among the captures, then the checks, then the other moves (each group in ICCS
/// order): a refutation usually takes the piece offered or checks. Not the longest
/// defence, which costs far more to prove in a mate in 5. `None` if none was proven
/// within the budgets.
fn refutation(after: &mut Position, rest: u32, prover: &mut MateProver) -> Option<Move> {
    let mut replies: Vec<(u8, String, Move)> = after
        .legal_move_list()
        .into_iter()
        .map(|reply| {
            let capture = !after.piece_at(reply.to()).is_none();
            let check = after.gives_check(reply);
            let group = if capture {
                0
            } else if check {
                1
            } else {
                2
            };
            (group, reply.iccs(), reply)
        })
        .collect();
    replies.sort();
    let mating = replies.iter().map(|&(_, _, reply)| reply).find(|&reply| {
        after.make_move(reply);
        let mated = !after.has_legal_move();
        after.unmake_move(reply);
        mated
    });
    if mating.is_some() {
        return mating;
    }
    for (_, _, reply) in replies {
        if prover.nodes() > REQUEST_BUDGET {
            return None;
        }
        after.make_move(reply);
        let won = prover.forced_win_within(after, rest);
        after.unmake_move(reply);
        if won == Ok(false) {
            return Some(reply);
        }
    }
    None
}

/// The fewest moves (past `moves_left`) in which the solver's move, already made in
/// `after`, still mates, if proven within a few more.
fn slower_mate(after: &mut Position, moves_left: u32, prover: &mut MateProver) -> Option<u32> {
    for k in moves_left + 1..=moves_left + SLOWER_MATE_LOOKS {
        if prover.nodes() > REQUEST_BUDGET {
            return None;
        }
        match prover.defender_lost_within(after, k - 1) {
            Ok(true) => return Some(k),
            Ok(false) => {}
            Err(_) => return None,
        }
    }
    None
}
