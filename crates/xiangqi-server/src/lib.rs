//! `xiangqi-tui serve`: an SSH game server (tokio + russh, the only code that uses
//! them). Each pty session shows the TUI through `tui::RemoteSession`; rooms share one
//! game between two players and any number of spectators; every change of a room is
//! committed to the store before its players see it (off the async workers, retried
//! when it fails, flushed on stop), rooms are restored on restart, and finished games
//! go to the archive with the rating change.

mod archive;
mod data_lock;
mod engine_pool;
mod gate;
mod handler;
mod hostkey;
mod hub;
mod import;
mod listener;
mod metrics;
mod moderation;
mod name_rules;
mod names;
mod pacing;
mod rate_window;
mod room;
mod room_record;
mod saver;
mod session;
mod stats;
pub mod store;
mod tournament;

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

use xiangqi_app::config::{Config, MaxStartups};
use xiangqi_core::board::Position;
use xiangqi_engine::engine::Limits;

pub use engine_pool::search_limits;
pub use hostkey::{fingerprint, load_or_create as load_or_create_host_key};
pub use room::{RoomState, Seat};
pub use room_record::{finished_game, parse_room, room_pgn};
pub use stats::StatsSnapshot;

/// Everything the server needs, decided by the command line and the config.
#[derive(Clone)]
pub struct ServerSettings {
    pub listen: SocketAddr,
    /// Connections at once, signed in or not (200).
    pub max_sessions: usize,
    /// Connections at once from one address (8).
    pub max_per_address: usize,
    /// Unauthenticated connections at once, as OpenSSH's MaxStartups (10:30:100).
    pub max_startups: MaxStartups,
    /// Unauthenticated connections at once from one address (4).
    pub max_startups_per_address: usize,
    /// Time to sign in, from the connection (30 s).
    pub login_grace: Duration,
    /// Time to start a session (shell or command) once signed in (30 s).
    pub channel_grace: Duration,
    pub idle_timeout: Duration,
    pub host_key: PathBuf,
    /// The store (`xiangqi-tui.db`) and the host key are kept here.
    pub data_dir: PathBuf,
    /// Refuse guests: only clients with a public key.
    pub publickey_only: bool,
    pub engine_threads: usize,
    pub engine_hash_mb: usize,
    pub engine_limits: Limits,
    pub input_bytes_per_second: u32,
    /// The start position of new rooms.
    pub start: Position,
    /// Rooms open at once, at most (finished ones count until they expire).
    pub max_rooms: usize,
    /// A room nobody has been in for this long closes, unless it holds a game in
    /// progress (its players may come back to it).
    pub room_expiry: Duration,
    /// Jobs (engine searches, reviews, the prover, the school) that may wait for a
    /// thread of the pool; past it a new one is refused at once, and so is a new
    /// engine room.
    pub jobs_queue: usize,
    /// Settings each session's app starts with (theme, notation, glyphs).
    pub config: Config,
    /// The time control of rooms created without one (`None`: no clocks).
    pub time: Option<xiangqi_core::clock::TimeControl>,
    /// `HOST[:PORT]` people type to reach the server (`[server] public_address`), for
    /// the `ssh` line a room's creator is shown; the listen address when unset.
    pub public_address: Option<String>,
    /// Key fingerprints that may kick, ban, unban and close rooms.
    pub admins: BTreeSet<String>,
    /// When set, only these keys (and the admins') sign in, and no guest.
    pub allowlist: Option<BTreeSet<String>>,
    /// Rooms one identity (a key, or a guest's address) may open per minute (a
    /// rematch counts as one).
    pub rooms_per_minute: u32,
    /// Rooms with a game on that one identity may have open at once.
    pub rooms_per_identity: usize,
    /// A game whose players have all been away this long is adjourned: out of the
    /// room list, kept in the store, resumed by its players.
    pub adjourn_after: Duration,
    /// An adjourned game this old is scored (the side to move loses on time) or, with
    /// a side that never moved, dropped.
    pub forfeit_after: Duration,
    /// New names (new keys, renames) one address may pin per hour.
    pub new_names_per_hour: u32,
    /// Chat lines one identity may say per minute.
    pub say_per_minute: u32,
    /// How often rooms are looked at for expiry and adjournment (a minute; tests
    /// shorten it).
    pub sweep_every: Duration,
    /// Where `/metrics` is served (Prometheus text), if anywhere.
    pub metrics: Option<SocketAddr>,
    /// Every key holder may create tournaments (`[server] tournaments = "open"`);
    /// otherwise only the admins.
    pub tournaments_open: bool,
    /// Tournaments not finished yet one player (not an admin) may organise (3).
    pub max_tournaments_per_creator: usize,
    /// Players one tournament may have (100).
    pub max_tournament_players: usize,
    /// A tournament player who has not made a first move this long after the pairing
    /// (Black: after Red's first move) loses by forfeit (2 minutes).
    pub no_show: Duration,
}

impl ServerSettings {
    /// Defaults for `data_dir`, listening on `listen`.
    pub fn new(listen: SocketAddr, data_dir: PathBuf, config: Config) -> ServerSettings {
        ServerSettings {
            listen,
            max_sessions: 200,
            max_per_address: 8,
            max_startups: MaxStartups::DEFAULT,
            max_startups_per_address: 4,
            login_grace: Duration::from_secs(30),
            channel_grace: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(30 * 60),
            host_key: data_dir.join("ssh_host_ed25519_key"),
            data_dir,
            publickey_only: false,
            engine_threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            engine_hash_mb: 64,
            engine_limits: search_limits(None, None, Some(1000)),
            input_bytes_per_second: 4096,
            start: Position::startpos(),
            max_rooms: 200,
            room_expiry: Duration::from_secs(10 * 60),
            jobs_queue: 32,
            config,
            time: None,
            public_address: None,
            admins: BTreeSet::new(),
            allowlist: None,
            rooms_per_minute: 5,
            rooms_per_identity: 3,
            adjourn_after: Duration::from_secs(60 * 60),
            forfeit_after: Duration::from_secs(14 * 24 * 60 * 60),
            new_names_per_hour: 10,
            say_per_minute: 20,
            sweep_every: Duration::from_secs(60),
            metrics: None,
            tournaments_open: false,
            max_tournaments_per_creator: 3,
            max_tournament_players: 100,
            no_show: Duration::from_secs(120),
        }
    }

    /// Whether clients without a key may sign in.
    pub fn guests_allowed(&self) -> bool {
        !self.publickey_only && self.allowlist.is_none()
    }
}

/// The command that joins room `room` from a shell: `ssh -t HOST [-p PORT] join ROOM`,
/// for `public_address` (`HOST[:PORT]`) or else the address listened on. Port 22 is
/// left out, as people type it.
pub fn join_line(public_address: Option<&str>, listen: SocketAddr, room: &str) -> String {
    let (host, port) = match public_address {
        Some(address) => match address.rsplit_once(':') {
            Some((host, port)) if port.parse::<u16>().is_ok() && !host.ends_with(':') => (
                host.trim_matches(['[', ']']).to_owned(),
                port.parse().unwrap_or(22),
            ),
            _ => (address.trim_matches(['[', ']']).to_owned(), 22),
        },
        None => (listen.ip().to_string(), listen.port()),
    };
    let port = if port == 22 {
        String::new()
    } else {
        format!(" -p {port}")
    };
    format!("ssh -t {host}{port} join {room}")
}

/// Connection events, logged through `tracing` at `info` (no secrets: names, addresses,
/// fingerprints); `serve` shows them on standard error as `xiangqi-tui serve: LINE`.
/// Text from a client goes through `printable` first.
pub fn log(line: &str) {
    tracing::info!("{line}");
}

/// Client-controlled `text` fit for the log: at most `max` characters, control
/// characters (escape sequences, line breaks that would forge log lines) shown as `?`.
pub fn printable(text: &str, max: usize) -> String {
    text.chars()
        .take(max)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// A running server: its address and how to stop it.
pub struct Running {
    pub addr: SocketAddr,
    hub: Arc<hub::Hub>,
    gate: Arc<gate::Gate>,
    accept: tokio::task::JoinHandle<()>,
    /// Where `/metrics` is served, when it is.
    pub metrics_addr: Option<SocketAddr>,
    /// The data directory is this server's until it stops.
    _lock: data_lock::DataDirLock,
}

impl Running {
    /// Connections open, signed in or not.
    pub fn connection_count(&self) -> usize {
        self.gate.connection_count()
    }

    /// Connections that have not signed in yet.
    pub fn unauthenticated_count(&self) -> usize {
        self.gate.unauthenticated_count()
    }

    /// The work done so far (frames, resizes, ...), for tests and the flood example.
    pub fn stats(&self) -> StatsSnapshot {
        self.hub.stats.snapshot()
    }

    /// The job pool's counts (running, waiting, cancelled, refused...).
    pub fn jobs(&self) -> xiangqi_app::jobs::JobCounts {
        self.hub.jobs.counts()
    }

    /// Endgame tables the school generated since the start (each missing one once).
    pub fn tables_generated(&self) -> u64 {
        self.hub.school.solved()
    }

    /// Saves every dirty room, tells every session (whether its game is saved), lets
    /// them say goodbye within `grace`, stops accepting, and saves what changed
    /// meanwhile. Logs and returns what could not be saved: (room, why).
    pub async fn stop(self, grace: Duration) -> Vec<(String, String)> {
        self.accept.abort();
        // Saved before the sessions are told, so what they are told is true.
        let (mut written, _) = self.hub.flush().await;
        self.hub.shutdown.send_replace(true);
        let deadline = tokio::time::Instant::now() + grace;
        while self.gate.connection_count() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // A move that raced the signal, an engine's reply; the writer's retries end
        // here (a write it has started finishes first: `flush` waits for it).
        self.hub.saver.stop();
        // Jobs waiting are dropped, jobs running told to stop.
        self.hub.jobs.stop();
        let (more, unsaved) = self.hub.flush().await;
        written += more;
        log(&format!("saved {written} rooms on stopping"));
        for (name, why) in &unsaved {
            log(&format!("could not save room {name}: {why}"));
        }
        unsaved
    }
}

/// Opens the store in the data directory, binds, loads or makes the host key, restores
/// the saved rooms and starts accepting.
pub async fn start(settings: ServerSettings) -> Result<Running, String> {
    // Before the store is touched: another server may be using it.
    let lock = data_lock::DataDirLock::acquire(&settings.data_dir)?;
    // A damaged, foreign or newer database stops the start, with its path: never
    // overwritten.
    let db = crate::store::SqliteStore::open_in(&settings.data_dir)
        .map_err(|error| error.to_string())?;
    log(&format!("store: {}", db.path().display()));
    start_locked(settings, Arc::new(db), lock).await
}

/// `start` on a store of the caller's (tests put faults in one).
pub async fn start_with_store(
    settings: ServerSettings,
    db: Arc<dyn crate::store::Store>,
) -> Result<Running, String> {
    let lock = data_lock::DataDirLock::acquire(&settings.data_dir)?;
    start_locked(settings, db, lock).await
}

async fn start_locked(
    settings: ServerSettings,
    db: Arc<dyn crate::store::Store>,
    lock: data_lock::DataDirLock,
) -> Result<Running, String> {
    log(&listener::raise_open_file_limit());
    let (key, warnings) = hostkey::load_or_create(&settings.host_key)?;
    for warning in warnings {
        log(&warning);
    }
    let listener = TcpListener::bind(settings.listen)
        .await
        .map_err(|error| format!("cannot listen on {}: {error}", settings.listen))?;
    let addr = listener.local_addr().map_err(|error| error.to_string())?;
    let host_key = hostkey::fingerprint(&key);
    tracing::info!(
        event = "listening",
        addr = %addr,
        key = %host_key,
        "listening on {addr}, host key {host_key} ({})",
        settings.host_key.display()
    );
    let config = Arc::new(russh::server::Config {
        server_id: russh::SshId::Standard("SSH-2.0-xiangqi-tui".into()),
        methods: if !settings.guests_allowed() {
            russh::MethodSet::from(&[russh::MethodKind::PublicKey][..])
        } else {
            russh::MethodSet::from(
                &[
                    russh::MethodKind::PublicKey,
                    russh::MethodKind::KeyboardInteractive,
                ][..],
            )
        },
        auth_rejection_time: Duration::from_millis(200),
        auth_rejection_time_initial: Some(Duration::ZERO),
        keys: vec![key],
        // The login and channel deadlines are the connection task's; this one bounds
        // a session whose client stopped answering.
        inactivity_timeout: Some(settings.idle_timeout + Duration::from_secs(60)),
        keepalive_interval: Some(Duration::from_secs(30)),
        nodelay: true,
        ..Default::default()
    });
    let gate = gate::Gate::new(gate::GateLimits {
        connections: settings.max_sessions,
        per_address: settings.max_per_address,
        startups: settings.max_startups,
        startups_per_address: settings.max_startups_per_address,
    });
    // The address bound (a port 0 asked for is a real one now), for the `ssh` lines.
    let settings = ServerSettings {
        listen: addr,
        ..settings
    };
    let metrics = match settings.metrics {
        Some(addr) => Some(
            TcpListener::bind(addr)
                .await
                .map_err(|error| format!("cannot serve metrics on {addr}: {error}"))?,
        ),
        None => None,
    };
    let hub = hub::Hub::new(settings, db)?;
    let metrics_addr = match metrics {
        Some(listener) => {
            let addr = listener.local_addr().map_err(|error| error.to_string())?;
            log(&format!("metrics on http://{addr}/metrics"));
            tokio::spawn(metrics::serve(
                listener,
                Arc::clone(&hub),
                Arc::clone(&gate),
            ));
            Some(addr)
        }
        None => None,
    };
    hub.saver.start();
    hub.resume_engines();
    tokio::spawn(hub::expire_rooms_every_minute(Arc::clone(&hub)));
    tokio::spawn(tournament::run_director(Arc::clone(&hub)));
    let accept = tokio::spawn(listener::accept_loop(
        listener,
        config,
        Arc::clone(&hub),
        Arc::clone(&gate),
    ));
    Ok(Running {
        addr,
        hub,
        gate,
        accept,
        metrics_addr,
        _lock: lock,
    })
}

/// Runs the server until SIGINT or SIGTERM (on Windows: Ctrl-C, Ctrl-Break, the console
/// closing or the system shutting down): then rooms are saved, every client is told and
/// it returns within about 2 seconds (an error names the rooms it could not save).
pub fn serve_until_signal(settings: ServerSettings) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        // The async side only moves bytes; the job pool has its own threads.
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the runtime: {error}"))?;
    let stopped = runtime.block_on(async {
        let mut stop = StopSignals::listen().map_err(|error| format!("signals: {error}"))?;
        let running = start(settings).await?;
        let name = stop.next().await;
        log(&format!(
            "{name}: saving, telling {} connections, stopping",
            running.connection_count()
        ));
        let unsaved = running.stop(Duration::from_millis(1500)).await;
        if !unsaved.is_empty() {
            let names: Vec<&str> = unsaved.iter().map(|(name, _)| name.as_str()).collect();
            return Err(format!(
                "stopped with {} rooms NOT saved: {}",
                unsaved.len(),
                names.join(", ")
            ));
        }
        log("stopped; every room is saved");
        Ok::<(), String>(())
    });
    // Blocked engine searches end with the process.
    runtime.shutdown_timeout(Duration::from_millis(200));
    stopped
}

/// The requests to stop that a server gets from its system.
#[cfg(unix)]
struct StopSignals {
    terminate: tokio::signal::unix::Signal,
    interrupt: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl StopSignals {
    fn listen() -> std::io::Result<StopSignals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(StopSignals {
            terminate: signal(SignalKind::terminate())?,
            interrupt: signal(SignalKind::interrupt())?,
        })
    }

    /// The name of the first to come.
    async fn next(&mut self) -> &'static str {
        tokio::select! {
            _ = self.terminate.recv() => "SIGTERM",
            _ = self.interrupt.recv() => "SIGINT",
        }
    }
}

/// Windows has no SIGTERM: a service manager or a closing console sends console events,
/// which the process may answer for a few seconds before it is ended (5 s for the
/// console closing, more for a shutdown): time enough to save the rooms.
#[cfg(windows)]
struct StopSignals {
    interrupt: tokio::signal::windows::CtrlC,
    brk: tokio::signal::windows::CtrlBreak,
    close: tokio::signal::windows::CtrlClose,
    shutdown: tokio::signal::windows::CtrlShutdown,
}

#[cfg(windows)]
impl StopSignals {
    fn listen() -> std::io::Result<StopSignals> {
        use tokio::signal::windows;
        Ok(StopSignals {
            interrupt: windows::ctrl_c()?,
            brk: windows::ctrl_break()?,
            close: windows::ctrl_close()?,
            shutdown: windows::ctrl_shutdown()?,
        })
    }

    async fn next(&mut self) -> &'static str {
        tokio::select! {
            _ = self.interrupt.recv() => "Ctrl-C",
            _ = self.brk.recv() => "Ctrl-Break",
            _ = self.close.recv() => "the console closing",
            _ = self.shutdown.recv() => "the system shutting down",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{join_line, printable};

    #[test]
    fn the_join_line_names_the_public_address_and_leaves_port_22_out() {
        let listen = "127.0.0.1:2222".parse().unwrap();
        assert_eq!(
            join_line(Some("xq.example.org:2200"), listen, "k7"),
            "ssh -t xq.example.org -p 2200 join k7"
        );
        assert_eq!(
            join_line(Some("xq.example.org"), listen, "k7"),
            "ssh -t xq.example.org join k7"
        );
        assert_eq!(
            join_line(Some("xq.example.org:22"), listen, "k7"),
            "ssh -t xq.example.org join k7"
        );
        assert_eq!(
            join_line(None, listen, "r1"),
            "ssh -t 127.0.0.1 -p 2222 join r1"
        );
        assert_eq!(
            join_line(Some("[2001:db8::1]:2222"), listen, "r1"),
            "ssh -t 2001:db8::1 -p 2222 join r1"
        );
    }

    #[test]
    fn client_text_is_logged_without_control_characters() {
        assert_eq!(printable("sftp", 32), "sftp");
        assert_eq!(
            printable("x\u{1b}[2J\r\nxiangqi-tui serve: forged", 64),
            "x?[2J??xiangqi-tui serve: forged"
        );
        assert_eq!(printable("\u{7f}\u{9b}abc", 3), "??a");
        assert_eq!(printable("象棋", 1), "象");
    }
}
