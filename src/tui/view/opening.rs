//! The opening of the position shown, for the status line and the move list's title:
//! `C45 中炮过河车互进七兵对屏风马` (the names in the characters the moves are written
//! in), only the code with ASCII glyphs (terminals chosen for want of CJK fonts).

use crate::opening::Opening;
use crate::tui::app::App;

/// The opening of the moves up to the position shown.
pub fn shown_opening(app: &App) -> Option<Opening> {
    if matches!(app.mode, crate::tui::app::AppMode::Puzzle(_)) {
        return None;
    }
    app.game.opening_at(app.shown_ply())
}

/// The code and name, or the code alone with ASCII glyphs.
pub fn label(app: &App, opening: Opening) -> String {
    if app.config.settings.glyphs == crate::config::Glyphs::Ascii {
        opening.code.to_string()
    } else {
        opening.label(app.display_notation().script())
    }
}
