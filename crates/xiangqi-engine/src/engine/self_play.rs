//! Games of the engine against itself, for `puzzles mine --self-play`: the book opens
//! each game with a seeded random choice (variety 100), then each side searches a fixed
//! number of nodes. One side gets a quarter of the other's nodes, alternately, so that
//! games are decided and end in mates worth mining. The same seed and options give the
//! same games.

use std::sync::atomic::AtomicBool;

use super::{Engine, Limits};
use crate::book::{Book, choose};
use xiangqi_core::board::rules::Outcome;
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::rng::SplitMix64;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelfPlayOptions {
    /// Nodes a move for the stronger side of a game.
    pub nodes: u64,
    /// A game still going after this many plies is dropped as undecided.
    pub max_plies: usize,
}

impl Default for SelfPlayOptions {
    fn default() -> Self {
        SelfPlayOptions {
            nodes: 20_000,
            max_plies: 300,
        }
    }
}

/// One finished (or abandoned) game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfPlayGame {
    pub start: Position,
    pub moves: Vec<Move>,
    /// `None` when the game reached the ply limit.
    pub outcome: Option<Outcome>,
}

/// Plays game number `game` (its seed and which side is stronger come from it).
pub fn play_game(
    engine: &mut Engine,
    book: Option<&Book>,
    options: &SelfPlayOptions,
    seed: u64,
    game: u64,
) -> SelfPlayGame {
    let mut random = SplitMix64::new(seed ^ game.wrapping_mul(0x2545_f491_4f6c_dd1d));
    let stronger = if game.is_multiple_of(2) {
        Color::Red
    } else {
        Color::Black
    };
    let start = Position::startpos();
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let stop = AtomicBool::new(false);
    engine.new_game();
    let mut in_book = book.is_some();
    while moves.len() < options.max_plies {
        if let Some(outcome) = pos.outcome() {
            return SelfPlayGame {
                start,
                moves,
                outcome: Some(outcome),
            };
        }
        let from_book = if in_book {
            book.and_then(|book| choose(&book.moves(&pos), 100, random.next_u64()))
        } else {
            None
        };
        in_book = from_book.is_some();
        let mv = match from_book {
            Some(mv) => mv,
            None => {
                let nodes = if pos.side_to_move() == stronger {
                    options.nodes
                } else {
                    (options.nodes / 4).max(1)
                };
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                match engine.search(&pos, &limits, &stop, &mut |_| {}).best_move {
                    Some(mv) => mv,
                    None => break,
                }
            }
        };
        pos.make_move(mv);
        moves.push(mv);
    }
    let outcome = pos.outcome();
    SelfPlayGame {
        start,
        moves,
        outcome,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_self_play_game_is_legal_and_repeatable() {
        let book = Book::builtin().ok();
        let options = SelfPlayOptions {
            nodes: 400,
            max_plies: 40,
        };
        let mut engine = Engine::new(1);
        let first = play_game(&mut engine, book, &options, 7, 3);
        let again = play_game(&mut engine, book, &options, 7, 3);
        assert_eq!(first, again);
        let mut pos = first.start.clone();
        for &mv in &first.moves {
            assert!(pos.is_legal(mv), "{mv:?} is legal");
            pos.make_move(mv);
        }
        assert!(first.moves.len() <= 40);
    }
}
