//! Parse the command line, load the config, dispatch a subcommand. Nothing else.

mod cli;
mod commands;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Play) {
        Command::Tree(args) => commands::tree::run(&args, &cli.global),
        other => anyhow::bail!("{other:?}: not available in this build yet"),
    }
}
