//! The connection lifecycle: a connection must sign in within the login grace and
//! start a session within the channel grace; connections that have not signed in are
//! capped per address; every connection counts toward the limits; refused clients are
//! told why in one plain line.

use crate::server_support;

use std::net::SocketAddr;
use std::time::Duration;

use russh::Disconnect;
use server_support::{PATIENCE, Terminal, connect, settings, start};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const GREETING: &str = "SSH-2.0-xiangqi-tui\r\n";

/// Everything the server sends until it closes the connection (a reset counts as a
/// close); panics if it is still open after `PATIENCE`.
async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut text = Vec::new();
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(n)) => text.extend_from_slice(&buffer[..n]),
            Err(_) => panic!(
                "still open after {PATIENCE:?}; got {:?}",
                String::from_utf8_lossy(&text)
            ),
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

/// The server's first line: its SSH greeting when accepted, a refusal otherwise.
async fn first_line(stream: &mut TcpStream) -> String {
    let mut line = Vec::new();
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !line.ends_with(b"\n") {
        let mut byte = [0u8; 1];
        match tokio::time::timeout_at(deadline, stream.read(&mut byte)).await {
            Ok(Ok(1)) => line.push(byte[0]),
            Ok(_) => break,
            Err(_) => panic!("no line after {PATIENCE:?}"),
        }
    }
    String::from_utf8_lossy(&line).into_owned()
}

/// Connects until the server greets (a refusal while it frees a place is retried).
async fn connect_when_admitted(addr: SocketAddr) -> TcpStream {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let line = first_line(&mut stream).await;
        if line == GREETING {
            return stream;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "still refused after {PATIENCE:?}: {line:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits for `done` (panics after `PATIENCE`).
async fn eventually(what: &str, done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !done() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not {what} after {PATIENCE:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_does_not_sign_in_is_closed_after_the_login_grace() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.login_grace = Duration::from_millis(500);
    let server = start(settings).await;

    // Says nothing at all: greeted, then closed while the server waits for its banner.
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    assert_eq!(read_until_closed(&mut silent).await, GREETING);
    // Sends its banner, then nothing: closed too.
    let mut stalled = TcpStream::connect(server.addr).await.unwrap();
    stalled.write_all(b"SSH-2.0-stalled\r\n").await.unwrap();
    let text = read_until_closed(&mut stalled).await;
    assert!(text.starts_with(GREETING), "{text:?}");
    eventually("all places freed", || server.connection_count() == 0).await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unauthenticated_connections_are_capped_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.max_startups_per_address = 3;
    settings.login_grace = Duration::from_secs(600);
    let server = start(settings).await;
    let addr = server.addr;

    let mut waiting = Vec::new();
    for _ in 0..3 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        assert_eq!(first_line(&mut stream).await, GREETING);
        waiting.push(stream);
    }
    assert_eq!(server.unauthenticated_count(), 3);
    let mut refused = TcpStream::connect(addr).await.unwrap();
    assert_eq!(
        read_until_closed(&mut refused).await,
        "xiangqi-tui: too many connections from your address\r\n"
    );
    // A client with an SSH library is refused as well.
    let config = std::sync::Arc::new(russh::client::Config::default());
    let client = server_support::Client::for_tests(Default::default());
    assert!(russh::client::connect(config, addr, client).await.is_err());

    // Once they leave, the address may connect again.
    drop(waiting);
    let mut admitted = connect_when_admitted(addr).await;
    admitted.write_all(b"SSH-2.0-late\r\n").await.unwrap();
    drop(admitted);
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signed_in_connection_without_a_session_is_closed_after_the_channel_grace() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.channel_grace = Duration::from_secs(2);
    let server = start(settings).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", None, None).await;
    ann.wait_text("xiangqi rooms").await;
    // Signs in, opens no channel, answers keepalives: closed all the same.
    let (idle, _) = connect(addr, "idle", None).await;
    eventually("closed", || idle.is_closed()).await;
    // A channel opened but no shell asked for: closed too.
    let (opened, _) = connect(addr, "opened", None).await;
    let _channel = opened.channel_open_session().await.unwrap();
    eventually("closed", || opened.is_closed()).await;
    // Ann started her session in time: it is not touched, long after the grace.
    assert!(!ann.handle.is_closed());
    ann.command("new engine").await;
    ann.wait_text("room r1").await;
    // Her session ends but her client keeps the connection: closed after the grace.
    ann.type_text("\x03").await;
    ann.wait_closed().await;
    eventually("closed", || ann.handle.is_closed()).await;
    // A one-shot command still runs.
    let (out, _, status) = server_support::exec(addr, "rooms").await;
    assert_eq!(status, Some(0), "{out}");
    eventually("no connection left", || server.connection_count() == 0).await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_without_a_session_count_toward_max_per_address() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.max_per_address = 2;
    settings.channel_grace = Duration::from_secs(600);
    let server = start(settings).await;
    let addr = server.addr;

    let (first, _) = connect(addr, "one", None).await;
    let (second, _) = connect(addr, "two", None).await;
    eventually("both signed in", || {
        server.unauthenticated_count() == 0 && server.connection_count() == 2
    })
    .await;
    let mut refused = TcpStream::connect(addr).await.unwrap();
    assert_eq!(
        read_until_closed(&mut refused).await,
        "xiangqi-tui: too many sessions from your address (at most 2)\r\n"
    );
    // One leaves: a session fits again.
    first
        .disconnect(Disconnect::ByApplication, "", "")
        .await
        .unwrap();
    eventually("a place freed", || server.connection_count() == 1).await;
    let mut terminal = Terminal::open(addr, "three", None, None).await;
    terminal.wait_text("xiangqi rooms").await;
    drop(second);
    server.stop(Duration::from_secs(2)).await;
}
