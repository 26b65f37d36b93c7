//! The keymap: every key binding once, with its help text and the places it applies.
//! Key handling (`keys`), the help overlay (`help`) and a room's refusals all read it;
//! the `:` commands are its sibling table in `commands`.
//!
//! Commands use Ctrl and function keys so they never collide with typed moves (WXF
//! letters are keys too); Ctrl-S/Ctrl-Q are avoided (terminal flow control).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Command, Direction, ExplorerMove, LogScroll, RoomAsk};
use super::step::StepCommand;

/// Where the app runs: the local program's game, a textbook tree studied, the
/// analysis board, or a shared room on the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Game,
    Study,
    Analysis,
    Room,
}

impl Place {
    pub const ALL: [Place; 4] = [Place::Game, Place::Study, Place::Analysis, Place::Room];

    /// The place in a sentence: "not available in a shared room".
    pub fn describe(self) -> &'static str {
        match self {
            Place::Game => "the game",
            Place::Study => "the tree study",
            Place::Analysis => "the analysis board",
            Place::Room => "a shared room",
        }
    }

    const fn bit(self) -> u8 {
        match self {
            Place::Game => 1,
            Place::Study => 2,
            Place::Analysis => 4,
            Place::Room => 8,
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
    pub const EVERYWHERE: Places = Places(Places::LOCAL.0 | Place::Room.bit());
    pub const ROOM: Places = Places(Place::Room.bit());

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

    /// The key pressed, as a test presses it.
    #[cfg(test)]
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

const fn bind(pane: Pane, key: Key, command: Command) -> Bind {
    Bind { pane, key, command }
}

const fn any(key: Key, command: Command) -> Bind {
    bind(Pane::Any, key, command)
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
}

impl Binding {
    /// The help text in `place`.
    pub fn help_in(&self, place: Place) -> &'static str {
        match (place, self.room) {
            (Place::Room, InRoom::Asks(_, help)) => help,
            _ => self.help,
        }
    }
}

/// A heading of the help and its bindings.
pub struct Section {
    pub title: &'static str,
    pub bindings: &'static [Binding],
}

const fn row(keys: &'static str, help: &'static str, binds: &'static [Bind]) -> Binding {
    Binding {
        keys,
        help,
        binds,
        places: Places::EVERYWHERE,
        room: InRoom::Same,
    }
}

/// Not in a room: the room's game is shared, its engine is the server's.
const fn local(keys: &'static str, help: &'static str, binds: &'static [Bind]) -> Binding {
    Binding {
        places: Places::LOCAL,
        ..row(keys, help, binds)
    }
}

const fn asks(
    keys: &'static str,
    help: &'static str,
    binds: &'static [Bind],
    ask: RoomAsk,
    room_help: &'static str,
) -> Binding {
    Binding {
        room: InRoom::Asks(ask, room_help),
        ..row(keys, help, binds)
    }
}

use Command as C;
use KeyCode as K;
use Pane as P;

const fn step(command: StepCommand) -> Command {
    Command::Step(command)
}

const fn cursor(direction: Direction) -> Command {
    Command::MoveCursor(direction)
}

const fn explore(to: ExplorerMove) -> Command {
    Command::Explore(to)
}

pub const KEYMAP: &[Section] = &[
    Section {
        title: "Playing (the input line has focus at start)",
        bindings: &[
            row(
                "type + Enter",
                "play a move: Chinese, WXF (C2.5) or ICCS (h2e2)",
                &[],
            ),
            row(
                "Enter (empty)",
                "pick up / put down at the board cursor",
                &[bind(P::Input, Key::plain(K::Enter), C::Submit)],
            ),
            // With text on the line, Left and Right edit it (`keys`).
            row(
                "arrows",
                "move the board cursor (Left/Right edit typed text)",
                &[
                    bind(P::Input, Key::plain(K::Up), cursor(Direction::Up)),
                    bind(P::Input, Key::plain(K::Down), cursor(Direction::Down)),
                    bind(P::Input, Key::plain(K::Left), cursor(Direction::Left)),
                    bind(P::Input, Key::plain(K::Right), cursor(Direction::Right)),
                ],
            ),
            // The line editor's own keys (`InputLine::edit_key`), in prompts too.
            row("Home End Bksp Del", "edit the line", &[]),
            row(
                "Ctrl-U Ctrl-W",
                "delete to line start / the word before the cursor",
                &[],
            ),
            row(
                "Esc",
                "drop the picked piece, else clear the line",
                &[bind(P::Input, Key::plain(K::Esc), C::DropOrClear)],
            ),
        ],
    },
    Section {
        title: "Board (Tab to it)",
        bindings: &[
            row(
                "arrows, h j k l",
                "move the cursor",
                &[
                    bind(P::Board, Key::plain(K::Up), cursor(Direction::Up)),
                    bind(P::Board, Key::char('k'), cursor(Direction::Up)),
                    bind(P::Board, Key::plain(K::Down), cursor(Direction::Down)),
                    bind(P::Board, Key::char('j'), cursor(Direction::Down)),
                    bind(P::Board, Key::plain(K::Left), cursor(Direction::Left)),
                    bind(P::Board, Key::char('h'), cursor(Direction::Left)),
                    bind(P::Board, Key::plain(K::Right), cursor(Direction::Right)),
                    bind(P::Board, Key::char('l'), cursor(Direction::Right)),
                ],
            ),
            row(
                "Enter, Space",
                "pick up / put down",
                &[
                    bind(P::Board, Key::plain(K::Enter), C::PickOrPut),
                    bind(P::Board, Key::char(' '), C::PickOrPut),
                ],
            ),
            row(
                "mouse click",
                "pick up / put down on the point clicked",
                &[],
            ),
            row(
                "Esc",
                "drop the picked piece",
                &[bind(P::Board, Key::plain(K::Esc), C::DropPiece)],
            ),
            row("other characters", "go to the input line", &[]),
        ],
    },
    Section {
        title: "Game",
        bindings: &[
            asks(
                "Ctrl-Z",
                "undo (against the engine: your move and its reply)",
                &[any(Key::ctrl('z'), C::Undo)],
                RoomAsk::Undo,
                "ask to take back, or agree to the other side's request",
            ),
            local("Ctrl-Y", "redo", &[any(Key::ctrl('y'), C::Redo)]),
            local("Ctrl-N", "new game", &[any(Key::ctrl('n'), C::NewGame)]),
            row("Ctrl-F", "flip the board", &[any(Key::ctrl('f'), C::Flip)]),
            local(
                "Ctrl-G",
                "engine moves now (also for your side)",
                &[any(Key::ctrl('g'), C::EngineMoveNow)],
            ),
            local(
                "Ctrl-T",
                "stop thinking; the engine waits for Ctrl-G",
                &[any(Key::ctrl('t'), C::StopThinking)],
            ),
            asks(
                "Ctrl-R",
                "resign (asks first); :draw offers a draw",
                &[any(Key::ctrl('r'), C::Resign)],
                RoomAsk::Resign,
                "resign (asks first); :draw offers a draw",
            ),
            local(
                "F4",
                "who plays: you as Red or Black, two players, engines",
                &[any(Key::plain(K::F(4)), C::ChooseMode)],
            ),
            row(
                "Ctrl-B",
                "the book moves of the position: games, score",
                &[any(Key::ctrl('b'), C::ShowBook)],
            ),
            local(
                "F3, Ctrl-O",
                "load a FEN or a PGN file",
                &[
                    any(Key::plain(K::F(3)), C::Load),
                    any(Key::ctrl('o'), C::Load),
                ],
            ),
            local(
                "F2, Ctrl-E",
                "save the game as PGN",
                &[
                    any(Key::plain(K::F(2)), C::Save),
                    any(Key::ctrl('e'), C::Save),
                ],
            ),
            // In a room the room's moves stand: a click is answered from there.
            local(
                "click a move",
                "show the position after it (move list)",
                &[],
            ),
            // Ctrl-Backspace too, as some terminals report Ctrl-H; with text on the
            // input line Ctrl-H is Backspace (`keys`).
            local(
                "Ctrl-H",
                "hint: the engine's best move, marked, not played",
                &[
                    any(Key::ctrl('h'), C::Hint),
                    any(Key::ctrl_code(K::Backspace), C::Hint),
                ],
            ),
            local(
                "Ctrl-A",
                "analysis board: live engine lines and score graph",
                &[any(Key::ctrl('a'), C::Analyze)],
            ),
        ],
    },
    Section {
        title: "Search log (Tab to it)",
        bindings: &[
            local(
                "F7",
                "step mode on/off (pause before each trace event)",
                &[any(Key::plain(K::F(7)), C::ToggleStep)],
            ),
            local(
                "Space n Enter Right",
                "one event (F8 from any pane)",
                &[
                    bind(P::Log, Key::char(' '), step(StepCommand::One)),
                    bind(P::Log, Key::char('n'), step(StepCommand::One)),
                    bind(P::Log, Key::plain(K::Enter), step(StepCommand::One)),
                    bind(P::Log, Key::plain(K::Right), step(StepCommand::One)),
                    any(Key::plain(K::F(8)), step(StepCommand::One)),
                ],
            ),
            local(
                "i",
                "run to the end of the iteration",
                &[bind(
                    P::Log,
                    Key::char('i'),
                    step(StepCommand::ToIterationEnd),
                )],
            ),
            local(
                "c / p",
                "continue freely / pause again",
                &[
                    bind(P::Log, Key::char('c'), step(StepCommand::Continue)),
                    bind(P::Log, Key::char('p'), step(StepCommand::Pause)),
                ],
            ),
            row(
                "Up Down j k, wheel",
                "scroll a line (PgUp PgDn: a page)",
                &[
                    bind(P::Log, Key::plain(K::Up), C::ScrollLog(LogScroll::Up(1))),
                    bind(P::Log, Key::char('k'), C::ScrollLog(LogScroll::Up(1))),
                    bind(
                        P::Log,
                        Key::plain(K::Down),
                        C::ScrollLog(LogScroll::Down(1)),
                    ),
                    bind(P::Log, Key::char('j'), C::ScrollLog(LogScroll::Down(1))),
                    bind(
                        P::Log,
                        Key::plain(K::PageUp),
                        C::ScrollLog(LogScroll::Up(10)),
                    ),
                    bind(
                        P::Log,
                        Key::plain(K::PageDown),
                        C::ScrollLog(LogScroll::Down(10)),
                    ),
                ],
            ),
            row(
                "Home g / End G",
                "oldest line / follow the newest",
                &[
                    bind(P::Log, Key::plain(K::Home), C::ScrollLog(LogScroll::Oldest)),
                    bind(P::Log, Key::char('g'), C::ScrollLog(LogScroll::Oldest)),
                    bind(P::Log, Key::plain(K::End), C::ScrollLog(LogScroll::Newest)),
                    bind(P::Log, Key::char('G'), C::ScrollLog(LogScroll::Newest)),
                ],
            ),
            local(
                "F11",
                "log detail: off, summary, nodes, events",
                &[any(Key::plain(K::F(11)), C::CycleTrace)],
            ),
            row(
                "Esc",
                "back to the input line",
                &[bind(P::Log, Key::plain(K::Esc), C::FocusInput)],
            ),
        ],
    },
    Section {
        title: "Tree explorer (F12; Tab to it while shown)",
        bindings: &[
            local(
                "F12",
                "show the explored tree in the board's place / hide it",
                &[any(Key::plain(K::F(12)), C::ToggleExplorer)],
            ),
            local(
                "Up Down, PgUp PgDn",
                "walk the rows",
                &[
                    bind(P::Explorer, Key::plain(K::Up), explore(ExplorerMove::Up)),
                    bind(P::Explorer, Key::char('k'), explore(ExplorerMove::Up)),
                    bind(
                        P::Explorer,
                        Key::plain(K::Down),
                        explore(ExplorerMove::Down),
                    ),
                    bind(P::Explorer, Key::char('j'), explore(ExplorerMove::Down)),
                    bind(
                        P::Explorer,
                        Key::plain(K::PageUp),
                        explore(ExplorerMove::Page(-10)),
                    ),
                    bind(
                        P::Explorer,
                        Key::plain(K::PageDown),
                        explore(ExplorerMove::Page(10)),
                    ),
                ],
            ),
            local(
                "Right / Left, Enter",
                "open / close a node (or go in / out)",
                &[
                    bind(
                        P::Explorer,
                        Key::plain(K::Right),
                        explore(ExplorerMove::Right),
                    ),
                    bind(P::Explorer, Key::char('l'), explore(ExplorerMove::Right)),
                    bind(
                        P::Explorer,
                        Key::plain(K::Left),
                        explore(ExplorerMove::Left),
                    ),
                    bind(P::Explorer, Key::char('h'), explore(ExplorerMove::Left)),
                    bind(
                        P::Explorer,
                        Key::plain(K::Enter),
                        explore(ExplorerMove::Toggle),
                    ),
                ],
            ),
            local(
                "p",
                "the principal variation",
                &[bind(P::Explorer, Key::char('p'), explore(ExplorerMove::Pv))],
            ),
            local(
                "x",
                "the next cut-off",
                &[bind(
                    P::Explorer,
                    Key::char('x'),
                    explore(ExplorerMove::NextCutoff),
                )],
            ),
            local(
                "/ text Enter",
                "the next node whose move contains text",
                &[bind(
                    P::Explorer,
                    Key::char('/'),
                    explore(ExplorerMove::Search),
                )],
            ),
            local(
                "Space c",
                "step one event / continue (also in the log)",
                &[
                    bind(P::Explorer, Key::char(' '), step(StepCommand::One)),
                    bind(P::Explorer, Key::char('n'), step(StepCommand::One)),
                    bind(P::Explorer, Key::char('c'), step(StepCommand::Continue)),
                    bind(
                        P::Explorer,
                        Key::char('i'),
                        step(StepCommand::ToIterationEnd),
                    ),
                ],
            ),
            local(
                "Esc",
                "back to the input line",
                &[bind(P::Explorer, Key::plain(K::Esc), C::FocusInput)],
            ),
        ],
    },
    Section {
        title: "Screen",
        bindings: &[
            row(
                "Tab, Shift-Tab",
                "focus: input line, board, search log",
                &[
                    any(Key::plain(K::Tab), C::FocusNext),
                    any(Key::plain(K::BackTab), C::FocusPrevious),
                ],
            ),
            row("F5", "theme", &[any(Key::plain(K::F(5)), C::ChooseTheme)]),
            local(
                "F6, Ctrl-P",
                "profile",
                &[
                    any(Key::plain(K::F(6)), C::ChooseProfile),
                    any(Key::ctrl('p'), C::ChooseProfile),
                ],
            ),
            row(
                "F9",
                "glyphs: cjk, ascii, wide",
                &[any(Key::plain(K::F(9)), C::CycleGlyphs)],
            ),
            row(
                "F10",
                "notation: chinese, wxf, iccs",
                &[any(Key::plain(K::F(10)), C::CycleNotation)],
            ),
            row("Ctrl-L", "redraw", &[any(Key::ctrl('l'), C::Redraw)]),
            // `?` is text once the input line has some (`keys`).
            row(
                "F1, ? (empty line)",
                "this help (Esc closes)",
                &[
                    any(Key::plain(K::F(1)), C::Help),
                    bind(P::Input, Key::char('?'), C::Help),
                    bind(P::Board, Key::char('?'), C::Help),
                    bind(P::Log, Key::char('?'), C::Help),
                    bind(P::Explorer, Key::char('?'), C::Help),
                ],
            ),
            local(
                "Esc",
                "close the :compare view",
                &[bind(P::Compare, Key::plain(K::Esc), C::CloseCompare)],
            ),
            asks(
                "Ctrl-C, Ctrl-D",
                "quit; an unfinished game is offered next time",
                &[any(Key::ctrl('c'), C::Quit), any(Key::ctrl('d'), C::Quit)],
                RoomAsk::Quit,
                "leave the server; a player's seat is kept",
            ),
        ],
    },
];

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
            command(Pane::Any, &event(KeyCode::Char('x'), ctrl), Place::Room),
            None
        );
    }
}
