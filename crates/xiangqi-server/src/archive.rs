//! The archive and the leaderboard as the lobby and SSH commands show them: `games
//! [NAME]`, `pgn ID`, `top`. Reads of the store, made off the async workers, and their
//! text (one format for the printed command and the lobby's screen).

use std::sync::Arc;

use unicode_width::UnicodeWidthStr;

use crate::store::{ArchivedGame, Player, Store};
use xiangqi_app::game::{LobbyCommand, fit_name};
use xiangqi_core::record::{parse_pgn, pgn_date};
use xiangqi_engine::opening::classify;

/// Games listed by `games`, newest first.
pub const GAMES_LISTED: usize = 20;
/// Players listed by `top`.
pub const TOP_LISTED: usize = 20;

/// Who asks: their key (none for a guest) and the name they are shown under.
pub struct Asker {
    pub key: Option<String>,
    pub name: String,
}

/// Runs a blocking store read off the async workers.
async fn read<T: Send + 'static>(
    db: &Arc<dyn Store>,
    query: impl FnOnce(&dyn Store) -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    let db = Arc::clone(db);
    tokio::task::spawn_blocking(move || query(db.as_ref()))
        .await
        .map_err(|error| format!("the archive is not available: {error}"))?
}

/// A list of the archive as the lobby shows it and the SSH command prints it: its
/// title, its lines (the headings first) and, row for row under the headings, the lobby
/// command choosing the row runs, with what that does in a few words.
pub struct Listing {
    pub title: String,
    pub lines: Vec<String>,
    pub opens: Vec<LobbyCommand>,
    pub opening: &'static str,
}

/// `games [NAME]`: the list, each game opening to be stepped through, or why not (an
/// unknown name).
pub async fn games(
    db: &Arc<dyn Store>,
    name: Option<String>,
    asker: Asker,
) -> Result<Listing, String> {
    let (title, games) = read(db, move |db| {
        let error = |error: crate::store::StoreError| error.to_string();
        match name {
            None => {
                let games = match &asker.key {
                    Some(key) => db.games_of_key(key, GAMES_LISTED),
                    None => db.games_of_guest(&asker.name, GAMES_LISTED),
                }
                .map_err(error)?;
                Ok((format!("your last games ({})", asker.name), games))
            }
            Some(name) => match db.player_by_name(&name).map_err(error)? {
                Some(player) => {
                    let games = db.games_of_key(&player.key, GAMES_LISTED).map_err(error)?;
                    Ok((format!("the last games of {}", player.name), games))
                }
                None => {
                    let guest = format!("{name} (guest)");
                    let games = db.games_of_guest(&guest, GAMES_LISTED).map_err(error)?;
                    if games.is_empty() {
                        return Err(format!("no player called {name} has finished a game"));
                    }
                    Ok((format!("the last games of {guest}"), games))
                }
            },
        }
    })
    .await?;
    Ok(Listing {
        title,
        lines: games_lines(&games),
        opens: games
            .iter()
            .map(|game| LobbyCommand::Pgn(game.id))
            .collect(),
        opening: "step through the game",
    })
}

/// `pgn ID`: the archived game, or why not.
pub async fn game(db: &Arc<dyn Store>, id: i64) -> Result<ArchivedGame, String> {
    read(db, move |db| {
        db.game(id)
            .map_err(|error| error.to_string())?
            .ok_or_else(|| format!("no archived game #{id}: `games` lists their numbers"))
    })
    .await
}

/// `top`: the leaderboard, each player opening to their games.
pub async fn top(db: &Arc<dyn Store>) -> Result<Listing, String> {
    let players = read(db, |db| {
        db.top(TOP_LISTED).map_err(|error| error.to_string())
    })
    .await?;
    Ok(Listing {
        title: "the leaderboard".to_owned(),
        lines: top_lines(&players),
        opens: players
            .iter()
            .map(|player| LobbyCommand::Games(Some(player.name.clone())))
            .collect(),
        opening: "the player's games",
    })
}

const NAME_COLUMNS: usize = 16;
const GAME_NAME_COLUMNS: usize = 13;

fn pad(text: &str, columns: usize) -> String {
    format!("{text}{}", " ".repeat(columns.saturating_sub(text.width())))
}

fn pad_left(text: &str, columns: usize) -> String {
    format!("{}{text}", " ".repeat(columns.saturating_sub(text.width())))
}

/// Games as lines under their headings (at most 78 columns: the lobby's list inside
/// its borders at 80).
pub fn games_lines(games: &[ArchivedGame]) -> Vec<String> {
    if games.is_empty() {
        return vec!["no finished games yet".to_owned()];
    }
    let line = |cells: [&str; 7]| {
        let [id, date, red, black, result, opening, how] = cells;
        format!(
            "{} {} {} {} {} {} {how}",
            pad_left(id, 5),
            pad(date, 10),
            pad(&fit_name(red, GAME_NAME_COLUMNS), GAME_NAME_COLUMNS),
            pad(&fit_name(black, GAME_NAME_COLUMNS), GAME_NAME_COLUMNS),
            pad(result, 7),
            pad(opening, 4),
        )
    };
    std::iter::once(line([
        "ID",
        "DATE",
        "RED",
        "BLACK",
        "RESULT",
        "ECCO",
        "TERMINATION",
    ]))
    .chain(games.iter().map(|archived| {
        let game = &archived.game;
        let how = if game.rated {
            game.termination.clone()
        } else {
            format!("{}, unrated", game.termination)
        };
        line([
            &archived.id.to_string(),
            &pgn_date(game.started.max(0) as u64),
            &game.red.name,
            &game.black.name,
            &game.result,
            &opening_code(&game.pgn),
            &how,
        ])
    }))
    .collect()
}

/// The ECCO code of an archived game: its tag, or (for games archived before the
/// tag was written) the code of its moves.
fn opening_code(pgn: &str) -> String {
    let Ok(game) = parse_pgn(pgn) else {
        return String::new();
    };
    if let Some(code) = game.tag("ECCO") {
        return code.to_owned();
    }
    game.replay_partial()
        .ok()
        .and_then(|(record, _)| classify(&record.start, &record.moves))
        .map(|opening| opening.code.to_string())
        .unwrap_or_default()
}

/// The leaderboard as lines under their headings.
pub fn top_lines(players: &[Player]) -> Vec<String> {
    if players.is_empty() {
        return vec!["no rated games yet".to_owned()];
    }
    let line = |rank: &str, name: &str, rating: &str, deviation: &str, games: &str| {
        format!(
            "{} {} {} {} {}",
            pad_left(rank, 4),
            pad(&fit_name(name, NAME_COLUMNS), NAME_COLUMNS),
            pad_left(rating, 6),
            pad_left(deviation, 4),
            pad_left(games, 6),
        )
    };
    std::iter::once(line("RANK", "NAME", "RATING", "RD", "GAMES"))
        .chain(players.iter().enumerate().map(|(index, player)| {
            line(
                &(index + 1).to_string(),
                &player.name,
                &player.rating.label(),
                &format!("{:.0}", player.rating.deviation),
                &player.games.to_string(),
            )
        }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{FinishedGame, Side};
    use xiangqi_app::game::rating::Rating;

    #[test]
    fn lists_line_up_under_their_headings() {
        let game = FinishedGame {
            pgn: "[ECCO \"C20\"]\n\n1. h2e2 h9g7 *\n".into(),
            red: Side {
                name: "ann".into(),
                key: Some("SHA256:a".into()),
            },
            black: Side {
                name: "bartholomew (guest)".into(),
                key: None,
            },
            result: "1-0".into(),
            termination: "resignation".into(),
            time_control: "none".into(),
            rated: false,
            started: 86_400 * 365,
            ended: 86_400 * 365,
            tournament: None,
        };
        let lines = games_lines(&[ArchivedGame { id: 7, game }]);
        assert!(lines.iter().all(|line| line.width() <= 78), "{lines:#?}");
        assert_eq!(
            lines,
            [
                "   ID DATE       RED           BLACK         RESULT  ECCO TERMINATION",
                "    7 1971.01.01 ann           bart~ (guest) 1-0     C20  resignation, unrated",
            ]
        );
        let player = Player {
            key: "SHA256:a".into(),
            name: "ann".into(),
            first_seen: 0,
            last_seen: 0,
            rating: Rating {
                rating: 1662.4,
                deviation: 290.3,
                volatility: 0.06,
            },
            games: 1,
        };
        assert_eq!(
            top_lines(&[player]),
            [
                "RANK NAME             RATING   RD  GAMES",
                "   1 ann               1662?  290      1",
            ]
        );
    }
}
