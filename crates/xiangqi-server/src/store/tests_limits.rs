//! The store's limits of issue 39: look-alike names, renames with a cool-down and the
//! old name kept, idle players deleted, a room's chat cut to its newest lines, games
//! adjourned and resumed.

use super::*;

fn open(folder: &std::path::Path) -> SqliteStore {
    SqliteStore::open_in(folder).unwrap()
}

const DAY: UnixTime = 24 * 60 * 60;

#[test]
fn a_name_like_another_keys_is_refused_and_a_rename_keeps_the_old_one_a_while() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    store.sign_in("SHA256:ann", "ann", 1).unwrap();
    // A Cyrillic а: the same name to the eye.
    assert_eq!(
        store.sign_in("SHA256:eve", "\u{430}nn", 2).unwrap_err(),
        StoreError::NameConfusable {
            name: "\u{430}nn".into(),
            like: "ann".into()
        }
    );
    // Ann renames: the new name is hers, the old one kept for her.
    let renamed = store.rename("SHA256:ann", "anna", 10).unwrap();
    assert_eq!(renamed.name, "anna");
    assert_eq!(
        store.sign_in("SHA256:eve", "ann", 11).unwrap_err(),
        StoreError::NameReserved { name: "ann".into() }
    );
    // Not again within the week.
    assert_eq!(
        store.rename("SHA256:ann", "annie", 10 + DAY).unwrap_err(),
        StoreError::RenameTooSoon { days: 6 }
    );
    assert_eq!(
        StoreError::RenameTooSoon { days: 6 }.to_string(),
        "you renamed less than 7 days ago: the next rename is possible in 6 days"
    );
    // Back to her old name is hers to take: she is its keeper.
    let back = store
        .rename("SHA256:ann", "ann", 10 + RENAME_COOLDOWN)
        .unwrap();
    assert_eq!(back.name, "ann");
    // Once the time is over the name left is anyone's.
    store
        .purge_players(0, 10 + RENAME_COOLDOWN + NAME_RESERVED)
        .unwrap();
    assert_eq!(
        store.sign_in("SHA256:eve", "anna", 12).unwrap().name,
        "anna"
    );
}

#[test]
fn idle_players_with_nothing_kept_are_deleted() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    store.sign_in("SHA256:idle", "idle", 1).unwrap();
    store.sign_in("SHA256:seen", "seen", 100 * DAY).unwrap();
    store.sign_in("SHA256:played", "played", 1).unwrap();
    store.sign_in("SHA256:bob", "bob", 1).unwrap();
    let game = FinishedGame {
        pgn: "[Result \"1-0\"]\n\n1. h2e2 1-0\n".into(),
        red: Side {
            name: "played".into(),
            key: Some("SHA256:played".into()),
        },
        black: Side {
            name: "bob".into(),
            key: Some("SHA256:bob".into()),
        },
        result: "1-0".into(),
        termination: "resignation".into(),
        time_control: "none".into(),
        rated: false,
        started: 1,
        ended: 2,
        tournament: None,
    };
    store.archive(&game, None).unwrap();
    assert_eq!(
        store
            .purge_players(91 * DAY - IDLE_PLAYER + DAY, 91 * DAY)
            .unwrap(),
        1
    );
    assert!(store.player_by_key("SHA256:idle").unwrap().is_none());
    for kept in ["SHA256:seen", "SHA256:played", "SHA256:bob"] {
        assert!(store.player_by_key(kept).unwrap().is_some(), "{kept}");
    }
    // Its name is free again.
    assert_eq!(
        store.sign_in("SHA256:new", "idle", 92 * DAY).unwrap().name,
        "idle"
    );
}

#[test]
fn a_rooms_chat_keeps_its_newest_lines_and_an_adjourned_room_is_marked() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    let line = |seq: u64| ChatLine {
        seq,
        from: String::new(),
        text: format!("line {seq}"),
        time: 1,
    };
    for batch in 0..5u64 {
        let lines: Vec<ChatLine> = (batch * 60..batch * 60 + 60).map(line).collect();
        store.save_room("k7", "*", &lines, 1).unwrap();
    }
    let kept = store.chat("k7", 1000).unwrap();
    assert_eq!(kept.len(), CHAT_STORED);
    assert_eq!(kept.first().map(|l| l.seq), Some(100));
    assert_eq!(kept.last().map(|l| l.seq), Some(299));
    store.adjourn_room("k7", Some(42)).unwrap();
    assert_eq!(store.room("k7").unwrap().unwrap().adjourned, Some(42));
    // Saved again, it stays adjourned until resumed.
    store.save_room("k7", "*", &[], 2).unwrap();
    assert_eq!(store.rooms().unwrap()[0].adjourned, Some(42));
    store.adjourn_room("k7", None).unwrap();
    assert_eq!(store.room("k7").unwrap().unwrap().adjourned, None);
}
