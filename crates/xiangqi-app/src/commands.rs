//! `:` commands typed on the input line, for what keys may not reach (function keys a
//! terminal swallows) and for naming things: `:theme dark`, `:profile study`,
//! `:mode black`, `:fen FEN`, `:load PATH`, `:save PATH`, `:help`.

use crate::config::EngineSide;
use crate::game::ModerationVerb;

use super::action::{Effect, RoomAsk};
use super::app::App;
use super::keymap::{self, InRoom, Place, Places};
use super::{analysis, choices, engine_choice, game_controls, help, hint, loading, ruling_view};

/// What a command does in the local program, given its argument; an error stays on
/// the input line with the text.
type Handler = fn(&mut App, &str) -> Result<Vec<Effect>, String>;

/// A `:` command: its name, its usage and help as the help screen shows them, and
/// where it applies.
pub struct CommandSpec {
    pub name: &'static str,
    /// Another spelling (`:analyse`).
    pub alias: Option<&'static str>,
    pub usage: &'static str,
    pub help: &'static str,
    /// What the argument is, when one must be given.
    pub needs: Option<&'static str>,
    pub places: Places,
    pub room: InRoom,
    /// What it does in the local program; `None` for a room's own command.
    pub run: Option<Handler>,
}

impl CommandSpec {
    /// The help text in `place`.
    pub fn help_in(&self, place: Place) -> &'static str {
        match (place, self.room) {
            (Place::Room, InRoom::Asks(_, help)) => help,
            _ => self.help,
        }
    }

    /// The name with its colon, as lists show it.
    pub fn head(&self) -> &'static str {
        self.usage.split(' ').next().unwrap_or(self.usage)
    }
}

const fn local(
    name: &'static str,
    usage: &'static str,
    help: &'static str,
    run: Handler,
) -> CommandSpec {
    CommandSpec {
        name,
        alias: None,
        usage,
        help,
        needs: None,
        places: Places::LOCAL,
        room: InRoom::Same,
        run: Some(run),
    }
}

/// A command on the game: not in a room, not in a tree study (it has no game).
const fn on_game(
    name: &'static str,
    usage: &'static str,
    help: &'static str,
    run: Handler,
) -> CommandSpec {
    CommandSpec {
        places: Places::LOCAL.without(Place::Study),
        ..local(name, usage, help, run)
    }
}

const fn room_asks(
    name: &'static str,
    usage: &'static str,
    help: &'static str,
    ask: RoomAsk,
) -> CommandSpec {
    CommandSpec {
        places: Places::ROOM,
        room: InRoom::Asks(ask, help),
        run: None,
        ..local(name, usage, help, help_command)
    }
}

/// Every `:` command, in the order the help screen lists them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        needs: Some("a theme name"),
        places: Places::EVERYWHERE,
        ..local(
            "theme",
            ":theme NAME",
            "switch theme (classic, dark, light, mono, yours)",
            theme,
        )
    },
    CommandSpec {
        needs: Some("a profile name"),
        ..local(
            "profile",
            ":profile NAME",
            "switch profile; ':profile none' for none",
            profile,
        )
    },
    on_game(
        "mode",
        ":mode SIDE",
        "engine plays red, black, both or none",
        mode,
    ),
    CommandSpec {
        needs: Some("a FEN"),
        ..on_game("fen", ":fen FEN", "set up a position", fen)
    },
    CommandSpec {
        needs: Some("a file path"),
        ..on_game("load", ":load PATH", "load a PGN game", load)
    },
    CommandSpec {
        needs: Some("a file path"),
        ..on_game("save", ":save PATH", "save the game as PGN", save)
    },
    on_game(
        "continue",
        ":continue",
        "a new game from the position shown (a finished game, browsing)",
        continue_here,
    ),
    on_game(
        "compare",
        ":compare [DEPTH]",
        "every backend on this position, depths 1-DEPTH",
        compare,
    ),
    local(
        "trace",
        ":trace save PATH",
        "save the trace shown (.jsonl, .dot, else text; add 'snapshots' for OPEN in full)",
        trace,
    ),
    CommandSpec {
        alias: Some("analyse"),
        ..on_game(
            "analyze",
            ":analyze",
            "analysis board on/off (Ctrl-A): live engine lines",
            analyze,
        )
    },
    // In a room too: the session runs it on an archived game and refuses it in a
    // live one.
    CommandSpec {
        places: Places::EVERYWHERE
            .without(Place::Study)
            .without(Place::Puzzle)
            .without(Place::Drill),
        ..local(
            "review",
            ":review",
            "the engine's review: ?! ? ?? marks, graph; n/N on the board jump to them",
            review,
        )
    },
    // In a room too: the arbiter's view of the room's game, for this viewer.
    CommandSpec {
        places: Places::EVERYWHERE
            .without(Place::Study)
            .without(Place::Puzzle)
            .without(Place::Drill),
        ..local(
            "ruling",
            ":ruling",
            "the arbiter: why a repetition ended the game, or how it would rule now",
            ruling,
        )
    },
    CommandSpec {
        places: Places::LOCAL.without(Place::Study).with(Place::Drill),
        ..local(
            "drill",
            ":drill [MATERIAL [MOVES]]",
            "endgame school: the lessons, or drill one (retry|next|best|back|leave)",
            super::drill_link::command,
        )
    },
    on_game(
        "hint",
        ":hint",
        "show the engine's best move (Ctrl-H)",
        hint_command,
    ),
    local(
        "level",
        ":level N",
        "engine strength 1-20 (20: full); alone: a list",
        level,
    ),
    local(
        "multipv",
        ":multipv N",
        "analysis board lines, 1-10",
        multipv,
    ),
    on_game(
        "time",
        ":time CONTROL",
        "clocks: 10+5, 40/90+30, 5m/move, none; alone: a list",
        time,
    ),
    CommandSpec {
        places: Places::EVERYWHERE
            .without(Place::Study)
            .without(Place::Puzzle)
            .without(Place::Drill),
        room: InRoom::Asks(RoomAsk::Resign, "resign the game (asks first)"),
        ..local("resign", ":resign", "resign the game", resign)
    },
    CommandSpec {
        places: Places::EVERYWHERE
            .without(Place::Study)
            .without(Place::Puzzle)
            .without(Place::Drill),
        room: InRoom::Asks(
            RoomAsk::Draw,
            "offer a draw, or accept the other side's offer",
        ),
        ..local(
            "draw",
            ":draw",
            "offer a draw (the engine accepts a level position)",
            draw,
        )
    },
    local(
        "engine",
        ":engine NAME",
        "opponent: builtin or an [engines.NAME]; alone: a list",
        engine,
    ),
    CommandSpec {
        places: Places::LOCAL.without(Place::Study).with(Place::Puzzle),
        ..local(
            "puzzle",
            ":puzzle [ID|mate N|theme T]",
            "mate puzzles; also history; in them: next retry hint tree leave",
            super::puzzle_mode::command_line,
        )
    },
    CommandSpec {
        places: Places::EVERYWHERE,
        ..local("help", ":help", "this help", help_command)
    },
    room_asks(
        "undo",
        ":undo",
        "ask to take back, or agree to the other side's request (Ctrl-Z)",
        RoomAsk::Undo,
    ),
    room_asks(
        "leave",
        ":leave",
        "back to the lobby; a player keeps the seat",
        RoomAsk::Leave,
    ),
    CommandSpec {
        needs: Some("a text"),
        ..room_asks("say", ":say TEXT", "say TEXT to the room", RoomAsk::Say)
    },
    room_asks(
        "rematch",
        ":rematch",
        "after the game: another, colours swapped (both type it)",
        RoomAsk::Rematch,
    ),
    moderates(
        ModerationVerb::Kick,
        ":kick NAME",
        "admins: end NAME's sessions",
    ),
    moderates(
        ModerationVerb::Ban,
        ":ban WHO [REASON]",
        "admins: ban a name, key or address (and end its sessions)",
    ),
    moderates(ModerationVerb::Unban, ":unban WHO", "admins: lift a ban"),
    moderates(
        ModerationVerb::Close,
        ":close ROOM",
        "admins: end a room; its players go back to the lobby",
    ),
];

/// An admin's command, typed in a room (the server decides who may).
const fn moderates(verb: ModerationVerb, usage: &'static str, help: &'static str) -> CommandSpec {
    CommandSpec {
        needs: Some("an argument"),
        ..room_asks(verb.name(), usage, help, RoomAsk::Moderate(verb))
    }
}

/// The command named `name` (or spelt so).
pub fn find(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS
        .iter()
        .find(|spec| spec.name == name || spec.alias == Some(name))
}

/// The message for a command `place` does not know, listing those it does.
pub fn unknown(name: &str, place: Place) -> String {
    let known: Vec<&str> = COMMANDS
        .iter()
        .filter(|spec| spec.places.contains(place))
        .map(CommandSpec::head)
        .collect();
    format!("unknown command ':{name}'; commands: {}", known.join(" "))
}

/// Runs `line` (without the colon). Errors show on the input line, which keeps the text.
pub fn run_line(app: &mut App, line: &str) -> Vec<Effect> {
    let line = line.trim();
    let (name, argument) = match line.split_once(char::is_whitespace) {
        Some((name, argument)) => (name, argument.trim()),
        None => (line, ""),
    };
    let place = app.place();
    let result = match find(name) {
        Some(spec) if spec.places.contains(place) => run(app, spec, name, argument, place),
        // A room knows the local program's commands and says why it has not got them.
        Some(_) if matches!(place, Place::Room | Place::Study | Place::Puzzle) => {
            Err(keymap::refusal(&format!(":{name}"), place))
        }
        _ => Err(unknown(name, place)),
    };
    match result {
        Ok(effects) => {
            app.input.clear();
            effects
        }
        Err(message) => {
            app.input.set_error(message);
            Vec::new()
        }
    }
}

fn run(
    app: &mut App,
    spec: &CommandSpec,
    name: &str,
    argument: &str,
    place: Place,
) -> Result<Vec<Effect>, String> {
    if let Some(what) = spec.needs
        && argument.is_empty()
    {
        return Err(format!(":{name} needs {what}"));
    }
    match (place, spec.room, spec.run) {
        (Place::Room, InRoom::Asks(ask, _), _) => Ok(vec![Effect::AskRoom {
            ask,
            text: argument.to_owned(),
        }]),
        (_, _, Some(run)) => run(app, argument),
        // Only a room's own commands have no local meaning, and they apply only there.
        (_, _, None) => Err(unknown(name, place)),
    }
}

fn theme(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    if !choices::set_theme(app, argument) {
        let message = app.notice.take().map(|notice| notice.text);
        return Err(message.unwrap_or_default());
    }
    Ok(Vec::new())
}

fn profile(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    let name = (argument != "none").then_some(argument);
    if name.is_some_and(|name| !app.config.profile_names().iter().any(|p| p == name)) {
        let known = app.config.profile_names().join(", ");
        return Err(format!(
            "no profile '{argument}'; profiles: {}",
            if known.is_empty() { "none" } else { &known }
        ));
    }
    choices::set_profile(app, name);
    Ok(Vec::new())
}

fn mode(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    let side = argument
        .parse::<EngineSide>()
        .map_err(|error| error.to_string())?;
    choices::set_mode(app, side);
    Ok(Vec::new())
}

fn fen(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    xiangqi_core::board::Position::from_fen(argument)
        .map_err(|error| format!("bad FEN: {error}"))?;
    Ok(loading::load_from_prompt(app, argument))
}

fn load(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    Ok(loading::load_from_prompt(app, argument))
}

fn save(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    Ok(loading::save_to(app, argument))
}

fn continue_here(app: &mut App, _: &str) -> Result<Vec<Effect>, String> {
    let ply = app.shown_ply();
    if app.browse.is_none() && !app.game_over() {
        return Err("the game goes on: browse back with [ first, or just play".to_owned());
    }
    let game = app.game.continued_at(ply);
    super::flow::start_game(app, game);
    app.notify(format!("a new game from ply {ply}: play on"));
    Ok(Vec::new())
}

fn trace(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    super::trace_save::request(app, argument).map(|effect| vec![effect])
}

fn compare(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    use super::compare_view::{CompareRequest, DEFAULT_DEPTH, MAX_DEPTH};
    let depth = if argument.is_empty() {
        Ok(DEFAULT_DEPTH)
    } else {
        argument.parse::<u32>().map_err(|_| ())
    };
    match depth {
        _ if app.compare.running => {
            app.compare.shown = true;
            Err("a comparison is running: its results show as they come".to_owned())
        }
        Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => {
            app.compare.start(depth);
            Ok(vec![Effect::Compare(Box::new(CompareRequest {
                position: app.position().clone(),
                depth,
            }))])
        }
        _ => Err(format!(":compare takes a depth from 1 to {MAX_DEPTH}")),
    }
}

fn analyze(app: &mut App, _: &str) -> Result<Vec<Effect>, String> {
    analysis::toggle(app);
    Ok(Vec::new())
}

fn review(app: &mut App, _: &str) -> Result<Vec<Effect>, String> {
    super::review_link::request(app)
}

fn ruling(app: &mut App, _: &str) -> Result<Vec<Effect>, String> {
    ruling_view::show(app).map(|()| Vec::new())
}

fn hint_command(app: &mut App, _: &str) -> Result<Vec<Effect>, String> {
    Ok(hint::request(app))
}

fn help_command(app: &mut App, _: &str) -> Result<Vec<Effect>, String> {
    help::toggle(app);
    Ok(Vec::new())
}

/// A number from `low` to `high`, or the error naming the command.
fn number(name: &str, argument: &str, low: u8, high: u8) -> Result<u8, String> {
    argument
        .parse::<u8>()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| format!(":{name} needs a number from {low} to {high}"))
}

fn level(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    if argument.is_empty() {
        choices::choose_level(app);
    } else {
        choices::set_level(app, number("level", argument, 1, 20)?);
    }
    Ok(Vec::new())
}

fn multipv(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    let n = number("multipv", argument, 1, 10)?;
    app.config.settings.multipv = n;
    app.notify(format!("{n} analysis lines"));
    // The analysis board picks the new number up at once.
    Ok(if app.analysing() {
        analysis::restart(app)
    } else {
        Vec::new()
    })
}

fn time(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    if argument.is_empty() {
        game_controls::choose_time(app);
        return Ok(Vec::new());
    }
    let control = if argument.eq_ignore_ascii_case(crate::config::NO_LIMIT) {
        None
    } else {
        Some(
            argument
                .parse::<xiangqi_core::clock::TimeControl>()
                .map_err(|error| error.to_string())?,
        )
    };
    game_controls::set_time(app, control);
    Ok(Vec::new())
}

fn resign(app: &mut App, _: &str) -> Result<Vec<Effect>, String> {
    game_controls::resign(app);
    Ok(Vec::new())
}

fn draw(app: &mut App, _: &str) -> Result<Vec<Effect>, String> {
    game_controls::offer_draw(app);
    Ok(Vec::new())
}

fn engine(app: &mut App, argument: &str) -> Result<Vec<Effect>, String> {
    if argument.is_empty() {
        engine_choice::choose_engine(app);
        return Ok(Vec::new());
    }
    let known = engine_choice::engine_names(app);
    if !known.iter().any(|name| name == argument) {
        return Err(format!(
            "no engine '{argument}'; engines: {}",
            known.join(", ")
        ));
    }
    engine_choice::set_engine(app, argument);
    Ok(Vec::new())
}
