//! What an open port gets, held (issue 31): long lines, resize storms, seats taken by
//! a guest's name, rooms without end, an engine queue without end. Each test measures
//! the work done or what the screen says, never wall time.

use crate::server_support;

use std::time::Duration;

use server_support::{Terminal, settings, start};
use xiangqi_server::search_limits;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_without_end_is_cut_at_its_bound_and_the_session_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", None, None).await;
    ann.wait_text("xiangqi rooms").await;
    // Within the input rate, far past the line's bound, never pressing Enter.
    ann.type_text(&"a".repeat(3000)).await;
    ann.wait_text("the line is full (512 characters at most)")
        .await;
    // Ctrl-U empties the line; the lobby still answers.
    ann.type_text("\u{15}").await;
    ann.command("new human k1").await;
    ann.wait_text("room k1").await;
    // The same bound on the room's move line.
    tokio::time::sleep(Duration::from_secs(1)).await; // refill the input rate
    ann.type_text(&"b".repeat(600)).await;
    ann.wait_text("the line is full").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resize_storm_costs_at_most_a_frame_per_frame_interval() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", None, None).await;
    ann.wait_text("xiangqi rooms").await;
    let before = server.stats();
    let started = std::time::Instant::now();
    const STORM: u64 = 2000;
    for i in 0..STORM {
        let (columns, rows) = if i % 2 == 0 { (80, 24) } else { (100, 30) };
        ann.channel
            .window_change(columns, rows, 0, 0)
            .await
            .unwrap();
    }
    // Back to the terminal's own size, and a command to know the storm was read.
    ann.channel
        .window_change(server_support::COLUMNS, server_support::ROWS, 0, 0)
        .await
        .unwrap();
    ann.command("new human k2").await;
    ann.wait_text("room k2").await;
    let elapsed = started.elapsed();
    let after = server.stats();
    assert_eq!(after.window_changes - before.window_changes, STORM + 1);
    // One session draws at most one frame per 33 ms interval, however many window
    // changes arrive: the bound follows from the pacing, not from the machine's speed.
    let frames = after.frames - before.frames;
    let bound = elapsed.as_millis() as u64 / 33 + 4;
    assert!(frames <= bound, "{frames} frames in {elapsed:?}");
    assert!(after.resizes - before.resizes <= frames);
    server.stop(Duration::from_secs(2)).await;
}

/// The resume code a guest was shown, as typed back.
fn resume_code(screen: &str) -> String {
    let at = screen.find("resume code ").expect("no resume code shown");
    screen[at + "resume code ".len()..][..9].to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_seat_is_taken_again_only_with_its_code_and_names_are_not_shared() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", None, Some("new human g1")).await;
    ann.wait_text("resume code ").await;
    let code = resume_code(&ann.text());
    let mut bob = Terminal::open(addr, "bob", None, Some("join g1")).await;
    bob.wait_text("room g1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;

    // While bob is here nobody else is bob; a name is never cut to fit.
    let mut fake = Terminal::open(addr, "bob", None, None).await;
    fake.wait_text("the name bob (guest) is in use").await;
    assert_eq!(fake.wait_closed().await, Some(1));
    let mut long = Terminal::open(addr, "bobbybobbybobbyb0b", None, None).await;
    long.wait_text("the name is too long").await;

    // Ann's link drops. Her name is free again, but her seat is not her name's.
    drop(ann);
    bob.wait_text("ann (guest) (away)").await;
    let mut ann = Terminal::open(addr, "ann", None, Some("join g1")).await;
    ann.wait_text("no open seat").await;
    ann.command("resume 0000-0000").await;
    ann.wait_text("no unfinished game has the resume code 0000-0000")
        .await;
    ann.command(&format!("resume {}", code.to_lowercase()))
        .await;
    ann.wait_text("resumed your game").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    // From the SSH command line too.
    let mut again = Terminal::open(addr, "ann2", None, Some(&format!("resume {code}"))).await;
    again.wait_text("resumed your game").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_are_bounded_in_total_and_per_player_and_empty_ones_expire() {
    let dir = tempfile::tempdir().unwrap();
    let mut bounded = settings(dir.path());
    bounded.max_rooms = 2;
    let server = start(bounded).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", None, Some("new human a1")).await;
    ann.wait_text("room a1").await;
    // A named room obeys the same rule as an unnamed one: one unfinished game.
    ann.command(":leave").await;
    ann.wait_text("xiangqi rooms").await;
    ann.command("new human a2").await;
    ann.wait_text("you have an unfinished game").await;
    let mut bob = Terminal::open(addr, "bob", None, Some("new human b1")).await;
    bob.wait_text("room b1").await;
    let mut cy = Terminal::open(addr, "cy", None, Some("new human c1")).await;
    cy.wait_text("the server has 2 rooms open, its limit").await;
    server.stop(Duration::from_secs(2)).await;

    // Rooms nobody is in, with nothing played, close.
    let dir = tempfile::tempdir().unwrap();
    let mut expiring = settings(dir.path());
    expiring.room_expiry = Duration::ZERO;
    let server = start(expiring).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", None, Some("new human a1")).await;
    ann.wait_text("room a1").await;
    server_support::wait_room(dir.path(), "a1", "room a1", |text| !text.is_empty()).await;
    drop(ann);
    let mut bob = Terminal::open(addr, "bob", None, Some("new human b1")).await;
    bob.wait_text("room b1").await;
    bob.command(":leave").await;
    bob.wait_text("xiangqi rooms").await;
    bob.wait_for("a1 closed", |screen| {
        screen.contains("b1") && !screen.contains("a1 ")
    })
    .await;
    // Its record goes too (off the async workers: wait for it).
    let deadline = std::time::Instant::now() + server_support::PATIENCE;
    while server_support::saved_room(dir.path(), "a1").is_some() {
        assert!(
            std::time::Instant::now() < deadline,
            "room a1 is still in the store"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_queue_is_bounded_and_a_waiting_room_sees_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let mut busy = settings(dir.path());
    busy.engine_threads = 1;
    busy.engine_limits = search_limits(None, None, Some(4000));
    busy.jobs_queue = 1;
    let server = start(busy).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", None, Some("new engine e1")).await;
    ann.wait_text("room e1").await;
    ann.command("h2e2").await;
    ann.wait_text("Black thinks").await;
    // The one engine thinks for ann: bob's room waits, and says where it stands.
    let mut bob = Terminal::open(addr, "bob", None, Some("new engine e2")).await;
    bob.wait_text("room e2").await;
    bob.command("h2e2").await;
    bob.wait_text("your game is number 1 in their queue").await;
    // The queue is full: no new engine room until it moves.
    let mut cy = Terminal::open(addr, "cy", None, Some("new engine e3")).await;
    cy.wait_text("the engines are busy (1 jobs waiting").await;
    // Each room gets its reply, in turn.
    ann.wait_text("1. ").await;
    bob.wait_text("Black thinks").await;
    server.stop(Duration::from_secs(2)).await;
}
