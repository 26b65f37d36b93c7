//! Parse the command line, load the config, dispatch a subcommand. Nothing else.

mod build_info;
mod cli;
mod commands;
mod logging;

use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|error| match cli::one_line_error(&error) {
        Some(line) => {
            eprintln!("xiangqi-tui: {line}");
            std::process::exit(2)
        }
        None => error.exit(),
    });
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // One plain message, never a backtrace: these are the user's input errors.
            eprintln!("xiangqi-tui: {error:#}");
            if error.chain().any(|e| e.is::<commands::UsageError>()) {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let command = cli.command.unwrap_or(Command::Play);
    logging::init(cli.global.log.as_deref(), &command)?;
    match command {
        Command::Config(command) => commands::config::run(&command, &cli.global),
        Command::Perft(args) => commands::perft::run(&args),
        Command::Analyze(args) => commands::analyze::run(&args, &cli.global),
        Command::Bench(args) => commands::bench::run(&args, &cli.global),
        Command::Uci => commands::uci::run(),
        #[cfg(feature = "tui")]
        Command::Play => commands::play::run(&cli.global),
        #[cfg(not(feature = "tui"))]
        Command::Play => Err(commands::left_out("play", "tui")),
        Command::Tree(args) => commands::tree::run(&args, &cli.global),
        Command::Moves(args) => commands::moves::run(&args, &cli.global),
        Command::Notation => commands::notation::run(),
        Command::Replay(args) => commands::replay::run(&args),
        Command::Review(args) => commands::review::run(&args, &cli.global),
        Command::Compare(args) => commands::compare::run(&args, &cli.global),
        #[cfg(feature = "tui")]
        Command::Study(args) => commands::study::run(&args, &cli.global),
        #[cfg(not(feature = "tui"))]
        Command::Study(_) => Err(commands::left_out("study", "tui")),
        Command::Book(command) => commands::book::run(&command, &cli.global),
        Command::Egtb(command) => commands::egtb::run(&command, &cli.global),
        #[cfg(feature = "server")]
        Command::Serve(args) => commands::serve::run(&args, &cli.global),
        #[cfg(not(feature = "server"))]
        Command::Serve(_) => Err(commands::left_out("serve", "server")),
        Command::Puzzles(args) => commands::puzzles::run(&args, &cli.global),
        Command::Doctor(args) => commands::doctor::run(&args, &cli.global),
        Command::Completions(args) => commands::manual::completions(args.shell),
        Command::Man => commands::manual::man(),
    }
}
