//! One module per subcommand: each turns parsed arguments into library calls and output.

pub mod analyze;
pub mod bench;
pub mod book;
pub mod book_ecco;
pub mod compare;
pub mod config;
pub mod doctor;
pub mod egtb;
pub mod egtb_drill;
pub mod manual;
pub mod moves;
pub mod notation;
pub mod perft;
#[cfg(feature = "tui")]
pub mod play;
pub(crate) mod progress;
pub mod puzzles;
mod puzzles_mine;
pub mod replay;
pub mod review;
#[cfg(feature = "server")]
pub mod serve;
#[cfg(feature = "tui")]
pub mod study;
pub mod trace_export;
pub mod tree;
pub mod uci;

/// The error of a subcommand this build leaves out (built without Cargo feature `feature`).
#[cfg(not(all(feature = "tui", feature = "server")))]
pub(crate) fn left_out(command: &str, feature: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "`{command}` is not in this build: it was built without the `{feature}` feature \
         (`xiangqi-tui --help` lists what it has)"
    )
}

/// Output errors end a command, except a closed pipe (`| head`), which is a normal end.
pub(crate) fn finish_output(written: std::io::Result<()>) -> anyhow::Result<()> {
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Bad command-line input (a file that does not parse, an unknown name, a depth of 0):
/// `main` prints it as one line and exits with status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Ends with a [`UsageError`] saying `message`.
pub(crate) fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// `--threads` for the commands that search without loading the config (default 1, so
/// their results repeat).
pub(crate) fn threads_flag(global: &crate::cli::GlobalArgs) -> anyhow::Result<usize> {
    match &global.threads {
        None => Ok(1),
        Some(text) => text
            .parse::<xiangqi_app::config::Threads>()
            .map(xiangqi_app::config::Threads::resolve)
            .map_err(|error| usage(format!("--threads: {error}"))),
    }
}
