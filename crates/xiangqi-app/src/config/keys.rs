//! The settings keys, one row each: the field and its type, its default, how the sample
//! config writes it with its comment, how a value is read, and its command-line flag.
//! `settings_table!` makes `Settings`, `SettingsLayer`, `SettingKey`, `Overrides` and
//! the sample's settings from these rows (the sample's head and its tables, which are
//! not settings, are the files `sample_head.toml` and `sample.toml`).

use super::error::ConfigProblem;
use super::raw_value::RawValue;
use super::read::{
    Book, Boolean, Clock, EngineName, Integer, Limit, Named, Reader, Reading, SideClock, ThemeName,
    ThreadCount, expectation,
};
use super::settings::{
    BUILTIN_ENGINE, EXPLORER_NODES_MAX, MAX_DEPTH, MAX_HASH_MB, MAX_LEVEL, MAX_MULTIPV, MIN_LEVEL,
    serialize_limit,
};
use super::settings_table::settings_table;
use super::threads::Threads;
use super::time::SideTime;
use super::values::{BookSource, ColorMode, EngineSide, Glyphs, TraceLevel, serialize_config_name};
use xiangqi_core::clock::TimeControl;
use xiangqi_core::notation::Notation;
use xiangqi_engine::search::Algorithm;

settings_table! {
    sample: include_str!("sample_head.toml"), include_str!("sample.toml");

    /// Search algorithm: "minimax", "alphabeta", "sss", "mtsss", "mtdf" or "bstar".
    Algorithm algorithm: Algorithm = Algorithm::AlphaBeta,
        sample "\"alphabeta\"", read Named, serde "serialize_config_name",
        flag "--algorithm" algorithm: Option<String> = text;

    /// Search limits; the search stops at the first one reached. Each is a positive
    /// integer, or "none" for no limit. depth is in plies, 1 to 64.
    Depth depth: Option<u32> = None,
        sample "\"none\"", read Limit(Integer::range(1, MAX_DEPTH as u64)),
        serde "serialize_limit", flag "--depth" depth: Option<u32> = number;
    MovetimeMs movetime_ms: Option<u64> = Some(1000),
        sample "1000", read Limit(Integer::positive().in_unit("milliseconds")),
        serde "serialize_limit", flag "--movetime" movetime_ms: Option<u64> = number;
    Nodes nodes: Option<u64> = None,
        sample "\"none\"", read Limit(Integer::positive()),
        serde "serialize_limit", flag "--nodes" nodes: Option<u64> = number;

    /// Transposition table size in megabytes, 1 to 65536.
    HashMb hash_mb: u32 = 64,
        sample "64", read Integer::range(1, MAX_HASH_MB as u64).in_unit("megabytes"),
        flag "--hash" hash_mb: Option<u32> = number;

    /// Search threads of the in-process engine: 1 to 256, or "auto" (every core but
    /// one). One thread repeats a search exactly for a depth or node limit; more
    /// threads search faster and share the table.
    Threads threads: Threads = Threads::default(),
        sample "1", read ThreadCount, flag "--threads" threads: Option<String> = thread_count;

    /// Search log detail: "off", "summary" (one line per iteration), "nodes" or
    /// "events" (every step of the algorithm: windows, cut-offs, OPEN list, intervals).
    Trace trace: TraceLevel = TraceLevel::Summary,
        sample "\"summary\"", read Named, flag "--trace-level" trace: Option<String> = text;

    /// Start each search in step mode (pause before every trace event).
    Step step: bool = false, sample "false", read Boolean;

    /// The side the engine plays: "red", "black", "both" (watch) or "none" (two players).
    EngineSide engine_side: EngineSide = EngineSide::Black, sample "\"black\"", read Named;

    /// Theme: "classic", "dark", "light", "mono", or a file NAME.toml in the themes/
    /// folder next to this file (a user theme replaces a built-in one of the same name).
    Theme theme: String = "classic".to_owned(),
        sample "\"classic\"", read ThemeName, flag "--theme" theme: Option<String> = text;

    /// Pieces: "cjk" (俥 車 ...), "ascii" (WXF letters: upper case Red, lower case
    /// Black), or "wide" (for terminals set to draw ambiguous-width characters wide).
    Glyphs glyphs: Glyphs = Glyphs::Cjk,
        sample "\"cjk\"", read Named, flag "--ascii" ascii: bool = ascii;

    /// Move notation shown: "chinese" (炮二平五), "wxf" (C2.5) or "iccs" (h2e2).
    /// Input accepts all three.
    Notation notation: Notation = Notation::Chinese,
        sample "\"chinese\"", read Named, serde "serialize_config_name",
        flag "--notation" notation: Option<String> = text;

    /// Colours: "auto" (from NO_COLOR, COLORTERM and TERM), "truecolor", "256", "16"
    /// or "never".
    Color color: ColorMode = ColorMode::Auto,
        sample "\"auto\"", read Named, flag "--color" color: Option<String> = text;

    /// Opening book the engine plays from: "builtin" (made by `xiangqi-tui book
    /// generate`), "none", or the path of a book file made with `xiangqi-tui book build`
    /// (relative to this file's folder). Only the alpha-beta engine uses it, not step mode.
    Book book: BookSource = BookSource::Builtin, sample "\"builtin\"", read Book;

    /// How often the engine plays a less-played book move: 0 (always the most played)
    /// to 100 (as often as the book's games played it).
    BookVariety book_variety: u8 = 20, sample "20", read Integer::range(0, 100);

    /// The engine's strength: 1 (weakest) to 20 (full strength). Below 20 it searches
    /// less and picks among its best few moves with a controlled error; see docs/engine.md
    /// for each level's approximate Elo.
    Level level: u8 = MAX_LEVEL,
        sample "20", read Integer::range(MIN_LEVEL as u64, MAX_LEVEL as u64),
        flag "--level" level: Option<u8> = number;

    /// Engine lines shown on the analysis board (:analyze), 1 to 10.
    Multipv multipv: u8 = 3,
        sample "3", read Integer::range(1, MAX_MULTIPV as u64),
        flag "--multipv" multipv: Option<u8> = number;

    /// Clocks: "none", or a time control for both sides: "10+5" (minutes + seconds
    /// added per move), "40/90+30" (40 moves in 90 minutes, 30 s added per move, 90
    /// more minutes after each 40 moves) or "5m/move" / "30s/move". The game's first
    /// move is free: the clocks start running once it is played. A side whose time runs
    /// out loses. The engine plays on its clock (movetime_ms no longer applies to it).
    Time time: Option<TimeControl> = None,
        sample "\"none\"", read Clock, serde "serialize_limit",
        flag "--time" time: Option<String> = text;

    /// One side's own control: a time control, "none" (no clock) or "same" (as `time`).
    TimeRed time_red: SideTime = SideTime::Same, sample "\"same\"", read SideClock;
    TimeBlack time_black: SideTime = SideTime::Same, sample "\"same\"", read SideClock;

    /// The opponent: "builtin" (this program's engine) or the NAME of an
    /// [engines.NAME] table below.
    Engine engine: String = BUILTIN_ENGINE.to_owned(),
        sample "\"builtin\"", read EngineName, flag "--engine" engine: Option<String> = text;

    /// Most nodes the search-tree explorer (F12) keeps of a search; past them it says
    /// "tree shown up to N nodes" and the search goes on.
    ExplorerNodes explorer_nodes: u32 = xiangqi_engine::study::DEFAULT_NODE_CAP as u32,
        sample "200000", read Integer::range(1, EXPLORER_NODES_MAX as u64);
}

/// A flag's text as a file's string.
fn text(flag: &Option<String>) -> Option<RawValue<'_>> {
    flag.as_deref().map(RawValue::String)
}

/// A flag's number as a file's integer.
fn number<N: Copy + Into<u64>>(flag: &Option<N>) -> Option<RawValue<'static>> {
    flag.map(|n| {
        i64::try_from(n.into()).map_or(RawValue::Other("a number too large"), RawValue::Integer)
    })
}

/// `--threads`: a count as an integer, anything else ("auto") as a string.
fn thread_count(flag: &Option<String>) -> Option<RawValue<'_>> {
    flag.as_deref().map(|text| {
        text.trim()
            .parse::<i64>()
            .map_or(RawValue::String(text), RawValue::Integer)
    })
}

/// `--ascii`: `glyphs = "ascii"`.
fn ascii(flag: &bool) -> Option<RawValue<'static>> {
    flag.then_some(RawValue::String(Glyphs::Ascii.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn themes() -> Vec<String> {
        ["classic", "dark", "light", "mono"]
            .map(str::to_owned)
            .to_vec()
    }

    fn set(key: SettingKey, value: RawValue<'_>) -> Result<SettingsLayer, ConfigProblem> {
        let mut layer = SettingsLayer::default();
        layer.set(key, key.name(), value, &themes())?;
        Ok(layer)
    }

    #[test]
    fn limits_take_numbers_in_range_or_none() {
        assert_eq!(
            set(SettingKey::Depth, RawValue::Integer(64)).unwrap().depth,
            Some(Some(64))
        );
        assert_eq!(
            set(SettingKey::Depth, RawValue::String("none"))
                .unwrap()
                .depth,
            Some(None)
        );
        assert_eq!(
            set(SettingKey::Depth, RawValue::Integer(65))
                .unwrap_err()
                .to_string(),
            "`depth` = 65 is out of range: it must be from 1 to 64"
        );
        assert_eq!(
            set(SettingKey::MovetimeMs, RawValue::Integer(0))
                .unwrap_err()
                .to_string(),
            "`movetime_ms` = 0 is out of range: it must be 1 or more"
        );
        assert_eq!(
            set(SettingKey::Nodes, RawValue::Integer(-5))
                .unwrap_err()
                .to_string(),
            "`nodes` = -5 is out of range: it must be 1 or more"
        );
        assert_eq!(
            set(SettingKey::HashMb, RawValue::String("none"))
                .unwrap_err()
                .to_string(),
            "`hash_mb` must be an integer from 1 to 65536 (megabytes), found the string \"none\""
        );
    }

    #[test]
    fn names_are_checked_with_a_suggestion() {
        assert_eq!(
            set(SettingKey::Algorithm, RawValue::String("alphabeat"))
                .unwrap_err()
                .to_string(),
            "`algorithm` = \"alphabeat\" is not a known algorithm (did you mean `alphabeta`?); \
             allowed: minimax, alphabeta, sss, mtsss, mtdf, bstar"
        );
        assert_eq!(
            set(SettingKey::Theme, RawValue::String("drak"))
                .unwrap_err()
                .to_string(),
            "`theme` = \"drak\" is not a known theme (did you mean `dark`?); \
             allowed: classic, dark, light, mono"
        );
        assert_eq!(
            set(SettingKey::Color, RawValue::Integer(256))
                .unwrap_err()
                .to_string(),
            "`color` must be a string, one of \"auto\", \"truecolor\", \"256\", \"16\", \"never\", \
             found the integer 256"
        );
        assert_eq!(
            set(SettingKey::Step, RawValue::String("yes"))
                .unwrap_err()
                .to_string(),
            "`step` must be true or false, found the string \"yes\""
        );
    }

    #[test]
    fn book_keys_take_a_source_and_a_percentage() {
        assert_eq!(
            set(SettingKey::Book, RawValue::String("none"))
                .unwrap()
                .book,
            Some(BookSource::None)
        );
        assert_eq!(
            set(SettingKey::Book, RawValue::String("books/my.xqb"))
                .unwrap()
                .book,
            Some(BookSource::File("books/my.xqb".into()))
        );
        assert_eq!(
            set(SettingKey::Book, RawValue::String(" "))
                .unwrap_err()
                .to_string(),
            "`book` must be a string: \"builtin\", \"none\" or a book file's path, found the \
             string \" \""
        );
        assert_eq!(
            set(SettingKey::BookVariety, RawValue::Integer(101))
                .unwrap_err()
                .to_string(),
            "`book_variety` = 101 is out of range: it must be from 0 to 100"
        );
        assert_eq!(
            set(SettingKey::BookVariety, RawValue::Integer(0))
                .unwrap()
                .book_variety,
            Some(0)
        );
    }
}
