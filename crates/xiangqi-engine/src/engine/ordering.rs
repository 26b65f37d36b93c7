//! Move ordering: the closer the best move comes first, the more alpha-beta prunes.
//! Order: the transposition table's move, winning and even captures by most valuable
//! victim / least valuable attacker, the two killer moves of the ply, the counter move
//! to the opponent's last move, quiet moves by history, and last the captures that lose
//! material by static exchange.

use super::score::MAX_PLY;
use super::see::{exchange_value, see};
use xiangqi_core::board::{Kind, Move, Position};

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

/// Hands out the moves of a node best-first, generating them in stages so that a
/// cut-off early in the list saves the work for the rest: the table move before any
/// generation, then the captures, then the killer and counter moves (checked for
/// legality alone), then the quiet moves, and last the captures that lose material.
/// Within a stage moves are picked by selection, which is cheap because most nodes stop
/// after a few moves.
pub struct MovePicker {
    /// The captures, then (once generated) the quiet moves.
    moves: Vec<Move>,
    scores: Vec<i32>,
    /// Next move to pick.
    next: usize,
    /// End of the captures in `moves`.
    captures_end: usize,
    /// Where the losing captures start: they wait for the final stage.
    first_bad: usize,
    /// Next of the killer and counter moves to try.
    candidate: usize,
    /// The killer and counter moves handed out (`Move::NULL` for one that was not).
    played_quiets: [Move; 3],
    hints: OrderingHints,
    captures_only: bool,
    /// The search will skip the remaining quiet moves but checks: hand them out unsorted.
    quiets_unsorted: bool,
    stage: Stage,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    TableMove,
    GenerateCaptures,
    Captures,
    Killers,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    Done,
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
            captures_end: 0,
            first_bad: 0,
            candidate: 0,
            played_quiets: [Move::NULL; 3],
            hints,
            captures_only,
            quiets_unsorted: false,
            stage: Stage::TableMove,
        }
    }

    /// Gives the scratch buffers back.
    pub fn into_buffers(self) -> (Vec<Move>, Vec<i32>) {
        (self.moves, self.scores)
    }

    /// Number of legal moves generated so far, the table, killer and counter moves
    /// included once handed out. After `next` returned `None`, 0 means there was no
    /// legal move.
    pub fn generated(&self) -> usize {
        let handed_out =
            usize::from(self.stage != Stage::TableMove && !self.hints.tt_move.is_null())
                + self.played_quiets.iter().filter(|m| !m.is_null()).count();
        self.moves.len() + handed_out
    }

    /// From now on the quiet moves come in generation order: the search prunes all but
    /// the checks among them, so sorting them would be wasted.
    pub fn stop_sorting_quiets(&mut self) {
        self.quiets_unsorted = true;
    }

    /// The captures left are the losing ones: they wait for the last stage.
    fn end_captures(&mut self) {
        self.first_bad = self.next;
        self.stage = if self.captures_only {
            Stage::Done
        } else {
            Stage::Killers
        };
    }

    /// Moves the best-scored of `moves[next..end]` to `next` and returns it, or `None` if
    /// the range is empty. The first of equal scores wins, as a plain selection loop
    /// would pick.
    fn select(&mut self, end: usize) -> Option<(Move, i32)> {
        if self.next >= end {
            return None;
        }
        // The maximum (a loop the compiler vectorises), then its first position.
        let rest = &self.scores[self.next..end];
        let top = rest.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        Some((self.moves[self.next], self.scores[self.next]))
    }

    /// The next move and its ordering score (negative: a capture that loses material).
    pub fn next(&mut self, pos: &mut Position, history: &History) -> Option<(Move, i32)> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = Stage::GenerateCaptures;
                    let mv = self.hints.tt_move;
                    if !mv.is_null()
                        && pos.is_legal(mv)
                        && (!self.captures_only || pos.piece_at(mv.to()).is_some())
                    {
                        return Some((mv, GOOD_CAPTURE * 2));
                    }
                    self.hints.tt_move = Move::NULL;
                }
                Stage::GenerateCaptures => {
                    self.stage = Stage::Captures;
                    pos.legal_captures(&mut self.moves);
                    for &mv in &self.moves {
                        self.scores.push(GOOD_CAPTURE + mvv_lva(pos, mv));
                    }
                    self.captures_end = self.moves.len();
                }
                Stage::Captures => {
                    let Some((mv, score)) = self.select(self.captures_end) else {
                        self.end_captures();
                        continue;
                    };
                    // A losing capture stays behind, for the last stage. The exchange is
                    // checked only for the capture about to be tried: after a cut-off the
                    // others never need it.
                    if score < GOOD_CAPTURE {
                        self.end_captures();
                        continue;
                    }
                    if !capture_holds(pos, mv) {
                        self.scores[self.next] = BAD_CAPTURE + (score - GOOD_CAPTURE);
                        continue;
                    }
                    self.next += 1;
                    if mv != self.hints.tt_move {
                        return Some((mv, score));
                    }
                }
                Stage::Killers => {
                    let candidates = [
                        (self.hints.killers[0], KILLER),
                        (self.hints.killers[1], KILLER - 1),
                        (self.hints.counter, COUNTER),
                    ];
                    let Some(&(mv, score)) = candidates.get(self.candidate) else {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    };
                    self.candidate += 1;
                    if !mv.is_null()
                        && mv != self.hints.tt_move
                        && !self.played_quiets.contains(&mv)
                        && pos.piece_at(mv.to()).is_none()
                        && pos.is_legal(mv)
                    {
                        self.played_quiets[self.candidate - 1] = mv;
                        return Some((mv, score));
                    }
                }
                Stage::GenerateQuiets => {
                    self.stage = Stage::Quiets;
                    self.next = self.moves.len();
                    pos.legal_quiets(&mut self.moves);
                    for i in self.next..self.moves.len() {
                        let score = history.score(pos, self.moves[i]);
                        self.scores.push(score);
                    }
                }
                Stage::Quiets => {
                    let picked = if self.quiets_unsorted {
                        (self.next < self.moves.len())
                            .then(|| (self.moves[self.next], self.scores[self.next]))
                    } else {
                        self.select(self.moves.len())
                    };
                    let Some((mv, score)) = picked else {
                        self.stage = Stage::BadCaptures;
                        self.next = self.first_bad;
                        continue;
                    };
                    self.next += 1;
                    if mv != self.hints.tt_move && !self.played_quiets.contains(&mv) {
                        return Some((mv, score));
                    }
                }
                Stage::BadCaptures => {
                    let Some((mv, score)) = self.select(self.captures_end) else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    self.next += 1;
                    if mv != self.hints.tt_move {
                        return Some((mv, score));
                    }
                }
                Stage::Done => return None,
            }
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
    fn stages_hand_out_every_move_once_killers_after_captures_losing_captures_last() {
        // Red's chariot on a4 can take a guarded soldier on a7 (a losing capture: the
        // black chariot on a9 retakes) and a free horse on d4.
        let mut pos = Position::from_fen("r2k5/9/9/p8/9/9/R2n5/9/9/4K4 w - - 0 1").unwrap();
        let history = History::default();
        let killer = Move::parse_coords("e0f0").unwrap();
        let illegal_killer = Move::parse_coords("b0c2").unwrap();
        let hints = OrderingHints {
            tt_move: Move::NULL,
            killers: [killer, illegal_killer],
            counter: killer,
        };
        let mut picker = MovePicker::new(hints, false, Vec::new(), Vec::new());
        let mut order = Vec::new();
        while let Some((mv, _)) = picker.next(&mut pos, &history) {
            order.push(mv.iccs());
        }
        assert_eq!(order.len(), pos.count_legal() as usize);
        assert_eq!(order[0], "a3d3");
        assert_eq!(order[1], "e0f0");
        assert_eq!(order.last().unwrap(), "a3a6");
        assert_eq!(order.iter().filter(|m| *m == "e0f0").count(), 1);
    }

    /// Over positions from random games and hints mixing legal, illegal and repeated
    /// moves, the picker hands out every legal move exactly once (all moves), or exactly
    /// the legal captures that do not lose material plus a legal table capture (captures
    /// only), whatever stage each comes from.
    #[test]
    fn every_stage_together_hands_out_each_legal_move_once() {
        let mut rng = xiangqi_core::rng::SplitMix64::new(15);
        let history = History::default();
        let any_move = |rng: &mut xiangqi_core::rng::SplitMix64, legal: &[Move]| {
            if rng.below(3) == 0 || legal.is_empty() {
                Move::new(
                    xiangqi_core::board::Square::from_index(rng.below(90)),
                    xiangqi_core::board::Square::from_index(rng.below(90)),
                )
            } else {
                legal[rng.below(legal.len())]
            }
        };
        for _game in 0..40 {
            let mut pos = Position::startpos();
            for _ply in 0..120 {
                let legal = pos.legal_move_list();
                if legal.is_empty() {
                    break;
                }
                let killer = any_move(&mut rng, &legal);
                let hints = OrderingHints {
                    tt_move: any_move(&mut rng, &legal),
                    killers: [killer, any_move(&mut rng, &legal)],
                    counter: if rng.below(2) == 0 {
                        killer
                    } else {
                        any_move(&mut rng, &legal)
                    },
                };
                for captures_only in [false, true] {
                    let mut picker = MovePicker::new(hints, captures_only, Vec::new(), Vec::new());
                    // The search may stop the sorting of the quiet moves at any point.
                    let unsorted_from = rng.below(legal.len() + 2);
                    let mut handed = Vec::new();
                    while let Some((mv, _)) = picker.next(&mut pos, &history) {
                        handed.push(mv);
                        if handed.len() == unsorted_from {
                            picker.stop_sorting_quiets();
                        }
                    }
                    let mut expected: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|&mv| {
                            !captures_only
                                || (pos.piece_at(mv.to()).is_some()
                                    && (mv == hints.tt_move || capture_holds(&mut pos, mv)))
                        })
                        .collect();
                    handed.sort_by_key(|m| m.bits());
                    expected.sort_by_key(|m| m.bits());
                    assert_eq!(handed, expected, "{} hints {hints:?}", pos.to_fen());
                }
                pos.make_move(legal[rng.below(legal.len())]);
            }
        }
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
