//! What a game was played with besides its moves: who plays which side, the engine and
//! its level, the side shown at the bottom, the time controls and each side's time
//! left. It is kept in the game's tags, so the autosave (PGN) brings it back on resume;
//! tags that are missing or unreadable leave that part as the settings have it.
//! The PGN header's `Event`, `Date`, `Red` and `Black` are written here too.

use std::time::Duration;

use xiangqi_core::board::Color;
use xiangqi_core::clock::{GameClock, TimeControl};

use super::players::Players;
use super::state::GameState;

const TAG_ENGINE_PLAYS: &str = "EnginePlays";
const TAG_LEVEL: &str = "EngineLevel";
const TAG_ENGINE: &str = "Engine";
const TAG_BOTTOM: &str = "Bottom";
const TAG_CONTROL: &str = "TimeControl";
const TAG_RED_CONTROL: &str = "RedTimeControl";
const TAG_BLACK_CONTROL: &str = "BlackTimeControl";
const TAG_RED_LEFT: &str = "RedTimeLeft";
const TAG_BLACK_LEFT: &str = "BlackTimeLeft";
/// The plies played when the clocks started, for clocks set in the middle of a game
/// (PGN's `TimeControl` would claim them for the whole game); absent: from the start.
const TAG_CLOCK_START: &str = "ClockStart";

/// The tags that hold the time controls and the time left (a record that keeps only
/// some tags keeps these for its clocks).
pub const CLOCK_TAGS: &[&str] = &[
    TAG_CONTROL,
    TAG_RED_CONTROL,
    TAG_BLACK_CONTROL,
    TAG_RED_LEFT,
    TAG_BLACK_LEFT,
    TAG_CLOCK_START,
];

/// The `Event` of a game played in this program; a game whose `Event` is another (a
/// file loaded) keeps its `Event`, `Red` and `Black`.
pub const OWN_EVENT: &str = "xiangqi-tui game";

/// What a game was played with; `None`: not known (the settings decide).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Setup {
    /// Who plays (the engine's sides).
    pub players: Option<Players>,
    pub level: Option<u8>,
    /// The engine's name (`builtin` or a configured one).
    pub engine: Option<String>,
    /// The side shown at the bottom of the board.
    pub bottom: Option<Color>,
    /// Red's and Black's time controls (`None` in it: untimed).
    pub controls: Option<[Option<TimeControl>; 2]>,
    /// Red's and Black's time left.
    pub time_left: [Option<Duration>; 2],
    /// The plies played when the clocks started (0: from the first move).
    pub clock_start: usize,
}

impl Setup {
    /// The time controls and the time left of `clock` at `now`.
    pub fn with_clock(mut self, clock: &GameClock, now: Duration) -> Setup {
        self.controls = Some([clock.control(Color::Red), clock.control(Color::Black)]);
        for side in [Color::Red, Color::Black] {
            self.time_left[side.index()] = clock.remaining(side, now);
        }
        self
    }

    /// `clock` (made with `controls`) set to the time left saved, for `game`'s moves
    /// since the clocks started.
    pub fn restore_clock(&self, clock: &mut GameClock, game: &GameState) {
        let mut moves = [0u32; 2];
        let mut side = game.start().side_to_move();
        for ply in 0..game.ply() {
            if ply >= self.clock_start {
                moves[side.index()] += 1;
            }
            side = side.opponent();
        }
        for side in [Color::Red, Color::Black] {
            clock.restore(side, self.time_left[side.index()], moves[side.index()]);
        }
    }
}

/// A side as the game's tags write it: `red`, `black`.
pub fn side_tag(side: Color) -> &'static str {
    match side {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The side a tag names (any case).
pub fn side_of_tag(text: &str) -> Option<Color> {
    match text.trim().to_ascii_lowercase().as_str() {
        "red" => Some(Color::Red),
        "black" => Some(Color::Black),
        _ => None,
    }
}

fn players_tag(players: Players) -> Option<&'static str> {
    Some(match players {
        Players::Engine(side) => side_tag(side),
        Players::EngineBoth => "both",
        Players::OneKeyboard => "none",
        Players::TwoPeople => return None,
    })
}

fn players_of(text: &str) -> Option<Players> {
    match text.trim().to_ascii_lowercase().as_str() {
        "both" => Some(Players::EngineBoth),
        "none" => Some(Players::OneKeyboard),
        other => side_of_tag(other).map(Players::Engine),
    }
}

/// Seconds to the millisecond: `298.300`.
fn seconds_text(time: Duration) -> String {
    format!("{}.{:03}", time.as_secs(), time.subsec_millis())
}

fn seconds_of(text: &str) -> Option<Duration> {
    let value: f64 = text.trim().parse().ok()?;
    (value.is_finite() && (0.0..=1e9).contains(&value))
        .then(|| Duration::from_millis((value * 1000.0).round() as u64))
}

impl GameState {
    /// Writes `setup` into the tags (the parts known).
    pub fn write_setup(&mut self, setup: &Setup) {
        if let Some(tag) = setup.players.and_then(players_tag) {
            self.set_tag(TAG_ENGINE_PLAYS, tag);
        }
        if let Some(level) = setup.level {
            self.set_tag(TAG_LEVEL, &level.to_string());
        }
        if let Some(engine) = &setup.engine {
            self.set_tag(TAG_ENGINE, engine);
        }
        if let Some(bottom) = setup.bottom {
            self.set_tag(TAG_BOTTOM, side_tag(bottom));
        }
        for (side, tag) in [(Color::Red, TAG_RED_LEFT), (Color::Black, TAG_BLACK_LEFT)] {
            if let Some(left) = setup.time_left[side.index()] {
                self.set_tag(tag, &seconds_text(left));
            }
        }
    }

    /// Writes Red's and Black's time controls: PGN's `TimeControl` when they are the same,
    /// else `RedTimeControl` and `BlackTimeControl`. A control taken away is written as
    /// none (`-`), so that a resume does not bring it back. Clocks started after the
    /// first move are written as each side's, with the ply they started at
    /// (`ClockStart`): no `TimeControl` says the whole game was played with them.
    pub fn write_controls(&mut self, red: Option<TimeControl>, black: Option<TimeControl>) {
        let tag = |control: Option<TimeControl>| {
            control.map_or_else(|| "-".to_owned(), |control| control.pgn_tag())
        };
        let start = self.ply();
        if start > 0 && (red.is_some() || black.is_some()) {
            self.remove_tag(TAG_CONTROL);
            self.set_tag(TAG_RED_CONTROL, &tag(red));
            self.set_tag(TAG_BLACK_CONTROL, &tag(black));
            self.set_tag(TAG_CLOCK_START, &start.to_string());
            return;
        }
        self.remove_tag(TAG_CLOCK_START);
        if red == black {
            if red.is_some() || self.tag(TAG_CONTROL).is_some() {
                self.set_tag(TAG_CONTROL, &tag(red));
            }
            self.remove_tag(TAG_RED_CONTROL);
            self.remove_tag(TAG_BLACK_CONTROL);
        } else {
            self.remove_tag(TAG_CONTROL);
            self.set_tag(TAG_RED_CONTROL, &tag(red));
            self.set_tag(TAG_BLACK_CONTROL, &tag(black));
        }
    }

    /// The setup the tags hold; what is missing or unreadable is `None`.
    pub fn setup(&self) -> Setup {
        let control = |name: &str| self.tag(name).and_then(TimeControl::from_pgn_tag);
        let controls = if self.tag(TAG_CONTROL).is_some() {
            Some([control(TAG_CONTROL); 2])
        } else if self.tag(TAG_RED_CONTROL).is_some() || self.tag(TAG_BLACK_CONTROL).is_some() {
            Some([control(TAG_RED_CONTROL), control(TAG_BLACK_CONTROL)])
        } else {
            None
        };
        let left = |name: &str| self.tag(name).and_then(seconds_of);
        Setup {
            players: self.tag(TAG_ENGINE_PLAYS).and_then(players_of),
            level: self
                .tag(TAG_LEVEL)
                .and_then(|text| text.trim().parse().ok()),
            engine: self
                .tag(TAG_ENGINE)
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(str::to_owned),
            bottom: self.tag(TAG_BOTTOM).and_then(side_of_tag),
            controls,
            time_left: [left(TAG_RED_LEFT), left(TAG_BLACK_LEFT)],
            clock_start: self
                .tag(TAG_CLOCK_START)
                .and_then(|text| text.trim().parse().ok())
                .unwrap_or(0),
        }
    }

    /// The header a saved game carries: `Event`, `Red`, `Black` (unless the game came
    /// from a file with its own `Event`) and the `Date` it was first saved (PGN's
    /// `YYYY.MM.DD`).
    pub fn write_header(&mut self, event: &str, names: [&str; 2], date: &str) {
        if self.tag("Event").is_none_or(|old| old == OWN_EVENT) {
            self.set_tag("Event", event);
            self.set_tag("Red", names[0]);
            self.set_tag("Black", names[1]);
        }
        if self.tag("Date").is_none() {
            self.set_tag("Date", date);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::board::{Move, Position};

    #[test]
    fn a_setup_reads_back_from_the_tags_and_pgn() {
        let control = TimeControl::from_pgn_tag("300+3").unwrap();
        let mut game =
            GameState::with_moves(Position::startpos(), &[Move::parse_coords("h2e2").unwrap()])
                .unwrap();
        game.set_tag(TAG_CONTROL, &control.pgn_tag());
        let setup = Setup {
            players: Some(Players::Engine(Color::Red)),
            level: Some(5),
            engine: Some("builtin".to_owned()),
            bottom: Some(Color::Black),
            controls: Some([Some(control); 2]),
            time_left: [
                Some(Duration::from_millis(298_300)),
                Some(Duration::from_secs(300)),
            ],
            clock_start: 0,
        };
        game.write_setup(&setup);
        game.write_header(OWN_EVENT, ["xiangqi-tui level 5", "You"], "2026.11.25");
        let pgn = game
            .to_record()
            .to_pgn(xiangqi_core::notation::Notation::Iccs);
        assert!(pgn.contains("[RedTimeLeft \"298.300\"]"), "{pgn}");
        assert!(pgn.contains("[Date \"2026.11.25\"]"), "{pgn}");
        let record = xiangqi_core::record::GameRecord::from_pgn(&pgn).unwrap();
        let back = GameState::from_record(&record).unwrap();
        assert_eq!(back.setup(), setup);
        assert_eq!(back.tag("Black"), Some("You"));
    }

    #[test]
    fn clocks_set_in_the_middle_of_a_game_say_where_they_started() {
        let control = TimeControl::from_pgn_tag("600+5").unwrap();
        let moves = [
            Move::parse_coords("h2e2").unwrap(),
            Move::parse_coords("h9g7").unwrap(),
        ];
        let mut game = GameState::with_moves(Position::startpos(), &moves).unwrap();
        game.write_controls(Some(control), Some(control));
        assert_eq!(game.tag(TAG_CONTROL), None);
        assert_eq!(game.tag(TAG_RED_CONTROL), Some("600+5"));
        assert_eq!(game.tag(TAG_BLACK_CONTROL), Some("600+5"));
        assert_eq!(game.tag(TAG_CLOCK_START), Some("2"));
        let setup = game.setup();
        assert_eq!(setup.controls, Some([Some(control); 2]));
        assert_eq!(setup.clock_start, 2);
        // Red's one move since the clocks started is the one its 40-move period counts.
        let period: TimeControl = "40/90+30".parse().unwrap();
        let mut later = GameState::with_moves(Position::startpos(), &moves).unwrap();
        later.write_controls(Some(period), Some(period));
        later.play(Move::parse_coords("h0g2").unwrap());
        let mut clock = GameClock::new(Some(period), Some(period));
        later.setup().restore_clock(&mut clock, &later);
        let to_go = |side| {
            clock
                .engine_clock(side, Duration::ZERO)
                .unwrap()
                .moves_to_go
        };
        assert_eq!(
            (to_go(Color::Red), to_go(Color::Black)),
            (Some(39), Some(40))
        );
        // Clocks from the first move: PGN's TimeControl, no ClockStart.
        let mut fresh = GameState::new(Position::startpos());
        fresh.write_controls(Some(control), Some(control));
        assert_eq!(fresh.tag(TAG_CONTROL), Some("600+5"));
        assert_eq!(fresh.tag(TAG_CLOCK_START), None);
        assert_eq!(fresh.setup().clock_start, 0);
    }

    #[test]
    fn unreadable_tags_are_not_known() {
        let mut game = GameState::new(Position::startpos());
        game.set_tag(TAG_ENGINE_PLAYS, "martians");
        game.set_tag(TAG_LEVEL, "high");
        game.set_tag(TAG_RED_LEFT, "-3");
        assert_eq!(game.setup(), Setup::default());
        game.set_tag(TAG_CONTROL, "-");
        assert_eq!(game.setup().controls, Some([None, None]));
    }

    #[test]
    fn a_loaded_games_header_is_kept() {
        let mut game = GameState::new(Position::startpos());
        game.set_tag("Event", "1960 national championship");
        game.set_tag("Date", "1960.??.??");
        game.write_header(OWN_EVENT, ["You", "engine"], "2026.11.25");
        assert_eq!(game.tag("Event"), Some("1960 national championship"));
        assert_eq!(game.tag("Red"), None);
        assert_eq!(game.tag("Date"), Some("1960.??.??"));
    }
}
