//! The effective settings, their built-in defaults and the merge of the layers.

use serde::{Serialize, Serializer};

use super::layer::SettingsLayer;
use super::threads::Threads;
use super::time::SideTime;
use super::values::{BookSource, ColorMode, EngineSide, Glyphs, TraceLevel, serialize_config_name};
use xiangqi_core::clock::TimeControl;
use xiangqi_core::notation::Notation;
use xiangqi_engine::search::Algorithm;

/// The engine name that means the in-process engine.
pub const BUILTIN_ENGINE: &str = "builtin";

/// Deepest search depth a config may ask for, in plies.
pub const MAX_DEPTH: u32 = 64;
/// Largest transposition table a config may ask for, in megabytes.
pub const MAX_HASH_MB: u32 = 65_536;
/// The word that switches a search limit off (`depth = "none"`).
pub const NO_LIMIT: &str = "none";
/// Strength levels: 1 (weakest) to 20 (full strength).
pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 20;
/// Most engine lines the analysis board may show.
pub const MAX_MULTIPV: u8 = 10;

/// The effective settings: every key has a value.
///
/// The field order is the order `config show` prints them in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Settings {
    #[serde(serialize_with = "serialize_config_name")]
    pub algorithm: Algorithm,
    /// Depth limit in plies (`None`: no depth limit).
    #[serde(serialize_with = "serialize_limit")]
    pub depth: Option<u32>,
    /// Time per move in milliseconds (`None`: no time limit).
    #[serde(serialize_with = "serialize_limit")]
    pub movetime_ms: Option<u64>,
    /// Node limit per search (`None`: no node limit).
    #[serde(serialize_with = "serialize_limit")]
    pub nodes: Option<u64>,
    pub hash_mb: u32,
    /// Search threads of the in-process engine.
    pub threads: Threads,
    pub trace: TraceLevel,
    /// Step mode on when a search starts.
    pub step: bool,
    pub engine_side: EngineSide,
    /// A theme name known to the `ThemeSet`.
    pub theme: String,
    pub glyphs: Glyphs,
    #[serde(serialize_with = "serialize_config_name")]
    pub notation: Notation,
    pub color: ColorMode,
    /// The opening book the engine plays from in the TUI.
    pub book: BookSource,
    /// How often a less-played book move is chosen, 0 (never) to 100 (as often as played).
    pub book_variety: u8,
    /// The engine's strength level, 1..=20 (20: full strength).
    pub level: u8,
    /// Lines the analysis board shows, 1..=10.
    pub multipv: u8,
    /// Both sides' time control (`None`: no clocks).
    #[serde(serialize_with = "serialize_limit")]
    pub time: Option<TimeControl>,
    pub time_red: SideTime,
    pub time_black: SideTime,
    /// The opponent: `builtin`, or the name of an `[engines.NAME]` table.
    pub engine: String,
    /// Most nodes the search-tree explorer keeps (the search itself goes on past them).
    pub explorer_nodes: u32,
}

/// The largest node cap the explorer takes: its memory stays bounded whatever the config says.
pub const EXPLORER_NODES_MAX: u32 = 10_000_000;

impl Default for Settings {
    /// A good first run: you play Red at the bottom against alpha-beta answering in
    /// about a second, with a one-line-per-iteration search log.
    fn default() -> Self {
        Settings {
            algorithm: Algorithm::AlphaBeta,
            depth: None,
            movetime_ms: Some(1000),
            nodes: None,
            hash_mb: 64,
            threads: Threads::default(),
            trace: TraceLevel::Summary,
            step: false,
            engine_side: EngineSide::Black,
            theme: "classic".to_owned(),
            glyphs: Glyphs::Cjk,
            notation: Notation::Chinese,
            color: ColorMode::Auto,
            book: BookSource::Builtin,
            book_variety: 20,
            level: MAX_LEVEL,
            multipv: 3,
            time: None,
            time_red: SideTime::Same,
            time_black: SideTime::Same,
            engine: BUILTIN_ENGINE.to_owned(),
            explorer_nodes: xiangqi_engine::study::DEFAULT_NODE_CAP as u32,
        }
    }
}

fn serialize_limit<T: Serialize, S: Serializer>(
    limit: &Option<T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match limit {
        Some(value) => value.serialize(serializer),
        None => serializer.serialize_str(NO_LIMIT),
    }
}

/// The one place precedence is decided:
/// built-in defaults < config file < chosen profile < command-line flags.
pub fn merge(
    file: &SettingsLayer,
    profile: Option<&SettingsLayer>,
    flags: &SettingsLayer,
) -> Settings {
    let mut settings = Settings::default();
    for layer in [Some(file), profile, Some(flags)].into_iter().flatten() {
        layer.apply_to(&mut settings);
    }
    settings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_make_a_quick_first_game() {
        let settings = Settings::default();
        assert_eq!(settings.algorithm, Algorithm::AlphaBeta);
        assert_eq!(settings.movetime_ms, Some(1000));
        assert_eq!(settings.depth, None);
        assert_eq!(settings.engine_side, EngineSide::Black);
        assert_eq!(settings.trace, TraceLevel::Summary);
        assert_eq!(settings.theme, "classic");
    }

    #[test]
    fn merge_applies_layers_in_order() {
        let file = SettingsLayer {
            depth: Some(Some(6)),
            theme: Some("dark".into()),
            ..SettingsLayer::default()
        };
        let profile = SettingsLayer {
            depth: Some(Some(4)),
            movetime_ms: Some(None),
            ..SettingsLayer::default()
        };
        let flags = SettingsLayer {
            depth: Some(Some(2)),
            ..SettingsLayer::default()
        };
        let merged = merge(&file, Some(&profile), &flags);
        assert_eq!(merged.depth, Some(2));
        assert_eq!(merged.movetime_ms, None);
        assert_eq!(merged.theme, "dark");
        assert_eq!(merged.hash_mb, 64);
        assert_eq!(merge(&file, None, &SettingsLayer::default()).depth, Some(6));
    }
}
