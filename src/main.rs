//! Parse the command line, load the config, dispatch a subcommand. Nothing else.

mod cli;
mod commands;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Play) {
        Command::Perft(args) => commands::perft::run(&args),
        Command::Moves(args) => commands::moves::run(&args, &cli.global),
        Command::Notation => commands::notation::run(),
        Command::Replay(args) => commands::replay::run(&args),
        other => anyhow::bail!("{other:?}: not available in this build yet"),
    }
}
