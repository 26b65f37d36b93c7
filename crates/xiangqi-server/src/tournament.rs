//! Tournaments on the server: Swiss (FIDE Dutch pairings) and arenas (lichess-style),
//! played in ordinary rooms with the room's clocks, archive and ratings. This file is
//! the model: a tournament's players, boards and results as the server holds them,
//! read from and written to the store, and what the pairing crate is given. The
//! director (`tournament_director.rs`) changes them; `tournament_view.rs` shows them.
//!
//! Players are key holders (their key is their identity across sessions and restarts).
//! A Swiss pairs its next round once every game of the last one has a result (after
//! the organiser's pause); an arena pairs players as soon as they are free, until its
//! time is up, and ends when the games then in progress have ended.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::{Notify, watch};

use xiangqi_app::game::TournamentFormat;
use xiangqi_core::board::Color;
use xiangqi_core::clock::TimeControl;
use xiangqi_core::record::GameResult;
use xiangqi_pairing::arena::{self, ArenaGame, Outcome};

use crate::store::{
    BoardId, BoardRecord, ChatLine, EntrantRecord, SavedTournament, Stage, Store, StoreError,
    TournamentRecord, UnixTime,
};

#[path = "tournament_director.rs"]
mod director;
#[path = "tournament_rounds.rs"]
mod rounds;
#[path = "tournament_view.rs"]
mod view;

pub use director::{Actor, run_director, script_command};

/// Chat lines of a tournament kept (and restored) per tournament.
pub const CHAT_KEPT: usize = 50;

/// The tournament game a room holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentGame {
    pub id: BoardId,
    /// The tournament's name (the archived game's `Event`).
    pub event: String,
}

impl TournamentGame {
    /// How the room's status line names it: `club round 2, board 1`, `blitz game 7`.
    pub fn label(&self) -> String {
        if self.id.round > 0 {
            format!(
                "{} round {}, board {}",
                self.event, self.id.round, self.id.board
            )
        } else {
            format!("{} game {}", self.event, self.id.board)
        }
    }

    /// The PGN's `Round`: the round, or `-` in an arena (which has none).
    pub fn round_tag(&self) -> String {
        if self.id.round > 0 {
            self.id.round.to_string()
        } else {
            "-".to_owned()
        }
    }
}

/// How a board ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardResult {
    /// Played over the board (its game is in the archive).
    Played(GameResult),
    /// Not played: the winner (`None`: neither came).
    Forfeit(Option<Color>),
    /// An arena game nobody came to: it does not count.
    Void,
    /// The pairing-allocated bye of a Swiss.
    Bye,
}

impl BoardResult {
    /// As the store keeps it.
    pub fn token(self) -> &'static str {
        match self {
            BoardResult::Played(result) => result.as_str(),
            BoardResult::Forfeit(Some(Color::Red)) => "+-",
            BoardResult::Forfeit(Some(Color::Black)) => "-+",
            BoardResult::Forfeit(None) => "--",
            BoardResult::Void => "void",
            BoardResult::Bye => "bye",
        }
    }

    pub fn parse(token: &str) -> Option<BoardResult> {
        Some(match token {
            "+-" => BoardResult::Forfeit(Some(Color::Red)),
            "-+" => BoardResult::Forfeit(Some(Color::Black)),
            "--" => BoardResult::Forfeit(None),
            "void" => BoardResult::Void,
            "bye" => BoardResult::Bye,
            other => match GameResult::from_token(other)? {
                GameResult::Unknown => return None,
                result => BoardResult::Played(result),
            },
        })
    }

    /// As the tournament screen shows it.
    pub fn text(self) -> &'static str {
        match self {
            BoardResult::Played(GameResult::RedWins) => "1-0",
            BoardResult::Played(GameResult::BlackWins) => "0-1",
            BoardResult::Played(_) => "1/2-1/2",
            BoardResult::Forfeit(Some(Color::Red)) => "1-0 forfeit",
            BoardResult::Forfeit(Some(Color::Black)) => "0-1 forfeit",
            BoardResult::Forfeit(None) => "0-0 forfeit",
            BoardResult::Void => "not played",
            BoardResult::Bye => "bye",
        }
    }
}

/// A pairing of the tournament and its result.
#[derive(Debug, Clone)]
pub struct Board {
    /// A Swiss's round; 0 in an arena.
    pub round: u32,
    /// The board in its round; an arena's game number.
    pub number: u32,
    /// Indices into the tournament's entrants.
    pub red: usize,
    /// `None`: a bye.
    pub black: Option<usize>,
    pub room: Option<String>,
    pub result: Option<BoardResult>,
    /// The archived game's id.
    pub game: Option<i64>,
    pub paired: UnixTime,
    /// This server opened its room: a room missing afterwards was closed.
    opened: bool,
    /// The side to move's first move is due by then (the ply it is for).
    due: Option<(usize, Instant)>,
}

impl Board {
    pub fn is_open(&self) -> bool {
        self.result.is_none()
    }

    pub fn has(&self, entrant: usize) -> bool {
        self.red == entrant || self.black == Some(entrant)
    }
}

/// A tournament as the server holds it.
pub struct Tournament {
    pub record: TournamentRecord,
    pub format: TournamentFormat,
    pub control: TimeControl,
    /// In pairing order.
    pub entrants: Vec<EntrantRecord>,
    /// By round and board (an arena's by game number).
    pub boards: Vec<Board>,
    chat: VecDeque<(u64, String)>,
    chat_next: u64,
    /// When the next Swiss round may be paired (the organiser's pause after the last).
    next_round: Option<Instant>,
    /// Boards wait for a room (the server's limit): said once.
    told_waiting: bool,
}

impl Tournament {
    fn new(record: TournamentRecord, format: TournamentFormat, control: TimeControl) -> Self {
        Tournament {
            record,
            format,
            control,
            entrants: Vec::new(),
            boards: Vec::new(),
            chat: VecDeque::new(),
            chat_next: 0,
            next_round: None,
            told_waiting: false,
        }
    }

    /// A tournament the store holds; why not when it cannot be read.
    fn restore(saved: SavedTournament) -> Result<Tournament, String> {
        let record = saved.record;
        let format = match record.kind.as_str() {
            "swiss" => TournamentFormat::Swiss {
                rounds: record.amount,
            },
            "arena" => TournamentFormat::Arena {
                minutes: record.amount,
            },
            other => return Err(format!("unknown kind {other}")),
        };
        let control: TimeControl = record
            .time_control
            .parse()
            .map_err(|error| format!("{error}"))?;
        let mut tournament = Tournament::new(record, format, control);
        tournament.entrants = saved.entrants;
        let index = |key: &str| tournament.entrants.iter().position(|e| e.key == key);
        let mut boards = Vec::new();
        for board in saved.boards {
            let red = index(&board.red).ok_or("a board names a player it does not have")?;
            let black = match &board.black {
                Some(key) => Some(index(key).ok_or("a board names a player it does not have")?),
                None => None,
            };
            boards.push(Board {
                round: board.round,
                number: board.board,
                red,
                black,
                room: board.room,
                result: board.result.as_deref().and_then(BoardResult::parse),
                game: board.game,
                paired: board.paired,
                opened: false,
                due: None,
            });
        }
        tournament.boards = boards;
        for line in saved.chat {
            tournament.chat.push_back((line.seq, line.text));
            tournament.chat_next = tournament.chat_next.max(line.seq + 1);
        }
        Ok(tournament)
    }

    pub fn name(&self) -> &str {
        &self.record.name
    }

    pub fn stage(&self) -> Stage {
        self.record.stage
    }

    /// The entrant with `key`.
    pub fn entrant(&self, key: &str) -> Option<usize> {
        self.entrants.iter().position(|e| e.key == key)
    }

    /// A Swiss's rounds paired so far.
    pub fn current_round(&self) -> u32 {
        self.boards.iter().map(|b| b.round).max().unwrap_or(0)
    }

    /// The game a board holds, as its room and the archive know it.
    pub fn game_of(&self, board: &Board) -> TournamentGame {
        TournamentGame {
            id: BoardId {
                tournament: self.record.id,
                round: board.round,
                board: board.number,
            },
            event: self.record.name.clone(),
        }
    }

    /// The board as the store keeps it.
    fn board_record(&self, board: &Board) -> BoardRecord {
        BoardRecord {
            round: board.round,
            board: board.number,
            red: self.entrants[board.red].key.clone(),
            black: board.black.map(|b| self.entrants[b].key.clone()),
            room: board.room.clone(),
            result: board.result.map(|r| r.token().to_owned()),
            game: board.game,
            paired: board.paired,
        }
    }

    /// Writes the tournament's row, its players when `entrants`, and the boards at
    /// `boards` (indices), in one transaction.
    fn save(&mut self, db: &dyn Store, entrants: bool, boards: &[usize]) -> Result<(), String> {
        let records: Vec<BoardRecord> = boards
            .iter()
            .map(|&i| self.board_record(&self.boards[i]))
            .collect();
        let id = db
            .save_tournament(
                &self.record,
                entrants.then_some(self.entrants.as_slice()),
                &records,
            )
            .map_err(|error: StoreError| error.to_string())?;
        self.record.id = id;
        Ok(())
    }

    /// Says `text` in the tournament's chat (kept in the store); `from` is empty for
    /// the tournament's own announcements.
    fn say(&mut self, db: &dyn Store, from: &str, text: &str, now: UnixTime) {
        let line = if from.is_empty() {
            format!("* {text}")
        } else {
            format!("{from}: {text}")
        };
        let seq = self.chat_next;
        self.chat_next += 1;
        if self.chat.len() == CHAT_KEPT {
            self.chat.pop_front();
        }
        self.chat.push_back((seq, line.clone()));
        let kept = ChatLine {
            seq,
            from: String::new(),
            text: line,
            time: now,
        };
        if let Err(error) = db.add_tournament_chat(self.record.id, &kept) {
            // The line is shown; only a restart would lose it.
            crate::log(&format!(
                "tournament {}: a chat line was not kept: {error}",
                self.record.name
            ));
        }
    }

    /// The chat, oldest first.
    pub fn chat(&self) -> impl Iterator<Item = &str> {
        self.chat.iter().map(|(_, line)| line.as_str())
    }

    /// The Swiss so far as the pairing crate sees it: every result known, round by round.
    pub fn pairing_view(&self) -> xiangqi_pairing::Tournament {
        use xiangqi_pairing::{Colour, Game, GameResult as Pr, Player};
        let rounds = self.current_round() as usize;
        let mut games: Vec<Vec<Game>> = vec![Vec::new(); rounds];
        for board in &self.boards {
            let (Some(result), Some(slot)) = (
                board.result,
                (board.round as usize).checked_sub(1).map(|r| &mut games[r]),
            ) else {
                continue;
            };
            let colour = |color: Color| match color {
                Color::Red => Colour::White,
                Color::Black => Colour::Black,
            };
            let game = match (result, board.black) {
                (BoardResult::Bye, _) => Game::Bye { player: board.red },
                (BoardResult::Played(result), Some(black)) => Game::Played {
                    white: board.red,
                    black,
                    result: match result {
                        GameResult::RedWins => Pr::WhiteWins,
                        GameResult::BlackWins => Pr::BlackWins,
                        _ => Pr::Draw,
                    },
                },
                (BoardResult::Forfeit(winner), Some(black)) => Game::Forfeit {
                    white: board.red,
                    black,
                    winner: winner.map(colour),
                },
                _ => continue,
            };
            slot.push(game);
        }
        xiangqi_pairing::Tournament {
            name: self.record.name.clone(),
            players: self
                .entrants
                .iter()
                .map(|e| Player {
                    name: e.name.clone(),
                    rating: e.rating,
                })
                .collect(),
            rounds: games,
            total_rounds: match self.format {
                TournamentFormat::Swiss { rounds } => rounds,
                TournamentFormat::Arena { .. } => 0,
            },
            // FIDE draws the top seed's colour by lot; here the top seed plays Red, so
            // the same field is paired the same way every time.
            first_colour: xiangqi_pairing::Colour::White,
        }
    }

    /// An arena player's games, in the order they were paired: the outcome and the
    /// opponent's rating (games not played do not count).
    pub fn arena_games(&self, entrant: usize) -> Vec<ArenaGame> {
        self.boards
            .iter()
            .filter(|b| b.has(entrant))
            .filter_map(|b| {
                let BoardResult::Played(result) = b.result? else {
                    return None;
                };
                let black = b.black?;
                let (me, them) = if b.red == entrant {
                    (Color::Red, black)
                } else {
                    (Color::Black, b.red)
                };
                let outcome = match (result, me) {
                    (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => {
                        Outcome::Win
                    }
                    (GameResult::RedWins, _) | (GameResult::BlackWins, _) => Outcome::Loss,
                    _ => Outcome::Draw,
                };
                Some(ArenaGame {
                    outcome,
                    opponent_rating: self.entrants[them].rating,
                })
            })
            .collect()
    }

    /// An arena player's points so far.
    pub fn arena_points(&self, entrant: usize) -> u32 {
        let outcomes: Vec<Outcome> = self
            .arena_games(entrant)
            .iter()
            .map(|g| g.outcome)
            .collect();
        arena::game_points(&outcomes).0.iter().sum()
    }
}

/// Every tournament of the server, and the signals of their changes.
pub struct Tournaments {
    list: Mutex<Vec<Tournament>>,
    /// Changes after every change of a tournament (a pairing, a result, a player, a
    /// chat line): the screens showing one refresh, paired players' boards open.
    pub changed: watch::Sender<u64>,
    /// Wakes the director (a tournament started, a player joined an arena).
    wake: Notify,
}

impl Tournaments {
    /// The tournaments the store holds.
    pub fn load(db: &dyn Store) -> Tournaments {
        let mut list = Vec::new();
        match db.tournaments(CHAT_KEPT) {
            Ok(saved) => {
                for saved in saved {
                    let name = saved.record.name.clone();
                    match Tournament::restore(saved) {
                        Ok(tournament) => list.push(tournament),
                        Err(why) => crate::log(&format!("skipped tournament {name}: {why}")),
                    }
                }
            }
            Err(error) => crate::log(&format!("cannot read the tournaments: {error}")),
        }
        let running = list.iter().filter(|t| t.stage() == Stage::Running).count();
        if running > 0 {
            crate::log(&format!("restored {running} running tournaments"));
        }
        Tournaments {
            list: Mutex::new(list),
            changed: watch::Sender::new(0),
            wake: Notify::new(),
        }
    }

    fn list(&self) -> MutexGuard<'_, Vec<Tournament>> {
        self.list.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Tells the screens and the players' sessions.
    fn touch(&self) {
        self.changed.send_modify(|version| *version += 1);
    }

    /// Whether any tournament is running (the director has work).
    fn any_running(&self) -> bool {
        self.list().iter().any(|t| t.stage() == Stage::Running)
    }
}

/// `1 player`, `3 players`: a count as the tournaments' messages say it.
fn counted(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Finds a tournament by name (case does not matter).
fn find<'a>(list: &'a mut [Tournament], name: &str) -> Result<&'a mut Tournament, String> {
    list.iter_mut()
        .find(|t| t.record.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("no tournament {name}: `tournaments` lists them"))
}

#[cfg(test)]
#[path = "tournament_tests.rs"]
mod tests;
