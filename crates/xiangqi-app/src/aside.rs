//! The game's view set aside while the puzzle trainer or a drill has the board, and
//! given back as it was: one mechanism for both.

use xiangqi_core::board::Square;

use super::app::{App, AppMode, Browse, Focus};

/// What the app was doing before, to go back to it.
#[derive(Debug, Clone)]
pub struct Kept {
    pub mode: AppMode,
    pub flipped: bool,
    pub focus: Focus,
    pub cursor: Square,
    pub browse: Option<Browse>,
}

impl Kept {
    /// Sets aside `mode` (already taken from the app) and the board's view of the game.
    pub fn take(app: &mut App, mode: AppMode) -> Kept {
        Kept {
            mode,
            flipped: app.flipped,
            focus: app.focus,
            cursor: app.cursor,
            browse: app.browse.take(),
        }
    }

    /// Gives it back; the engine is looked at again (its turn, or the analysis board,
    /// resumes).
    pub fn restore(self, app: &mut App) {
        app.mode = self.mode;
        app.flipped = self.flipped;
        app.focus = self.focus;
        app.cursor = self.cursor;
        app.browse = self.browse;
        app.selected = None;
        app.settled.reconsider_engine();
    }
}
