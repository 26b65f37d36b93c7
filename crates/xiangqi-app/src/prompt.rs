//! What the empty input line suggests: a move of the side to move in the position
//! shown, written in the notations the line reads, when a move may be typed; else what
//! the line is for now (a spectator's chat, a finished puzzle's next one, a tree study's
//! commands).

use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::notation::{Notation, format_move};

use super::app::{App, AppMode};
use crate::config::Glyphs;
use crate::train::Status;

/// Moves an example prefers, as the first moves of a game are played: the central
/// cannon, the horses, the soldiers' advances (ICCS, each side's own).
const RED_EXAMPLES: [&str; 6] = ["h2e2", "h0g2", "b2e2", "b0c2", "g3g4", "c3c4"];
const BLACK_EXAMPLES: [&str; 6] = ["h9g7", "h7e7", "b9c7", "b7e7", "g6g5", "c6c5"];

/// The line's hint while it is empty and has the focus: how to type a move when one
/// may be typed, else what the line is for now.
pub fn prompt_hint(app: &App) -> String {
    let instead = match &app.mode {
        AppMode::Study(_) => Some(":trace save PATH, :help; Tab to the log or the explorer"),
        AppMode::Room(room) if room.seat.is_none() && room.status.starts_with("archived") => {
            Some("an archived game: [ and ] step through it, :leave for the lobby")
        }
        AppMode::Room(room) if room.seat.is_none() => {
            Some("you are watching: :say TEXT to chat, :leave for the lobby")
        }
        AppMode::Room(_) if app.game_over() => {
            Some("the game is over: :rematch asks for another, :leave for the lobby")
        }
        AppMode::Room(room) if room.seat != Some(app.position().side_to_move()) => {
            Some("your opponent's move: :say TEXT to chat")
        }
        AppMode::Puzzle(puzzle) if puzzle.tree.is_some() => {
            Some("the proof tree: arrows walk it, Ctrl-V closes it")
        }
        AppMode::Puzzle(puzzle) => match puzzle.session.status {
            Status::YourMove => None,
            Status::Waiting => Some("the prover judges the move..."),
            Status::Solved => Some("solved: Ctrl-N the next puzzle, Ctrl-X back"),
            Status::Refuted => Some("refuted: Ctrl-Z takes it back, Ctrl-N the next puzzle"),
        },
        AppMode::Drill(drill) if drill.drill.status.over() => {
            Some("the lesson is over: :drill retry or :drill next, Ctrl-X back")
        }
        AppMode::Play | AppMode::Analysis if app.game_over() && app.browse.is_none() => {
            Some("the game is over: Ctrl-N a new game, [ steps back through it")
        }
        AppMode::Play if app.engine.thinking.is_some() && !app.people_may_move() => {
            Some("the engine is thinking: Ctrl-T stops it")
        }
        _ => None,
    };
    if let Some(text) = instead {
        return format!("{text} | F1 help");
    }
    let pos = app.shown_position();
    let Some(mv) = example_move(app, pos) else {
        return ":help lists the commands | F1 help".to_owned();
    };
    let wxf = format_move(pos, mv, Notation::Wxf);
    let iccs = mv.iccs();
    if app.config.settings.glyphs == Glyphs::Ascii {
        format!("type a move ({wxf}, {iccs}) and Enter | F1 help")
    } else {
        let chinese = format_move(pos, mv, Notation::Chinese);
        format!("type a move ({chinese}, {wxf}, {iccs}) and Enter | F1 help")
    }
}

/// A legal move of the side to move in `pos` to show as an example: an opening move
/// when one is legal, else the first quiet one. Never the next move of a puzzle's
/// solution: an example is not a hint.
pub fn example_move(app: &App, pos: &Position) -> Option<Move> {
    let solution = match &app.mode {
        AppMode::Puzzle(puzzle) => puzzle
            .session
            .puzzle
            .solution
            .get(puzzle.session.ply())
            .copied(),
        _ => None,
    };
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    legal.retain(|&mv| Some(mv) != solution);
    let quiet = |mv: &Move| pos.piece_at(mv.to()).is_none();
    let openings = match pos.side_to_move() {
        Color::Red => RED_EXAMPLES,
        Color::Black => BLACK_EXAMPLES,
    };
    openings
        .iter()
        .filter_map(|text| Move::parse_coords(text))
        .find(|mv| legal.contains(mv))
        .or_else(|| legal.iter().copied().find(quiet))
        .or_else(|| legal.first().copied())
}
