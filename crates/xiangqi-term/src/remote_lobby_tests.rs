use xiangqi_app::key::{KeyCode, KeyEvent, KeyModifiers};

use super::*;

fn typed(lobby: &mut Lobby, text: &str) -> Vec<Intent> {
    for c in text.chars() {
        lobby.handle(Action::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    }
    lobby.handle(Action::Key(KeyEvent::new(
        KeyCode::Enter,
        KeyModifiers::NONE,
    )))
}

#[test]
fn after_a_failed_command_the_line_is_empty_and_the_next_one_works() {
    let mut lobby = Lobby::default();
    assert!(typed(&mut lobby, "jion r1").is_empty());
    let (error, alert) = lobby.message.clone().unwrap();
    assert!(alert && error.starts_with("jion r1: "), "{error}");
    assert!(lobby.line.is_empty(), "the failed command left the line");
    // The next command is not glued to the failed one ("jion r1help").
    assert!(typed(&mut lobby, "help").is_empty());
    assert!(lobby.help);
    assert_eq!(lobby.message, None, "the error goes with the next command");
    // A command the server refuses later (no such room) also starts afresh.
    let intents = typed(&mut lobby, "join nosuch");
    assert!(matches!(&intents[..], [Intent::Lobby(LobbyCommand::Join(room))] if room == "nosuch"));
    lobby.message = Some(("no room nosuch".to_owned(), true));
    assert!(lobby.line.is_empty());
    let intents = typed(&mut lobby, "new human k1");
    assert!(
        matches!(&intents[..], [Intent::Lobby(LobbyCommand::NewHuman(Some(room)))] if room == "k1"),
        "{intents:?}"
    );
}

fn key(lobby: &mut Lobby, code: KeyCode) -> Vec<Intent> {
    lobby.handle(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn room(name: &str) -> RoomSummary {
    RoomSummary {
        name: name.to_owned(),
        kind: RoomKind::Human,
        red: Some("bob".to_owned()),
        black: None,
        spectators: 0,
        plies: 0,
        to_move: xiangqi_core::board::Color::Red,
        over: false,
        opening: None,
    }
}

fn games_page(ids: &[i64]) -> Page {
    Page {
        title: "your last games".to_owned(),
        heading: "ID ...".to_owned(),
        rows: ids
            .iter()
            .map(|&id| (format!("{id}"), LobbyCommand::Pgn(id)))
            .collect(),
        selected: 0,
        opening: "step through the game",
    }
}

#[test]
fn the_empty_room_list_says_what_to_type_whole_at_80_columns() {
    use xiangqi_app::config::{Config, Overrides};
    let config = Config::load(None, None, &Overrides::default()).unwrap();
    let app = App::new(
        config,
        xiangqi_app::config::theme::ColorEnv::default(),
        false,
    );
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|frame| draw(&Lobby::default(), &app, frame))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let text: String = (0..buffer.area.height)
        .map(|y| {
            let row: String = (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect();
            format!("{} ", row.trim_matches(['│', ' ']))
        })
        .collect();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("'drill' for the endgame school"), "{text}");
    assert!(
        text.contains("'new engine' to play the engine or train alone"),
        "{text}"
    );
    // The help: a description's rest under the descriptions, not under the commands.
    let mut lobby = Lobby {
        help: true,
        ..Lobby::default()
    };
    let screen = |terminal: &mut ratatui::Terminal<ratatui::backend::TestBackend>,
                  lobby: &Lobby| {
        terminal.draw(|frame| draw(lobby, &app, frame)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..buffer.area.height)
            .map(|y| {
                (0..buffer.area.width)
                    .map(|x| buffer[(x, y)].symbol().to_owned())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
    };
    let rows = screen(&mut terminal, &lobby);
    // Taller than 24 rows: it says how to scroll, and scrolls to its end, no further.
    assert!(
        rows.iter()
            .any(|row| row.starts_with(" Up/Down: scroll | Esc: the rooms")),
        "{rows:#?}"
    );
    let first = rows[1].clone();
    for _ in 0..200 {
        lobby.select(1);
    }
    let rows = screen(&mut terminal, &lobby);
    let last = rows.iter().rposition(|row| row.starts_with('│')).unwrap();
    assert!(
        rows[last].contains("standings NAME [--json] | help"),
        "{rows:#?}"
    );
    assert!(
        lobby.help_scroll > 0
            && lobby.help_scroll == lobby.help_rows_hidden.load(Ordering::Relaxed)
    );
    for _ in 0..lobby.help_scroll {
        lobby.select(-1);
    }
    assert_eq!(screen(&mut terminal, &lobby)[1], first);
    let rows = screen(&mut terminal, &lobby);
    let control = rows
        .iter()
        .position(|row| row.starts_with("│  CONTROL "))
        .unwrap();
    assert!(
        rows[control + 1].starts_with(&format!("│{}it ", " ".repeat(28))),
        "{}",
        rows[control + 1]
    );
    lobby.help_scroll = lobby.help_rows_hidden.load(Ordering::Relaxed);
    let rows = screen(&mut terminal, &lobby);
    let at = rows
        .iter()
        .position(|row| row.contains("│drill [ENDING]"))
        .unwrap();
    assert!(rows[at].ends_with("perfect       │"), "{}", rows[at]);
    assert!(
        rows[at + 1].starts_with(&format!("│{}defence ", " ".repeat(28))),
        "{}",
        rows[at + 1]
    );
    // A list's keys too long with the rest: the way out stays, the help goes.
    lobby.help = false;
    lobby.page = Some(Page {
        opening: "step through the game",
        ..games_page(&[1])
    });
    terminal.draw(|frame| draw(&lobby, &app, frame)).unwrap();
    let buffer = terminal.backend().buffer();
    let keys: String = (0..80)
        .map(|x| buffer[(x, 20)].symbol().to_owned())
        .collect();
    assert_eq!(
        keys.trim_end(),
        " Up/Down, Enter: step through the game | Esc: the rooms | Ctrl-C leaves"
    );
}

#[test]
fn up_down_and_enter_act_on_the_list_shown_and_nothing_under_it() {
    let mut lobby = Lobby::default();
    lobby.set_rooms(vec![room("h1"), room("h2")]);
    lobby.page = Some(games_page(&[9, 7]));
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Down);
    assert_eq!(lobby.selected, 0, "the rooms' selection stays");
    let intents = key(&mut lobby, KeyCode::Enter);
    assert!(
        matches!(&intents[..], [Intent::Lobby(LobbyCommand::Pgn(7))]),
        "{intents:?}"
    );
    // An empty list and the help offer nothing to Enter.
    lobby.page = Some(games_page(&[]));
    assert!(key(&mut lobby, KeyCode::Enter).is_empty());
    assert!(lobby.page.is_some());
    lobby.page = None;
    lobby.help = true;
    assert!(key(&mut lobby, KeyCode::Down).is_empty());
    assert!(key(&mut lobby, KeyCode::Enter).is_empty());
    // Esc: the rooms again, where Enter takes the open seat.
    key(&mut lobby, KeyCode::Esc);
    key(&mut lobby, KeyCode::Down);
    let intents = key(&mut lobby, KeyCode::Enter);
    assert!(
        matches!(&intents[..], [Intent::Lobby(LobbyCommand::Join(room))] if room == "h2"),
        "{intents:?}"
    );
}

#[test]
fn the_keys_are_the_keymaps_and_the_line_edits_as_the_apps() {
    // The help lists the lobby's keys from the keymap, quitting with them.
    let lines = key_lines();
    for keys in [
        "Up/Down ",
        "Enter ",
        "Esc ",
        "Home End Bksp Del ",
        "Ctrl-C, Ctrl-D ",
    ] {
        assert!(
            lines.iter().any(|line| line.starts_with(keys)),
            "{keys}: {lines:?}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|line| line.ends_with("leave the server; a player's seat is kept")),
        "{lines:?}"
    );
    // The line editor's keys, Ctrl-W and Home included.
    let mut lobby = Lobby::default();
    for c in "watch r1".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    lobby.handle(Action::Key(KeyEvent::new(
        KeyCode::Char('w'),
        KeyModifiers::CONTROL,
    )));
    assert_eq!(lobby.line.text(), "watch ");
    key(&mut lobby, KeyCode::Home);
    key(&mut lobby, KeyCode::Delete);
    assert_eq!(lobby.line.text(), "atch ");
    key(&mut lobby, KeyCode::Esc);
    assert!(lobby.line.is_empty());
}
