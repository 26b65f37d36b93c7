//! What the tournaments show: the list, a tournament's screen, its standings (a table,
//! JSON), its games as one PGN file, and the banner of a player's new board.

use xiangqi_app::game::{
    BoardRow, StandingRow, TournamentFormat, TournamentSummary, TournamentView, standings_json,
    standings_lines, tournament_headings, tournament_line,
};
use xiangqi_core::board::Color;
use xiangqi_pairing::arena;

use super::{Board, BoardResult, Stage, Tournament, Tournaments, find};
use crate::hub::Hub;
use crate::store::unix_now;

/// Boards of an arena shown after those in play: the last ones finished.
const ARENA_FINISHED_SHOWN: usize = 6;

/// A player's new board: its room and the banner that opens with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    pub room: String,
    pub title: String,
    pub text: String,
}

impl Tournament {
    /// The standings now (the results known so far).
    pub fn standing_rows(&self) -> Vec<StandingRow> {
        let out =
            |entrant: usize| self.stage() != Stage::Upcoming && !self.entrants[entrant].active;
        match self.format {
            TournamentFormat::Swiss { .. } => xiangqi_pairing::standings(&self.pairing_view())
                .into_iter()
                .map(|s| StandingRow {
                    rank: s.rank,
                    name: self.entrants[s.player].name.clone(),
                    score: f64::from(s.points.0) / 2.0,
                    games: s.games,
                    tiebreaks: vec![
                        ("buchholz", s.buchholz),
                        ("buchholz_cut1", s.buchholz_cut1),
                        ("sonneborn_berger", s.sonneborn_berger),
                        ("direct_encounter", s.direct_encounter),
                    ],
                    on_fire: false,
                    withdrawn: out(s.player),
                })
                .collect(),
            TournamentFormat::Arena { .. } => {
                let records: Vec<_> = (0..self.entrants.len())
                    .map(|i| self.arena_games(i))
                    .collect();
                arena::standings(&records)
                    .into_iter()
                    .map(|s| StandingRow {
                        rank: s.rank,
                        name: self.entrants[s.player].name.clone(),
                        score: f64::from(s.points),
                        games: s.games,
                        tiebreaks: s
                            .performance
                            .map(|p| vec![("performance", p as f64)])
                            .unwrap_or_default(),
                        on_fire: s.on_fire,
                        withdrawn: out(s.player),
                    })
                    .collect()
            }
        }
    }

    /// Its state in a few words: `upcoming`, `round 2 of 5`, `12 min left`, `finished`.
    fn state_word(&self) -> String {
        match (self.stage(), self.format) {
            (Stage::Upcoming, _) => "upcoming".to_owned(),
            (Stage::Finished, _) => "finished".to_owned(),
            (Stage::Running, TournamentFormat::Swiss { rounds }) => {
                format!("round {} of {rounds}", self.current_round().max(1))
            }
            (Stage::Running, TournamentFormat::Arena { .. }) => {
                let left = self.record.ends.unwrap_or(0) - unix_now();
                if left > 0 {
                    format!("{} min left", (left + 59) / 60)
                } else {
                    "ending".to_owned()
                }
            }
        }
    }

    pub fn summary(&self) -> TournamentSummary {
        TournamentSummary {
            name: self.record.name.clone(),
            format: self.format,
            control: self.control,
            rated: self.record.rated,
            state: self.state_word(),
            players: self.entrants.len(),
            creator: self.record.creator_name.clone(),
        }
    }

    /// `swiss 3 rounds | 5+3 | rated | by ann`.
    fn about(&self) -> String {
        let mut about = format!(
            "{} | {} | {} | by {}",
            self.format.describe(),
            self.control,
            if self.record.rated {
                "rated"
            } else {
                "unrated"
            },
            self.record.creator_name
        );
        if self.record.pause_s > 0 {
            about.push_str(&format!(" | {} s between rounds", self.record.pause_s));
        }
        about
    }

    /// The board's state as the screen shows it.
    fn board_state(&self, hub: &Hub, board: &Board) -> String {
        if let Some(result) = board.result {
            return result.text().to_owned();
        }
        let room = board.room.as_deref().and_then(|name| hub.room(name));
        match room {
            None => "waiting for its room".to_owned(),
            Some(room) => match room.lock().game.ply() {
                0 => "starting".to_owned(),
                plies => format!("move {}", plies.div_ceil(2)),
            },
        }
    }

    fn board_row(&self, hub: &Hub, board: &Board, me: Option<usize>) -> BoardRow {
        let label = if board.round > 0 {
            board.number.to_string()
        } else {
            format!("#{}", board.number)
        };
        let name = |entrant: usize| {
            let e = &self.entrants[entrant];
            format!("{} {}", e.name, e.rating)
        };
        BoardRow {
            room: board.room.clone().filter(|_| board.black.is_some()),
            label,
            red: name(board.red),
            black: board.black.map_or_else(|| "(bye)".to_owned(), name),
            state: self.board_state(hub, board),
            mine: me.is_some_and(|me| board.has(me)),
        }
    }

    /// The boards the screen shows: a Swiss's round; an arena's games on, then the last
    /// finished.
    fn shown_boards(&self) -> Vec<&Board> {
        match self.format {
            TournamentFormat::Swiss { .. } => {
                let round = self.current_round();
                self.boards.iter().filter(|b| b.round == round).collect()
            }
            TournamentFormat::Arena { .. } => {
                let mut shown: Vec<&Board> = self.boards.iter().filter(|b| b.is_open()).collect();
                shown.extend(
                    self.boards
                        .iter()
                        .rev()
                        .filter(|b| !b.is_open())
                        .take(ARENA_FINISHED_SHOWN),
                );
                shown
            }
        }
    }

    /// Where the viewer with `key` stands.
    fn you(&self, key: Option<&str>) -> Option<String> {
        let name = self.name();
        let me = key.and_then(|key| self.entrant(key));
        let Some(me) = me else {
            return (self.stage() != Stage::Finished)
                .then(|| format!("`tournament join {name}` takes part"));
        };
        let board = self
            .boards
            .iter()
            .find(|b| b.is_open() && b.black.is_some() && b.has(me));
        Some(match board {
            Some(board) => {
                let (color, other) = if board.red == me {
                    (Color::Red, board.black.unwrap_or(me))
                } else {
                    (Color::Black, board.red)
                };
                let what = if board.round > 0 {
                    format!("board {}", board.number)
                } else {
                    format!("game {}", board.number)
                };
                format!(
                    "you play {what} ({}) against {} (Enter on it)",
                    color.name(),
                    self.entrants[other].name
                )
            }
            None if self.stage() == Stage::Finished => "you played in it".to_owned(),
            None if self.entrants[me].active => format!("you are in; `tournament leave {name}`"),
            None => format!("you are out; `tournament join {name}` comes back"),
        })
    }

    /// The state line of the screen.
    fn state_line(&self) -> String {
        let on = self
            .boards
            .iter()
            .filter(|b| b.is_open() && b.black.is_some())
            .count();
        match (self.stage(), self.format) {
            (Stage::Upcoming, _) => format!(
                "upcoming: {}; {} starts it",
                super::counted(self.entrants.len(), "player"),
                self.record.creator_name
            ),
            (Stage::Finished, _) => "finished: the standings are final".to_owned(),
            (Stage::Running, TournamentFormat::Swiss { .. }) if on == 0 => {
                let next = if self.next_round.is_some() && self.record.pause_s > 0 {
                    "a pause before the next"
                } else {
                    "the next is being paired"
                };
                format!("{}: done, {next}", self.state_word())
            }
            (Stage::Running, _) => {
                format!("{}: {} on", self.state_word(), super::counted(on, "game"))
            }
        }
    }

    fn view(&self, hub: &Hub, key: Option<&str>) -> TournamentView {
        let me = key.and_then(|key| self.entrant(key));
        TournamentView {
            name: self.record.name.clone(),
            about: self.about(),
            state: self.state_line(),
            you: self.you(key),
            standings: self.standing_rows(),
            boards: self
                .shown_boards()
                .into_iter()
                .map(|board| self.board_row(hub, board, me))
                .collect(),
            chat: self.chat().map(str::to_owned).collect(),
        }
    }
}

impl Tournaments {
    /// Every tournament: running, then upcoming, then the finished (newest first).
    pub fn summaries(&self) -> Vec<TournamentSummary> {
        let list = self.list();
        let order = |stage: Stage| match stage {
            Stage::Running => 0,
            Stage::Upcoming => 1,
            Stage::Finished => 2,
        };
        let mut shown: Vec<&Tournament> = list.iter().collect();
        shown.sort_by_key(|t| (order(t.stage()), std::cmp::Reverse(t.record.id)));
        shown.iter().map(|t| t.summary()).collect()
    }

    /// `tournaments` as plain text.
    pub fn list_text(&self) -> String {
        let summaries = self.summaries();
        if summaries.is_empty() {
            return "no tournaments".to_owned();
        }
        std::iter::once(tournament_headings())
            .chain(summaries.iter().map(tournament_line))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The tournament `name`'s screen for the viewer with `key` (`None`: a guest).
    pub fn view(&self, hub: &Hub, name: &str, key: Option<&str>) -> Result<TournamentView, String> {
        let mut list = self.list();
        Ok(find(&mut list, name)?.view(hub, key))
    }

    /// `standings NAME` as plain text (a title line, then the table) or as JSON.
    pub fn standings_text(&self, name: &str, json: bool) -> Result<String, String> {
        let mut list = self.list();
        let tournament = find(&mut list, name)?;
        let rows = tournament.standing_rows();
        if json {
            return Ok(standings_json(&rows));
        }
        let title = format!(
            "{}: {} | {}",
            tournament.name(),
            tournament.about(),
            tournament.state_word()
        );
        Ok(std::iter::once(title)
            .chain(standings_lines(&rows))
            .collect::<Vec<_>>()
            .join("\n"))
    }

    /// Every archived game of the tournament as one PGN file (blocking: the store).
    pub fn pgn(&self, hub: &Hub, name: &str) -> Result<String, String> {
        let id = {
            let mut list = self.list();
            find(&mut list, name)?.record.id
        };
        let games = hub
            .db
            .tournament_pgns(id)
            .map_err(|error| error.to_string())?;
        Ok(games
            .iter()
            .map(|pgn| pgn.trim_end())
            .collect::<Vec<_>>()
            .join("\n\n"))
    }

    /// The bye the player with `key` has in a running Swiss's latest round: what it is
    /// ("club 2") and what the player is told.
    pub fn bye_for(&self, key: &str) -> Option<(String, String)> {
        let list = self.list();
        list.iter()
            .filter(|t| t.stage() == Stage::Running)
            .find_map(|tournament| {
                let TournamentFormat::Swiss { rounds } = tournament.format else {
                    return None;
                };
                let me = tournament.entrant(key)?;
                let round = tournament.boards.iter().map(|b| b.round).max()?;
                tournament.boards.iter().find(|b| {
                    b.round == round && b.red == me && b.result == Some(BoardResult::Bye)
                })?;
                let name = tournament.name();
                Some((
                    format!("{name} {round}"),
                    // Short: the lobby's line is 80 columns.
                    format!("{name}: round {round} of {rounds}: you have the bye (a point)"),
                ))
            })
    }

    /// The board the player with `key` is to play now (its room open, its game on).
    pub fn board_for(&self, hub: &Hub, key: &str) -> Option<Paired> {
        let list = self.list();
        for tournament in list.iter().filter(|t| t.stage() == Stage::Running) {
            let Some(me) = tournament.entrant(key) else {
                continue;
            };
            let board = tournament.boards.iter().find(|b| {
                b.is_open() && b.opened && b.black.is_some() && b.has(me) && b.room.is_some()
            });
            let Some(board) = board else { continue };
            let room = board.room.clone()?;
            let (color, other) = if board.red == me {
                (Color::Red, board.black?)
            } else {
                (Color::Black, board.red)
            };
            let opponent = &tournament.entrants[other];
            // As the room's status line shows it (`1662?`): the rating now, not at entry.
            let rating = match hub.room(&room) {
                Some(r) => {
                    let state = r.lock();
                    if state.is_over() {
                        continue;
                    }
                    state.ratings[color.opponent().index()]
                        .map_or_else(|| opponent.rating.to_string(), |r| r.label())
                }
                None => continue,
            };
            let (title, place) = match tournament.format {
                TournamentFormat::Swiss { rounds } => (
                    format!(" {}: round {} of {rounds} ", tournament.name(), board.round),
                    format!("on board {}", board.number),
                ),
                TournamentFormat::Arena { .. } => (
                    format!(" {}: arena game {} ", tournament.name(), board.number),
                    format!("in game {}", board.number),
                ),
            };
            let within = super::director::no_show_text(hub.settings.no_show);
            let text = format!(
                "You play {} against {} ({}) {place}.\nClock {} each; Red moves first.\n\
                 No first move within {within}: a loss by forfeit.",
                color.name(),
                opponent.name,
                rating,
                tournament.control
            );
            return Some(Paired { room, title, text });
        }
        None
    }
}
