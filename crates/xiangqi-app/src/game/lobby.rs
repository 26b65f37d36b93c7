//! The server's lobby as data: the kinds of room, a room's row in the list, the lobby
//! commands (typed in the lobby or given as the SSH command) and room names.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use xiangqi_core::board::Color;
use xiangqi_core::clock::TimeControl;

use super::tournament::{TournamentCommand, parse_standings, parse_tournament};

/// The commands, as the usage line and the lobby show them.
pub const LOBBY_USAGE: &str = "new engine|human [ROOM] [CONTROL] [unrated] | play [CONTROL] | \
     join ROOM | watch ROOM | rooms | games [NAME] | pgn ID | top | puzzle [ID|mate N|theme T] | \
     drill [ENDING] | resume CODE | rename NAME | tournaments | tournament ... | \
     standings NAME [--json] | help";

/// What each lobby command does, for `help` (in the lobby and as the SSH command).
pub const LOBBY_HELP: &[(&str, &str)] = &[
    (
        "new engine [ROOM] [CONTROL]",
        "a game against the engine: you play Red",
    ),
    (
        "new human [ROOM] [CONTROL]",
        "a room for two: you on Black, whoever joins opens",
    ),
    (
        "  CONTROL",
        "10+5, 5m/move, 30s/move or none; 'unrated' after it",
    ),
    (
        "play [CONTROL]",
        "a seat waiting with that clock, or a new room",
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
        "an archived game, stepped through (command: its PGN)",
    ),
    ("top", "the leaderboard: rating, deviation, rated games"),
    (
        "puzzle [ID|mate N|theme T]",
        "certified mate puzzles at your level, rated",
    ),
    (
        "drill [ENDING]",
        "the endgame school: endings against perfect defence",
    ),
    (
        "resume CODE",
        "a guest's seat again, by the code it was shown",
    ),
    (
        "rename NAME",
        "your key's new name (once a week; old kept 30 days)",
    ),
    (
        "tournaments",
        "the tournaments: upcoming, running, finished",
    ),
    ("tournament NAME", "its players, standings, boards and chat"),
    (
        "tournament join|leave NAME",
        "take part, or leave (withdraw once it runs)",
    ),
    (
        "tournament new NAME swiss",
        "ROUNDS CONTROL [unrated]: a Swiss (arena MINUTES)",
    ),
    ("tournament start NAME", "the organiser starts it"),
    (
        "standings NAME [--json]",
        "the table; tournament NAME pgn: its games",
    ),
    ("help", "this list"),
];

/// `LOBBY_HELP` as lines, the commands in one column (at most 80 columns).
pub fn lobby_help_lines() -> Vec<String> {
    let width = LOBBY_HELP
        .iter()
        .map(|(command, _)| command.width())
        .max()
        .unwrap_or(0);
    LOBBY_HELP
        .iter()
        .map(|(command, what)| format!("{} {what}", pad(command, width)))
        .collect()
}

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
    /// The puzzle trainer, on what follows `puzzle` (as `:puzzle` takes it).
    Puzzle(String),
    /// The endgame school, on what follows `drill` (as `:drill` takes it).
    Drill(String),
    /// A guest comes back to the seat its resume code was shown for.
    Resume(ResumeCode),
    /// A key holder's new name (checked by the server as a sign-in's is).
    Rename(String),
    Help,
    /// `new KIND [ROOM] [CONTROL] [unrated]` with a clock or `unrated` given (the
    /// plain forms are `NewEngine` and `NewHuman`).
    New(NewRoom),
    /// `play [CONTROL]`: an open seat with that clock, or a new room waiting for one.
    Play(ClockChoice),
    /// `tournament …`.
    Tournament(TournamentCommand),
    /// The list of tournaments.
    Tournaments,
    /// `standings NAME [--json]`.
    Standings {
        name: String,
        json: bool,
    },
}

/// The clock a room is asked for: unsaid (the server's default), `none`, or a control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockChoice {
    #[default]
    ServerDefault,
    Untimed,
    Control(TimeControl),
}

impl ClockChoice {
    /// The control it means on a server whose rooms default to `default`.
    pub fn resolve(self, default: Option<TimeControl>) -> Option<TimeControl> {
        match self {
            ClockChoice::ServerDefault => default,
            ClockChoice::Untimed => None,
            ClockChoice::Control(control) => Some(control),
        }
    }

    /// `none` or a control as players write it (`10+5`, `5m/move`, `30s/move`).
    pub fn parse(text: &str) -> Result<ClockChoice, String> {
        if text.eq_ignore_ascii_case("none") {
            return Ok(ClockChoice::Untimed);
        }
        text.parse()
            .map(ClockChoice::Control)
            .map_err(|error: xiangqi_core::clock::TimeControlError| error.to_string())
    }
}

/// A new room as asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRoom {
    pub kind: RoomKind,
    pub name: Option<String>,
    pub clock: ClockChoice,
    /// Whether its games change ratings (`unrated` says no).
    pub rated: bool,
}

impl NewRoom {
    /// The command: the plain forms (no clock, rated) are `NewEngine` and `NewHuman`.
    fn into_command(self) -> LobbyCommand {
        match self {
            NewRoom {
                kind,
                name,
                clock: ClockChoice::ServerDefault,
                rated: true,
            } => match kind {
                RoomKind::Engine => LobbyCommand::NewEngine(name),
                RoomKind::Human => LobbyCommand::NewHuman(name),
            },
            order => LobbyCommand::New(order),
        }
    }
}

impl LobbyCommand {
    /// The room a `new` command asks for, whichever form it was typed in.
    pub fn new_room(&self) -> Option<NewRoom> {
        let plain = |kind, name: &Option<String>| NewRoom {
            kind,
            name: name.clone(),
            clock: ClockChoice::ServerDefault,
            rated: true,
        };
        match self {
            LobbyCommand::NewEngine(name) => Some(plain(RoomKind::Engine, name)),
            LobbyCommand::NewHuman(name) => Some(plain(RoomKind::Human, name)),
            LobbyCommand::New(order) => Some(order.clone()),
            _ => None,
        }
    }
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
    /// The opening's ECCO code, once the table knows it.
    pub opening: Option<xiangqi_engine::opening::Ecco>,
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
            ["new", kind @ ("engine" | "human"), rest @ ..] => {
                new_room(kind, rest, room).map(NewRoom::into_command)
            }
            ["play"] => Ok(LobbyCommand::Play(ClockChoice::ServerDefault)),
            ["play", control] => Ok(LobbyCommand::Play(ClockChoice::parse(control)?)),
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
            ["puzzle" | "puzzles", rest @ ..] => Ok(LobbyCommand::Puzzle(rest.join(" "))),
            ["drill", rest @ ..] => Ok(LobbyCommand::Drill(rest.join(" "))),
            ["help"] => Ok(LobbyCommand::Help),
            ["resume", code] => Ok(LobbyCommand::Resume(ResumeCode::parse(code)?)),
            ["rename", name] => Ok(LobbyCommand::Rename((*name).to_owned())),
            ["tournaments"] => Ok(LobbyCommand::Tournaments),
            ["tournament", rest @ ..] => parse_tournament(rest).map(LobbyCommand::Tournament),
            ["standings", rest @ ..] => {
                parse_standings(rest).map(|(name, json)| LobbyCommand::Standings { name, json })
            }
            ["new", kind, ..] => Err(misspelt(kind, &["engine", "human"], "new ")),
            [word, ..] if !LOBBY_WORDS.contains(word) => Err(misspelt(word, LOBBY_WORDS, "")),
            _ => Err(format!("usage: {LOBBY_USAGE}")),
        }
    }
}

/// The first words of the lobby's commands.
const LOBBY_WORDS: &[&str] = &[
    "new",
    "play",
    "join",
    "watch",
    "rooms",
    "games",
    "pgn",
    "top",
    "puzzle",
    "puzzles",
    "drill",
    "help",
    "resume",
    "rename",
    "tournaments",
    "tournament",
    "standings",
];

/// A word none of `known` is: the one it likely meant (after `before`), and the usage.
fn misspelt(word: &str, known: &[&str], before: &str) -> String {
    let shown: String = word.chars().filter(|c| !c.is_control()).take(20).collect();
    match crate::config::suggest::closest(word, known.iter().copied()) {
        Some(meant) => format!(
            "unknown command '{before}{shown}' (did you mean '{before}{meant}'?); \
             usage: {LOBBY_USAGE}"
        ),
        None => format!("unknown command '{before}{shown}'; usage: {LOBBY_USAGE}"),
    }
}

/// `new KIND` followed by `[ROOM] [CONTROL] [unrated]`. A lone word that reads as a
/// clock (`none` too) is the clock; with two, the room name comes first.
fn new_room(
    kind: &str,
    words: &[&str],
    room: impl Fn(&str) -> Result<String, String>,
) -> Result<NewRoom, String> {
    let kind = if kind == "engine" {
        RoomKind::Engine
    } else {
        RoomKind::Human
    };
    let (rated, words) = match words.split_last() {
        Some((last, rest)) if last.eq_ignore_ascii_case("unrated") => (false, rest),
        _ => (true, words),
    };
    let is_clock = |word: &str| ClockChoice::parse(word).is_ok();
    let (name, clock) = match words {
        [] => (None, ClockChoice::ServerDefault),
        [word] if is_clock(word) => (None, ClockChoice::parse(word)?),
        [name] => (Some(room(name)?), ClockChoice::ServerDefault),
        [name, clock] => (Some(room(name)?), ClockChoice::parse(clock)?),
        _ => return Err(format!("usage: {LOBBY_USAGE}")),
    };
    Ok(NewRoom {
        kind,
        name,
        clock,
        rated,
    })
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
    columns(["ROOM", "RED", "BLACK", "MOVES", "ECCO", "WATCH", "STATE"])
}

/// One room as a line of the list, under `room_headings` (at most 79 columns: an
/// 80-column terminal shows the list whole). A player's name wider than its column is
/// cut with `~` here only. An engine room shows the engine in its seat, so the kind
/// needs no column of its own.
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
    let opening = room
        .opening
        .map(|code| code.to_string())
        .unwrap_or_default();
    columns([
        &room.name,
        &seat(&room.red),
        &seat(&room.black),
        &moves,
        &opening,
        &room.spectators.to_string(),
        &state,
    ])
}

const NAME_COLUMNS: usize = 13;

/// The list's columns: room, Red, Black (left), moves (right), opening, watching
/// (right), state.
fn columns(cells: [&str; 7]) -> String {
    let [room, red, black, moves, opening, watching, state] = cells;
    format!(
        "{} {} {} {} {} {}  {state}",
        pad(room, 16),
        pad(red, NAME_COLUMNS),
        pad(black, NAME_COLUMNS),
        pad_left(moves, 5),
        pad(opening, 4),
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
#[path = "lobby_tests.rs"]
mod tests;
