//! The mate oracle ([`super::mate_oracle`]) made fast enough to certify puzzles, and
//! still exact: it searches the same full tree (no pruning, no evaluation, nothing from
//! the engine's search) and only adds what cannot change an answer:
//!
//! - a memo of proven results by position: a side proven to force a win within k moves
//!   wins within any larger k, one proven unable to within k cannot within any smaller
//!   k. Entries keep the whole board (packed), so a Zobrist collision is a miss, never a
//!   wrong answer;
//! - move ordering: the attacker tries checks first, each side tries first the move that
//!   last decided a node at the same depth (a killer).
//!
//! Like the oracle it counts a side with no legal move as lost (checkmate or stalemate)
//! and ignores repetition: the defender may check forever, as xiangqi's rules forbid, so
//! a win that needs that rule is not proven (a proof never rests on it). A node budget bounds the
//! work on one question: past it the answer is [`BudgetExceeded`], never a guess.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use xiangqi_core::board::{Move, Position};

/// The prover gave up: the question needs more nodes than its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the mate prover's budget of {budget} nodes ran out")]
pub struct BudgetExceeded {
    pub budget: u64,
}

/// Zobrist keys are already uniform: hash them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys are hashed");
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The board in nibbles (a piece fits in 4 bits), with the side to move in the key.
type Packed = [u8; 45];

/// What is proven of a node: won within `won_within` moves (0: not known), and not won
/// within `unwon_within` (0 says nothing: no one wins within 0 moves).
#[derive(Clone, Copy)]
struct Entry {
    board: Packed,
    won_within: u8,
    unwon_within: u8,
}

/// Salts a defender node's key, so the same position met as an attacker's node (to be
/// won by the side to move) and as a defender's (lost by it) are two entries.
const DEFENDER_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// The memo is cleared past this many entries (about 60 bytes each).
const MEMO_LIMIT: usize = 4_000_000;

/// Deepest search in moves; killers are kept per remaining depth.
const MAX_MOVES: usize = 32;

/// An exact mate prover with a memo that lasts from one question to the next (answers
/// depend on the position alone, so they stay true).
pub struct MateProver {
    memo: HashMap<u64, Entry, BuildHasherDefault<KeyHasher>>,
    attacker_killers: [Move; MAX_MOVES + 1],
    defender_killers: [Move; MAX_MOVES + 1],
    nodes: u64,
    budget: u64,
    /// Set when the budget ran out; nothing is stored after it, and the question ends.
    exceeded: bool,
    /// Set by whoever no longer wants the answers: the question ends as if its budget
    /// ran out (looked at every `STOP_EVERY` nodes).
    stop: Option<Arc<AtomicBool>>,
}

/// Nodes between two looks at the stop flag.
const STOP_EVERY: u64 = 1024;

impl Default for MateProver {
    fn default() -> Self {
        MateProver::new()
    }
}

impl MateProver {
    /// A prover without a budget.
    pub fn new() -> MateProver {
        MateProver::with_budget(u64::MAX)
    }

    /// A prover that gives up on a question after `budget` nodes.
    pub fn with_budget(budget: u64) -> MateProver {
        MateProver {
            memo: HashMap::default(),
            attacker_killers: [Move::NULL; MAX_MOVES + 1],
            defender_killers: [Move::NULL; MAX_MOVES + 1],
            nodes: 0,
            budget,
            exceeded: false,
            stop: None,
        }
    }

    /// The same prover, giving up on its question once `stop` is set.
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> MateProver {
        self.stop = Some(stop);
        self
    }

    /// Nodes searched by all questions so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets what was proven (to bound memory between unrelated positions).
    pub fn clear(&mut self) {
        self.memo.clear();
    }

    /// The shortest forced win (the opponent left without a legal move) for the side to
    /// move, in its own moves, up to `limit`.
    pub fn shortest_forced_win(
        &mut self,
        pos: &Position,
        limit: u32,
    ) -> Result<Option<u32>, BudgetExceeded> {
        let mut pos = pos.clone();
        for moves in 1..=limit {
            if self.forced_win_within(&mut pos, moves)? {
                return Ok(Some(moves));
            }
        }
        Ok(None)
    }

    /// Can the side to move force a position where the opponent has no legal move within
    /// `moves` of its own moves?
    pub fn forced_win_within(
        &mut self,
        pos: &mut Position,
        moves: u32,
    ) -> Result<bool, BudgetExceeded> {
        self.ask(|prover| prover.attacker(pos, moves.min(MAX_MOVES as u32)))
    }

    /// The side to move has no legal move now, or every reply still loses within `moves`
    /// more of the opponent's moves.
    pub fn defender_lost_within(
        &mut self,
        pos: &mut Position,
        moves: u32,
    ) -> Result<bool, BudgetExceeded> {
        self.ask(|prover| prover.defender(pos, moves.min(MAX_MOVES as u32)))
    }

    /// The legal moves of the side to move after which the opponent is lost within
    /// `moves - 1` more of its moves: the moves that win within `moves`, in ICCS order
    /// (the move text compared as a string).
    pub fn winning_moves(
        &mut self,
        pos: &mut Position,
        moves: u32,
    ) -> Result<Vec<Move>, BudgetExceeded> {
        let mut winners = Vec::new();
        if moves == 0 {
            return Ok(winners);
        }
        let mut candidates = pos.legal_move_list();
        candidates.sort_by_key(|mv| mv.iccs());
        for mv in candidates {
            pos.make_move(mv);
            let lost = self.defender_lost_within(pos, moves - 1);
            pos.unmake_move(mv);
            if lost? {
                winners.push(mv);
            }
        }
        Ok(winners)
    }

    /// Runs one question with a fresh budget; a question over budget leaves the memo as
    /// it was before the budget ran out (every entry in it was fully proven).
    fn ask(&mut self, question: impl FnOnce(&mut Self) -> bool) -> Result<bool, BudgetExceeded> {
        if self.memo.len() > MEMO_LIMIT {
            self.memo.clear();
        }
        let start = self.nodes;
        let budget = self.budget;
        if self
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
        {
            return Err(BudgetExceeded { budget });
        }
        self.exceeded = false;
        let limit = start.saturating_add(budget);
        let saved = std::mem::replace(&mut self.budget, limit);
        let answer = question(self);
        self.budget = saved;
        if self.exceeded {
            self.exceeded = false;
            return Err(BudgetExceeded { budget });
        }
        Ok(answer)
    }

    /// Counts a node; false once the budget is spent.
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        let stopped = self.nodes.is_multiple_of(STOP_EVERY)
            && self
                .stop
                .as_ref()
                .is_some_and(|stop| stop.load(Ordering::Relaxed));
        if self.nodes > self.budget || stopped {
            self.exceeded = true;
        }
        !self.exceeded
    }

    fn attacker(&mut self, pos: &mut Position, moves: u32) -> bool {
        if moves == 0 || self.exceeded {
            return false;
        }
        let key = pos.key();
        let board = pack(pos);
        if let Some(known) = self.known(key, &board, moves) {
            return known;
        }
        if !self.visit() {
            return false;
        }
        let mut candidates = pos.legal_move_list();
        let killer = self.attacker_killers[moves as usize];
        // Checks first, the killer before all: most wins are found sooner so.
        candidates.sort_by_cached_key(|&mv| (mv != killer, !pos.gives_check(mv)));
        let mut won = false;
        for mv in candidates {
            pos.make_move(mv);
            let lost = if moves == 1 {
                !pos.has_legal_move()
            } else {
                self.defender(pos, moves - 1)
            };
            pos.unmake_move(mv);
            if self.exceeded {
                return false;
            }
            if lost {
                self.attacker_killers[moves as usize] = mv;
                won = true;
                break;
            }
        }
        self.store(key, board, moves, won);
        won
    }

    fn defender(&mut self, pos: &mut Position, moves: u32) -> bool {
        if self.exceeded {
            return false;
        }
        if moves == 0 {
            return !pos.has_legal_move();
        }
        let key = pos.key() ^ DEFENDER_SALT;
        let board = pack(pos);
        // A defender lost within k moves is "won within k" for this entry.
        if let Some(known) = self.known(key, &board, moves) {
            return known;
        }
        if !self.visit() {
            return false;
        }
        let mut replies = pos.legal_move_list();
        let killer = self.defender_killers[moves as usize];
        if let Some(i) = replies.iter().position(|&mv| mv == killer) {
            replies.swap(0, i);
        }
        let mut lost = true;
        for reply in replies {
            pos.make_move(reply);
            let won = self.attacker(pos, moves);
            pos.unmake_move(reply);
            if self.exceeded {
                return false;
            }
            if !won {
                self.defender_killers[moves as usize] = reply;
                lost = false;
                break;
            }
        }
        self.store(key, board, moves, lost);
        lost
    }

    /// What the memo proves of a node at `moves`, if anything.
    fn known(&self, key: u64, board: &Packed, moves: u32) -> Option<bool> {
        let entry = self.memo.get(&key).filter(|e| e.board == *board)?;
        if entry.won_within != 0 && u32::from(entry.won_within) <= moves {
            Some(true)
        } else if u32::from(entry.unwon_within) >= moves {
            Some(false)
        } else {
            None
        }
    }

    fn store(&mut self, key: u64, board: Packed, moves: u32, won: bool) {
        if self.exceeded {
            return;
        }
        let moves = moves as u8;
        let entry = self.memo.entry(key).or_insert(Entry {
            board,
            won_within: 0,
            unwon_within: 0,
        });
        if entry.board != board {
            // A Zobrist collision: the newer position takes the slot.
            *entry = Entry {
                board,
                won_within: 0,
                unwon_within: 0,
            };
        }
        if won {
            if entry.won_within == 0 || moves < entry.won_within {
                entry.won_within = moves;
            }
        } else {
            entry.unwon_within = entry.unwon_within.max(moves);
        }
    }
}

/// The board, two points a byte; the side to move is in the Zobrist key.
fn pack(pos: &Position) -> Packed {
    let mut packed = [0u8; 45];
    for (i, pair) in pos.points().chunks_exact(2).enumerate() {
        packed[i] = pair[0].index() as u8 | ((pair[1].index() as u8) << 4);
    }
    packed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::mate_oracle;

    /// Positions with and without short mates: the mates of tests/data/mates.tsv (from
    /// self-play) and the start position, where no side mates soon.
    fn positions() -> Vec<(Position, u32)> {
        include_str!("../../../../tests/data/mates.tsv")
            .lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .map(|line| {
                let (fen, moves) = line.split_once('\t').unwrap();
                (
                    Position::from_fen(fen).unwrap(),
                    moves.trim().parse().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn shortest_wins_equal_the_plain_oracle() {
        let mut prover = MateProver::new();
        for (pos, moves) in positions().into_iter().filter(|(_, n)| *n <= 2) {
            let plain = mate_oracle::shortest_forced_win(&pos, moves);
            assert_eq!(plain, Some(moves), "{pos:?}");
            assert_eq!(prover.shortest_forced_win(&pos, moves), Ok(plain));
        }
    }

    #[test]
    fn every_first_move_gets_the_plain_oracles_answer() {
        // For each move of each position, "does the opponent lose within N-1 more moves"
        // from the prover (with its memo warm from the earlier moves) and the oracle.
        let mut prover = MateProver::new();
        for (mut pos, moves) in positions().into_iter().filter(|(_, n)| *n <= 2) {
            for mv in pos.legal_move_list() {
                pos.make_move(mv);
                for depth in [moves - 1, moves] {
                    let plain = mate_oracle::defender_lost_within(&mut pos, depth);
                    let fast = prover.defender_lost_within(&mut pos, depth);
                    assert_eq!(fast, Ok(plain), "{pos:?} {depth}");
                }
                pos.unmake_move(mv);
            }
        }
    }

    #[test]
    fn mates_in_three_are_found_at_three_and_not_two() {
        let mut prover = MateProver::new();
        let threes: Vec<_> = positions().into_iter().filter(|(_, n)| *n == 3).collect();
        assert!(threes.len() >= 10);
        for (pos, _) in threes.iter().take(10) {
            let mut copy = pos.clone();
            assert!(!mate_oracle::forced_win_within(&mut copy, 2));
            assert_eq!(prover.shortest_forced_win(pos, 3), Ok(Some(3)));
        }
    }

    #[test]
    fn no_win_in_the_start_position() {
        let mut prover = MateProver::new();
        let pos = Position::startpos();
        assert_eq!(mate_oracle::shortest_forced_win(&pos, 2), None);
        assert_eq!(prover.shortest_forced_win(&pos, 2), Ok(None));
    }

    #[test]
    fn a_spent_budget_is_an_error_and_leaves_no_wrong_answer() {
        let (pos, moves) = positions()
            .into_iter()
            .find(|(_, n)| *n == 3)
            .expect("a mate in 3");
        let mut prover = MateProver::with_budget(5);
        assert_eq!(
            prover.shortest_forced_win(&pos, moves),
            Err(BudgetExceeded { budget: 5 })
        );
        prover.budget = u64::MAX;
        assert_eq!(prover.shortest_forced_win(&pos, moves), Ok(Some(moves)));
    }

    #[test]
    fn a_stopped_prover_gives_up_within_its_stop_interval_and_proves_nothing() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut prover = MateProver::new().with_stop(Arc::clone(&stop));
        // No mate in the start position: an unbounded question visits many nodes.
        let mut pos = Position::startpos();
        stop.store(true, Ordering::Relaxed);
        assert_eq!(
            prover.forced_win_within(&mut pos, 3),
            Err(BudgetExceeded { budget: u64::MAX })
        );
        assert_eq!(prover.nodes(), 0, "asked after the stop: not begun");
        // Mid-question, the flag is looked at every STOP_EVERY nodes.
        let mut prover = MateProver::new().with_stop(Arc::clone(&stop));
        let visited = (0..2 * STOP_EVERY).take_while(|_| prover.visit()).count();
        assert_eq!(visited as u64, STOP_EVERY - 1);
    }
}
