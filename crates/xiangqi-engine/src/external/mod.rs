//! External engines (UCI or UCCI programs such as Pikafish or ElephantEye): how they
//! are configured, and a client that runs one as a child process.

mod client;
mod info;
mod spec;

pub use client::{ExternalEngine, ExternalError, go_command, position_command};
pub use info::{BestMove, parse_bestmove, parse_info};
pub use spec::{DEFAULT_HANDSHAKE_TIMEOUT, EngineSpec, Protocol};
