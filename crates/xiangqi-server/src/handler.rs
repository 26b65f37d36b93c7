//! The SSH side of a connection (russh's `Handler`): who the client is, which channel
//! and requests it may have. One interactive session per connection; no passwords,
//! no forwarding of any kind, no subsystems.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use russh::keys::HashAlg;
use russh::server::{Auth, ChannelOpenHandle, Handler, Msg, Response, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, MethodKind, MethodSet};

use xiangqi_app::game::{
    LobbyCommand, ResumeCode, RoomSummary, lobby_help_lines, room_headings, room_line,
};

use crate::store::unix_now;
use xiangqi_app::game::rating::Rating;

use super::archive::{self, Asker};
use super::gate::Admission;
use super::hub::Hub;
use super::names::{display_name, guest_identity, new_resume_code};
use super::session::{self, SessionStart, addr_text, clamp_size};
use super::{log, printable};

/// A session channel before its shell or exec request.
struct Opening {
    channel: Channel<Msg>,
    pty: Option<(String, (u16, u16))>,
}

pub struct Client {
    hub: Arc<Hub>,
    addr: Option<SocketAddr>,
    /// The connection's place; told when it signs in and when its session starts.
    admission: Arc<Admission>,
    /// Key fingerprint, or `guest:` and the guest's resume code.
    identity: String,
    /// The display name, or why the user name cannot be one (said when the session
    /// starts: authentication has no place for a message).
    name: Result<String, String>,
    /// A guest's code for taking its seats again from another connection.
    guest_code: Option<ResumeCode>,
    /// A key holder's rating as it signed in.
    rating: Option<Rating>,
    opening: HashMap<ChannelId, Opening>,
    started: bool,
    /// Why this client may not play here (a ban, the allowlist), told when its session
    /// starts: authentication has no place for a message.
    barred: Option<String>,
    /// What the session says first (a key signed in under its own name, not the one
    /// it asked for).
    note: Option<String>,
}

impl Client {
    pub fn new(hub: Arc<Hub>, addr: Option<SocketAddr>, admission: Arc<Admission>) -> Client {
        Client {
            hub,
            addr,
            admission,
            identity: String::new(),
            name: Ok(String::new()),
            guest_code: None,
            rating: None,
            opening: HashMap::new(),
            started: false,
            barred: None,
            note: None,
        }
    }

    /// The key signed in with; `None` for a guest.
    fn key(&self) -> Option<&str> {
        (self.guest_code.is_none() && !self.identity.is_empty()).then_some(self.identity.as_str())
    }

    /// Checks the bans and the allowlist for the client signing in as `name`, to tell it
    /// when its session starts.
    async fn check_barred(&mut self, name: Option<&str>) {
        self.barred =
            super::moderation::sign_in_refusal(&self.hub, self.key(), name, self.addr).await;
    }

    /// Tells a barred client why and closes `channel`; whether it was barred.
    fn refuse_barred(&mut self, channel: ChannelId, session: &mut Session) -> bool {
        let Some(why) = self.barred.clone() else {
            return false;
        };
        let addr = addr_text(self.addr);
        tracing::info!(
            event = "refused",
            addr = %addr,
            user = %self.name.as_deref().unwrap_or("?"),
            key = self.key().unwrap_or("guest"),
            "{addr} refused: {why}"
        );
        // Told first: `finish` ends lines by whether the channel has a pty.
        self.finish(channel, session, &format!("xiangqi-tui: {why}"), 1);
        self.opening.remove(&channel);
        true
    }

    /// An admin's command given as the SSH command: carried out, its answer printed
    /// (exit status 0), or why not (1; a bad argument: 2).
    async fn moderate(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
        command: Result<xiangqi_app::game::Moderation, String>,
    ) {
        let (answer, status) = match command {
            Err(usage) => (usage, 2),
            Ok(command) => {
                let actor = self.actor();
                match super::moderation::carry_out(&self.hub, &actor, command).await {
                    Ok(done) => (done, 0),
                    Err(why) => (format!("xiangqi-tui: {why}"), 1),
                }
            }
        };
        // Told first: `finish` ends lines by whether the channel has a pty.
        self.finish(channel, session, &answer, status);
        self.opening.remove(&channel);
    }

    fn methods(&self) -> MethodSet {
        let mut methods = vec![MethodKind::PublicKey];
        if self.hub.settings.guests_allowed() {
            methods.push(MethodKind::KeyboardInteractive);
        }
        MethodSet::from(methods.as_slice())
    }

    fn reject(&self) -> Auth {
        Auth::Reject {
            proceed_with_methods: Some(self.methods()),
            partial_success: false,
        }
    }

    /// Says `line` on the channel, ends it with `status`, closes it. Lines end as the
    /// client's terminal needs: `\r\n` on a pty (raw mode), `\n` in plain output
    /// (`ssh host pgn 7 > game.pgn`).
    fn finish(&self, channel: ChannelId, session: &mut Session, line: &str, status: u32) {
        let pty = self
            .opening
            .get(&channel)
            .is_none_or(|opening| opening.pty.is_some());
        let text = if pty {
            format!("{}\r\n", line.replace('\n', "\r\n"))
        } else {
            format!("{line}\n")
        };
        let _ = if status == 0 {
            session.data(channel, text.into_bytes())
        } else {
            session.extended_data(channel, 1, text.into_bytes())
        };
        let _ = session.exit_status_request(channel, status);
        let _ = session.eof(channel);
        let _ = session.close(channel);
    }

    /// Starts the interactive session on `channel` (with a pty), or says why not.
    fn start(&mut self, channel: ChannelId, session: &mut Session, command: Option<LobbyCommand>) {
        if self.refuse_barred(channel, session) {
            return;
        }
        let Some(opening) = self.opening.remove(&channel) else {
            return;
        };
        let Some((term, size)) = opening.pty else {
            self.finish(
                channel,
                session,
                "xiangqi-tui needs a terminal: connect with ssh -t (or without a command)",
                1,
            );
            return;
        };
        let claimed = self
            .name
            .clone()
            .and_then(|name| Ok((self.hub.names.claim(&name, &self.identity)?, name)));
        let (name_claim, name) = match claimed {
            Ok(claimed) => claimed,
            Err(why) => {
                log(&format!("{} refused: {why}", addr_text(self.addr)));
                self.finish(channel, session, &format!("xiangqi-tui: {why}"), 1);
                return;
            }
        };
        self.started = true;
        self.admission.started();
        let start = SessionStart {
            identity: self.identity.clone(),
            name,
            guest_code: self.guest_code.clone(),
            rating: self.rating,
            addr: self.addr,
            term,
            size,
            command,
            note: self.note.take(),
            _name: name_claim,
            admission: Arc::clone(&self.admission),
        };
        tokio::spawn(session::run(Arc::clone(&self.hub), opening.channel, start));
    }
}

impl Client {
    /// The sign-in event: who, from where, with which key (or as a guest).
    fn log_sign_in(&self) {
        let addr = addr_text(self.addr);
        let name = self.name.as_deref().unwrap_or("(a refused name)");
        match self.key() {
            Some(key) => tracing::info!(
                event = "sign_in",
                addr = %addr,
                user = %name,
                key = %key,
                "{addr} signed in as {name} with key {key}"
            ),
            None => tracing::info!(
                event = "sign_in",
                addr = %addr,
                user = %name,
                key = "guest",
                "{addr} signed in as {name}"
            ),
        }
    }

    /// Signs the key in under `name` in the store: a known key keeps its own name
    /// (told when it asked for another); a new key pins `name` if it is free and its
    /// address has not pinned `new_names_per_hour` names this hour.
    async fn pin_name(&mut self, name: String) -> Result<String, String> {
        let db = Arc::clone(&self.hub.db);
        let key = self.identity.clone();
        let known = tokio::task::spawn_blocking(move || db.player_by_key(&key))
            .await
            .map_err(|error| format!("cannot sign in now: {error}"))?
            .map_err(|error| error.to_string())?;
        // A new name from this address counts once pinned (a refused one does not).
        let address = self.addr.map(|addr| addr.ip().to_canonical().to_string());
        let new_names = &self.hub.moderation.new_names;
        if known.is_none()
            && let Some(address) = &address
        {
            new_names
                .check(address, tokio::time::Instant::now())
                .map_err(|wait| super::name_rules::new_names_refused(new_names.limit(), wait))?;
        }
        let db = Arc::clone(&self.hub.db);
        let key = self.identity.clone();
        let asked = name.clone();
        let signed = tokio::task::spawn_blocking(move || db.sign_in(&key, &asked, unix_now()))
            .await
            .map_err(|error| format!("cannot sign in now: {error}"))?;
        if known.is_none()
            && signed.is_ok()
            && let Some(address) = &address
        {
            let _ = new_names.take(address, tokio::time::Instant::now());
        }
        match signed {
            Ok(player) => {
                self.rating = Some(player.rating);
                if player.name != name {
                    self.note = Some(format!(
                        "you are {} here, your key's name (rename {name} asks for the other)",
                        player.name
                    ));
                }
                Ok(player.name)
            }
            Err(error) => Err(error.to_string()),
        }
    }

    /// Who asks for a list of games.
    fn asker(&self) -> Asker {
        Asker {
            key: super::room_record::key_of(&self.identity),
            name: self.name.clone().unwrap_or_default(),
        }
    }

    /// Who gives this client's commands.
    fn actor(&self) -> super::moderation::Actor {
        super::moderation::Actor::new(
            &self.hub,
            self.name.clone().unwrap_or_default(),
            self.key().map(str::to_owned),
            self.addr,
        )
    }

    /// The archive's (and the tournaments') commands given without a terminal: printed,
    /// exit status 0, or 2 with the reason on standard error.
    async fn archive_command(&self, command: LobbyCommand) -> Result<String, String> {
        let actor = self.actor();
        if let Some(answer) = super::tournament::script_command(&self.hub, actor, &command).await {
            return answer;
        }
        let db = &self.hub.db;
        match command {
            LobbyCommand::Games(name) => Ok(archive::games(db, name, self.asker())
                .await?
                .lines
                .join("\n")),
            LobbyCommand::Pgn(id) => {
                Ok(archive::game(db, id).await?.game.pgn.trim_end().to_owned())
            }
            LobbyCommand::Top => Ok(archive::top(db).await?.lines.join("\n")),
            LobbyCommand::Rooms => Ok(rooms_text(&self.hub.summaries())),
            _ => Ok(help_text()),
        }
    }
}

/// The room list as plain text, for `ssh host rooms`.
pub fn rooms_text(rooms: &[RoomSummary]) -> String {
    if rooms.is_empty() {
        return "no rooms".to_owned();
    }
    std::iter::once(room_headings())
        .chain(rooms.iter().map(room_line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lobby's commands and what they do, for `ssh host help`.
pub fn help_text() -> String {
    lobby_help_lines().join(
        "
",
    )
}

impl Handler for Client {
    type Error = russh::Error;

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        // Refused so that a client with a key offers it (the key is the identity);
        // guests then come in through keyboard-interactive with no questions.
        Ok(self.reject())
    }

    async fn auth_succeeded(&mut self, _session: &mut Session) -> Result<(), Self::Error> {
        self.admission.signed_in();
        Ok(())
    }

    async fn auth_password(&mut self, _user: &str, _password: &str) -> Result<Auth, Self::Error> {
        Ok(self.reject())
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        self.identity = key.public_key.fingerprint(HashAlg::Sha256).to_string();
        let asked = display_name(user);
        // Before the name is pinned: a barred client changes nothing in the store.
        self.check_barred(asked.as_deref().ok()).await;
        self.name = match asked {
            Ok(name) if self.barred.is_none() => self.pin_name(name).await,
            other => other,
        };
        self.log_sign_in();
        Ok(Auth::Accept)
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        _response: Option<Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        if !self.hub.settings.guests_allowed() {
            return Ok(self.reject());
        }
        let code = match new_resume_code() {
            Ok(code) => code,
            Err(error) => {
                log(&format!("{} refused: {error}", addr_text(self.addr)));
                return Ok(self.reject());
            }
        };
        self.identity = guest_identity(&code);
        self.guest_code = Some(code);
        self.check_barred(display_name(user).as_deref().ok()).await;
        // A guest is marked wherever its name shows: the name proves nothing.
        self.name = display_name(user).map(|name| format!("{name} (guest)"));
        self.log_sign_in();
        Ok(Auth::Accept)
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.started || !self.opening.is_empty() {
            // One game screen per connection.
            drop(reply);
            return Ok(());
        }
        self.opening
            .insert(channel.id(), Opening { channel, pty: None });
        reply.accept().await;
        Ok(())
    }

    async fn channel_open_direct_tcpip(
        &mut self,
        _channel: Channel<Msg>,
        _host_to_connect: &str,
        _port_to_connect: u32,
        _originator_address: &str,
        _originator_port: u32,
        _reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        log(&format!(
            "{} refused: port forwarding",
            addr_text(self.addr)
        ));
        Ok(())
    }

    async fn tcpip_forward(
        &mut self,
        _address: &str,
        _port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        log(&format!(
            "{} refused: remote forwarding",
            addr_text(self.addr)
        ));
        Ok(false)
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)?;
        Ok(())
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        log(&format!(
            "{} refused: subsystem {}",
            addr_text(self.addr),
            printable(name, 32)
        ));
        session.channel_failure(channel)?;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        match self.opening.get_mut(&channel) {
            Some(opening) => {
                let term: String = term.chars().take(64).collect();
                opening.pty = Some((term, clamp_size(col_width, row_height)));
                session.channel_success(channel)?;
            }
            None => session.channel_failure(channel)?,
        }
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // A running session reads the change from its channel.
        if let Some(Opening {
            pty: Some((_, size)),
            ..
        }) = self.opening.get_mut(&channel)
        {
            *size = clamp_size(col_width, row_height);
        }
        Ok(())
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)?;
        self.start(channel, session, None);
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)?;
        if self.refuse_barred(channel, session) {
            return Ok(());
        }
        // A name refused at sign-in (held by another key) is refused for commands too.
        if let Err(why) = &self.name {
            log(&format!("{} refused: {why}", addr_text(self.addr)));
            let line = format!("xiangqi-tui: {why}");
            self.finish(channel, session, &line, 1);
            self.opening.remove(&channel);
            return Ok(());
        }
        let text = String::from_utf8_lossy(data);
        if let Some(command) = xiangqi_app::game::Moderation::parse_line(&text) {
            self.moderate(channel, session, command).await;
            return Ok(());
        }
        match LobbyCommand::parse(&text) {
            Err(error) => {
                log(&format!("{} refused: bad command", addr_text(self.addr)));
                self.finish(channel, session, &error, 2);
                self.opening.remove(&channel);
            }
            Ok(
                command @ (LobbyCommand::Rooms
                | LobbyCommand::Help
                | LobbyCommand::Games(_)
                | LobbyCommand::Pgn(_)
                | LobbyCommand::Top
                | LobbyCommand::Tournaments
                | LobbyCommand::Standings { .. }
                | LobbyCommand::Tournament(_)),
            ) if self.opening.get(&channel).is_some_and(|o| o.pty.is_none()) => {
                match self.archive_command(command).await {
                    Ok(text) => self.finish(channel, session, &text, 0),
                    Err(error) => {
                        self.finish(channel, session, &format!("xiangqi-tui: {error}"), 2)
                    }
                }
                self.opening.remove(&channel);
            }
            Ok(command) => self.start(channel, session, Some(command)),
        }
        Ok(())
    }
}
