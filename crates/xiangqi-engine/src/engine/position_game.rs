//! A xiangqi position behind the search seam ([`Game`]), so every textbook backend
//! (minimax, alpha-beta, SSS*, MT-SSS*, MTD(f), B*) runs on real positions.
//!
//! * **Move order** ("left to right"): captures first, the most valuable victim first
//!   and, among equal victims, the least valuable attacker first (MVV-LVA); then quiet
//!   moves, the largest middlegame piece-square gain first. Ties keep the move
//!   generator's order, so the order is fixed for a position.
//! * **Leaves** are scored by the engine's static evaluation from the side to move, with
//!   no quiescence search, so the backends see the same tree and can be compared.
//! * **Terminal verdicts**, from the side to move: no legal move (checkmate or
//!   stalemate) loses; below the root, a repetition is judged as the engine judges it
//!   (perpetual check loses, otherwise a draw) and the 120-ply no-capture rule draws.
//!   Mates are scored `MATE - plies from the root`, so shorter wins score higher.
//! * **Keys** for the MT-SSS*/MTD(f) table: the generic table stores scores exactly as
//!   the search returns them, so a stored value must mean the same wherever the key
//!   recurs. A repetition verdict depends on the path, the 120-ply draw on the clock,
//!   and a mate score on the distance from the root; the Zobrist key alone would let a
//!   draw by repetition found on one path answer for the same position reached without
//!   one. So the key mixes into the Zobrist key a hash of the reversible history (the
//!   positions since the last capture, the only ones a repetition can reach back to,
//!   whose number is the no-capture clock) and the ply from the root. Nodes share an
//!   entry only when everything their value depends on is equal; the price is that
//!   transpositions of quiet moves are not merged.
//! * **Node ids** are move paths ([`move_paths`](super::move_paths)), which
//!   [`PositionNames`] turns into labels.

use crate::eval;
use crate::eval::phased::mg;
use crate::eval::pst::PSQ;
use crate::search::{Game, NodeId, Score};
use xiangqi_core::board::rules::NO_CAPTURE_LIMIT;
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::rng::mix;

use super::move_paths::{PositionNames, ROOT_ID, child_id};
use super::probe::Prober;
use super::repetition;
use super::score::to_search;
use super::see::exchange_value;

/// The reversible-history hash of a node with no position before it since a capture.
const EMPTY_HISTORY: u64 = 0x2545_f491_4f6c_dd1d;

/// The history hash after a quiet move from a position with Zobrist key `key`.
fn extend_history(history: u64, key: u64) -> u64 {
    mix(history.rotate_left(17) ^ key)
}

/// A position searched through the [`Game`] seam. It starts at the root it was made
/// from, and searches leave it there.
pub struct PositionGame {
    pos: Position,
    /// The game's ply count at the root (moves played before it are history).
    root_ply: usize,
    /// Reversible-history hash of the node at each ply from the root.
    histories: Vec<u64>,
    /// Node id at each ply from the root.
    ids: Vec<NodeId>,
    names: Option<PositionNames>,
    /// The deepest ply a move has been played to (B* reports it as its depth).
    deepest: u32,
    /// Interval estimates for B* (see [`probe`](super::probe)).
    pub(crate) prober: Option<Prober>,
}

impl PositionGame {
    /// The game rooted at `pos`, whose move history counts for repetitions.
    pub fn new(pos: &Position) -> PositionGame {
        let window: Vec<u64> = pos
            .past_states()
            .take(pos.halfmove_clock() as usize)
            .map(|(key, _)| key)
            .collect();
        let history = window
            .iter()
            .rev()
            .fold(EMPTY_HISTORY, |h, &key| extend_history(h, key));
        PositionGame {
            pos: pos.clone(),
            root_ply: pos.ply(),
            histories: vec![history],
            ids: vec![ROOT_ID],
            names: None,
            deepest: 0,
            prober: None,
        }
    }

    /// The same, numbering nodes deeper than the packed paths in `names` so that every
    /// node has a label (see [`move_paths`](super::move_paths)).
    pub fn with_names(pos: &Position, names: &PositionNames) -> PositionGame {
        PositionGame {
            names: Some(names.clone()),
            ..PositionGame::new(pos)
        }
    }

    /// The position at the current node.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Plies from the root to the current node.
    pub fn ply(&self) -> u32 {
        (self.pos.ply() - self.root_ply) as u32
    }

    /// The deepest ply any move has been played to so far.
    pub fn deepest_ply(&self) -> u32 {
        self.deepest
    }
}

/// Appends the legal moves of `pos` in the fixed search order: captures by MVV-LVA,
/// then quiet moves by piece-square gain, ties in generation order.
pub fn ordered_moves(pos: &Position, out: &mut Vec<Move>) {
    let start = out.len();
    pos.legal_moves(out);
    let sign = match pos.side_to_move() {
        Color::Red => 1,
        Color::Black => -1,
    };
    out[start..].sort_by_key(|&mv| {
        let piece = pos.piece_at(mv.from());
        let victim = pos.piece_at(mv.to());
        if victim.is_some() {
            (
                0,
                -exchange_value(victim.kind()),
                exchange_value(piece.kind()),
            )
        } else {
            let table = &PSQ[piece.index()];
            let gain = sign * mg(table[mv.to().index()] - table[mv.from().index()]);
            (1, -gain, 0)
        }
    });
}

impl Game for PositionGame {
    type Move = Move;

    fn moves(&self, out: &mut Vec<Move>) {
        ordered_moves(&self.pos, out);
    }

    fn play(&mut self, mv: Move) {
        let history = *self.histories.last().expect("the root has a history");
        let next_history = if self.pos.piece_at(mv.to()).is_some() {
            EMPTY_HISTORY
        } else {
            extend_history(history, self.pos.key())
        };
        let ply = self.ply();
        let parent = *self.ids.last().expect("the root has an id");
        self.pos.make_move(mv);
        // Without a path id, a node is named by what its key is made of.
        let fallback = self.pos.key() ^ next_history;
        self.ids
            .push(child_id(parent, ply, mv, self.names.as_ref(), fallback));
        self.histories.push(next_history);
        self.deepest = self.deepest.max(ply + 1);
    }

    fn undo(&mut self, mv: Move) {
        self.pos.unmake_move(mv);
        self.histories.pop();
        self.ids.pop();
    }

    fn evaluate(&self) -> Score {
        to_search(eval::evaluate(&self.pos), self.ply())
    }

    fn outcome(&self) -> Option<Score> {
        let ply = self.ply();
        if !self.pos.has_legal_move() {
            return Some(Score::mated_in(ply));
        }
        if ply == 0 {
            // The root is searched even if the game could be claimed over there.
            return None;
        }
        if let Some((verdict, _)) = repetition::verdict(&self.pos, ply as usize) {
            return Some(match verdict.signum() {
                1 => Score::mate_in(ply),
                -1 => Score::mated_in(ply),
                _ => Score::ZERO,
            });
        }
        (self.pos.halfmove_clock() >= NO_CAPTURE_LIMIT).then_some(Score::ZERO)
    }

    fn key(&self) -> u64 {
        let history = *self.histories.last().expect("the root has a history");
        let ply = u64::from(self.ply());
        self.pos.key() ^ mix(history ^ ply.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    fn node_id(&self) -> NodeId {
        *self.ids.last().expect("the root has an id")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(game: &mut PositionGame, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = Move::parse_coords(text).unwrap();
            assert!(game.position().is_legal(mv), "{text}");
            game.play(mv);
        }
    }

    #[test]
    fn captures_come_first_most_valuable_victim_first() {
        // The red chariot can take the black chariot or the horse; the cannon (screened
        // by the chariot) the horse too.
        let pos = Position::from_fen("r2k5/9/9/9/n1p6/R7r/9/9/9/C3K4 w - - 0 1").unwrap();
        let mut moves = Vec::new();
        ordered_moves(&pos, &mut moves);
        let first: Vec<String> = moves.iter().take(3).map(|m| m.iccs()).collect();
        assert_eq!(first, ["a4i4", "a0a5", "a4a5"]);
        assert!(moves[3..].iter().all(|m| pos.piece_at(m.to()).is_none()));
    }

    #[test]
    fn undo_restores_the_key_and_id() {
        let mut game = PositionGame::new(&Position::startpos());
        let (key, id) = (game.key(), game.node_id());
        play(&mut game, "h2e2 h9g7 h0g2");
        assert_eq!(game.ply(), 3);
        for text in ["h0g2", "h9g7", "h2e2"] {
            game.undo(Move::parse_coords(text).unwrap());
        }
        assert_eq!((game.key(), game.node_id()), (key, id));
        assert_eq!(game.deepest_ply(), 3);
    }

    #[test]
    fn a_repeated_position_has_its_own_key_and_a_verdict() {
        let mut game = PositionGame::new(&Position::startpos());
        play(&mut game, "h0g2 h9g7");
        let first = game.key();
        assert_eq!(game.outcome(), None);
        play(&mut game, "g2h0 g7h9 h0g2 h9g7");
        // The same position and side to move, but a repetition now: a draw here, and a
        // table entry of its own.
        assert_eq!(game.outcome(), Some(Score::ZERO));
        assert_ne!(game.key(), first);
    }

    #[test]
    fn no_legal_move_loses_at_its_distance_from_the_root() {
        let pos = Position::from_fen("4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1").unwrap();
        let mut game = PositionGame::new(&pos);
        play(&mut game, "a5e5");
        assert!(game.position().in_check());
        assert_eq!(game.outcome(), Some(Score::mated_in(1)));
    }
}
