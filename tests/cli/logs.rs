//! `--log FILE` and `serve`'s standard error, through `tracing`, run as a user runs them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// The server is stopped with SIGTERM, which only Unix has.
#[cfg(unix)]
#[test]
fn serve_prints_its_lines_as_before_and_logs_them_to_the_file() {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("serve.log");
    let log_flags = ["--log".as_ref(), log.as_os_str()];
    let (mut server, seen) = serve_until_sigterm(folder.path(), &log_flags);
    assert!(server.wait().unwrap().success(), "{seen:?}");
    for line in &seen {
        assert!(line.starts_with("xiangqi-tui serve: "), "{seen:?}");
        assert!(!line.contains("INFO"), "{seen:?}");
    }
    assert!(
        seen.iter()
            .any(|l| l.starts_with("xiangqi-tui serve: listening on 127.0.0.1:"))
    );
    assert!(
        seen.iter()
            .any(|l| l == "xiangqi-tui serve: stopped; every room is saved")
    );
    let file = std::fs::read_to_string(&log).unwrap();
    assert!(
        file.contains(" INFO ") && file.contains("listening on 127.0.0.1:"),
        "{file}"
    );
    assert!(file.contains("stopped; every room is saved"), "{file}");
}

#[cfg(unix)]
#[test]
fn serve_log_format_json_prints_one_object_a_line_with_the_events_fields() {
    let folder = tempfile::tempdir().unwrap();
    let (mut server, seen) =
        serve_until_sigterm(folder.path(), &["--log-format".as_ref(), "json".as_ref()]);
    assert!(server.wait().unwrap().success(), "{seen:?}");
    let events: Vec<serde_json::Value> = seen
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("not JSON: {line}")))
        .collect();
    for event in &events {
        assert_eq!(event["level"], "INFO", "{event}");
        assert_eq!(event["target"], "xiangqi_server", "{event}");
    }
    let listening = events
        .iter()
        .find(|event| event["event"] == "listening")
        .expect("a listening event");
    let addr = listening["addr"].as_str().unwrap();
    assert!(addr.starts_with("127.0.0.1:"), "{listening}");
    assert!(
        listening["key"].as_str().unwrap().starts_with("SHA256:"),
        "{listening}"
    );
    assert_eq!(
        listening["message"].as_str().unwrap().split(',').next(),
        Some(format!("listening on {addr}").as_str())
    );
    assert!(
        events
            .iter()
            .any(|event| event["message"] == "stopped; every room is saved")
    );
}

/// `uci` with `--log`: the engine service's searches in the file, stdout the protocol's.
/// Runs `serve` on a free port with its data in `folder` and `flags`, waits until it
/// listens, sends SIGTERM and returns it with every line of its standard error.
#[cfg(unix)]
fn serve_until_sigterm(
    folder: &std::path::Path,
    flags: &[&std::ffi::OsStr],
) -> (std::process::Child, Vec<String>) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(folder.join("data"))
        .args(flags)
        .env("HOME", folder)
        .env("XDG_CONFIG_HOME", folder.join("config"))
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.contains("listening on")) {
        match lines.next() {
            Some(line) => seen.push(line.unwrap()),
            None => panic!("the server ended: {seen:?}"),
        }
    }
    // SIGTERM: the server saves and says so.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    seen.extend(lines.map(Result::unwrap));
    (server, seen)
}

fn uci_with_log(rust_log: &str) -> (String, String) {
    let folder = tempfile::tempdir().unwrap();
    let log = folder.path().join("uci.log");
    let mut engine = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["uci", "--log"])
        .arg(&log)
        .env("RUST_LOG", rust_log)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = engine.stdin.take().unwrap();
    writeln!(
        input,
        "uci\nisready\nposition startpos moves h2e2\ngo depth 3"
    )
    .unwrap();
    let mut out = BufReader::new(engine.stdout.take().unwrap());
    let mut text = String::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !text.contains("bestmove") {
        assert!(Instant::now() < deadline, "no bestmove: {text}");
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            break;
        }
        text.push_str(&line);
    }
    writeln!(input, "quit").unwrap();
    drop(input);
    assert!(engine.wait().unwrap().success());
    (text, std::fs::read_to_string(&log).unwrap())
}

#[test]
fn the_log_has_the_engine_service_and_the_protocol_stays_clean() {
    let (protocol, log) = uci_with_log("debug");
    assert!(
        protocol.contains("uciok") && protocol.contains("bestmove"),
        "{protocol}"
    );
    assert!(!protocol.contains("search started"), "{protocol}");
    assert!(
        log.contains("search started") && log.contains("search finished"),
        "{log}"
    );
    assert!(
        log.contains("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"),
        "{log}"
    );
    // At the default detail, no search lines.
    let (_, quiet) = uci_with_log("info");
    assert!(!quiet.contains("search started"), "{quiet}");
}

#[test]
fn a_bad_rust_log_is_a_usage_error() {
    let folder = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["moves", "--log"])
        .arg(folder.path().join("x.log"))
        .env("RUST_LOG", "xiangqi_tui=loud")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("RUST_LOG"));
}
