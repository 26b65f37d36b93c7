//! The store in one SQLite file (`DATA/xiangqi-tui.db`). One connection behind a
//! mutex: the server's writes are few and short (a move is one row), and one writer
//! is what SQLite allows anyway.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use xiangqi_app::game::rating::{self, Rating};
use xiangqi_app::train::{Attempt, PuzzleProfile};
use xiangqi_core::record::GameResult;

use super::schema::{self, DB_FILE};
use super::sqlite_names;
use super::{
    Archived, ArchivedGame, Ban, BanTarget, CHAT_STORED, ChatLine, FinishedGame, Player, SavedRoom,
    Side, Store, StoreError, UnixTime,
};

pub struct SqliteStore {
    path: PathBuf,
    db: Mutex<Connection>,
    writes: AtomicU64,
}

pub(super) fn database(error: rusqlite::Error) -> StoreError {
    StoreError::Database(error.to_string())
}

const PLAYER_COLUMNS: &str =
    "key, name, first_seen, last_seen, rating, deviation, volatility, games";

fn player(row: &Row) -> rusqlite::Result<Player> {
    Ok(Player {
        key: row.get(0)?,
        name: row.get(1)?,
        first_seen: row.get(2)?,
        last_seen: row.get(3)?,
        rating: Rating {
            rating: row.get(4)?,
            deviation: row.get(5)?,
            volatility: row.get(6)?,
        },
        games: row.get(7)?,
    })
}

const GAME_COLUMNS: &str = "id, pgn, red_name, red_key, black_name, black_key, result, \
                            termination, time_control, rated, started, ended";

fn archived(row: &Row) -> rusqlite::Result<ArchivedGame> {
    Ok(ArchivedGame {
        id: row.get(0)?,
        game: FinishedGame {
            pgn: row.get(1)?,
            red: Side {
                name: row.get(2)?,
                key: row.get(3)?,
            },
            black: Side {
                name: row.get(4)?,
                key: row.get(5)?,
            },
            result: row.get(6)?,
            termination: row.get(7)?,
            time_control: row.get(8)?,
            rated: row.get(9)?,
            started: row.get(10)?,
            ended: row.get(11)?,
            // The archive does not say; the tournament's boards do.
            tournament: None,
        },
    })
}

fn ban_row(row: &Row) -> rusqlite::Result<Ban> {
    let kind: String = row.get(0)?;
    let value: String = row.get(1)?;
    let target = match kind.as_str() {
        "key" => BanTarget::Key(value),
        "name" => BanTarget::Name(value),
        _ => BanTarget::Address(value),
    };
    Ok(Ban {
        target,
        by: row.get(2)?,
        reason: row.get(3)?,
        at: row.get(4)?,
    })
}

/// A ban's value as kept: a name in lower case (a ban covers every spelling).
fn ban_value(target: &BanTarget) -> String {
    match target {
        BanTarget::Name(name) => name.to_lowercase(),
        other => other.value().to_owned(),
    }
}

fn player_in(transaction: &Transaction, key: &str) -> rusqlite::Result<Option<Player>> {
    transaction
        .query_row(
            &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE key = ?1"),
            [key],
            player,
        )
        .optional()
}

impl SqliteStore {
    /// Opens `data_dir/xiangqi-tui.db`, creating it (and the folder) when missing;
    /// refuses a damaged, foreign or newer file with its path and what to do.
    pub fn open_in(data_dir: &Path) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|error| {
            StoreError::Refused(format!(
                "{}: cannot create it ({error})",
                data_dir.display()
            ))
        })?;
        SqliteStore::open(&data_dir.join(DB_FILE))
    }

    /// Opens the database file at `path` (see `open_in`).
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let db = schema::open(path)?;
        Ok(SqliteStore {
            path: path.to_owned(),
            db: Mutex::new(db),
            writes: AtomicU64::new(0),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(super) fn db(&self) -> MutexGuard<'_, Connection> {
        // A panic mid-call leaves no half transaction: rusqlite rolls it back on drop.
        self.db
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `work` in a write transaction and counts it when committed.
    pub(super) fn write<T>(
        &self,
        work: impl FnOnce(&Transaction) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut db = self.db();
        // IMMEDIATE: takes the write lock at once, so two writers never both read
        // a rating and then both write it.
        let transaction = db
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(database)?;
        let value = work(&transaction)?;
        transaction.commit().map_err(database)?;
        self.writes.fetch_add(1, Ordering::Relaxed);
        Ok(value)
    }

    fn games_where(
        &self,
        condition: &str,
        value: &str,
        limit: usize,
    ) -> Result<Vec<ArchivedGame>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE {condition} ORDER BY id DESC LIMIT ?2"
            ))
            .map_err(database)?;
        let rows = statement
            .query_map(params![value, limit as i64], archived)
            .map_err(database)?;
        rows.collect::<Result<_, _>>().map_err(database)
    }
}

impl Store for SqliteStore {
    fn sign_in(&self, key: &str, name: &str, now: UnixTime) -> Result<Player, StoreError> {
        self.write(|transaction| {
            // A known key keeps its name: only when it was last seen changes.
            let known = transaction
                .execute(
                    "UPDATE players SET last_seen = ?2 WHERE key = ?1",
                    params![key, now],
                )
                .map_err(database)?;
            if known == 0 {
                if let Some(refused) = sqlite_names::refusal(transaction, key, name, now)? {
                    return Err(refused);
                }
                sqlite_names::insert(transaction, key, name, now)?;
            }
            player_in(transaction, key)
                .map_err(database)?
                .ok_or_else(|| StoreError::Database("the player row vanished".into()))
        })
    }

    fn rename(&self, key: &str, name: &str, now: UnixTime) -> Result<Player, StoreError> {
        self.write(|transaction| {
            let player = player_in(transaction, key)
                .map_err(database)?
                .ok_or_else(|| StoreError::Database("no such player".into()))?;
            sqlite_names::rename(transaction, &player, name, now)?;
            player_in(transaction, key)
                .map_err(database)?
                .ok_or_else(|| StoreError::Database("the player row vanished".into()))
        })
    }

    fn purge_players(&self, idle_since: UnixTime, now: UnixTime) -> Result<usize, StoreError> {
        self.write(|transaction| sqlite_names::purge(transaction, idle_since, now))
    }

    fn player_by_key(&self, key: &str) -> Result<Option<Player>, StoreError> {
        self.db()
            .query_row(
                &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE key = ?1"),
                [key],
                player,
            )
            .optional()
            .map_err(database)
    }

    fn player_by_name(&self, name: &str) -> Result<Option<Player>, StoreError> {
        self.db()
            .query_row(
                &format!("SELECT {PLAYER_COLUMNS} FROM players WHERE name = ?1"),
                [name],
                player,
            )
            .optional()
            .map_err(database)
    }

    fn top(&self, limit: usize) -> Result<Vec<Player>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare_cached(&format!(
                "SELECT {PLAYER_COLUMNS} FROM players WHERE games > 0
                 ORDER BY rating DESC, deviation ASC, name ASC LIMIT ?1"
            ))
            .map_err(database)?;
        let rows = statement
            .query_map([limit as i64], player)
            .map_err(database)?;
        rows.collect::<Result<_, _>>().map_err(database)
    }

    fn archive(&self, game: &FinishedGame, room: Option<&str>) -> Result<Archived, StoreError> {
        self.write(|transaction| {
            transaction
                .execute(
                    "INSERT INTO games (pgn, red_name, red_key, black_name, black_key, result,
                                        termination, time_control, rated, started, ended)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                    params![
                        game.pgn,
                        game.red.name,
                        game.red.key,
                        game.black.name,
                        game.black.key,
                        game.result,
                        game.termination,
                        game.time_control,
                        game.rated,
                        game.started,
                        game.ended
                    ],
                )
                .map_err(database)?;
            let id = transaction.last_insert_rowid();
            if let Some(board) = game.tournament {
                super::sqlite_tournaments::record_result(transaction, board, &game.result, id)?;
            }
            if let Some(room) = room {
                transaction
                    .execute("DELETE FROM rooms WHERE name = ?1", [room])
                    .map_err(database)?;
                transaction
                    .execute("DELETE FROM chat WHERE room = ?1", [room])
                    .map_err(database)?;
            }
            let ratings = match (&game.red.key, &game.black.key) {
                (Some(red_key), Some(black_key)) if game.rated && red_key != black_key => {
                    let red = player_in(transaction, red_key).map_err(database)?;
                    let black = player_in(transaction, black_key).map_err(database)?;
                    let result = GameResult::from_token(&game.result).unwrap_or_default();
                    match (red, black) {
                        (Some(red), Some(black)) if result != GameResult::Unknown => {
                            let (red_after, black_after) =
                                rating::rate(red.rating, black.rating, result);
                            for (key, after) in [(red_key, red_after), (black_key, black_after)] {
                                transaction
                                    .execute(
                                        "UPDATE players SET rating = ?2, deviation = ?3,
                                         volatility = ?4, games = games + 1 WHERE key = ?1",
                                        params![
                                            key,
                                            after.rating,
                                            after.deviation,
                                            after.volatility
                                        ],
                                    )
                                    .map_err(database)?;
                            }
                            Some((red_after, black_after))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            Ok(Archived { id, ratings })
        })
    }

    fn game(&self, id: i64) -> Result<Option<ArchivedGame>, StoreError> {
        self.db()
            .query_row(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
                [id],
                archived,
            )
            .optional()
            .map_err(database)
    }

    fn games_of_key(&self, key: &str, limit: usize) -> Result<Vec<ArchivedGame>, StoreError> {
        self.games_where("red_key = ?1 OR black_key = ?1", key, limit)
    }

    fn games_of_guest(&self, name: &str, limit: usize) -> Result<Vec<ArchivedGame>, StoreError> {
        self.games_where(
            "(red_key IS NULL AND red_name = ?1 COLLATE NOCASE)
             OR (black_key IS NULL AND black_name = ?1 COLLATE NOCASE)",
            name,
            limit,
        )
    }

    fn save_room(
        &self,
        name: &str,
        pgn: &str,
        chat: &[ChatLine],
        now: UnixTime,
    ) -> Result<(), StoreError> {
        self.write(|transaction| {
            transaction
                .execute(
                    "INSERT INTO rooms (name, pgn, updated) VALUES (?1, ?2, ?3)
                     ON CONFLICT (name) DO UPDATE SET pgn = ?2, updated = ?3",
                    params![name, pgn, now],
                )
                .map_err(database)?;
            for line in chat {
                insert_chat(transaction, name, line)?;
            }
            // The newest lines only: a room's chat cannot fill the disk.
            if let Some(last) = chat.last() {
                transaction
                    .execute(
                        "DELETE FROM chat WHERE room = ?1 AND seq <= ?2",
                        params![name, last.seq as i64 - CHAT_STORED as i64],
                    )
                    .map_err(database)?;
            }
            Ok(())
        })
    }

    fn delete_room(&self, name: &str) -> Result<(), StoreError> {
        self.write(|transaction| {
            transaction
                .execute("DELETE FROM rooms WHERE name = ?1", [name])
                .map_err(database)?;
            transaction
                .execute("DELETE FROM chat WHERE room = ?1", [name])
                .map_err(database)?;
            Ok(())
        })
    }

    fn rooms(&self) -> Result<Vec<SavedRoom>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare_cached("SELECT name, pgn, updated, adjourned FROM rooms ORDER BY name")
            .map_err(database)?;
        let rows = statement.query_map([], saved_room).map_err(database)?;
        rows.collect::<Result<_, _>>().map_err(database)
    }

    fn room(&self, name: &str) -> Result<Option<SavedRoom>, StoreError> {
        self.db()
            .query_row(
                "SELECT name, pgn, updated, adjourned FROM rooms WHERE name = ?1",
                [name],
                saved_room,
            )
            .optional()
            .map_err(database)
    }

    fn adjourn_room(&self, name: &str, at: Option<UnixTime>) -> Result<(), StoreError> {
        self.write(|transaction| {
            transaction
                .execute(
                    "UPDATE rooms SET adjourned = ?2 WHERE name = ?1",
                    params![name, at],
                )
                .map_err(database)?;
            Ok(())
        })
    }

    fn add_chat(&self, room: &str, line: &ChatLine) -> Result<(), StoreError> {
        self.write(|transaction| insert_chat(transaction, room, line))
    }

    fn chat(&self, room: &str, limit: usize) -> Result<Vec<ChatLine>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare_cached(
                "SELECT seq, sender, text, time FROM
                   (SELECT * FROM chat WHERE room = ?1 ORDER BY seq DESC LIMIT ?2)
                 ORDER BY seq",
            )
            .map_err(database)?;
        let rows = statement
            .query_map(params![room, limit as i64], |row| {
                Ok(ChatLine {
                    seq: row.get::<_, i64>(0)?.max(0) as u64,
                    from: row.get(1)?,
                    text: row.get(2)?,
                    time: row.get(3)?,
                })
            })
            .map_err(database)?;
        rows.collect::<Result<_, _>>().map_err(database)
    }

    fn ban(&self, ban: &Ban) -> Result<(), StoreError> {
        self.write(|transaction| {
            transaction
                .execute(
                    "INSERT INTO bans (kind, value, by, reason, at) VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT (kind, value) DO UPDATE SET by = ?3, reason = ?4, at = ?5",
                    params![
                        ban.target.kind(),
                        ban_value(&ban.target),
                        ban.by,
                        ban.reason,
                        ban.at
                    ],
                )
                .map_err(database)?;
            Ok(())
        })
    }

    fn unban(&self, target: &BanTarget) -> Result<bool, StoreError> {
        self.write(|transaction| {
            transaction
                .execute(
                    "DELETE FROM bans WHERE kind = ?1 AND value = ?2",
                    params![target.kind(), ban_value(target)],
                )
                .map(|removed| removed > 0)
                .map_err(database)
        })
    }

    fn banned(
        &self,
        key: Option<&str>,
        name: &str,
        address: &str,
    ) -> Result<Option<Ban>, StoreError> {
        self.db()
            .query_row(
                "SELECT kind, value, by, reason, at FROM bans
                 WHERE (kind = 'key' AND value = ?1)
                    OR (kind = 'name' AND value = ?2)
                    OR (kind = 'address' AND value = ?3)
                 ORDER BY at LIMIT 1",
                params![key, name.to_lowercase(), address],
                ban_row,
            )
            .optional()
            .map_err(database)
    }

    fn bans(&self) -> Result<Vec<Ban>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare_cached("SELECT kind, value, by, reason, at FROM bans ORDER BY at, kind, value")
            .map_err(database)?;
        let rows = statement.query_map([], ban_row).map_err(database)?;
        rows.collect::<Result<_, _>>().map_err(database)
    }

    fn puzzle_profile(&self, key: &str) -> Result<PuzzleProfile, StoreError> {
        super::sqlite_puzzles::profile(&self.db(), key).map_err(database)
    }

    fn record_puzzle(
        &self,
        key: &str,
        attempt: &Attempt,
        player: Rating,
        puzzle: Option<Rating>,
    ) -> Result<(), StoreError> {
        self.write(|transaction| {
            super::sqlite_puzzles::record(transaction, key, attempt, player, puzzle)
                .map_err(database)
        })
    }

    fn write_count(&self) -> u64 {
        self.writes.load(Ordering::Relaxed)
    }
}

fn saved_room(row: &Row) -> rusqlite::Result<SavedRoom> {
    Ok(SavedRoom {
        name: row.get(0)?,
        pgn: row.get(1)?,
        updated: row.get(2)?,
        adjourned: row.get(3)?,
    })
}

/// Adds (or replaces) one chat line of `room`.
fn insert_chat(
    transaction: &rusqlite::Transaction<'_>,
    room: &str,
    line: &ChatLine,
) -> Result<(), StoreError> {
    transaction
        .execute(
            "INSERT OR REPLACE INTO chat (room, seq, sender, text, time)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![room, line.seq as i64, line.from, line.text, line.time],
        )
        .map_err(database)?;
    Ok(())
}
