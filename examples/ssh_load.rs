//! Load run for `xiangqi-tui serve` (not a test: it measures).
//!
//! Starts the server binary on a loopback port with a temporary data directory, then
//! 2 x ROOMS clients (russh, in this process) play in ROOMS rooms for SECONDS: each pair
//! opens a room, plays a ten-move opening, resigns, opens the next room, and so on. Reports the
//! move-to-opponent-screen latency (from sending the move's Enter to the move showing on
//! the opponent's emulated screen), the server's CPU time and memory per session, and
//! checks every game in the archive against the moves sent.
//!
//! cargo run --profile test --example ssh_load -- SERVER_BINARY [ROOMS] [SECONDS]

mod support;

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{MOVES, ServerStart, Terminal, percentile, play_game, start_server, usage};

/// The store's write transactions so far, from the server's `/metrics`.
fn store_writes(port: u16) -> f64 {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return f64::NAN;
    };
    let _ = stream.write_all(b"GET /metrics HTTP/1.0\r\nHost: load\r\n\r\n");
    let mut text = String::new();
    let _ = stream.read_to_string(&mut text);
    text.lines()
        .find_map(|line| line.strip_prefix("xiangqi_store_writes_total "))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or(f64::NAN)
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
        let played = play_game(&mut black, &mut red, &room, Duration::ZERO, |_, took| {
            latencies.extend(took)
        })
        .await?;
        rooms.push((room, played));
    }
    Ok((latencies, rooms))
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
    let metrics_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .unwrap();
    let config = format!(
        "notation = \"iccs\"\n[server]\nmax_per_address = 500\n\
         input_bytes_per_second = 4096\nmax_rooms = 100000\nrooms_per_minute = 10000\n\
         rooms_per_identity = 10000\n\
         max_startups_per_address = 500\nmax_startups = \"500:30:1000\"\n\
         metrics = \"127.0.0.1:{metrics_port}\"\n"
    );
    // Every client comes from 127.0.0.1: allow them all from one address (the room
    // openings and the rooms with a game on too). The pairs finish a game every few
    // seconds and finished rooms count until they expire.
    let (mut server, addr) = start_server(ServerStart {
        binary: &binary,
        data: data.path(),
        config: &config,
        open_files: None,
        log: std::env::var_os("LOAD_LOG").map_or_else(Stdio::null, |path| {
            std::fs::File::create(path).unwrap().into()
        }),
    });
    let (cpu_before, rss_before, _) = usage(server.id());
    let writes_before = store_writes(metrics_port);
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
    let writes = store_writes(metrics_port) - writes_before;
    // A move is committed before the opponent sees it; stopping the server (SIGTERM)
    // first still lets it finish what it is writing before the store is read.
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let _ = server.wait();
    // Every game in the archive (the pairs resign each one) holds exactly the moves
    // sent, in order; its room is named in its `Site` tag.
    let stored: std::collections::HashMap<String, String> = {
        use xiangqi_server::store::Store;
        let store = xiangqi_server::store::SqliteStore::open_in(data.path()).expect("the store");
        (1..)
            .map_while(|id| store.game(id).ok().flatten())
            .filter_map(|archived| {
                let pgn = archived.game.pgn;
                let record = xiangqi_core::record::GameRecord::from_pgn(&pgn).ok()?;
                let room = record.tag("Site")?.strip_prefix("room ")?.to_owned();
                Some((room, pgn))
            })
            .collect()
    };
    let mut lost = 0;
    for (room, played) in &played_rooms {
        let text = stored.get(room.as_str()).map_or("", String::as_str);
        let moves: Vec<String> = xiangqi_core::record::GameRecord::from_pgn(text)
            .map(|record| record.moves.iter().map(|mv| mv.iccs()).collect())
            .unwrap_or_default();
        if moves.len() != *played || moves.iter().zip(MOVES).any(|(a, b)| a != b) {
            lost += 1;
            eprintln!("{room}: saved {moves:?}, sent {played} moves");
        }
    }
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
    println!(
        "store: {writes} write transactions, {:.1} a second",
        writes / wall
    );
}
