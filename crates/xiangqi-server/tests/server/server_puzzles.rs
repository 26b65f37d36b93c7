//! The puzzle trainer over SSH: `puzzle ID` opens it (as the lobby command or the SSH
//! command), the player solves it on the board, and a key holder's rating and history
//! are kept in the server's store; a guest's are not.

use crate::server_support;

use std::time::Duration;

use russh::keys::HashAlg;
use server_support::{Terminal, settings, start, user_key};
use xiangqi_server::store::{SqliteStore, Store};

/// 胡榮華 – 鄭守賢 (1982), a mate in 2: 车三进七 象5退7 炮七进七.
const PUZZLE: &str = "037e93e1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_holder_solves_a_puzzle_and_the_store_keeps_the_rating_a_guest_leaves_none() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("puzzle 037e93e1")).await;
    ann.wait_text("Red to move, mate in 2").await;
    ann.wait_text("you 1500?").await;
    ann.command("g2g9").await;
    ann.command("c2c9").await;
    ann.wait_text("solved!").await;
    ann.wait_text("rating 1500 -> 1620").await;
    // Back to the lobby, then the trainer again: the rating is the store's.
    ann.type_text("\x18").await;
    ann.wait_text("rooms").await;
    ann.command("puzzle mate 1").await;
    ann.wait_text("you 1620?").await;

    // A guest solves the same puzzle: its rating lives in its session only.
    let mut eve = Terminal::open(addr, "eve", None, None).await;
    eve.wait_text("rooms").await;
    eve.command(&format!("puzzle {PUZZLE}")).await;
    eve.wait_text("mate in 2").await;
    eve.command("g2g9").await;
    eve.command("c2c9").await;
    eve.wait_text("solved!").await;

    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
    let store = SqliteStore::open_in(dir.path()).unwrap();
    let key = user_key(1)
        .public_key()
        .fingerprint(HashAlg::Sha256)
        .to_string();
    let profile = store.puzzle_profile(&key).unwrap();
    assert_eq!(profile.history.len(), 1, "{profile:?}");
    let attempt = &profile.history[0];
    assert_eq!(attempt.puzzle, PUZZLE);
    assert!(attempt.solved && attempt.rated);
    assert_eq!(profile.rating.rating.round(), 1620.0);
    assert!(profile.puzzles.contains_key(PUZZLE));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endgame_school_over_ssh_generates_a_small_table_and_grades_the_moves() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", None, Some("drill KRK")).await;
    // Generated on the spot in the server's data directory.
    ann.wait_text("Endgame school: KRK").await;
    ann.wait_text("optimum: mate in 2").await;
    assert!(dir.path().join("egtb").read_dir().unwrap().count() >= 2);
    ann.command("a0a8").await;
    ann.wait_text("+0").await;
    ann.command("a8e8").await;
    ann.wait_text("PASSED").await;
    ann.type_text("\x18").await;
    ann.wait_text("rooms").await;
    // The lessons list, then Esc: back to the lobby.
    ann.command("drill").await;
    ann.wait_text("Endgame school: lessons").await;
    ann.type_text("\x1b").await;
    ann.wait_for("the lobby", |screen| !screen.contains("Endgame school"))
        .await;
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
}
