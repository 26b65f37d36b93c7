//! Moderation through the in-process SSH client: bans kept in the store and checked at
//! sign-in, the admins' `kick`, `ban`, `unban` and `close` (in a room, in the lobby, as
//! the SSH command) refused to everyone else, the allowlist, and the limit on rooms
//! opened per minute.

use crate::server_support;

use std::time::Duration;

use server_support::{
    Terminal, exec, exec_as, fingerprint, settings, start, try_connect, user_key, with_admin,
};

const ADMIN: u8 = 1;

async fn lobby(addr: std::net::SocketAddr, user: &str, seed: u8) -> Terminal {
    let mut terminal = Terminal::open(addr, user, Some(user_key(seed)), None).await;
    terminal.wait_text("xiangqi rooms").await;
    terminal
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_banned_key_is_refused_at_sign_in_until_it_is_unbanned() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(with_admin(dir.path())).await;
    let addr = server.addr;
    let bob_key = fingerprint(2);

    let mut bob = lobby(addr, "bob", 2).await;
    let mut admin = lobby(addr, "root", ADMIN).await;
    admin.command(&format!("ban {bob_key} cheating")).await;
    admin
        .wait_text(&format!("banned key {bob_key}; 1 session ended"))
        .await;
    // The ban ends bob's session at once, saying why.
    assert_eq!(bob.wait_closed().await, Some(1));
    assert!(
        bob.text()
            .contains("xiangqi-tui: you are banned from this server (cheating)"),
        "{}",
        bob.text()
    );

    // Kept in the store: bob, back under another name, is refused at sign-in.
    let mut again = Terminal::open(addr, "robert", Some(user_key(2)), None).await;
    assert_eq!(again.wait_closed().await, Some(1));
    assert!(
        again
            .text()
            .contains("xiangqi-tui: you are banned from this server (cheating)"),
        "{}",
        again.text()
    );
    let (out, err, status) = exec_as(addr, "bob", Some(user_key(2)), "rooms").await;
    assert_eq!(status, Some(1), "{out}{err}");
    assert_eq!(
        err,
        "xiangqi-tui: you are banned from this server (cheating)\n"
    );

    // Unbanned as the SSH command, for scripts: bob is let in again.
    let (out, err, status) = exec_as(
        addr,
        "root",
        Some(user_key(ADMIN)),
        &format!("unban {bob_key}"),
    )
    .await;
    assert_eq!(
        (out.as_str(), err.as_str(), status),
        (format!("unbanned key {bob_key}\n").as_str(), "", Some(0))
    );
    lobby(addr, "bob", 2).await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_by_name_covers_the_key_that_uses_it_and_a_guest_is_banned_by_address() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(with_admin(dir.path())).await;
    let addr = server.addr;

    let mut carl = lobby(addr, "carl", 3).await;
    let (out, _, status) = exec_as(addr, "root", Some(user_key(ADMIN)), "ban carl spam").await;
    assert_eq!(status, Some(0));
    assert_eq!(
        out,
        format!(
            "banned name carl and key {}; 1 session ended\n",
            fingerprint(3)
        )
    );
    assert_eq!(carl.wait_closed().await, Some(1));
    // Another name, the same key: still banned.
    let mut renamed = Terminal::open(addr, "karl", Some(user_key(3)), None).await;
    assert_eq!(renamed.wait_closed().await, Some(1));
    assert!(renamed.text().contains("banned from this server (spam)"));

    // A guest has no key: its address is what a ban holds on to.
    let (out, _, status) = exec_as(
        addr,
        "root",
        Some(user_key(ADMIN)),
        "ban 127.0.0.1 flooding",
    )
    .await;
    assert_eq!(
        (out.as_str(), status),
        ("banned address 127.0.0.1; 0 sessions ended\n", Some(0))
    );
    let mut guest = Terminal::open(addr, "eve", None, None).await;
    assert_eq!(guest.wait_closed().await, Some(1));
    assert!(guest.text().contains("banned from this server (flooding)"));
    // The admin, from the same address, is never locked out.
    lobby(addr, "root", ADMIN).await;
    let admin = || Some(user_key(ADMIN));
    let (out, _, status) = exec_as(addr, "root", admin(), "unban 127.0.0.1").await;
    assert_eq!(
        (out.as_str(), status),
        ("unbanned address 127.0.0.1\n", Some(0))
    );
    let unban_key = format!("unban {}", fingerprint(3));
    let (out, _, status) = exec_as(addr, "root", admin(), &unban_key).await;
    assert_eq!(
        (out.as_str(), status),
        (
            format!("unbanned key {}\n", fingerprint(3)).as_str(),
            Some(0)
        )
    );
    // The key is free, the name not yet.
    let mut named = Terminal::open(addr, "carl", Some(user_key(3)), None).await;
    assert_eq!(named.wait_closed().await, Some(1));
    let (out, _, status) = exec_as(addr, "root", admin(), "unban carl").await;
    assert_eq!((out.as_str(), status), ("unbanned name carl\n", Some(0)));
    let (_, err, status) = exec_as(addr, "root", admin(), "unban carl").await;
    assert_eq!(
        (err.as_str(), status),
        ("xiangqi-tui: carl is not banned\n", Some(1))
    );
    lobby(addr, "carl", 3).await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moderation_is_refused_to_anyone_but_an_admin() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(with_admin(dir.path())).await;
    let addr = server.addr;

    let mut ann = lobby(addr, "ann", ADMIN).await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(2)), Some("new human m1")).await;
    bob.wait_text("room m1").await;
    bob.command(":ban ann").await;
    bob.wait_text("ban: only the server's admins may do that")
        .await;
    bob.command(":kick ann").await;
    bob.wait_text("kick: only the server's admins may do that")
        .await;
    // A guest as the SSH command: refused, exit status 1; a bad argument: 2.
    let (_, err, status) = exec(addr, "close m1").await;
    assert_eq!(
        (err.as_str(), status),
        (
            "xiangqi-tui: close: only the server's admins may do that\n",
            Some(1)
        )
    );
    let (_, err, status) = exec(addr, "kick").await;
    assert_eq!((err.as_str(), status), ("usage: kick NAME\n", Some(2)));
    // Nothing happened: ann is still here, the room is still open.
    let (rooms, _, _) = exec(addr, "rooms").await;
    assert!(rooms.contains("m1"), "{rooms}");
    ann.command("rooms").await;
    ann.wait_text("m1").await;
    assert!(!ann.closed);
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kick_ends_every_session_of_the_user() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(with_admin(dir.path())).await;
    let addr = server.addr;

    let mut bob = lobby(addr, "bob", 2).await;
    let mut bob_again = lobby(addr, "bob", 2).await;
    let mut admin =
        Terminal::open(addr, "root", Some(user_key(ADMIN)), Some("new engine e1")).await;
    admin.wait_text("room e1").await;
    admin.command(":kick bob").await;
    admin.wait_text("bob kicked (2 sessions)").await;
    for terminal in [&mut bob, &mut bob_again] {
        assert_eq!(terminal.wait_closed().await, Some(1));
        assert!(
            terminal
                .text()
                .contains("xiangqi-tui: you were removed from this server by its admin"),
            "{}",
            terminal.text()
        );
    }
    admin.command(":kick bob").await;
    admin.wait_text("nobody called bob is connected").await;
    // Kicked is not banned: bob may come back.
    lobby(addr, "bob", 2).await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn close_ends_a_room_and_its_players_are_told() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(with_admin(dir.path())).await;
    let addr = server.addr;

    let mut ann = Terminal::open(addr, "ann", Some(user_key(2)), Some("new human c1")).await;
    ann.wait_text("room c1").await;
    let mut bob = Terminal::open(addr, "bob", Some(user_key(3)), Some("join c1")).await;
    bob.wait_text("room c1").await;
    bob.command("h2e2").await;
    ann.wait_move(0, "h2e2").await;

    let mut admin = lobby(addr, "root", ADMIN).await;
    admin.command(":close c1").await;
    admin
        .wait_text("room c1 closed; its players are back in the lobby")
        .await;
    for terminal in [&mut ann, &mut bob] {
        terminal
            .wait_text("room c1 was closed by the server's admin")
            .await;
        terminal.wait_text("xiangqi rooms").await;
    }
    let (rooms, _, _) = exec(addr, "rooms").await;
    assert_eq!(rooms, "no rooms\n");
    // The seat went with the room: ann may open another.
    ann.command("new human c2").await;
    ann.wait_text("room c2").await;
    admin.command("close nosuch").await;
    admin.wait_text("no room nosuch").await;
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowlist_lets_in_its_keys_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = with_admin(dir.path());
    settings.allowlist = Some([fingerprint(2)].into_iter().collect());
    let server = start(settings).await;
    let addr = server.addr;

    lobby(addr, "listed", 2).await;
    lobby(addr, "root", ADMIN).await;
    let mut stranger = Terminal::open(addr, "stranger", Some(user_key(3)), None).await;
    assert_eq!(stranger.wait_closed().await, Some(1));
    let expected = format!(
        "xiangqi-tui: this server lets in listed keys only; yours is {}: ask its host to add it",
        fingerprint(3)
    );
    assert!(stranger.text().contains(&expected), "{}", stranger.text());
    // A guest has no key to list: it cannot sign in at all.
    let (_, _, signed_in) = try_connect(addr, "guest", None).await;
    assert!(!signed_in);
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_opened_past_the_rate_are_refused_per_address_for_guests() {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings(dir.path());
    settings.rooms_per_minute = 2;
    let server = start(settings).await;
    let addr = server.addr;

    // Each guest is new, but they come from one address: that is what is counted.
    for room in ["g1", "g2"] {
        let mut guest =
            Terminal::open(addr, "guest", None, Some(&format!("new human {room}"))).await;
        guest.wait_text(&format!("room {room}")).await;
    }
    let mut third = Terminal::open(addr, "guest", None, Some("new human g3")).await;
    third
        .wait_text("you opened 2 rooms in the last minute, the most allowed")
        .await;
    let (rooms, _, _) = exec(addr, "rooms").await;
    assert!(rooms.contains("g2") && !rooms.contains("g3"), "{rooms}");
    // A key has its own count.
    let mut keyed = Terminal::open(addr, "kim", Some(user_key(4)), Some("new human k1")).await;
    keyed.wait_text("room k1").await;
    server.stop(Duration::from_secs(2)).await;
}
