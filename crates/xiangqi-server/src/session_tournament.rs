//! A session's tournaments: the list, a tournament's screen (refreshed as it changes),
//! its commands, and the board that opens by itself when a round pairs the player.

use super::*;
use crate::tournament::Actor;
use xiangqi_app::game::{TournamentCommand, tournament_headings, tournament_line};

impl Session {
    /// Who gives a tournament command from this session.
    pub(super) fn actor(&self) -> Actor {
        Actor::new(
            &self.hub,
            self.start.name.clone(),
            self.key().map(str::to_owned),
            self.start.addr,
        )
    }

    /// `tournament …`: carried out off the async workers; the tournament's screen
    /// shows the answer.
    pub(super) async fn tournament_command(
        &mut self,
        command: TournamentCommand,
    ) -> Result<(), String> {
        let name = command.name().to_owned();
        let answer = match &command {
            TournamentCommand::Show(_) => String::new(),
            TournamentCommand::Pgn(name) => {
                format!("its games as one PGN file: ssh SERVER tournament {name} pgn > {name}.pgn")
            }
            _ => {
                let hub = Arc::clone(&self.hub);
                let actor = self.actor();
                tokio::task::spawn_blocking(move || {
                    hub.tournaments.carry_out(&hub, &actor, &command)
                })
                .await
                .map_err(|error| format!("the command failed: {error}"))??
            }
        };
        self.show_tournament(&name)?;
        if !answer.is_empty() {
            self.ui.notify(answer, false);
        }
        Ok(())
    }

    /// The list of tournaments, each row opening its screen.
    pub(super) fn show_tournaments(&mut self) {
        let summaries = self.hub.tournaments.summaries();
        let heading = if summaries.is_empty() {
            "no tournaments yet: an admin opens one with `tournament new NAME swiss ROUNDS \
             CONTROL`"
                .to_owned()
        } else {
            tournament_headings()
        };
        let rows = summaries
            .iter()
            .map(|summary| {
                (
                    tournament_line(summary),
                    LobbyCommand::Tournament(TournamentCommand::Show(summary.name.clone())),
                )
            })
            .collect();
        self.leave_room(Departure::Left);
        self.show_lobby();
        self.ui.show_lobby_page(LobbyPage {
            title: "tournaments".to_owned(),
            heading,
            rows,
            selected: 0,
            opening: "its players, standings and boards",
        });
    }

    /// The tournament `name`'s screen.
    pub(super) fn show_tournament(&mut self, name: &str) -> Result<(), String> {
        let view = self.hub.tournaments.view(&self.hub, name, self.key())?;
        self.leave_room(Departure::Left);
        self.place = Place::Tournament(view.name.clone());
        self.ui.show_tournament(view);
        Ok(())
    }

    /// The tournament shown again, as it is now.
    pub(super) fn refresh_tournament(&mut self) {
        if let Place::Tournament(name) = &self.place
            && let Ok(view) = self.hub.tournaments.view(&self.hub, name, self.key())
        {
            self.ui.show_tournament(view);
        }
    }

    /// A tournament changed: its screen follows, and a board a round paired this
    /// player on opens (once), with its banner. A player in a game of their own is told
    /// instead.
    pub(super) fn tournaments_changed(&mut self) {
        self.refresh_tournament();
        let Some(key) = self.key().map(str::to_owned) else {
            return;
        };
        if let Some((told, text)) = self.hub.tournaments.bye_for(&key)
            && self.bye_told.as_ref() != Some(&told)
        {
            // A bye opens no board: without a word the player would wait, unsure.
            self.bye_told = Some(told);
            self.ui.notify(text, true);
        }
        let Some(paired) = self.hub.tournaments.board_for(&self.hub, &key) else {
            return;
        };
        if self.auto_opened.as_deref() == Some(paired.room.as_str()) {
            return;
        }
        self.auto_opened = Some(paired.room.clone());
        if let Place::Room { room, side } = &self.place {
            let state = room.lock();
            if state.name == paired.room {
                return;
            }
            if side.is_some() && !state.is_over() {
                drop(state);
                self.ui.notify(
                    format!(
                        "{}: your board is ready, `join {}` plays it",
                        paired.title.trim(),
                        paired.room
                    ),
                    true,
                );
                return;
            }
        }
        let Some(room) = self.hub.room(&paired.room) else {
            return;
        };
        // Its seats and ratings were set when it opened.
        self.enter(room, false, false);
        self.ui.show_banner(paired.title, paired.text);
    }
}
