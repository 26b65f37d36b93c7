use std::path::Path;

use xiangqi_app::game::rating::Rating;
use xiangqi_app::train::{Attempt, PuzzleProfile, PuzzleStore};
use xiangqi_core::record::GameResult;

use super::*;

fn open(folder: &Path) -> SqliteStore {
    SqliteStore::open_in(folder).unwrap()
}

fn refusal(folder: &Path) -> String {
    match SqliteStore::open_in(folder) {
        Err(StoreError::Refused(why)) => why,
        Err(other) => panic!("not a refusal: {other:?}"),
        Ok(_) => panic!("opened"),
    }
}

pub(super) fn finished(
    red: (&str, Option<&str>),
    black: (&str, Option<&str>),
    result: &str,
) -> FinishedGame {
    let side = |(name, key): (&str, Option<&str>)| Side {
        name: name.to_owned(),
        key: key.map(str::to_owned),
    };
    FinishedGame {
        pgn: format!("[Result \"{result}\"]\n\n1. h2e2 h9g7 {result}\n"),
        red: side(red),
        black: side(black),
        result: result.to_owned(),
        termination: "Black resigned".to_owned(),
        time_control: "none".to_owned(),
        rated: true,
        started: 100,
        ended: 200,
        tournament: None,
    }
}

#[test]
fn a_new_database_is_created_migrated_and_reopened_with_its_data() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    assert_eq!(store.path(), folder.path().join(DB_FILE));
    store.sign_in("SHA256:ann", "ann", 10).unwrap();
    store
        .save_room("k7", "[Room \"k7\"]\n\n*\n", &[], 11)
        .unwrap();
    assert_eq!(store.write_count(), 2);
    drop(store);
    let store = open(folder.path());
    assert_eq!(store.write_count(), 0);
    let ann = store.player_by_key("SHA256:ann").unwrap().unwrap();
    assert_eq!(
        (ann.name.as_str(), ann.first_seen, ann.games),
        ("ann", 10, 0)
    );
    assert_eq!(ann.rating, Rating::default());
    assert_eq!(
        store.rooms().unwrap(),
        [SavedRoom {
            name: "k7".into(),
            pgn: "[Room \"k7\"]\n\n*\n".into(),
            updated: 11,
            adjourned: None,
        }]
    );
    let db = rusqlite::Connection::open(folder.path().join(DB_FILE)).unwrap();
    let version: i32 = db
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    let mode: String = db
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn a_newer_schema_is_refused_and_left_byte_for_byte() {
    let folder = tempfile::tempdir().unwrap();
    drop(open(folder.path()));
    let path = folder.path().join(DB_FILE);
    {
        let db = rusqlite::Connection::open(&path).unwrap();
        // Back to a rollback journal, so the whole database is in the one file.
        db.execute_batch("PRAGMA journal_mode = DELETE; PRAGMA user_version = 99;")
            .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let why = refusal(folder.path());
    assert_eq!(
        why,
        format!(
            "{}: the database has schema version 99, newer than this xiangqi-tui knows ({SCHEMA_VERSION}): \
             run the newer xiangqi-tui that wrote it",
            path.display()
        )
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_garbage_file_and_another_programs_database_are_refused_untouched() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join(DB_FILE);
    let garbage = b"this is not a database, it is a shopping list\n".repeat(200);
    std::fs::write(&path, &garbage).unwrap();
    let why = refusal(folder.path());
    assert!(
        why.starts_with(&format!("{}: not a usable database (", path.display())),
        "{why}"
    );
    assert!(why.contains("file is not a database"), "{why}");
    assert!(why.ends_with("move it away to start with an empty database, or restore a backup"));
    assert_eq!(std::fs::read(&path).unwrap(), garbage);

    std::fs::remove_file(&path).unwrap();
    {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.execute_batch("CREATE TABLE recipes (name TEXT);")
            .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let why = refusal(folder.path());
    assert!(
        why.contains("a SQLite database of another program"),
        "{why}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_damaged_database_is_refused() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    for n in 0..200 {
        store
            .save_room(&format!("r{n}"), &"x".repeat(500), &[], n)
            .unwrap();
    }
    drop(store);
    let path = folder.path().join(DB_FILE);
    {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.execute_batch("PRAGMA journal_mode = DELETE;").unwrap();
    }
    // Scribble over the pages after the first (the header and schema stay readable).
    let mut bytes = std::fs::read(&path).unwrap();
    let page = 4096;
    assert!(bytes.len() > page * 8, "{}", bytes.len());
    for byte in &mut bytes[page * 2..page * 8] {
        *byte = 0x5a;
    }
    std::fs::write(&path, &bytes).unwrap();
    let why = refusal(folder.path());
    assert!(why.starts_with(&format!("{}: ", path.display())), "{why}");
    assert!(
        why.contains("damaged") || why.contains("not a usable database"),
        "{why}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
}

#[test]
fn a_name_belongs_to_the_first_key_in_any_case_and_a_key_keeps_its_own() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    store.sign_in("SHA256:ann", "alice", 1).unwrap();
    store.sign_in("SHA256:x", "alice2", 1).unwrap();
    let refused = store.sign_in("SHA256:eve", "Alice", 2).unwrap_err();
    assert_eq!(
        refused,
        StoreError::NameHeld {
            name: "Alice".into(),
            alternatives: vec!["Alice_".into(), "Alice3".into(), "Alice-".into()]
        }
    );
    assert_eq!(
        refused.to_string(),
        "the name Alice belongs to another player's key: connect with another name (Alice_, Alice3, Alice-)"
    );
    assert!(store.player_by_key("SHA256:eve").unwrap().is_none());
    // The holder again, under any name: it keeps its own, and nothing else is pinned.
    assert_eq!(
        store.sign_in("SHA256:ann", "ALICE", 3).unwrap().name,
        "alice"
    );
    let ann = store.sign_in("SHA256:ann", "ann", 4).unwrap();
    assert_eq!(
        (ann.name.as_str(), ann.first_seen, ann.last_seen),
        ("alice", 1, 4)
    );
    assert!(store.player_by_name("ann").unwrap().is_none());
    assert!(store.sign_in("SHA256:eve", "alice", 5).is_err());
    // Alternatives stay within the name limit.
    let long = "abcdefghijklmnop";
    store.sign_in("SHA256:long", long, 6).unwrap();
    let StoreError::NameHeld { alternatives, .. } =
        store.sign_in("SHA256:other", long, 7).unwrap_err()
    else {
        panic!("not refused");
    };
    assert_eq!(
        alternatives,
        ["abcdefghijklmno2", "abcdefghijklmno_", "abcdefghijklmno3"]
    );
}

#[test]
fn archived_games_get_increasing_ids_remove_their_room_and_move_ratings() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    store.sign_in("SHA256:ann", "ann", 1).unwrap();
    store.sign_in("SHA256:bob", "bob", 1).unwrap();
    store
        .save_room("k7", "[Room \"k7\"]\n\n*\n", &[], 2)
        .unwrap();
    store
        .add_chat(
            "k7",
            &ChatLine {
                seq: 0,
                from: "bob".into(),
                text: "hi".into(),
                time: 3,
            },
        )
        .unwrap();
    store
        .save_room("k8", "[Room \"k8\"]\n\n*\n", &[], 2)
        .unwrap();
    let writes = store.write_count();
    let game = finished(
        ("bob", Some("SHA256:bob")),
        ("ann", Some("SHA256:ann")),
        "1-0",
    );
    let first = store.archive(&game, Some("k7")).unwrap();
    assert_eq!(store.write_count(), writes + 1);
    let (red, black) = first.ratings.unwrap();
    assert_eq!((red.rating.round(), black.rating.round()), (1662.0, 1338.0));
    let bob = store.player_by_key("SHA256:bob").unwrap().unwrap();
    assert_eq!((bob.rating, bob.games), (red, 1));
    let ann = store.player_by_key("SHA256:ann").unwrap().unwrap();
    assert_eq!((ann.rating, ann.games), (black, 1));
    assert_eq!(
        store
            .rooms()
            .unwrap()
            .iter()
            .map(|r| r.name.as_str())
            .collect::<Vec<_>>(),
        ["k8"]
    );
    assert!(store.chat("k7", 50).unwrap().is_empty());

    // A guest's game and an unrated one change no rating.
    let guest = finished(("bob", Some("SHA256:bob")), ("ann", None), "0-1");
    let second = store.archive(&guest, None).unwrap();
    assert!(second.id > first.id);
    assert_eq!(second.ratings, None);
    let mut unrated = finished(
        ("ann", Some("SHA256:ann")),
        ("bob", Some("SHA256:bob")),
        "1-0",
    );
    unrated.rated = false;
    let third = store.archive(&unrated, Some("k8")).unwrap();
    assert!(third.id > second.id);
    assert_eq!(third.ratings, None);
    assert_eq!(
        store.player_by_key("SHA256:bob").unwrap().unwrap().rating,
        red
    );
    assert!(store.rooms().unwrap().is_empty());

    assert_eq!(store.game(first.id).unwrap().unwrap().game, game);
    assert_eq!(store.game(9999).unwrap(), None);
    let ids = |games: Vec<ArchivedGame>| games.iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.games_of_key("SHA256:bob", 20).unwrap()),
        [third.id, second.id, first.id]
    );
    assert_eq!(
        ids(store.games_of_key("SHA256:ann", 20).unwrap()),
        [third.id, first.id]
    );
    assert_eq!(
        ids(store.games_of_key("SHA256:ann", 1).unwrap()),
        [third.id]
    );
    assert_eq!(ids(store.games_of_guest("ANN", 20).unwrap()), [second.id]);
    assert!(store.games_of_guest("bob", 20).unwrap().is_empty());
    let top: Vec<(String, u32)> = store
        .top(10)
        .unwrap()
        .into_iter()
        .map(|p| (p.name, p.games))
        .collect();
    assert_eq!(top, [("bob".to_owned(), 1), ("ann".to_owned(), 1)]);
}

#[test]
fn two_games_finishing_at_once_both_count() {
    let folder = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(open(folder.path()));
    store.sign_in("SHA256:ann", "ann", 1).unwrap();
    store.sign_in("SHA256:bob", "bob", 1).unwrap();
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let store = std::sync::Arc::clone(&store);
            std::thread::spawn(move || {
                let game = finished(
                    ("ann", Some("SHA256:ann")),
                    ("bob", Some("SHA256:bob")),
                    "1-0",
                );
                store.archive(&game, None).unwrap()
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let ann = store.player_by_key("SHA256:ann").unwrap().unwrap();
    assert_eq!(ann.games, 2);
    let once =
        xiangqi_app::game::rating::rate(Rating::default(), Rating::default(), GameResult::RedWins)
            .0;
    assert!(ann.rating.rating > once.rating, "{ann:?}");
}

#[test]
fn chat_is_kept_in_order_and_goes_with_its_room() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    store.save_room("k7", "*", &[], 1).unwrap();
    for seq in 0..5 {
        let line = ChatLine {
            seq,
            from: if seq == 0 {
                String::new()
            } else {
                "ann".into()
            },
            text: format!("line {seq}"),
            time: 10 + seq as i64,
        };
        store.add_chat("k7", &line).unwrap();
    }
    drop(store);
    let store = open(folder.path());
    let chat = store.chat("k7", 3).unwrap();
    assert_eq!(
        chat.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
        ["line 2", "line 3", "line 4"]
    );
    assert_eq!(store.chat("k7", 50).unwrap()[0].from, "");
    store.delete_room("k7").unwrap();
    assert!(store.chat("k7", 50).unwrap().is_empty());
    assert!(store.rooms().unwrap().is_empty());
}

#[test]
fn bans_by_key_name_or_address_are_kept_and_lifted() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    let ban = |target: BanTarget, at| Ban {
        target,
        by: "admin".into(),
        reason: "spam".into(),
        at,
    };
    store
        .ban(&ban(BanTarget::Key("SHA256:eve".into()), 1))
        .unwrap();
    store
        .ban(&ban(BanTarget::Name("Mallory".into()), 2))
        .unwrap();
    store
        .ban(&ban(BanTarget::Address("10.0.0.9".into()), 3))
        .unwrap();
    drop(store);
    let store = open(folder.path());
    let found = |key: Option<&str>, name: &str, address: &str| {
        store
            .banned(key, name, address)
            .unwrap()
            .map(|ban| ban.target)
    };
    assert_eq!(
        found(Some("SHA256:eve"), "eve", "127.0.0.1"),
        Some(BanTarget::Key("SHA256:eve".into()))
    );
    assert_eq!(found(Some("SHA256:EVE"), "eve", "127.0.0.1"), None);
    assert_eq!(
        found(None, "MALLORY", "127.0.0.1"),
        Some(BanTarget::Name("mallory".into()))
    );
    assert_eq!(
        found(None, "x", "10.0.0.9"),
        Some(BanTarget::Address("10.0.0.9".into()))
    );
    assert_eq!(found(None, "ann", "127.0.0.1"), None);
    assert_eq!(store.bans().unwrap().len(), 3);
    assert!(store.unban(&BanTarget::Name("mallory".into())).unwrap());
    assert!(!store.unban(&BanTarget::Name("mallory".into())).unwrap());
    assert_eq!(found(None, "Mallory", "127.0.0.1"), None);
    assert_eq!(store.bans().unwrap().len(), 2);
}

#[test]
fn alternatives_skip_taken_names() {
    let taken = |name: &str| name == "bob2" || name == "bob_";
    assert_eq!(alternatives("bob", 16, taken), ["bob3", "bob-", "bob4"]);
}

fn attempt(puzzle: &str, at: u64, solved: bool, rated: bool, rating_after: f64) -> Attempt {
    Attempt {
        puzzle: puzzle.to_owned(),
        at,
        solved,
        rated,
        rating_after,
    }
}

#[test]
fn puzzle_attempts_and_ratings_are_kept_per_key() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    let empty = store.puzzle_profile("SHA256:ann").unwrap();
    assert_eq!(empty, PuzzleProfile::default());
    let after_solve = Rating {
        rating: 1650.0,
        deviation: 290.0,
        volatility: 0.06,
    };
    let puzzle = Rating {
        rating: 1210.0,
        deviation: 240.0,
        volatility: 0.06,
    };
    let mut ann = KeyPuzzles {
        store: &store,
        key: "SHA256:ann",
    };
    ann.record(
        &attempt("00abc3b5", 100, true, true, 1650.0),
        after_solve,
        Some(puzzle),
    )
    .unwrap();
    // A retry is not rated: the puzzle's rating stays.
    ann.record(
        &attempt("00abc3b5", 160, false, false, 1650.0),
        after_solve,
        None,
    )
    .unwrap();
    drop(store);
    let store = open(folder.path());
    let profile = store.puzzle_profile("SHA256:ann").unwrap();
    assert_eq!(profile.rating, after_solve);
    assert_eq!(
        profile.history,
        [
            attempt("00abc3b5", 100, true, true, 1650.0),
            attempt("00abc3b5", 160, false, false, 1650.0)
        ]
    );
    assert_eq!(profile.puzzles.get("00abc3b5"), Some(&puzzle));
    // Another key has its own rating and history, and sees the puzzle's rating.
    let bob = store.puzzle_profile("SHA256:bob").unwrap();
    assert_eq!((bob.rating, bob.history.len()), (Rating::default(), 0));
    assert_eq!(bob.puzzles.get("00abc3b5"), Some(&puzzle));
}

#[test]
fn a_version_one_database_gains_the_puzzle_tables_and_keeps_its_players() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join(DB_FILE);
    {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.execute_batch(schema::MIGRATIONS[0]).unwrap();
        db.execute_batch(
            "INSERT INTO players VALUES ('SHA256:ann', 'ann', 1, 2, 1700.0, 80.0, 0.06, 12);
             PRAGMA application_id = 1481725013; PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let store = open(folder.path());
    let ann = store.player_by_key("SHA256:ann").unwrap().unwrap();
    assert_eq!((ann.rating.rating, ann.games), (1700.0, 12));
    assert_eq!(
        store.puzzle_profile("SHA256:ann").unwrap(),
        PuzzleProfile::default()
    );
}
