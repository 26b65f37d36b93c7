//! The floods of issue 31's security pass, replayed against `xiangqi-tui serve` (not a
//! test: it measures, before and after the hardening alike).
//!
//! Starts the server binary on a loopback port with a temporary data directory and at
//! most 1,024 open files (a common default for a service), and legitimate clients that
//! run throughout: a pair playing a ten-move game per room (a move every 250 ms, Red
//! resigns, the next room) and an `ssh host rooms` exec started every 500 ms (whether or not the last one
//! has answered). After a baseline
//! without a flood, each flood runs for SECONDS_PER_FLOOD (default 20):
//!
//! 1. typing: 6 guests type `a` at 4,000 bytes/s and never press Enter;
//! 2. silent: 300 guests sign in and open no channel, then 1,100 TCP connections that
//!    send nothing;
//! 3. resizes: 6 guests send 3,000 window changes each, as fast as they go;
//! 4. rooms: 2 guests create named rooms, 50 a second each (`new human mIxN`, then
//!    `:leave`: 1,150 bytes/s, within the input rate) while 40 lobby viewers toggle
//!    `watch`/`:leave` on one room, 45 a second in all;
//! 5. engine: 20 engine rooms ask for a move at once (and again after each reply, with
//!    `:undo`) while a legitimate engine room waits for its replies.
//!
//! For each (printed at the end, once every try has finished): the `rooms` exec's
//! latency (connect to exit status) and the move's (Enter to the opponent's screen) as
//! p50, max and failures (an error, or no answer within the patience: 10 s for the
//! exec, 30 s for a move); the server's CPU (share of one core during the flood; how
//! long it stays busy afterwards) and memory; what the flood got done; what the server
//! logged. A hardened server refuses parts of the floods: refusals are expected and
//! counted. The machine's other load shows in every figure: run it on a quiet one.
//!
//! cargo run --release --example ssh_floods -- SERVER_BINARY [SECONDS_PER_FLOOD]

mod floods;
mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use russh::ChannelMsg;
use support::{
    PATIENCE, ServerStart, Terminal, hang_up, percentile, play_game, raise_open_files, sign_in,
    start_server, usage,
};
use tokio::time::{sleep, sleep_until, timeout};

/// Only keys every server version knows (an unknown key fails the config). Every client
/// comes from 127.0.0.1: the per-address bound must let them all in.
const CONFIG: &str =
    "notation = \"iccs\"\n[server]\nmax_per_address = 500\ninput_bytes_per_second = 4096\n";
/// For servers that limit room openings per identity (they came with `serve --metrics`):
/// the legitimate pair opens a room every few seconds from 127.0.0.1, the room flood
/// comes from its own address and is held to the same rate.
const RATE_CONFIG: &str = "rooms_per_minute = 60\n";
const OPEN_FILES: u64 = 1024;
/// A `rooms` exec that takes longer has failed.
const EXEC_PATIENCE: Duration = Duration::from_secs(10);
const PHASES: [&str; 6] = [
    "0. baseline: no flood",
    "1. typing: 6 guests x 4,000 bytes/s of `a`, never Enter",
    "2. silent: 300 guests without a channel, then 1,100 silent TCP connections",
    "3. resizes: 6 guests x 3,000 window changes",
    "4. rooms: 2 guests creating rooms, 40 lobby viewers toggling watch/leave (45/s)",
    "5. engine: 20 engine rooms asking at once, a legitimate engine room waiting",
];

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Rooms,
    Move,
    Engine,
}

/// What the legitimate clients saw: when each try started, and how long it took
/// (`None`: it failed).
#[derive(Default)]
struct Probe {
    events: Mutex<Vec<(Instant, Kind, Option<Duration>)>>,
    stop: AtomicBool,
    /// Lines of the last `rooms` answer.
    rooms_listed: AtomicUsize,
}

impl Probe {
    fn record(&self, at: Instant, kind: Kind, took: Option<Duration>) {
        self.events.lock().unwrap().push((at, kind, took));
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// "N answered, p50, max; F failed" for the tries of `kind` started in the window.
    fn summary(&self, kind: Kind, from: Instant, to: Instant) -> String {
        let events = self.events.lock().unwrap();
        let tries = events
            .iter()
            .filter(|(at, k, _)| *k == kind && (from..to).contains(at));
        let mut took: Vec<Duration> = tries.clone().filter_map(|(_, _, took)| *took).collect();
        let failed = tries.filter(|(_, _, took)| took.is_none()).count();
        took.sort();
        format!(
            "{:>4} answered, p50 {:>7.1} ms, max {:>7.1} ms; {failed} failed",
            took.len(),
            percentile(&took, 0.5).as_secs_f64() * 1e3,
            took.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        )
    }
}

/// `ssh host rooms` as `user`: the lines printed, or what went wrong.
async fn rooms_exec(addr: SocketAddr, user: &str) -> Result<usize, String> {
    let handle = sign_in(addr, user).await?;
    let mut channel = handle
        .channel_open_session()
        .await
        .map_err(|e| e.to_string())?;
    channel
        .exec(true, "rooms")
        .await
        .map_err(|e| e.to_string())?;
    let (mut out, mut status) = (Vec::new(), None);
    loop {
        match channel.wait().await {
            Some(ChannelMsg::Data { data }) => out.extend_from_slice(&data),
            Some(ChannelMsg::ExitStatus { exit_status }) => status = Some(exit_status),
            Some(ChannelMsg::Close) | None => break,
            Some(_) => {}
        }
    }
    hang_up(&handle).await;
    match status {
        Some(0) => Ok(String::from_utf8_lossy(&out).lines().count()),
        other => Err(format!("exit status {other:?}")),
    }
}

/// A `rooms` exec started every 500 ms, until stopped; each has `EXEC_PATIENCE`.
async fn list_rooms(addr: SocketAddr, probe: Arc<Probe>) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    let mut tries = Vec::new();
    while !probe.stopped() {
        tick.tick().await;
        let probe = Arc::clone(&probe);
        let user = format!("lister{}", tries.len());
        tries.push(tokio::spawn(async move {
            let at = Instant::now();
            match timeout(EXEC_PATIENCE, rooms_exec(addr, &user)).await {
                Ok(Ok(lines)) => {
                    probe.rooms_listed.store(lines, Ordering::Relaxed);
                    probe.record(at, Kind::Rooms, Some(at.elapsed()));
                }
                _ => probe.record(at, Kind::Rooms, None),
            }
        }));
    }
    for task in tries {
        let _ = task.await;
    }
}

/// The legitimate pair, game after game; connects again after a failure.
async fn play_pairs(addr: SocketAddr, probe: Arc<Probe>, begun: Instant) {
    let mut generation = 0;
    while !probe.stopped() {
        generation += 1;
        let mut move_failed = false;
        // When the step under way began: a failure outside a move counts from there.
        let since = Mutex::new(Instant::now());
        let games = async {
            let mut black = Terminal::open(addr, &format!("black{generation}")).await?;
            let mut red = Terminal::open(addr, &format!("red{generation}")).await?;
            black.wait_text("xiangqi rooms").await?;
            red.wait_text("xiangqi rooms").await?;
            let mut game = 0;
            while !probe.stopped() {
                let room = format!("p{generation}g{game}");
                game += 1;
                *since.lock().unwrap() = Instant::now();
                play_game(
                    &mut black,
                    &mut red,
                    &room,
                    Duration::from_millis(250),
                    |at, took| {
                        move_failed |= took.is_none();
                        probe.record(at, Kind::Move, took)
                    },
                )
                .await?;
            }
            hang_up(&black.handle).await;
            hang_up(&red.handle).await;
            Ok::<(), String>(())
        };
        if let Err(error) = games.await {
            let at = *since.lock().unwrap();
            eprintln!(
                "legitimate pair {generation}, from {:.1} s: {error}",
                at.duration_since(begun).as_secs_f64()
            );
            // A connection or a room that failed outside a move counts as a failed move.
            if !move_failed {
                probe.record(at, Kind::Move, None);
            }
            sleep(Duration::from_millis(500)).await;
        }
    }
}

/// Waits until the server's CPU use falls to `quiet` (cores) over a second, at most a
/// minute: (seconds waited, CPU seconds used meanwhile).
async fn settle(pid: u32, quiet: f64) -> (u64, f64) {
    let (first, _, _) = usage(pid);
    let mut seconds = 0;
    loop {
        let (before, _, _) = usage(pid);
        sleep(Duration::from_secs(1)).await;
        seconds += 1;
        let (after, _, _) = usage(pid);
        if after - before <= quiet || seconds >= 60 {
            return (seconds, after - first);
        }
    }
}

/// Lines the server logged since `from` (bytes): ("Too many open files", refusals,
/// the first refusal).
fn log_since(path: &Path, from: usize) -> (usize, usize, Option<String>) {
    let text = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(text.get(from..).unwrap_or_default());
    let files = text
        .lines()
        .filter(|l| l.contains("Too many open files"))
        .count();
    let refused: Vec<&str> = text.lines().filter(|l| l.contains("refused")).collect();
    (files, refused.len(), refused.first().map(|l| l.to_string()))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(binary) = args.get(1).cloned() else {
        eprintln!("usage: ssh_floods SERVER_BINARY [SECONDS_PER_FLOOD]");
        std::process::exit(2);
    };
    let seconds: u64 = args.get(2).and_then(|v| v.parse().ok()).unwrap_or(20);
    raise_open_files();
    let data = tempfile::tempdir().unwrap();
    let log_path = data.path().join("server.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let limits_openings = std::process::Command::new(&binary)
        .args(["serve", "--help"])
        .output()
        .is_ok_and(|help| String::from_utf8_lossy(&help.stdout).contains("--metrics"));
    let config = match limits_openings {
        true => format!("{CONFIG}{RATE_CONFIG}"),
        false => CONFIG.to_owned(),
    };
    let (mut server, addr) = start_server(ServerStart {
        binary: &binary,
        data: data.path(),
        config: &config,
        open_files: Some(OPEN_FILES),
        log: Stdio::from(log),
    });
    let pid = server.id();
    println!("server {binary} (pid {pid}, {OPEN_FILES} open files at most), {seconds} s per flood");
    let probe = Arc::new(Probe::default());
    let begun = Instant::now();
    let lister = tokio::spawn(list_rooms(addr, Arc::clone(&probe)));
    let players = tokio::spawn(play_pairs(addr, Arc::clone(&probe), Instant::now()));
    sleep(Duration::from_secs(2)).await;
    let mut quiet = 0.25;
    let mut phases = Vec::new();
    for (index, name) in PHASES.iter().enumerate() {
        let start = Instant::now();
        let until = start + Duration::from_secs(seconds);
        let (cpu_before, _, _) = usage(pid);
        let log_from = std::fs::metadata(&log_path).map_or(0, |m| m.len() as usize);
        let path = data.path().to_path_buf();
        let probe_for = Arc::clone(&probe);
        let flood = tokio::spawn(async move {
            match index {
                1 => floods::typing(addr, until).await,
                2 => floods::silent(addr, until).await,
                3 => floods::resizes(addr, until).await,
                4 => floods::rooms(addr, until).await,
                5 => {
                    floods::engine(addr, path, until, |at, took| {
                        probe_for.record(at, Kind::Engine, took)
                    })
                    .await
                }
                _ => {
                    sleep_until(until.into()).await;
                    Vec::new()
                }
            }
        });
        let mut rss_peak = 0;
        while Instant::now() < until {
            sleep((until - Instant::now()).min(Duration::from_secs(1))).await;
            rss_peak = rss_peak.max(usage(pid).1);
        }
        let (cpu_after, rss, _) = usage(pid);
        let wall = start.elapsed().as_secs_f64();
        let notes = flood
            .await
            .unwrap_or_else(|e| vec![format!("the flood panicked: {e}")]);
        let share = (cpu_after - cpu_before) / wall;
        let mut lines = vec![format!(
            "  server          CPU {:.1} s ({:.0}% of a core), RSS {} KiB (peak {} KiB)",
            cpu_after - cpu_before,
            share * 100.0,
            rss,
            rss_peak.max(rss)
        )];
        if index == 0 {
            quiet = share + 0.15;
        } else {
            let (waited, cpu) = settle(pid, quiet).await;
            lines.push(format!(
                "  afterwards      busy for {waited} s more ({cpu:.1} s of CPU)"
            ));
        }
        let (files, refused, first) = log_since(&log_path, log_from);
        lines.push(format!(
            "  server log      {files} \"Too many open files\", {refused} refusals{}",
            first.map_or(String::new(), |l| format!(" (first: {})", l.trim()))
        ));
        lines.push(format!(
            "  rooms listed    {} lines",
            probe.rooms_listed.load(Ordering::Relaxed)
        ));
        lines.extend(notes.iter().map(|note| format!("  flood           {note}")));
        eprintln!(
            "{name}: done at {:.1} s",
            start.duration_since(begun).as_secs_f64() + wall
        );
        phases.push((name, start, until, wall, lines));
    }
    // Tries still under way finish (or fail) before the latencies are counted.
    probe.stop.store(true, Ordering::Relaxed);
    let _ = timeout(PATIENCE + PATIENCE, lister).await;
    let _ = timeout(PATIENCE + PATIENCE, players).await;
    for (name, start, until, wall, lines) in phases {
        println!("\n== {name} ({wall:.1} s)");
        println!(
            "  rooms exec      {}",
            probe.summary(Kind::Rooms, start, until)
        );
        println!(
            "  move to screen  {}",
            probe.summary(Kind::Move, start, until)
        );
        if name.starts_with("5.") {
            println!(
                "  engine reply    {}",
                probe.summary(Kind::Engine, start, until)
            );
        }
        for line in lines {
            println!("{line}");
        }
    }
    let (cpu, rss, peak) = usage(pid);
    println!("\nserver in all: {cpu:.1} s of CPU, RSS {rss} KiB at the end, peak {peak} KiB");
    let _ = server.kill();
    let _ = server.wait();
}
