//! One module per subcommand: each turns parsed arguments into library calls and output.

pub mod analyze;
pub mod bench;
pub mod config;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod play;
pub mod replay;
pub mod serve;
pub mod tree;
pub mod uci;

/// Output errors end a command, except a closed pipe (`| head`), which is a normal end.
pub(crate) fn finish_output(written: std::io::Result<()>) -> anyhow::Result<()> {
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
