//! The server with the real OpenSSH client in real ptys (tmux panes): the lobby, a
//! room opened by one person and joined by another, a move in Chinese seen by both.
//! Skipped, with a note, where `ssh` or `tmux` is not installed.

use crate::server_support;

use std::process::Command;
use std::time::{Duration, Instant};

use server_support::{PATIENCE, settings, start};
use xiangqi_app::config::Notation;

pub(crate) fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("-V")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// A tmux server of its own (its own socket), killed when dropped.
pub(crate) struct Tmux {
    pub(crate) socket: String,
}

impl Tmux {
    pub(crate) fn run(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .arg("-u")
            .args(["-L", &self.socket])
            .args(args)
            .env("LANG", "C.UTF-8")
            .env("LC_ALL", "C.UTF-8")
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    pub(crate) fn screen(&self, pane: &str) -> String {
        self.run(&["capture-pane", "-p", "-t", pane])
    }

    /// Waits (bounded) until `pane` shows `text`.
    pub(crate) async fn wait_text(&self, pane: &str, text: &str) {
        let start = Instant::now();
        loop {
            let screen = self.screen(pane);
            if screen.contains(text) {
                return;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "{pane} never showed {text:?}; screen:\n{screen}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

fn ssh_command(port: u16, user: &str, command: &str) -> String {
    // A throwaway identity: no keys, no known hosts, guests through
    // keyboard-interactive (which asks nothing).
    format!(
        "ssh -t -p {port} -F /dev/null -o StrictHostKeyChecking=no \
         -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o PubkeyAuthentication=no \
         -o PreferredAuthentications=keyboard-interactive {user}@127.0.0.1 {command}"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openssh_clients_open_join_and_see_a_chinese_move() {
    if !installed("ssh") || !installed("tmux") {
        eprintln!("note: skipped, needs the OpenSSH client and tmux");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.config.settings.notation = Notation::Chinese;
    let server = start(settings).await;
    let port = server.addr.port();
    let tmux = Tmux {
        socket: format!("xq-test-{}", std::process::id()),
    };
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "first",
        "-x",
        "120",
        "-y",
        "36",
        &ssh_command(port, "ann", ""),
    ]);
    tmux.wait_text("first", "xiangqi rooms").await;
    tmux.run(&["send-keys", "-t", "first", "-l", "new human k7"]);
    tmux.run(&["send-keys", "-t", "first", "Enter"]);
    tmux.wait_text("first", "room k7").await;

    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "second",
        "-x",
        "120",
        "-y",
        "36",
        &ssh_command(port, "bob", ""),
    ]);
    tmux.wait_text("second", "xiangqi rooms").await;
    tmux.run(&["send-keys", "-t", "second", "-l", "join k7"]);
    tmux.run(&["send-keys", "-t", "second", "Enter"]);
    tmux.wait_text("second", "room k7").await;
    tmux.run(&["send-keys", "-t", "second", "-l", "炮二平五"]);
    tmux.run(&["send-keys", "-t", "second", "Enter"]);
    // In the moves pane (the input line's hint names this move too).
    tmux.wait_text("first", "1. 炮二平五").await;

    // Ctrl-C ends that session only; the server and the other session go on.
    tmux.run(&["send-keys", "-t", "second", "C-c"]);
    tmux.wait_text("first", "bob (guest) (away)").await;
    server.stop(Duration::from_secs(2)).await;
}

/// Issue 39 with the real client: a name with a zero-width space (it showed as `legit`
/// in `rooms`) and one with a right-to-left override are refused at sign-in, in one
/// line, and the connection closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openssh_names_that_hide_characters_are_refused_in_one_line() {
    if !installed("ssh") || !installed("tmux") {
        eprintln!("note: skipped, needs the OpenSSH client and tmux");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let port = server.addr.port();
    let tmux = Tmux {
        socket: format!("xq-names-{}", std::process::id()),
    };
    for (session, user, code) in [
        ("zw", "legit\u{200b}", "U+200B"),
        ("bidi", "a\u{202e}nn", "U+202E"),
    ] {
        // `; sleep` keeps the pane (and what ssh printed) after ssh exits.
        let command = format!("{}; sleep 30", ssh_command(port, user, ""));
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "120",
            "-y",
            "36",
            &command,
        ]);
        tmux.wait_text(
            session,
            &format!("the name has an invisible character ({code})"),
        )
        .await;
    }
    server.stop(Duration::from_secs(2)).await;
}

/// Issue 39 with the real client: three rooms opened from one address in a minute (by
/// `new … unrated`, `new … NAME CONTROL` and `play CONTROL`, which used not to count),
/// and the fourth opening is refused with when to try again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openssh_a_fourth_room_in_a_minute_is_refused_with_when_to_try_again() {
    if !installed("ssh") || !installed("tmux") {
        eprintln!("note: skipped, needs the OpenSSH client and tmux");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut limits = settings(dir.path());
    limits.rooms_per_minute = 3;
    limits.rooms_per_identity = 100;
    let server = start(limits).await;
    let port = server.addr.port();
    let tmux = Tmux {
        socket: format!("xq-rooms-{}", std::process::id()),
    };
    // Each a guest of its own (a guest has one game at a time), all from 127.0.0.1.
    for (session, command, shown) in [
        ("g0", "new human unrated", "room r"),
        ("g1", "new human h2 10+5", "room h2"),
        ("g2", "play 5+3", "room r"),
        (
            "g3",
            "new human",
            "you opened 3 rooms in the last minute, the most allowed",
        ),
    ] {
        let command = format!("{}; sleep 30", ssh_command(port, session, command));
        tmux.run(&[
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "120",
            "-y",
            "36",
            &command,
        ]);
        tmux.wait_text(session, shown).await;
    }
    server.stop(Duration::from_secs(2)).await;
}
