//! One module per subcommand: each turns parsed arguments into library calls and output.

pub mod config;
pub mod perft;
pub mod play;
pub mod tree;
