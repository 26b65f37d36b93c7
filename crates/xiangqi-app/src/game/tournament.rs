//! Tournaments as the lobby knows them: the `tournament …` commands, and the rows and
//! tables the tournament screen and the script commands (`tournaments`, `standings`)
//! show. The server runs the tournaments (`xiangqi-server`'s `tournament`); this is
//! their words and their data, with no clock, network or store.

use unicode_width::UnicodeWidthStr;

use xiangqi_core::clock::TimeControl;

/// Longest tournament name, in characters.
pub const TOURNAMENT_NAME_MAX: usize = 12;
/// Most rounds a Swiss may have.
pub const MAX_ROUNDS: u32 = 30;
/// Longest arena, in minutes (a day).
pub const MAX_ARENA_MINUTES: u32 = 1440;
/// Longest pause between Swiss rounds an organiser may set, in seconds.
pub const MAX_PAUSE_SECONDS: u32 = 3600;

/// Words after `tournament` that are verbs, so never a tournament's name.
const VERBS: [&str; 8] = [
    "new",
    "join",
    "leave",
    "start",
    "pause",
    "say",
    "pgn",
    "standings",
];

/// How a tournament is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TournamentFormat {
    /// A Swiss of this many rounds (FIDE Dutch pairings).
    Swiss { rounds: u32 },
    /// An arena of this many minutes (lichess-style scoring).
    Arena { minutes: u32 },
}

impl TournamentFormat {
    /// `swiss` or `arena`, as the commands and the store write it.
    pub fn kind(self) -> &'static str {
        match self {
            TournamentFormat::Swiss { .. } => "swiss",
            TournamentFormat::Arena { .. } => "arena",
        }
    }

    /// `swiss 5 rounds`, `arena 30 min`.
    pub fn describe(self) -> String {
        match self {
            TournamentFormat::Swiss { rounds: 1 } => "swiss 1 round".to_owned(),
            TournamentFormat::Swiss { rounds } => format!("swiss {rounds} rounds"),
            TournamentFormat::Arena { minutes } => format!("arena {minutes} min"),
        }
    }
}

/// A tournament as `tournament new` asks for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTournament {
    pub name: String,
    pub format: TournamentFormat,
    pub control: TimeControl,
    pub rated: bool,
}

/// A `tournament …` command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TournamentCommand {
    New(NewTournament),
    Join(String),
    /// Before it starts: off the list; once it runs: withdrawn from the next rounds.
    Leave(String),
    Start(String),
    /// The pause the organiser sets between Swiss rounds.
    Pause {
        name: String,
        seconds: u32,
    },
    /// A line in the tournament's chat.
    Say {
        name: String,
        text: String,
    },
    /// The tournament's screen (`tournament NAME`).
    Show(String),
    /// Every game of it as one PGN file (`tournament NAME pgn`).
    Pgn(String),
}

impl TournamentCommand {
    /// The tournament the command is about.
    pub fn name(&self) -> &str {
        match self {
            TournamentCommand::New(order) => &order.name,
            TournamentCommand::Join(name)
            | TournamentCommand::Leave(name)
            | TournamentCommand::Start(name)
            | TournamentCommand::Show(name)
            | TournamentCommand::Pgn(name)
            | TournamentCommand::Pause { name, .. }
            | TournamentCommand::Say { name, .. } => name,
        }
    }
}

/// The usage of the `tournament` commands, in the words of the error that shows it.
pub const TOURNAMENT_USAGE: &str = "tournament new NAME swiss ROUNDS CONTROL [rated|unrated] | \
     tournament new NAME arena MINUTES CONTROL [rated|unrated] | tournament join|leave|start NAME | \
     tournament pause NAME SECONDS | tournament say NAME TEXT | tournament NAME [pgn]";

/// A tournament's name: 1 to 12 ASCII letters, digits and `-`, not one of the verbs.
pub fn valid_tournament_name(name: &str) -> bool {
    (1..=TOURNAMENT_NAME_MAX).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !VERBS.contains(&name.to_ascii_lowercase().as_str())
}

fn tournament_name(name: &str) -> Result<String, String> {
    if valid_tournament_name(name) {
        Ok(name.to_owned())
    } else {
        Err(format!(
            "bad tournament name '{}': 1-{TOURNAMENT_NAME_MAX} ASCII letters, digits or '-' \
             (not a word like new or join)",
            name.chars().take(20).collect::<String>()
        ))
    }
}

fn whole(word: &str, what: &str, range: std::ops::RangeInclusive<u32>) -> Result<u32, String> {
    word.parse::<u32>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "bad {what} '{}': a whole number from {} to {}",
                word.chars().take(20).collect::<String>(),
                range.start(),
                range.end()
            )
        })
}

/// A tournament's clock: a real one (a tournament game must end).
fn control(word: &str) -> Result<TimeControl, String> {
    if word.eq_ignore_ascii_case("none") {
        return Err("a tournament needs a clock: 10+5, 3+2, 5m/move…".to_owned());
    }
    word.parse()
        .map_err(|error: xiangqi_core::clock::TimeControlError| error.to_string())
}

/// Parses the words after `tournament`.
pub fn parse_tournament(words: &[&str]) -> Result<TournamentCommand, String> {
    let usage = || format!("usage: {TOURNAMENT_USAGE}");
    match words {
        ["new", name, format, amount, clock, rest @ ..] => {
            let name = tournament_name(name)?;
            let format = match *format {
                "swiss" => TournamentFormat::Swiss {
                    rounds: whole(amount, "number of rounds", 1..=MAX_ROUNDS)?,
                },
                "arena" => TournamentFormat::Arena {
                    minutes: whole(amount, "number of minutes", 1..=MAX_ARENA_MINUTES)?,
                },
                other => {
                    return Err(format!(
                        "bad tournament kind '{}': swiss or arena",
                        other.chars().take(20).collect::<String>()
                    ));
                }
            };
            let rated = match rest {
                [] | ["rated"] => true,
                ["unrated"] => false,
                _ => return Err(usage()),
            };
            Ok(TournamentCommand::New(NewTournament {
                name,
                format,
                control: control(clock)?,
                rated,
            }))
        }
        ["join", name] => Ok(TournamentCommand::Join(tournament_name(name)?)),
        ["leave", name] => Ok(TournamentCommand::Leave(tournament_name(name)?)),
        ["start", name] => Ok(TournamentCommand::Start(tournament_name(name)?)),
        ["pause", name, seconds] => Ok(TournamentCommand::Pause {
            name: tournament_name(name)?,
            seconds: whole(seconds, "pause", 0..=MAX_PAUSE_SECONDS)?,
        }),
        ["say", name, text @ ..] if !text.is_empty() => Ok(TournamentCommand::Say {
            name: tournament_name(name)?,
            text: text.join(" "),
        }),
        [name, "pgn"] if !VERBS.contains(name) => {
            Ok(TournamentCommand::Pgn(tournament_name(name)?))
        }
        [name] if !VERBS.contains(name) => Ok(TournamentCommand::Show(tournament_name(name)?)),
        _ => Err(usage()),
    }
}

/// Parses the words after `standings`: `NAME [--json]`; the name and whether JSON.
pub fn parse_standings(words: &[&str]) -> Result<(String, bool), String> {
    match words {
        [name] => Ok((tournament_name(name)?, false)),
        [name, "--json"] | ["--json", name] => Ok((tournament_name(name)?, true)),
        _ => Err("usage: standings NAME [--json]".to_owned()),
    }
}

/// A score as tables write it: `2.5`, `3`.
pub fn score_text(score: f64) -> String {
    if score.fract() == 0.0 {
        format!("{score:.0}")
    } else {
        format!("{score}")
    }
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct StandingRow {
    /// 1-based; tied players share it.
    pub rank: usize,
    pub name: String,
    /// Points: a Swiss's whole and half points, an arena's points.
    pub score: f64,
    /// Games played over the board.
    pub games: u32,
    /// The tie-breaks, by their JSON names, in the order the table shows them.
    pub tiebreaks: Vec<(&'static str, f64)>,
    /// An arena player whose next game counts double.
    pub on_fire: bool,
    /// Withdrawn (a Swiss), or paused after a no-show (an arena).
    pub withdrawn: bool,
}

/// The tie-break columns: JSON name, heading, width.
const TIEBREAK_COLUMNS: [(&str, &str, usize); 5] = [
    ("buchholz", "BH", 5),
    ("buchholz_cut1", "BH-1", 5),
    ("sonneborn_berger", "SB", 6),
    ("direct_encounter", "DE", 4),
    ("performance", "PERF", 5),
];

fn tiebreak_heading(name: &str) -> (&'static str, usize) {
    TIEBREAK_COLUMNS
        .iter()
        .find(|(key, _, _)| *key == name)
        .map_or(("?", 5), |&(_, heading, width)| (heading, width))
}

/// Columns of the name in the standings.
const STANDING_NAME: usize = 16;

/// The standings as a table (headings first), at most 60 columns: an 80-column
/// terminal shows it whole. The tie-break columns are those of the first row (a
/// tournament's rows all have the same).
pub fn standings_lines(rows: &[StandingRow]) -> Vec<String> {
    let tiebreaks: Vec<&'static str> = rows
        .first()
        .map(|row| row.tiebreaks.iter().map(|(name, _)| *name).collect())
        .unwrap_or_default();
    let mut heading = format!(
        "{:>3}  {}  {:>4}  {:>5}",
        "#",
        pad("NAME", STANDING_NAME),
        "PTS",
        "GAMES"
    );
    for name in &tiebreaks {
        let (title, width) = tiebreak_heading(name);
        heading.push_str(&format!(" {title:>width$}"));
    }
    let mut lines = vec![heading.trim_end().to_owned()];
    for row in rows {
        let mark = if row.withdrawn {
            " (out)"
        } else if row.on_fire {
            " *"
        } else {
            ""
        };
        let name = super::lobby::fit_name(&format!("{}{mark}", row.name), STANDING_NAME);
        let mut line = format!(
            "{:>3}  {}  {:>4}  {:>5}",
            row.rank,
            pad(&name, STANDING_NAME),
            score_text(row.score),
            row.games
        );
        for (name, value) in &row.tiebreaks {
            let (_, width) = tiebreak_heading(name);
            line.push_str(&format!(" {:>width$}", score_text(*value)));
        }
        lines.push(line.trim_end().to_owned());
    }
    lines
}

/// The standings as JSON: `[{"rank","name","score","games","tiebreaks":{…}}]`.
pub fn standings_json(rows: &[StandingRow]) -> String {
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|row| {
            let tiebreaks: serde_json::Map<String, serde_json::Value> = row
                .tiebreaks
                .iter()
                .map(|(name, value)| ((*name).to_owned(), number(*value)))
                .collect();
            serde_json::json!({
                "rank": row.rank,
                "name": row.name,
                "score": number(row.score),
                "games": row.games,
                "tiebreaks": tiebreaks,
            })
        })
        .collect();
    serde_json::Value::Array(rows).to_string()
}

/// A whole number as an integer, else as a float (`3`, `2.5`).
fn number(value: f64) -> serde_json::Value {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        serde_json::Value::from(value as i64)
    } else {
        serde_json::Value::from(value)
    }
}

/// One tournament in the list (`tournaments`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSummary {
    pub name: String,
    pub format: TournamentFormat,
    pub control: TimeControl,
    pub rated: bool,
    /// `upcoming`, `round 2 of 5`, `12 min left`, `finished`.
    pub state: String,
    pub players: usize,
    pub creator: String,
}

/// The list's headings, in the columns of `tournament_line`.
pub fn tournament_headings() -> String {
    tournament_columns(["TOURNAMENT", "FORMAT", "CLOCK", "STATE", "PLAYERS", "BY"])
}

/// A tournament as a line of the list, under `tournament_headings` (at most 79 columns).
pub fn tournament_line(summary: &TournamentSummary) -> String {
    let format = if summary.rated {
        summary.format.describe()
    } else {
        format!("{} unrated", summary.format.describe())
    };
    tournament_columns([
        &summary.name,
        &format,
        &summary.control.to_string(),
        &summary.state,
        &summary.players.to_string(),
        &super::lobby::fit_name(&summary.creator, 10),
    ])
}

fn tournament_columns(cells: [&str; 6]) -> String {
    let [name, format, clock, state, players, by] = cells;
    format!(
        "{} {} {} {} {} {by}",
        pad(name, TOURNAMENT_NAME_MAX),
        pad(format, 23),
        pad(clock, 8),
        pad(state, 14),
        pad_left(players, 7),
    )
    .trim_end()
    .to_owned()
}

/// A board of the tournament screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardRow {
    /// Its room, to watch or play (`None`: a bye, or a room not open yet).
    pub room: Option<String>,
    /// `1`, `2.3` (round 2, board 3), as the screen numbers it.
    pub label: String,
    pub red: String,
    pub black: String,
    /// `1-0`, `playing, move 12`, `bye`, `waiting for a room`.
    pub state: String,
    /// The viewer plays on it.
    pub mine: bool,
}

/// A board as a line of the screen (at most 79 columns).
pub fn board_line(board: &BoardRow) -> String {
    let mark = if board.mine { ">" } else { " " };
    format!(
        "{mark}{} {} {} {}",
        pad_left(&board.label, 5),
        pad(&super::lobby::fit_name(&board.red, 18), 18),
        pad(&super::lobby::fit_name(&board.black, 18), 18),
        super::lobby::fit_name(&board.state, 35),
    )
    .trim_end()
    .to_owned()
}

/// A tournament as its screen shows it, refreshed as it changes.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentView {
    pub name: String,
    /// `swiss 3 rounds | 5+3 | rated | by ann`.
    pub about: String,
    /// `round 2 of 3`, `upcoming: ann starts it`, `finished`.
    pub state: String,
    /// Where the viewer stands: `you play board 2 (Red) against bob`, `you are in`.
    pub you: Option<String>,
    pub standings: Vec<StandingRow>,
    /// The boards of the round (a Swiss) or the games on (an arena), then those just
    /// finished.
    pub boards: Vec<BoardRow>,
    /// The tournament's chat and announcements, oldest first.
    pub chat: Vec<String>,
}

fn pad(text: &str, columns: usize) -> String {
    format!("{text}{}", " ".repeat(columns.saturating_sub(text.width())))
}

fn pad_left(text: &str, columns: usize) -> String {
    format!("{}{text}", " ".repeat(columns.saturating_sub(text.width())))
}

#[cfg(test)]
#[path = "tournament_tests.rs"]
mod tests;
