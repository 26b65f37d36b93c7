//! `xiangqi-tui completions SHELL` and `xiangqi-tui man`: both generated from the one
//! clap definition (`crate::cli`), and the page's keys and `:` commands from the one
//! keymap (`xiangqi_app::keymap`), so they cannot drift from what the program accepts.

use std::io::Write;

use clap::{Arg, ArgAction, Command, CommandFactory};
use clap_complete::Shell;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, italic, roman};

use crate::cli::Cli;

const NAME: &str = "xiangqi-tui";

/// Writes the completion script for `shell` to standard output.
pub fn completions(shell: Shell) -> anyhow::Result<()> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, NAME, &mut out);
    super::finish_output(std::io::stdout().lock().write_all(&out))
}

/// Writes the manual page (roff, section 1) to standard output.
pub fn man() -> anyhow::Result<()> {
    let mut out = Vec::new();
    render(&mut out)?;
    super::finish_output(std::io::stdout().lock().write_all(&out))
}

/// One page: clap_mangen's name, synopsis, description and global options, then a
/// COMMANDS section with every subcommand (nested ones by their full name) and its own
/// arguments, then the environment, the files and the version.
pub fn render(out: &mut dyn Write) -> std::io::Result<()> {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let man = Man::new(command.clone()).date(env!("XIANGQI_TUI_BUILD_DATE"));
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    roff.text([roman(
        "Without a command, xiangqi-tui opens the terminal UI (play). The options above \
         are accepted by every command.",
    )]);
    for sub in shown(&command) {
        commands(&mut roff, &[NAME], sub);
    }
    keys(&mut roff);
    environment(&mut roff);
    roff.to_writer(out)?;
    man.render_version_section(out)
}

/// The subcommands a person types: not hidden ones.
fn shown(command: &Command) -> impl Iterator<Item = &Command> {
    command.get_subcommands().filter(|sub| !sub.is_hide_set())
}

fn commands(roff: &mut Roff, path: &[&str], command: &Command) {
    let mut path = path.to_vec();
    path.push(command.get_name());
    let nested: Vec<&Command> = shown(command).collect();
    if nested.is_empty() {
        section(roff, &path, command);
    } else {
        for sub in nested {
            commands(roff, &path, sub);
        }
    }
}

/// One command: its full name and arguments, what it does, each argument of its own.
fn section(roff: &mut Roff, path: &[&str], command: &Command) {
    let mut synopsis = path.join(" ");
    let own: Vec<&Arg> = command
        .get_arguments()
        .filter(|arg| !arg.is_hide_set() && !arg.is_global_set())
        .filter(|arg| !matches!(arg.get_action(), ArgAction::Help | ArgAction::Version))
        .collect();
    for arg in own.iter().filter(|arg| arg.is_positional()) {
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        let name = format!("{}{}", value_name(arg), if many { "..." } else { "" });
        synopsis.push(' ');
        synopsis.push_str(&if arg.is_required_set() {
            name
        } else {
            format!("[{name}]")
        });
    }
    if own.iter().any(|arg| !arg.is_positional()) {
        synopsis.push_str(" [OPTIONS]");
    }
    roff.control("SS", [synopsis.as_str()]);
    if let Some(about) = command.get_long_about().or_else(|| command.get_about()) {
        roff.text([roman(about.to_string())]);
    }
    for arg in own {
        roff.control("TP", []);
        let mut head = Vec::new();
        if let Some(long) = arg.get_long() {
            if let Some(short) = arg.get_short() {
                head.push(bold(format!("-{short}, ")));
            }
            head.push(bold(format!("--{long}")));
            if arg.get_action().takes_values() {
                head.push(roman(" "));
                head.push(italic(value_name(arg)));
            }
        } else {
            head.push(italic(value_name(arg)));
        }
        roff.text(head);
        let mut help = arg
            .get_long_help()
            .or_else(|| arg.get_help())
            .map(|help| help.to_string())
            .unwrap_or_default();
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|value| !value.is_hide_set())
            .map(|value| value.get_name().to_owned())
            .collect();
        if !values.is_empty() {
            help.push_str(&format!(" [possible values: {}]", values.join(", ")));
        }
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|value| value.to_string_lossy().into_owned())
            .collect();
        if !defaults.is_empty() && arg.get_action().takes_values() {
            help.push_str(&format!(" [default: {}]", defaults.join(",")));
        }
        roff.text([roman(help)]);
    }
}

fn value_name(arg: &Arg) -> String {
    arg.get_value_names()
        .and_then(|names| names.first())
        .map(|name| name.to_string())
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
}

/// The terminal UI's keys, section by section as its help shows them, then its `:`
/// commands; where a key or a command means something else in a room or in the puzzle
/// trainer, that is said after it.
fn keys(roff: &mut Roff) {
    use xiangqi_app::keymap::{InRoom, KEYMAP};
    roff.control("SH", ["KEYS"]);
    roff.text([roman(
        "In the terminal UI (play, study, and a session on a server). F1 or ? shows \
         the keys that apply where you are.",
    )]);
    for section in KEYMAP {
        roff.control("SS", [section.title]);
        for binding in section.bindings {
            let mut help = binding.help.to_owned();
            if let Some(puzzle) = binding.puzzle {
                help.push_str(&format!("; in the puzzle trainer: {puzzle}"));
            }
            if let InRoom::Asks(_, room) = binding.room {
                help.push_str(&format!("; in a room: {room}"));
            }
            roff.control("TP", []);
            roff.text([bold(binding.keys)]);
            roff.text([roman(help)]);
        }
    }
    roff.control("SS", ["Commands (type on the input line)"]);
    for spec in xiangqi_app::commands::COMMANDS {
        let mut help = spec.help.to_owned();
        if let InRoom::Asks(_, room) = spec.room
            && room != spec.help
        {
            help.push_str(&format!("; in a room: {room}"));
        }
        roff.control("TP", []);
        roff.text([bold(spec.usage)]);
        roff.text([roman(help)]);
    }
}

fn environment(roff: &mut Roff) {
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, what) in [
        (
            "XIANGQI_TUI_CONFIG",
            "The config file to use (as --config).",
        ),
        (
            "RUST_LOG",
            "What --log records (tracing's filter syntax), info by default. Keys typed are \
             recorded only when it names xiangqi_tui::keys.",
        ),
        (
            "NO_COLOR",
            "When set and not empty, no colours (unless --color forces them).",
        ),
        (
            "TERM, COLORTERM",
            "The colour depth chosen with --color auto.",
        ),
        (
            "LANG, LC_ALL, LC_CTYPE",
            "A UTF-8 locale is needed for the Chinese pieces.",
        ),
    ] {
        roff.control("TP", []);
        roff.text([bold(name)]);
        roff.text([roman(what)]);
    }
    roff.control("SH", ["FILES"]);
    roff.text([roman(
        "The config file is config.toml and the themes are in themes/ of the platform \
         config directory ($XDG_CONFIG_HOME/xiangqi-tui on Linux); the autosave, the \
         tablebases (egtb/) and the server's rooms and host key are in the data directory \
         ($XDG_DATA_HOME/xiangqi-tui). xiangqi-tui doctor shows the paths in use.",
    )]);
}
