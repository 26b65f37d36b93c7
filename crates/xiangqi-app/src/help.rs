//! The help overlay's lines, read from the keymap and the `:` command table: what
//! applies where the app runs (a room lists only what a room allows). The README's
//! "Keys" section says the same at more length.

use super::app::App;
use super::commands::COMMANDS;
use super::keymap::{KEYMAP, Place};
use super::popup::Popup;

/// The help as lines of (keys, text); headings have empty keys.
pub fn help_lines(place: Place) -> Vec<(String, String)> {
    let mut lines = Vec::new();
    for section in KEYMAP {
        let mut bindings = section
            .bindings
            .iter()
            .filter(|binding| binding.places.contains(place))
            .peekable();
        if bindings.peek().is_none() {
            continue;
        }
        lines.push((String::new(), section.title.to_owned()));
        for binding in bindings {
            lines.push((binding.keys.to_owned(), binding.help_in(place).to_owned()));
        }
        lines.push((String::new(), String::new()));
    }
    lines.push((
        String::new(),
        "Commands (type on the input line)".to_owned(),
    ));
    for spec in COMMANDS.iter().filter(|spec| spec.places.contains(place)) {
        lines.push((spec.usage.to_owned(), spec.help_in(place).to_owned()));
    }
    lines
}

/// F1, `?` and `:help`: the help on, or off when it is on top.
pub fn toggle(app: &mut App) {
    if matches!(app.popups.last(), Some(Popup::Help { .. })) {
        app.popups.pop();
    } else {
        app.popups.push(Popup::Help { scroll: 0 });
        // A local game's clock stops while the help is open (`flow::settle`); a room's
        // clock is shared.
        if app.place() == super::keymap::Place::Room {
            app.notify("the room's clock keeps running while the help is open");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::keymap::bindings;
    use super::*;

    #[test]
    fn the_help_lists_every_binding_and_command_where_it_applies() {
        for place in Place::ALL {
            let shown: Vec<(String, String)> = help_lines(place)
                .into_iter()
                .filter(|(keys, _)| !keys.is_empty())
                .collect();
            let bindings = bindings()
                .filter(|(_, binding)| binding.places.contains(place))
                .map(|(_, binding)| (binding.keys, binding.help_in(place)));
            let commands = COMMANDS
                .iter()
                .filter(|spec| spec.places.contains(place))
                .map(|spec| (spec.usage, spec.help_in(place)));
            let expected: Vec<(String, String)> = bindings
                .chain(commands)
                .map(|(keys, text)| (keys.to_owned(), text.to_owned()))
                .collect();
            assert_eq!(shown, expected, "{place:?}");
        }
        // Every binding is shown somewhere.
        for (title, binding) in bindings() {
            assert!(
                Place::ALL
                    .iter()
                    .any(|&place| binding.places.contains(place)),
                "{title}: {}",
                binding.keys
            );
        }
    }

    #[test]
    fn a_room_lists_only_what_a_room_allows() {
        let lines = help_lines(Place::Room);
        let keys: Vec<&str> = lines.iter().map(|(keys, _)| keys.as_str()).collect();
        for local_only in ["Ctrl-N", "Ctrl-G", "F3, Ctrl-O", "F7", "F12", ":load PATH"] {
            assert!(!keys.contains(&local_only), "{local_only}");
        }
        for room in ["Ctrl-Z", "Ctrl-R", ":draw", ":undo", ":leave", ":say TEXT"] {
            assert!(keys.contains(&room), "{room}");
        }
        assert!(
            !lines
                .iter()
                .any(|(_, text)| text.starts_with("Tree explorer"))
        );
    }
}
