//! The server's lobby as data: the kinds of room, a room's row in the list, the lobby
//! commands (typed in the lobby or given as the SSH command) and room names.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::board::Color;

/// The commands, as the usage line and the lobby show them.
pub const LOBBY_USAGE: &str = "new engine [ROOM] | new human [ROOM] | join ROOM | watch ROOM | \
     rooms | games [NAME] | pgn ID | top | resume CODE | help";

/// What each lobby command does, for `help` (in the lobby and as the SSH command).
pub const LOBBY_HELP: &[(&str, &str)] = &[
    (
        "new engine [ROOM]",
        "a game against the engine: you play Red",
    ),
    (
        "new human [ROOM]",
        "a room for two: you sit on Black, whoever joins opens",
    ),
    ("join ROOM", "take the open seat (or your own seat again)"),
    ("watch ROOM", "watch a game and its chat"),
    ("rooms", "the room list"),
    (
        "games [NAME]",
        "the last finished games of a player (yours)",
    ),
    (
        "pgn ID",
        "an archived game: step through it (as a command: its PGN)",
    ),
    ("top", "the leaderboard: rating, deviation, rated games"),
    (
        "resume CODE",
        "a guest's seat again, by the code it was shown",
    ),
    ("help", "this list"),
];

/// A lobby command, typed or given as the SSH command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LobbyCommand {
    NewEngine(Option<String>),
    NewHuman(Option<String>),
    Join(String),
    Watch(String),
    Rooms,
    /// The last archived games of a player (`None`: one's own).
    Games(Option<String>),
    /// An archived game by its id.
    Pgn(i64),
    /// The leaderboard.
    Top,
    /// A guest comes back to the seat its resume code was shown for.
    Resume(ResumeCode),
    Help,
}

/// What a guest (a client without a key) is told when it takes a seat, and types to
/// take that seat again from another connection: eight letters and digits shown as
/// `4F7K-9QXM`. The seat is the code's, not the name's, so a name proves nothing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ResumeCode(String);

/// Crockford's base 32: no I, L, O or U, so nothing is misread (a typed O is 0, I and
/// L are 1).
const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

impl ResumeCode {
    pub const LEN: usize = 8;

    /// A code from eight random bytes (5 bits of each: 40 bits).
    pub fn from_random(bytes: [u8; 8]) -> ResumeCode {
        ResumeCode(
            bytes
                .iter()
                .map(|&b| char::from(CODE_ALPHABET[usize::from(b) % 32]))
                .collect(),
        )
    }

    /// A typed code: case and the dash do not matter.
    pub fn parse(text: &str) -> Result<ResumeCode, String> {
        let code: String = text
            .chars()
            .filter(|&c| c != '-')
            .map(|c| match c.to_ascii_uppercase() {
                'O' => '0',
                'I' | 'L' => '1',
                c => c,
            })
            .collect();
        let valid = code.len() == Self::LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b));
        if valid {
            Ok(ResumeCode(code))
        } else {
            Err(format!(
                "bad resume code '{}': eight letters and digits, like 4F7K-9QXM",
                text.chars().take(20).collect::<String>()
            ))
        }
    }

    /// The code as stored (no dash).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ResumeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", &self.0[..4], &self.0[4..])
    }
}

/// Who plays in a room besides its creator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoomKind {
    Engine,
    Human,
}

impl RoomKind {
    /// The word the lobby and the saved rooms use.
    pub fn name(self) -> &'static str {
        match self {
            RoomKind::Engine => "engine",
            RoomKind::Human => "human",
        }
    }
}

/// One row of the lobby's room list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoomSummary {
    pub name: String,
    pub kind: RoomKind,
    pub red: Option<String>,
    pub black: Option<String>,
    pub spectators: usize,
    /// Half-moves played.
    pub plies: usize,
    /// Whose move it is.
    pub to_move: Color,
    pub over: bool,
}

/// A room name: 1 to 16 ASCII letters, digits and `-`.
pub fn valid_room_name(name: &str) -> bool {
    (1..=16).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

impl LobbyCommand {
    /// Parses a command line; the error says what is wrong in one line.
    pub fn parse(line: &str) -> Result<LobbyCommand, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let room = |name: &str| {
            if valid_room_name(name) {
                Ok(name.to_owned())
            } else {
                Err(format!(
                    "bad room name '{name}': 1-16 ASCII letters, digits or '-'"
                ))
            }
        };
        match words.as_slice() {
            ["new", "engine"] => Ok(LobbyCommand::NewEngine(None)),
            ["new", "engine", name] => Ok(LobbyCommand::NewEngine(Some(room(name)?))),
            ["new", "human"] => Ok(LobbyCommand::NewHuman(None)),
            ["new", "human", name] => Ok(LobbyCommand::NewHuman(Some(room(name)?))),
            ["join", name] => Ok(LobbyCommand::Join(room(name)?)),
            ["watch", name] => Ok(LobbyCommand::Watch(room(name)?)),
            ["rooms"] => Ok(LobbyCommand::Rooms),
            ["games"] => Ok(LobbyCommand::Games(None)),
            ["games", name] => Ok(LobbyCommand::Games(Some(player_name(name)?))),
            ["pgn", id] => match id.trim_start_matches('#').parse::<i64>() {
                Ok(id) if id > 0 => Ok(LobbyCommand::Pgn(id)),
                _ => Err(format!(
                    "bad game id '{}': the number `games` shows",
                    id.chars().take(20).collect::<String>()
                )),
            },
            ["top"] => Ok(LobbyCommand::Top),
            ["help"] => Ok(LobbyCommand::Help),
            ["resume", code] => Ok(LobbyCommand::Resume(ResumeCode::parse(code)?)),
            _ => Err(format!("usage: {LOBBY_USAGE}")),
        }
    }
}

/// A player's name as typed after `games`: at most 16 characters.
fn player_name(name: &str) -> Result<String, String> {
    if name.chars().count() > 16 || name.chars().any(char::is_control) {
        return Err(format!(
            "bad player name '{}': at most 16 characters",
            name.chars()
                .filter(|c| !c.is_control())
                .take(20)
                .collect::<String>()
        ));
    }
    Ok(name.to_owned())
}

/// The room list's headings, in the columns of `room_line`.
pub fn room_headings() -> String {
    columns(["ROOM", "KIND", "RED", "BLACK", "MOVES", "WATCH", "STATE"])
}

/// One room as a line of the list, under `room_headings` (at most 79 columns: an
/// 80-column terminal shows the list whole). A player's name wider than its column is
/// cut with `~` here only.
pub fn room_line(room: &RoomSummary) -> String {
    let seat = |name: &Option<String>| fit_name(name.as_deref().unwrap_or("(open)"), NAME_COLUMNS);
    let state = if room.over {
        "over".to_owned()
    } else if room.red.is_none() || room.black.is_none() {
        "waiting".to_owned()
    } else {
        format!("{} to move", room.to_move.name())
    };
    // Moves as players count them: Red's and Black's half-moves make one.
    let moves = room.plies.div_ceil(2).to_string();
    columns([
        &room.name,
        room.kind.name(),
        &seat(&room.red),
        &seat(&room.black),
        &moves,
        &room.spectators.to_string(),
        &state,
    ])
}

const NAME_COLUMNS: usize = 13;

/// The list's columns: room, kind, Red, Black (left), moves, watching (right), state.
fn columns(cells: [&str; 7]) -> String {
    let [room, kind, red, black, moves, watching, state] = cells;
    format!(
        "{} {} {} {} {} {}  {state}",
        pad(room, 16),
        pad(kind, 6),
        pad(red, NAME_COLUMNS),
        pad(black, NAME_COLUMNS),
        pad_left(moves, 5),
        pad_left(watching, 5),
    )
}

fn pad(text: &str, columns: usize) -> String {
    format!("{text}{}", " ".repeat(columns.saturating_sub(text.width())))
}

fn pad_left(text: &str, columns: usize) -> String {
    format!("{}{text}", " ".repeat(columns.saturating_sub(text.width())))
}

/// A player as a list shows them in `columns`: the name (which has no spaces) is cut
/// with `~` so that what follows it (`(guest)`, a rating, `(away)`) stays whole.
pub fn fit_name(text: &str, columns: usize) -> String {
    match text.split_once(' ') {
        Some((name, marks)) if marks.width() + 2 < columns => {
            let room = columns - marks.width() - 1;
            format!("{} {marks}", fit(name, room))
        }
        _ => fit(text, columns),
    }
}

/// `text` cut to `columns` display columns, `~` marking the cut.
fn fit(text: &str, columns: usize) -> String {
    if text.width() <= columns {
        return text.to_owned();
    }
    let mut cut = String::new();
    for c in text.chars() {
        if cut.width() + c.width().unwrap_or(0) + 1 > columns {
            break;
        }
        cut.push(c);
    }
    cut.push('~');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_exactly_and_room_names_are_checked() {
        assert_eq!(
            LobbyCommand::parse("new engine"),
            Ok(LobbyCommand::NewEngine(None))
        );
        assert_eq!(
            LobbyCommand::parse(" join  k7 "),
            Ok(LobbyCommand::Join("k7".into()))
        );
        assert_eq!(
            LobbyCommand::parse("watch a-b-c"),
            Ok(LobbyCommand::Watch("a-b-c".into()))
        );
        assert_eq!(LobbyCommand::parse("rooms"), Ok(LobbyCommand::Rooms));
        assert!(
            LobbyCommand::parse("join")
                .unwrap_err()
                .starts_with("usage: ")
        );
        assert!(
            LobbyCommand::parse("join 0123456789abcdefg")
                .unwrap_err()
                .starts_with("bad room name")
        );
        assert!(!valid_room_name("k_7"));
        assert!(valid_room_name("K-7"));
        assert_eq!(LobbyCommand::parse("help"), Ok(LobbyCommand::Help));
        assert_eq!(LobbyCommand::parse("games"), Ok(LobbyCommand::Games(None)));
        assert_eq!(
            LobbyCommand::parse("games ann"),
            Ok(LobbyCommand::Games(Some("ann".into())))
        );
        assert_eq!(LobbyCommand::parse("pgn 12"), Ok(LobbyCommand::Pgn(12)));
        assert_eq!(LobbyCommand::parse("pgn #12"), Ok(LobbyCommand::Pgn(12)));
        assert!(
            LobbyCommand::parse("pgn x")
                .unwrap_err()
                .starts_with("bad game id")
        );
        assert!(LobbyCommand::parse("pgn 0").is_err());
        assert_eq!(LobbyCommand::parse("top"), Ok(LobbyCommand::Top));
        assert_eq!(fit_name("alexander (guest)", 13), "alex~ (guest)");
        assert_eq!(fit_name("ann 1500?", 13), "ann 1500?");
        assert_eq!(fit_name("abcdefghijklmnop", 13), "abcdefghijkl~");
    }

    #[test]
    fn a_room_line_fits_80_columns_under_its_headings() {
        let mut room = RoomSummary {
            name: "sixteen-letters1".into(),
            kind: RoomKind::Human,
            red: Some("象棋大师象棋大师".into()),
            black: Some("bob".into()),
            spectators: 12,
            plies: 41,
            to_move: Color::Black,
            over: false,
        };
        assert_eq!(
            room_headings(),
            "ROOM             KIND   RED           BLACK         MOVES WATCH  STATE"
        );
        let line = room_line(&room);
        assert_eq!(
            line,
            "sixteen-letters1 human  象棋大师象棋~ bob              21    12  Black to move"
        );
        assert!(line.width() <= 79);
        room.over = true;
        assert!(room_line(&room).ends_with("  over"));
        room.over = false;
        room.red = None;
        assert!(room_line(&room).contains(" (open) "));
        assert!(room_line(&room).ends_with("  waiting"));
    }

    #[test]
    fn resume_codes_read_back_whatever_the_case_dash_or_lookalikes() {
        let code = ResumeCode::from_random([0, 1, 31, 32, 200, 255, 17, 99]);
        assert_eq!(code.to_string(), "01Z0-8ZH3");
        assert_eq!(code.as_str(), "01Z08ZH3");
        assert_eq!(
            LobbyCommand::parse("resume o1z0-8zh3"),
            Ok(LobbyCommand::Resume(code.clone()))
        );
        assert_eq!(ResumeCode::parse("OIZ08ZH3"), Ok(code));
        assert!(ResumeCode::parse("01Z0-8ZH").is_err());
        assert!(ResumeCode::parse("01Z0-8ZHU").is_err());
    }
}
