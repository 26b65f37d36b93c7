//! Tests of the tournament model: results as the store keeps them, the games' names,
//! and the Swiss and arena standings from boards.

use super::*;

fn entrant(seq: u32, name: &str, rating: u32) -> EntrantRecord {
    EntrantRecord {
        seq,
        key: format!("SHA256:{name}"),
        name: name.to_owned(),
        rating,
        active: true,
        joined_round: 1,
    }
}

fn record(kind: &str, amount: u32) -> TournamentRecord {
    TournamentRecord {
        id: 4,
        name: "club".into(),
        kind: kind.into(),
        amount,
        time_control: "5+3".into(),
        rated: true,
        creator_key: "SHA256:ann".into(),
        creator_name: "ann".into(),
        stage: Stage::Running,
        pause_s: 0,
        created: 1,
        started: Some(2),
        ends: None,
        finished: None,
    }
}

fn board(round: u32, number: u32, red: &str, black: Option<&str>, result: &str) -> BoardRecord {
    BoardRecord {
        round,
        board: number,
        red: format!("SHA256:{red}"),
        black: black.map(|b| format!("SHA256:{b}")),
        room: black.map(|_| format!("club-{round}-{number}")),
        result: (!result.is_empty()).then(|| result.to_owned()),
        game: None,
        paired: 3,
    }
}

#[test]
fn results_read_back_as_the_store_keeps_them() {
    for token in ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "void", "bye"] {
        let result = BoardResult::parse(token).unwrap();
        assert_eq!(result.token(), token);
    }
    assert_eq!(BoardResult::parse("*"), None);
    assert_eq!(BoardResult::parse("2-0"), None);
    assert_eq!(
        BoardResult::Forfeit(Some(Color::Black)).text(),
        "0-1 forfeit"
    );
}

#[test]
fn a_tournament_game_is_named_by_its_round_and_board() {
    let swiss = TournamentGame {
        id: BoardId {
            tournament: 4,
            round: 2,
            board: 1,
        },
        event: "club".into(),
    };
    assert_eq!(swiss.label(), "club round 2, board 1");
    assert_eq!(swiss.round_tag(), "2");
    let arena = TournamentGame {
        id: BoardId {
            tournament: 5,
            round: 0,
            board: 7,
        },
        event: "blitz".into(),
    };
    assert_eq!(arena.label(), "blitz game 7");
    assert_eq!(arena.round_tag(), "-");
}

#[test]
fn a_restored_swiss_gives_the_pairing_crate_its_rounds_and_the_standings() {
    let saved = SavedTournament {
        record: record("swiss", 3),
        entrants: vec![
            entrant(0, "ann", 1600),
            entrant(1, "bob", 1550),
            entrant(2, "cy", 1500),
        ],
        boards: vec![
            board(1, 1, "ann", Some("cy"), "1-0"),
            board(1, 2, "bob", None, "bye"),
            board(2, 1, "bob", Some("ann"), "1/2-1/2"),
            board(2, 2, "cy", None, "bye"),
            board(3, 1, "cy", Some("bob"), ""),
        ],
        chat: vec![ChatLine {
            seq: 7,
            from: String::new(),
            text: "* round 3 of 3 is paired".into(),
            time: 9,
        }],
    };
    let tournament = Tournament::restore(saved).unwrap();
    assert_eq!(tournament.current_round(), 3);
    assert_eq!(tournament.control, "5+3".parse().unwrap());
    assert_eq!(
        tournament.chat().collect::<Vec<_>>(),
        ["* round 3 of 3 is paired"]
    );
    let view = tournament.pairing_view();
    use xiangqi_pairing::{Game, GameResult as Pr};
    assert_eq!(
        view.rounds,
        [
            vec![
                Game::Played {
                    white: 0,
                    black: 2,
                    result: Pr::WhiteWins
                },
                Game::Bye { player: 1 }
            ],
            vec![
                Game::Played {
                    white: 1,
                    black: 0,
                    result: Pr::Draw
                },
                Game::Bye { player: 2 }
            ],
            // The game on has no result yet.
            vec![],
        ]
    );
    let rows = tournament.standing_rows();
    let table: Vec<(usize, &str, f64, u32)> = rows
        .iter()
        .map(|r| (r.rank, r.name.as_str(), r.score, r.games))
        .collect();
    assert_eq!(
        table,
        [(1, "ann", 1.5, 2), (1, "bob", 1.5, 1), (3, "cy", 1.0, 1)]
    );
}

#[test]
fn an_arena_counts_streaks_and_leaves_out_games_not_played() {
    let mut saved = SavedTournament {
        record: record("arena", 30),
        entrants: vec![
            entrant(0, "ann", 1500),
            entrant(1, "bob", 1500),
            entrant(2, "cy", 1500),
        ],
        boards: vec![
            board(0, 1, "ann", Some("bob"), "1-0"),
            board(0, 2, "cy", Some("ann"), "0-1"),
            board(0, 3, "ann", Some("bob"), "void"),
            board(0, 4, "bob", Some("ann"), "0-1"),
            board(0, 5, "cy", Some("bob"), "1/2-1/2"),
        ],
        chat: Vec::new(),
    };
    saved.record.ends = Some(2 + 30 * 60);
    let tournament = Tournament::restore(saved).unwrap();
    // Win, win, then a win on fire: 2 + 2 + 4.
    assert_eq!(tournament.arena_points(0), 8);
    assert_eq!(tournament.arena_points(1), 1);
    let rows = tournament.standing_rows();
    assert_eq!(
        (
            rows[0].name.as_str(),
            rows[0].score,
            rows[0].games,
            rows[0].on_fire
        ),
        ("ann", 8.0, 3, true)
    );
    assert_eq!(rows[0].tiebreaks, [("performance", 2000.0)]);
}

#[test]
fn a_board_naming_a_player_it_does_not_have_is_refused() {
    let saved = SavedTournament {
        record: record("swiss", 3),
        entrants: vec![entrant(0, "ann", 1600)],
        boards: vec![board(1, 1, "ann", Some("zed"), "1-0")],
        chat: Vec::new(),
    };
    assert_eq!(
        Tournament::restore(saved).err(),
        Some("a board names a player it does not have".to_owned())
    );
}

#[test]
fn a_player_is_told_of_a_bye_in_the_round_on_only() {
    let saved = SavedTournament {
        record: record("swiss", 3),
        entrants: vec![
            entrant(0, "ann", 1600),
            entrant(1, "bob", 1550),
            entrant(2, "cy", 1500),
        ],
        boards: vec![
            board(1, 1, "ann", Some("cy"), "1-0"),
            board(1, 2, "bob", None, "bye"),
            board(2, 1, "bob", Some("ann"), ""),
            board(2, 2, "cy", None, "bye"),
        ],
        chat: vec![],
    };
    let tournaments = Tournaments {
        list: Mutex::new(vec![Tournament::restore(saved).unwrap()]),
        changed: watch::channel(0).0,
        wake: Notify::new(),
    };
    assert_eq!(
        tournaments.bye_for("SHA256:cy"),
        Some((
            "club 2".to_owned(),
            "club: round 2 of 3: you have the bye (a point)".to_owned()
        ))
    );
    // bob's bye was round 1's.
    assert_eq!(tournaments.bye_for("SHA256:bob"), None);
    assert_eq!(tournaments.bye_for("SHA256:ann"), None);
}
