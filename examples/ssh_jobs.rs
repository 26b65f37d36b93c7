//! The attacks of issue 39's security pass, replayed against `xiangqi-tui serve` (not a
//! test: it measures, before and after the bounds alike).
//!
//! Each row starts the server binary afresh on a loopback port with a temporary data
//! directory and at most 1,024 open files; the attack comes from 127.0.0.2 while a
//! legitimate `ssh host rooms` exec starts every 500 ms from 127.0.0.1. For each row it
//! prints what the attack got done, the server's threads (peak), CPU seconds during the
//! attack and until it is quiet again (how long that took), peak RSS, and the `rooms`
//! exec's latency (p50, max, failures):
//!
//! - `puzzle`: one guest in a mate-in-4 puzzle plays a wrong move and Ctrl-Z 60 times in
//!   about 2 s, then disconnects;
//! - `review24`, `review64`: that many guests open an archived game and ask `:review`;
//! - `limits`: a review on a server whose play settings say `threads = 2`, `hash_mb =
//!   128` and `[server] engine_threads = 1` (what the session is told);
//! - `school`: 16 guests ask the school for the same missing ending at once;
//! - `rooms`: guests of one address open rooms by every form (`new human unrated`, `new
//!   human NAME CONTROL`, `play CONTROL`, `new engine`), then a move, for 64 s;
//! - `chat`: 8 spectators chat as fast as the input rate lets them, for 60 s;
//! - `keys`: 60 fresh keys sign in within about 5 s, then a key signs in under another
//!   name and a third key asks for the first name;
//! - `names`: names with U+200B, U+202E, piled combining marks and a Cyrillic look-alike.
//!
//! cargo run --release --example ssh_jobs -- SERVER_BINARY [ROW...]

mod support;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use russh::ChannelMsg;
use russh::client;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg};
use support::{
    Accept, FLOOD_SOURCE, ServerStart, Terminal, hang_up, percentile, play_game, raise_open_files,
    sign_in, start_server, tcp_from, usage,
};
use tokio::time::{sleep, timeout};

/// Keys every server version knows; every client may come from one address.
const CONFIG: &str = "notation = \"iccs\"\n[server]\nmax_per_address = 500\n\
                      input_bytes_per_second = 4096\nmax_startups_per_address = 500\n\
                      max_startups = \"500:30:1000\"\n";
const OPEN_FILES: u64 = 1024;
const ROWS_ALL: [&str; 9] = [
    "puzzle", "review24", "review64", "limits", "school", "rooms", "chat", "keys", "names",
];

/// The server's threads now (from /proc).
fn threads(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(0)
}

/// The legitimate `rooms` execs: each one's latency, `None` when it failed.
#[derive(Default)]
struct Lister {
    took: Mutex<Vec<Option<Duration>>>,
    stop: AtomicBool,
}

async fn rooms_exec(addr: SocketAddr) -> Result<(), String> {
    let handle = sign_in(addr, "lister").await?;
    let mut channel = handle
        .channel_open_session()
        .await
        .map_err(|e| e.to_string())?;
    channel
        .exec(true, "rooms")
        .await
        .map_err(|e| e.to_string())?;
    let mut status = None;
    while let Some(message) = channel.wait().await {
        match message {
            ChannelMsg::ExitStatus { exit_status } => status = Some(exit_status),
            ChannelMsg::Close => break,
            _ => {}
        }
    }
    hang_up(&handle).await;
    match status {
        Some(0) => Ok(()),
        other => Err(format!("exit status {other:?}")),
    }
}

async fn list(addr: SocketAddr, lister: Arc<Lister>) {
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    let mut tries = Vec::new();
    while !lister.stop.load(Ordering::Relaxed) {
        tick.tick().await;
        let lister = Arc::clone(&lister);
        tries.push(tokio::spawn(async move {
            let at = Instant::now();
            let ok = timeout(Duration::from_secs(10), rooms_exec(addr)).await;
            let took = matches!(ok, Ok(Ok(()))).then(|| at.elapsed());
            lister.took.lock().unwrap().push(took);
        }));
    }
    for task in tries {
        let _ = task.await;
    }
}

/// A key's session (publickey sign-in as `user`), from the flood's address.
async fn key_terminal(addr: SocketAddr, user: &str, seed: u8) -> Result<Terminal, String> {
    key_terminal_from(addr, user, seed, FLOOD_SOURCE).await
}

/// A key's session from `source` (the flood's address, or another machine's).
async fn key_terminal_from(
    addr: SocketAddr,
    user: &str,
    seed: u8,
    source: std::net::IpAddr,
) -> Result<Terminal, String> {
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32]));
    let stream = tcp_from(addr, Some(source))
        .await
        .map_err(|e| e.to_string())?;
    let config = Arc::new(client::Config::default());
    let mut handle = client::connect_stream(config, stream, Accept)
        .await
        .map_err(|e| e.to_string())?;
    let signed = handle
        .authenticate_publickey(user, PrivateKeyWithHashAlg::new(Arc::new(key), None))
        .await
        .map_err(|e| e.to_string())?;
    if !signed.success() {
        return Err("refused".into());
    }
    Terminal::over(handle).await
}

/// Reads a terminal's output for `wait`; its screen then.
async fn read_for(terminal: &mut Terminal, wait: Duration) -> String {
    let until = tokio::time::Instant::now() + wait;
    while let Ok(Some(message)) = tokio::time::timeout_at(until, terminal.channel.wait()).await {
        if let ChannelMsg::Data { data } | ChannelMsg::ExtendedData { data, .. } = message {
            terminal.screen.process(&data);
        }
    }
    terminal.screen.screen().contents()
}

/// A flood guest in the lobby.
async fn guest(addr: SocketAddr, user: &str) -> Result<Terminal, String> {
    let mut terminal = Terminal::open_from(addr, user, Some(FLOOD_SOURCE)).await?;
    terminal.wait_text("xiangqi rooms").await?;
    Ok(terminal)
}

/// A finished game in the archive (#1), played by two legitimate guests.
async fn archive_a_game(addr: SocketAddr) -> Result<(), String> {
    let mut black = Terminal::open(addr, "host").await?;
    let mut red = Terminal::open(addr, "visitor").await?;
    black.wait_text("xiangqi rooms").await?;
    red.wait_text("xiangqi rooms").await?;
    play_game(&mut black, &mut red, "arc", Duration::ZERO, |_, _| {}).await?;
    hang_up(&black.handle).await;
    hang_up(&red.handle).await;
    Ok(())
}

async fn puzzle(addr: SocketAddr) -> Vec<String> {
    let run = async {
        let mut eve = guest(addr, "eve").await?;
        eve.command("puzzle 0103611e").await?;
        eve.wait_text("mate in 4").await?;
        for _ in 0..60 {
            eve.command("f5a5").await?;
            sleep(Duration::from_millis(16)).await;
            eve.type_text("\x1a").await?;
            sleep(Duration::from_millis(16)).await;
        }
        hang_up(&eve.handle).await;
        Ok::<_, String>("60 wrong moves and Ctrl-Z, then hung up".to_owned())
    };
    vec![run.await.unwrap_or_else(|e| format!("failed: {e}"))]
}

async fn reviews(addr: SocketAddr, count: usize, hold: Duration) -> Vec<String> {
    let mut viewers = Vec::new();
    let mut failed = 0;
    for n in 0..count {
        let opened = async {
            let mut viewer = guest(addr, &format!("v{n}")).await?;
            viewer.command("pgn 1").await?;
            viewer.wait_text("archived game #1").await?;
            viewer.command(":review").await?;
            Ok::<_, String>(viewer)
        };
        match opened.await {
            Ok(viewer) => viewers.push(viewer),
            Err(_) => failed += 1,
        }
    }
    let started = Instant::now();
    // Per viewer: its review seen finished, it was told the server is busy.
    let mut seen = vec![(false, false); viewers.len()];
    let per = hold / (viewers.len().max(1) as u32);
    for (viewer, (finished, busy)) in viewers.iter_mut().zip(&mut seen) {
        let screen = read_for(viewer, per.max(Duration::from_millis(50))).await;
        *finished = screen.contains("review: accuracy");
        *busy = screen.contains("the server is busy");
    }
    if let Some(rest) = hold.checked_sub(started.elapsed()) {
        sleep(rest).await;
    }
    for (viewer, (finished, _)) in viewers.iter_mut().zip(&mut seen) {
        let screen = read_for(viewer, Duration::from_millis(20)).await;
        *finished |= screen.contains("review: accuracy");
    }
    let finished = seen.iter().filter(|(finished, _)| *finished).count();
    let busy = seen.iter().filter(|(_, busy)| *busy).count();
    for viewer in &viewers {
        hang_up(&viewer.handle).await;
    }
    vec![format!(
        "{} sessions asked :review ({failed} could not); within {:.0} s {finished} reviews \
         seen finished, {busy} told the server is busy",
        viewers.len(),
        hold.as_secs_f64()
    )]
}

async fn limits(addr: SocketAddr) -> Vec<String> {
    let run = async {
        let mut ann = guest(addr, "ann").await?;
        ann.command("pgn 1").await?;
        ann.wait_text("archived game #1").await?;
        ann.command(":review").await?;
        let screen = read_for(&mut ann, Duration::from_millis(700)).await;
        // Only what is said, not the board drawn on the same line.
        let said: Vec<String> = screen
            .lines()
            .filter_map(|line| {
                let at = line.find("review on")?;
                let said = &line[at..];
                Some(said[..said.find(')').map_or(said.len(), |end| end + 1)].to_owned())
            })
            .collect();
        hang_up(&ann.handle).await;
        Ok::<_, String>(format!("the session was told: {}", said.join(" / ")))
    };
    vec![run.await.unwrap_or_else(|e| format!("failed: {e}"))]
}

/// The school's missing ending: with its smaller endings about a CPU second to
/// generate, under the size the school generates on the spot.
const SCHOOL_ENDING: &str = "KRKAB";

async fn school(addr: SocketAddr, data: &Path) -> Vec<String> {
    let mut students = Vec::new();
    for n in 0..16 {
        if let Ok(student) = guest(addr, &format!("s{n}")).await {
            students.push(student);
        }
    }
    let started = Instant::now();
    for student in &students {
        let _ = student.command(&format!("drill {SCHOOL_ENDING}")).await;
    }
    let mut ready = 0;
    for student in &mut students {
        let lesson = format!("Endgame school: {SCHOOL_ENDING}");
        ready += usize::from(student.wait_text(&lesson).await.is_ok());
    }
    let took = started.elapsed();
    for student in &students {
        hang_up(&student.handle).await;
    }
    let tables = std::fs::read_dir(data.join("egtb"))
        .map(|dir| {
            dir.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_else(|_| Vec::<String>::new());
    vec![format!(
        "{ready} of {} students got their lesson in {:.1} s; egtb holds {tables:?}",
        students.len(),
        took.as_secs_f64()
    )]
}

async fn rooms(addr: SocketAddr, seconds: u64) -> Vec<String> {
    let until = Instant::now() + Duration::from_secs(seconds);
    let forms = [
        "new human unrated",
        "new human hN 10+5",
        "play 5+3",
        "new engine",
    ];
    let (mut opened, mut refused, mut first_refusal) = (0, 0, None);
    let mut held = Vec::new();
    let mut n = 0;
    while Instant::now() < until {
        n += 1;
        let Ok(mut opener) = guest(addr, &format!("o{n}")).await else {
            refused += 1;
            continue;
        };
        let form = forms[n % forms.len()].replace("hN", &format!("h{n}"));
        let _ = opener.command(&form).await;
        let screen = read_for(&mut opener, Duration::from_millis(150)).await;
        if screen.contains("room ") && !screen.contains("xiangqi rooms") {
            opened += 1;
            if form == "new engine" {
                let _ = opener.command("h2e2").await;
            }
            held.push(opener);
        } else {
            refused += 1;
            if first_refusal.is_none() {
                first_refusal = screen
                    .lines()
                    .find(|line| line.contains("rooms") && line.contains("most"))
                    .map(|line| line.trim().to_owned());
            }
            hang_up(&opener.handle).await;
        }
    }
    let listed = support_rooms_lines(addr).await;
    for opener in &held {
        hang_up(&opener.handle).await;
    }
    vec![format!(
        "{opened} rooms opened, {refused} refused in {seconds} s (first: {}); the room list has \
         {listed} lines",
        first_refusal.unwrap_or_default()
    )]
}

/// Lines of `ssh host rooms`.
async fn support_rooms_lines(addr: SocketAddr) -> usize {
    let Ok(handle) = sign_in(addr, "counter").await else {
        return 0;
    };
    let Ok(mut channel) = handle.channel_open_session().await else {
        return 0;
    };
    let _ = channel.exec(true, "rooms").await;
    let mut out = Vec::new();
    while let Some(message) = channel.wait().await {
        match message {
            ChannelMsg::Data { data } => out.extend_from_slice(&data),
            ChannelMsg::Close => break,
            _ => {}
        }
    }
    hang_up(&handle).await;
    String::from_utf8_lossy(&out).lines().count()
}

fn db_bytes(data: &Path) -> u64 {
    ["xiangqi-tui.db", "xiangqi-tui.db-wal"]
        .iter()
        .filter_map(|name| std::fs::metadata(data.join(name)).ok())
        .map(|meta| meta.len())
        .sum()
}

async fn chat(addr: SocketAddr, data: &Path, seconds: u64) -> Vec<String> {
    let run = async {
        let mut host = Terminal::open(addr, "host").await?;
        host.wait_text("xiangqi rooms").await?;
        host.command("new human talk").await?;
        host.wait_text("room talk").await?;
        let before = db_bytes(data);
        let until = Instant::now() + Duration::from_secs(seconds);
        let mut tasks = Vec::new();
        for n in 0..8 {
            tasks.push(tokio::spawn(async move {
                let mut spectator = guest(addr, &format!("w{n}")).await?;
                spectator.command("watch talk").await?;
                spectator.wait_text("room talk").await?;
                let line = format!(":say {}\r", "x".repeat(60));
                let mut said = 0u64;
                while Instant::now() < until {
                    // Within the input rate: 4,096 bytes a second.
                    spectator.type_text(&line).await?;
                    said += 1;
                    let _ = read_for(&mut spectator, Duration::from_millis(20)).await;
                }
                hang_up(&spectator.handle).await;
                Ok::<u64, String>(said)
            }));
        }
        let mut said = 0;
        for task in tasks {
            said += task.await.map_err(|e| e.to_string())??;
        }
        sleep(Duration::from_secs(2)).await;
        let grown = db_bytes(data).saturating_sub(before);
        hang_up(&host.handle).await;
        Ok::<_, String>(format!(
            "8 spectators sent {said} :say lines in {seconds} s; the database grew {:.2} MB",
            grown as f64 / 1e6
        ))
    };
    vec![run.await.unwrap_or_else(|e| format!("failed: {e}"))]
}

async fn keys(addr: SocketAddr) -> Vec<String> {
    let started = Instant::now();
    let mut pinned = 0;
    let mut first_refusal = None;
    for n in 0..60u8 {
        match key_terminal(addr, &format!("k{n}"), 100 + n).await {
            Ok(mut terminal) => {
                let screen = read_for(&mut terminal, Duration::from_millis(60)).await;
                if screen.contains("xiangqi rooms") {
                    pinned += 1;
                } else if first_refusal.is_none() {
                    first_refusal = screen
                        .lines()
                        .find(|l| l.contains("xiangqi-tui:"))
                        .map(|l| l.trim().to_owned());
                }
                hang_up(&terminal.handle).await;
            }
            Err(error) => first_refusal = first_refusal.or(Some(error)),
        }
    }
    let took = started.elapsed();
    // A key's name, moved by another sign-in, freed for anyone? From another machine:
    // the flood's address has no new names left.
    let moved = async {
        let home = std::net::IpAddr::from([127, 0, 0, 1]);
        let mut ann = key_terminal_from(addr, "ann", 1, home).await?;
        let _ = read_for(&mut ann, Duration::from_millis(300)).await;
        hang_up(&ann.handle).await;
        let mut again = key_terminal_from(addr, "annie", 1, home).await?;
        let told = read_for(&mut again, Duration::from_millis(300)).await;
        hang_up(&again.handle).await;
        let mut other = key_terminal_from(addr, "ann", 2, home).await?;
        let screen = read_for(&mut other, Duration::from_millis(300)).await;
        hang_up(&other.handle).await;
        let kept = told.contains("you are ann here");
        let taken = screen.contains("xiangqi rooms");
        Ok::<_, String>(format!(
            "key 1 signed in as annie: kept ann {kept}; key 2 then took ann: {taken}"
        ))
    };
    vec![
        format!(
            "{pinned} of 60 fresh keys pinned a name in {:.1} s (first refusal: {})",
            took.as_secs_f64(),
            first_refusal.unwrap_or_default()
        ),
        moved.await.unwrap_or_else(|e| format!("failed: {e}")),
    ]
}

async fn names(addr: SocketAddr) -> Vec<String> {
    let mut ann = match key_terminal(addr, "ann", 1).await {
        Ok(ann) => ann,
        Err(error) => return vec![format!("failed: {error}")],
    };
    let _ = read_for(&mut ann, Duration::from_millis(300)).await;
    let mut lines = Vec::new();
    for (user, seed) in [
        ("legit\u{200b}", 10),
        ("a\u{202e}nn", 11),
        ("e\u{301}\u{302}\u{303}x", 12),
        ("\u{430}nn", 13),
    ] {
        let verdict = match key_terminal(addr, user, seed).await {
            Ok(mut terminal) => {
                let screen = read_for(&mut terminal, Duration::from_millis(300)).await;
                hang_up(&terminal.handle).await;
                match screen.lines().find(|l| l.contains("xiangqi-tui:")) {
                    Some(line) => format!("refused: {}", line.trim()),
                    None if screen.contains("xiangqi rooms") => "accepted".to_owned(),
                    None => "no answer".to_owned(),
                }
            }
            Err(error) => format!("refused at sign-in: {error}"),
        };
        lines.push(format!("{user:?}: {verdict}"));
    }
    hang_up(&ann.handle).await;
    lines
}

/// Waits until the server's CPU use falls under a tenth of a core over a second, at
/// most a minute: (seconds waited, CPU seconds used meanwhile).
async fn settle(pid: u32) -> (u64, f64) {
    let (first, _, _) = usage(pid);
    let mut seconds = 0;
    loop {
        let (before, _, _) = usage(pid);
        sleep(Duration::from_secs(1)).await;
        seconds += 1;
        let (after, _, _) = usage(pid);
        if after - before <= 0.1 || seconds >= 90 {
            return (seconds, after - first);
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(binary) = args.get(1).cloned() else {
        eprintln!("usage: ssh_jobs SERVER_BINARY [ROW...]");
        std::process::exit(2);
    };
    let rows: Vec<String> = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        ROWS_ALL.iter().map(|row| (*row).to_owned()).collect()
    };
    raise_open_files();
    for row in rows {
        let data = tempfile::tempdir().unwrap();
        let mut config = CONFIG.to_owned();
        if row == "limits" {
            config = format!("threads = 2\nhash_mb = 128\n{}engine_threads = 1\n", CONFIG);
        }
        let (mut server, addr) = start_server(ServerStart {
            binary: &binary,
            data: data.path(),
            config: &config,
            open_files: Some(OPEN_FILES),
            log: Stdio::null(),
        });
        let pid = server.id();
        if matches!(row.as_str(), "review24" | "review64" | "limits")
            && let Err(error) = archive_a_game(addr).await
        {
            println!("== {row}: could not archive a game: {error}");
        }
        let lister = Arc::new(Lister::default());
        let listing = tokio::spawn(list(addr, Arc::clone(&lister)));
        sleep(Duration::from_secs(1)).await;
        let (cpu_before, _, _) = usage(pid);
        let peak = Arc::new(Mutex::new((threads(pid), 0u64)));
        let watching = Arc::new(AtomicBool::new(true));
        let sampler = {
            let (peak, watching) = (Arc::clone(&peak), Arc::clone(&watching));
            tokio::spawn(async move {
                while watching.load(Ordering::Relaxed) {
                    {
                        let mut p = peak.lock().unwrap();
                        p.0 = p.0.max(threads(pid));
                        p.1 = p.1.max(usage(pid).1);
                    }
                    sleep(Duration::from_millis(100)).await;
                }
            })
        };
        let started = Instant::now();
        let notes = match row.as_str() {
            "puzzle" => puzzle(addr).await,
            "review24" => reviews(addr, 24, Duration::from_secs(45)).await,
            "review64" => reviews(addr, 64, Duration::from_secs(45)).await,
            "limits" => limits(addr).await,
            "school" => school(addr, data.path()).await,
            "rooms" => rooms(addr, 64).await,
            "chat" => chat(addr, data.path(), 60).await,
            "keys" => keys(addr).await,
            "names" => names(addr).await,
            other => vec![format!("no row {other}")],
        };
        let attack = started.elapsed();
        let (cpu_during, _, _) = usage(pid);
        let (quiet_after, cpu_after) = settle(pid).await;
        watching.store(false, Ordering::Relaxed);
        let _ = sampler.await;
        lister.stop.store(true, Ordering::Relaxed);
        let _ = listing.await;
        let (_, _, rss_peak) = usage(pid);
        let (peak_threads, _) = *peak.lock().unwrap();
        let took = lister.took.lock().unwrap();
        let mut answered: Vec<Duration> = took.iter().flatten().copied().collect();
        answered.sort();
        let failed = took.iter().filter(|t| t.is_none()).count();
        println!("== {row} ({:.1} s)", attack.as_secs_f64());
        for note in notes {
            println!("  attack     {note}");
        }
        println!(
            "  server     threads peak {peak_threads}; CPU {:.1} s during, {:.1} s more over \
             {quiet_after} s until quiet; peak RSS {:.0} MB",
            cpu_during - cpu_before,
            cpu_after,
            rss_peak as f64 / 1024.0
        );
        println!(
            "  rooms      {} answered, p50 {:.1} ms, max {:.1} ms; {failed} failed",
            answered.len(),
            percentile(&answered, 0.5).as_secs_f64() * 1e3,
            answered.last().copied().unwrap_or_default().as_secs_f64() * 1e3
        );
        let _ = server.kill();
        let _ = server.wait();
    }
}
