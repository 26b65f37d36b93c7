//! Who plays a game. It decides who answers an offer (the other person, the engine by
//! its draw rule, or nobody), how far a takeback goes, and who speaks at a keyboard.

use xiangqi_core::board::Color;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Players {
    /// Two people at one keyboard: whoever asks speaks for both, so an offer or a
    /// request is agreed at once.
    OneKeyboard,
    /// Two people apart (a server room): the other side agrees by making the same offer
    /// or request.
    TwoPeople,
    /// A person against the engine, which plays `Color`.
    Engine(Color),
    /// The engine against itself: nobody to resign or to offer a draw.
    EngineBoth,
}

impl Players {
    /// The side the person at a keyboard speaks for when `to_move` is to move: the
    /// person's side against the engine, else the side to move.
    pub fn speaker(self, to_move: Color) -> Color {
        match self {
            Players::Engine(engine) => engine.opponent(),
            _ => to_move,
        }
    }
}
