//! The store's tournaments (issue 43): a tournament kept with its players, boards and
//! chat, an archived game giving its board's result, and the migration that adds them.

use std::path::Path;

use super::tests::finished;
use super::*;

fn open(folder: &Path) -> SqliteStore {
    SqliteStore::open_in(folder).unwrap()
}

fn tournament_record(name: &str) -> TournamentRecord {
    TournamentRecord {
        id: 0,
        name: name.to_owned(),
        kind: "swiss".to_owned(),
        amount: 3,
        time_control: "5+3".to_owned(),
        rated: true,
        creator_key: "SHA256:ann".to_owned(),
        creator_name: "ann".to_owned(),
        stage: Stage::Upcoming,
        pause_s: 0,
        created: 10,
        started: None,
        ends: None,
        finished: None,
    }
}

fn entrant(seq: u32, name: &str) -> EntrantRecord {
    EntrantRecord {
        seq,
        key: format!("SHA256:{name}"),
        name: name.to_owned(),
        rating: 1500,
        active: true,
        joined_round: 1,
    }
}

#[test]
fn a_tournament_is_kept_with_its_players_boards_and_chat_and_an_archived_game_gives_its_result() {
    let folder = tempfile::tempdir().unwrap();
    let store = open(folder.path());
    let mut record = tournament_record("club");
    let players = [entrant(0, "ann"), entrant(1, "bob"), entrant(2, "cy")];
    let id = store.save_tournament(&record, Some(&players), &[]).unwrap();
    record.id = id;
    // The name is the tournament's, in any case.
    let again = store.save_tournament(&tournament_record("CLUB"), None, &[]);
    assert_eq!(
        again,
        Err(StoreError::Database(
            "a tournament named CLUB exists".into()
        ))
    );
    record.stage = Stage::Running;
    record.started = Some(20);
    let board = BoardRecord {
        round: 1,
        board: 1,
        red: "SHA256:ann".into(),
        black: Some("SHA256:bob".into()),
        room: Some("club-1-1".into()),
        result: None,
        game: None,
        paired: 21,
    };
    let bye = BoardRecord {
        round: 1,
        board: 2,
        red: "SHA256:cy".into(),
        black: None,
        room: None,
        result: Some("bye".into()),
        game: None,
        paired: 21,
    };
    assert_eq!(
        store
            .save_tournament(&record, None, &[board.clone(), bye.clone()])
            .unwrap(),
        id
    );
    store
        .add_tournament_chat(
            id,
            &ChatLine {
                seq: 0,
                from: String::new(),
                text: "* round 1 of 3 is paired".into(),
                time: 21,
            },
        )
        .unwrap();
    let mut game = finished(
        ("ann", Some("SHA256:ann")),
        ("bob", Some("SHA256:bob")),
        "1-0",
    );
    game.tournament = Some(BoardId {
        tournament: id,
        round: 1,
        board: 1,
    });
    let archived = store.archive(&game, Some("club-1-1")).unwrap();
    // Saved again from what the server held before it saw the result: the result
    // stays.
    store
        .save_tournament(&record, None, std::slice::from_ref(&board))
        .unwrap();
    drop(store);
    let store = open(folder.path());
    let saved = store.tournaments(10).unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].record, record);
    assert_eq!(saved[0].entrants, players);
    let done = BoardRecord {
        result: Some("1-0".into()),
        game: Some(archived.id),
        ..board
    };
    assert_eq!(saved[0].boards, [done, bye]);
    assert_eq!(saved[0].chat.len(), 1);
    assert_eq!(saved[0].chat[0].text, "* round 1 of 3 is paired");
    assert_eq!(store.tournament_pgns(id).unwrap(), [game.pgn]);
    // Leaving the list is a new list of players.
    store
        .save_tournament(&record, Some(&players[..2]), &[])
        .unwrap();
    assert_eq!(store.tournaments(10).unwrap()[0].entrants, &players[..2]);
}

#[test]
fn a_version_two_database_gains_the_tournament_tables_and_keeps_its_games() {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join(DB_FILE);
    {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.execute_batch(schema::MIGRATIONS[0]).unwrap();
        db.execute_batch(schema::MIGRATIONS[1]).unwrap();
        db.execute_batch(
            "INSERT INTO games (pgn, red_name, red_key, black_name, black_key, result,
                                termination, time_control, rated, started, ended)
             VALUES ('[Result \"1-0\"]', 'ann', NULL, 'bob', NULL, '1-0', 'Black resigned',
                     'none', 0, 1, 2);
             PRAGMA application_id = 1481725013; PRAGMA user_version = 2;",
        )
        .unwrap();
    }
    let store = open(folder.path());
    assert_eq!(
        store.game(1).unwrap().unwrap().game.termination,
        "Black resigned"
    );
    assert_eq!(store.tournaments(10).unwrap(), []);
    let id = store
        .save_tournament(&tournament_record("club"), None, &[])
        .unwrap();
    assert_eq!(store.tournaments(10).unwrap()[0].record.id, id);
}
