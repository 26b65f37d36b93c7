//! Parsing of UCI and UCCI input lines into commands. A line either parses completely or
//! is rejected with a reason; nothing is executed from a line that does not parse.

use std::time::Duration;

use crate::engine::limits::{Clock, Limits};
use xiangqi_core::board::{Color, Move, Position};

/// Which dialect the GUI speaks; decided by its first `uci` or `ucci` (UCI until then).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    #[default]
    Uci,
    Ucci,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Uci,
    Ucci,
    IsReady,
    NewGame,
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// A fully validated position: every move in the list was legal.
    Position(Box<Position>),
    Go(GoCommand),
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// Print the current position (a debugging aid, as in Stockfish's `d`).
    Display,
    /// UCCI: moves the engine must not play. Accepted and ignored.
    BanMoves,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoCommand {
    /// Depth, nodes, movetime, infinite; the clock comes from `clocks`.
    pub limits: Limits,
    pub clocks: Clocks,
    /// Thinking on the opponent's time: no bestmove until stop or ponderhit.
    pub ponder: bool,
}

/// Clock times as the GUI sent them: UCI gives both colours' (`wtime`/`btime`), UCCI
/// only the side to move's (`time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clocks {
    SideToMove(Option<Clock>),
    ByColour {
        red: Option<Clock>,
        black: Option<Clock>,
    },
}

impl GoCommand {
    /// The limits for a search with `side` to move.
    pub fn limits_for(&self, side: Color) -> Limits {
        let clock = match self.clocks {
            Clocks::SideToMove(clock) => clock,
            Clocks::ByColour { red, black } => match side {
                Color::Red => red,
                Color::Black => black,
            },
        };
        Limits {
            clock,
            ..self.limits.clone()
        }
    }
}

/// Longest number of moves a `position` line may carry.
const MAX_MOVES: usize = 4000;

/// Parses one line (already trimmed of the line ending). `None` for a blank line.
pub fn parse(line: &str, dialect: Dialect, millis: bool) -> Option<Result<Command, String>> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (&first, rest) = tokens.split_first()?;
    Some(match first {
        "uci" => Ok(Command::Uci),
        "ucci" => Ok(Command::Ucci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::NewGame),
        "setoption" => parse_setoption(rest, dialect),
        "position" => parse_position(rest).map(|p| Command::Position(Box::new(p))),
        "go" => parse_go(rest, dialect, millis),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "quit" => Ok(Command::Quit),
        "d" => Ok(Command::Display),
        "banmoves" => Ok(Command::BanMoves),
        other => Err(format!("unknown command '{}'", shorten(other))),
    })
}

/// Keeps error messages short when the input is huge.
fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

fn parse_setoption(args: &[&str], dialect: Dialect) -> Result<Command, String> {
    if args.first() == Some(&"name") {
        // UCI: setoption name <id words> [value <value words>]
        let value_at = args.iter().position(|&t| t == "value");
        let name_end = value_at.unwrap_or(args.len());
        let name = args[1..name_end].join(" ");
        if name.is_empty() {
            return Err("setoption: missing option name".into());
        }
        let value = value_at.map(|i| args[i + 1..].join(" "));
        return Ok(Command::SetOption { name, value });
    }
    match (dialect, args) {
        // UCCI: setoption <name> [<value>]
        (_, [name, value @ ..]) => Ok(Command::SetOption {
            name: (*name).to_string(),
            value: if value.is_empty() {
                None
            } else {
                Some(value.join(" "))
            },
        }),
        (_, []) => Err("setoption: missing option name".into()),
    }
}

fn parse_position(args: &[&str]) -> Result<Position, String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut pos = match setup {
        ["startpos"] => Position::startpos(),
        ["fen", fen @ ..] if !fen.is_empty() => {
            Position::from_fen(&fen.join(" ")).map_err(|e| format!("position: bad FEN: {e}"))?
        }
        ["fen"] => return Err("position: 'fen' needs a FEN".into()),
        _ => return Err("position: expected 'startpos' or 'fen <FEN>'".into()),
    };
    if moves.len() > MAX_MOVES {
        return Err(format!("position: more than {MAX_MOVES} moves"));
    }
    for (index, text) in moves.iter().enumerate() {
        let mv = Move::parse_coords(text).ok_or_else(|| {
            format!(
                "position: move {} '{}' is not a move",
                index + 1,
                shorten(text)
            )
        })?;
        if !pos.is_legal(mv) {
            return Err(format!(
                "position: move {} '{}' is illegal in {}",
                index + 1,
                text,
                pos.to_fen()
            ));
        }
        pos.make_move(mv);
    }
    Ok(pos)
}

fn number<T: std::str::FromStr>(keyword: &str, value: Option<&&str>) -> Result<T, String> {
    let text = value.ok_or_else(|| format!("go: '{keyword}' needs a number"))?;
    text.parse()
        .map_err(|_| format!("go: '{keyword}' needs a number, found '{}'", shorten(text)))
}

/// A time given in milliseconds, or in seconds in UCCI without `usemillisec`. Negative
/// times (some GUIs send them when the flag falls) count as zero.
fn time(keyword: &str, value: Option<&&str>, seconds: bool) -> Result<Duration, String> {
    let raw: f64 = number(keyword, value)?;
    if !raw.is_finite() {
        return Err(format!("go: '{keyword}' needs a finite number"));
    }
    let ms = if seconds { raw * 1000.0 } else { raw };
    Ok(Duration::from_millis(ms.clamp(0.0, 1e12) as u64))
}

fn parse_go(args: &[&str], dialect: Dialect, millis: bool) -> Result<Command, String> {
    if args.first() == Some(&"perft") {
        let depth: u32 = number("perft", args.get(1))?;
        if args.len() > 2 {
            return Err("go perft: unexpected words after the depth".into());
        }
        return Ok(Command::Perft(depth));
    }
    let ucci_seconds = dialect == Dialect::Ucci && !millis;
    let mut limits = Limits::default();
    let mut ponder = false;
    let (mut wtime, mut btime, mut winc, mut binc) = (None, None, None, None);
    let (mut ucci_time, mut ucci_increment) = (None, None);
    let mut moves_to_go = None;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1);
        let mut takes_value = true;
        match args[i] {
            "depth" => limits.depth = Some(number("depth", value)?),
            "nodes" => limits.nodes = Some(number("nodes", value)?),
            "movetime" => limits.movetime = Some(time("movetime", value, false)?),
            "wtime" => wtime = Some(time("wtime", value, false)?),
            "btime" => btime = Some(time("btime", value, false)?),
            "winc" => winc = Some(time("winc", value, false)?),
            "binc" => binc = Some(time("binc", value, false)?),
            "movestogo" => moves_to_go = Some(number::<u32>("movestogo", value)?),
            "time" => ucci_time = Some(time("time", value, ucci_seconds)?),
            "increment" => ucci_increment = Some(time("increment", value, ucci_seconds)?),
            "opptime" | "oppincrement" | "oppmovestogo" => {
                time(args[i], value, ucci_seconds)?;
            }
            "infinite" => {
                limits.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                ponder = true;
                takes_value = false;
            }
            "draw" => takes_value = false,
            other => return Err(format!("go: unknown parameter '{}'", shorten(other))),
        }
        i += if takes_value { 2 } else { 1 };
    }
    let clock = |remaining: Option<Duration>, increment: Option<Duration>| {
        remaining.map(|remaining| Clock {
            remaining,
            increment: increment.unwrap_or(Duration::ZERO),
            moves_to_go,
        })
    };
    let clocks = if ucci_time.is_some() {
        Clocks::SideToMove(clock(ucci_time, ucci_increment))
    } else {
        Clocks::ByColour {
            red: clock(wtime, winc),
            black: clock(btime, binc),
        }
    };
    Ok(Command::Go(GoCommand {
        limits,
        clocks,
        ponder,
    }))
}
