//! The settings' limits and the merge of the layers (the keys themselves, with their
//! defaults, are the table in `keys.rs`).

use serde::{Serialize, Serializer};

use super::keys::{Settings, SettingsLayer};

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

/// The largest node cap the explorer takes: its memory stays bounded whatever the config says.
pub const EXPLORER_NODES_MAX: u32 = 10_000_000;

/// Writes a search limit, `none` when there is none (`config show`).
pub(super) fn serialize_limit<T: Serialize, S: Serializer>(
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
    use super::super::values::{EngineSide, TraceLevel};
    use super::*;
    use xiangqi_engine::search::Algorithm;

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
