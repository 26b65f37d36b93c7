//! Move ordering: the closer the best move comes first, the more alpha-beta prunes.
//! Order: the transposition table's move, winning and even captures by most valuable
//! victim / least valuable attacker, the two killer moves of the ply, the counter move
//! to the opponent's last move, quiet moves by history, and last the captures that lose
//! material by static exchange.

use super::score::MAX_PLY;
use super::see::{exchange_value, see};
use crate::board::{Kind, Move, Position};

const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = KILLER - 4;
const BAD_CAPTURE: i32 = -(1 << 28);
/// History scores stay within +-HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;

/// Quiet-move history: how often a piece moving to a point caused a cut-off, by piece
/// and destination, decayed so recent searches weigh more.
#[derive(Clone)]
pub struct History {
    table: Box<[[i32; 90]; 16]>,
    counter: Box<[[Move; 90]; 16]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[0; 90]; 16]),
            counter: Box::new([[Move::NULL; 90]; 16]),
        }
    }
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Halves every score: between searches the old lessons fade.
    pub fn age(&mut self) {
        for row in self.table.iter_mut() {
            for h in row.iter_mut() {
                *h /= 2;
            }
        }
    }

    #[inline]
    pub fn score(&self, pos: &Position, mv: Move) -> i32 {
        self.table[pos.piece_at(mv.from()).index()][mv.to().index()]
    }

    /// Adds `bonus` (negative for a malus) with gravity towards zero, so scores saturate
    /// at `HISTORY_MAX` instead of overflowing.
    #[inline]
    pub fn update(&mut self, pos: &Position, mv: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.table[pos.piece_at(mv.from()).index()][mv.to().index()];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// The move that last refuted the opponent's `previous` move (already played, so the
    /// piece stands on its destination).
    #[inline]
    pub fn counter_move(&self, pos: &Position, previous: Move) -> Move {
        if previous.is_null() {
            return Move::NULL;
        }
        self.counter[pos.piece_at(previous.to()).index()][previous.to().index()]
    }

    #[inline]
    pub fn set_counter_move(&mut self, pos: &Position, previous: Move, mv: Move) {
        if !previous.is_null() {
            self.counter[pos.piece_at(previous.to()).index()][previous.to().index()] = mv;
        }
    }
}

/// Two killer moves per ply: quiet moves that caused a cut-off at the same depth in a
/// sibling subtree.
pub struct Killers([[Move; 2]; MAX_PLY + 2]);

impl Default for Killers {
    fn default() -> Self {
        Killers([[Move::NULL; 2]; MAX_PLY + 2])
    }
}

impl Killers {
    #[inline]
    pub fn get(&self, ply: usize) -> [Move; 2] {
        self.0[ply]
    }

    #[inline]
    pub fn add(&mut self, ply: usize, mv: Move) {
        let slot = &mut self.0[ply];
        if slot[0] != mv {
            slot[1] = slot[0];
            slot[0] = mv;
        }
    }

    #[inline]
    pub fn clear_ply(&mut self, ply: usize) {
        self.0[ply] = [Move::NULL; 2];
    }
}

/// Most valuable victim first, then least valuable attacker.
#[inline]
pub fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = pos.piece_at(mv.to()).kind();
    let attacker = pos.piece_at(mv.from()).kind();
    exchange_value(victim) * 16 - attacker_rank(attacker)
}

#[inline]
fn attacker_rank(kind: Kind) -> i32 {
    match kind {
        Kind::Soldier => 0,
        Kind::Advisor | Kind::Elephant => 1,
        Kind::Horse => 2,
        Kind::Cannon => 3,
        Kind::Chariot => 4,
        Kind::General => 5,
    }
}

/// True if a capture cannot lose material: the victim is worth at least the attacker,
/// or the exchange on the point comes out even or better.
#[inline]
pub fn capture_holds(pos: &mut Position, mv: Move) -> bool {
    let victim = exchange_value(pos.piece_at(mv.to()).kind());
    let attacker = exchange_value(pos.piece_at(mv.from()).kind());
    victim >= attacker || see(pos, mv) >= 0
}

/// What the picker needs to know about the node beyond the position.
#[derive(Debug, Clone, Copy)]
pub struct OrderingHints {
    pub tt_move: Move,
    pub killers: [Move; 2],
    pub counter: Move,
}

/// Hands out the moves of a node best-first. The table move comes before any move is
/// generated (a cut-off by it saves the generation); the rest are scored once and
/// picked by selection, which is cheap because most nodes stop after a few moves.
pub struct MovePicker {
    moves: Vec<Move>,
    scores: Vec<i32>,
    next: usize,
    hints: OrderingHints,
    captures_only: bool,
    stage: Stage,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    TableMove,
    Generate,
    Rest,
}

impl MovePicker {
    /// `moves` and `scores` are scratch buffers (taken from a pool to avoid allocating).
    pub fn new(
        hints: OrderingHints,
        captures_only: bool,
        mut moves: Vec<Move>,
        mut scores: Vec<i32>,
    ) -> Self {
        moves.clear();
        scores.clear();
        MovePicker {
            moves,
            scores,
            next: 0,
            hints,
            captures_only,
            stage: Stage::TableMove,
        }
    }

    /// Gives the scratch buffers back.
    pub fn into_buffers(self) -> (Vec<Move>, Vec<i32>) {
        (self.moves, self.scores)
    }

    /// Number of legal moves generated (0 before generation). After `next` returned
    /// `None`, 0 with no table move played means there was no legal move.
    pub fn generated(&self) -> usize {
        self.moves.len()
    }

    /// The next move and its ordering score (negative: a capture that loses material).
    pub fn next(&mut self, pos: &mut Position, history: &History) -> Option<(Move, i32)> {
        if self.stage == Stage::TableMove {
            self.stage = Stage::Generate;
            let mv = self.hints.tt_move;
            if !mv.is_null()
                && pos.is_legal(mv)
                && (!self.captures_only || pos.piece_at(mv.to()).is_some())
            {
                return Some((mv, GOOD_CAPTURE * 2));
            }
            self.hints.tt_move = Move::NULL;
        }
        if self.stage == Stage::Generate {
            self.stage = Stage::Rest;
            if self.captures_only {
                pos.legal_captures(&mut self.moves);
            } else {
                pos.legal_moves(&mut self.moves);
            }
            for i in 0..self.moves.len() {
                let score = self.score(pos, history, self.moves[i]);
                self.scores.push(score);
            }
        }
        loop {
            if self.next >= self.moves.len() {
                return None;
            }
            // The first of the highest scores, found in two passes: the maximum (a loop
            // the compiler vectorises), then its first position. Ties keep the order a
            // plain selection loop would give, so the search stays the same.
            let rest = &self.scores[self.next..];
            let top = rest.iter().copied().max().unwrap_or(i32::MIN);
            let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
            self.moves.swap(self.next, best);
            self.scores.swap(self.next, best);
            let (mv, score) = (self.moves[self.next], self.scores[self.next]);
            if mv == self.hints.tt_move {
                self.next += 1;
                continue;
            }
            // The exchange is checked only for the capture about to be tried: after a
            // cut-off the others never need it. A losing one goes to the back.
            if score >= GOOD_CAPTURE && !capture_holds(pos, mv) {
                self.scores[self.next] = BAD_CAPTURE + (score - GOOD_CAPTURE);
                continue;
            }
            self.next += 1;
            return Some((mv, score));
        }
    }

    fn score(&self, pos: &Position, history: &History, mv: Move) -> i32 {
        if pos.piece_at(mv.to()).is_some() {
            // Assumed to hold until picked (see `next`).
            GOOD_CAPTURE + mvv_lva(pos, mv)
        } else if mv == self.hints.killers[0] {
            KILLER
        } else if mv == self.hints.killers[1] {
            KILLER - 1
        } else if mv == self.hints.counter {
            COUNTER
        } else {
            history.score(pos, mv)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_come_first_most_valuable_victim_first() {
        // Red chariot e4 can take a black chariot (e9 side blocked) or a soldier.
        let mut pos = Position::from_fen("3k5/9/9/4r4/9/4R1p2/9/9/9/5K3 w - - 0 1").unwrap();
        let history = History::default();
        let hints = OrderingHints {
            tt_move: Move::NULL,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
        };
        let mut picker = MovePicker::new(hints, false, Vec::new(), Vec::new());
        let (first, _) = picker.next(&mut pos, &history).unwrap();
        assert_eq!(first.iccs(), "e4e6");
        let (second, _) = picker.next(&mut pos, &history).unwrap();
        assert_eq!(second.iccs(), "e4g4");
        let mut count = 2;
        while picker.next(&mut pos, &history).is_some() {
            count += 1;
        }
        assert_eq!(count, pos.count_legal() as usize);
    }

    #[test]
    fn table_move_comes_first_and_only_once() {
        let mut pos = Position::startpos();
        let history = History::default();
        let tt_move = Move::parse_coords("h2e2").unwrap();
        let hints = OrderingHints {
            tt_move,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
        };
        let mut picker = MovePicker::new(hints, false, Vec::new(), Vec::new());
        assert_eq!(picker.next(&mut pos, &history).unwrap().0, tt_move);
        let mut rest = Vec::new();
        while let Some((mv, _)) = picker.next(&mut pos, &history) {
            rest.push(mv);
        }
        assert_eq!(rest.len(), 43);
        assert!(!rest.contains(&tt_move));
    }

    #[test]
    fn history_saturates() {
        let pos = Position::startpos();
        let mut history = History::default();
        let mv = Move::parse_coords("h2e2").unwrap();
        for _ in 0..1000 {
            history.update(&pos, mv, 4000);
        }
        assert!(history.score(&pos, mv) <= HISTORY_MAX);
        assert!(history.score(&pos, mv) > HISTORY_MAX * 9 / 10);
    }
}
