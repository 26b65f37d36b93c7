//! Saving rooms when the disk fails: the players are told at once, the save is retried
//! until it works, stopping saves every dirty room and says truthfully when it cannot;
//! a finished game's file is never written over after a restart.
//!
//! Tests run as root here, where a read-only folder does not stop writes: the failure
//! is made real another way, by putting a regular file where the rooms folder goes.

mod server_support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use server_support::{PATIENCE, Terminal, settings, start, user_key, wait_file};

const NOT_SAVED: &str = "NOT SAVED";

/// Breaks saving in `data_dir` (the rooms folder becomes a file) until `fix`.
struct BrokenDisk {
    rooms: PathBuf,
    moved: PathBuf,
}

impl BrokenDisk {
    fn new(data_dir: &Path) -> BrokenDisk {
        let rooms = data_dir.join("rooms");
        let moved = data_dir.join("rooms.moved");
        std::fs::rename(&rooms, &moved).unwrap();
        std::fs::write(&rooms, "in the way").unwrap();
        BrokenDisk { rooms, moved }
    }

    fn fix(self) {
        std::fs::remove_file(&self.rooms).unwrap();
        std::fs::rename(&self.moved, &self.rooms).unwrap();
    }
}

/// The plies of the room saved in `path` (0 when unreadable).
fn saved_plies(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    xiangqi_tui::server::parse_room(&text)
        .ok()
        .flatten()
        .map_or(0, |room| room.game.ply())
}

/// Waits until the room saved in `path` has `plies` moves.
async fn wait_plies(path: &Path, plies: usize) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while saved_plies(path) != plies {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not {plies} plies on file: {}",
            std::fs::read_to_string(path).unwrap_or_default()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Ann hosts room k1 (Black), bob joins (Red); two moves are played and saved.
async fn a_room_with_two_moves(addr: std::net::SocketAddr, path: &Path) -> (Terminal, Terminal) {
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human k1")).await;
    ann.wait_text("room k1").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join k1")).await;
    bob.wait_text("room k1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    wait_plies(path, 2).await;
    (ann, bob)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_save_is_told_to_the_players_retried_and_flushed_on_stop() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let path = dir.path().join("rooms").join("k1.pgn");
    let (mut ann, mut bob) = a_room_with_two_moves(server.addr, &path).await;

    let broken = BrokenDisk::new(dir.path());
    bob.command("h0g2").await;
    for terminal in [&mut ann, &mut bob] {
        terminal.wait_move(2, "h0g2").await;
        terminal.wait_text(NOT_SAVED).await;
        terminal.wait_text("this game is NOT being saved").await;
    }
    // Play goes on, still told.
    ann.command("i9h9").await;
    bob.wait_move(3, "i9h9").await;
    assert!(bob.text().contains(NOT_SAVED), "{}", bob.text());

    // Once the disk works again, a retry saves everything and the warning goes.
    broken.fix();
    wait_plies(&path, 4).await;
    for terminal in [&mut ann, &mut bob] {
        terminal
            .wait_for("the warning gone", |screen| !screen.contains(NOT_SAVED))
            .await;
        terminal.wait_text("the game is saved again").await;
    }

    // Failing again, fixed, then stopped: the stop saves what is dirty (or the retry
    // did already); nothing is left unsaved.
    let broken = BrokenDisk::new(dir.path());
    bob.command("i0h0").await;
    bob.wait_move(4, "i0h0").await;
    bob.wait_text(NOT_SAVED).await;
    broken.fix();
    let unsaved = server.stop(Duration::from_secs(2)).await;
    assert_eq!(unsaved, []);
    assert_eq!(saved_plies(&path), 5);
    ann.wait_text("your game is saved").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_while_saves_fail_says_so_and_the_next_start_has_the_last_saved_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let path = dir.path().join("rooms").join("k1.pgn");
    let (mut ann, mut bob) = a_room_with_two_moves(server.addr, &path).await;

    let broken = BrokenDisk::new(dir.path());
    bob.command("h0g2").await;
    ann.wait_text(NOT_SAVED).await;
    let unsaved = server.stop(Duration::from_secs(2)).await;
    assert_eq!(unsaved.len(), 1, "{unsaved:?}");
    assert_eq!(unsaved[0].0, "k1");
    assert!(unsaved[0].1.contains("k1.pgn: "), "{unsaved:?}");
    for terminal in [&mut ann, &mut bob] {
        terminal.wait_text("this game could NOT be saved").await;
        terminal.wait_closed().await;
    }
    broken.fix();
    assert_eq!(saved_plies(&path), 2);

    let server = start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("resumed your game").await;
    ann.wait_move(1, "h9g7").await;
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_rooms_file_is_never_written_over_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", Some(user_key(1)), Some("new human")).await;
    ann.wait_text("room r1").await;
    let mut bob = Terminal::open(server.addr, "bob", Some(user_key(2)), Some("join r1")).await;
    bob.wait_text("room r1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    ann.command(":resign").await;
    ann.type_text("y").await;
    bob.wait_text("Black resigned").await;
    let path = dir.path().join("rooms").join("r1.pgn");
    let finished = wait_file(&path, "the result", |text| {
        text.contains("[Result \"1-0\"]")
    })
    .await;
    // Its name is not handed out again while the server runs.
    let mut cy = Terminal::open(server.addr, "cy", None, Some("new human r1")).await;
    cy.wait_text("room r1 holds a finished game: choose another name")
        .await;
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);

    // Nor after a restart: numbers go on past it, and the name is refused.
    let server = start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", Some(user_key(1)), Some("new human")).await;
    ann.wait_text("room r2").await;
    let mut cy = Terminal::open(server.addr, "cy", None, Some("new human r1")).await;
    cy.wait_text("room r1 holds a finished game: choose another name")
        .await;
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), finished);
    assert!(dir.path().join("rooms").join("r2.pgn").exists());
}
