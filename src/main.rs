//! Parse the command line, load the config, dispatch a subcommand. Nothing else.

mod cli;
mod commands;

use clap::Parser;

use crate::cli::{Cli, Command};

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Play) {
        Command::Perft(args) => commands::perft::run(&args),
        Command::Analyze(args) => commands::analyze::run(&args, &cli.global),
        Command::Bench(args) => commands::bench::run(&args, &cli.global),
        Command::Uci => commands::uci::run(),
        other => anyhow::bail!("{other:?}: not available in this build yet"),
    }
}
