//! What the empty input line suggests: a move of the side to move in the position
//! shown, written in the notations the line reads; what a spectator or a tree study
//! types there instead.

use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::notation::{Notation, format_move};

use super::app::{App, AppMode};
use crate::config::Glyphs;

/// Moves an example prefers, as the first moves of a game are played: the central
/// cannon, the horses, the soldiers' advances (ICCS, each side's own).
const RED_EXAMPLES: [&str; 6] = ["h2e2", "h0g2", "b2e2", "b0c2", "g3g4", "c3c4"];
const BLACK_EXAMPLES: [&str; 6] = ["h9g7", "h7e7", "b9c7", "b7e7", "g6g5", "c6c5"];

/// The line's hint while it is empty and has the focus.
pub fn prompt_hint(app: &App) -> String {
    match &app.mode {
        AppMode::Study(_) => {
            return ":trace save PATH, :help; Tab to the log or the explorer | F1 help".to_owned();
        }
        AppMode::Room(room) if room.seat.is_none() => {
            return if room.status.starts_with("archived") {
                "an archived game: [ and ] step through it, :leave for the lobby | F1 help"
            } else {
                "you are watching: :say TEXT to chat, :leave for the lobby | F1 help"
            }
            .to_owned();
        }
        _ => {}
    }
    let pos = app.shown_position();
    let Some(mv) = example_move(app, pos) else {
        return "no move to play here; :help lists the commands | F1 help".to_owned();
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
