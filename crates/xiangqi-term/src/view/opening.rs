//! The opening of the position shown, for the status line and the move list's title:
//! `C45 中炮过河车互进七兵对屏风马` (the names in the characters the moves are written
//! in), only the code with ASCII glyphs (terminals chosen for want of CJK fonts).

use xiangqi_app::app::App;
use xiangqi_engine::opening::Opening;

/// The opening of the moves up to the position shown.
pub fn shown_opening(app: &App) -> Option<Opening> {
    if matches!(app.mode, xiangqi_app::app::AppMode::Puzzle(_)) {
        return None;
    }
    app.game.opening_at(app.shown_ply())
}

/// The code and name, or the code alone with ASCII glyphs.
pub fn label(app: &App, opening: Opening) -> String {
    if app.config.settings.glyphs == xiangqi_app::config::Glyphs::Ascii {
        opening.code.to_string()
    } else {
        opening.label(app.display_notation().script())
    }
}
