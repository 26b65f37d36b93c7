//! Tournaments through the in-process SSH client: who may create one and the limits,
//! a Swiss of four whose boards open by themselves with their banner, restarted in the
//! middle of a round, finished with exact standings (text and JSON) and one PGN of its
//! games; a no-show losing by forfeit and withdrawn; the organiser's pause between
//! rounds and a player withdrawing mid-round, not paired again (the other has the
//! bye); at the server's room limit, a board waiting for a room. Results are asserted,
//! never how long anything took.

use crate::server_support;

use std::time::Duration;

use server_support::{Terminal, exec_as, start, user_key, with_admin};

const NAMES: [&str; 4] = ["ann", "bob", "cy", "di"];

/// The seed of a player's key: ann 1, bob 2, cy 3, di 4, ed 5.
fn seed(name: &str) -> u8 {
    ["ann", "bob", "cy", "di", "ed"]
        .iter()
        .position(|n| *n == name)
        .unwrap() as u8
        + 1
}

/// Runs `command` as `name` (with their key) without a terminal: (stdout, stderr,
/// status).
async fn run(addr: std::net::SocketAddr, name: &str, command: &str) -> (String, String, u32) {
    let (out, err, status) = exec_as(addr, name, Some(user_key(seed(name))), command).await;
    (out, err, status.unwrap())
}

async fn lobby(addr: std::net::SocketAddr, name: &str) -> Terminal {
    let mut terminal = Terminal::open(addr, name, Some(user_key(seed(name))), None).await;
    terminal.wait_text("xiangqi rooms").await;
    terminal
}

/// Resigns the game shown (Ctrl-R's question answered).
async fn resign(terminal: &mut Terminal) {
    terminal.command(":resign").await;
    terminal.wait_text("resign this game?").await;
    terminal.type_text("y").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_may_create_a_tournament_and_the_limits_of_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = with_admin(dir.path());
    settings.max_tournament_players = 2;
    let server = start(settings).await;
    let addr = server.addr;

    let (out, err, status) = exec_as(addr, "guest", None, "tournament new club swiss 3 5+3").await;
    assert_eq!(
        (out.as_str(), err.as_str(), status),
        (
            "",
            "xiangqi-tui: tournaments are for players with a key: connect with your SSH key \
             (ssh-keygen makes one)\n",
            Some(2)
        )
    );
    let (_, err, status) = run(addr, "bob", "tournament new club swiss 3 5+3").await;
    assert_eq!(
        (err.as_str(), status),
        (
            "xiangqi-tui: only the server's admins create tournaments here ([server] \
             tournaments = \"open\" lets every player with a key)\n",
            2
        )
    );
    let (_, err, status) = run(addr, "ann", "tournament new club swiss 3 none").await;
    assert_eq!(
        (err.as_str(), status),
        ("a tournament needs a clock: 10+5, 3+2, 5m/move…\n", 2)
    );
    let (out, _, status) = run(addr, "ann", "tournament new club swiss 3 5+3").await;
    assert_eq!(
        (out.as_str(), status),
        (
            "tournament club created: players join with `tournament join club`, you start \
             it with `tournament start club`\n",
            0
        )
    );
    let (_, err, _) = run(addr, "ann", "tournament new CLUB arena 30 3+2").await;
    assert_eq!(
        err,
        "xiangqi-tui: a tournament named CLUB exists: choose another name\n"
    );
    // Only its organiser (or an admin) starts it, with two players at least.
    let (_, err, _) = run(addr, "bob", "tournament start club").await;
    assert_eq!(
        err,
        "xiangqi-tui: only its organiser (ann) or an admin may do that in club\n"
    );
    let (_, err, _) = run(addr, "ann", "tournament start club").await;
    assert_eq!(
        err,
        "xiangqi-tui: a Swiss needs two players at least: 0 joined club\n"
    );
    for name in ["bob", "cy"] {
        let (out, _, status) = run(addr, name, "tournament join club").await;
        assert_eq!(status, 0, "{out}");
    }
    let (_, err, _) = run(addr, "di", "tournament join club").await;
    assert_eq!(
        err,
        "xiangqi-tui: tournament club is full (2 players, the server's limit)\n"
    );
    let (out, _, _) = run(addr, "cy", "tournament leave club").await;
    assert_eq!(out, "you left club\n");
    let (out, _, _) = run(addr, "di", "tournament join club").await;
    assert_eq!(
        out,
        "you are in club (2 players): your board opens by itself when you are paired\n"
    );
    let (out, _, _) = run(addr, "di", "tournaments").await;
    assert_eq!(
        out,
        "TOURNAMENT   FORMAT                  CLOCK    STATE          PLAYERS BY\n\
         club         swiss 3 rounds          5+3      upcoming             2 ann\n"
    );
    let (out, _, _) = run(addr, "di", "standings club --json").await;
    assert_eq!(
        out,
        "[{\"rank\":1,\"name\":\"bob\",\"score\":0,\"games\":0,\"tiebreaks\":{\"buchholz\":0,\
         \"buchholz_cut1\":0,\"sonneborn_berger\":0,\"direct_encounter\":0}},{\"rank\":1,\
         \"name\":\"di\",\"score\":0,\"games\":0,\"tiebreaks\":{\"buchholz\":0,\
         \"buchholz_cut1\":0,\"sonneborn_berger\":0,\"direct_encounter\":0}}]\n"
    );
    let (_, err, _) = run(addr, "di", "standings nosuch").await;
    assert_eq!(
        err,
        "xiangqi-tui: no tournament nosuch: `tournaments` lists them\n"
    );

    // When tournaments are open, every key holder organises up to the limit.
    server.stop(Duration::from_secs(2)).await;
    let mut settings = with_admin(dir.path());
    settings.tournaments_open = true;
    settings.max_tournaments_per_creator = 1;
    let server = start(settings).await;
    let addr = server.addr;
    let (_, _, status) = run(addr, "bob", "tournament new blitz arena 30 3+2").await;
    assert_eq!(status, 0);
    let (_, err, _) = run(addr, "bob", "tournament new blitz2 arena 30 3+2").await;
    assert_eq!(
        err,
        "xiangqi-tui: you organise 1 tournaments not finished yet, the server's limit: wait \
         for one to finish\n"
    );
    // Kept in the store over the restart.
    let (out, _, _) = run(addr, "cy", "tournaments").await;
    assert_eq!(
        out,
        "TOURNAMENT   FORMAT                  CLOCK    STATE          PLAYERS BY\n\
         blitz        arena 30 min            3+2      upcoming             0 bob\n\
         club         swiss 3 rounds          5+3      upcoming             2 ann\n"
    );
    server.stop(Duration::from_secs(2)).await;
}

/// Waits for `terminal`'s banner of a new board and closes it; checks its words.
async fn banner(terminal: &mut Terminal, title: &str, says: &str) {
    terminal.wait_text(title).await;
    terminal.wait_text(says).await;
    terminal.type_text("\x1b").await;
    terminal
        .wait_for("the banner closed", |screen| {
            !screen.contains("Any key closes")
        })
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_four_restarted_mid_round_ends_with_exact_standings_and_its_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(with_admin(dir.path())).await;
    let addr = server.addr;
    let (_, _, status) = run(addr, "ann", "tournament new club swiss 2 5+0").await;
    assert_eq!(status, 0);
    let mut players = Vec::new();
    for name in NAMES {
        let mut terminal = lobby(addr, name).await;
        terminal.command("tournament join club").await;
        terminal.wait_text("tournament club (Esc: the rooms)").await;
        terminal.wait_text("you are in club").await;
        players.push(terminal);
    }
    let [ann, bob, cy, di] = &mut players[..] else {
        unreachable!()
    };
    // From a script: on ann's screen the answer is at once replaced by her board.
    let (out, _, _) = run(addr, "ann", "tournament start club").await;
    assert_eq!(out, "tournament club started: 4 players\n");

    // Round 1, by pairing numbers (all rated 1500: by name): ann-cy, di-bob; each
    // board opens by itself, its banner saying who plays what.
    banner(
        ann,
        " club: round 1 of 2 ",
        "You play Red against cy (1500?) on board 1.",
    )
    .await;
    banner(
        cy,
        " club: round 1 of 2 ",
        "You play Black against ann (1500?) on board 1.",
    )
    .await;
    banner(
        di,
        " club: round 1 of 2 ",
        "You play Red against bob (1500?) on board 2.",
    )
    .await;
    banner(
        bob,
        " club: round 1 of 2 ",
        "You play Black against di (1500?) on board 2.",
    )
    .await;
    ann.wait_text("room club-1-1 | club round 1, board 1 | you: Red")
        .await;
    resign(cy).await;
    // No rematch in a tournament: its result popup says what comes instead.
    cy.wait_text("the tournament pairs the next game   Esc: close")
        .await;
    resign(di).await;

    // Round 2: the winners meet, colours alternating.
    banner(
        bob,
        " club: round 2 of 2 ",
        "You play Red against ann (1662?) on board 1.",
    )
    .await;
    banner(
        ann,
        " club: round 2 of 2 ",
        "You play Black against bob (1662?) on board 1.",
    )
    .await;
    banner(
        cy,
        " club: round 2 of 2 ",
        "You play Red against di (1338?) on board 2.",
    )
    .await;
    banner(
        di,
        " club: round 2 of 2 ",
        "You play Black against cy (1338?) on board 2.",
    )
    .await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    cy.command(":draw").await;
    di.wait_text("Red offers a draw").await;

    // The server stops in the middle of the round and comes back.
    drop(players);
    server.stop(Duration::from_secs(2)).await;
    let server = start(with_admin(dir.path())).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(seed("ann"))), None).await;
    ann.wait_text("room club-2-1: resumed your game").await;
    ann.wait_move(0, "h2e2").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(seed("bob"))), None).await;
    bob.wait_text("room club-2-1: resumed your game").await;
    resign(&mut ann).await;
    bob.wait_text("Black resigned (1-0)").await;
    let mut di = Terminal::open(addr, "di", Some(user_key(seed("di"))), None).await;
    di.wait_text("room club-2-2: resumed your game").await;
    di.wait_text("* Red offers a draw").await;
    di.command(":draw").await;
    di.wait_text("draw agreed").await;

    // The tournament is finished; its standings are final.
    let mut watcher = lobby(addr, "cy").await;
    watcher.command("tournament club").await;
    watcher.wait_text("finished: the standings are final").await;
    let (out, _, _) = run(addr, "cy", "standings club").await;
    assert_eq!(
        out,
        "club: swiss 2 rounds | 5+0 | rated | by ann | finished\n\
         \x20 #  NAME               PTS  GAMES    BH  BH-1     SB   DE\n\
         \x20 1  bob                  2      2   1.5     1    1.5    0\n\
         \x20 2  ann                  1      2   2.5     2    0.5    0\n\
         \x20 3  di                 0.5      2   2.5     2   0.25    0\n\
         \x20 4  cy                 0.5      2   1.5     1   0.25    0\n"
    );
    let (out, _, _) = run(addr, "cy", "standings club --json").await;
    assert_eq!(
        out,
        "[{\"rank\":1,\"name\":\"bob\",\"score\":2,\"games\":2,\"tiebreaks\":{\"buchholz\":1.5,\
         \"buchholz_cut1\":1,\"sonneborn_berger\":1.5,\"direct_encounter\":0}},\
         {\"rank\":2,\"name\":\"ann\",\"score\":1,\"games\":2,\"tiebreaks\":{\"buchholz\":2.5,\
         \"buchholz_cut1\":2,\"sonneborn_berger\":0.5,\"direct_encounter\":0}},\
         {\"rank\":3,\"name\":\"di\",\"score\":0.5,\"games\":2,\"tiebreaks\":{\"buchholz\":2.5,\
         \"buchholz_cut1\":2,\"sonneborn_berger\":0.25,\"direct_encounter\":0}},\
         {\"rank\":4,\"name\":\"cy\",\"score\":0.5,\"games\":2,\"tiebreaks\":{\"buchholz\":1.5,\
         \"buchholz_cut1\":1,\"sonneborn_berger\":0.25,\"direct_encounter\":0}}]\n"
    );
    let (pgn, _, _) = run(addr, "cy", "tournament club pgn").await;
    let date = xiangqi_core::record::pgn_date(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs(),
    );
    // Every game, as the archive keeps it, with the tournament as its Event and the
    // round as its Round.
    let game = |round: u32, board: u32, players: [&str; 2], end: [&str; 3], moves: &str| {
        let [red, black] = players;
        let [termination, rated, result] = end;
        let opening = if moves.is_empty() {
            ""
        } else {
            "[ECCO \"B00\"]\n[Opening \"中炮局\"]\n"
        };
        format!(
            "[Game \"Chinese Chess\"]\n[Event \"club\"]\n[Round \"{round}\"]\n\
             [Site \"room club-{round}-{board}\"]\n[Date \"{date}\"]\n[Red \"{red}\"]\n\
             [Black \"{black}\"]\n[Termination \"{termination}\"]\n[TimeControl \"300\"]\n\
             [Rated \"{rated}\"]\n{opening}[Result \"{result}\"]\n[Format \"ICCS\"]\n\n\
             {moves}{result}"
        )
    };
    let expected = [
        game(1, 1, ["ann", "cy"], ["resignation", "yes", "1-0"], ""),
        game(1, 2, ["di", "bob"], ["resignation", "yes", "0-1"], ""),
        game(
            2,
            1,
            ["bob", "ann"],
            ["resignation", "yes", "1-0"],
            "1. h2e2\n",
        ),
        // A draw agreed before move 10 does not count for the ratings.
        game(2, 2, ["cy", "di"], ["agreement", "no", "1/2-1/2"], ""),
    ];
    assert_eq!(pgn, expected.join("\n\n") + "\n");
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_does_not_come_loses_by_forfeit_and_is_withdrawn() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = with_admin(dir.path());
    settings.no_show = Duration::from_secs(4);
    let server = start(settings).await;
    let addr = server.addr;
    let (_, _, status) = run(addr, "ann", "tournament new club swiss 2 5+0").await;
    assert_eq!(status, 0);
    // di joins and never comes to the board.
    let (_, _, status) = run(addr, "di", "tournament join club").await;
    assert_eq!(status, 0);
    let mut players = Vec::new();
    for name in ["ann", "bob", "cy"] {
        let mut terminal = lobby(addr, name).await;
        terminal.command("tournament join club").await;
        terminal.wait_text("you are in club").await;
        players.push(terminal);
    }
    let [ann, bob, cy] = &mut players[..] else {
        unreachable!()
    };
    let (out, _, _) = run(addr, "ann", "tournament start club").await;
    assert_eq!(out, "tournament club started: 4 players\n");
    banner(
        cy,
        " club: round 1 of 2 ",
        "No first move within 4 s: a loss by forfeit.",
    )
    .await;
    resign(cy).await;
    banner(
        bob,
        " club: round 1 of 2 ",
        "You play Black against di (1500?) on board 2.",
    )
    .await;
    // Red (di) never moves: bob wins by forfeit, told as the room closes.
    bob.wait_text("round 1, board 2: bob wins by forfeit (a no-show)")
        .await;
    bob.wait_text("xiangqi rooms").await;
    let mut watcher = lobby(addr, "ed").await;
    watcher.command("tournament club").await;
    watcher
        .wait_text("* round 1, board 2: di did not come (no move in 4 s): bob wins by forfeit;")
        .await;
    // Round 2 without di: ann and bob meet, cy has the bye.
    banner(
        ann,
        " club: round 2 of 2 ",
        "You play Black against bob (1500?) on board 1.",
    )
    .await;
    // ann's win counted for the ratings, bob's forfeit did not.
    banner(
        bob,
        " club: round 2 of 2 ",
        "You play Red against ann (1662?) on board 1.",
    )
    .await;
    // A bye opens no board: cy is told.
    cy.wait_text("club: round 2 of 2: you have the bye (a point)")
        .await;
    resign(bob).await;
    watcher.wait_text("finished: the standings are final").await;
    let (out, _, _) = run(addr, "cy", "standings club").await;
    assert_eq!(
        out,
        "club: swiss 2 rounds | 5+0 | rated | by ann | finished\n\
         \x20 #  NAME               PTS  GAMES    BH  BH-1     SB   DE\n\
         \x20 1  ann                  2      2     2     1      2    0\n\
         \x20 2  cy                   1      1     3     2      1    0\n\
         \x20 3  bob                  1      1   2.5     2    0.5    0\n\
         \x20 4  di (out)             0      0     0     0      0    0\n"
    );
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_keeps_its_organisers_pause_and_pairs_no_one_who_withdrew() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(with_admin(dir.path())).await;
    let addr = server.addr;
    let (_, _, status) = run(addr, "ann", "tournament new club swiss 3 5+0").await;
    assert_eq!(status, 0);
    let (out, _, _) = run(addr, "ann", "tournament pause club 2").await;
    assert_eq!(out, "the pause between rounds is 2 s\n");
    let (_, err, _) = run(addr, "bob", "tournament pause club 0").await;
    assert_eq!(
        err,
        "xiangqi-tui: only its organiser (ann) or an admin may do that in club\n"
    );
    let mut players = Vec::new();
    for name in NAMES {
        let mut terminal = lobby(addr, name).await;
        terminal.command("tournament join club").await;
        terminal.wait_text("you are in club").await;
        players.push(terminal);
    }
    let [ann, bob, cy, di] = &mut players[..] else {
        unreachable!()
    };
    let mut watcher = lobby(addr, "ed").await;
    watcher.command("tournament club").await;
    let (out, _, _) = run(addr, "ann", "tournament start club").await;
    assert_eq!(out, "tournament club started: 4 players\n");
    banner(
        cy,
        " club: round 1 of 3 ",
        "You play Black against ann (1500?) on board 1.",
    )
    .await;
    banner(
        di,
        " club: round 1 of 3 ",
        "You play Red against bob (1500?) on board 2.",
    )
    .await;
    banner(
        bob,
        " club: round 1 of 3 ",
        "You play Black against di (1500?) on board 2.",
    )
    .await;
    // bob withdraws during his game: it goes on and counts, he is not paired again.
    let (out, _, _) = run(addr, "bob", "tournament leave club").await;
    assert_eq!(
        out,
        "you withdrew from club: you are not paired again (a game you are playing goes on); \
         `tournament join club` comes back\n"
    );
    resign(cy).await;
    resign(di).await;
    watcher
        .wait_text("* round 1 is over: round 2 is paired in 2 s")
        .await;
    // Without bob: ann met cy, so she plays di; cy, of the lowest score, has the bye.
    banner(
        ann,
        " club: round 2 of 3 ",
        "You play Black against di (1338?) on board 1.",
    )
    .await;
    cy.wait_text("club: round 2 of 3: you have the bye (a point)")
        .await;
    watcher
        .wait_text("* round 2 of 3 is paired: 1. di - ann; cy has the bye")
        .await;
    // Mid-round: the points and games (tie-breaks move until the round ends).
    let (out, _, _) = run(addr, "ed", "standings club").await;
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("club: swiss 3 rounds | 5+0 | rated | by ann | 2 s between rounds | round 2 of 3")
    );
    let mut rows: Vec<String> = lines
        .skip(1)
        .map(|line| line.split_whitespace().skip(1).collect::<Vec<_>>())
        .map(|words| {
            let games = words.iter().position(|w| w.parse::<u32>().is_ok()).unwrap() + 1;
            words[..=games].join(" ")
        })
        .collect();
    rows.sort();
    assert_eq!(rows, ["ann 1 1", "bob (out) 1 1", "cy 1 1", "di 0 1"]);
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_servers_room_limit_a_board_waits_for_a_room() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = with_admin(dir.path());
    settings.max_rooms = 1;
    // A finished room closes as soon as nobody is in it.
    settings.room_expiry = Duration::ZERO;
    let server = start(settings).await;
    let addr = server.addr;
    let (_, _, status) = run(addr, "ann", "tournament new club swiss 1 5+0").await;
    assert_eq!(status, 0);
    let mut players = Vec::new();
    for name in NAMES {
        let mut terminal = lobby(addr, name).await;
        terminal.command("tournament join club").await;
        terminal.wait_text("you are in club").await;
        players.push(terminal);
    }
    let [ann, bob, cy, di] = &mut players[..] else {
        unreachable!()
    };
    let mut watcher = lobby(addr, "ed").await;
    watcher.command("tournament club").await;
    let (out, _, _) = run(addr, "ann", "tournament start club").await;
    assert_eq!(out, "tournament club started: 4 players\n");
    banner(
        ann,
        " club: round 1 of 1 ",
        "You play Red against cy (1500?) on board 1.",
    )
    .await;
    banner(
        cy,
        " club: round 1 of 1 ",
        "You play Black against ann (1500?) on board 1.",
    )
    .await;
    watcher
        .wait_text("* games wait for a room: the server's limit of open rooms (1) is reached")
        .await;
    // Board 2 has no room yet, so no no-show clock either: it opens once board 1's
    // room has closed.
    resign(cy).await;
    ann.command(":leave").await;
    cy.command(":leave").await;
    banner(
        di,
        " club: round 1 of 1 ",
        "You play Red against bob (1500?) on board 2.",
    )
    .await;
    banner(
        bob,
        " club: round 1 of 1 ",
        "You play Black against di (1500?) on board 2.",
    )
    .await;
    resign(bob).await;
    watcher.wait_text("finished: the standings are final").await;
    let (out, _, _) = run(addr, "ed", "tournament club pgn").await;
    assert_eq!(
        out.matches("[Event \"club\"]").count(),
        2,
        "both boards were played and archived:\n{out}"
    );
    server.stop(Duration::from_secs(2)).await;
}

/// A tournament's chat is held to the server's chat limit, as a room's is, sent from the
/// screen or as an SSH command alike: one identity cannot fill its store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_chat_is_limited_like_a_rooms() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = with_admin(dir.path());
    settings.say_per_minute = 3;
    let server = start(settings).await;
    let addr = server.addr;
    let (_, err, status) = run(addr, "ann", "tournament new club swiss 3 5+3").await;
    assert_eq!(status, 0, "{err}");
    for line in 0..3 {
        let (out, err, status) = run(addr, "bob", &format!("tournament say club hi {line}")).await;
        assert_eq!((out.as_str(), status), ("said in club\n", 0), "{err}");
    }
    let (_, err, status) = run(addr, "bob", "tournament say club one more").await;
    assert_eq!(status, 2);
    assert!(
        err.starts_with("xiangqi-tui: you are chatting too fast (3 lines a minute at most): wait"),
        "{err}"
    );
    // Another identity is not held by bob's lines.
    let (_, err, status) = run(addr, "cy", "tournament say club hello").await;
    assert_eq!(status, 0, "{err}");
    server.stop(Duration::from_secs(2)).await;
}
