//! What can happen to the app (`Action`) and what the app asks the driver to do
//! (`Effect`). `update` turns one into the other; only the driver does I/O.

use std::path::PathBuf;

use crate::key::{KeyEvent, MouseEvent};

use crate::game::ModerationVerb;
use xiangqi_engine::service::{EngineEvent, SearchId, SearchRequest, StepCommand};

/// An input to `update`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Key(KeyEvent),
    Mouse(MouseEvent),
    /// Text pasted into the terminal (bracketed paste).
    Paste(String),
    /// The terminal's new size in columns and rows.
    Resize(u16, u16),
    Engine(EngineEvent),
    /// The driver read a file the app asked for.
    FileRead {
        path: PathBuf,
        result: Result<Vec<u8>, String>,
    },
    /// The driver wrote a file the app asked for (a saved game).
    FileWritten {
        path: PathBuf,
        result: Result<(), String>,
    },
    /// A command, from a key, a click or a signal.
    Command(Command),
    /// Progress of the `:compare` view's searches.
    Compare(super::compare_view::CompareUpdate),
    /// Progress and result of a `:trace save` running in the background.
    TraceSave(super::trace_save::TraceSaveUpdate),
    /// Progress and result of a `:review` running in the background.
    Review(super::review_link::ReviewUpdate),
    /// The prover's answer to the puzzle trainer (`Effect::Puzzle`).
    Puzzle(Box<crate::train::PuzzleAnswer>),
    /// The endgame school's lessons or lesson, read on a thread (`:drill`).
    School(super::drill_link::SchoolUpdate),
    /// Time passed while a clock runs: redraw it, and see whether a flag fell.
    Tick,
}

/// Board directions as the player sees the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// What a key means once focus and popups are taken into account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Undo,
    Redo,
    NewGame,
    /// Resign the game (asks first).
    Resign,
    /// Choose the time control.
    ChooseTime,
    Flip,
    /// The engine plays now: stop its search and play the best move found, or start
    /// one for the side to move.
    EngineMoveNow,
    /// Stop the engine's search without playing; the engine waits until `EngineMoveNow`.
    StopThinking,
    Help,
    /// Save the unfinished game and leave (keys, SIGINT/SIGTERM/SIGHUP, a lost terminal).
    Quit,
    FocusNext,
    FocusPrevious,
    MoveCursor(Direction),
    /// Pick up the piece under the board cursor, or put the picked one down there.
    PickOrPut,
    /// Step mode: a key for the search held in step mode.
    Step(StepCommand),
    /// Step mode on or off (for this and later searches).
    ToggleStep,
    /// Load a game: a FEN, or a PGN file.
    Load,
    /// Save the game as PGN.
    Save,
    ChooseTheme,
    ChooseProfile,
    ChooseMode,
    CycleGlyphs,
    CycleNotation,
    CycleTrace,
    /// Clear and redraw the whole screen.
    Redraw,
    /// F12: the search-tree explorer.
    ToggleExplorer,
    /// `e`: the selected trace event in full, in a window.
    ShowEvent,
    /// List the book moves of the position (Ctrl-B).
    ShowBook,
    /// The analysis board on or off.
    Analyze,
    /// Show the engine's best move without playing it.
    Hint,
    /// Show the position after this many plies (a click in the move list).
    GoToPly(usize),
    /// Step through the game's moves without changing it.
    Browse(BrowseTo),
    /// Enter on the input line: play the move typed, run the `:` command, or (empty)
    /// pick up or put down at the board cursor.
    Submit,
    /// Esc on the input line: drop the picked piece, else clear the line.
    DropOrClear,
    /// Esc on the board: drop the picked piece.
    DropPiece,
    /// Esc in the log or the explorer: back to the input line.
    FocusInput,
    /// Scroll the search log (the explorer follows its bottom line).
    ScrollLog(LogScroll),
    /// Walk the search-tree explorer.
    Explore(ExplorerMove),
    /// Esc over the `:compare` view: close it.
    CloseCompare,
    /// Show the position after the next (`true`) or previous marked move of a review.
    JumpToMarked(bool),
    /// In a room: what the player asks of it (the remote session carries it out).
    AskRoom(RoomAsk),
    /// In a drill: the lesson again from its start.
    DrillAgain,
    /// The puzzle trainer: its solution's proof tree on or off.
    PuzzleTree,
    /// Leave the puzzle trainer or a drill: back to the game as it was.
    LeaveTraining,
    /// In the server's lobby: what a key does to its list and its line (the remote
    /// session's lobby carries it out).
    Lobby(LobbyKey),
}

/// Where browsing the game goes: the position shown changes, the game stays whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BrowseTo {
    /// One move back.
    Back,
    /// One move forward.
    Forward,
    /// The start position.
    Start,
    /// The game's position (browsing ends).
    End,
}

/// How the search log scrolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogScroll {
    Up(usize),
    Down(usize),
    /// The oldest line kept.
    Oldest,
    /// Follow the newest line.
    Newest,
}

/// A key of the search-tree explorer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExplorerMove {
    Up,
    Down,
    /// Rows down (negative: up).
    Page(isize),
    /// Open a node, or go in.
    Right,
    /// Close a node, or go out.
    Left,
    /// Open or close a node.
    Toggle,
    /// The principal variation.
    Pv,
    /// The next cut-off.
    NextCutoff,
    /// Start typing a search (`/`).
    Search,
    /// Show an earlier (negative) or later iteration's tree.
    Iteration(i8),
}

/// The keys of the server's lobby (`Command::Lobby`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LobbyKey {
    /// The row above in the list shown.
    Up,
    /// The row below.
    Down,
    /// Run the command typed; with none, the chosen row's.
    Run,
    /// Clear the line and show the rooms again.
    Back,
}

/// What a player in a room asks of it; the remote session turns it into an `Intent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoomAsk {
    /// Resign (the session asks for a confirmation first).
    Resign,
    /// Offer a draw, or accept the other side's offer.
    Draw,
    /// Ask to take back, or agree to the other side's request.
    Undo,
    /// Back to the lobby.
    Leave,
    /// A chat line.
    Say,
    /// After the game: offer a rematch, or accept the other side's offer.
    Rematch,
    /// End the session.
    Quit,
    /// An admin's command (the server refuses it to others).
    Moderate(ModerationVerb),
}

/// Something only the driver can do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    StartSearch(Box<SearchRequest>),
    StopSearch(SearchId),
    Step {
        id: SearchId,
        command: StepCommand,
    },
    /// Write the unfinished game to the autosave file (atomically).
    Autosave(String),
    /// The game is over or new: there is nothing to resume.
    RemoveAutosave,
    /// Read a game file; the answer comes back as `Action::FileRead`.
    ReadFile(PathBuf),
    /// Write a game file; the answer comes back as `Action::FileWritten`.
    WriteFile {
        path: PathBuf,
        contents: String,
    },
    ClearScreen,
    Quit,
    /// Run the `:compare` searches on a thread; progress comes back as actions.
    Compare(Box<super::compare_view::CompareRequest>),
    /// Write a trace file on a thread; progress and result come back as
    /// `Action::TraceSave`.
    SaveTrace(Box<super::trace_save::TraceSave>),
    /// Review the game on a thread; progress and result come back as `Action::Review`.
    Review(Box<super::review_link::ReviewRequest>),
    /// Run the puzzle trainer's prover work (`train::run`) on a thread; the answer
    /// comes back as `Action::Puzzle`.
    Puzzle(Box<crate::train::PuzzleRequest>),
    /// Keep a finished puzzle attempt (the local file, or the server's store).
    RecordPuzzle(Box<super::puzzle_mode::PuzzleRecord>),
    /// Read the lessons or a lesson's tables (generating small ones) on a thread; the
    /// answer comes back as `Action::School`.
    School(Box<super::drill_link::SchoolJob>),
    /// In a room: ask it `ask` (with the text of a `:say`).
    AskRoom {
        ask: RoomAsk,
        text: String,
    },
}
