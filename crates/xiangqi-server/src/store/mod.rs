//! The server's store: players (a key's pinned name and rating), the archive of
//! finished games, the rooms in progress with their chat, bans, and key holders' puzzle
//! ratings and attempts. One interface
//! (`Store`) so that another database could stand behind it (`docs/scaling.md`); the
//! one here is SQLite (`SqliteStore`, in `DATA/xiangqi-tui.db`). Blocking calls: the
//! server makes them off its async workers. No tokio here, and SQL only in `sqlite`.

mod schema;
mod sqlite;
mod sqlite_names;
mod sqlite_puzzles;
mod sqlite_tournaments;
mod tournaments;

use thiserror::Error;

use xiangqi_app::game::is_key_fingerprint;
use xiangqi_app::game::rating::Rating;
use xiangqi_app::train::{Attempt, PuzzleProfile, PuzzleStore, PuzzleStoreError};

pub use schema::{DB_FILE, SCHEMA_VERSION};
pub use sqlite::SqliteStore;
pub use tournaments::{
    BoardId, BoardRecord, EntrantRecord, SavedTournament, Stage, TournamentRecord, TournamentStore,
};

/// Seconds since the Unix epoch: the store's clock, given by the caller.
pub type UnixTime = i64;

/// Chat lines kept in the store per room: the newest.
pub const CHAT_STORED: usize = 200;

const DAY: UnixTime = 24 * 60 * 60;
/// A key renames at most once in this long.
pub const RENAME_COOLDOWN: UnixTime = 7 * DAY;
/// A name a key left stays that key's for this long (nobody else takes it at once).
pub const NAME_RESERVED: UnixTime = 30 * DAY;
/// A player row with no game, no rating moved and no puzzle, not seen for this long,
/// is deleted (its name is free again).
pub const IDLE_PLAYER: UnixTime = 90 * DAY;

/// Now, on the store's clock (the one clock: `xiangqi_core::date::unix_now`).
pub fn unix_now() -> UnixTime {
    UnixTime::try_from(xiangqi_core::date::unix_now()).unwrap_or(UnixTime::MAX)
}

/// Why a store call failed.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum StoreError {
    /// The database cannot be used at all (damaged, foreign, newer): said in one line
    /// with its path and what to do.
    #[error("{0}")]
    Refused(String),
    /// A name pinned to another key, with free names like it.
    #[error(
        "the name {name} belongs to another player's key: connect with another name ({})",
        alternatives.join(", ")
    )]
    NameHeld {
        name: String,
        alternatives: Vec<String>,
    },
    /// A name that looks like another key's (the same UTS 39 skeleton).
    #[error("the name {name} looks like {like}, another player's name: connect with another name")]
    NameConfusable { name: String, like: String },
    /// A name another key left lately: kept for it a while.
    #[error(
        "the name {name} was another player's until lately and is kept for them: connect \
         with another name"
    )]
    NameReserved { name: String },
    /// A rename asked for before the cool-down since the last one ended.
    #[error("you renamed less than 7 days ago: the next rename is possible in {days} days")]
    RenameTooSoon { days: i64 },
    /// A read or write failed (a full or read-only disk, a lock held too long).
    #[error("the database: {0}")]
    Database(String),
}

/// A player known by a key.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// The key's SHA256 fingerprint.
    pub key: String,
    /// The display name pinned to the key.
    pub name: String,
    pub first_seen: UnixTime,
    pub last_seen: UnixTime,
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
}

/// One side of a finished game: the name shown and, for a keyed player, the key
/// (`None` for a guest or the engine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side {
    pub name: String,
    pub key: Option<String>,
}

/// A finished game to archive.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedGame {
    /// The game's PGN, with names only (never a guest's resume code).
    pub pgn: String,
    pub red: Side,
    pub black: Side,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// How it ended, e.g. "Black resigned".
    pub termination: String,
    /// As `TimeControl` parses it (`10+5`, `none`).
    pub time_control: String,
    /// Whether it changes ratings (`game::rating::counts` decided it).
    pub rated: bool,
    pub started: UnixTime,
    pub ended: UnixTime,
    /// The tournament game it is, whose result the archive records with it.
    pub tournament: Option<BoardId>,
}

/// An archived game: what was archived and its id.
#[derive(Debug, Clone, PartialEq)]
pub struct ArchivedGame {
    pub id: i64,
    pub game: FinishedGame,
}

/// What archiving did: the game's id and, when it was rated, Red's and Black's new
/// ratings.
#[derive(Debug, Clone, PartialEq)]
pub struct Archived {
    pub id: i64,
    pub ratings: Option<(Rating, Rating)>,
}

/// A room in progress as saved: its PGN (as the server's `room_pgn` writes it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedRoom {
    pub name: String,
    pub pgn: String,
    pub updated: UnixTime,
    /// Since when its game is adjourned (its players all away); `None`: in play.
    pub adjourned: Option<UnixTime>,
}

/// One line of a room's chat. `from` is empty for the room's own announcements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLine {
    pub seq: u64,
    pub from: String,
    pub text: String,
    pub time: UnixTime,
}

/// Who a ban is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BanTarget {
    /// A key fingerprint (`SHA256:…`).
    Key(String),
    /// A display name (case does not matter).
    Name(String),
    /// An IP address, as text.
    Address(String),
}

impl BanTarget {
    /// What `text` names: a key fingerprint (`SHA256:…`), an IP address, else a
    /// display name.
    pub fn parse(text: &str) -> BanTarget {
        if is_key_fingerprint(text) {
            BanTarget::Key(text.to_owned())
        } else if let Ok(address) = text.parse::<std::net::IpAddr>() {
            // One spelling per address (`::FFFF:…`, leading zeros), as the sign-in has it.
            BanTarget::Address(address.to_canonical().to_string())
        } else {
            BanTarget::Name(text.to_owned())
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            BanTarget::Key(_) => "key",
            BanTarget::Name(_) => "name",
            BanTarget::Address(_) => "address",
        }
    }

    pub fn value(&self) -> &str {
        match self {
            BanTarget::Key(value) | BanTarget::Name(value) | BanTarget::Address(value) => value,
        }
    }
}

/// A ban as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ban {
    pub target: BanTarget,
    /// Who banned (an admin's name or key).
    pub by: String,
    pub reason: String,
    pub at: UnixTime,
}

/// The store. Every method is one transaction; implementations are shared between
/// threads.
pub trait Store: Send + Sync + TournamentStore {
    /// A sign-in with `key` under `name`. A known key keeps its name, whatever it asks
    /// for (`rename` changes it). A new key pins `name` if it is free: not another key's
    /// (`NameHeld`, with free names like it), not like another key's (`NameConfusable`),
    /// not kept for the key that left it (`NameReserved`). Returns the player as stored.
    fn sign_in(&self, key: &str, name: &str, now: UnixTime) -> Result<Player, StoreError>;
    /// Gives `key` the free name `name`, at most once in `RENAME_COOLDOWN`; its old
    /// name stays kept for it for `NAME_RESERVED`.
    fn rename(&self, key: &str, name: &str, now: UnixTime) -> Result<Player, StoreError>;
    /// Deletes the players not seen since `idle_since` that have no game, no rating
    /// moved, no puzzle attempt and no room in progress, and the names kept until
    /// before `now`; how many players went.
    fn purge_players(&self, idle_since: UnixTime, now: UnixTime) -> Result<usize, StoreError>;
    fn player_by_key(&self, key: &str) -> Result<Option<Player>, StoreError>;
    /// The keyed player called `name` (case does not matter).
    fn player_by_name(&self, name: &str) -> Result<Option<Player>, StoreError>;
    /// Players with rated games, best first: at most `limit`.
    fn top(&self, limit: usize) -> Result<Vec<Player>, StoreError>;

    /// Archives a finished game and, in the same transaction, removes the room `room`
    /// (its row and chat), applies the rating change when the game is rated and both
    /// sides have a key, and records a tournament game's result on its board.
    fn archive(&self, game: &FinishedGame, room: Option<&str>) -> Result<Archived, StoreError>;
    fn game(&self, id: i64) -> Result<Option<ArchivedGame>, StoreError>;
    /// The last `limit` games of the player with `key`, newest first.
    fn games_of_key(&self, key: &str, limit: usize) -> Result<Vec<ArchivedGame>, StoreError>;
    /// The last `limit` games a guest played as `name`, newest first.
    fn games_of_guest(&self, name: &str, limit: usize) -> Result<Vec<ArchivedGame>, StoreError>;

    /// Saves (creates or replaces) a room in progress and adds its new `chat` lines, in
    /// one transaction; the room keeps its newest `CHAT_STORED` lines.
    fn save_room(
        &self,
        name: &str,
        pgn: &str,
        chat: &[ChatLine],
        now: UnixTime,
    ) -> Result<(), StoreError>;
    /// Removes a room and its chat (it closed with nothing to keep).
    fn delete_room(&self, name: &str) -> Result<(), StoreError>;
    /// Every room in progress, by name.
    fn rooms(&self) -> Result<Vec<SavedRoom>, StoreError>;
    /// The room in progress called `name`.
    fn room(&self, name: &str) -> Result<Option<SavedRoom>, StoreError>;
    /// Marks the room's game adjourned since `at`, or (`None`) in play again.
    fn adjourn_room(&self, name: &str, at: Option<UnixTime>) -> Result<(), StoreError>;
    fn add_chat(&self, room: &str, line: &ChatLine) -> Result<(), StoreError>;
    /// The last `limit` lines of a room's chat, oldest first.
    fn chat(&self, room: &str, limit: usize) -> Result<Vec<ChatLine>, StoreError>;

    /// Bans `target` (again: the reason and time are updated).
    fn ban(&self, ban: &Ban) -> Result<(), StoreError>;
    /// Lifts a ban; whether there was one.
    fn unban(&self, target: &BanTarget) -> Result<bool, StoreError>;
    /// The ban that applies to a sign-in with this key (if any), name and address.
    fn banned(
        &self,
        key: Option<&str>,
        name: &str,
        address: &str,
    ) -> Result<Option<Ban>, StoreError>;
    fn bans(&self) -> Result<Vec<Ban>, StoreError>;

    /// A key holder's puzzle rating and attempts (oldest first), and the rating of
    /// every puzzle the server's players have moved (the others keep their initial one).
    fn puzzle_profile(&self, key: &str) -> Result<PuzzleProfile, StoreError>;
    /// Keeps an attempt of the player with `key`, in one transaction: the attempt, the
    /// player's rating, and for a rated attempt the puzzle's.
    fn record_puzzle(
        &self,
        key: &str,
        attempt: &Attempt,
        player: Rating,
        puzzle: Option<Rating>,
    ) -> Result<(), StoreError>;

    /// Write transactions committed since the store was opened (for the metrics).
    fn write_count(&self) -> u64;
}

/// A key holder's puzzle data in the store, as the trainer's one storage interface.
pub struct KeyPuzzles<'a> {
    pub store: &'a dyn Store,
    pub key: &'a str,
}

impl PuzzleStore for KeyPuzzles<'_> {
    fn load(&mut self) -> Result<PuzzleProfile, PuzzleStoreError> {
        self.store
            .puzzle_profile(self.key)
            .map_err(|error| PuzzleStoreError::Other(error.to_string()))
    }

    fn record(
        &mut self,
        attempt: &Attempt,
        player: Rating,
        puzzle: Option<Rating>,
    ) -> Result<(), PuzzleStoreError> {
        self.store
            .record_puzzle(self.key, attempt, player, puzzle)
            .map_err(|error| PuzzleStoreError::Other(error.to_string()))
    }
}

/// Names like `name` that no key holds yet, to offer instead: `name2`, `name_`,
/// `name3`… cut so they stay within `max_chars`. `taken` says whether one is held.
pub fn alternatives(
    name: &str,
    max_chars: usize,
    mut taken: impl FnMut(&str) -> bool,
) -> Vec<String> {
    let mut found = Vec::new();
    let suffixes = ["2", "_", "3", "-", "4", "5", "6", "7", "8", "9"];
    for suffix in suffixes {
        let keep = max_chars.saturating_sub(suffix.chars().count());
        let base: String = name.chars().take(keep).collect();
        let candidate = format!("{base}{suffix}");
        if !taken(&candidate) && !found.contains(&candidate) {
            found.push(candidate);
        }
        if found.len() == 3 {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "tests_limits.rs"]
mod tests_limits;

#[cfg(test)]
#[path = "tests_tournaments.rs"]
mod tests_tournaments;
