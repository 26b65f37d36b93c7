//! Names in SQLite: who may pin a name (not another key's, not one that looks like
//! another key's, not one kept for the key that left it), renames with a cool-down,
//! and players idle for long deleted.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use xiangqi_app::game::rating::Rating;

use super::{NAME_RESERVED, Player, RENAME_COOLDOWN, StoreError, UnixTime, alternatives};
use crate::name_rules::skeleton;

/// The longest name offered as an alternative (the server's name limit).
const NAME_MAX_CHARS: usize = 16;

fn database(error: rusqlite::Error) -> StoreError {
    StoreError::Database(error.to_string())
}

/// Fills in the skeleton of players saved before names were compared by it.
pub fn fill_skeletons(db: &mut Connection) -> rusqlite::Result<()> {
    let transaction = db.transaction()?;
    let unfilled: Vec<(String, String)> = {
        let mut statement =
            transaction.prepare("SELECT key, name FROM players WHERE skeleton IS NULL")?;
        let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for (key, name) in unfilled {
        transaction.execute(
            "UPDATE players SET skeleton = ?2 WHERE key = ?1",
            params![key, skeleton(&name)],
        )?;
    }
    transaction.commit()
}

/// Why `name` is not free for `key`, if it is not.
pub fn refusal(
    transaction: &Transaction,
    key: &str,
    name: &str,
    now: UnixTime,
) -> Result<Option<StoreError>, StoreError> {
    let look = skeleton(name);
    let holder: Option<(String, String)> = transaction
        .query_row(
            "SELECT key, name FROM players WHERE (name = ?1 OR skeleton = ?2) AND key != ?3
             ORDER BY name = ?1 DESC LIMIT 1",
            params![name, look, key],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()
        .map_err(database)?;
    if let Some((_, held)) = holder {
        if held.to_lowercase() == name.to_lowercase() {
            let mut taken = transaction
                .prepare("SELECT 1 FROM players WHERE name = ?1 OR skeleton = ?2")
                .map_err(database)?;
            let offered = alternatives(name, NAME_MAX_CHARS, |candidate| {
                taken
                    .exists(params![candidate, skeleton(candidate)])
                    .unwrap_or(true)
            });
            return Ok(Some(StoreError::NameHeld {
                name: name.to_owned(),
                alternatives: offered,
            }));
        }
        return Ok(Some(StoreError::NameConfusable {
            name: name.to_owned(),
            like: held,
        }));
    }
    let kept: bool = transaction
        .query_row(
            "SELECT 1 FROM reserved_names WHERE skeleton = ?1 AND key != ?2 AND until > ?3",
            params![look, key, now],
            |_| Ok(true),
        )
        .optional()
        .map_err(database)?
        .unwrap_or(false);
    Ok(kept.then(|| StoreError::NameReserved {
        name: name.to_owned(),
    }))
}

/// A new key pinning `name` (checked free).
pub fn insert(
    transaction: &Transaction,
    key: &str,
    name: &str,
    now: UnixTime,
) -> Result<(), StoreError> {
    let default = Rating::default();
    transaction
        .execute(
            "INSERT INTO players (key, name, skeleton, first_seen, last_seen, rating, deviation,
                                  volatility)
             VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7)",
            params![
                key,
                name,
                skeleton(name),
                now,
                default.rating,
                default.deviation,
                default.volatility
            ],
        )
        .map_err(database)?;
    // The key's own kept name is its again.
    transaction
        .execute(
            "DELETE FROM reserved_names WHERE skeleton = ?1",
            [skeleton(name)],
        )
        .map_err(database)?;
    Ok(())
}

/// `key` (known as `player`) takes the free `name`, keeping its old one a while.
pub fn rename(
    transaction: &Transaction,
    player: &Player,
    name: &str,
    now: UnixTime,
) -> Result<(), StoreError> {
    let renamed: Option<UnixTime> = transaction
        .query_row(
            "SELECT renamed FROM players WHERE key = ?1",
            [&player.key],
            |row| row.get(0),
        )
        .map_err(database)?;
    if let Some(at) = renamed
        && now < at + RENAME_COOLDOWN
    {
        let left = at + RENAME_COOLDOWN - now;
        return Err(StoreError::RenameTooSoon {
            days: (left + super::DAY - 1) / super::DAY,
        });
    }
    if let Some(refused) = refusal(transaction, &player.key, name, now)? {
        return Err(refused);
    }
    transaction
        .execute(
            "INSERT INTO reserved_names (skeleton, name, key, until) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (skeleton) DO UPDATE SET name = ?2, key = ?3, until = ?4",
            params![
                skeleton(&player.name),
                player.name,
                player.key,
                now + NAME_RESERVED
            ],
        )
        .map_err(database)?;
    transaction
        .execute(
            "DELETE FROM reserved_names WHERE skeleton = ?1 AND key = ?2",
            params![skeleton(name), player.key],
        )
        .map_err(database)?;
    transaction
        .execute(
            "UPDATE players SET name = ?2, skeleton = ?3, renamed = ?4 WHERE key = ?1",
            params![player.key, name, skeleton(name), now],
        )
        .map_err(database)?;
    Ok(())
}

/// Deletes idle players with nothing to keep, and names kept past their time.
pub fn purge(
    transaction: &Transaction,
    idle_since: UnixTime,
    now: UnixTime,
) -> Result<usize, StoreError> {
    let default = Rating::default();
    let players = transaction
        .execute(
            "DELETE FROM players WHERE last_seen < ?1 AND games = 0
               AND rating = ?2 AND deviation = ?3 AND volatility = ?4
               AND NOT EXISTS (SELECT 1 FROM games
                               WHERE red_key = players.key OR black_key = players.key)
               AND NOT EXISTS (SELECT 1 FROM puzzle_players WHERE key = players.key)
               AND NOT EXISTS (SELECT 1 FROM puzzle_attempts WHERE key = players.key)
               AND NOT EXISTS (SELECT 1 FROM rooms WHERE instr(pgn, players.key) > 0)",
            params![
                idle_since,
                default.rating,
                default.deviation,
                default.volatility
            ],
        )
        .map_err(database)?;
    transaction
        .execute("DELETE FROM reserved_names WHERE until <= ?1", [now])
        .map_err(database)?;
    Ok(players)
}
