//! The puzzle trainer's tables in SQLite: a key holder's rating and attempts, and the
//! puzzles' ratings (shared by every player of the server).

use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use xiangqi_app::game::rating::Rating;
use xiangqi_app::train::{Attempt, PuzzleProfile};

fn rating(row: &Row, first: usize) -> rusqlite::Result<Rating> {
    Ok(Rating {
        rating: row.get(first)?,
        deviation: row.get(first + 1)?,
        volatility: row.get(first + 2)?,
    })
}

pub fn profile(db: &Connection, key: &str) -> rusqlite::Result<PuzzleProfile> {
    let player = db
        .query_row(
            "SELECT rating, deviation, volatility FROM puzzle_players WHERE key = ?1",
            [key],
            |row| rating(row, 0),
        )
        .optional()?
        .unwrap_or_default();
    let mut statement = db.prepare_cached(
        "SELECT puzzle, at, solved, rated, rating_after FROM puzzle_attempts
         WHERE key = ?1 ORDER BY id",
    )?;
    let history = statement
        .query_map([key], |row| {
            Ok(Attempt {
                puzzle: row.get(0)?,
                at: row.get::<_, i64>(1)?.max(0) as u64,
                solved: row.get(2)?,
                rated: row.get(3)?,
                rating_after: row.get(4)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut statement =
        db.prepare_cached("SELECT puzzle, rating, deviation, volatility FROM puzzle_ratings")?;
    let puzzles = statement
        .query_map([], |row| Ok((row.get::<_, String>(0)?, rating(row, 1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(PuzzleProfile {
        rating: player,
        history,
        puzzles,
    })
}

pub fn record(
    transaction: &Transaction,
    key: &str,
    attempt: &Attempt,
    player: Rating,
    puzzle: Option<Rating>,
) -> rusqlite::Result<()> {
    transaction.execute(
        "INSERT INTO puzzle_attempts (key, puzzle, at, solved, rated, rating_after)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            key,
            attempt.puzzle,
            attempt.at as i64,
            attempt.solved,
            attempt.rated,
            attempt.rating_after
        ],
    )?;
    transaction.execute(
        "INSERT OR REPLACE INTO puzzle_players (key, rating, deviation, volatility)
         VALUES (?1, ?2, ?3, ?4)",
        params![key, player.rating, player.deviation, player.volatility],
    )?;
    if let Some(puzzle) = puzzle {
        transaction.execute(
            "INSERT OR REPLACE INTO puzzle_ratings (puzzle, rating, deviation, volatility)
             VALUES (?1, ?2, ?3, ?4)",
            params![
                attempt.puzzle,
                puzzle.rating,
                puzzle.deviation,
                puzzle.volatility
            ],
        )?;
    }
    Ok(())
}
