//! The keymap's table: each key binding once, in the order the help lists them.

use crate::key::KeyCode;

use super::super::action::{
    BrowseTo, Command, Direction, ExplorerMove, LobbyKey, LogScroll, RoomAsk,
};
use super::build::*;
use super::{Binding, Key, Pane, Place, Places, Section};
use xiangqi_engine::service::StepCommand;

use Command as C;
use KeyCode as K;
use Pane as P;

pub const KEYMAP: &[Section] = &[
    Section {
        title: "Playing (the input line has focus at start)",
        bindings: &[
            on_board(
                "type + Enter",
                "play a move: Chinese, WXF (C2.5) or ICCS (h2e2)",
                &[],
            ),
            row(
                "Enter (empty)",
                "pick up / put down at the board cursor",
                &[input(key(K::Enter), C::Submit)],
            ),
            // With text on the line, Left and Right edit it (`keys`).
            on_board(
                "arrows",
                "move the board cursor (Left/Right edit typed text)",
                &[
                    input(key(K::Up), cursor(Direction::Up)),
                    input(key(K::Down), cursor(Direction::Down)),
                    input(key(K::Left), cursor(Direction::Left)),
                    input(key(K::Right), cursor(Direction::Right)),
                ],
            ),
            // The line editor's own keys (`InputLine::edit_key`), in prompts and the
            // lobby too.
            in_lobby(row("Home End Bksp Del", "edit the line", &[])),
            in_lobby(row(
                "Ctrl-U Ctrl-W",
                "delete to line start / the word before the cursor",
                &[],
            )),
            row(
                "Esc",
                "drop the picked piece, else clear the line",
                &[input(key(K::Esc), C::DropOrClear)],
            ),
        ],
    },
    Section {
        title: "Board (Tab to it)",
        bindings: &[
            on_board(
                "arrows, h j k l",
                "move the cursor",
                &[
                    board(key(K::Up), cursor(Direction::Up)),
                    board(ch('k'), cursor(Direction::Up)),
                    board(key(K::Down), cursor(Direction::Down)),
                    board(ch('j'), cursor(Direction::Down)),
                    board(key(K::Left), cursor(Direction::Left)),
                    board(ch('h'), cursor(Direction::Left)),
                    board(key(K::Right), cursor(Direction::Right)),
                    board(ch('l'), cursor(Direction::Right)),
                ],
            ),
            on_board(
                "Enter, Space",
                "pick up / put down",
                &[
                    board(key(K::Enter), C::PickOrPut),
                    board(ch(' '), C::PickOrPut),
                ],
            ),
            on_board(
                "mouse click",
                "pick up / put down on the point clicked",
                &[],
            ),
            on_board(
                "Esc",
                "drop the picked piece",
                &[board(key(K::Esc), C::DropPiece)],
            ),
            on_board("other characters", "go to the input line", &[]),
        ],
    },
    Section {
        title: "Game",
        bindings: &[
            in_puzzle(
                asks(
                    "Ctrl-Z",
                    "undo (against the engine: your move and its reply)",
                    &[any(ctrl('z'), C::Undo)],
                    RoomAsk::Undo,
                    "ask to take back, or agree to the other side's request",
                ),
                "retry: take the wrong move back (the attempt stays failed)",
            ),
            game("Ctrl-Y", "redo", &[any(ctrl('y'), C::Redo)]),
            in_puzzle(
                with_drill(game("Ctrl-N", "new game", &[any(ctrl('n'), C::NewGame)])),
                "next puzzle",
            ),
            on_board("Ctrl-F", "flip the board", &[any(ctrl('f'), C::Flip)]),
            game(
                "Ctrl-G",
                "engine moves now (also for your side)",
                &[any(ctrl('g'), C::EngineMoveNow)],
            ),
            in_puzzle(
                game(
                    "Ctrl-T",
                    "stop thinking; the engine waits for Ctrl-G",
                    &[any(ctrl('t'), C::StopThinking)],
                ),
                "the puzzle's themes (hidden until it is solved)",
            ),
            not_in_puzzle(asks(
                "Ctrl-R",
                "resign (asks first); :draw offers a draw",
                &[any(ctrl('r'), C::Resign)],
                RoomAsk::Resign,
                "resign (asks first); :draw offers a draw",
            )),
            game(
                "F4",
                "who plays: you as Red or Black, two players, engines",
                &[any(f(4), C::ChooseMode)],
            ),
            not_in_puzzle(on_board(
                "Ctrl-B",
                "the book moves of the position: games, score",
                &[any(ctrl('b'), C::ShowBook)],
            )),
            game(
                "F3, Ctrl-O",
                "load a FEN or a PGN file",
                &[any(f(3), C::Load), any(ctrl('o'), C::Load)],
            ),
            game(
                "F2, Ctrl-E",
                "save the game as PGN",
                &[any(f(2), C::Save), any(ctrl('e'), C::Save)],
            ),
            // Browsing changes what is shown, never the game (in a room: per viewer).
            // On the input line only while it is empty (else they are text).
            not_in_puzzle(on_board(
                "[ ]",
                "browse: one move back / forward; the game stays whole",
                &[
                    input(ch('['), browse(BrowseTo::Back)),
                    input(ch(']'), browse(BrowseTo::Forward)),
                    board(ch('['), browse(BrowseTo::Back)),
                    board(ch(']'), browse(BrowseTo::Forward)),
                ],
            )),
            not_in_puzzle(on_board(
                "Home End",
                "browse: the start / back to the game (empty line)",
                &[
                    input(key(K::Home), browse(BrowseTo::Start)),
                    input(key(K::End), browse(BrowseTo::End)),
                    board(key(K::Home), browse(BrowseTo::Start)),
                    board(key(K::End), browse(BrowseTo::End)),
                ],
            )),
            not_in_puzzle(on_board(
                "click a move",
                "show the position after it (move list)",
                &[],
            )),
            // Board only: on the input line N starts a WXF horse move.
            game(
                "n N",
                "after :review: the next / previous ?! ? ?? move (board)",
                &[
                    board(ch('n'), C::JumpToMarked(true)),
                    board(ch('N'), C::JumpToMarked(false)),
                ],
            ),
            // Ctrl-Backspace too, as some terminals report Ctrl-H; with text on the
            // input line Ctrl-H is Backspace (`keys`).
            in_puzzle(
                with_drill(game(
                    "Ctrl-H",
                    "hint: the engine's best move, marked, not played",
                    &[
                        any(ctrl('h'), C::Hint),
                        any(Key::ctrl_code(K::Backspace), C::Hint),
                    ],
                )),
                "hint: the piece to move is marked (the attempt counts as failed)",
            ),
            game(
                "Ctrl-A",
                "analysis board: live engine lines and score graph",
                &[any(ctrl('a'), C::Analyze)],
            ),
        ],
    },
    Section {
        title: "Puzzles (:puzzle starts; the game waits as it was)",
        bindings: &[
            puzzle(
                "Ctrl-V",
                "the solution's proof tree (the attempt counts as failed)",
                &[any(ctrl('v'), C::PuzzleTree)],
            ),
            puzzle(
                "arrows",
                "in the proof tree: Up Down pick a reply, Right in, Left out",
                &[],
            ),
            // One key leaves the trainer and the school alike.
            Binding {
                places: Places::PUZZLE.with(Place::Drill),
                ..row(
                    "Ctrl-X",
                    "leave: back to the game as it was",
                    &[any(ctrl('x'), C::LeaveTraining)],
                )
            },
        ],
    },
    Section {
        title: "Search log (Tab to it)",
        bindings: &[
            local(
                "F7",
                "step mode on/off (pause before each trace event)",
                &[any(f(7), C::ToggleStep)],
            ),
            local(
                "Space n Enter Right",
                "one event (F8 from any pane)",
                &[
                    log(ch(' '), step(StepCommand::One)),
                    log(ch('n'), step(StepCommand::One)),
                    log(key(K::Enter), step(StepCommand::One)),
                    log(key(K::Right), step(StepCommand::One)),
                    any(f(8), step(StepCommand::One)),
                ],
            ),
            local(
                "i",
                "run to the end of the iteration",
                &[bind(P::Log, ch('i'), step(StepCommand::ToIterationEnd))],
            ),
            local(
                "c / p",
                "continue freely / pause again",
                &[
                    log(ch('c'), step(StepCommand::Continue)),
                    log(ch('p'), step(StepCommand::Pause)),
                ],
            ),
            row(
                "Up Down j k, wheel",
                "scroll a line (PgUp PgDn: a page)",
                &[
                    log(key(K::Up), scroll(LogScroll::Up(1))),
                    log(ch('k'), scroll(LogScroll::Up(1))),
                    bind(P::Log, key(K::Down), scroll(LogScroll::Down(1))),
                    log(ch('j'), scroll(LogScroll::Down(1))),
                    bind(P::Log, key(K::PageUp), scroll(LogScroll::Up(10))),
                    bind(P::Log, key(K::PageDown), scroll(LogScroll::Down(10))),
                ],
            ),
            row(
                "Home g / End G",
                "oldest line / follow the newest",
                &[
                    log(key(K::Home), scroll(LogScroll::Oldest)),
                    log(ch('g'), scroll(LogScroll::Oldest)),
                    log(key(K::End), scroll(LogScroll::Newest)),
                    log(ch('G'), scroll(LogScroll::Newest)),
                ],
            ),
            local(
                "F11",
                "log detail: off, summary, nodes, events",
                &[any(f(11), C::CycleTrace)],
            ),
            row(
                "Esc",
                "back to the input line",
                &[log(key(K::Esc), C::FocusInput)],
            ),
            row(
                "other characters",
                "not typed: a notice says so (Esc first to type a move)",
                &[],
            ),
        ],
    },
    Section {
        title: "Tree explorer (F12; Tab to it while shown)",
        bindings: &[
            local(
                "F12",
                "show the explored tree in the board's place / hide it",
                &[any(f(12), C::ToggleExplorer)],
            ),
            local(
                "Up Down, PgUp PgDn",
                "walk the rows",
                &[
                    tree(key(K::Up), explore(ExplorerMove::Up)),
                    tree(ch('k'), explore(ExplorerMove::Up)),
                    bind(P::Explorer, key(K::Down), explore(ExplorerMove::Down)),
                    tree(ch('j'), explore(ExplorerMove::Down)),
                    bind(
                        P::Explorer,
                        key(K::PageUp),
                        explore(ExplorerMove::Page(-10)),
                    ),
                    bind(
                        P::Explorer,
                        key(K::PageDown),
                        explore(ExplorerMove::Page(10)),
                    ),
                ],
            ),
            local(
                "Right / Left, Enter",
                "open / close a node (or go in / out)",
                &[
                    bind(P::Explorer, key(K::Right), explore(ExplorerMove::Right)),
                    tree(ch('l'), explore(ExplorerMove::Right)),
                    bind(P::Explorer, key(K::Left), explore(ExplorerMove::Left)),
                    tree(ch('h'), explore(ExplorerMove::Left)),
                    bind(P::Explorer, key(K::Enter), explore(ExplorerMove::Toggle)),
                ],
            ),
            local(
                "p",
                "the principal variation",
                &[tree(ch('p'), explore(ExplorerMove::Pv))],
            ),
            local(
                "x",
                "the next cut-off",
                &[bind(
                    P::Explorer,
                    ch('x'),
                    explore(ExplorerMove::NextCutoff),
                )],
            ),
            local(
                "e",
                "the selected event in full, in a window (also in the log)",
                &[tree(ch('e'), C::ShowEvent), log(ch('e'), C::ShowEvent)],
            ),
            local(
                "[ ]",
                "the previous / next iteration (the last is shown)",
                &[
                    tree(ch('['), explore(ExplorerMove::Iteration(-1))),
                    tree(ch(']'), explore(ExplorerMove::Iteration(1))),
                ],
            ),
            local(
                "/ text Enter",
                "the next node whose move contains text",
                &[bind(P::Explorer, ch('/'), explore(ExplorerMove::Search))],
            ),
            local(
                "Space c",
                "step one event / continue (also in the log)",
                &[
                    tree(ch(' '), step(StepCommand::One)),
                    tree(ch('n'), step(StepCommand::One)),
                    tree(ch('c'), step(StepCommand::Continue)),
                    bind(P::Explorer, ch('i'), step(StepCommand::ToIterationEnd)),
                ],
            ),
            local(
                "Esc",
                "back to the input line",
                &[tree(key(K::Esc), C::FocusInput)],
            ),
        ],
    },
    Section {
        title: "Endgame school (:drill)",
        bindings: &[
            drill(
                "Ctrl-Z",
                "take back your move (the plies it lost still count)",
                &[],
            ),
            drill("Ctrl-N", "the next lesson", &[]),
            drill("Ctrl-H", "the table's best move, marked", &[]),
            drill(
                "Ctrl-K",
                "the lesson again from its start",
                &[any(ctrl('k'), C::DrillAgain)],
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
                    any(key(K::Tab), C::FocusNext),
                    any(key(K::BackTab), C::FocusPrevious),
                ],
            ),
            row("F5", "theme", &[any(f(5), C::ChooseTheme)]),
            local(
                "F6, Ctrl-P",
                "profile",
                &[
                    any(f(6), C::ChooseProfile),
                    any(ctrl('p'), C::ChooseProfile),
                ],
            ),
            row(
                "F9",
                "glyphs: cjk, ascii, wide",
                &[any(f(9), C::CycleGlyphs)],
            ),
            row(
                "F10",
                "notation: chinese, wxf, iccs",
                &[any(f(10), C::CycleNotation)],
            ),
            row("Ctrl-L", "redraw", &[any(ctrl('l'), C::Redraw)]),
            // `?` is text once the input line has some (`keys`).
            row(
                "F1, ? (empty line)",
                "this help (Esc closes)",
                &[
                    any(f(1), C::Help),
                    input(ch('?'), C::Help),
                    board(ch('?'), C::Help),
                    log(ch('?'), C::Help),
                    tree(ch('?'), C::Help),
                ],
            ),
            local(
                "Esc",
                "close the :compare view",
                &[bind(P::Compare, key(K::Esc), C::CloseCompare)],
            ),
            in_lobby(Binding {
                places: Places::EVERYWHERE,
                ..asks(
                    "Ctrl-C, Ctrl-D",
                    "quit; an unfinished game is offered next time",
                    &[any(ctrl('c'), C::Quit), any(ctrl('d'), C::Quit)],
                    RoomAsk::Quit,
                    "leave the server; a player's seat is kept",
                )
            }),
        ],
    },
    Section {
        title: "Lobby (the SSH server's first screen)",
        bindings: &[
            lobby(
                "Up/Down",
                "choose a room, or a row of the list shown (games, top)",
                &[
                    lobby_key(key(K::Up), LobbyKey::Up),
                    lobby_key(key(K::Down), LobbyKey::Down),
                ],
            ),
            lobby(
                "Enter",
                "run the command typed; with none, take the chosen room's open seat or \
                 watch it, or open the chosen row",
                &[lobby_key(key(K::Enter), LobbyKey::Run)],
            ),
            lobby(
                "Esc",
                "clear the line; back to the rooms",
                &[lobby_key(key(K::Esc), LobbyKey::Back)],
            ),
        ],
    },
];
