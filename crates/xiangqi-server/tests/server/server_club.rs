//! Rooms that play like a club, through the in-process SSH client: a clock whose flag
//! falls ends the game, `:rematch` swaps the colours, `play` pairs two players, joins,
//! drops, returns and spectators are told in the room's log, and the creator is shown
//! the line the opponent types. Results are asserted, never how long anything took.

use crate::server_support;

use std::num::NonZeroU16;
use std::time::Duration;

use server_support::{Terminal, settings, start, user_key, wait_archived, wait_room};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_with_a_clock_ends_on_time_and_its_creator_sees_the_join_line() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    // Half a second a move: Red's first move starts Black's clock, and Black (ann,
    // the creator) does not move.
    let mut ann = Terminal::open(
        addr,
        "ann",
        Some(user_key(1)),
        Some("new human c1 0.5s/move"),
    )
    .await;
    ann.wait_text("room c1").await;
    ann.wait_text(&format!("ssh -t 127.0.0.1 -p {} join c1", addr.port()))
        .await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join c1")).await;
    bob.wait_text("room c1").await;
    bob.command("h2e2").await;
    for terminal in [&mut ann, &mut bob] {
        terminal.wait_text("Black's flag fell (1-0)").await;
        // The result popup, as at home.
        terminal.wait_text("Red wins by time").await;
        terminal.wait_text(":rematch").await;
    }
    // The finished game goes to the archive with its clock.
    let archived = wait_archived(dir.path(), 1, "the game lost on time", |text| {
        text.contains("[Result \"1-0\"]")
    })
    .await;
    assert!(archived.contains("[TimeControl \"1/0.5\"]"), "{archived}");
    assert!(
        archived.contains("[Termination \"time forfeit\"]"),
        "{archived}"
    );
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_needs_both_players_and_swaps_the_colours() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human c2 10+5")).await;
    ann.wait_text("room c2").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join c2")).await;
    bob.wait_text("you: Red | bob").await;
    bob.command(":resign").await;
    bob.wait_text("resign this game?").await;
    bob.type_text("y").await;
    for terminal in [&mut ann, &mut bob] {
        terminal.wait_text("Red resigned (0-1)").await;
        terminal.wait_text("Black wins by resignation").await;
    }
    // The first `:rematch` is an offer shown to the other; the second agrees.
    ann.command(":rematch").await;
    bob.wait_text("Black offers a rematch (:rematch agrees)")
        .await;
    bob.type_text("r").await;
    ann.wait_text("rematch: ann plays Red, bob Black").await;
    // The new game is ann's to open, on the same clocks.
    ann.command("h2e2").await;
    bob.wait_move(0, "h2e2").await;
    ann.wait_text("you: Red | ann").await;
    ann.wait_text("| 10+5").await;
    bob.command(":say gg").await;
    bob.wait_text("you: Black | ann").await;
    server.stop(Duration::from_secs(2)).await;
}

/// The bottom line of a terminal: the status line.
fn status_line(terminal: &Terminal) -> String {
    let text = terminal.text();
    text.lines()
        .rev()
        .find(|line| !line.trim().is_empty())
        .unwrap_or_default()
        .to_owned()
}

// Issue 40: `asked to take back` stayed on the status line after the takeback was
// agreed, `rematch offered` after the rematch started. What waits for an answer is
// read from the room each time, never remembered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_waits_for_an_answer_is_on_the_status_line_only_while_it_waits() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human c3")).await;
    ann.wait_text("room c3").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join c3")).await;
    bob.wait_text("you: Red | bob").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    bob.command(":undo").await;
    bob.wait_for("the request on Red's status line", |screen| {
        screen
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|line| line.contains("Red asks to take back"))
    })
    .await;
    ann.command(":undo").await;
    bob.wait_text("the last move was taken back by agreement")
        .await;
    bob.wait_for("Red's status line without the request", |screen| {
        let line = screen
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        line.contains("you: Red")
    })
    .await;
    let line = status_line(&bob);
    assert!(!line.contains("take back"), "{line}");

    bob.command(":resign").await;
    bob.wait_text("resign this game?").await;
    bob.type_text("y").await;
    ann.wait_text("Black wins by resignation").await;
    ann.type_text("\x1b").await;
    ann.command(":rematch").await;
    bob.wait_text("Black offers a rematch (:rematch agrees)")
        .await;
    bob.type_text("r").await;
    ann.wait_text("rematch: ann plays Red, bob Black").await;
    ann.wait_for("ann's status line as Red", |screen| {
        let line = screen
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        line.contains("you: Red")
    })
    .await;
    let line = status_line(&ann);
    assert!(!line.contains("rematch"), "{line}");
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_pairs_two_players_of_the_same_clock() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("play 5+3")).await;
    ann.wait_text("room r1").await;
    ann.wait_text("join r1").await;
    // Another clock opens another room.
    let mut cy = Terminal::open(addr, "cy", Some(user_key(3)), Some("play 3+2")).await;
    cy.wait_text("room r2").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("play 5+3")).await;
    bob.wait_text("room r1").await;
    bob.wait_text("you: Red | bob").await;
    bob.wait_text("| 5+3").await;
    ann.wait_text("* bob joins as Red").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joins_spectators_drops_returns_and_leaves_are_told_in_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human c4")).await;
    ann.wait_text("room c4").await;
    let bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join c4")).await;
    ann.wait_text("* bob joins as Red").await;
    let _cy = Terminal::open(addr, "cy", Some(user_key(3)), Some("watch c4")).await;
    ann.wait_text("* cy watches").await;
    // Bob's link drops without a goodbye.
    drop(bob);
    ann.wait_text("* bob dropped").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), None).await;
    bob.wait_text("resumed your game").await;
    ann.wait_text("* bob is back").await;
    bob.command(":leave").await;
    ann.wait_text("* bob left").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_80x24_room_shows_both_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human c5 10+5")).await;
    ann.wait_text("room c5").await;
    ann.channel.window_change(80, 24, 0, 0).await.unwrap();
    ann.screen
        .set_size(NonZeroU16::new(24).unwrap(), NonZeroU16::new(80).unwrap());
    // No clock runs before Red's first move: both show the whole time.
    ann.wait_for("both clocks at 80x24", |screen| {
        screen
            .lines()
            .any(|line| line.contains(" R 10:00  B 10:00 "))
    })
    .await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join c5")).await;
    bob.wait_text("room c5").await;
    bob.command("h2e2").await;
    // Red's first move was free; Black's clock runs now.
    ann.wait_for("Black's clock running", |screen| {
        screen.lines().any(|line| line.contains(" R 10:00 >B "))
    })
    .await;
    let screen = ann.text();
    assert_eq!(screen.lines().count(), 24, "{screen}");
    assert!(
        screen.lines().all(|line| line.chars().count() <= 80),
        "{screen}"
    );
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_room_plays_on_its_clock_and_saves_both_times() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new engine e1 10+0")).await;
    ann.wait_text("room e1").await;
    ann.command("h2e2").await;
    let saved = wait_room(dir.path(), "e1", "the engine's reply", |text| {
        xiangqi_server::parse_room(text)
            .ok()
            .flatten()
            .is_some_and(|room| room.game.ply() == 2)
    })
    .await;
    assert!(saved.contains("[TimeControl \"600\"]"), "{saved}");
    // The engine's clock ran while it thought: its time left is saved with the room.
    let black_left: f64 = saved
        .lines()
        .find_map(|line| line.strip_prefix("[BlackTimeLeft \""))
        .and_then(|rest| rest.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("no BlackTimeLeft: {saved}"))
        .parse()
        .unwrap();
    assert!(black_left <= 600.0, "{saved}");
    let room = xiangqi_server::parse_room(&saved).unwrap().unwrap();
    assert_eq!(room.clock.running(), Some(xiangqi_core::board::Color::Red));
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restored_room_keeps_its_clocks_and_the_side_to_moves_runs_on() {
    let dir = tempfile::tempdir().unwrap();
    let first = start(settings(dir.path())).await;
    let mut ann = Terminal::open(
        first.addr,
        "ann",
        Some(user_key(1)),
        Some("new human c6 10+5"),
    )
    .await;
    ann.wait_text("room c6").await;
    let mut bob = Terminal::open(first.addr, "bob", Some(user_key(2)), Some("join c6")).await;
    bob.wait_text("room c6").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    first.stop(Duration::from_secs(2)).await;
    ann.wait_closed().await;
    bob.wait_closed().await;

    let second = start(settings(dir.path())).await;
    let mut ann = Terminal::open(second.addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("resumed your game").await;
    // Red's first move was free; Black's clock runs again, from the time it had left.
    ann.wait_for("Black's clock running after the restart", |screen| {
        screen.lines().any(|line| line.contains(" R 10:00 >B "))
    })
    .await;
    second.stop(Duration::from_secs(2)).await;
}
