//! What the server refuses (bad commands, no pty, subsystems, forwarding, passwords)
//! and that a client that stops reading holds up nobody else.

use crate::server_support;

use std::sync::Arc;
use std::time::Duration;

use russh::ChannelMsg;
use russh::client;
use server_support::{Client, Seen, Terminal, exec, settings, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_without_a_pty_bad_commands_and_other_requests_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let (out, err, status) = exec(addr, "fly away").await;
    assert_eq!(status, Some(2));
    assert_eq!(out, "");
    assert_eq!(
        err,
        format!(
            "unknown command 'fly'; usage: {}\n",
            xiangqi_app::game::LOBBY_USAGE
        )
    );
    let (out, _, status) = exec(addr, "join bad_name").await;
    assert_eq!((out.as_str(), status), ("", Some(2)));
    let (out, _, status) = exec(addr, "rooms").await;
    assert_eq!((out.as_str(), status), ("no rooms\n", Some(0)));
    let (out, _, status) = exec(addr, "help").await;
    assert_eq!(status, Some(0));
    assert!(
        out.starts_with("new engine [ROOM] [CONTROL] a game against the engine"),
        "{out}"
    );
    let (_, err, status) = exec(addr, "new human k1").await;
    assert_eq!(status, Some(1));
    assert!(err.contains("needs a terminal"), "{err}");

    // A shell without a pty: one line, and the channel closes.
    let (handle, _) = server_support::connect(addr, "ann", None).await;
    let mut channel = handle.channel_open_session().await.unwrap();
    channel.request_shell(true).await.unwrap();
    let mut status = None;
    while let Some(message) = channel.wait().await {
        if let ChannelMsg::ExitStatus { exit_status } = message {
            status = Some(exit_status);
        }
    }
    assert_eq!(status, Some(1));

    // A subsystem and agent forwarding are refused on the channel.
    let mut channel = handle.channel_open_session().await.unwrap();
    channel.request_subsystem(true, "sftp").await.unwrap();
    assert!(matches!(channel.wait().await, Some(ChannelMsg::Failure)));
    // Port forwarding either way is refused.
    assert!(
        handle
            .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5000)
            .await
            .is_err()
    );
    assert!(handle.tcpip_forward("127.0.0.1", 0).await.is_err());

    // Passwords are never accepted (nor offered).
    let config = Arc::new(client::Config::default());
    let mut handle = client::connect(config, addr, Client::for_tests(Seen::default()))
        .await
        .unwrap();
    let result = handle.authenticate_password("ann", "secret").await.unwrap();
    assert!(!result.success());
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_does_not_hold_up_another_room() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    // Room "busy": two players, and a spectator with a huge window that never reads.
    let mut ann = Terminal::open(addr, "ann", None, Some("new human busy")).await;
    ann.wait_text("room busy").await;
    let mut bob = Terminal::open(addr, "bob", None, Some("join busy")).await;
    bob.wait_text("room busy").await;
    let stalled_config = Arc::new(client::Config {
        window_size: 16 * 1024,
        ..Default::default()
    });
    let mut stalled = client::connect(stalled_config, addr, Client::for_tests(Seen::default()))
        .await
        .unwrap();
    assert!(matches!(
        stalled
            .authenticate_keyboard_interactive_start("stall", None)
            .await
            .unwrap(),
        client::KeyboardInteractiveAuthResponse::Success
    ));
    let stalled_channel = stalled.channel_open_session().await.unwrap();
    stalled_channel
        .request_pty(false, "xterm-256color", 400, 150, 0, 0, &[])
        .await
        .unwrap();
    stalled_channel.exec(false, "watch busy").await.unwrap();

    // Room "calm": two other players.
    let mut cy = Terminal::open(addr, "cy", None, Some("new human calm")).await;
    cy.wait_text("room calm").await;
    let mut dan = Terminal::open(addr, "dan", None, Some("join calm")).await;
    dan.wait_text("room calm").await;

    let moves = [
        "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "c6c5",
    ];
    for (ply, mv) in moves.iter().enumerate() {
        // Busy room: a move and chat, each a redraw for the stalled spectator.
        // The hosts (ann, cy) sit on Black: the guests open.
        let (busy_mover, busy_other) = if ply % 2 == 0 {
            (&mut bob, &mut ann)
        } else {
            (&mut ann, &mut bob)
        };
        busy_mover.command(mv).await;
        busy_mover
            .command(&format!(":say move {ply} is {mv}"))
            .await;
        busy_other.wait_text(&format!("move {ply} is {mv}")).await;
        // Calm room: the same move reaches the other player.
        let (calm_mover, calm_other) = if ply % 2 == 0 {
            (&mut dan, &mut cy)
        } else {
            (&mut cy, &mut dan)
        };
        calm_mover.command(mv).await;
        calm_other.wait_move(ply, mv).await;
    }
    // Every move of both rooms is on file, in order (stopping saves what is dirty).
    drop(stalled_channel);
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
    for room in ["busy", "calm"] {
        let text = server_support::saved_room(dir.path(), room).unwrap();
        let saved = xiangqi_server::parse_room(&text).unwrap().unwrap();
        let played: Vec<String> = saved.game.moves().map(|mv| mv.iccs()).collect();
        assert_eq!(played, moves, "{room}");
    }
}
