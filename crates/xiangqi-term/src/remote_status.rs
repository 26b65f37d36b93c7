//! A room's status line as a remote session shows it.

use xiangqi_app::game::RoomView;
use xiangqi_core::board::Color;

/// An archived game is shown as a room named `#ID`.
pub(super) fn is_archived(view: &RoomView) -> bool {
    view.name.starts_with('#')
}

pub(super) fn status_text(view: &RoomView) -> String {
    if is_archived(view) {
        return format!(
            "archived game {} | {} vs {}",
            view.name, view.red, view.black
        );
    }
    let mut parts = vec![format!("room {}", view.name)];
    // After the room's name, which a narrow status line drops first.
    if let Some(event) = &view.event {
        parts.push(event.clone());
    }
    let me = match view.my_side {
        Some(Color::Red) => "you: Red",
        Some(Color::Black) => "you: Black",
        None => "watching",
    };
    parts.push(format!("{me} | {} vs {}", view.red, view.black));
    if view.spectators > 0 {
        parts.push(format!("{} watching", view.spectators));
    }
    if let Some(control) = view.clock.control(Color::Red) {
        parts.push(control.to_string());
    }
    if !view.rated {
        parts.push("unrated".to_owned());
    }
    if let Some(ended) = &view.ended {
        parts.push(ended.clone());
    }
    if let Some(pending) = &view.pending {
        parts.push(pending.clone());
    }
    parts.join(" | ")
}
