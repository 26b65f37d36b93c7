//! A session's lobby commands: opening, joining and watching rooms, pairing, resuming,
//! and the archive's screens (`games`, `top`, an archived game on the board).

use super::*;

impl Session {
    pub(super) async fn lobby_command(&mut self, command: LobbyCommand) {
        let identity = self.start.identity.clone();
        let name = self.start.name.clone();
        // Every way of opening a room counts against this (the hub decides).
        let opener = self.opener();
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
                        .create(&order, &identity, &name, &opener)
                        .map(|room| self.enter_opened(room, rating)),
                    None => Ok(()),
                }
            }
            LobbyCommand::Play(clock) => {
                let rating = self.rating_now().await;
                self.hub
                    .pair(clock, &identity, &name, &opener)
                    .map(|(room, opened)| {
                        if opened {
                            self.enter_opened(room, rating);
                        } else {
                            self.enter_seated(room, rating, false);
                        }
                    })
            }
            LobbyCommand::Join(room_name)
                if self.hub.room(&room_name).is_none()
                    && self
                        .hub
                        .adjourned_room(&room_name)
                        .is_some_and(|game| game.has(&identity)) =>
            {
                self.resume_adjourned(&room_name).await
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
            LobbyCommand::Resume(code) => self.resume(&code).await,
            LobbyCommand::Rename(new_name) => self.rename(&new_name).await,
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

    /// Brings the adjourned game `name` of this session's player back into play and
    /// seats the player in it.
    pub(super) async fn resume_adjourned(&mut self, name: &str) -> Result<(), String> {
        let room = self
            .hub
            .resume_adjourned(name, &self.start.identity)
            .await?;
        let rating = self.rating_now().await;
        self.enter_seated(room, rating, true);
        self.ui
            .notify(format!("room {name}: resumed your adjourned game"), false);
        Ok(())
    }

    /// `rename NAME`: a key holder's new name, checked as a sign-in's (and counted
    /// against the address's new names), at most once a week.
    async fn rename(&mut self, asked: &str) -> Result<(), String> {
        let Some(key) = self.key().map(str::to_owned) else {
            return Err("guests take a name at each sign-in: connect as ssh NAME@host".to_owned());
        };
        let name = crate::names::display_name(asked)?;
        let address = self
            .start
            .addr
            .map(|addr| addr.ip().to_canonical().to_string());
        let new_names = &self.hub.moderation.new_names;
        if let Some(address) = &address {
            new_names
                .check(address, tokio::time::Instant::now())
                .map_err(|wait| crate::name_rules::new_names_refused(new_names.limit(), wait))?;
        }
        // Held while connected, as a sign-in's name: nobody connected has it.
        let claim = self.hub.names.claim(&name, &self.start.identity)?;
        let db = Arc::clone(&self.hub.db);
        let (owned, at) = (name.clone(), crate::store::unix_now());
        let renamed = tokio::task::spawn_blocking(move || db.rename(&key, &owned, at))
            .await
            .map_err(|error| format!("cannot rename now: {error}"))?
            .map_err(|error| error.to_string())?;
        if let Some(address) = &address {
            let _ = self
                .hub
                .moderation
                .new_names
                .take(address, tokio::time::Instant::now());
        }
        let old = std::mem::replace(&mut self.start.name, renamed.name.clone());
        self.start._name = claim;
        self.ui.notify(
            format!(
                "you are {} from now on; {old} stays yours for 30 days",
                renamed.name
            ),
            false,
        );
        Ok(())
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

    /// The endgame school on the server's own tables (in its data directory, shared by
    /// every session; a small missing one is generated there, once).
    async fn open_drill(&mut self, argument: &str) -> Result<(), String> {
        self.leave_room(Departure::Left);
        let intents = self.ui.show_drill(Arc::clone(&self.hub.school), argument)?;
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
