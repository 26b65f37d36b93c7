//! Helpers for the server tests: a server on a loopback port of its own with a
//! temporary data directory, and an in-process russh client whose pty output is fed
//! into a terminal emulator (vt100) so tests read the screen a person would see.
#![allow(dead_code)]

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use russh::client::{self, Handle, Msg};
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg, PublicKey, PublicKeyOrCertificate};
use russh::{Channel, ChannelMsg};
use xiangqi_app::config::{Config, Notation};
use xiangqi_server::{Running, ServerSettings};

/// Longest wait for anything the server should show; a bound so a broken server fails
/// the test instead of hanging it, not a speed requirement.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub const COLUMNS: u32 = 120;
pub const ROWS: u32 = 36;

/// Server settings for a test: port 0 on loopback, ICCS notation (easy to read back).
pub fn settings(data_dir: &Path) -> ServerSettings {
    let mut config = Config::load(None, None, &Default::default()).unwrap();
    config.settings.notation = Notation::Iccs;
    let mut settings = ServerSettings::new("127.0.0.1:0".parse().unwrap(), data_dir.into(), config);
    settings.engine_threads = 1;
    settings.engine_hash_mb = 4;
    settings.engine_limits = xiangqi_server::search_limits(Some(2), None, None);
    settings
}

/// The SHA256 fingerprint of the key `user_key(seed)`, as the server names players.
pub fn fingerprint(seed: u8) -> String {
    user_key(seed)
        .public_key()
        .fingerprint(russh::keys::HashAlg::Sha256)
        .to_string()
}

/// Test settings with the key of seed 1 as the admin.
pub fn with_admin(data_dir: &Path) -> ServerSettings {
    let mut settings = settings(data_dir);
    settings.admins.insert(fingerprint(1));
    settings
}

pub async fn start(settings: ServerSettings) -> Running {
    xiangqi_server::start(settings).await.unwrap()
}

/// The server's host key as the client saw it.
#[derive(Clone, Default)]
pub struct Seen(pub Arc<Mutex<Option<PublicKey>>>);

pub struct Client {
    seen: Seen,
}

impl Client {
    pub fn for_tests(seen: Seen) -> Client {
        Client { seen }
    }
}

impl client::Handler for Client {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        if let PublicKeyOrCertificate::PublicKey { key, .. } = key {
            *self.seen.0.lock().unwrap() = Some(key.clone());
        }
        Ok(true)
    }
}

/// A user key made from a fixed seed, so a test can come back with the same one.
pub fn user_key(seed: u8) -> PrivateKey {
    PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32]))
}

/// Connects and signs in: with `key` as that key's owner, else as a guest.
pub async fn connect(
    addr: std::net::SocketAddr,
    user: &str,
    key: Option<PrivateKey>,
) -> (Handle<Client>, Seen) {
    let (handle, seen, signed_in) = try_connect(addr, user, key).await;
    assert!(signed_in, "{user} could not sign in");
    (handle, seen)
}

/// Connects and tries to sign in as `connect` does; whether the server let it.
pub async fn try_connect(
    addr: std::net::SocketAddr,
    user: &str,
    key: Option<PrivateKey>,
) -> (Handle<Client>, Seen, bool) {
    let config = Arc::new(client::Config {
        inactivity_timeout: Some(Duration::from_secs(60)),
        ..Default::default()
    });
    let seen = Seen::default();
    let mut handle = client::connect(config, addr, Client { seen: seen.clone() })
        .await
        .unwrap();
    let signed_in = match key {
        Some(key) => handle
            .authenticate_publickey(user, PrivateKeyWithHashAlg::new(Arc::new(key), None))
            .await
            .unwrap()
            .success(),
        None => matches!(
            handle
                .authenticate_keyboard_interactive_start(user, None)
                .await
                .unwrap(),
            client::KeyboardInteractiveAuthResponse::Success
        ),
    };
    (handle, seen, signed_in)
}

/// A pty session and the screen it shows.
pub struct Terminal {
    pub handle: Handle<Client>,
    pub channel: Channel<Msg>,
    pub screen: vt100::Parser,
    pub closed: bool,
    pub exit_status: Option<u32>,
}

impl Terminal {
    /// Connects, asks for a pty and a shell (or runs `command` in the pty).
    pub async fn open(
        addr: std::net::SocketAddr,
        user: &str,
        key: Option<PrivateKey>,
        command: Option<&str>,
    ) -> Terminal {
        let (handle, _) = connect(addr, user, key).await;
        let channel = handle.channel_open_session().await.unwrap();
        channel
            .request_pty(true, "xterm-256color", COLUMNS, ROWS, 0, 0, &[])
            .await
            .unwrap();
        match command {
            Some(command) => channel.exec(true, command).await.unwrap(),
            None => channel.request_shell(true).await.unwrap(),
        }
        Terminal {
            handle,
            channel,
            screen: vt100::Parser::new(
                std::num::NonZeroU16::new(ROWS as u16).unwrap(),
                std::num::NonZeroU16::new(COLUMNS as u16).unwrap(),
                0,
            ),
            closed: false,
            exit_status: None,
        }
    }

    pub fn text(&self) -> String {
        self.screen.screen().contents()
    }

    /// Reads output until the screen satisfies `done` (panics with the screen after
    /// `PATIENCE`).
    pub async fn wait_for(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while !done(&self.text()) {
            if self.closed {
                panic!("closed while waiting for {what}; screen:\n{}", self.text());
            }
            match tokio::time::timeout_at(deadline, self.channel.wait()).await {
                Ok(Some(message)) => self.take(message),
                Ok(None) => self.closed = true,
                Err(_) => panic!("no {what} after {PATIENCE:?}; screen:\n{}", self.text()),
            }
        }
    }

    /// Waits for ply `ply` (0-based, from a start with Red to move) to be `mv` in the
    /// moves pane (the input line's hint names moves too, so the text alone is not
    /// enough).
    pub async fn wait_move(&mut self, ply: usize, mv: &str) {
        let number = format!("{}. ", ply / 2 + 1);
        let mv = mv.to_owned();
        self.wait_for(&format!("move {mv}"), move |screen| {
            screen
                .lines()
                .any(|line| line.contains(&number) && line.contains(&mv))
        })
        .await;
    }

    pub async fn wait_text(&mut self, text: &str) {
        let wanted = text.to_owned();
        self.wait_for(text, move |screen| screen.contains(&wanted))
            .await;
    }

    fn take(&mut self, message: ChannelMsg) {
        match message {
            // Standard error shows on the terminal too, as in OpenSSH's client.
            ChannelMsg::Data { data } | ChannelMsg::ExtendedData { data, .. } => {
                self.screen.process(&data)
            }
            ChannelMsg::ExitStatus { exit_status } => self.exit_status = Some(exit_status),
            ChannelMsg::Close | ChannelMsg::Eof => self.closed = true,
            _ => {}
        }
    }

    pub async fn type_text(&self, text: &str) {
        self.channel
            .data_bytes(text.as_bytes().to_vec())
            .await
            .unwrap();
    }

    /// Types `line` and Enter.
    pub async fn command(&self, line: &str) {
        self.type_text(&format!("{line}\r")).await;
    }

    /// Waits for the channel to close; the exit status if one came.
    pub async fn wait_closed(&mut self) -> Option<u32> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while !self.closed {
            match tokio::time::timeout_at(deadline, self.channel.wait()).await {
                Ok(Some(message)) => self.take(message),
                Ok(None) => self.closed = true,
                Err(_) => panic!("the session did not close; screen:\n{}", self.text()),
            }
        }
        self.exit_status
    }
}

/// Runs `command` without a pty; (stdout, stderr, exit status).
pub async fn exec(addr: std::net::SocketAddr, command: &str) -> (String, String, Option<u32>) {
    exec_as(addr, "script", None, command).await
}

/// Runs `command` without a pty as `user` (with `key`, else a guest); (stdout, stderr,
/// exit status).
pub async fn exec_as(
    addr: std::net::SocketAddr,
    user: &str,
    key: Option<PrivateKey>,
    command: &str,
) -> (String, String, Option<u32>) {
    let (handle, _) = connect(addr, user, key).await;
    let mut channel = handle.channel_open_session().await.unwrap();
    channel.exec(true, command).await.unwrap();
    let (mut out, mut err, mut status) = (Vec::new(), Vec::new(), None);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match tokio::time::timeout_at(deadline, channel.wait())
            .await
            .unwrap()
        {
            Some(ChannelMsg::Data { data }) => out.extend_from_slice(&data),
            Some(ChannelMsg::ExtendedData { data, .. }) => err.extend_from_slice(&data),
            Some(ChannelMsg::ExitStatus { exit_status }) => status = Some(exit_status),
            Some(ChannelMsg::Close) | None => break,
            Some(_) => {}
        }
    }
    (
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
        status,
    )
}

/// Waits until the file at `path` satisfies `done` (rooms are saved by a writer task,
/// a moment after the players see a change); its text.
pub async fn wait_file(path: &Path, what: &str, done: impl Fn(&str) -> bool) -> String {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if done(&text) {
            return text;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {what} in {} after {PATIENCE:?}: {text}",
            path.display()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The PGN of room `name` as the store in `data_dir` holds it (`None`: no such room).
pub fn saved_room(data_dir: &Path, name: &str) -> Option<String> {
    use xiangqi_server::store::Store;
    let store = xiangqi_server::store::SqliteStore::open_in(data_dir).ok()?;
    store
        .rooms()
        .ok()?
        .into_iter()
        .find(|room| room.name == name)
        .map(|room| room.pgn)
}

/// Waits until the store's record of room `name` satisfies `done` (a change is
/// committed before the players see it; a test may look as soon as it saw it); its text.
pub async fn wait_room(
    data_dir: &Path,
    name: &str,
    what: &str,
    done: impl Fn(&str) -> bool,
) -> String {
    let place = format!("the store's room {name}");
    wait_store(what, &place, || saved_room(data_dir, name), done).await
}

/// Waits until what `read` finds satisfies `done`.
async fn wait_store(
    what: &str,
    place: &str,
    read: impl Fn() -> Option<String>,
    done: impl Fn(&str) -> bool,
) -> String {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let text = read().unwrap_or_default();
        if done(&text) {
            return text;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no {what} in {place} after {PATIENCE:?}: {text}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The PGN of archived game `id` in the store of `data_dir`.
pub fn archived(data_dir: &Path, id: i64) -> Option<String> {
    use xiangqi_server::store::Store;
    let store = xiangqi_server::store::SqliteStore::open_in(data_dir).ok()?;
    store.game(id).ok()?.map(|archived| archived.game.pgn)
}

/// Waits until archived game `id` satisfies `done`; its PGN.
pub async fn wait_archived(
    data_dir: &Path,
    id: i64,
    what: &str,
    done: impl Fn(&str) -> bool,
) -> String {
    let place = format!("archived game #{id}");
    wait_store(what, &place, || archived(data_dir, id), done).await
}
