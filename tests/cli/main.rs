//! The tests of the program as its users run it (the binary, as a command, a UCI engine,
//! a server with OpenSSH clients), one test binary.

mod analyze_algorithms;
mod book_cli;
mod cli_doctor;
mod cli_install;
mod cli_perft;
mod clock_engine;
mod compare_checks;
mod config_cli;
mod egtb_cli;
#[cfg(feature = "tui")]
mod external_engine;
// Where the master games are (skipped without them, required in CI), shared with the
// core's tests.
#[cfg(feature = "server")]
mod logs;
#[path = "../../crates/xiangqi-core/tests/core/master_games.rs"]
mod master_games;
mod multipv;
mod notation_commands;
mod puzzles;
mod readers;
mod review;
mod rulings;
#[cfg(feature = "server")]
mod server_archive;
#[cfg(feature = "server")]
mod server_openssh;
#[cfg(feature = "server")]
mod server_openssh_tournament;
// The helpers of the server's own tests, shared rather than copied.
#[cfg(feature = "server")]
#[path = "../../crates/xiangqi-server/tests/server/server_support.rs"]
mod server_support;
mod trace_export;
mod tree_command;
// The helpers of the terminal UI's own tests, shared rather than copied.
#[cfg(feature = "tui")]
#[path = "../../crates/xiangqi-term/tests/term/tui_support.rs"]
mod tui_support;
mod uci_session;
mod uci_support;
mod xqf;
