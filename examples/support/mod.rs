//! What the server examples share (`ssh_load`, `ssh_floods`): an SSH client that
//! accepts any host key, a pty session read through a terminal emulator, the server
//! binary started on a loopback port of its own, and its CPU and memory from /proc.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use russh::client::{self, Handle, Msg};
use russh::keys::PublicKeyOrCertificate;
use russh::{Channel, ChannelMsg};

pub const COLUMNS: u32 = 100;
pub const ROWS: u32 = 30;
/// Longest wait for anything the server should show.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub struct Accept;

impl client::Handler for Accept {
    type Error = russh::Error;

    async fn check_server_key(&mut self, _: &PublicKeyOrCertificate) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// Where the floods come from: another loopback address than the legitimate clients
/// (127.0.0.1), as an attacker's would be, so per-address limits tell them apart.
pub const FLOOD_SOURCE: std::net::IpAddr =
    std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 2));

/// A TCP connection to `addr` from `source` (`None`: the system's choice).
pub async fn tcp_from(
    addr: SocketAddr,
    source: Option<std::net::IpAddr>,
) -> std::io::Result<tokio::net::TcpStream> {
    let Some(source) = source else {
        return tokio::net::TcpStream::connect(addr).await;
    };
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(source, 0))?;
    socket.connect(addr).await
}

/// Connects and signs in as the guest `user` (keyboard-interactive, which asks nothing).
pub async fn sign_in(addr: SocketAddr, user: &str) -> Result<Handle<Accept>, String> {
    sign_in_from(addr, user, None).await
}

/// `sign_in` from the address `source`.
pub async fn sign_in_from(
    addr: SocketAddr,
    user: &str,
    source: Option<std::net::IpAddr>,
) -> Result<Handle<Accept>, String> {
    // Without Nagle's algorithm, as the server: a short request does not wait for the
    // acknowledgement of the last one (40 ms).
    let config = Arc::new(client::Config {
        nodelay: true,
        ..Default::default()
    });
    let stream = tcp_from(addr, source).await.map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut handle = client::connect_stream(config, stream, Accept)
        .await
        .map_err(|e| e.to_string())?;
    let reply = handle
        .authenticate_keyboard_interactive_start(user, None)
        .await
        .map_err(|e| e.to_string())?;
    if !matches!(reply, client::KeyboardInteractiveAuthResponse::Success) {
        return Err(format!("{user}: sign-in refused"));
    }
    Ok(handle)
}

/// Ends a connection politely (the server then frees it at once).
pub async fn hang_up(handle: &Handle<Accept>) {
    let _ = tokio::time::timeout(
        Duration::from_secs(2),
        handle.disconnect(russh::Disconnect::ByApplication, "", ""),
    )
    .await;
}

/// A signed-in guest's pty session, with a shell, and the screen it shows.
pub struct Terminal {
    pub handle: Handle<Accept>,
    pub channel: Channel<Msg>,
    pub screen: vt100::Parser,
}

impl Terminal {
    pub async fn open(addr: SocketAddr, user: &str) -> Result<Terminal, String> {
        Terminal::open_from(addr, user, None).await
    }

    /// `open` from the address `source`.
    pub async fn open_from(
        addr: SocketAddr,
        user: &str,
        source: Option<std::net::IpAddr>,
    ) -> Result<Terminal, String> {
        let handle = sign_in_from(addr, user, source).await?;
        Terminal::over(handle).await
    }

    /// A terminal session (a pty and a shell) over a signed-in connection.
    pub async fn over(handle: Handle<Accept>) -> Result<Terminal, String> {
        let channel = handle
            .channel_open_session()
            .await
            .map_err(|e| e.to_string())?;
        channel
            .request_pty(true, "xterm-256color", COLUMNS, ROWS, 0, 0, &[])
            .await
            .map_err(|e| e.to_string())?;
        channel
            .request_shell(true)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Terminal {
            handle,
            channel,
            screen: vt100::Parser::new(
                std::num::NonZeroU16::new(ROWS as u16).unwrap(),
                std::num::NonZeroU16::new(COLUMNS as u16).unwrap(),
                0,
            ),
        })
    }

    /// Reads output until the screen satisfies `done`, for at most `PATIENCE`.
    async fn wait_for(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while !done(&self.screen.screen().contents()) {
            match tokio::time::timeout_at(deadline, self.channel.wait()).await {
                Ok(Some(ChannelMsg::Data { data })) => self.screen.process(&data),
                Ok(Some(ChannelMsg::ExtendedData { data, .. })) => self.screen.process(&data),
                Ok(Some(_)) => {}
                Ok(None) => return Err(format!("closed waiting for {what}")),
                Err(_) => {
                    return Err(format!(
                        "no {what} after {PATIENCE:?}; the screen ends: {}",
                        if std::env::var_os("LOAD_SCREENS").is_some() {
                            self.screen.screen().contents()
                        } else {
                            self.last_lines(2)
                        }
                    ));
                }
            }
        }
        Ok(())
    }

    /// The screen's last `n` lines that are not blank, trimmed, joined by " | ".
    pub fn last_lines(&self, n: usize) -> String {
        let contents = self.screen.screen().contents();
        let mut lines: Vec<&str> = contents
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .rev()
            .take(n)
            .collect();
        lines.reverse();
        lines.join(" | ")
    }

    pub async fn wait_text(&mut self, text: &str) -> Result<(), String> {
        self.wait_for(text, |screen| screen.contains(text)).await
    }

    /// Waits for ply `ply` to be `mv` in the moves pane (the input line's hint names
    /// moves too).
    pub async fn wait_move(&mut self, ply: usize, mv: &str) -> Result<(), String> {
        let number = format!("{}. ", ply / 2 + 1);
        self.wait_for(mv, |screen| {
            screen
                .lines()
                .any(|line| line.contains(&number) && line.contains(mv))
        })
        .await
    }

    pub async fn type_text(&self, text: &str) -> Result<(), String> {
        self.channel
            .data_bytes(text.as_bytes().to_vec())
            .await
            .map_err(|e| e.to_string())
    }

    /// Types `line` and Enter.
    pub async fn command(&self, line: &str) -> Result<(), String> {
        self.type_text(&format!("{line}\r")).await
    }
}

/// The opening both examples play, in ICCS.
pub const MOVES: [&str; 10] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5",
];

/// The host (`black`, in the lobby) opens `room` and `red` joins; they play `MOVES`,
/// Red resigns (a player may have one unfinished game) and both go back to the lobby.
/// `moved` hears when each move was sent and how long it took to reach the opponent's
/// screen (from the move's Enter), or `None` if it never did. Moves are sent at least `pace` apart. The plies
/// played, or what went wrong.
pub async fn play_game(
    black: &mut Terminal,
    red: &mut Terminal,
    room: &str,
    pace: Duration,
    mut moved: impl FnMut(Instant, Option<Duration>),
) -> Result<usize, String> {
    black.command(&format!("new human {room}")).await?;
    black.wait_text(&format!("room {room}")).await?;
    red.command(&format!("join {room}")).await?;
    red.wait_text(&format!("room {room}")).await?;
    let mut last = Instant::now();
    for (ply, mv) in MOVES.iter().enumerate() {
        let (mover, other) = if ply % 2 == 0 {
            (&mut *red, &mut *black)
        } else {
            (&mut *black, &mut *red)
        };
        if let Some(rest) = pace.checked_sub(last.elapsed()) {
            tokio::time::sleep(rest).await;
        }
        last = Instant::now();
        let sent = Instant::now();
        let shown = match mover.command(mv).await {
            Ok(()) => other.wait_move(ply, mv).await,
            Err(error) => Err(error),
        };
        moved(sent, shown.is_ok().then(|| sent.elapsed()));
        shown?;
        // The mover's own screen catches up too.
        mover.wait_move(ply, mv).await?;
    }
    red.command(":resign").await?;
    red.type_text("y").await?;
    red.command(":leave").await?;
    red.wait_text("xiangqi rooms").await?;
    black.command(":leave").await?;
    black.wait_text("xiangqi rooms").await?;
    Ok(MOVES.len())
}

/// (user + system CPU seconds, resident KiB, peak resident KiB) of `pid`.
pub fn usage(pid: u32) -> (f64, u64, u64) {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // After the command name: state is field 0, utime 11, stime 12 (clock ticks).
    let cpu = (ticks(11) + ticks(12)) / 100.0;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kib = |name: &str| {
        status
            .lines()
            .find(|line| line.starts_with(name))
            .and_then(|line| line.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (cpu, kib("VmRSS:"), kib("VmHWM:"))
}

/// The `p` quantile (0 to 1) of `sorted`; zero when empty.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at]
}

/// How the server binary is started.
pub struct ServerStart<'a> {
    pub binary: &'a str,
    /// The data directory; the config file is written there.
    pub data: &'a Path,
    /// The config file's text (`XIANGQI_TUI_CONFIG`).
    pub config: &'a str,
    /// The server's limit on open files (RLIMIT_NOFILE), if it should have one.
    pub open_files: Option<u64>,
    /// Where its standard error goes.
    pub log: Stdio,
}

/// Starts the server on a free loopback port and waits until it accepts connections.
pub fn start_server(start: ServerStart<'_>) -> (Child, SocketAddr) {
    let config = start.data.join("server.toml");
    std::fs::write(&config, start.config).expect("cannot write the config file");
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let mut command = Command::new(start.binary);
    command
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--max-sessions",
            "500",
        ])
        .arg("--data-dir")
        .arg(start.data)
        .env("XIANGQI_TUI_CONFIG", &config)
        .stdin(Stdio::null())
        .stderr(start.log);
    #[cfg(not(unix))]
    assert!(
        start.open_files.is_none(),
        "a limit on open files needs a Unix system"
    );
    #[cfg(unix)]
    if let Some(limit) = start.open_files {
        use std::os::unix::process::CommandExt;
        let limit = libc::rlimit {
            rlim_cur: limit as libc::rlim_t,
            rlim_max: limit as libc::rlim_t,
        };
        // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            command.pre_exec(move || {
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
    }
    let mut child = command.spawn().expect("cannot start the server binary");
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(addr).is_err() {
        if started.elapsed() > Duration::from_secs(20) || child.try_wait().ok().flatten().is_some()
        {
            let _ = child.kill();
            panic!("the server did not start");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, addr)
}

/// Raises this process's own soft limit on open files to its hard limit (the floods
/// hold more than a thousand connections). Other systems have no such limit.
#[cfg(not(unix))]
pub fn raise_open_files() {}

/// Raises this process's own soft limit on open files to its hard limit (the floods
/// hold more than a thousand connections).
#[cfg(unix)]
pub fn raise_open_files() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a local struct.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
