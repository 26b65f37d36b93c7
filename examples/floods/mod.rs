//! The floods of `ssh_floods`, one function each: each runs until `until`, hangs up
//! and says what it got done (refusals of a hardened server included).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use russh::ChannelWriteHalf;
use russh::client::{Handle, Msg};
use tokio::time::{sleep, sleep_until, timeout, timeout_at};

use crate::support::{
    Accept, COLUMNS, FLOOD_SOURCE, PATIENCE, ROWS, Terminal, hang_up, sign_in_from, tcp_from,
};

/// A sign-in that takes longer has failed.
const SIGN_IN_PATIENCE: Duration = Duration::from_secs(10);

/// A flood session: a guest with a shell in the lobby (or in the room it opened with
/// `new KIND ROOM`), whose output is read and dropped.
struct Raw {
    handle: Handle<Accept>,
    write: ChannelWriteHalf<Msg>,
}

async fn raw_session(
    addr: SocketAddr,
    user: &str,
    room: Option<(&str, &str)>,
) -> Result<Raw, String> {
    let mut terminal = Terminal::open_from(addr, user, Some(FLOOD_SOURCE)).await?;
    terminal.wait_text("xiangqi rooms").await?;
    if let Some((kind, room)) = room {
        terminal.command(&format!("new {kind} {room}")).await?;
        terminal.wait_text(&format!("room {room}")).await?;
    }
    let Terminal {
        handle, channel, ..
    } = terminal;
    let (mut read, write) = channel.split();
    tokio::spawn(async move { while read.wait().await.is_some() {} });
    Ok(Raw { handle, write })
}

impl Raw {
    async fn command(&self, line: &str) -> Result<(), String> {
        self.write
            .data_bytes(format!("{line}\r").into_bytes())
            .await
            .map_err(|e| e.to_string())
    }
}

/// "N of M sessions held to the end, TOTAL UNIT; the first failure".
fn tally(what: &str, unit: &str, results: Vec<Result<u64, String>>) -> String {
    let total = results.len();
    let done: u64 = results.iter().filter_map(|r| r.as_ref().ok()).sum();
    let held = results.iter().filter(|r| r.is_ok()).count();
    let first = results.iter().find_map(|r| r.as_ref().err());
    let mut line = format!("{held} of {total} {what} held to the end, {done} {unit}");
    if let Some(error) = first {
        line.push_str(&format!("; first failure: {error}"));
    }
    line
}

async fn join_all<T>(
    tasks: Vec<tokio::task::JoinHandle<Result<T, String>>>,
) -> Vec<Result<T, String>> {
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap_or_else(|e| Err(e.to_string())));
    }
    results
}

/// Sends `chunk` every `every` until `until`; the bytes sent. Server-closed counts as
/// a failure.
async fn send_every(
    raw: &Raw,
    chunk: &[u8],
    every: Duration,
    until: Instant,
) -> Result<u64, String> {
    let mut tick = tokio::time::interval(every);
    let mut sent = 0;
    let until = tokio::time::Instant::from_std(until);
    while tokio::time::Instant::now() < until {
        tick.tick().await;
        match timeout_at(until, raw.write.data_bytes(chunk.to_vec())).await {
            Ok(Ok(())) => sent += chunk.len() as u64,
            Ok(Err(e)) => return Err(format!("closed after {sent} bytes: {e}")),
            Err(_) => break,
        }
    }
    Ok(sent)
}

pub async fn typing(addr: SocketAddr, until: Instant) -> Vec<String> {
    let tasks = (0..6)
        .map(|i| {
            tokio::spawn(async move {
                let raw = raw_session(addr, &format!("ty{i}"), None).await?;
                let sent = send_every(&raw, &[b'a'; 200], Duration::from_millis(50), until).await;
                hang_up(&raw.handle).await;
                sent
            })
        })
        .collect();
    vec![tally("typists", "bytes typed", join_all(tasks).await)]
}

pub async fn silent(addr: SocketAddr, until: Instant) -> Vec<String> {
    let gate = Arc::new(tokio::sync::Semaphore::new(16));
    let tasks = (0..300)
        .map(|i| {
            let gate = Arc::clone(&gate);
            tokio::spawn(async move {
                let _turn = gate.acquire_owned().await.map_err(|e| e.to_string())?;
                timeout(
                    SIGN_IN_PATIENCE,
                    sign_in_from(addr, &format!("id{i}"), Some(FLOOD_SOURCE)),
                )
                .await
                .map_err(|_| "no sign-in within 10 s".to_owned())?
            })
        })
        .collect();
    let guests = join_all(tasks).await;
    let signed_in = guests.iter().filter(|g| g.is_ok()).count();
    let first = guests.iter().find_map(|g| g.as_ref().err().cloned());
    let mut sockets = Vec::new();
    let mut failed = 0;
    for _ in 0..1100 {
        if Instant::now() >= until {
            break;
        }
        match timeout(Duration::from_secs(2), tcp_from(addr, Some(FLOOD_SOURCE))).await {
            Ok(Ok(socket)) => sockets.push(socket),
            _ => failed += 1,
        }
    }
    let connected = sockets.len();
    sleep_until(until.into()).await;
    // Dropping them closes them.
    drop(sockets);
    drop(guests);
    vec![
        format!(
            "{signed_in} of 300 guests signed in{}",
            first.map_or(String::new(), |e| format!(" (first failure: {e})"))
        ),
        format!("{connected} of 1100 silent TCP connections made, {failed} failed"),
    ]
}

pub async fn resizes(addr: SocketAddr, until: Instant) -> Vec<String> {
    let tasks = (0..6)
        .map(|i| {
            tokio::spawn(async move {
                let raw = raw_session(addr, &format!("rz{i}"), None).await?;
                let mut sent = 0;
                for n in 0..3000u64 {
                    let (columns, rows) = if n % 2 == 0 {
                        (80, 24)
                    } else {
                        (COLUMNS, ROWS)
                    };
                    let change = raw.write.window_change(columns, rows, 0, 0);
                    match timeout_at(until.into(), change).await {
                        Ok(Ok(())) => sent += 1,
                        Ok(Err(e)) => return Err(format!("closed after {sent} changes: {e}")),
                        Err(_) => break,
                    }
                }
                sleep_until(until.into()).await;
                hang_up(&raw.handle).await;
                Ok(sent)
            })
        })
        .collect();
    vec![tally(
        "resizers",
        "window changes sent",
        join_all(tasks).await,
    )]
}

/// Named rooms, one after another: `new human mIxN`, then `:leave`, each in a message of
/// its own (a server reads a message's lines in the screen it was in when the message
/// came), 10 ms apart: 50 rooms a second, 1,150 bytes/s, within the input rate. The
/// rooms asked for.
async fn made_rooms(raw: &Raw, creator: usize, until: Instant) -> Result<u64, String> {
    let mut tick = tokio::time::interval(Duration::from_millis(10));
    let mut asked = 0;
    while Instant::now() < until {
        tick.tick().await;
        let line = if asked % 2 == 0 {
            format!("new human m{creator}x{}\r", asked / 2)
        } else {
            ":leave\r".to_owned()
        };
        match timeout_at(until.into(), raw.write.data_bytes(line.into_bytes())).await {
            Ok(Ok(())) => asked += 1,
            Ok(Err(e)) => return Err(format!("closed after {} rooms: {e}", asked / 2)),
            Err(_) => break,
        }
    }
    Ok(asked / 2)
}

pub async fn rooms(addr: SocketAddr, until: Instant) -> Vec<String> {
    let host = raw_session(addr, "flhost", Some(("human", "fl"))).await;
    let creators = (0..2)
        .map(|i| {
            tokio::spawn(async move {
                let raw = raw_session(addr, &format!("mk{i}"), None).await?;
                let sent = made_rooms(&raw, i, until).await;
                hang_up(&raw.handle).await;
                sent
            })
        })
        .collect();
    // 40 viewers, 45 toggles a second in all: each toggles every 40/45 s.
    let viewers = (0..40)
        .map(|i| {
            tokio::spawn(async move {
                let raw = raw_session(addr, &format!("vw{i}"), None).await?;
                sleep(Duration::from_millis(22 * i)).await;
                let mut tick = tokio::time::interval(Duration::from_millis(40_000 / 45));
                let mut toggles = 0;
                while Instant::now() < until {
                    tick.tick().await;
                    let line: &[u8] = if toggles % 2 == 0 {
                        b"watch fl\r"
                    } else {
                        b":leave\r"
                    };
                    match timeout_at(until.into(), raw.write.data_bytes(line.to_vec())).await {
                        Ok(Ok(())) => toggles += 1,
                        Ok(Err(e)) => return Err(format!("closed after {toggles} toggles: {e}")),
                        Err(_) => break,
                    }
                }
                hang_up(&raw.handle).await;
                Ok(toggles)
            })
        })
        .collect();
    let made = tally("creators", "rooms asked for", join_all(creators).await);
    let watched = tally("viewers", "toggles", join_all(viewers).await);
    if let Ok(host) = &host {
        hang_up(&host.handle).await;
    }
    vec![
        format!(
            "room fl's host: {}",
            host.map_or_else(|e| e, |_| "ok".into())
        ),
        made,
        watched,
    ]
}

/// A room as the server's store in `data` holds it.
#[derive(Clone)]
struct Saved {
    data: PathBuf,
    room: String,
}

impl Saved {
    /// Plies of the room as committed (not saved yet: none).
    fn plies(&self) -> usize {
        use xiangqi_server::store::Store;
        let Ok(store) = xiangqi_server::store::SqliteStore::open_in(&self.data) else {
            return 0;
        };
        let rooms = store.rooms().unwrap_or_default();
        let text = rooms
            .iter()
            .find(|saved| saved.name == self.room)
            .map_or("", |saved| saved.pgn.as_str());
        xiangqi_server::parse_room(text)
            .ok()
            .flatten()
            .map_or(0, |room| room.game.ply())
    }
}

async fn wait_plies(saved: &Saved, wanted: usize, deadline: Instant) -> Result<(), String> {
    while saved.plies() != wanted {
        if Instant::now() >= deadline {
            return Err(format!("not {wanted} plies in the store in time"));
        }
        sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// Opens engine room `room` as `user`, with where the store keeps it.
async fn engine_room(
    addr: SocketAddr,
    data: &Path,
    user: &str,
    room: &str,
) -> Result<(Raw, Saved), String> {
    let raw = raw_session(addr, user, Some(("engine", room))).await?;
    let saved = Saved {
        data: data.to_owned(),
        room: room.to_owned(),
    };
    Ok((raw, saved))
}

/// Red's move, the engine's reply committed, both taken back: the reply's latency.
async fn engine_round(terminal: &Raw, path: &Saved, deadline: Instant) -> Result<Duration, String> {
    let sent = Instant::now();
    terminal.command("h2e2").await?;
    wait_plies(path, 2, deadline).await?;
    let took = sent.elapsed();
    terminal.command(":undo").await?;
    wait_plies(path, 0, deadline).await?;
    Ok(took)
}

/// `reply` hears when the legitimate room asked and how long its reply took (`None`:
/// it never came).
pub async fn engine(
    addr: SocketAddr,
    data: PathBuf,
    until: Instant,
    mut reply: impl FnMut(Instant, Option<Duration>),
) -> Vec<String> {
    let mut notes = Vec::new();
    let solo = engine_room(addr, &data, "solo", "es").await;
    if let Ok((terminal, path)) = &solo {
        let alone = match engine_round(terminal, path, Instant::now() + PATIENCE).await {
            Ok(took) => format!("{:.0} ms", took.as_secs_f64() * 1e3),
            Err(error) => error,
        };
        notes.push(format!(
            "the legitimate engine room's reply before the flood: {alone}"
        ));
    }
    let opening: Vec<_> = (0..20)
        .map(|i| {
            let data = data.clone();
            tokio::spawn(async move {
                engine_room(addr, &data, &format!("en{i}"), &format!("e{i}")).await
            })
        })
        .collect();
    let rooms: Vec<_> = join_all(opening).await;
    let opened = rooms.iter().filter(|r| r.is_ok()).count();
    let refusal = rooms.iter().find_map(|r| r.as_ref().err().cloned());
    // Every flood room asks at once, and again after each reply.
    let flood: Vec<_> = rooms
        .into_iter()
        .flatten()
        .map(|(terminal, path)| {
            tokio::spawn(async move {
                let mut replies = 0;
                while engine_round(&terminal, &path, until).await.is_ok() {
                    replies += 1;
                }
                hang_up(&terminal.handle).await;
                Ok::<u64, String>(replies)
            })
        })
        .collect();
    match solo {
        Ok((terminal, path)) => {
            sleep(Duration::from_millis(200)).await;
            while Instant::now() < until {
                let at = Instant::now();
                let took = engine_round(&terminal, &path, at + PATIENCE).await;
                reply(at, took.ok());
            }
            hang_up(&terminal.handle).await;
        }
        Err(error) => notes.push(format!("the legitimate engine room failed: {error}")),
    }
    notes.push(format!(
        "{opened} of 20 flood engine rooms opened{}",
        refusal.map_or(String::new(), |e| format!(" (first refusal: {e})"))
    ));
    notes.push(tally(
        "engine rooms",
        "engine replies",
        join_all(flood).await,
    ));
    notes
}
