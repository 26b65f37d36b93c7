//! A running tournament's rounds: following its boards' rooms (results, no-shows,
//! closed rooms), pairing a Swiss's next round or an arena's free players, opening the
//! rooms of new boards, and finishing it. The director (`tournament_director.rs`) takes
//! these steps every half second. Blocking (the store is written).

use std::sync::Arc;
use std::time::{Duration, Instant};

use xiangqi_app::game::TournamentFormat;
use xiangqi_core::board::Color;
use xiangqi_core::record::GameResult;
use xiangqi_pairing::arena::{self, Waiting};
use xiangqi_pairing::{PairingError, pair_next_round};

use super::director::no_show_text;
use super::{Board, BoardResult, Stage, Tournament};
use crate::hub::Hub;
use crate::room::Seat;
use crate::store::unix_now;

/// What a look at a board's room found.
enum Seen {
    Nothing,
    /// Its game ended and is archived (as this id).
    Over(GameResult, i64),
    /// The side to move has not made its first move in time; whether each side is here.
    NoShow {
        ply: usize,
        here: [bool; 2],
    },
    /// Its room is gone (an admin closed it).
    Gone,
}

impl Tournament {
    /// Looks at the room of every board in play.
    pub(super) fn follow_boards(&mut self, hub: &Arc<Hub>, now: Instant) -> bool {
        let no_show = hub.settings.no_show;
        let mut changed = false;
        for index in 0..self.boards.len() {
            let board = &self.boards[index];
            if !board.is_open() || board.black.is_none() {
                continue;
            }
            let id = self.game_of(board).id;
            let room = board
                .room
                .as_deref()
                .and_then(|name| hub.room(name))
                .filter(|room| room.lock().tournament.as_ref().map(|game| game.id) == Some(id));
            let board = &mut self.boards[index];
            let seen = match room {
                None if board.opened => Seen::Gone,
                None => Seen::Nothing,
                Some(room) => {
                    board.opened = true;
                    let state = room.lock();
                    if state.is_over() {
                        let result = state
                            .game
                            .outcome()
                            .and_then(|o| GameResult::from_token(o.pgn_result()));
                        match (result, state.archived) {
                            (Some(result), Some(game)) if state.to_archive.is_empty() => {
                                Seen::Over(result, game)
                            }
                            // Its result is recorded with the archived game: wait for it.
                            _ => Seen::Nothing,
                        }
                    } else {
                        let ply = state.game.ply();
                        match board.due {
                            _ if ply >= 2 => {
                                board.due = None;
                                Seen::Nothing
                            }
                            Some((due_ply, at)) if due_ply == ply && now >= at => Seen::NoShow {
                                ply,
                                here: [0, 1].map(|i| {
                                    state.seats[i].as_ref().is_some_and(|s| s.connected > 0)
                                }),
                            },
                            Some((due_ply, _)) if due_ply == ply => Seen::Nothing,
                            _ => {
                                board.due = Some((ply, now + no_show));
                                Seen::Nothing
                            }
                        }
                    }
                }
            };
            changed |= self.settle(hub, index, seen);
        }
        changed
    }

    /// Records what was seen of board `index`.
    fn settle(&mut self, hub: &Arc<Hub>, index: usize, seen: Seen) -> bool {
        let now = unix_now();
        let arena = matches!(self.format, TournamentFormat::Arena { .. });
        let (red, black) = {
            let board = &self.boards[index];
            (board.red, board.black.unwrap_or(board.red))
        };
        let names = [
            self.entrants[red].name.clone(),
            self.entrants[black].name.clone(),
        ];
        let label = self.board_label(&self.boards[index]);
        match seen {
            Seen::Nothing => false,
            Seen::Over(result, game) => {
                // The archive wrote it with the game: nothing to write here.
                let board = &mut self.boards[index];
                board.result = Some(BoardResult::Played(result));
                board.game = Some(game);
                let said = format!(
                    "{label}: {} {} {} (game #{game})",
                    names[0],
                    result.as_str(),
                    names[1]
                );
                self.say(hub.db.as_ref(), "", &said, now);
                true
            }
            Seen::Gone => {
                let result = if arena {
                    BoardResult::Void
                } else {
                    BoardResult::Forfeit(None)
                };
                self.boards[index].result = Some(result);
                self.write(hub, false, &[index]);
                let said = format!(
                    "{label}: its room was closed; {} {} {}",
                    names[0],
                    result.text(),
                    names[1]
                );
                self.say(hub.db.as_ref(), "", &said, now);
                true
            }
            Seen::NoShow { ply, here } => {
                // Red's first move is due first; Black's once Red has moved.
                let absent: Vec<Color> = if ply == 0 && !here[1] {
                    vec![Color::Red, Color::Black]
                } else if ply == 0 {
                    vec![Color::Red]
                } else {
                    vec![Color::Black]
                };
                let result = match (arena, absent.as_slice()) {
                    (true, _) => BoardResult::Void,
                    (false, [Color::Red]) => BoardResult::Forfeit(Some(Color::Black)),
                    (false, [Color::Black]) => BoardResult::Forfeit(Some(Color::Red)),
                    (false, _) => BoardResult::Forfeit(None),
                };
                for color in &absent {
                    let entrant = if *color == Color::Red { red } else { black };
                    self.entrants[entrant].active = false;
                }
                self.boards[index].result = Some(result);
                self.write(hub, true, &[index]);
                let missing: Vec<&str> = absent
                    .iter()
                    .map(|color| names[color.index()].as_str())
                    .collect();
                let within = no_show_text(hub.settings.no_show);
                let outcome = match result {
                    BoardResult::Forfeit(Some(winner)) => {
                        format!("{} wins by forfeit", names[winner.index()])
                    }
                    BoardResult::Forfeit(None) => "both lose by forfeit".to_owned(),
                    _ => "the game does not count".to_owned(),
                };
                let name = self.name().to_owned();
                let said = format!(
                    "{label}: {} did not come (no move in {within}): {outcome}; \
                     `tournament join {name}` comes back",
                    missing.join(" and ")
                );
                self.say(hub.db.as_ref(), "", &said, now);
                if let Some(room) = self.boards[index].room.clone() {
                    let _ = hub.close(&room, format!("{label}: {outcome} (a no-show)"), "no-show");
                }
                true
            }
        }
    }

    /// `round 2, board 1` or `game 7`.
    fn board_label(&self, board: &Board) -> String {
        if board.round > 0 {
            format!("round {}, board {}", board.round, board.number)
        } else {
            format!("game {}", board.number)
        }
    }

    /// Saves what changed; a failure is logged (what players see is kept; a restart
    /// would start from what the store has).
    fn write(&mut self, hub: &Hub, entrants: bool, boards: &[usize]) -> bool {
        match self.save(hub.db.as_ref(), entrants, boards) {
            Ok(()) => true,
            Err(error) => {
                crate::log(&format!(
                    "tournament {}: cannot save: {error}",
                    self.record.name
                ));
                false
            }
        }
    }

    /// A Swiss: the next round once every board of the last has a result (after the
    /// organiser's pause), or the end after the last round.
    pub(super) fn advance_swiss(&mut self, hub: &Arc<Hub>, now: Instant, rounds: u32) -> bool {
        let round = self.current_round();
        if self.boards.iter().any(|b| b.round == round && b.is_open()) {
            return false;
        }
        if round >= rounds {
            return self.finish(hub, "");
        }
        if round > 0 {
            let pause = Duration::from_secs(u64::from(self.record.pause_s));
            let announce = self.next_round.is_none() && !pause.is_zero();
            if announce {
                // Said once, so the players know the wait is the organiser's.
                let said = format!(
                    "round {round} is over: round {} is paired in {}",
                    round + 1,
                    no_show_text(pause)
                );
                self.say(hub.db.as_ref(), "", &said, unix_now());
            }
            let at = *self.next_round.get_or_insert(now + pause);
            if now < at {
                return announce;
            }
        }
        self.next_round = None;
        self.pair_swiss(hub, round + 1)
    }

    fn pair_swiss(&mut self, hub: &Arc<Hub>, round: u32) -> bool {
        let absent: Vec<usize> = (0..self.entrants.len())
            .filter(|&i| !self.entrants[i].active || self.entrants[i].joined_round > round)
            .collect();
        if self.entrants.len() - absent.len() < 2 {
            return self.finish(hub, "fewer than two players are left, ");
        }
        let pairing = match pair_next_round(&self.pairing_view(), &absent) {
            Ok(pairing) => pairing,
            Err(error @ (PairingError::Impossible | PairingError::TooLarge)) => {
                let why = format!("round {round} cannot be paired ({error}), ");
                return self.finish(hub, &why);
            }
            Err(error) => {
                crate::log(&format!(
                    "tournament {}: cannot pair round {round}: {error}",
                    self.record.name
                ));
                return false;
            }
        };
        let now = unix_now();
        let first = self.boards.len();
        for (number, &(red, black)) in pairing.boards.iter().enumerate() {
            let number = number as u32 + 1;
            self.boards.push(Board {
                round,
                number,
                red,
                black: Some(black),
                room: Some(self.room_name(round, number)),
                result: None,
                game: None,
                paired: now,
                opened: false,
                due: None,
            });
        }
        if let Some(player) = pairing.bye {
            self.boards.push(Board {
                round,
                number: pairing.boards.len() as u32 + 1,
                red: player,
                black: None,
                room: None,
                result: Some(BoardResult::Bye),
                game: None,
                paired: now,
                opened: false,
                due: None,
            });
        }
        let added: Vec<usize> = (first..self.boards.len()).collect();
        if !self.write(hub, false, &added) {
            // Paired again at the next step, once the store takes it.
            self.boards.truncate(first);
            return false;
        }
        let rounds = match self.format {
            TournamentFormat::Swiss { rounds } => rounds,
            TournamentFormat::Arena { .. } => round,
        };
        let mut said = format!("round {round} of {rounds} is paired:");
        for board in &self.boards[first..] {
            said.push_str(&match board.black {
                Some(black) => format!(
                    " {}. {} - {};",
                    board.number, self.entrants[board.red].name, self.entrants[black].name
                ),
                None => format!(" {} has the bye;", self.entrants[board.red].name),
            });
        }
        said.pop();
        self.say(hub.db.as_ref(), "", &said, now);
        true
    }

    /// The room a board is played in: `NAME-ROUND-BOARD` (`NAME-GAME` in an arena) when
    /// that is a room name, else `tID-…`.
    fn room_name(&self, round: u32, number: u32) -> String {
        let suffix = if round > 0 {
            format!("{round}-{number}")
        } else {
            number.to_string()
        };
        let name = format!("{}-{suffix}", self.record.name);
        if xiangqi_app::game::valid_room_name(&name) {
            name
        } else {
            format!("t{}-{suffix}", self.record.id)
        }
    }

    /// An arena: pairs the players who are free until its time is up, then ends once
    /// the games in progress have.
    pub(super) fn advance_arena(&mut self, hub: &Arc<Hub>) -> bool {
        let now = unix_now();
        let over = self.record.ends.is_none_or(|ends| now >= ends);
        if over {
            // Boards whose room never opened are not games.
            let mut voided = Vec::new();
            for (index, board) in self.boards.iter_mut().enumerate() {
                if board.is_open() && !board.opened {
                    board.result = Some(BoardResult::Void);
                    voided.push(index);
                }
            }
            if !voided.is_empty() {
                self.write(hub, false, &voided);
            }
            if self.boards.iter().any(Board::is_open) {
                return !voided.is_empty();
            }
            return self.finish(hub, "its time is up, ");
        }
        let playing: Vec<usize> = self
            .boards
            .iter()
            .filter(|b| b.is_open())
            .flat_map(|b| [Some(b.red), b.black])
            .flatten()
            .collect();
        let waiting: Vec<Waiting> = (0..self.entrants.len())
            .filter(|i| self.entrants[*i].active && !playing.contains(i))
            // Someone in another unfinished game is not free.
            .filter(|&i| hub.seat_of(&self.entrants[i].key).is_none())
            .map(|i| self.waiting(i))
            .collect();
        if waiting.len() < 2 {
            return false;
        }
        let pairs = arena::pair(&waiting, !playing.is_empty());
        if pairs.is_empty() {
            return false;
        }
        let first = self.boards.len();
        let mut number = self.boards.iter().map(|b| b.number).max().unwrap_or(0);
        for (red, black) in pairs {
            number += 1;
            self.boards.push(Board {
                round: 0,
                number,
                red,
                black: Some(black),
                room: Some(self.room_name(0, number)),
                result: None,
                game: None,
                paired: now,
                opened: false,
                due: None,
            });
        }
        let added: Vec<usize> = (first..self.boards.len()).collect();
        if !self.write(hub, false, &added) {
            self.boards.truncate(first);
            return false;
        }
        true
    }

    /// An arena player as the pairing sees them.
    fn waiting(&self, entrant: usize) -> Waiting {
        let mut balance = 0;
        let mut last_opponent = None;
        for board in self.boards.iter().filter(|b| b.has(entrant)) {
            let Some(black) = board.black else { continue };
            let red = board.red == entrant;
            last_opponent = Some(if red { black } else { board.red });
            if matches!(board.result, Some(BoardResult::Played(_))) {
                balance += if red { 1 } else { -1 };
            }
        }
        Waiting {
            player: entrant,
            points: self.arena_points(entrant),
            rating: self.entrants[entrant].rating,
            last_opponent,
            colour_balance: balance,
        }
    }

    /// Opens the rooms of boards paired and not opened yet (after a pairing, or after a
    /// restart whose room was never saved). A full server makes them wait.
    pub(super) fn open_rooms(&mut self, hub: &Arc<Hub>) -> bool {
        let mut changed = false;
        for index in 0..self.boards.len() {
            let board = &self.boards[index];
            let Some(black) = board.black else { continue };
            if !board.is_open() || board.opened {
                continue;
            }
            let game = self.game_of(board);
            let seat = |entrant: usize| Seat {
                identity: self.entrants[entrant].key.clone(),
                name: self.entrants[entrant].name.clone(),
                connected: 0,
            };
            let seats = [seat(board.red), seat(black)];
            let preferred = board
                .room
                .clone()
                .unwrap_or_else(|| self.room_name(board.round, board.number));
            let opened =
                hub.open_tournament_room(&preferred, seats, self.control, self.record.rated, game);
            match opened {
                Ok(name) => {
                    self.told_waiting = false;
                    let board = &mut self.boards[index];
                    board.opened = true;
                    if board.room.as_deref() != Some(name.as_str()) {
                        board.room = Some(name);
                        self.write(hub, false, &[index]);
                    }
                    changed = true;
                }
                Err(why) => {
                    if !self.told_waiting {
                        self.told_waiting = true;
                        let said = format!("games wait for a room: {why}");
                        self.say(hub.db.as_ref(), "", &said, unix_now());
                        changed = true;
                    }
                    break;
                }
            }
        }
        changed
    }

    /// Ends the tournament; its chat gives the podium. `why` starts the announcement
    /// when it ends early (`"round 4 cannot be paired (…), "`).
    fn finish(&mut self, hub: &Arc<Hub>, why: &str) -> bool {
        let now = unix_now();
        self.record.stage = Stage::Finished;
        self.record.finished = Some(now);
        if !self.write(hub, false, &[]) {
            self.record.stage = Stage::Running;
            self.record.finished = None;
            return false;
        }
        let podium: Vec<String> = self
            .standing_rows()
            .iter()
            .take(3)
            .map(|row| {
                format!(
                    "{}. {} {}",
                    row.rank,
                    row.name,
                    xiangqi_app::game::score_text(row.score)
                )
            })
            .collect();
        let said = format!("{why}the tournament is over: {}", podium.join(", "));
        self.say(hub.db.as_ref(), "", &said, now);
        tracing::info!(
            event = "tournament_finished",
            tournament = %self.record.name,
            "tournament {} finished",
            self.record.name
        );
        true
    }
}
