//! The keymap: every key binding once, with its help text and the places it applies.
//! Key handling (`keys`), the help overlay (`help`) and a room's refusals all read it;
//! the `:` commands are its sibling table in `commands`.
//!
//! Commands use Ctrl and function keys so they never collide with typed moves (WXF
//! letters are keys too); Ctrl-S/Ctrl-Q are avoided (terminal flow control).

use crate::key::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Command, RoomAsk};

mod build;
mod table;

pub use table::KEYMAP;

/// Where the keys are read: the app (the local program's game, a textbook tree
/// studied, the analysis board, a shared room on the server, the puzzle trainer, the
/// drill) or the server's lobby, the first screen of a remote session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Game,
    Study,
    Analysis,
    Room,
    Puzzle,
    /// The endgame school's drill (`:drill`).
    Drill,
    /// The SSH server's lobby: its list of rooms and its command line.
    Lobby,
}

impl Place {
    pub const ALL: [Place; 7] = [
        Place::Game,
        Place::Study,
        Place::Analysis,
        Place::Room,
        Place::Puzzle,
        Place::Drill,
        Place::Lobby,
    ];

    /// The place in a sentence: "not available in a shared room".
    pub fn describe(self) -> &'static str {
        match self {
            Place::Game => "the game",
            Place::Study => "the tree study",
            Place::Analysis => "the analysis board",
            Place::Room => "a shared room",
            Place::Puzzle => "the puzzle trainer",
            Place::Drill => "the endgame drill",
            Place::Lobby => "the lobby",
        }
    }

    const fn bit(self) -> u8 {
        match self {
            Place::Game => 1,
            Place::Study => 2,
            Place::Analysis => 4,
            Place::Room => 8,
            Place::Puzzle => 16,
            Place::Drill => 32,
            Place::Lobby => 64,
        }
    }
}

/// The places a binding or a command applies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Places(u8);

impl Places {
    /// The local program: its game, a tree study and the analysis board.
    pub const LOCAL: Places =
        Places(Place::Game.bit() | Place::Study.bit() | Place::Analysis.bit());
    /// Every place of the app (not the lobby, which has no app under it).
    pub const EVERYWHERE: Places =
        Places(Places::LOCAL.0 | Place::Room.bit() | Place::Puzzle.bit() | Place::Drill.bit());
    /// Where a game is played: the local game, the analysis board and a room.
    pub const GAMES: Places = Places(Place::Game.bit() | Place::Analysis.bit() | Place::Room.bit());
    pub const ROOM: Places = Places(Place::Room.bit());
    pub const PUZZLE: Places = Places(Place::Puzzle.bit());
    pub const DRILL: Places = Places(Place::Drill.bit());
    pub const LOBBY: Places = Places(Place::Lobby.bit());

    /// These places and `place`.
    pub const fn with(self, place: Place) -> Places {
        Places(self.0 | place.bit())
    }

    /// These places but `place`.
    pub const fn without(self, place: Place) -> Places {
        Places(self.0 & !place.bit())
    }

    pub fn contains(self, place: Place) -> bool {
        self.0 & place.bit() != 0
    }
}

/// What a binding or command means in a room, where it applies there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InRoom {
    /// What it does in the local program.
    Same,
    /// The room's own meaning, with its help text there.
    Asks(RoomAsk, &'static str),
}

/// Where the keys go: any pane (Ctrl and function keys), or the pane with the focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Any,
    Input,
    Board,
    Log,
    /// The search-tree explorer, in the board's place.
    Explorer,
    /// The `:compare` view, over the board.
    Compare,
    /// The server's lobby: its list and its command line.
    Lobby,
}

/// A key: a code, with Ctrl or without. Ctrl letters match either case; keys without
/// Ctrl match whatever the other modifiers (the panes see no Ctrl or Alt keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    code: KeyCode,
    ctrl: bool,
}

impl Key {
    pub const fn plain(code: KeyCode) -> Key {
        Key { code, ctrl: false }
    }

    pub const fn char(c: char) -> Key {
        Key::plain(KeyCode::Char(c))
    }

    pub const fn ctrl(c: char) -> Key {
        Key::ctrl_code(KeyCode::Char(c))
    }

    pub const fn ctrl_code(code: KeyCode) -> Key {
        Key { code, ctrl: true }
    }

    pub fn matches(&self, key: &KeyEvent) -> bool {
        if self.ctrl && !key.modifiers.contains(KeyModifiers::CONTROL) {
            return false;
        }
        match (self.code, key.code) {
            (KeyCode::Char(mine), KeyCode::Char(theirs)) if self.ctrl => {
                mine == theirs.to_ascii_lowercase()
            }
            (mine, theirs) => mine == theirs,
        }
    }

    /// The key event this binding answers to (as a test presses it).
    pub fn event(&self) -> KeyEvent {
        let modifiers = if self.ctrl {
            KeyModifiers::CONTROL
        } else {
            KeyModifiers::NONE
        };
        KeyEvent::new(self.code, modifiers)
    }

    /// The key as people write it: "Ctrl-N", "F2", "Space", "k".
    pub fn name(&self) -> String {
        let name = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) if self.ctrl => c.to_ascii_uppercase().to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::F(n) => format!("F{n}"),
            KeyCode::BackTab => "Shift-Tab".to_owned(),
            KeyCode::PageUp => "PgUp".to_owned(),
            KeyCode::PageDown => "PgDn".to_owned(),
            code => format!("{code:?}"),
        };
        if self.ctrl {
            format!("Ctrl-{name}")
        } else {
            name
        }
    }
}

/// One key of a binding: in which pane, and the command it gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bind {
    pub pane: Pane,
    pub key: Key,
    pub command: Command,
}

/// One line of the help: the keys as shown, what they do, the keys themselves (none
/// for what is not a key: typing, the mouse, the input line's own editing keys), and
/// where it applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    pub keys: &'static str,
    pub help: &'static str,
    pub binds: &'static [Bind],
    pub places: Places,
    pub room: InRoom,
    /// What it means in the puzzle trainer, where that differs (`puzzle_mode`).
    pub puzzle: Option<&'static str>,
}

impl Binding {
    /// The help text in `place`.
    pub fn help_in(&self, place: Place) -> &'static str {
        match (place, self.room, self.puzzle) {
            // The lobby is on the server too: a key means there what it means in a room.
            (Place::Room | Place::Lobby, InRoom::Asks(_, help), _) => help,
            (Place::Puzzle, _, Some(help)) => help,
            _ => self.help,
        }
    }
}

/// A heading of the help and its bindings.
pub struct Section {
    pub title: &'static str,
    pub bindings: &'static [Binding],
}

/// Every binding, with its section's title.
pub fn bindings() -> impl Iterator<Item = (&'static str, &'static Binding)> {
    KEYMAP.iter().flat_map(|section| {
        section
            .bindings
            .iter()
            .map(move |binding| (section.title, binding))
    })
}

/// The binding of `key` in `pane`, and the key as bound.
pub fn find(pane: Pane, key: &KeyEvent) -> Option<(&'static Binding, &'static Bind)> {
    bindings().find_map(|(_, binding)| {
        let bound = binding
            .binds
            .iter()
            .find(|bound| bound.pane == pane && bound.key.matches(key))?;
        Some((binding, bound))
    })
}

/// The name of the first key bound to `command` in `pane` ("Ctrl-C", "Enter"), for a
/// hint that names it.
pub fn key_name(pane: Pane, command: Command) -> Option<String> {
    bindings()
        .flat_map(|(_, binding)| binding.binds)
        .find(|bound| bound.pane == pane && bound.command == command)
        .map(|bound| bound.key.name())
}

/// Whether `key` quits (from anywhere, popups included).
pub fn is_quit(key: &KeyEvent) -> bool {
    matches!(find(Pane::Any, key), Some((_, bound)) if bound.command == Command::Quit)
}

/// What `key` means in `pane` at `place`: the command, or why it is refused there.
pub fn command(pane: Pane, key: &KeyEvent, place: Place) -> Option<Result<Command, String>> {
    let (binding, bound) = find(pane, key)?;
    if !binding.places.contains(place) {
        return Some(Err(refusal(&bound.key.name(), place)));
    }
    Some(Ok(match (place, binding.room) {
        (Place::Room, InRoom::Asks(ask, _)) => Command::AskRoom(ask),
        _ => bound.command,
    }))
}

/// Why a key or a command is refused at `place`.
pub fn refusal(what: &str, place: Place) -> String {
    format!("{what} is not available in {}", place.describe())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn each_key_is_bound_once_in_each_pane() {
        let binds: Vec<&Bind> = bindings().flat_map(|(_, b)| b.binds).collect();
        for (index, a) in binds.iter().enumerate() {
            for b in &binds[index + 1..] {
                assert!(
                    !(a.pane == b.pane && a.key == b.key),
                    "{} bound twice in {:?}",
                    a.key.name(),
                    a.pane
                );
            }
        }
    }

    #[test]
    fn ctrl_letters_match_either_case_and_plain_keys_any_modifiers() {
        let ctrl = KeyModifiers::CONTROL;
        assert!(Key::ctrl('z').matches(&event(KeyCode::Char('Z'), ctrl)));
        assert!(!Key::ctrl('z').matches(&event(KeyCode::Char('z'), KeyModifiers::NONE)));
        assert!(Key::plain(KeyCode::F(2)).matches(&event(KeyCode::F(2), ctrl)));
        assert!(!Key::char('g').matches(&event(KeyCode::Char('G'), KeyModifiers::SHIFT)));
        assert_eq!(Key::ctrl('n').name(), "Ctrl-N");
        assert_eq!(Key::char(' ').name(), "Space");
        assert_eq!(Key::plain(KeyCode::F(12)).name(), "F12");
    }

    #[test]
    fn a_room_gets_its_own_meaning_or_a_refusal() {
        let ctrl = KeyModifiers::CONTROL;
        let undo = event(KeyCode::Char('z'), ctrl);
        assert_eq!(
            command(Pane::Any, &undo, Place::Game),
            Some(Ok(Command::Undo))
        );
        assert_eq!(
            command(Pane::Any, &undo, Place::Room),
            Some(Ok(Command::AskRoom(RoomAsk::Undo)))
        );
        assert_eq!(
            command(Pane::Any, &event(KeyCode::Char('n'), ctrl), Place::Room),
            Some(Err("Ctrl-N is not available in a shared room".to_owned()))
        );
        assert_eq!(
            command(Pane::Any, &event(KeyCode::Char('q'), ctrl), Place::Room),
            None
        );
        // The puzzle trainer's own meaning of a game key, and its own keys.
        assert_eq!(
            command(Pane::Any, &undo, Place::Puzzle),
            Some(Ok(Command::Undo))
        );
        let leave = event(KeyCode::Char('x'), ctrl);
        assert_eq!(
            command(Pane::Any, &leave, Place::Room),
            Some(Err("Ctrl-X is not available in a shared room".to_owned()))
        );
        for place in [Place::Puzzle, Place::Drill] {
            assert_eq!(
                command(Pane::Any, &leave, place),
                Some(Ok(Command::LeaveTraining))
            );
        }
        assert_eq!(
            command(Pane::Any, &event(KeyCode::Char('r'), ctrl), Place::Puzzle),
            Some(Err(
                "Ctrl-R is not available in the puzzle trainer".to_owned()
            ))
        );
    }
}
