//! The keys, as the help overlay lists them (the README's "Keys" section says the same).

use super::commands::COMMANDS;

/// A heading and its (keys, what they do) lines.
pub struct HelpSection {
    pub title: &'static str,
    pub keys: &'static [(&'static str, &'static str)],
}

pub const HELP: &[HelpSection] = &[
    HelpSection {
        title: "Playing (the input line has focus at start)",
        keys: &[
            (
                "type + Enter",
                "play a move: Chinese, WXF (C2.5) or ICCS (h2e2)",
            ),
            ("Enter (empty)", "pick up / put down at the board cursor"),
            (
                "arrows",
                "move the board cursor (Left/Right edit typed text)",
            ),
            ("Home End Bksp Del", "edit the line"),
            (
                "Ctrl-U Ctrl-W",
                "delete to line start / the word before the cursor",
            ),
            ("Esc", "drop the picked piece, else clear the line"),
        ],
    },
    HelpSection {
        title: "Board (Tab to it)",
        keys: &[
            ("arrows, h j k l", "move the cursor"),
            ("Enter, Space", "pick up / put down"),
            ("mouse click", "pick up / put down on the point clicked"),
            ("Esc", "drop the picked piece"),
            ("other characters", "go to the input line"),
        ],
    },
    HelpSection {
        title: "Game",
        keys: &[
            (
                "Ctrl-Z",
                "undo (against the engine: your move and its reply)",
            ),
            ("Ctrl-Y", "redo"),
            ("Ctrl-N", "new game"),
            ("Ctrl-F", "flip the board"),
            ("Ctrl-G", "engine moves now (also for your side)"),
            ("Ctrl-T", "stop thinking; the engine waits for Ctrl-G"),
            ("Ctrl-R", "resign (asks first); :draw offers a draw"),
            ("F4", "who plays: you as Red or Black, two players, engines"),
            ("Ctrl-B", "the book moves of the position: games, score"),
            ("F3, Ctrl-O", "load a FEN or a PGN file"),
            ("F2, Ctrl-E", "save the game as PGN"),
            ("click a move", "show the position after it (move list)"),
            ("Ctrl-H", "hint: the engine's best move, marked, not played"),
            (
                "Ctrl-A",
                "analysis board: live engine lines and score graph",
            ),
        ],
    },
    HelpSection {
        title: "Search log (Tab to it)",
        keys: &[
            ("F7", "step mode on/off (pause before each trace event)"),
            ("Space n Enter Right", "one event (F8 from any pane)"),
            ("i", "run to the end of the iteration"),
            ("c / p", "continue freely / pause again"),
            ("Up Down j k, wheel", "scroll a line (PgUp PgDn: a page)"),
            ("Home g / End G", "oldest line / follow the newest"),
            ("F11", "log detail: off, summary, nodes, events"),
            ("Esc", "back to the input line"),
        ],
    },
    HelpSection {
        title: "Tree explorer (F12; Tab to it while shown)",
        keys: &[
            (
                "F12",
                "show the explored tree in the board's place / hide it",
            ),
            ("Up Down, PgUp PgDn", "walk the rows"),
            (
                "Right / Left, Enter",
                "open / close a node (or go in / out)",
            ),
            ("p", "the principal variation"),
            ("x", "the next cut-off"),
            ("/ text Enter", "the next node whose move contains text"),
            ("Space c", "step one event / continue (also in the log)"),
        ],
    },
    HelpSection {
        title: "Screen",
        keys: &[
            ("Tab, Shift-Tab", "focus: input line, board, search log"),
            ("F5", "theme"),
            ("F6, Ctrl-P", "profile"),
            ("F9", "glyphs: cjk, ascii, wide"),
            ("F10", "notation: chinese, wxf, iccs"),
            ("Ctrl-L", "redraw"),
            ("F1, ? (empty line)", "this help (Esc closes)"),
            (
                "Ctrl-C, Ctrl-D",
                "quit; an unfinished game is offered next time",
            ),
        ],
    },
];

/// The help as lines of (keys, text); headings have empty keys. `width` is the key
/// column's width.
pub fn help_lines() -> Vec<(String, String)> {
    let mut lines = Vec::new();
    for section in HELP {
        lines.push((String::new(), section.title.to_owned()));
        for (keys, text) in section.keys {
            lines.push(((*keys).to_owned(), (*text).to_owned()));
        }
        lines.push((String::new(), String::new()));
    }
    lines.push((
        String::new(),
        "Commands (type on the input line)".to_owned(),
    ));
    for (usage, text) in COMMANDS {
        lines.push(((*usage).to_owned(), (*text).to_owned()));
    }
    lines
}
