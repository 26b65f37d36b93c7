//! The SSH server driven by russh's client over loopback: a game to checkmate with a
//! spectator, a player who drops and comes back, a restart that restores a room, an
//! engine room whose log shows the engine's search.

use crate::server_support;

use std::time::Duration;

use server_support::{Terminal, saved_room, settings, start, user_key, wait_archived, wait_room};
use xiangqi_core::board::Position;

/// Red mates in two: 1. i1i8 (any Black move) 2. a1a9#.
const MATE_FEN: &str = "4k4/9/9/2p6/9/9/9/9/R7R/3K5 w - - 0 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_to_checkmate_and_a_spectator_sees_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.start = Position::from_fen(MATE_FEN).unwrap();
    let server = start(settings).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("xiangqi rooms").await;
    ann.command("new human k7").await;
    ann.wait_text("room k7").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join k7")).await;
    bob.wait_text("room k7").await;
    let mut eve = Terminal::open(addr, "eve", None, Some("watch k7")).await;
    eve.wait_text("room k7").await;
    ann.wait_text("bob").await;

    // The host (ann) sits on Black; bob, who joined, opens with Red.
    bob.command("i1i8").await;
    ann.wait_move(0, "i1i8").await;
    eve.wait_move(0, "i1i8").await;
    ann.command("c6c5").await;
    bob.wait_move(1, "c6c5").await;
    eve.wait_move(1, "c6c5").await;
    bob.command("a1a9").await;
    for terminal in [&mut ann, &mut bob, &mut eve] {
        terminal.wait_move(2, "a1a9").await;
        terminal.wait_text("1-0").await;
    }
    // Finished: the game is in the archive, the room's record is gone.
    let saved = wait_archived(dir.path(), 1, "the result", |text| {
        text.contains("[Result \"1-0\"]")
    })
    .await;
    assert_eq!(saved_room(dir.path(), "k7"), None);
    assert!(saved.contains("1. i1i8 c6c5"), "{saved}");
    assert!(saved.contains("2. a1a9"), "{saved}");
    // The spectator could not move for anyone.
    eve.command("a9a8").await;
    eve.wait_text("the game is over").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_keeps_the_seat_and_resumes_with_the_same_key() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human k8")).await;
    ann.wait_text("room k8").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join k8")).await;
    bob.wait_text("room k8").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;

    // Ann's link drops without a goodbye, on her move.
    drop(ann);
    bob.wait_text("ann 1500? (away)").await;

    // Back with the same key and no command: straight to the board as it was.
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("resumed your game").await;
    ann.wait_move(0, "h2e2").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    bob.wait_for("ann back", |screen| !screen.contains("ann 1500? (away)"))
        .await;

    // Another key cannot take ann's name (it is pinned to her key), nor her seat.
    let mut other = Terminal::open(addr, "ann", Some(user_key(3)), Some("join k8")).await;
    other
        .wait_text("the name ann belongs to another player's key")
        .await;
    assert_eq!(other.wait_closed().await, Some(1));
    let mut other = Terminal::open(addr, "cy", Some(user_key(3)), Some("join k8")).await;
    other.wait_text("no open seat").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_restores_unfinished_rooms_with_the_same_host_key() {
    let dir = tempfile::tempdir().unwrap();
    let first = start(settings(dir.path())).await;
    let (_, seen_first) = server_support::connect(first.addr, "probe", None).await;

    let mut ann = Terminal::open(first.addr, "ann", Some(user_key(1)), Some("new human k9")).await;
    ann.wait_text("room k9").await;
    let mut bob = Terminal::open(first.addr, "bob", Some(user_key(2)), Some("join k9")).await;
    bob.wait_text("room k9").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    ann.command(":say back soon").await;
    bob.wait_text("ann: back soon").await;
    first.stop(Duration::from_secs(2)).await;
    ann.wait_text("the server is stopping").await;
    ann.wait_closed().await;
    bob.wait_closed().await;

    let second = start(settings(dir.path())).await;
    let (_, seen_second) = server_support::connect(second.addr, "probe", None).await;
    assert_eq!(
        seen_first.0.lock().unwrap().clone().unwrap(),
        seen_second.0.lock().unwrap().clone().unwrap(),
        "the host key changed"
    );
    let mut ann = Terminal::open(second.addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("resumed your game").await;
    ann.wait_move(0, "h2e2").await;
    let mut bob = Terminal::open(second.addr, "bob", Some(user_key(2)), None).await;
    bob.wait_text("resumed your game").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    second.stop(Duration::from_secs(2)).await;
}

// Issue 40, 4: after a restart the chat still said "Red offers a draw", but Black's
// `:draw` made a new offer instead of accepting it. What waits for an answer is kept
// with the room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_offer_and_a_takeback_request_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = start(settings(dir.path())).await;
    let addr = first.addr;
    // k1: Red (bob) offers a draw. k2: Red (dan) asks to take back his move.
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human k1")).await;
    ann.wait_text("room k1").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join k1")).await;
    bob.wait_text("room k1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    bob.command(":draw").await;
    ann.wait_text("Red offers a draw (:draw accepts)").await;
    let mut cy = Terminal::open(addr, "cy", Some(user_key(3)), Some("new human k2")).await;
    cy.wait_text("room k2").await;
    let mut dan = Terminal::open(addr, "dan", Some(user_key(4)), Some("join k2")).await;
    dan.wait_text("room k2").await;
    dan.command("b2e2").await;
    cy.wait_move(0, "b2e2").await;
    dan.command(":undo").await;
    cy.wait_text("Red asks to take back (:undo agrees)").await;
    first.stop(Duration::from_secs(2)).await;
    for terminal in [&mut ann, &mut bob, &mut cy, &mut dan] {
        terminal.wait_closed().await;
    }

    let second = start(settings(dir.path())).await;
    let addr = second.addr;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("resumed your game").await;
    ann.command(":draw").await;
    ann.wait_text("draw agreed").await;
    let mut cy = Terminal::open(addr, "cy", Some(user_key(3)), None).await;
    cy.wait_text("resumed your game").await;
    cy.command(":undo").await;
    cy.wait_text("took back the last move").await;
    wait_room(dir.path(), "k2", "the move taken back", |text| {
        xiangqi_server::parse_room(text)
            .ok()
            .flatten()
            .is_some_and(|room| room.game.ply() == 0)
    })
    .await;
    second.stop(Duration::from_secs(2)).await;
}

/// Waits until the room saved in `path` has `plies` moves.
async fn wait_plies(data_dir: &std::path::Path, room: &str, plies: usize) {
    let deadline = tokio::time::Instant::now() + server_support::PATIENCE;
    loop {
        let text = saved_room(data_dir, room).unwrap_or_default();
        let saved = xiangqi_server::parse_room(&text)
            .ok()
            .flatten()
            .map_or(0, |room| room.game.ply());
        if saved == plies {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no engine reply: {text}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_answers_in_an_engine_room_and_undo_takes_back_both_moves() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", None, Some("new engine e1")).await;
    ann.wait_text("room e1").await;
    ann.command("h2e2").await;
    // The engine (Black) replies: the game then has two moves on file.
    let deadline = tokio::time::Instant::now() + server_support::PATIENCE;
    loop {
        let text = saved_room(dir.path(), "e1").unwrap_or_default();
        let plies = xiangqi_server::parse_room(&text)
            .ok()
            .flatten()
            .map_or(0, |room| room.game.ply());
        if plies == 2 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no engine reply: {text}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    ann.command(":undo").await;
    ann.wait_text("took back your move").await;
    wait_room(dir.path(), "e1", "the takeback", |text| {
        text.contains("[Room ") && !text.contains("h2e2")
    })
    .await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_rooms_log_shows_the_engines_search() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let mut ann = Terminal::open(server.addr, "ann", None, Some("new engine e2")).await;
    ann.wait_text("room e2").await;
    // The log opens with the guest's resume code, not with "No engine".
    ann.wait_text("resume code ").await;
    assert!(!ann.text().contains("No engine"), "{}", ann.text());
    ann.command("h2e2").await;
    // As the local log: who thinks within which limits, then a line per iteration
    // (depth, score, nodes, speed, principal variation).
    ann.wait_text("Black thinks: alphabeta (depth 2)").await;
    let iteration = |depth: &'static str| {
        move |screen: &str| {
            screen
                .lines()
                .any(|line| line.contains(depth) && line.contains("/s "))
        }
    };
    ann.wait_for("the first iteration", iteration("d1 ")).await;
    ann.wait_for("the second iteration", iteration("d2 ")).await;
    // Someone watching later is shown the same search.
    let mut bob = Terminal::open(server.addr, "bob", None, Some("watch e2")).await;
    bob.wait_text("Black thinks: alphabeta (depth 2)").await;
    bob.wait_for("the search's iterations", iteration("d2 "))
        .await;
    server.stop(Duration::from_secs(2)).await;
}

/// Plays `first` for Red in a new engine room on `fen` (the engine on Black searches to
/// depth 8), waits for the engine's reply and offers a draw.
async fn offer_a_draw_after_the_engine_replied(
    fen: &str,
    first: &str,
) -> (tempfile::TempDir, xiangqi_server::Running, Terminal) {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.start = Position::from_fen(fen).unwrap();
    settings.engine_limits = xiangqi_server::search_limits(Some(8), None, None);
    let server = start(settings).await;
    let mut ann = Terminal::open(server.addr, "ann", None, Some("new engine d1")).await;
    ann.wait_text("room d1").await;
    ann.command(first).await;
    wait_plies(dir.path(), "d1", 2).await;
    ann.command(":draw").await;
    (dir, server, ann)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rooms_engine_accepts_a_draw_in_a_level_position_by_the_local_rule() {
    // Two soldiers each, symmetric: the engine's search calls it level (+0.11 at depth
    // 8), with mating material on the board.
    let (dir, server, mut ann) = offer_a_draw_after_the_engine_replied(
        "4k4/4a4/9/2p3p2/9/9/2P3P2/9/4A4/4K4 w - - 0 1",
        "c3c4",
    )
    .await;
    // With soldiers on the board, only a level search makes it accept. The result
    // popup shows first; Esc closes it over the log.
    ann.wait_text("draw by agreement (1/2-1/2)").await;
    ann.type_text("\x1b").await;
    ann.wait_text("Red offers a draw; the engine accepts").await;
    ann.wait_text("draw agreed (1/2-1/2)").await;
    // The finished game is in the archive, as the first game.
    wait_archived(dir.path(), 1, "the draw", |text| {
        text.contains("[Result \"1/2-1/2\"]")
    })
    .await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rooms_engine_declines_a_draw_when_it_is_losing_by_the_local_rule() {
    // Red has a chariot more: the engine's search sees it lose.
    let (dir, server, mut ann) =
        offer_a_draw_after_the_engine_replied("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a1").await;
    ann.wait_text("draw offer declined: the engine sees an advantage")
        .await;
    let saved = saved_room(dir.path(), "d1").unwrap();
    assert!(saved.contains("[Result \"*\"]"), "{saved}");
    server.stop(Duration::from_secs(2)).await;
}
