//! The terminal UI: the view and the terminal drivers (ratatui + crossterm), the only
//! terminal code of the workspace.
//!
//! Model/Update/View: the model (`App`, `update`, `Action`, `Effect`) is `xiangqi-app`'s;
//! here `view(&App, &mut Frame)` draws it. The local driver (`terminal`, `event`) owns the
//! terminal, the input and signal threads and the engine service's link; it turns what
//! happens into actions and carries out the effects. `RemoteSession` runs the same app for
//! a session of the SSH server, its screen written to bytes.

mod event;
mod frames;
mod remote;
mod remote_input;
mod remote_lobby;
mod remote_tournament;
mod style;
mod terminal;
mod view;

pub use remote::{Intent, RemoteSession, SCREEN_RESTORE, SCREEN_SETUP};
pub use remote_input::InputDecoder;
pub use remote_lobby::Page as LobbyPage;
pub use terminal::{Exit, RunOptions, read_autosave, run, run_with};
pub use view::{TOO_SMALL, view};
