//! Loading a game (a FEN, or a PGN file the driver reads) and saving one as PGN.

use std::path::{Path, PathBuf};

use crate::game::GameState;
use xiangqi_core::board::Position;

use super::action::Effect;
use super::app::App;
use super::flow::start_game;
use super::popup::{Discard, Popup};
use super::records;

/// Loads the game in `text` (a FEN, or a file's contents), replacing the current one.
pub fn load_game_text(app: &mut App, text: &str, source: &str) -> Result<(), String> {
    let game = records::read_game(text).map_err(|error| format!("{source}: {error}"))?;
    load_game(app, game, source);
    Ok(())
}

fn load_game(app: &mut App, game: GameState, source: &str) {
    start_game(app, game);
    match super::ruling_view::game_result_text(&app.game) {
        // A finished game is a record to browse; `:continue` plays on from a position.
        Some(result) => app.notify(format!(
            "loaded {source}: {result}; [ ] browse, :continue plays on"
        )),
        None => app.notify(format!("loaded {source}")),
    }
}

pub fn on_file_read(app: &mut App, path: &Path, result: Result<Vec<u8>, String>) {
    let shown = path.display().to_string();
    let outcome = result
        .and_then(|bytes| records::read_game_bytes(&bytes))
        .map(|game| load_game(app, game, &shown))
        .map_err(|message| format!("{shown}: {message}"));
    if let Err(message) = outcome {
        app.popups.push(Popup::Message {
            title: "Cannot load".to_owned(),
            text: message,
        });
    }
}

/// The answer to the load prompt (or `:load`, `:fen`): asks first when the unfinished
/// game would be lost.
pub fn load_from_prompt(app: &mut App, text: &str) -> Vec<Effect> {
    let text = text.trim();
    if text.is_empty() {
        return Vec::new();
    }
    if app.game_unfinished() {
        app.popups
            .push(Popup::ConfirmDiscard(Discard::Load(text.to_owned())));
        return Vec::new();
    }
    load_now(app, text)
}

/// Loads: a FEN at once, anything else is a file to read.
pub fn load_now(app: &mut App, text: &str) -> Vec<Effect> {
    let text = text.trim();
    // The search stops when the game loaded replaces the one it was for (settle).
    if Position::from_fen(text).is_ok() {
        let _ = load_game_text(app, text, "FEN");
        return Vec::new();
    }
    vec![Effect::ReadFile(PathBuf::from(text))]
}

/// The answer to the save prompt.
pub fn save_to(app: &mut App, path: &str) -> Vec<Effect> {
    let path = path.trim();
    if path.is_empty() {
        return Vec::new();
    }
    vec![Effect::WriteFile {
        path: PathBuf::from(path),
        contents: records::pgn_text(
            &super::resume::saved_game(app),
            app.config.settings.notation,
        ),
    }]
}
