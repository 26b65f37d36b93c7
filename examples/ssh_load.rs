//! Load run for `xiangqi-tui serve` (not a test: it measures).
//!
//! Starts the server binary on a loopback port with a temporary data directory, then
//! 2 x ROOMS clients (russh, in this process) play in ROOMS rooms for SECONDS: each pair
//! opens a room, plays a ten-move opening, opens the next room, and so on. Reports the
//! move-to-opponent-screen latency (from sending the move's Enter to the move showing on
//! the opponent's emulated screen), the server's CPU time and memory per session, and
//! checks every room's saved game against the moves sent.
//!
//! cargo run --profile test --example ssh_load -- SERVER_BINARY [ROOMS] [SECONDS]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use russh::client::{self, Handle, Msg};
use russh::keys::PublicKeyOrCertificate;
use russh::{Channel, ChannelMsg};

const MOVES: [&str; 10] = [
    "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5",
];
const COLUMNS: u32 = 100;
const ROWS: u32 = 30;
const PATIENCE: Duration = Duration::from_secs(30);

struct Accept;

impl client::Handler for Accept {
    type Error = russh::Error;

    async fn check_server_key(&mut self, _: &PublicKeyOrCertificate) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

struct Terminal {
    _handle: Handle<Accept>,
    channel: Channel<Msg>,
    screen: vt100::Parser,
}

impl Terminal {
    async fn open(addr: SocketAddr, user: &str) -> Result<Terminal, String> {
        let config = Arc::new(client::Config::default());
        let mut handle = client::connect(config, addr, Accept)
            .await
            .map_err(|e| e.to_string())?;
        let reply = handle
            .authenticate_keyboard_interactive_start(user, None)
            .await
            .map_err(|e| e.to_string())?;
        if !matches!(reply, client::KeyboardInteractiveAuthResponse::Success) {
            return Err(format!("{user}: sign-in refused"));
        }
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
            _handle: handle,
            channel,
            screen: vt100::Parser::new(
                std::num::NonZeroU16::new(ROWS as u16).unwrap(),
                std::num::NonZeroU16::new(COLUMNS as u16).unwrap(),
                0,
            ),
        })
    }

    async fn wait_text(&mut self, text: &str) -> Result<(), String> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while !self.screen.screen().contents().contains(text) {
            match tokio::time::timeout_at(deadline, self.channel.wait()).await {
                Ok(Some(ChannelMsg::Data { data })) => self.screen.process(&data),
                Ok(Some(_)) => {}
                Ok(None) => return Err(format!("closed waiting for {text}")),
                Err(_) => return Err(format!("no {text} after {PATIENCE:?}")),
            }
        }
        Ok(())
    }

    /// Waits for ply `ply` to be `mv` in the moves pane (the input line's hint names
    /// moves too).
    async fn wait_move(&mut self, ply: usize, mv: &str) -> Result<(), String> {
        let number = format!("{}. ", ply / 2 + 1);
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let shown = self
                .screen
                .screen()
                .contents()
                .lines()
                .any(|line| line.contains(&number) && line.contains(mv));
            if shown {
                return Ok(());
            }
            match tokio::time::timeout_at(deadline, self.channel.wait()).await {
                Ok(Some(ChannelMsg::Data { data })) => self.screen.process(&data),
                Ok(Some(_)) => {}
                Ok(None) => return Err(format!("closed waiting for {mv}")),
                Err(_) => return Err(format!("no {mv} after {PATIENCE:?}")),
            }
        }
    }

    async fn command(&self, line: &str) -> Result<(), String> {
        self.channel
            .data_bytes(format!("{line}\r").into_bytes())
            .await
            .map_err(|e| e.to_string())
    }
}

/// One pair playing games until `until`; the latencies and the rooms with their moves.
async fn pair(
    addr: SocketAddr,
    index: usize,
    until: Instant,
) -> Result<(Vec<Duration>, Vec<(String, usize)>), String> {
    // The host opens each room and sits on Black; the guest joins on Red.
    let mut black = Terminal::open(addr, &format!("host{index}")).await?;
    let mut red = Terminal::open(addr, &format!("guest{index}")).await?;
    red.wait_text("xiangqi rooms").await?;
    black.wait_text("xiangqi rooms").await?;
    let mut latencies = Vec::new();
    let mut rooms = Vec::new();
    let mut game = 0;
    while Instant::now() < until {
        let room = format!("p{index}g{game}");
        game += 1;
        black.command(&format!("new human {room}")).await?;
        black.wait_text(&format!("room {room}")).await?;
        red.command(&format!("join {room}")).await?;
        red.wait_text(&format!("room {room}")).await?;
        let mut played = 0;
        for (ply, mv) in MOVES.iter().enumerate() {
            let (mover, other) = if ply % 2 == 0 {
                (&mut red, &mut black)
            } else {
                (&mut black, &mut red)
            };
            let sent = Instant::now();
            mover.command(mv).await?;
            other.wait_move(ply, mv).await?;
            latencies.push(sent.elapsed());
            played += 1;
            // The mover's own screen catches up too.
            mover.wait_move(ply, mv).await?;
        }
        rooms.push((room, played));
        red.command(":leave").await?;
        black.command(":leave").await?;
        red.wait_text("xiangqi rooms").await?;
        black.wait_text("xiangqi rooms").await?;
    }
    Ok((latencies, rooms))
}

/// (user + system CPU seconds, resident KiB, peak resident KiB) of `pid`.
fn usage(pid: u32) -> (f64, u64, u64) {
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

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let at = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[at]
}

fn start_server(binary: &str, data: &std::path::Path, port: u16) -> Child {
    Command::new(binary)
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--max-sessions",
            "500",
        ])
        .arg("--data-dir")
        .arg(data)
        .env("XIANGQI_TUI_CONFIG", data.join("load.toml"))
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start the server binary")
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(binary) = args.get(1).cloned() else {
        eprintln!("usage: ssh_load SERVER_BINARY [ROOMS] [SECONDS]");
        std::process::exit(2);
    };
    let rooms: usize = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(25);
    let seconds: u64 = args.get(3).and_then(|v| v.parse().ok()).unwrap_or(60);
    let data = tempfile::tempdir().unwrap();
    // Every client comes from 127.0.0.1, all signing in at once: allow them all from
    // one address.
    std::fs::write(
        data.path().join("load.toml"),
        "notation = \"iccs\"\n[server]\nmax_per_address = 500\nmax_startups_per_address = 500\n\
         max_startups = \"500:30:1000\"\ninput_bytes_per_second = 4096\n",
    )
    .unwrap();
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let mut server = start_server(&binary, data.path(), port);
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (cpu_before, rss_before, _) = usage(server.id());
    let begin = Instant::now();
    let until = begin + Duration::from_secs(seconds);
    let tasks: Vec<_> = (0..rooms)
        .map(|index| tokio::spawn(pair(addr, index, until)))
        .collect();
    let mut latencies = Vec::new();
    let mut played_rooms = Vec::new();
    let mut failures = 0;
    let mut rss_peak_during = 0;
    for task in tasks {
        match task.await {
            Ok(Ok((mut pair_latencies, mut pair_rooms))) => {
                latencies.append(&mut pair_latencies);
                played_rooms.append(&mut pair_rooms);
            }
            Ok(Err(error)) => {
                failures += 1;
                eprintln!("a pair failed: {error}");
            }
            Err(error) => {
                failures += 1;
                eprintln!("a pair panicked: {error}");
            }
        }
        rss_peak_during = rss_peak_during.max(usage(server.id()).1);
    }
    let wall = begin.elapsed().as_secs_f64();
    let (cpu_after, rss_after, rss_peak) = usage(server.id());
    // Every game on file holds exactly the moves sent, in order.
    let mut lost = 0;
    for (room, played) in &played_rooms {
        let path: PathBuf = data.path().join("rooms").join(format!("{room}.pgn"));
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let saved = xiangqi_tui::server::parse_room(&text).ok().flatten();
        let moves: Vec<String> = saved
            .map(|room| room.game.moves().map(|mv| mv.iccs()).collect())
            .unwrap_or_default();
        if moves.len() != *played || moves.iter().zip(MOVES).any(|(a, b)| a != b) {
            lost += 1;
            eprintln!("{room}: saved {moves:?}, sent {played} moves");
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    latencies.sort();
    let sessions = rooms * 2;
    let cpu = cpu_after - cpu_before;
    println!("clients {sessions} in {rooms} rooms for {wall:.1} s; pairs failed: {failures}");
    println!(
        "moves {} in {} games; games with a lost or wrong move: {lost}",
        latencies.len(),
        played_rooms.len()
    );
    println!(
        "move to opponent screen: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        percentile(&latencies, 0.50).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    println!(
        "server CPU {cpu:.2} s over {wall:.1} s ({:.1}% of one core; {:.1} ms/s per session)",
        cpu / wall * 100.0,
        cpu / wall / sessions as f64 * 1e3
    );
    println!(
        "server memory: {rss_before} KiB idle, {rss_after} KiB at the end, peak {} KiB: {:.0} KiB per session",
        rss_peak.max(rss_peak_during),
        (rss_peak.max(rss_peak_during).saturating_sub(rss_before)) as f64 / sessions as f64
    );
}
