//! The constructors the keymap's table is written with: keys, binds, and rows with the
//! places they apply in.

use crate::key::KeyCode;

use super::super::action::{
    BrowseTo, Command, Direction, ExplorerMove, LobbyKey, LogScroll, RoomAsk,
};
use super::{Bind, Binding, InRoom, Key, Pane, Place, Places};
use xiangqi_engine::service::StepCommand;

pub(super) const fn bind(pane: Pane, key: Key, command: Command) -> Bind {
    Bind { pane, key, command }
}

pub(super) const fn any(key: Key, command: Command) -> Bind {
    bind(Pane::Any, key, command)
}

pub(super) const fn input(key: Key, command: Command) -> Bind {
    bind(Pane::Input, key, command)
}

pub(super) const fn board(key: Key, command: Command) -> Bind {
    bind(Pane::Board, key, command)
}

pub(super) const fn log(key: Key, command: Command) -> Bind {
    bind(Pane::Log, key, command)
}

/// The server lobby's keys.
pub(super) const fn lobby_key(key: Key, what: LobbyKey) -> Bind {
    bind(Pane::Lobby, key, Command::Lobby(what))
}

/// The search-tree explorer's keys.
pub(super) const fn tree(key: Key, command: Command) -> Bind {
    bind(Pane::Explorer, key, command)
}

pub(super) const fn key(code: KeyCode) -> Key {
    Key::plain(code)
}

pub(super) const fn f(n: u8) -> Key {
    Key::plain(KeyCode::F(n))
}

pub(super) const fn ch(c: char) -> Key {
    Key::char(c)
}

pub(super) const fn ctrl(c: char) -> Key {
    Key::ctrl(c)
}

pub(super) const fn row(keys: &'static str, help: &'static str, binds: &'static [Bind]) -> Binding {
    Binding {
        keys,
        help,
        binds,
        places: Places::EVERYWHERE,
        room: InRoom::Same,
        puzzle: None,
    }
}

/// A game key that means something of its own in the puzzle trainer.
pub(super) const fn in_puzzle(binding: Binding, help: &'static str) -> Binding {
    Binding {
        places: binding.places.with(Place::Puzzle),
        puzzle: Some(help),
        ..binding
    }
}

/// Not in the puzzle trainer (it keeps the game as it was, unseen).
pub(super) const fn not_in_puzzle(binding: Binding) -> Binding {
    Binding {
        places: binding.places.without(Place::Puzzle),
        ..binding
    }
}

/// Only in the puzzle trainer.
pub(super) const fn puzzle(
    keys: &'static str,
    help: &'static str,
    binds: &'static [Bind],
) -> Binding {
    Binding {
        places: Places::PUZZLE,
        ..row(keys, help, binds)
    }
}

/// Only where a game is played (not in a room, not in a tree study: a study has no
/// game, and a game key there must not play one unseen).
pub(super) const fn game(
    keys: &'static str,
    help: &'static str,
    binds: &'static [Bind],
) -> Binding {
    Binding {
        places: Places::LOCAL.without(Place::Study),
        ..row(keys, help, binds)
    }
}

/// Anywhere but in a tree study (the board's keys: a study has no board).
pub(super) const fn on_board(
    keys: &'static str,
    help: &'static str,
    binds: &'static [Bind],
) -> Binding {
    Binding {
        places: Places::EVERYWHERE.without(Place::Study),
        ..row(keys, help, binds)
    }
}

/// Also in the endgame school's drill, where `drill_link` gives it its meaning there.
pub(super) const fn with_drill(binding: Binding) -> Binding {
    Binding {
        places: binding.places.with(Place::Drill),
        ..binding
    }
}

/// Only in the endgame school's drill.
pub(super) const fn drill(
    keys: &'static str,
    help: &'static str,
    binds: &'static [Bind],
) -> Binding {
    Binding {
        places: Places::DRILL,
        ..row(keys, help, binds)
    }
}

/// Only in the server's lobby.
pub(super) const fn lobby(
    keys: &'static str,
    help: &'static str,
    binds: &'static [Bind],
) -> Binding {
    Binding {
        places: Places::LOBBY,
        ..row(keys, help, binds)
    }
}

/// Also in the server's lobby (its line is edited like the app's).
pub(super) const fn in_lobby(binding: Binding) -> Binding {
    Binding {
        places: binding.places.with(Place::Lobby),
        ..binding
    }
}

/// Not in a room: the room's game is shared, its engine is the server's.
pub(super) const fn local(
    keys: &'static str,
    help: &'static str,
    binds: &'static [Bind],
) -> Binding {
    Binding {
        places: Places::LOCAL,
        ..row(keys, help, binds)
    }
}

pub(super) const fn asks(
    keys: &'static str,
    help: &'static str,
    binds: &'static [Bind],
    ask: RoomAsk,
    room_help: &'static str,
) -> Binding {
    Binding {
        room: InRoom::Asks(ask, room_help),
        places: Places::EVERYWHERE.without(Place::Study),
        ..row(keys, help, binds)
    }
}

pub(super) const fn step(command: StepCommand) -> Command {
    Command::Step(command)
}

pub(super) const fn cursor(direction: Direction) -> Command {
    Command::MoveCursor(direction)
}

pub(super) const fn explore(to: ExplorerMove) -> Command {
    Command::Explore(to)
}

pub(super) const fn scroll(how: LogScroll) -> Command {
    Command::ScrollLog(how)
}

pub(super) const fn browse(to: BrowseTo) -> Command {
    Command::Browse(to)
}
