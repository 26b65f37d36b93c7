//! Training on the game-domain floor: the endgame school (`lessons`, `drill`,
//! docs/endgames.md) and the mate-puzzle trainer (docs/puzzles.md, "The
//! trainer"). One attempt at a puzzle ([`PuzzleSession`]), the prover's work it needs as
//! plain requests any driver runs on a thread ([`PuzzleRequest`], [`run`]), the puzzle
//! ratings (Glicko-2, as the games'), the history of attempts behind a storage-neutral
//! trait ([`PuzzleStore`]) and the choice of the next puzzle ([`pick`]). The endgame school
//! (docs/endgames.md): lessons from the tablebases (`lessons`) and graded drills (`drill`).

pub mod drill;
pub mod lessons;
mod pick;
mod proof_tree;
mod prover_work;
mod puzzle_rating;
mod puzzle_session;
mod puzzle_store;
pub mod school_tables;

pub use pick::{PuzzleFilter, find_puzzle, pick};
pub use proof_tree::{ProofNode, ProofReply};
pub use prover_work::{
    JUDGE_BUDGET, Judgement, PuzzleAnswer, PuzzleRequest, REQUEST_BUDGET, run, run_until_stopped,
};
pub use puzzle_rating::{Attempt, PuzzleProfile, initial_rating, rate_attempt};
pub use puzzle_session::{Mark, PlayedMove, PuzzleSession, Status, Verdict};
pub use puzzle_store::{LocalPuzzleStore, PuzzleStore, PuzzleStoreError};
pub use school_tables::SchoolTables;
