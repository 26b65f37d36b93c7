//! `/metrics` read as Prometheus reads it, over plain HTTP on a TcpStream: the series
//! are there and move with what happens in the rooms; anything but `GET /metrics` gets
//! a status line, and the listener keeps answering.

use crate::server_support;

use std::net::SocketAddr;
use std::time::Duration;

use server_support::{PATIENCE, Terminal, settings, start, user_key};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Sends `request` and reads the whole answer (the server closes after it).
async fn ask(addr: SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer))
        .await
        .expect("no answer")
        .unwrap();
    String::from_utf8(answer).unwrap()
}

async fn scrape(addr: SocketAddr) -> String {
    let answer = ask(addr, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    assert!(
        answer.contains("Content-Type: application/openmetrics-text"),
        "{answer}"
    );
    assert!(answer.ends_with("# EOF\n"), "{answer}");
    answer
}

/// The value of the series `name` (without labels) in a scrape.
fn value(scrape: &str, name: &str) -> u64 {
    let prefix = format!("{name} ");
    scrape
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {name} in {scrape}"))
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_show_the_series_and_they_move_with_the_games() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.metrics = Some("127.0.0.1:0".parse().unwrap());
    let server = start(settings).await;
    let metrics = server.metrics_addr.expect("metrics are served");

    let before = scrape(metrics).await;
    for (name, kind) in [
        ("xiangqi_sessions_open", "gauge"),
        ("xiangqi_connections_open", "gauge"),
        ("xiangqi_rooms_open", "gauge"),
        ("xiangqi_engine_queue_length", "gauge"),
        ("xiangqi_jobs_running", "gauge"),
        ("xiangqi_jobs_refused", "counter"),
        ("xiangqi_jobs_cancelled", "counter"),
        ("xiangqi_games_finished", "counter"),
        ("xiangqi_moves", "counter"),
        ("xiangqi_frames_drawn", "counter"),
        ("xiangqi_frames_dropped", "counter"),
        ("xiangqi_input_dropped_bytes", "counter"),
        ("xiangqi_store_writes", "counter"),
    ] {
        assert!(
            before.contains(&format!("# TYPE {name} {kind}\n")),
            "{name}: {before}"
        );
    }
    assert_eq!(value(&before, "xiangqi_sessions_open"), 0);
    assert_eq!(value(&before, "xiangqi_rooms_open"), 0);
    assert_eq!(value(&before, "xiangqi_moves_total"), 0);
    assert_eq!(value(&before, "xiangqi_games_finished_total"), 0);

    let mut ann = Terminal::open(server.addr, "ann", Some(user_key(1)), Some("new human m1")).await;
    ann.wait_text("room m1").await;
    let mut bob = Terminal::open(server.addr, "bob", Some(user_key(2)), Some("join m1")).await;
    bob.wait_text("room m1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    let playing = scrape(metrics).await;
    assert_eq!(value(&playing, "xiangqi_sessions_open"), 2);
    assert_eq!(value(&playing, "xiangqi_connections_open"), 2);
    assert_eq!(value(&playing, "xiangqi_rooms_open"), 1);
    assert_eq!(value(&playing, "xiangqi_moves_total"), 2);
    assert_eq!(value(&playing, "xiangqi_games_finished_total"), 0);
    assert!(
        value(&playing, "xiangqi_frames_drawn_total")
            > value(&before, "xiangqi_frames_drawn_total")
    );
    // Each move is committed to the store before the opponent sees it.
    assert!(
        value(&playing, "xiangqi_store_writes_total")
            >= value(&before, "xiangqi_store_writes_total") + 2
    );

    bob.command(":resign").await;
    bob.type_text("y").await;
    ann.wait_text("0-1").await;
    let over = scrape(metrics).await;
    assert_eq!(value(&over, "xiangqi_games_finished_total"), 1);
    assert_eq!(value(&over, "xiangqi_moves_total"), 2);
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anything_but_a_scrape_gets_a_status_line_and_the_listener_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.metrics = Some("127.0.0.1:0".parse().unwrap());
    let server = start(settings).await;
    let metrics = server.metrics_addr.unwrap();

    let status = |answer: String| answer.lines().next().unwrap_or("").to_owned();
    assert_eq!(
        status(ask(metrics, b"GET / HTTP/1.1\r\n\r\n").await),
        "HTTP/1.1 404 Not Found"
    );
    assert_eq!(
        status(ask(metrics, b"POST /metrics HTTP/1.1\r\n\r\n").await),
        "HTTP/1.1 405 Method Not Allowed"
    );
    assert_eq!(
        status(ask(metrics, b"\x00\xff garbage\r\n\r\n").await),
        "HTTP/1.1 400 Bad Request"
    );
    // A head that never ends is cut at the size bound.
    assert_eq!(
        status(ask(metrics, &[b'A'; 64 * 1024]).await),
        "HTTP/1.1 400 Bad Request"
    );
    // A query string is a scrape too.
    assert!(
        ask(metrics, b"GET /metrics?x=1 HTTP/1.0\r\n\r\n")
            .await
            .starts_with("HTTP/1.1 200 OK")
    );
    scrape(metrics).await;
    server.stop(Duration::from_secs(2)).await;
}

/// Issue 39: silent connections held open kept every place of the listener (8 at once,
/// 5 s each), so a scrape waited behind all of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_do_not_starve_a_scrape() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.metrics = Some("127.0.0.1:0".parse().unwrap());
    let server = start(settings).await;
    let metrics = server.metrics_addr.unwrap();
    let mut silent = Vec::new();
    for _ in 0..200 {
        silent.push(TcpStream::connect(metrics).await.unwrap());
    }
    // Each one accepted at once, and the oldest of them let go for the newer.
    let answer = ask(metrics, b"GET /metrics HTTP/1.1\r\n\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
    let mut dropped = 0;
    for mut stream in silent {
        let mut byte = [0u8; 1];
        if let Ok(Ok(0)) =
            tokio::time::timeout(Duration::from_millis(1), stream.read(&mut byte)).await
        {
            dropped += 1;
        }
    }
    assert!(dropped >= 200 - 64, "{dropped} silent connections let go");
    server.stop(Duration::from_secs(2)).await;
}
