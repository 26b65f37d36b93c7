//! A room's chat: what its players and spectators say, and what the room itself
//! announces (results, offers, the archive's id, rating changes), numbered so that the
//! store keeps what it has not seen yet.

use super::*;

impl RoomState {
    /// The chat lines numbered `seq` and after.
    pub fn chat_since(&self, seq: u64) -> impl Iterator<Item = (u64, &str)> {
        self.chat
            .iter()
            .filter(move |(number, _)| *number >= seq)
            .map(|(number, line)| (*number, line.as_str()))
    }

    /// The number the next chat line gets.
    pub fn chat_next(&self) -> u64 {
        self.chat_next
    }

    /// Puts back the chat lines the store kept (a restart), oldest first.
    pub fn restore_chat(&mut self, lines: impl IntoIterator<Item = (u64, String)>) {
        for (seq, line) in lines {
            if self.chat.len() == CHAT_KEPT {
                self.chat.pop_front();
            }
            self.chat.push_back((seq, line));
            self.chat_next = self.chat_next.max(seq + 1);
        }
        self.chat_saved = self.chat_next;
    }

    /// The oldest finished game waiting was archived: the room says under which id and,
    /// for a rated game, how the ratings moved (shown next to the names from now on).
    pub fn archived_one(&mut self, archived: Archived) {
        if self.to_archive.is_empty() {
            return;
        }
        let game = self.to_archive.remove(0);
        self.archived = Some(archived.id);
        self.say_system(format!(
            "the game is archived as #{id}: `pgn {id}` shows it",
            id = archived.id
        ));
        let Some((red, black)) = archived.ratings else {
            return;
        };
        let mut moves = Vec::new();
        for (side, new) in [(&game.red, red), (&game.black, black)] {
            // The seats may have swapped since (a rematch): the rating follows the key.
            let seat = Color::BOTH.into_iter().find(|&color| {
                self.seats[color.index()]
                    .as_ref()
                    .is_some_and(|seat| side.key.as_deref() == Some(seat.identity.as_str()))
            });
            let old = seat.and_then(|color| self.ratings[color.index()]);
            if let Some(color) = seat {
                self.ratings[color.index()] = Some(new);
            }
            let change = old.map_or(String::new(), |old| {
                format!(" ({:+.0})", new.rating.round() - old.rating.round())
            });
            moves.push(format!("{} {}{change}", side.name, new.label()));
        }
        self.say_system(format!("ratings: {}", moves.join(", ")));
    }

    pub fn say(&mut self, from: &str, text: &str) {
        // Nothing that hides or reorders text (bidi overrides, zero-width spaces) goes
        // to the other clients.
        let text: String = text
            .chars()
            .filter(|&c| !c.is_control() && !crate::name_rules::is_format(c))
            .take(CHAT_MAX_CHARS)
            .collect();
        self.push_chat(format!("{from}: {text}"));
    }

    /// Tells the chat how the game ended off the board.
    pub(super) fn say_ended(&mut self) {
        if let Some(text) = ended_text(&self.game) {
            self.say_system(text);
        }
    }

    pub(super) fn say_system(&mut self, text: String) {
        self.push_chat(format!("* {text}"));
    }

    pub(super) fn push_chat(&mut self, line: String) {
        if self.chat.len() == CHAT_KEPT {
            self.chat.pop_front();
        }
        self.chat.push_back((self.chat_next, line));
        self.chat_next += 1;
    }
}
