//! The tournament director: the players' and organisers' commands (new, join, leave,
//! start, pause, say), the SSH command's answers, and the step the server takes every
//! half second for each running tournament (its work, following boards, pairing,
//! opening rooms and finishing, is `tournament_rounds.rs`). Blocking (the store is
//! written): run off the async workers.

use std::sync::Arc;
use std::time::{Duration, Instant};

use xiangqi_app::game::{LobbyCommand, NewTournament, TournamentCommand, TournamentFormat};

use super::{Stage, Tournament, Tournaments, find};
use crate::hub::Hub;
pub use crate::moderation::Actor;
use crate::store::{EntrantRecord, TournamentRecord, unix_now};

/// How often the director looks at the running tournaments.
const STEP: Duration = Duration::from_millis(500);
/// Longest chat line, in characters.
const SAY_MAX: usize = 200;

const NEEDS_KEY: &str =
    "tournaments are for players with a key: connect with your SSH key (ssh-keygen makes one)";

/// The no-show time as players read it: `2 min`, `45 s`.
pub fn no_show_text(time: Duration) -> String {
    let seconds = time.as_secs();
    if seconds >= 60 && seconds.is_multiple_of(60) {
        format!("{} min", seconds / 60)
    } else {
        format!("{seconds} s")
    }
}

/// A player's rating as a pairing number's order takes it.
fn rating_of(hub: &Hub, key: &str) -> u32 {
    match hub.db.player_by_key(key) {
        Ok(Some(player)) => player.rating.rating.round().max(0.0) as u32,
        _ => xiangqi_app::game::rating::Rating::default().rating.round() as u32,
    }
}

impl Tournament {
    fn may_organise(&self, actor: &Actor) -> Result<(), String> {
        if actor.admin || actor.key.as_deref() == Some(self.record.creator_key.as_str()) {
            Ok(())
        } else {
            Err(format!(
                "only its organiser ({}) or an admin may do that in {}",
                self.record.creator_name,
                self.name()
            ))
        }
    }
}

impl Tournaments {
    /// `tournament new`: an upcoming tournament, organised by `actor`.
    pub fn create(
        &self,
        hub: &Hub,
        actor: &Actor,
        order: &NewTournament,
    ) -> Result<String, String> {
        let key = actor.key.as_deref().ok_or(NEEDS_KEY)?;
        if !actor.admin && !hub.settings.tournaments_open {
            return Err("only the server's admins create tournaments here \
                 ([server] tournaments = \"open\" lets every player with a key)"
                .to_owned());
        }
        let mut list = self.list();
        if list
            .iter()
            .any(|t| t.record.name.eq_ignore_ascii_case(&order.name))
        {
            return Err(format!(
                "a tournament named {} exists: choose another name",
                order.name
            ));
        }
        let open = list
            .iter()
            .filter(|t| t.record.creator_key == key && t.stage() != Stage::Finished)
            .count();
        let limit = hub.settings.max_tournaments_per_creator;
        if !actor.admin && open >= limit {
            return Err(format!(
                "you organise {open} tournaments not finished yet, the server's limit: \
                 wait for one to finish"
            ));
        }
        let now = unix_now();
        let (kind, amount) = match order.format {
            TournamentFormat::Swiss { rounds } => ("swiss", rounds),
            TournamentFormat::Arena { minutes } => ("arena", minutes),
        };
        let record = TournamentRecord {
            id: 0,
            name: order.name.clone(),
            kind: kind.to_owned(),
            amount,
            time_control: order.control.to_string(),
            rated: order.rated,
            creator_key: key.to_owned(),
            creator_name: actor.name.clone(),
            stage: Stage::Upcoming,
            pause_s: 0,
            created: now,
            started: None,
            ends: None,
            finished: None,
        };
        let mut tournament = Tournament::new(record, order.format, order.control);
        tournament.save(hub.db.as_ref(), true, &[])?;
        tournament.say(
            hub.db.as_ref(),
            "",
            &format!("{} created the tournament", actor.name),
            now,
        );
        tracing::info!(
            event = "tournament_created",
            tournament = %order.name,
            user = %actor.name,
            "tournament {} created by {}",
            order.name,
            actor.name
        );
        list.push(tournament);
        drop(list);
        self.touch();
        let name = &order.name;
        Ok(format!(
            "tournament {name} created: players join with `tournament join {name}`, \
             you start it with `tournament start {name}`"
        ))
    }

    /// `tournament join`: in the tournament (again, after leaving a running one).
    pub fn join(&self, hub: &Hub, actor: &Actor, name: &str) -> Result<String, String> {
        let key = actor.key.as_deref().ok_or(NEEDS_KEY)?;
        let rating = rating_of(hub, key);
        let mut list = self.list();
        let tournament = find(&mut list, name)?;
        let name = tournament.name().to_owned();
        let next_round = match (tournament.format, tournament.stage()) {
            (_, Stage::Finished) => return Err(format!("tournament {name} is finished")),
            (_, Stage::Upcoming) => 1,
            (TournamentFormat::Swiss { rounds }, Stage::Running) => {
                let round = tournament.current_round();
                if round >= rounds {
                    return Err(format!(
                        "tournament {name} plays its last round: too late to join"
                    ));
                }
                round + 1
            }
            (TournamentFormat::Arena { .. }, Stage::Running) => 0,
        };
        let now = unix_now();
        let said = match tournament.entrant(key) {
            Some(index) if tournament.entrants[index].active => {
                return Err(format!("you are in {name} already"));
            }
            Some(index) => {
                let entrant = &mut tournament.entrants[index];
                entrant.active = true;
                entrant.joined_round = entrant.joined_round.max(next_round);
                format!("{} is back", actor.name)
            }
            None => {
                let limit = hub.settings.max_tournament_players;
                if tournament.entrants.len() >= limit {
                    return Err(format!(
                        "tournament {name} is full ({limit} players, the server's limit)"
                    ));
                }
                tournament.entrants.push(EntrantRecord {
                    seq: tournament.entrants.len() as u32,
                    key: key.to_owned(),
                    name: actor.name.clone(),
                    rating,
                    active: true,
                    joined_round: next_round,
                });
                format!("{} joins", actor.name)
            }
        };
        tournament.save(hub.db.as_ref(), true, &[])?;
        tournament.say(hub.db.as_ref(), "", &said, now);
        let answer = match tournament.stage() {
            Stage::Upcoming => format!(
                "you are in {name} ({}): your board opens by itself when you are paired",
                super::counted(tournament.entrants.len(), "player")
            ),
            _ => format!("you are in {name}: your board opens by itself when you are paired"),
        };
        drop(list);
        self.touch();
        self.wake.notify_one();
        Ok(answer)
    }

    /// `tournament leave`: off the list before it starts; withdrawn once it runs (a game
    /// in progress goes on).
    pub fn leave(&self, hub: &Hub, actor: &Actor, name: &str) -> Result<String, String> {
        let key = actor.key.as_deref().ok_or(NEEDS_KEY)?;
        let mut list = self.list();
        let tournament = find(&mut list, name)?;
        let name = tournament.name().to_owned();
        let index = tournament
            .entrant(key)
            .ok_or_else(|| format!("you are not in {name}"))?;
        let (said, answer) = match tournament.stage() {
            Stage::Finished => return Err(format!("tournament {name} is finished")),
            Stage::Upcoming => {
                tournament.entrants.remove(index);
                for (seq, entrant) in tournament.entrants.iter_mut().enumerate() {
                    entrant.seq = seq as u32;
                }
                (format!("{} leaves", actor.name), format!("you left {name}"))
            }
            Stage::Running if !tournament.entrants[index].active => {
                return Err(format!("you withdrew from {name} already"));
            }
            Stage::Running => {
                tournament.entrants[index].active = false;
                (
                    format!("{} withdraws", actor.name),
                    format!(
                        "you withdrew from {name}: you are not paired again (a game you are \
                         playing goes on); `tournament join {name}` comes back"
                    ),
                )
            }
        };
        tournament.save(hub.db.as_ref(), true, &[])?;
        tournament.say(hub.db.as_ref(), "", &said, unix_now());
        drop(list);
        self.touch();
        Ok(answer)
    }

    /// `tournament start`: the organiser (or an admin) starts it; a Swiss gives its
    /// pairing numbers by rating.
    pub fn start(&self, hub: &Hub, actor: &Actor, name: &str) -> Result<String, String> {
        let mut list = self.list();
        let tournament = find(&mut list, name)?;
        tournament.may_organise(actor)?;
        let name = tournament.name().to_owned();
        match tournament.stage() {
            Stage::Upcoming => {}
            Stage::Running => return Err(format!("tournament {name} has started already")),
            Stage::Finished => return Err(format!("tournament {name} is finished")),
        }
        let players = tournament.entrants.len();
        if matches!(tournament.format, TournamentFormat::Swiss { .. }) && players < 2 {
            return Err(format!(
                "a Swiss needs two players at least: {players} joined {name}"
            ));
        }
        // Pairing numbers by rating now (FIDE C.04.2: rating, then name).
        for entrant in &mut tournament.entrants {
            entrant.rating = rating_of(hub, &entrant.key);
        }
        tournament.entrants.sort_by(|a, b| {
            b.rating
                .cmp(&a.rating)
                .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        });
        for (seq, entrant) in tournament.entrants.iter_mut().enumerate() {
            entrant.seq = seq as u32;
        }
        let now = unix_now();
        tournament.record.stage = Stage::Running;
        tournament.record.started = Some(now);
        if let TournamentFormat::Arena { minutes } = tournament.format {
            tournament.record.ends = Some(now + i64::from(minutes) * 60);
        }
        if let Err(error) = tournament.save(hub.db.as_ref(), true, &[]) {
            tournament.record.stage = Stage::Upcoming;
            tournament.record.started = None;
            tournament.record.ends = None;
            return Err(error);
        }
        tournament.say(
            hub.db.as_ref(),
            "",
            &format!(
                "{} starts the tournament: {}",
                actor.name,
                super::counted(players, "player")
            ),
            now,
        );
        tracing::info!(
            event = "tournament_started",
            tournament = %name,
            players,
            "tournament {name} started with {players} players"
        );
        drop(list);
        self.touch();
        self.wake.notify_one();
        Ok(format!(
            "tournament {name} started: {}",
            super::counted(players, "player")
        ))
    }

    /// `tournament pause`: the organiser's pause between a Swiss's rounds.
    pub fn pause(
        &self,
        hub: &Hub,
        actor: &Actor,
        name: &str,
        seconds: u32,
    ) -> Result<String, String> {
        let mut list = self.list();
        let tournament = find(&mut list, name)?;
        tournament.may_organise(actor)?;
        let name = tournament.name().to_owned();
        if matches!(tournament.format, TournamentFormat::Arena { .. }) {
            return Err(format!(
                "{name} is an arena: it has no rounds to pause between"
            ));
        }
        if tournament.stage() == Stage::Finished {
            return Err(format!("tournament {name} is finished"));
        }
        let before = tournament.record.pause_s;
        tournament.record.pause_s = seconds;
        if let Err(error) = tournament.save(hub.db.as_ref(), false, &[]) {
            tournament.record.pause_s = before;
            return Err(error);
        }
        let said = format!("the pause between rounds is {seconds} s");
        tournament.say(hub.db.as_ref(), "", &said, unix_now());
        drop(list);
        self.touch();
        Ok(said)
    }

    /// `say` on a tournament's screen: a line in its chat (a guest's is marked).
    pub fn say(&self, hub: &Hub, actor: &Actor, name: &str, text: &str) -> Result<String, String> {
        let text: String = text
            .chars()
            .filter(|c| !c.is_control())
            .take(SAY_MAX)
            .collect();
        if text.trim().is_empty() {
            return Err("say what? say TEXT".to_owned());
        }
        // The same limit as a room's chat, whichever way the line comes (screen or script).
        let says = &hub.moderation.says;
        if let Err(wait) = says.take(&actor.opener, tokio::time::Instant::now()) {
            return Err(format!(
                "you are chatting too fast ({} lines a minute at most): wait {}",
                says.limit(),
                crate::rate_window::wait_text(wait)
            ));
        }
        let mut list = self.list();
        let tournament = find(&mut list, name)?;
        tournament.say(hub.db.as_ref(), &actor.name, text.trim(), unix_now());
        drop(list);
        self.touch();
        Ok(String::new())
    }

    /// Carries out `command` for `actor` (blocking); what to tell them: the answer, or
    /// for `tournament NAME pgn` the games.
    pub fn carry_out(
        &self,
        hub: &Hub,
        actor: &Actor,
        command: &TournamentCommand,
    ) -> Result<String, String> {
        match command {
            TournamentCommand::New(order) => self.create(hub, actor, order),
            TournamentCommand::Join(name) => self.join(hub, actor, name),
            TournamentCommand::Leave(name) => self.leave(hub, actor, name),
            TournamentCommand::Start(name) => self.start(hub, actor, name),
            TournamentCommand::Pause { name, seconds } => self.pause(hub, actor, name, *seconds),
            TournamentCommand::Say { name, text } => self.say(hub, actor, name, text),
            TournamentCommand::Show(name) => self.standings_text(name, false),
            TournamentCommand::Pgn(name) => self.pgn(hub, name),
        }
    }

    /// One look at every running tournament: results, no-shows, pairings, rooms, ends.
    pub(crate) fn step(&self, hub: &Arc<Hub>) {
        let now = Instant::now();
        let mut list = self.list();
        let mut changed = false;
        for tournament in list.iter_mut().filter(|t| t.stage() == Stage::Running) {
            changed |= tournament.follow_boards(hub, now);
            changed |= match tournament.format {
                TournamentFormat::Swiss { rounds } => tournament.advance_swiss(hub, now, rounds),
                TournamentFormat::Arena { .. } => tournament.advance_arena(hub),
            };
            changed |= tournament.open_rooms(hub);
        }
        drop(list);
        if changed {
            self.touch();
        }
    }
}

/// A tournament command given as the SSH command, without a terminal: its text
/// (`tournaments`, `standings NAME [--json]`, `tournament NAME pgn`, and the answer of
/// the others). `None`: not a tournament command.
pub async fn script_command(
    hub: &Arc<Hub>,
    actor: Actor,
    command: &LobbyCommand,
) -> Option<Result<String, String>> {
    let command = command.clone();
    match command {
        LobbyCommand::Tournaments
        | LobbyCommand::Standings { .. }
        | LobbyCommand::Tournament(_) => {}
        _ => return None,
    }
    let hub = Arc::clone(hub);
    let answer = tokio::task::spawn_blocking(move || {
        let tournaments = &hub.tournaments;
        match &command {
            LobbyCommand::Tournaments => Ok(tournaments.list_text()),
            LobbyCommand::Standings { name, json } => tournaments.standings_text(name, *json),
            LobbyCommand::Tournament(TournamentCommand::Say { name, text }) => tournaments
                .say(&hub, &actor, name, text)
                .map(|_| format!("said in {name}")),
            LobbyCommand::Tournament(command) => tournaments.carry_out(&hub, &actor, command),
            _ => Ok(String::new()),
        }
    })
    .await;
    Some(answer.unwrap_or_else(|error| Err(format!("the command failed: {error}"))))
}

/// Runs the director until the server stops: a step every half second while a
/// tournament runs, and at once when one starts or a player joins.
pub async fn run_director(hub: Arc<Hub>) {
    let mut shutdown = hub.shutdown.subscribe();
    let mut ticks = tokio::time::interval(STEP);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = hub.tournaments.wake.notified() => {}
            _ = shutdown.changed() => return,
        }
        if !hub.tournaments.any_running() {
            continue;
        }
        let worker = Arc::clone(&hub);
        let _ = tokio::task::spawn_blocking(move || worker.tournaments.step(&worker)).await;
    }
}
