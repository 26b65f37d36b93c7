//! A session's lobby commands: opening, joining and watching rooms, pairing, resuming,
//! and the archive's screens (`games`, `top`, an archived game on the board).

use super::*;

impl Session {
    pub(super) async fn lobby_command(&mut self, command: LobbyCommand) {
        let identity = self.start.identity.clone();
        let name = self.start.name.clone();
        if matches!(
            command,
            LobbyCommand::NewEngine(_) | LobbyCommand::NewHuman(_)
        ) && let Err(why) = self.may_open_room()
        {
            self.ui.notify(why, true);
            return;
        }
        let result = match command {
            LobbyCommand::Games(player) => {
                let asker = Asker {
                    key: crate::room_record::key_of(&identity),
                    name: name.clone(),
                };
                archive::games(&self.hub.db, player, asker)
                    .await
                    .map(|listing| self.show_page(listing))
            }
            LobbyCommand::Top => archive::top(&self.hub.db)
                .await
                .map(|listing| self.show_page(listing)),
            LobbyCommand::Pgn(id) => match archive::game(&self.hub.db, id).await {
                Ok(archived) => self.show_archived(id, &archived.game.pgn),
                Err(error) => Err(error),
            },
            LobbyCommand::Puzzle(argument) => self.open_puzzles(&argument).await,
            LobbyCommand::Drill(argument) => self.open_drill(&argument).await,
            LobbyCommand::Rooms => {
                self.leave_room(Departure::Left);
                self.show_lobby();
                Ok(())
            }
            LobbyCommand::Help => {
                self.leave_room(Departure::Left);
                self.show_lobby();
                self.ui.show_lobby_help();
                Ok(())
            }
            // Named or not, one unfinished game of one's own at a time.
            LobbyCommand::NewEngine(_)
            | LobbyCommand::NewHuman(_)
            | LobbyCommand::New(_)
            | LobbyCommand::Play(_)
                if self.hub.seat_of(&identity).is_some() =>
            {
                Err("you have an unfinished game: finish it (or resign) first".to_owned())
            }
            LobbyCommand::NewEngine(_) | LobbyCommand::NewHuman(_) | LobbyCommand::New(_) => {
                let rating = self.rating_now().await;
                match command.new_room() {
                    Some(order) => self
                        .hub
                        .create(&order, &identity, &name)
                        .map(|room| self.enter_opened(room, rating)),
                    None => Ok(()),
                }
            }
            LobbyCommand::Play(clock) => {
                let rating = self.rating_now().await;
                self.hub
                    .pair(clock, &identity, &name)
                    .map(|(room, opened)| {
                        if opened {
                            self.enter_opened(room, rating);
                        } else {
                            self.enter_seated(room, rating, false);
                        }
                    })
            }
            LobbyCommand::Join(room_name) => match self.hub.room(&room_name) {
                Some(room) => {
                    let rating = self.rating_now().await;
                    self.hub
                        .change(&room, |state| {
                            let held = state.side_of(&identity).is_some();
                            state.take_seat(&identity, &name).map(|_| held)
                        })
                        .map(|held| self.enter_seated(room, rating, held))
                }
                None => Err(format!("no room {room_name}")),
            },
            LobbyCommand::Resume(code) => self.resume(&code),
            LobbyCommand::Tournaments => {
                self.show_tournaments();
                Ok(())
            }
            LobbyCommand::Standings { name, .. } => self.show_tournament(&name),
            LobbyCommand::Tournament(command) => self.tournament_command(command).await,
            LobbyCommand::Watch(room_name) => match self.hub.room(&room_name) {
                Some(room) => {
                    self.enter(room, true, false);
                    Ok(())
                }
                None => Err(format!("no room {room_name}")),
            },
        };
        if let Err(error) = result {
            self.ui.notify(error, true);
        }
    }

    /// The player's rating as the store has it now (games finished since the sign-in
    /// moved it); `None` for a guest.
    pub(super) async fn rating_now(&self) -> Option<Rating> {
        let key = crate::room_record::key_of(&self.start.identity)?;
        let db = Arc::clone(&self.hub.db);
        let player = tokio::task::spawn_blocking(move || db.player_by_key(&key)).await;
        match player {
            Ok(Ok(Some(player))) => Some(player.rating),
            _ => self.start.rating,
        }
    }

    /// The puzzle trainer, with a key holder's puzzle rating and history from the
    /// store (a guest's lives in the session).
    async fn open_puzzles(&mut self, argument: &str) -> Result<(), String> {
        let profile = match self.key().map(str::to_owned) {
            Some(key) => {
                let db = Arc::clone(&self.hub.db);
                let loaded = tokio::task::spawn_blocking(move || db.puzzle_profile(&key)).await;
                match loaded {
                    Ok(Ok(profile)) => Some(profile),
                    Ok(Err(error)) => return Err(format!("puzzles: {error}")),
                    Err(error) => return Err(format!("puzzles: {error}")),
                }
            }
            None => None,
        };
        self.leave_room(Departure::Left);
        let intents = self.ui.show_puzzles(profile, argument)?;
        self.place = Place::Training;
        for intent in intents {
            Box::pin(self.act(intent)).await;
        }
        Ok(())
    }

    /// The endgame school on the server's own tables (in its data directory; a small
    /// missing one is generated there).
    async fn open_drill(&mut self, argument: &str) -> Result<(), String> {
        let tables = self.hub.settings.data_dir.join("egtb");
        self.leave_room(Departure::Left);
        let intents = self.ui.show_drill(&tables, argument)?;
        self.place = Place::Training;
        for intent in intents {
            Box::pin(self.act(intent)).await;
        }
        Ok(())
    }

    /// Keeps a finished puzzle attempt of a key holder; a guest's is not kept.
    pub(super) async fn record_puzzle(&mut self, record: xiangqi_app::PuzzleRecord) {
        let Some(key) = self.key().map(str::to_owned) else {
            return;
        };
        let db = Arc::clone(&self.hub.db);
        let kept = tokio::task::spawn_blocking(move || {
            db.record_puzzle(&key, &record.attempt, record.player, record.puzzle)
        })
        .await;
        let error = match kept {
            Ok(Ok(())) => return,
            Ok(Err(error)) => error.to_string(),
            Err(error) => error.to_string(),
        };
        tracing::warn!(event = "puzzle_not_kept", error = %error, "a puzzle attempt was not kept: {error}");
        self.ui
            .notify(format!("your puzzle result was NOT kept: {error}"), true);
    }

    /// A list in the lobby (`games`, `top`), its rows to choose from.
    pub(super) fn show_page(&mut self, listing: archive::Listing) {
        self.leave_room(Departure::Left);
        self.show_lobby();
        let mut lines = listing.lines.into_iter();
        let heading = lines.next().unwrap_or_default();
        self.ui.show_lobby_page(LobbyPage {
            title: listing.title,
            heading,
            rows: lines.zip(listing.opens).collect(),
            selected: 0,
            opening: listing.opening,
        });
    }

    /// An archived game in the game screen, to step through (watching: nobody moves).
    pub(super) fn show_archived(&mut self, id: i64, pgn: &str) -> Result<(), String> {
        let record = GameRecord::from_pgn(pgn).map_err(|error| format!("game #{id}: {error}"))?;
        let game = GameState::from_record(&record)
            .map_err(|illegal| format!("game #{id}: move {} is illegal", illegal.index + 1))?;
        self.leave_room(Departure::Left);
        let tag = |name: &str| record.tag(name).unwrap_or("?").to_owned();
        self.ui.show_room(RoomView {
            name: format!("#{id}"),
            kind: RoomKind::Human,
            my_side: None,
            red: tag("Red"),
            black: tag("Black"),
            spectators: 0,
            game,
            // The status line tells the result already, as for any finished game.
            ended: None,
            pending: None,
            chat: vec![(
                0,
                format!(
                    "* archived game #{id}, {}: step with the arrow keys (Home, End: the start, \
                     the end); :review marks the mistakes, n N go to them; :leave for the lobby",
                    tag("Date")
                ),
            )],
            clock: xiangqi_core::clock::GameClock::new(None, None),
            time: Arc::new(xiangqi_core::clock::MonotonicTime::default()),
            rated: record.tag("Rated") != Some("no"),
            event: None,
        });
        self.place = Place::Archive;
        Ok(())
    }
}
