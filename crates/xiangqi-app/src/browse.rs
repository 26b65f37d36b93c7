//! Browsing the game: the board shows an earlier position while the game stays whole
//! (per viewer in a room). A move made there asks first whether to cut the game (a room
//! refuses it: its moves are taken back only by agreement). On the analysis board the
//! game itself is walked, as the engine analyses what is shown.

use xiangqi_core::board::Move;

use super::action::BrowseTo;
use super::app::{App, AppMode, Browse};
use super::flow::{go_to_ply, play_move};
use super::popup::{Discard, Popup};

/// After the game changed under the position shown (a move by the engine or the room,
/// a takeback): the same ply is shown, or the game's position once the game is no
/// longer than that.
pub fn follow_browse(app: &mut App) {
    if let Some(browse) = &app.browse {
        let ply = browse.ply;
        show_ply(app, ply);
    }
}

/// Shows the position after `ply` plies; the game's own position ends browsing.
fn show_ply(app: &mut App, ply: usize) {
    app.browse = (ply < app.game.ply()).then(|| Browse {
        ply,
        position: app.game.position_at(ply),
    });
}

/// The browsing keys: the position shown moves through the game, which stays whole.
/// On the analysis board the game itself is walked (the engine analyses what is shown).
pub fn browse(app: &mut App, to: BrowseTo) {
    let total = app.game.ply();
    let now = app.shown_ply();
    let target = match to {
        BrowseTo::Back => now.saturating_sub(1),
        BrowseTo::Forward => now + 1,
        BrowseTo::Start => 0,
        BrowseTo::End => usize::MAX,
    };
    if app.analysing() {
        go_to_ply(app, target);
        return;
    }
    go_to_shown(app, target.min(total));
}

/// Shows the position after `ply` plies (a click in the move list, a browsing key).
pub fn go_to_shown(app: &mut App, ply: usize) {
    if app.analysing() {
        go_to_ply(app, ply);
        return;
    }
    let was = app.shown_ply();
    show_ply(app, ply);
    app.selected = None;
    let total = app.game.ply();
    if app.browse.is_some() {
        app.notify(format!(
            "ply {ply}/{total} shown: [ ] step, End back to the game"
        ));
    } else if was != ply.min(total) {
        app.notify("back to the game");
    }
}

/// A move made on the board shown: on the game's position it is played; on an earlier
/// one it asks first whether to cut the game there (in a room it is refused: moves are
/// taken back only by agreement there).
pub fn play_shown(app: &mut App, mv: Move) {
    if matches!(app.mode, AppMode::Puzzle(_)) {
        super::puzzle_mode::play(app, mv);
        return;
    }
    if let AppMode::Drill(_) = app.mode {
        super::drill_link::play(app, mv);
        return;
    }
    let Some(browse) = &app.browse else {
        play_move(app, mv);
        return;
    };
    let ply = browse.ply;
    if matches!(app.mode, AppMode::Room(_)) {
        app.selected = None;
        app.alert("you are looking back: End returns to the game to move");
        return;
    }
    app.selected = None;
    app.popups
        .push(Popup::ConfirmDiscard(Discard::Cut { ply, mv }));
}

/// Yes to cutting: the game loses its moves after `ply` and `mv` is played there.
pub fn cut_and_play(app: &mut App, ply: usize, mv: Move) {
    app.game.cut_at(ply);
    app.browse = None;
    if !app.game.position().is_legal(mv) || app.game_over() {
        return;
    }
    let now = app.now();
    app.game.follow_clock(&mut app.clock, now);
    // The person moves: the engine answers again.
    app.engine.paused = false;
    play_move(app, mv);
    app.notify(format!("the game was cut after ply {ply}"));
}
