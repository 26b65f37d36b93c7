//! Settings given on the command line, validated like the file's (the flags themselves
//! are rows of the table of keys, `keys.rs`).

use super::error::{ConfigError, ConfigErrors};
use super::keys::{Overrides, SettingsLayer};

impl Overrides {
    /// Validate every flag given; all errors, each naming its flag.
    pub fn to_layer(&self, themes: &[String]) -> Result<SettingsLayer, ConfigErrors> {
        let mut layer = SettingsLayer::default();
        let mut errors = ConfigErrors::default();
        for (key, flag, value) in self.given() {
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
    use crate::config::values::{ColorMode, Glyphs};
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
