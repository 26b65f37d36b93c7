//! Popups: windows over the main screen, on a stack; the top one takes the keys.

use crate::config::EngineSide;

use super::input::InputLine;
use super::ruling_view::RulingView;
use xiangqi_core::notation::Candidate;

/// What a one-line prompt asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptPurpose {
    /// A FEN, or the path of a game file (PGN).
    Load,
    /// The path to save the game to, as PGN.
    Save,
}

impl PromptPurpose {
    pub fn title(self) -> &'static str {
        match self {
            PromptPurpose::Load => "Load: a FEN, or a PGN file's path",
            PromptPurpose::Save => "Save the game as PGN to",
        }
    }
}

/// What a list to choose from is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChoicePurpose {
    Theme,
    /// `None` in the list stands for "no profile".
    Profile,
    Mode,
    Time,
    Engine,
    Level,
    /// The endgame school's lessons (`:drill`).
    Lesson,
}

impl ChoicePurpose {
    pub fn title(&self) -> &'static str {
        match self {
            ChoicePurpose::Theme => "Theme",
            ChoicePurpose::Profile => "Profile",
            ChoicePurpose::Mode => "Who plays",
            ChoicePurpose::Time => "Time control (both sides)",
            ChoicePurpose::Engine => "Opponent engine",
            ChoicePurpose::Level => "Engine strength",
            ChoicePurpose::Lesson => "Endgame school: lessons",
        }
    }
}

/// One line of a choice list: what is shown and what choosing it means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChoiceValue {
    Theme(String),
    Profile(Option<String>),
    Mode(EngineSide),
    Time(Option<xiangqi_core::clock::TimeControl>),
    /// `builtin` or an `[engines.NAME]` name.
    Engine(String),
    Level(u8),
    /// A lesson's material (`KRK`).
    Lesson(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceItem {
    pub label: String,
    pub value: ChoiceValue,
}

/// What would throw away the unfinished game, asked first (`Popup::ConfirmDiscard`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Discard {
    /// A new game (Ctrl-N).
    NewGame,
    /// Load a FEN or a file (the load prompt's text).
    Load(String),
    /// A move played on an earlier position: the game is cut after `ply` plies.
    Cut {
        ply: usize,
        mv: xiangqi_core::board::Move,
    },
}

impl Discard {
    /// The question, in a line.
    pub fn question(&self) -> String {
        match self {
            Discard::NewGame => "Start a new game? The unfinished one is lost.".to_owned(),
            Discard::Load(_) => "Load over the unfinished game? It is lost.".to_owned(),
            Discard::Cut { ply, .. } => {
                format!("Play this move, dropping the game after ply {ply}?")
            }
        }
    }

    /// The popup's title.
    pub fn title(&self) -> &'static str {
        match self {
            Discard::Cut { .. } => "Cut the game here?",
            Discard::NewGame | Discard::Load(_) => "Unfinished game",
        }
    }
}

/// What closing a popup asks for; `update` carries it out.
#[derive(Debug)]
pub enum Answer {
    /// Yes to the resignation question.
    Resign,
    /// Yes: throw the unfinished game away for this.
    Discard(Discard),
    /// A new game with the colours swapped (the result popup).
    Rematch,
    /// The move chosen among an ambiguous input's candidates.
    Candidate(xiangqi_core::board::Move),
    Choice(ChoiceValue),
    /// The load prompt's text: a FEN, or a file to read.
    Load(String),
    /// The save prompt's path.
    Save(String),
}

#[derive(Debug, Clone)]
pub enum Popup {
    /// Every key, scrollable.
    Help { scroll: u16 },
    /// The selected trace event in full (`e`), scrollable.
    Event { scroll: u16 },
    /// The typed text fits several moves: pick one.
    Candidates {
        input: String,
        candidates: Vec<Candidate>,
        selected: usize,
    },
    /// The unfinished game found at start is the game again (`resume::start_with`):
    /// Enter or Esc plays on, `n` asks Ctrl-N's question. No key here throws it away.
    Resume,
    Prompt {
        purpose: PromptPurpose,
        line: InputLine,
    },
    Choice {
        purpose: ChoicePurpose,
        items: Vec<ChoiceItem>,
        selected: usize,
    },
    /// Something the player must see (an error reading a file, the game's end).
    Message { title: String, text: String },
    /// Ctrl-R: y resigns, anything else keeps playing.
    ConfirmResign,
    /// Something would throw the unfinished game away: y goes on, anything else keeps it.
    ConfirmDiscard(Discard),
    /// The game ended: the result and why; n a new game, r a rematch, Esc closes. A
    /// game the repetition rules ended shows the arbiter's ruling with it.
    GameOver {
        outcome: xiangqi_core::board::rules::Outcome,
        ruling: Option<Box<RulingView>>,
        /// Whether `r` offers a rematch: not in a tournament's room, whose director
        /// pairs the next game.
        rematch: bool,
    },
    /// `:ruling`: the arbiter's ruling on the game's repetition; any key closes it.
    Ruling(Box<RulingView>),
}

/// The labels of the "who plays" choice, in order.
pub fn mode_items() -> Vec<ChoiceItem> {
    [
        (EngineSide::Black, "You play Red against the engine"),
        (EngineSide::Red, "You play Black against the engine"),
        (EngineSide::None, "Two players, no engine"),
        (EngineSide::Both, "Engine against engine (watch)"),
    ]
    .into_iter()
    .map(|(side, label)| ChoiceItem {
        label: label.to_owned(),
        value: ChoiceValue::Mode(side),
    })
    .collect()
}

/// Moves the selection of a list of `len` items by `delta`, wrapping around.
pub fn wrap_selection(selected: usize, len: usize, delta: isize) -> usize {
    if len == 0 {
        return 0;
    }
    let len = len as isize;
    (((selected as isize + delta) % len + len) % len) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_wraps_both_ways() {
        assert_eq!(wrap_selection(0, 3, -1), 2);
        assert_eq!(wrap_selection(2, 3, 1), 0);
        assert_eq!(wrap_selection(1, 3, 1), 2);
        assert_eq!(wrap_selection(0, 0, 1), 0);
    }
}
