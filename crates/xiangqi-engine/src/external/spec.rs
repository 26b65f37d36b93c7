//! How to run an external engine: the `[engines.NAME]` table of the config.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// Longest an engine may take to answer the handshake unless its table says otherwise.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// The protocol an engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Protocol {
    /// UCI as xiangqi engines speak it (Pikafish): `uci`/`uciok`, `position fen`, ICCS
    /// moves with ranks 0-9.
    #[default]
    Uci,
    /// UCCI (ElephantEye): `ucci`/`ucciok`, `go time`.
    Ucci,
}

impl Protocol {
    pub const NAMES: &'static [&'static str] = &["uci", "ucci"];

    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Protocol {
    type Err = ();
    fn from_str(text: &str) -> Result<Protocol, ()> {
        match text.trim().to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "ucci" => Ok(Protocol::Ucci),
            _ => Err(()),
        }
    }
}

/// An external engine as configured.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EngineSpec {
    /// The program: a path, or a name looked up in PATH.
    pub command: PathBuf,
    pub args: Vec<String>,
    pub protocol: Protocol,
    /// `setoption` name and value, in the order written.
    pub options: Vec<(String, String)>,
    /// The working directory (`None`: ours).
    pub dir: Option<PathBuf>,
    /// How long the handshake may take before the engine counts as hung.
    pub handshake_timeout: Duration,
}

impl EngineSpec {
    /// An engine run as `command args...` speaking `protocol`, with the defaults.
    pub fn new(command: impl Into<PathBuf>, args: Vec<String>, protocol: Protocol) -> EngineSpec {
        EngineSpec {
            command: command.into(),
            args,
            protocol,
            options: Vec::new(),
            dir: None,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
        }
    }
}
