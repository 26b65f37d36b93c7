//! The server's lobby as data: the kinds of room, a room's row in the list, the lobby
//! commands (typed in the lobby or given as the SSH command) and room names.

/// The commands, as the usage line and the lobby show them.
pub const LOBBY_USAGE: &str =
    "new engine [ROOM] | new human [ROOM] | join ROOM | watch ROOM | rooms";

/// A lobby command, typed or given as the SSH command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LobbyCommand {
    NewEngine(Option<String>),
    NewHuman(Option<String>),
    Join(String),
    Watch(String),
    Rooms,
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
    pub moves: usize,
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
            _ => Err(format!("usage: {LOBBY_USAGE}")),
        }
    }
}

/// One room as a line of the list.
pub fn room_line(room: &RoomSummary) -> String {
    let seat = |name: &Option<String>| name.clone().unwrap_or_else(|| "(open)".to_owned());
    format!(
        "{:<16} {:<6} {:>14} vs {:<14} {:>3} moves {:>2} watching{}",
        room.name,
        room.kind.name(),
        seat(&room.red),
        seat(&room.black),
        room.moves,
        room.spectators,
        if room.over { "  (over)" } else { "" }
    )
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
    }
}
