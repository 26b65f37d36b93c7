//! Tournaments with the real OpenSSH client: players with their own keys
//! (`ssh-keygen`) in 80x24 tmux panes, scripts with `ssh HOST COMMAND`. A Swiss of six
//! over three rounds (games decided by resignation, an agreed draw and a flag falling
//! on a short clock; the server restarted in the middle of round 2) and an arena of
//! four for two minutes (streaks, no rematch in a row, the games on at its end
//! counting), each with its standings and PGN checked exactly. Skipped, with a note,
//! where `ssh`, `ssh-keygen` or `tmux` is not installed.

use crate::server_openssh::{Tmux, installed};
use crate::server_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use server_support::{PATIENCE, settings, start};
use xiangqi_server::{Running, ServerSettings};

/// A player: a name and a key of their own.
struct Player {
    name: &'static str,
    key: PathBuf,
    fingerprint: String,
}

fn keygen(dir: &Path, name: &'static str) -> Player {
    let key = dir.join(name);
    let made = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f"])
        .arg(&key)
        .status()
        .unwrap();
    assert!(made.success());
    let listed = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(key.with_extension("pub"))
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    let fingerprint = listed.split_whitespace().nth(1).unwrap().to_owned();
    Player {
        name,
        key,
        fingerprint,
    }
}

/// OpenSSH's options for a throwaway server: no known hosts, only this key.
fn options(port: u16, player: &Player) -> Vec<String> {
    [
        "-p",
        &port.to_string(),
        "-F",
        "/dev/null",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "PreferredAuthentications=publickey",
        "-i",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .chain([
        player.key.display().to_string(),
        format!("{}@127.0.0.1", player.name),
    ])
    .collect()
}

/// `ssh HOST COMMAND` as a script runs it (no terminal): standard output, or the error.
async fn script(port: u16, player: &Player, command: &str) -> Result<String, String> {
    let mut args = vec!["-T".to_owned()];
    args.extend(options(port, player));
    args.push(command.to_owned());
    let output = tokio::task::spawn_blocking(move || {
        Command::new("ssh")
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    if output.status.success() {
        Ok(out)
    } else {
        Err(format!("{err}{out}"))
    }
}

/// Opens the player's session in an 80x24 tmux session named after them.
fn open(tmux: &Tmux, port: u16, player: &Player) {
    let mut line = vec!["ssh".to_owned(), "-t".to_owned()];
    line.extend(options(port, player));
    let _ = tmux.run(&["kill-session", "-t", player.name]);
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        player.name,
        "-x",
        "80",
        "-y",
        "24",
        &line.join(" "),
    ]);
}

fn typed(tmux: &Tmux, pane: &str, text: &str) {
    tmux.run(&["send-keys", "-t", pane, "-l", text]);
    tmux.run(&["send-keys", "-t", pane, "Enter"]);
}

impl Tmux {
    /// Waits (bounded) until `pane` no longer shows `text`.
    async fn wait_gone(&self, pane: &str, text: &str) {
        let started = Instant::now();
        while self.screen(pane).contains(text) {
            assert!(started.elapsed() < PATIENCE, "{pane} still shows {text:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

fn key(tmux: &Tmux, pane: &str, key: &str) {
    tmux.run(&["send-keys", "-t", pane, key]);
}

/// What a board's banner says: (board, Red, Black).
fn banner_of(screen: &str, me: &str) -> Option<(u32, String, String)> {
    let line = screen.lines().find(|l| l.contains("You play "))?;
    let said = line.split("You play ").nth(1)?;
    let words: Vec<&str> = said.split_whitespace().collect();
    // Red against bob (1500) on board 2. / in game 7.
    let [
        color,
        "against",
        opponent,
        _,
        "on" | "in",
        "board" | "game",
        board,
        ..,
    ] = words[..]
    else {
        return None;
    };
    let board = board.trim_end_matches('.').parse().ok()?;
    let (red, black) = match color {
        "Red" => (me.to_owned(), opponent.to_owned()),
        _ => (opponent.to_owned(), me.to_owned()),
    };
    Some((board, red, black))
}

/// Waits for the banner of `title` in the player's pane, reads it and closes it.
async fn banner(tmux: &Tmux, player: &str, title: &str) -> (u32, String, String) {
    tmux.wait_text(player, title).await;
    let started = Instant::now();
    loop {
        let screen = tmux.screen(player);
        if let Some(seen) = banner_of(&screen, player) {
            // Enter, not Escape: an Escape followed at once by the next key reads as
            // Alt and that key.
            key(tmux, player, "Enter");
            tmux.wait_gone(player, "You play ").await;
            return seen;
        }
        assert!(started.elapsed() < PATIENCE, "no banner:\n{screen}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// How a board's game is decided.
#[derive(Clone, Copy, Debug)]
enum Decide {
    RedResigns,
    BlackResigns,
    Draw,
    /// Red moves; Black lets the flag fall.
    Flag,
}

async fn resign(tmux: &Tmux, pane: &str) {
    typed(tmux, pane, ":resign");
    tmux.wait_text(pane, "resign this game?").await;
    tmux.run(&["send-keys", "-t", pane, "-l", "y"]);
}

/// Decides a game. `confirm`: waits until its result is shown; not for the last game
/// of a round, whose end pairs the next round at once (the next banners confirm it).
async fn decide(tmux: &Tmux, red: &str, black: &str, how: Decide, confirm: bool) {
    let (pane, result) = match how {
        Decide::RedResigns => {
            resign(tmux, red).await;
            (black, "Black wins by resignation")
        }
        Decide::BlackResigns => {
            resign(tmux, black).await;
            (red, "Red wins by resignation")
        }
        Decide::Draw => {
            typed(tmux, red, ":draw");
            tmux.wait_text(black, "Red offers a draw").await;
            typed(tmux, black, ":draw");
            (red, "draw by agreement")
        }
        Decide::Flag => {
            typed(tmux, red, "h2e2");
            // The result popup covers the log.
            (black, "Red wins by time")
        }
    };
    if confirm {
        tmux.wait_text(pane, result).await;
    }
}

fn admin_settings(dir: &Path, admin: &Player) -> ServerSettings {
    let mut settings = settings(dir);
    settings.admins.insert(admin.fingerprint.clone());
    settings
}

/// Today's date as the games' `Date` tags write it.
fn today() -> String {
    xiangqi_core::record::pgn_date(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs(),
    )
}

/// A game of the tournament's PGN, as the archive writes it.
struct Game<'a> {
    event: &'a str,
    round: &'a str,
    room: String,
    red: &'a str,
    black: &'a str,
    termination: &'a str,
    rated: bool,
    result: &'a str,
    moves: &'a str,
}

fn pgn(games: &[Game], date: &str, time_control: &str) -> String {
    let text: Vec<String> = games
        .iter()
        .map(|g| {
            let opening = if g.moves.is_empty() {
                ""
            } else {
                "[ECCO \"B00\"]\n[Opening \"中炮局\"]\n"
            };
            format!(
                "[Game \"Chinese Chess\"]\n[Event \"{}\"]\n[Round \"{}\"]\n[Site \"room {}\"]\n\
                 [Date \"{date}\"]\n[Red \"{}\"]\n[Black \"{}\"]\n[Termination \"{}\"]\n\
                 [TimeControl \"{time_control}\"]\n[Rated \"{}\"]\n{opening}[Result \"{}\"]\n\
                 [Format \"ICCS\"]\n\n{}{}",
                g.event,
                g.round,
                g.room,
                g.red,
                g.black,
                g.termination,
                if g.rated { "yes" } else { "no" },
                g.result,
                g.moves,
                g.result
            )
        })
        .collect();
    text.join("\n\n") + "\n"
}

/// Waits until `ssh HOST tournaments` lists the tournament as `state`.
async fn wait_listed(port: u16, player: &Player, state: &str, patience: Duration) {
    let started = Instant::now();
    loop {
        let list = script(port, player, "tournaments").await.unwrap();
        if list.contains(state) {
            return;
        }
        assert!(started.elapsed() < patience, "never {state}: {list}");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

fn needs_tools() -> bool {
    installed("ssh") && installed("tmux") && Command::new("ssh-keygen").arg("-?").output().is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_six_over_three_rounds_with_openssh_restarted_mid_round() {
    if !needs_tools() {
        eprintln!("note: skipped, needs the OpenSSH client, ssh-keygen and tmux");
        return;
    }
    let keys = tempfile::tempdir().unwrap();
    let names = ["ann", "bob", "cy", "di", "ed", "flo"];
    let players: Vec<Player> = names.iter().map(|n| keygen(keys.path(), n)).collect();
    let player = |name: &str| players.iter().find(|p| p.name == name).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut server: Running = start(admin_settings(dir.path(), &players[0])).await;
    let mut port = server.addr.port();
    let tmux = Tmux {
        socket: format!("xq-swiss-{}", std::process::id()),
    };
    let created = script(port, player("ann"), "tournament new club swiss 3 0.1+2").await;
    assert_eq!(
        created.as_deref(),
        Ok(
            "tournament club created: players join with `tournament join club`, you start \
            it with `tournament start club`\n"
        )
    );
    for p in &players {
        open(&tmux, port, p);
        tmux.wait_text(p.name, "xiangqi rooms").await;
        typed(&tmux, p.name, "tournament join club");
        tmux.wait_text(p.name, "you are in club").await;
    }
    typed(&tmux, "ann", "tournament start club");
    // How each round's boards are decided, by board number.
    let plans = [
        [Decide::BlackResigns, Decide::Flag, Decide::Draw],
        [Decide::RedResigns, Decide::BlackResigns, Decide::Draw],
        [Decide::Draw, Decide::RedResigns, Decide::BlackResigns],
    ];
    let mut rounds: Vec<BTreeMap<u32, (String, String)>> = Vec::new();
    for (round, plan) in (1..=3).zip(plans) {
        let title = format!(" club: round {round} of 3 ");
        let mut boards = BTreeMap::new();
        for name in names {
            let (board, red, black) = banner(&tmux, name, &title).await;
            let seen = boards.entry(board).or_insert((red.clone(), black.clone()));
            assert_eq!(
                *seen,
                (red, black),
                "the two banners of board {board} differ"
            );
        }
        assert_eq!(boards.len(), 3, "{boards:?}");
        for (&board, (red, black)) in &boards {
            decide(&tmux, red, black, plan[board as usize - 1], board < 3).await;
            if round == 2 && board == 1 {
                // The server stops with two games of the round still on, and comes
                // back: its players resume their boards.
                server.stop(Duration::from_secs(2)).await;
                server = start(admin_settings(dir.path(), &players[0])).await;
                port = server.addr.port();
                // One at a time: the server lets four connect from one address at once.
                for p in &players {
                    open(&tmux, port, p);
                    let on = boards
                        .iter()
                        .find(|(_, (red, black))| red == p.name || black == p.name);
                    match on {
                        Some((&other, _)) if other != 1 => {
                            let room = format!("room club-2-{other}: resumed your game");
                            tmux.wait_text(p.name, &room).await;
                        }
                        _ => tmux.wait_text(p.name, "xiangqi rooms").await,
                    }
                }
            }
        }
        rounds.push(boards);
    }
    let pairings: Vec<Vec<(&str, &str)>> = rounds
        .iter()
        .map(|boards| {
            boards
                .values()
                .map(|(r, b)| (r.as_str(), b.as_str()))
                .collect()
        })
        .collect();
    // The pairings by the Dutch system (all rated 1500 at the start: by name), as
    // bbpPairings pairs the same rounds.
    assert_eq!(
        pairings,
        [
            vec![("ann", "di"), ("ed", "bob"), ("cy", "flo")],
            vec![("ed", "ann"), ("bob", "cy"), ("flo", "di")],
            vec![("ann", "bob"), ("flo", "ed"), ("di", "cy")],
        ]
    );
    wait_listed(port, player("cy"), "finished", PATIENCE).await;
    // ann 1 + 1 + 1/2, ed 1 + 0 + 1, bob and di 1 1/2 (Buchholz apart), flo 1, cy 1/2;
    // ann's Sonneborn-Berger: di's 1 1/2 + ed's 2 + half of bob's 1 1/2.
    let standings = script(port, player("cy"), "standings club").await;
    assert_eq!(
        standings.as_deref(),
        Ok("club: swiss 3 rounds | 0.1+2 | rated | by ann | finished\n\
            \x20 #  NAME               PTS  GAMES    BH  BH-1     SB   DE\n\
            \x20 1  ann                2.5      3     5   3.5   4.25    0\n\
            \x20 2  ed                   2      3     5     4    2.5    0\n\
            \x20 3  bob                1.5      3     5   4.5   1.75    0\n\
            \x20 4  di                 1.5      3     4   3.5      1    0\n\
            \x20 5  flo                  1      3     4   3.5      1    0\n\
            \x20 6  cy                 0.5      3     4     3    0.5    0\n")
    );
    let json = script(port, player("cy"), "standings club --json").await;
    assert_eq!(
        json.as_deref(),
        Ok(concat!(
            "[{\"rank\":1,\"name\":\"ann\",\"score\":2.5,\"games\":3,\"tiebreaks\":{\"buchholz\":5,\"buchholz_cut1\":3.5,\"sonneborn_berger\":4.25,\"direct_encounter\":0}},",
            "{\"rank\":2,\"name\":\"ed\",\"score\":2,\"games\":3,\"tiebreaks\":{\"buchholz\":5,\"buchholz_cut1\":4,\"sonneborn_berger\":2.5,\"direct_encounter\":0}},",
            "{\"rank\":3,\"name\":\"bob\",\"score\":1.5,\"games\":3,\"tiebreaks\":{\"buchholz\":5,\"buchholz_cut1\":4.5,\"sonneborn_berger\":1.75,\"direct_encounter\":0}},",
            "{\"rank\":4,\"name\":\"di\",\"score\":1.5,\"games\":3,\"tiebreaks\":{\"buchholz\":4,\"buchholz_cut1\":3.5,\"sonneborn_berger\":1,\"direct_encounter\":0}},",
            "{\"rank\":5,\"name\":\"flo\",\"score\":1,\"games\":3,\"tiebreaks\":{\"buchholz\":4,\"buchholz_cut1\":3.5,\"sonneborn_berger\":1,\"direct_encounter\":0}},",
            "{\"rank\":6,\"name\":\"cy\",\"score\":0.5,\"games\":3,\"tiebreaks\":{\"buchholz\":4,\"buchholz_cut1\":3,\"sonneborn_berger\":0.5,\"direct_encounter\":0}}]\n"
        ))
    );
    let date = today();
    let game = |round: u32, board: u32, termination, result, moves| {
        let (red, black) = &rounds[round as usize - 1][&board];
        (
            round,
            board,
            red.clone(),
            black.clone(),
            termination,
            result,
            moves,
        )
    };
    let played = [
        game(1, 1, "resignation", "1-0", ""),
        game(1, 2, "time forfeit", "1-0", "1. h2e2\n"),
        game(1, 3, "agreement", "1/2-1/2", ""),
        game(2, 1, "resignation", "0-1", ""),
        game(2, 2, "resignation", "1-0", ""),
        game(2, 3, "agreement", "1/2-1/2", ""),
        game(3, 1, "agreement", "1/2-1/2", ""),
        game(3, 2, "resignation", "0-1", ""),
        game(3, 3, "resignation", "1-0", ""),
    ];
    let rounds_text: Vec<String> = played.iter().map(|g| g.0.to_string()).collect();
    let games: Vec<Game> = played
        .iter()
        .zip(&rounds_text)
        .map(
            |((round, board, red, black, termination, result, moves), round_text)| Game {
                event: "club",
                round: round_text,
                room: format!("club-{round}-{board}"),
                red,
                black,
                termination,
                // A draw agreed before move 10 does not change ratings.
                rated: *termination != "agreement",
                result,
                moves,
            },
        )
        .collect();
    let all = script(port, player("cy"), "tournament club pgn").await;
    assert_eq!(all, Ok(pgn(&games, &date, "6+2")));
    server.stop(Duration::from_secs(2)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_of_four_for_two_minutes_with_openssh() {
    if !needs_tools() {
        eprintln!("note: skipped, needs the OpenSSH client, ssh-keygen and tmux");
        return;
    }
    let keys = tempfile::tempdir().unwrap();
    let names = ["ann", "bob", "cy", "di"];
    let players: Vec<Player> = names.iter().map(|n| keygen(keys.path(), n)).collect();
    let player = |name: &str| players.iter().find(|p| p.name == name).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut settings = admin_settings(dir.path(), &players[0]);
    // Nobody moves in the last games before the arena ends: no forfeit meanwhile.
    settings.no_show = Duration::from_secs(600);
    let server = start(settings).await;
    let port = server.addr.port();
    let tmux = Tmux {
        socket: format!("xq-arena-{}", std::process::id()),
    };
    let created = script(port, player("ann"), "tournament new blitz arena 2 0.1+2").await;
    assert!(created.is_ok(), "{created:?}");
    for p in &players {
        open(&tmux, port, p);
        tmux.wait_text(p.name, "xiangqi rooms").await;
        typed(&tmux, p.name, "tournament join blitz");
        tmux.wait_text(p.name, "you are in blitz").await;
    }
    typed(&tmux, "ann", "tournament start blitz");
    // Each game is won by the player whose name comes first; the games of a wave are
    // decided in order, so the pairings are the same every time.
    let mut games: BTreeMap<u32, (String, String)> = BTreeMap::new();
    for wave in 1..=3 {
        let mut paired = BTreeMap::new();
        for name in names {
            let title = " blitz: arena game ";
            let (game, red, black) = loop {
                let seen = banner(&tmux, name, title).await;
                // A banner of a game of the wave before is an old screen: the next.
                if !games.contains_key(&seen.0) {
                    break seen;
                }
            };
            paired.insert(game, (red, black));
        }
        assert_eq!(paired.len(), 2, "wave {wave}: {paired:?}");
        if wave == 3 {
            // These two games are on when the arena's time is up: they still count.
            wait_listed(port, player("di"), "ending", Duration::from_secs(180)).await;
        }
        for (index, (red, black)) in paired.values().enumerate() {
            let how = if red < black {
                Decide::BlackResigns
            } else {
                Decide::RedResigns
            };
            decide(&tmux, red, black, how, index == 0).await;
        }
        games.extend(paired);
    }
    let pairings: Vec<(&str, &str)> = games
        .values()
        .map(|(r, b)| (r.as_str(), b.as_str()))
        .collect();
    // Close in score, never the last opponent again, White to who had it less.
    assert_eq!(
        pairings,
        [
            ("bob", "ann"),
            ("di", "cy"),
            ("cy", "ann"),
            ("di", "bob"),
            ("ann", "bob"),
            ("cy", "di"),
        ]
    );
    wait_listed(port, player("di"), "finished", PATIENCE).await;
    // Win 2, and from the third win in a row 4: ann 2 + 2 + 4.
    let standings = script(port, player("cy"), "standings blitz").await;
    assert_eq!(
        standings.as_deref(),
        Ok("blitz: arena 2 min | 0.1+2 | rated | by ann | finished\n\
            \x20 #  NAME               PTS  GAMES  PERF\n\
            \x20 1  ann *                8      3  2000\n\
            \x20 2  cy                   4      3  1666\n\
            \x20 3  bob                  2      3  1333\n\
            \x20 4  di                   0      3  1000\n")
    );
    let json = script(port, player("cy"), "standings blitz --json").await;
    assert_eq!(
        json.as_deref(),
        Ok(
            "[{\"rank\":1,\"name\":\"ann\",\"score\":8,\"games\":3,\"tiebreaks\":{\"performance\":2000}},\
             {\"rank\":2,\"name\":\"cy\",\"score\":4,\"games\":3,\"tiebreaks\":{\"performance\":1666}},\
             {\"rank\":3,\"name\":\"bob\",\"score\":2,\"games\":3,\"tiebreaks\":{\"performance\":1333}},\
             {\"rank\":4,\"name\":\"di\",\"score\":0,\"games\":3,\"tiebreaks\":{\"performance\":1000}}]\n"
        )
    );
    let date = today();
    let played: Vec<Game> = games
        .iter()
        .map(|(number, (red, black))| Game {
            event: "blitz",
            round: "-",
            room: format!("blitz-{number}"),
            red,
            black,
            termination: "resignation",
            rated: true,
            result: if red < black { "1-0" } else { "0-1" },
            moves: "",
        })
        .collect();
    let all = script(port, player("cy"), "tournament blitz pgn").await;
    assert_eq!(all, Ok(pgn(&played, &date, "6+2")));
    server.stop(Duration::from_secs(2)).await;
}
