//! `:` commands typed on the input line, for what keys may not reach (function keys a
//! terminal swallows) and for naming things: `:theme dark`, `:profile study`,
//! `:mode black`, `:fen FEN`, `:load PATH`, `:save PATH`, `:help`.

use crate::config::EngineSide;

use super::action::{Command, Effect};
use super::app::App;
use super::{choices, engine_choice, game_controls, loading, update};

/// Every `:` command with its argument, for the help screen.
pub const COMMANDS: &[(&str, &str)] = &[
    (
        ":theme NAME",
        "switch theme (classic, dark, light, mono, yours)",
    ),
    (":profile NAME", "switch profile; ':profile none' for none"),
    (":mode SIDE", "engine plays red, black, both or none"),
    (":fen FEN", "set up a position"),
    (":load PATH", "load a PGN game"),
    (":save PATH", "save the game as PGN"),
    (
        ":compare [DEPTH]",
        "every backend on this position, depths 1-DEPTH",
    ),
    (
        ":trace save PATH",
        "save the trace shown (.jsonl, .dot, else text)",
    ),
    (
        ":analyze",
        "analysis board on/off (Ctrl-A): live engine lines",
    ),
    (":hint", "show the engine's best move (Ctrl-H)"),
    (":level N", "engine strength 1-20 (20: full); alone: a list"),
    (":multipv N", "analysis board lines, 1-10"),
    (
        ":time CONTROL",
        "clocks: 10+5, 40/90+30, 5m/move, none; alone: a list",
    ),
    (":resign", "resign the game"),
    (
        ":draw",
        "offer a draw (the engine accepts a level position)",
    ),
    (
        ":engine NAME",
        "opponent: builtin or an [engines.NAME]; alone: a list",
    ),
    (":help", "this help"),
];

/// Runs `line` (without the colon). Errors show on the input line, which keeps the text.
pub fn run_line(app: &mut App, line: &str) -> Vec<Effect> {
    let line = line.trim();
    let (name, argument) = match line.split_once(char::is_whitespace) {
        Some((name, argument)) => (name, argument.trim()),
        None => (line, ""),
    };
    let needs_argument = |app: &mut App, what: &str| {
        app.input.set_error(format!(":{name} needs {what}"));
        Vec::new()
    };
    let effects = match name {
        "theme" if argument.is_empty() => return needs_argument(app, "a theme name"),
        "theme" => {
            if !choices::set_theme(app, argument) {
                let message = app.notice.take().map(|notice| notice.text);
                app.input.set_error(message.unwrap_or_default());
                return Vec::new();
            }
            Vec::new()
        }
        "profile" if argument.is_empty() => return needs_argument(app, "a profile name"),
        "profile" => {
            let name = (argument != "none").then_some(argument);
            if name.is_some_and(|name| !app.config.profile_names().iter().any(|p| p == name)) {
                let known = app.config.profile_names().join(", ");
                app.input.set_error(format!(
                    "no profile '{argument}'; profiles: {}",
                    if known.is_empty() { "none" } else { &known }
                ));
                return Vec::new();
            }
            choices::set_profile(app, name)
        }
        "mode" => match argument.parse::<EngineSide>() {
            Ok(side) => choices::set_mode(app, side),
            Err(error) => {
                app.input.set_error(error.to_string());
                return Vec::new();
            }
        },
        "fen" if argument.is_empty() => return needs_argument(app, "a FEN"),
        "fen" => {
            if let Err(error) = crate::board::Position::from_fen(argument) {
                app.input.set_error(format!("bad FEN: {error}"));
                return Vec::new();
            }
            loading::load_from_prompt(app, argument)
        }
        "load" if argument.is_empty() => return needs_argument(app, "a file path"),
        "load" => loading::load_from_prompt(app, argument),
        "save" if argument.is_empty() => return needs_argument(app, "a file path"),
        "save" => loading::save_to(app, argument),
        "help" => update::run(app, Command::Help),
        "trace" => match super::explorer::save_trace(app, argument) {
            Ok(effect) => vec![effect],
            Err(message) => {
                app.input.set_error(message);
                return Vec::new();
            }
        },
        "compare" => {
            use super::compare_view::{CompareRequest, DEFAULT_DEPTH, MAX_DEPTH};
            let depth = if argument.is_empty() {
                Ok(DEFAULT_DEPTH)
            } else {
                argument.parse::<u32>().map_err(|_| ())
            };
            match depth {
                _ if app.compare.running => {
                    app.compare.shown = true;
                    app.input.set_error(
                        "a comparison is running: its results show as they come".to_owned(),
                    );
                    return Vec::new();
                }
                Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => {
                    app.compare.start(depth);
                    vec![Effect::Compare(Box::new(CompareRequest {
                        position: app.position().clone(),
                        depth,
                    }))]
                }
                _ => {
                    app.input
                        .set_error(format!(":compare takes a depth from 1 to {MAX_DEPTH}"));
                    return Vec::new();
                }
            }
        }
        "analyze" | "analyse" => update::run(app, Command::Analyze),
        "hint" => update::run(app, Command::Hint),
        "level" if argument.is_empty() => {
            choices::choose_level(app);
            Vec::new()
        }
        "level" | "multipv" => {
            let (low, high) = if name == "level" { (1, 20) } else { (1, 10) };
            match argument.parse::<u8>() {
                Ok(n) if (low..=high).contains(&n) => {
                    if name == "level" {
                        choices::set_level(app, n);
                        Vec::new()
                    } else {
                        app.config.settings.multipv = n;
                        app.notify(format!("{n} analysis lines"));
                        // The analysis board picks the new number up at once.
                        if app.analysis.active {
                            super::analysis::restart(app)
                        } else {
                            Vec::new()
                        }
                    }
                }
                _ => {
                    app.input
                        .set_error(format!(":{name} needs a number from {low} to {high}"));
                    return Vec::new();
                }
            }
        }
        "time" if argument.is_empty() => update::run(app, Command::ChooseTime),
        "time" => {
            let control = if argument.eq_ignore_ascii_case(crate::config::NO_LIMIT) {
                None
            } else {
                match argument.parse::<crate::clock::TimeControl>() {
                    Ok(control) => Some(control),
                    Err(error) => {
                        app.input.set_error(error.to_string());
                        return Vec::new();
                    }
                }
            };
            game_controls::set_time(app, control);
            Vec::new()
        }
        "resign" => game_controls::resign(app),
        "draw" => game_controls::offer_draw(app),
        "engine" if argument.is_empty() => {
            engine_choice::choose_engine(app);
            Vec::new()
        }
        "engine" => {
            let known = engine_choice::engine_names(app);
            if !known.iter().any(|name| name == argument) {
                app.input.set_error(format!(
                    "no engine '{argument}'; engines: {}",
                    known.join(", ")
                ));
                return Vec::new();
            }
            engine_choice::set_engine(app, argument)
        }
        _ => {
            let known: Vec<&str> = COMMANDS
                .iter()
                .map(|(usage, _)| usage.split(' ').next().unwrap_or(usage))
                .collect();
            app.input.set_error(format!(
                "unknown command ':{name}'; commands: {}",
                known.join(" ")
            ));
            return Vec::new();
        }
    };
    app.input.clear();
    effects
}
