//! Settings given on the command line, validated like the file's.

use super::error::{ConfigError, ConfigErrors};
use super::layer::SettingsLayer;
use super::raw_value::RawValue;
use super::setting_key::SettingKey;
use super::values::Glyphs;

/// The settings flags as the user typed them; `to_layer` validates them.
/// Each field names the flag it comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overrides {
    /// `--profile`.
    pub profile: Option<String>,
    /// `--algorithm`.
    pub algorithm: Option<String>,
    /// `--depth`.
    pub depth: Option<u32>,
    /// `--movetime`, milliseconds.
    pub movetime_ms: Option<u64>,
    /// `--nodes`.
    pub nodes: Option<u64>,
    /// `--hash`, megabytes.
    pub hash_mb: Option<u32>,
    /// `--threads`: a number or "auto".
    pub threads: Option<String>,
    /// `--trace-level`.
    pub trace: Option<String>,
    /// `--theme`.
    pub theme: Option<String>,
    /// `--ascii`.
    pub ascii: bool,
    /// `--color`.
    pub color: Option<String>,
    /// `--notation`.
    pub notation: Option<String>,
    /// `--level`.
    pub level: Option<u8>,
    /// `--multipv`.
    pub multipv: Option<u8>,
    /// `--time`: both sides' time control.
    pub time: Option<String>,
    /// `--engine`: the opponent (checked against the file's engines when loading).
    pub engine: Option<String>,
}

impl Overrides {
    /// Validate every flag given; all errors, each naming its flag.
    pub fn to_layer(&self, themes: &[String]) -> Result<SettingsLayer, ConfigErrors> {
        let mut layer = SettingsLayer::default();
        let mut errors = ConfigErrors::default();
        let number = |value: Option<u64>| {
            value.map(|n| {
                i64::try_from(n).map_or(RawValue::Other("a number too large"), RawValue::Integer)
            })
        };
        let threads = self.threads.as_deref().map(|text| {
            text.trim()
                .parse::<i64>()
                .map_or(RawValue::String(text), RawValue::Integer)
        });
        let given: [(SettingKey, &str, Option<RawValue<'_>>); 15] = [
            (
                SettingKey::Algorithm,
                "--algorithm",
                self.algorithm.as_deref().map(RawValue::String),
            ),
            (
                SettingKey::Depth,
                "--depth",
                number(self.depth.map(u64::from)),
            ),
            (
                SettingKey::MovetimeMs,
                "--movetime",
                number(self.movetime_ms),
            ),
            (SettingKey::Nodes, "--nodes", number(self.nodes)),
            (
                SettingKey::HashMb,
                "--hash",
                number(self.hash_mb.map(u64::from)),
            ),
            (SettingKey::Threads, "--threads", threads),
            (
                SettingKey::Trace,
                "--trace-level",
                self.trace.as_deref().map(RawValue::String),
            ),
            (
                SettingKey::Theme,
                "--theme",
                self.theme.as_deref().map(RawValue::String),
            ),
            (
                SettingKey::Glyphs,
                "--ascii",
                self.ascii
                    .then_some(RawValue::String(Glyphs::Ascii.as_str())),
            ),
            (
                SettingKey::Color,
                "--color",
                self.color.as_deref().map(RawValue::String),
            ),
            (
                SettingKey::Notation,
                "--notation",
                self.notation.as_deref().map(RawValue::String),
            ),
            (
                SettingKey::Level,
                "--level",
                number(self.level.map(u64::from)),
            ),
            (
                SettingKey::Multipv,
                "--multipv",
                number(self.multipv.map(u64::from)),
            ),
            (
                SettingKey::Time,
                "--time",
                self.time.as_deref().map(RawValue::String),
            ),
            (
                SettingKey::Engine,
                "--engine",
                self.engine.as_deref().map(RawValue::String),
            ),
        ];
        for (key, flag, value) in given {
            let Some(value) = value else { continue };
            if let Err(problem) = layer.set(key, key.name(), value, themes) {
                errors.push(ConfigError::flag(flag, problem));
            }
        }
        errors.into_result(layer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::values::ColorMode;
    use xiangqi_engine::search::Algorithm;

    fn themes() -> Vec<String> {
        vec!["classic".to_owned(), "mono".to_owned()]
    }

    #[test]
    fn valid_flags_become_a_layer() {
        let overrides = Overrides {
            algorithm: Some("mtdf".into()),
            depth: Some(5),
            ascii: true,
            color: Some("16".into()),
            ..Overrides::default()
        };
        let layer = overrides.to_layer(&themes()).unwrap();
        assert_eq!(layer.algorithm, Some(Algorithm::Mtdf));
        assert_eq!(layer.depth, Some(Some(5)));
        assert_eq!(layer.glyphs, Some(Glyphs::Ascii));
        assert_eq!(layer.color, Some(ColorMode::Ansi16));
        assert_eq!(layer.movetime_ms, None);
    }

    #[test]
    fn every_bad_flag_is_reported_by_name() {
        let overrides = Overrides {
            algorithm: Some("negamax".into()),
            depth: Some(0),
            hash_mb: Some(0),
            theme: Some("solarized".into()),
            ..Overrides::default()
        };
        let errors = overrides.to_layer(&themes()).unwrap_err().to_string();
        let lines: Vec<&str> = errors.lines().collect();
        assert_eq!(lines.len(), 4, "{errors}");
        assert!(
            lines[0].starts_with("--algorithm: `algorithm` = \"negamax\" is not a known algorithm")
        );
        assert_eq!(
            lines[1],
            "--depth: `depth` = 0 is out of range: it must be from 1 to 64"
        );
        assert_eq!(
            lines[2],
            "--hash: `hash_mb` = 0 is out of range: it must be from 1 to 65536"
        );
        assert_eq!(
            lines[3],
            "--theme: `theme` = \"solarized\" is not a known theme; allowed: classic, mono"
        );
    }
}
