//! The game domain, below the TUI and the server: a game with its history and result
//! (`GameState`), the rules of playing it with others (`Players`: who answers a draw
//! offer, how far a takeback goes, who may resign), the engine's draw rule, the clocks'
//! flag fall, and the room and lobby types a shared game on the server is shown with.
//! The local app and the server's rooms both play by these rules. Nothing here knows a
//! terminal, a network or the configuration.

mod agreement;
mod clocks;
pub mod draw_offer;
mod lobby;
mod moderation;
mod players;
pub mod rating;
mod room;
mod rules;
mod setup;
mod state;
mod tournament;

pub use agreement::{DrawReply, TakebackReply};
pub use draw_offer::{DrawAnswer, SearchView, answer_draw_offer};
pub use lobby::{
    ClockChoice, LOBBY_HELP, LOBBY_USAGE, LobbyCommand, NewRoom, ResumeCode, RoomKind, RoomSummary,
    fit_name, lobby_help_lines, room_headings, room_line, valid_room_name,
};
pub use moderation::{Moderation, ModerationVerb, is_key_fingerprint};
pub use players::Players;
pub use room::{RoomView, ended_text};
pub use rules::RuleError;
pub use setup::{CLOCK_TAGS, OWN_EVENT, Setup, side_of_tag, side_tag};
pub use state::{GameState, IllegalMoveAt, Pending, PlayedMove};
pub use tournament::{
    BoardRow, NewTournament, StandingRow, TOURNAMENT_USAGE, TournamentCommand, TournamentFormat,
    TournamentSummary, TournamentView, board_line, score_text, standings_json, standings_lines,
    tournament_headings, tournament_line, valid_tournament_name,
};
