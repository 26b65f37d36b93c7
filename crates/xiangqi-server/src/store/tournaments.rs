//! Tournaments in the store: each tournament's row, its players (pairing order,
//! whether still in), its boards with their results, and its chat. A board's result is
//! written with its archived game, in the archive's transaction (`Store::archive`), so
//! a result and the game it comes from are never one without the other.

use super::{ChatLine, StoreError, UnixTime};

/// Where a tournament is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Taking players; not started.
    Upcoming,
    Running,
    Finished,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Upcoming => "upcoming",
            Stage::Running => "running",
            Stage::Finished => "finished",
        }
    }

    pub fn parse(text: &str) -> Option<Stage> {
        match text {
            "upcoming" => Some(Stage::Upcoming),
            "running" => Some(Stage::Running),
            "finished" => Some(Stage::Finished),
            _ => None,
        }
    }
}

/// A tournament's own row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRecord {
    /// 0 for one not stored yet (`save_tournament` gives it its id).
    pub id: i64,
    pub name: String,
    /// `swiss` or `arena`.
    pub kind: String,
    /// A Swiss's rounds, an arena's minutes.
    pub amount: u32,
    /// As `TimeControl` parses it (`10+5`).
    pub time_control: String,
    pub rated: bool,
    pub creator_key: String,
    pub creator_name: String,
    pub stage: Stage,
    /// Seconds between a Swiss's rounds.
    pub pause_s: u32,
    pub created: UnixTime,
    pub started: Option<UnixTime>,
    /// When an arena ends.
    pub ends: Option<UnixTime>,
    pub finished: Option<UnixTime>,
}

/// A player of a tournament, in pairing order (`seq`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntrantRecord {
    pub seq: u32,
    pub key: String,
    pub name: String,
    /// As it was when the player's pairing number was given.
    pub rating: u32,
    /// `false`: withdrawn (a Swiss), paused (an arena).
    pub active: bool,
    /// The first round the player could be paired in (1 from the start).
    pub joined_round: u32,
}

/// Which game of which tournament, as a finished game carries it to the archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardId {
    pub tournament: i64,
    /// A Swiss's round; 0 in an arena.
    pub round: u32,
    /// The board in its round; in an arena, the game's number.
    pub board: u32,
}

/// A board: a pairing and, once known, its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRecord {
    pub round: u32,
    pub board: u32,
    /// Red's key, or the player given a bye.
    pub red: String,
    /// `None` for a bye.
    pub black: Option<String>,
    /// The room the game is played in.
    pub room: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` (played), `+-`, `-+`, `--` (forfeits), `void` (an arena
    /// game nobody came to), `bye`; `None` while the game is on.
    pub result: Option<String>,
    /// The archived game's id.
    pub game: Option<i64>,
    pub paired: UnixTime,
}

/// A tournament as the store holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedTournament {
    pub record: TournamentRecord,
    pub entrants: Vec<EntrantRecord>,
    /// By round and board.
    pub boards: Vec<BoardRecord>,
    /// The last lines of its chat, oldest first.
    pub chat: Vec<ChatLine>,
}

/// The tournaments' part of the store. Every method is one transaction.
pub trait TournamentStore {
    /// Writes the tournament's row (a new one gets its id, returned), the whole list of
    /// its players when `entrants` is given, and `boards` (new ones added, known ones
    /// updated; a result the store has is never taken back). One transaction: a round's
    /// pairings are all written or none.
    fn save_tournament(
        &self,
        record: &TournamentRecord,
        entrants: Option<&[EntrantRecord]>,
        boards: &[BoardRecord],
    ) -> Result<i64, StoreError>;
    /// Every tournament, oldest first, with its players, boards and last `chat` lines.
    fn tournaments(&self, chat: usize) -> Result<Vec<SavedTournament>, StoreError>;
    fn add_tournament_chat(&self, tournament: i64, line: &ChatLine) -> Result<(), StoreError>;
    /// The PGN of every archived game of the tournament, by round and board.
    fn tournament_pgns(&self, tournament: i64) -> Result<Vec<String>, StoreError>;
}
