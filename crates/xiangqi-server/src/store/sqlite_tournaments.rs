//! The tournaments' tables in SQLite (schema version 4).

use rusqlite::{OptionalExtension, Row, Transaction, params};

use super::sqlite::{SqliteStore, database};
use super::tournaments::{
    BoardId, BoardRecord, EntrantRecord, SavedTournament, Stage, TournamentRecord, TournamentStore,
};
use super::{ChatLine, StoreError};

const TOURNAMENT_COLUMNS: &str = "id, name, kind, amount, time_control, rated, creator_key, \
     creator_name, stage, pause_s, created, started, ends, finished";

fn record(row: &Row) -> rusqlite::Result<TournamentRecord> {
    let stage: String = row.get(8)?;
    Ok(TournamentRecord {
        id: row.get(0)?,
        name: row.get(1)?,
        kind: row.get(2)?,
        amount: row.get(3)?,
        time_control: row.get(4)?,
        rated: row.get(5)?,
        creator_key: row.get(6)?,
        creator_name: row.get(7)?,
        // A stage this program does not know reads as finished: nothing is paired in it.
        stage: Stage::parse(&stage).unwrap_or(Stage::Finished),
        pause_s: row.get(9)?,
        created: row.get(10)?,
        started: row.get(11)?,
        ends: row.get(12)?,
        finished: row.get(13)?,
    })
}

/// Records the result of a tournament game archived as `game`, in the archive's
/// transaction. A board with a result keeps it.
pub(super) fn record_result(
    transaction: &Transaction,
    board: BoardId,
    result: &str,
    game: i64,
) -> Result<(), StoreError> {
    transaction
        .execute(
            "UPDATE tournament_games SET result = ?4, game = ?5
             WHERE tournament = ?1 AND round = ?2 AND board = ?3 AND result IS NULL",
            params![board.tournament, board.round, board.board, result, game],
        )
        .map_err(database)?;
    Ok(())
}

fn insert_chat(
    transaction: &Transaction,
    tournament: i64,
    line: &ChatLine,
) -> rusqlite::Result<()> {
    transaction.execute(
        "INSERT OR REPLACE INTO tournament_chat (tournament, seq, sender, text, time)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![tournament, line.seq as i64, line.from, line.text, line.time],
    )?;
    Ok(())
}

impl TournamentStore for SqliteStore {
    fn save_tournament(
        &self,
        record: &TournamentRecord,
        entrants: Option<&[EntrantRecord]>,
        boards: &[BoardRecord],
    ) -> Result<i64, StoreError> {
        self.write(|transaction| {
            let values = params![
                record.name,
                record.kind,
                record.amount,
                record.time_control,
                record.rated,
                record.creator_key,
                record.creator_name,
                record.stage.name(),
                record.pause_s,
                record.created,
                record.started,
                record.ends,
                record.finished,
            ];
            let id = if record.id == 0 {
                let taken: Option<i64> = transaction
                    .query_row(
                        "SELECT id FROM tournaments WHERE name = ?1",
                        [&record.name],
                        |row| row.get(0),
                    )
                    .optional()
                    .map_err(database)?;
                if taken.is_some() {
                    return Err(StoreError::Database(format!(
                        "a tournament named {} exists",
                        record.name
                    )));
                }
                transaction
                    .execute(
                        "INSERT INTO tournaments (name, kind, amount, time_control, rated,
                             creator_key, creator_name, stage, pause_s, created, started, ends,
                             finished)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                        values,
                    )
                    .map_err(database)?;
                transaction.last_insert_rowid()
            } else {
                transaction
                    .execute(
                        "UPDATE tournaments SET name = ?1, kind = ?2, amount = ?3,
                             time_control = ?4, rated = ?5, creator_key = ?6, creator_name = ?7,
                             stage = ?8, pause_s = ?9, created = ?10, started = ?11, ends = ?12,
                             finished = ?13
                         WHERE id = ?14",
                        params![
                            record.name,
                            record.kind,
                            record.amount,
                            record.time_control,
                            record.rated,
                            record.creator_key,
                            record.creator_name,
                            record.stage.name(),
                            record.pause_s,
                            record.created,
                            record.started,
                            record.ends,
                            record.finished,
                            record.id,
                        ],
                    )
                    .map_err(database)?;
                record.id
            };
            if let Some(entrants) = entrants {
                transaction
                    .execute("DELETE FROM tournament_players WHERE tournament = ?1", [id])
                    .map_err(database)?;
                for entrant in entrants {
                    transaction
                        .execute(
                            "INSERT INTO tournament_players
                                 (tournament, seq, key, name, rating, active, joined_round)
                             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                            params![
                                id,
                                entrant.seq,
                                entrant.key,
                                entrant.name,
                                entrant.rating,
                                entrant.active,
                                entrant.joined_round
                            ],
                        )
                        .map_err(database)?;
                }
            }
            for board in boards {
                transaction
                    .execute(
                        "INSERT INTO tournament_games
                             (tournament, round, board, red, black, room, result, game, paired)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                         ON CONFLICT (tournament, round, board) DO UPDATE SET
                             room = excluded.room,
                             result = coalesce(tournament_games.result, excluded.result),
                             game = coalesce(tournament_games.game, excluded.game)",
                        params![
                            id,
                            board.round,
                            board.board,
                            board.red,
                            board.black,
                            board.room,
                            board.result,
                            board.game,
                            board.paired
                        ],
                    )
                    .map_err(database)?;
            }
            Ok(id)
        })
    }

    fn tournaments(&self, chat: usize) -> Result<Vec<SavedTournament>, StoreError> {
        let db = self.db();
        let records: Vec<TournamentRecord> = db
            .prepare_cached(&format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments ORDER BY id"
            ))
            .and_then(|mut statement| {
                statement
                    .query_map([], record)?
                    .collect::<rusqlite::Result<_>>()
            })
            .map_err(database)?;
        let mut saved = Vec::with_capacity(records.len());
        for record in records {
            let entrants = db
                .prepare_cached(
                    "SELECT seq, key, name, rating, active, joined_round FROM tournament_players
                     WHERE tournament = ?1 ORDER BY seq",
                )
                .and_then(|mut statement| {
                    statement
                        .query_map([record.id], |row| {
                            Ok(EntrantRecord {
                                seq: row.get(0)?,
                                key: row.get(1)?,
                                name: row.get(2)?,
                                rating: row.get(3)?,
                                active: row.get(4)?,
                                joined_round: row.get(5)?,
                            })
                        })?
                        .collect::<rusqlite::Result<_>>()
                })
                .map_err(database)?;
            let boards = db
                .prepare_cached(
                    "SELECT round, board, red, black, room, result, game, paired
                     FROM tournament_games WHERE tournament = ?1 ORDER BY round, board",
                )
                .and_then(|mut statement| {
                    statement
                        .query_map([record.id], |row| {
                            Ok(BoardRecord {
                                round: row.get(0)?,
                                board: row.get(1)?,
                                red: row.get(2)?,
                                black: row.get(3)?,
                                room: row.get(4)?,
                                result: row.get(5)?,
                                game: row.get(6)?,
                                paired: row.get(7)?,
                            })
                        })?
                        .collect::<rusqlite::Result<_>>()
                })
                .map_err(database)?;
            let chat = db
                .prepare_cached(
                    "SELECT seq, sender, text, time FROM
                       (SELECT * FROM tournament_chat WHERE tournament = ?1
                        ORDER BY seq DESC LIMIT ?2)
                     ORDER BY seq",
                )
                .and_then(|mut statement| {
                    statement
                        .query_map(params![record.id, chat as i64], |row| {
                            Ok(ChatLine {
                                seq: row.get::<_, i64>(0)?.max(0) as u64,
                                from: row.get(1)?,
                                text: row.get(2)?,
                                time: row.get(3)?,
                            })
                        })?
                        .collect::<rusqlite::Result<_>>()
                })
                .map_err(database)?;
            saved.push(SavedTournament {
                record,
                entrants,
                boards,
                chat,
            });
        }
        Ok(saved)
    }

    fn add_tournament_chat(&self, tournament: i64, line: &ChatLine) -> Result<(), StoreError> {
        self.write(|transaction| insert_chat(transaction, tournament, line).map_err(database))
    }

    fn tournament_pgns(&self, tournament: i64) -> Result<Vec<String>, StoreError> {
        let db = self.db();
        let mut statement = db
            .prepare_cached(
                "SELECT games.pgn FROM tournament_games
                 JOIN games ON games.id = tournament_games.game
                 WHERE tournament_games.tournament = ?1
                 ORDER BY tournament_games.round, tournament_games.board",
            )
            .map_err(database)?;
        let rows = statement
            .query_map([tournament], |row| row.get(0))
            .map_err(database)?;
        rows.collect::<Result<_, _>>().map_err(database)
    }
}
