//! External engines (UCI or UCCI programs such as Pikafish or ElephantEye): how they
//! are configured, and a client that runs one as a child process.

mod spec;

pub use spec::{DEFAULT_HANDSHAKE_TIMEOUT, EngineSpec, Protocol};
