//! A server people come back to: finished games go to the archive under an id and
//! are never written over, `games`, `pgn ID` and `top` show them, rated games move
//! Glicko-2 ratings, names are pinned to keys and guests are marked as guests.

use crate::server_support;

use std::time::Duration;

use server_support::{Terminal, exec_as, settings, start, user_key, wait_archived};
use xiangqi_app::game::GameState;
use xiangqi_core::record::GameRecord;
use xiangqi_server::start as start_server;

/// The rating `top` shows for `name` (its third column), without the `?` mark.
fn rating_in(top: &str, name: &str) -> f64 {
    let line = top
        .lines()
        .find(|line| line.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("{name} is not in the leaderboard:\n{top}"));
    line.split_whitespace()
        .nth(2)
        .unwrap()
        .trim_end_matches('?')
        .parse()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_finished_by_resignation_is_archived_for_both_and_moves_their_ratings() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human k1")).await;
    ann.wait_text("room k1").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join k1")).await;
    bob.wait_text("room k1").await;
    // Newcomers' ratings are provisional.
    bob.wait_text("ann 1500?").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    ann.command(":resign").await;
    ann.type_text("y").await;
    bob.wait_text("Black resigned").await;
    bob.wait_text("archived as #1").await;
    ann.wait_text("ratings: bob").await;

    // `games` lists it for both players, as their own games.
    for (user, key) in [("ann", 1), ("bob", 2)] {
        let (out, err, status) = exec_as(addr, user, Some(user_key(key)), "games").await;
        assert_eq!((status, err.as_str()), (Some(0), ""), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(
            lines[0].contains("RED") && lines[0].contains("TERMINATION"),
            "{out}"
        );
        let row: Vec<&str> = lines[1].split_whitespace().collect();
        assert_eq!(row[0], "1", "{out}");
        // The opening's ECCO code stands before how the game ended (the game opened
        // with the central cannon).
        assert_eq!(
            &row[2..],
            ["bob", "ann", "1-0", "B00", "resignation"],
            "{out}"
        );
    }
    // Anyone may ask for a player's games by name.
    let (out, _, status) = exec_as(addr, "cy", None, "games ann").await;
    assert_eq!(status, Some(0));
    assert!(out.lines().nth(1).unwrap().contains("resignation"), "{out}");

    // `pgn 1` is the game with its tags, and it replays.
    let (pgn, _, status) = exec_as(addr, "cy", None, "pgn 1").await;
    assert_eq!(status, Some(0));
    let record = GameRecord::from_pgn(&pgn).unwrap();
    for (tag, value) in [
        ("Red", "bob"),
        ("Black", "ann"),
        ("Termination", "resignation"),
        ("TimeControl", "none"),
    ] {
        assert_eq!(record.tag(tag), Some(value), "{tag} in\n{pgn}");
    }
    assert!(
        record.tag("Date").is_some_and(|date| date.len() == 10),
        "{pgn}"
    );
    let game = GameState::from_record(&record).unwrap();
    let moves: Vec<String> = game.moves().map(|mv| mv.iccs()).collect();
    assert_eq!(moves, ["h2e2"]);
    assert_eq!(game.outcome().unwrap().pgn_result(), "1-0");
    assert!(!pgn.contains("SHA256") && !pgn.contains("guest:"), "{pgn}");

    // The winner went up, the loser down, by the same amount (equal newcomers).
    let (top, _, status) = exec_as(addr, "cy", None, "top").await;
    assert_eq!(status, Some(0));
    let (won, lost) = (rating_in(&top, "bob"), rating_in(&top, "ann"));
    assert!(won > 1500.0 && lost < 1500.0, "{top}");
    assert!((won - 1500.0 - (1500.0 - lost)).abs() <= 1.0, "{top}");
    assert!(
        top.lines().nth(1).unwrap().contains("bob"),
        "bob ranks first:\n{top}"
    );

    // Bad arguments: exit status 2 and the reason.
    let (out, err, status) = exec_as(addr, "cy", None, "pgn 99").await;
    assert_eq!((out.as_str(), status), ("", Some(2)));
    assert!(err.contains("no archived game #99"), "{err}");
    let (_, err, status) = exec_as(addr, "cy", None, "games nobody").await;
    assert_eq!(status, Some(2));
    assert!(err.contains("no player called nobody"), "{err}");
    let (_, _, status) = exec_as(addr, "cy", None, "pgn x").await;
    assert_eq!(status, Some(2));

    // The room's name is free again, and a new game in it leaves the archive alone.
    let mut cy = Terminal::open(addr, "cy", None, Some("new human k1")).await;
    cy.wait_text("room k1").await;
    let mut dan = Terminal::open(addr, "dan", None, Some("join k1")).await;
    dan.wait_text("room k1").await;
    dan.command("b2e2").await;
    cy.wait_move(0, "b2e2").await;
    let (again, _, _) = exec_as(addr, "cy", None, "pgn 1").await;
    assert_eq!(again, pgn);
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_is_pinned_to_its_key_and_a_guest_of_that_name_is_shown_as_a_guest() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human k2")).await;
    ann.wait_text("room k2").await;
    drop(ann);

    // Another key asking for the name is refused, with free names like it.
    let mut other = Terminal::open(addr, "ann", Some(user_key(9)), None).await;
    assert_eq!(other.wait_closed().await, Some(1));
    let refusal = other.text();
    assert!(
        refusal.contains("the name ann belongs to another player's key")
            && refusal.contains("ann2"),
        "{refusal}"
    );

    let (out, err, status) = exec_as(addr, "ann", Some(user_key(9)), "games").await;
    assert_eq!((out.as_str(), status), ("", Some(1)));
    assert!(err.contains("belongs to another player's key"), "{err}");

    // A guest may call itself ann: everyone sees a guest.
    let mut guest = Terminal::open(addr, "ann", None, Some("join k2")).await;
    guest.wait_text("room k2").await;
    guest.wait_text("ann (guest)").await;
    guest.command(":say I resign").await;
    guest.wait_text("ann (guest): I resign").await;
    let mut cy = Terminal::open(addr, "cy", None, Some("watch k2")).await;
    cy.wait_text("ann (guest): I resign").await;
    cy.command(":say hello").await;
    guest.wait_text("cy (guest) (watching): hello").await;
    let (rooms, _, _) = exec_as(addr, "eve", None, "rooms").await;
    assert!(rooms.contains("ann (guest)"), "{rooms}");
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
}

/// Ann (a guest) plays `h2e2` against the engine in `e1` and resigns: game #1 of the
/// archive. She is back in the lobby.
async fn ann_with_an_archived_game(addr: std::net::SocketAddr, dir: &std::path::Path) -> Terminal {
    let mut ann = Terminal::open(addr, "ann", None, Some("new engine e1")).await;
    ann.wait_text("room e1").await;
    ann.command("h2e2").await;
    server_support::wait_room(dir, "e1", "the engine's reply", |text| {
        xiangqi_server::parse_room(text)
            .ok()
            .flatten()
            .is_some_and(|room| room.game.ply() == 2)
    })
    .await;
    ann.command(":resign").await;
    ann.type_text("y").await;
    ann.wait_text("archived as #1").await;
    wait_archived(dir, 1, "the game", |text| text.contains("0-1")).await;
    ann.command(":leave").await;
    ann.wait_text("xiangqi rooms").await;
    ann
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_game_opens_in_the_lobby_to_be_stepped_through() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let mut ann = ann_with_an_archived_game(server.addr, dir.path()).await;
    ann.command("games").await;
    ann.wait_text("your last games").await;
    ann.wait_text("resignation").await;
    ann.command("top").await;
    ann.wait_text("no rated games yet").await;
    ann.command("pgn 1").await;
    ann.wait_text("archived game #1").await;
    // Nobody moves in an archived game.
    ann.command("h0g2").await;
    ann.wait_text("the game is over").await;
    ann.type_text("\u{15}").await;
    ann.command(":leave").await;
    ann.wait_text("xiangqi rooms").await;
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
}

// Issue 40, 3: Down then Enter in the `games` list seated the player in someone's open
// room (the keys went to the room list hidden under it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_in_the_games_list_opens_the_game_and_never_joins_a_room() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(settings(dir.path())).await;
    let addr = server.addr;
    let mut ann = ann_with_an_archived_game(addr, dir.path()).await;
    let mut bob = Terminal::open(addr, "bob", None, Some("new human h1")).await;
    bob.wait_text("room h1").await;
    // The lobby lists e1 (over) and h1 (waiting for a player).
    ann.wait_text("bob (guest)").await;
    ann.command("games").await;
    ann.wait_text("Up/Down, Enter: step through the game").await;
    // Down past the one game, then Enter: the game opens.
    ann.type_text("\x1b[B").await;
    ann.type_text("\r").await;
    ann.wait_text("archived game #1").await;
    let (rooms, _, _) = server_support::exec(addr, "rooms").await;
    let h1 = rooms.lines().find(|line| line.starts_with("h1 ")).unwrap();
    assert!(h1.contains("(open)") && h1.contains("waiting"), "{rooms}");
    assert!(!h1.contains("ann"), "{rooms}");
    // Back in the lobby, Down and Enter on the room list still take the open seat.
    ann.command(":leave").await;
    ann.wait_text("xiangqi rooms").await;
    ann.type_text("\x1b[B").await;
    ann.type_text("\r").await;
    ann.wait_text("room h1").await;
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
}

/// `xiangqi-tui serve` as its own process on `port`, with its data in `data_dir` and
/// no user configuration.
fn serve_process(data_dir: &std::path::Path, port: u16) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--data-dir",
        ])
        .arg(data_dir)
        .env("XDG_CONFIG_HOME", data_dir.join("config"))
        .env("HOME", data_dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until something listens on `port`.
async fn wait_listening(port: u16) {
    let deadline = tokio::time::Instant::now() + server_support::PATIENCE;
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the server did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_the_opponent_saw_survives_kill_9_of_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut server = serve_process(dir.path(), port);
    wait_listening(port).await;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human k9")).await;
    ann.wait_text("room k9").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join k9")).await;
    bob.wait_text("room k9").await;
    bob.command("h2e2").await;
    // The server's own default notation: Chinese.
    ann.wait_move(0, "炮二平五").await;
    let mut cy = Terminal::open(addr, "cy", None, Some("watch k9")).await;
    cy.wait_text("room k9").await;
    ann.wait_text("cy (guest) watches").await;
    ann.command(":say see you").await;
    bob.wait_text("ann: see you").await;
    // No warning, no flush: SIGKILL the moment the opponent has seen the move.
    server.kill().unwrap();
    server.wait().unwrap();

    let mut server = serve_process(dir.path(), port);
    wait_listening(port).await;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("resumed your game").await;
    ann.wait_move(0, "炮二平五").await;
    // The chat came back too, with the room's announcements.
    ann.wait_text("ann: see you").await;
    assert!(ann.text().contains("cy (guest) watches"), "{}", ann.text());
    server.kill().unwrap();
    server.wait().unwrap();
}

// Issue 40, 5: a second `serve` on the same data directory started silently while the
// first held the store. It is refused at start, with the path and the first's process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_server_on_the_same_data_directory_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("serve.lock");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut first = serve_process(dir.path(), port);
    wait_listening(port).await;
    let refusal = format!(
        "{}: the data directory is in use by another `xiangqi-tui serve` (process {}); \
         stop it first, or give this one another --data-dir",
        lock.display(),
        first.id()
    );
    // Another process: it stops at once, with the reason.
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .env("HOME", dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!second.status.success());
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains(&refusal), "{stderr}");
    // A server in this process too.
    match start_server(settings(dir.path())).await {
        Ok(_) => panic!("a second server started on the same data directory"),
        Err(error) => assert_eq!(error, refusal),
    }
    // The first one gone (even by SIGKILL), the directory is free.
    first.kill().unwrap();
    first.wait().unwrap();
    let server = start(settings(dir.path())).await;
    match start_server(settings(dir.path())).await {
        Ok(_) => panic!("a second server started on the same data directory"),
        Err(error) => assert!(
            error.contains(&format!("(process {})", std::process::id())),
            "{error}"
        ),
    }
    assert_eq!(server.stop(Duration::from_secs(2)).await, []);
    let again = start(settings(dir.path())).await;
    assert_eq!(again.stop(Duration::from_secs(2)).await, []);
}
