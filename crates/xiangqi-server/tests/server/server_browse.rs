//! Browsing a room's game (issue 26): each viewer steps back and forth on their own
//! screen; the shared game is never changed by it, and a move from an earlier position
//! is refused (moves are taken back only by agreement in a room).

use crate::server_support;

use std::time::Duration;

use server_support::{Terminal, settings, start, user_key, wait_room};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browsing_in_a_room_is_per_viewer_and_never_changes_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("xiangqi rooms").await;
    ann.command("new human br").await;
    ann.wait_text("room br").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join br")).await;
    bob.wait_text("room br").await;
    let mut eve = Terminal::open(addr, "eve", None, Some("watch br")).await;
    eve.wait_text("room br").await;
    ann.wait_text("bob").await;

    // bob has Red, ann Black.
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    bob.command("h0g2").await;
    for terminal in [&mut ann, &mut eve] {
        terminal.wait_move(2, "h0g2").await;
    }

    // The spectator looks two moves back; the players' screens do not change.
    eve.type_text("[[").await;
    eve.wait_text("ply 1/3 shown").await;
    // ann (to move) looks back to a position with Black to move and tries a move
    // there: refused, nothing sent.
    ann.type_text("[[").await;
    ann.wait_text("ply 1/3 shown").await;
    ann.command("b9c7").await;
    ann.wait_text("you are looking back").await;
    assert!(!bob.text().contains("shown"), "{}", bob.text());
    // End: back to the game, and the move is played for the room.
    ann.type_text("\x1b[F").await;
    ann.command("i9h9").await;
    bob.wait_move(3, "i9h9").await;
    // The spectator still looks at the position chosen; the game has grown under it.
    eve.wait_move(3, "i9h9").await;
    eve.type_text("]").await;
    eve.wait_text("ply 2/4 shown").await;
    let saved = wait_room(dir.path(), "br", "four moves", |text| text.contains("i9h9")).await;
    assert!(saved.contains("1. h2e2 h9g7"), "{saved}");
    assert!(saved.contains("[Event \"xiangqi-tui room br\"]"), "{saved}");
    assert!(saved.contains("[Date \""), "{saved}");
    server.stop(Duration::from_secs(2)).await;
}
