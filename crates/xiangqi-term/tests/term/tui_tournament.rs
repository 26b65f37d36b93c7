//! The tournament screen of a remote session: a Swiss of six in its second round at
//! 80x24 (everything readable) and 120x40, a larger field cut with how many more, and
//! its keys (a board watched or played, `say`, Esc back to the rooms).

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use xiangqi_app::action::Action;
use xiangqi_app::config::Config;
use xiangqi_app::game::{BoardRow, LobbyCommand, StandingRow, TournamentCommand, TournamentView};
use xiangqi_app::key::{KeyCode, KeyEvent, KeyModifiers};
use xiangqi_term::{Intent, RemoteSession};

use crate::tui_support::screen_text;

fn row(rank: usize, name: &str, score: f64, bh: f64, sb: f64) -> StandingRow {
    StandingRow {
        rank,
        name: name.to_owned(),
        score,
        games: 1,
        tiebreaks: vec![
            ("buchholz", bh),
            ("buchholz_cut1", bh),
            ("sonneborn_berger", sb),
            ("direct_encounter", 0.0),
        ],
        on_fire: false,
        withdrawn: false,
    }
}

fn board(label: &str, red: &str, black: &str, state: &str, mine: bool) -> BoardRow {
    BoardRow {
        room: Some(format!("club-2-{label}")),
        label: label.to_owned(),
        red: red.to_owned(),
        black: black.to_owned(),
        state: state.to_owned(),
        mine,
    }
}

fn club() -> TournamentView {
    TournamentView {
        name: "club".to_owned(),
        about: "swiss 3 rounds | 5+3 | rated | by ann".to_owned(),
        state: "round 2 of 3: 2 games on".to_owned(),
        you: Some("you play board 2 (Black) against cy (Enter on it)".to_owned()),
        standings: vec![
            row(1, "ann", 1.0, 0.0, 0.0),
            row(1, "cy", 1.0, 0.0, 0.0),
            row(1, "ed", 1.0, 0.0, 0.0),
            row(4, "bob", 0.0, 1.0, 0.0),
            row(4, "di", 0.0, 1.0, 0.0),
            row(4, "flo", 0.0, 1.0, 0.0),
        ],
        boards: vec![
            board("1", "ann 1512", "ed 1512", "1-0", false),
            board("2", "cy 1512", "bob 1488", "move 7", true),
            board("3", "di 1488", "flo 1488", "starting", false),
        ],
        chat: vec![
            "* round 1 of 3 is paired: 1. ann - bob; 2. di - cy; 3. ed - flo".to_owned(),
            "* round 1, board 1: ann 1-0 bob (game #1)".to_owned(),
            "* round 2 of 3 is paired: 1. ann - ed; 2. cy - bob; 3. di - flo".to_owned(),
            "ed: good luck all".to_owned(),
        ],
    }
}

fn session(width: u16, height: u16) -> RemoteSession {
    let config = Config::load(None, None, &Default::default()).unwrap();
    // The screen starts no work: a pool of one thread is enough.
    let jobs = xiangqi_app::jobs::Jobs::new(1, 16, 8).unwrap();
    let work = xiangqi_app::remote_work::RemoteWork::new(jobs, "127.0.0.1");
    let mut session = RemoteSession::new(config, "xterm-256color", width, height, work).unwrap();
    session.show_lobby(Vec::new());
    session
}

fn screen(session: &RemoteSession, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|frame| session.draw(frame)).unwrap();
    screen_text(terminal.backend().buffer())
}

#[test]
fn a_swiss_of_six_in_its_second_round_at_80x24() {
    let mut session = session(80, 24);
    session.show_tournament(club());
    assert_snapshot!(screen(&session, 80, 24));
}

#[test]
fn a_swiss_of_six_in_its_second_round_at_120x40() {
    let mut session = session(120, 40);
    session.show_tournament(club());
    assert_snapshot!(screen(&session, 120, 40));
}

#[test]
fn a_large_field_at_80x24_ends_its_standings_with_how_many_more() {
    let mut view = club();
    view.standings = (1..=30)
        .map(|i| {
            row(
                i,
                &format!("p{i}"),
                3.0 - f64::from(i as u32) / 10.0,
                1.0,
                1.0,
            )
        })
        .collect();
    view.boards = (1..=15)
        .map(|i| {
            board(
                &i.to_string(),
                &format!("p{i}"),
                &format!("p{}", 31 - i),
                "starting",
                i == 9,
            )
        })
        .collect();
    let mut session = session(80, 24);
    session.show_tournament(view);
    let text = screen(&session, 80, 24);
    assert!(text.contains("... 24 more: standings club"), "{text}");
    // The viewer's board is the one chosen, and shown.
    assert!(text.contains(">    9 p9"), "{text}");
    assert!(text.contains("ed: good luck all"), "{text}");
}

fn key(session: &mut RemoteSession, code: KeyCode) -> Vec<Intent> {
    session.handle(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

#[test]
fn enter_plays_ones_board_or_watches_another_say_chats_and_esc_leaves() {
    let mut session = session(80, 24);
    session.show_tournament(club());
    // The viewer's own board is chosen first.
    assert_eq!(
        key(&mut session, KeyCode::Enter),
        [Intent::Lobby(LobbyCommand::Join("club-2-2".into()))]
    );
    key(&mut session, KeyCode::Down);
    assert_eq!(
        key(&mut session, KeyCode::Enter),
        [Intent::Lobby(LobbyCommand::Watch("club-2-3".into()))]
    );
    // A refresh keeps the board chosen.
    session.show_tournament(club());
    assert_eq!(
        key(&mut session, KeyCode::Enter),
        [Intent::Lobby(LobbyCommand::Watch("club-2-3".into()))]
    );
    assert_eq!(
        session.feed(b"say well played\r"),
        [Intent::Lobby(LobbyCommand::Tournament(
            TournamentCommand::Say {
                name: "club".into(),
                text: "well played".into()
            }
        ))]
    );
    assert_eq!(
        key(&mut session, KeyCode::Esc),
        [Intent::Lobby(LobbyCommand::Rooms)]
    );
    assert!(screen(&session, 80, 24).contains("xiangqi rooms"));
}
