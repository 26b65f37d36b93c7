//! One module per subcommand: each turns parsed arguments into library calls and output.

pub mod analyze;
pub mod bench;
pub mod perft;
pub mod uci;
