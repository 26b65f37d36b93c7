//! One module per subcommand: each turns parsed arguments into library calls and output.

pub mod tree;
