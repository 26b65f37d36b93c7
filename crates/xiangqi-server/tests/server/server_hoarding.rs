//! Rooms, chat and names that cannot be hoarded (issue 39): every way of opening a
//! room counts, an address holds a few rooms at most, a game whose players are away is
//! adjourned (out of the list, kept, resumed by its players, scored after a while),
//! chat is rate-limited, and names that hide characters or look like another's are
//! refused, a key keeping its own.

use crate::server_support;

use std::time::Duration;

use server_support::{Terminal, exec, settings, start, user_key, wait_archived, wait_room};

fn hoarding(dir: &std::path::Path) -> xiangqi_server::ServerSettings {
    let mut settings = settings(dir);
    settings.max_per_address = 64;
    settings.sweep_every = Duration::from_millis(50);
    settings
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_way_of_opening_a_room_counts_toward_rooms_per_minute() {
    let dir = tempfile::tempdir().unwrap();
    let mut limits = hoarding(dir.path());
    limits.rooms_per_minute = 3;
    limits.rooms_per_identity = 100;
    let server = start(limits).await;
    // Each a guest of its own from one address (a guest has one game at a time).
    let mut opened = Vec::new();
    for (n, command) in ["new human unrated", "new human h2 10+5", "play 5+3"]
        .into_iter()
        .enumerate()
    {
        let mut guest = Terminal::open(server.addr, &format!("g{n}"), None, Some(command)).await;
        guest.wait_text("room ").await;
        opened.push(guest);
    }
    let mut fourth = Terminal::open(server.addr, "g3", None, Some("new engine")).await;
    fourth
        .wait_text("you opened 3 rooms in the last minute, the most allowed: try again in")
        .await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_holds_three_rooms_with_a_game_on_and_is_told_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let mut limits = hoarding(dir.path());
    limits.rooms_per_minute = 100;
    let server = start(limits).await;
    let mut guests = Vec::new();
    for n in 0..3 {
        let mut guest = Terminal::open(
            server.addr,
            &format!("g{n}"),
            None,
            Some(&format!("new engine e{n}")),
        )
        .await;
        guest.wait_text(&format!("room e{n}")).await;
        guests.push(guest);
    }
    let mut fourth = Terminal::open(server.addr, "g3", None, Some("new human")).await;
    fourth
        .wait_text("your address has 3 rooms with a game on (e0, e1, e2), the most allowed")
        .await;
    // The lobby it is told in lists those rooms (it said "no rooms yet").
    fourth
        .wait_for("the room list", |screen| {
            !screen.contains("no rooms yet") && screen.contains("xiangqi rooms")
        })
        .await;
    // A key from the same address is an identity of its own.
    let mut ann = Terminal::open(server.addr, "ann", Some(user_key(1)), Some("new human")).await;
    ann.wait_text("room r").await;
    // A game over frees its place.
    guests[0].command(":resign").await;
    guests[0].type_text("y").await;
    guests[0].wait_text("resigned").await;
    fourth.command("new human k9").await;
    fourth.wait_text("room k9").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_whose_players_are_away_is_adjourned_and_its_players_resume_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut limits = hoarding(dir.path());
    limits.adjourn_after = Duration::ZERO;
    let server = start(limits).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human a1")).await;
    ann.wait_text("room a1").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join a1")).await;
    bob.wait_text("room a1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    // A spectator does not keep it in play; it is told why it goes.
    let mut cy = Terminal::open(addr, "cy", None, Some("watch a1")).await;
    cy.wait_move(0, "h2e2").await;
    drop(ann);
    drop(bob);
    cy.wait_text("room a1 was adjourned: its players are away")
        .await;
    // Out of the room list, kept in the store.
    let deadline = tokio::time::Instant::now() + server_support::PATIENCE;
    loop {
        let (out, _, _) = exec(addr, "rooms").await;
        if out == "no rooms\n" {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{out}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(server_support::saved_room(dir.path(), "a1").is_some());
    // Its name stays taken.
    cy.command("new human a1").await;
    cy.wait_text("room a1 holds an adjourned game").await;
    // Ann comes back: her lobby lists it; join brings it back.
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("adjourned").await;
    ann.wait_text("a1: bob vs ann, 1 plies, Black to move: join a1 resumes it")
        .await;
    ann.command("join a1").await;
    ann.wait_text("resumed your adjourned game").await;
    // Bob comes back straight to it, and they play on.
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), None).await;
    bob.wait_text("room a1: resumed your game").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    wait_room(dir.path(), "a1", "the reply", |pgn| pgn.contains("h9g7")).await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adjourned_game_is_lost_by_the_side_to_move_after_forfeit_after_days() {
    let dir = tempfile::tempdir().unwrap();
    let mut limits = hoarding(dir.path());
    limits.adjourn_after = Duration::ZERO;
    limits.forfeit_after = Duration::ZERO;
    let server = start(limits).await;
    let addr = server.addr;
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), Some("new human f1")).await;
    ann.wait_text("room f1").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("join f1")).await;
    bob.wait_text("room f1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;
    ann.command("h9g7").await;
    bob.wait_move(1, "h9g7").await;
    // Bob (Red) is to move and never comes back.
    drop(ann);
    drop(bob);
    let pgn = wait_archived(dir.path(), 1, "the forfeit", |pgn| !pgn.is_empty()).await;
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.contains("[Rated \"yes\"]"), "{pgn}");
    // A game one side never moved in is dropped without a result.
    let mut cy = Terminal::open(addr, "cy", Some(user_key(3)), Some("new human f2")).await;
    cy.wait_text("room f2").await;
    let mut dan = Terminal::open(addr, "dan", Some(user_key(4)), Some("join f2")).await;
    dan.wait_text("room f2").await;
    dan.command("h2e2").await;
    cy.wait_move(0, "h2e2").await;
    drop(cy);
    drop(dan);
    let deadline = tokio::time::Instant::now() + server_support::PATIENCE;
    while server_support::saved_room(dir.path(), "f2").is_some() {
        assert!(tokio::time::Instant::now() < deadline, "f2 is still kept");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(server_support::archived(dir.path(), 2).is_none());
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_rate_limited_per_identity() {
    let dir = tempfile::tempdir().unwrap();
    let mut limits = hoarding(dir.path());
    limits.say_per_minute = 5;
    let server = start(limits).await;
    let mut ann = Terminal::open(server.addr, "ann", None, Some("new human c1")).await;
    ann.wait_text("room c1").await;
    let mut cy = Terminal::open(server.addr, "cy", None, Some("watch c1")).await;
    cy.wait_text("room c1").await;
    for n in 0..6 {
        cy.command(&format!(":say line {n}")).await;
    }
    cy.wait_text("you are chatting too fast (5 lines a minute at most): wait")
        .await;
    ann.wait_text("line 4").await;
    assert!(!ann.text().contains("line 5"));
    // Another identity (a key) has its own count; bidi controls and zero-width spaces
    // do not reach the others.
    let mut dan = Terminal::open(server.addr, "dan", Some(user_key(5)), Some("watch c1")).await;
    dan.wait_text("room c1").await;
    dan.command(":say ab\u{202e}cd\u{200b}ef").await;
    ann.wait_text("dan (watching): abcdef").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_hide_characters_or_look_like_another_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut limits = hoarding(dir.path());
    limits.new_names_per_hour = 4;
    let server = start(limits).await;
    let addr = server.addr;
    for (user, said) in [
        ("legit\u{200b}", "invisible character (U+200B)"),
        ("a\u{202e}nn", "invisible character (U+202E)"),
        ("a\u{301}\u{302}\u{303}x", "combining marks"),
    ] {
        let mut refused = Terminal::open(addr, user, None, None).await;
        refused.wait_text(said).await;
        assert_eq!(refused.wait_closed().await, Some(1), "{user:?}");
    }
    let mut ann = Terminal::open(addr, "ann", Some(user_key(1)), None).await;
    ann.wait_text("xiangqi rooms").await;
    // A Cyrillic а: another key may not pin it while ann holds "ann".
    let mut fake = Terminal::open(addr, "\u{430}nn", Some(user_key(2)), None).await;
    fake.wait_text("looks like ann, another player's name")
        .await;
    // Ann's key keeps its name whatever it asks for.
    let mut again = Terminal::open(addr, "annie", Some(user_key(1)), None).await;
    again
        .wait_text("you are ann here, your key's name (rename annie asks for the other)")
        .await;
    // Renamed, the key is known by its new name; not again within the week.
    again.command("rename annie").await;
    again
        .wait_text("you are annie from now on; ann stays yours for 30 days")
        .await;
    again.command("rename anna").await;
    again.wait_text("you renamed less than 7 days ago").await;
    // The old name is kept for its key.
    let mut taker = Terminal::open(addr, "ann", Some(user_key(6)), None).await;
    taker.wait_text("was another player's until lately").await;
    // Fresh keys from one address: four new names an hour (ann's and her rename were
    // two).
    for seed in [3, 4] {
        let mut fresh = Terminal::open(addr, &format!("k{seed}"), Some(user_key(seed)), None).await;
        fresh.wait_text("xiangqi rooms").await;
    }
    let mut one_more = Terminal::open(addr, "k5", Some(user_key(5)), None).await;
    one_more
        .wait_text("4 new names were taken from your address within the hour")
        .await;
    server.stop(Duration::from_secs(2)).await;
}
