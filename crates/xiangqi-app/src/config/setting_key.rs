//! The keys a settings table may hold, their names and what each value must look like.

use super::settings::{
    BUILTIN_ENGINE, EXPLORER_NODES_MAX, MAX_DEPTH, MAX_HASH_MB, MAX_LEVEL, MAX_MULTIPV, MIN_LEVEL,
    NO_LIMIT,
};
use super::threads::{AUTO_THREADS, MAX_THREADS};
use super::values::{ColorMode, ConfigName, EngineSide, Glyphs, TraceLevel};
use xiangqi_core::notation::Notation;
use xiangqi_engine::search::Algorithm;

/// The keys a settings table (top level or `[profiles.NAME]`) may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SettingKey {
    Algorithm,
    Depth,
    MovetimeMs,
    Nodes,
    HashMb,
    Threads,
    Trace,
    Step,
    EngineSide,
    Theme,
    Glyphs,
    Notation,
    Color,
    Book,
    BookVariety,
    Level,
    Multipv,
    Time,
    TimeRed,
    TimeBlack,
    Engine,
    ExplorerNodes,
}

impl SettingKey {
    pub const ALL: &'static [SettingKey] = &[
        SettingKey::Algorithm,
        SettingKey::Depth,
        SettingKey::MovetimeMs,
        SettingKey::Nodes,
        SettingKey::HashMb,
        SettingKey::Threads,
        SettingKey::Trace,
        SettingKey::Step,
        SettingKey::EngineSide,
        SettingKey::Theme,
        SettingKey::Glyphs,
        SettingKey::Notation,
        SettingKey::Color,
        SettingKey::Book,
        SettingKey::BookVariety,
        SettingKey::Level,
        SettingKey::Multipv,
        SettingKey::Time,
        SettingKey::TimeRed,
        SettingKey::TimeBlack,
        SettingKey::Engine,
        SettingKey::ExplorerNodes,
    ];

    /// The key as written in a config file.
    pub const fn name(self) -> &'static str {
        match self {
            SettingKey::Algorithm => "algorithm",
            SettingKey::Depth => "depth",
            SettingKey::MovetimeMs => "movetime_ms",
            SettingKey::Nodes => "nodes",
            SettingKey::HashMb => "hash_mb",
            SettingKey::Threads => "threads",
            SettingKey::Trace => "trace",
            SettingKey::Step => "step",
            SettingKey::EngineSide => "engine_side",
            SettingKey::Theme => "theme",
            SettingKey::Glyphs => "glyphs",
            SettingKey::Notation => "notation",
            SettingKey::Color => "color",
            SettingKey::Book => "book",
            SettingKey::BookVariety => "book_variety",
            SettingKey::Level => "level",
            SettingKey::Multipv => "multipv",
            SettingKey::Time => "time",
            SettingKey::TimeRed => "time_red",
            SettingKey::TimeBlack => "time_black",
            SettingKey::Engine => "engine",
            SettingKey::ExplorerNodes => "explorer_nodes",
        }
    }

    pub fn from_name(name: &str) -> Option<SettingKey> {
        SettingKey::ALL
            .iter()
            .copied()
            .find(|key| key.name() == name)
    }

    /// What a value of this key must look like, for error messages.
    pub fn expectation(self) -> String {
        match self {
            SettingKey::Algorithm => one_of(&Algorithm::config_names()),
            SettingKey::Depth => format!("an integer from 1 to {MAX_DEPTH}, or \"{NO_LIMIT}\""),
            SettingKey::MovetimeMs => {
                format!("a positive integer (milliseconds), or \"{NO_LIMIT}\"")
            }
            SettingKey::Nodes => format!("a positive integer, or \"{NO_LIMIT}\""),
            SettingKey::HashMb => format!("an integer from 1 to {MAX_HASH_MB} (megabytes)"),
            SettingKey::Threads => {
                format!("an integer from 1 to {MAX_THREADS}, or \"{AUTO_THREADS}\"")
            }
            SettingKey::Trace => one_of(&TraceLevel::config_names()),
            SettingKey::Step => "true or false".to_owned(),
            SettingKey::EngineSide => one_of(&EngineSide::config_names()),
            SettingKey::Theme => "a theme name (a string)".to_owned(),
            SettingKey::Glyphs => one_of(&Glyphs::config_names()),
            SettingKey::Notation => one_of(&Notation::config_names()),
            SettingKey::Color => one_of(&ColorMode::config_names()),
            SettingKey::Book => "a string: \"builtin\", \"none\" or a book file's path".to_owned(),
            SettingKey::BookVariety => "an integer from 0 to 100".to_owned(),
            SettingKey::Level => format!("an integer from {MIN_LEVEL} to {MAX_LEVEL}"),
            SettingKey::Multipv => format!("an integer from 1 to {MAX_MULTIPV}"),
            SettingKey::Time => {
                format!("a time control (\"10+5\", \"40/90+30\", \"5m/move\") or \"{NO_LIMIT}\"")
            }
            SettingKey::TimeRed | SettingKey::TimeBlack => format!(
                "a time control (\"10+5\", \"40/90+30\", \"5m/move\"), \"{NO_LIMIT}\" or \"same\""
            ),
            SettingKey::Engine => {
                format!("\"{BUILTIN_ENGINE}\" or the name of an [engines.NAME] table")
            }
            SettingKey::ExplorerNodes => {
                format!("an integer from 1 to {}", EXPLORER_NODES_MAX)
            }
        }
    }
}

fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    format!("a string, one of {}", quoted.join(", "))
}
