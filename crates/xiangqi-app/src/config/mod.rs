//! Configuration: settings, profiles, themes; loading, merging and validating them.
//!
//! Precedence, in one place (`merge`): built-in defaults < `config.toml` < the chosen
//! profile < command-line flags. Every error names its file, line, column and key.
//! No terminal code here: the TUI maps `Theme` colours onto its own types.

mod document;
mod engines;
mod error;
mod file;
mod keys;
mod listen_address;
mod loaded;
mod overrides;
mod paths;
mod raw_value;
mod read;
mod server;
mod settings;
mod settings_table;
mod source;
pub(crate) mod suggest;
pub mod theme;
mod threads;
mod time;
mod values;

pub use engines::ENGINES_KEY;
pub use error::{ConfigError, ConfigErrors, ConfigProblem, Origin};
pub use file::{ConfigFile, PROFILE_KEY, PROFILES_KEY};
pub use keys::{Overrides, SAMPLE_CONFIG, SettingKey, Settings, SettingsLayer};
pub use loaded::Config;
pub use paths::{CONFIG_FILE_NAME, ConfigLocation, THEMES_DIR_NAME, user_themes_dir};
pub use raw_value::RawValue;
pub use server::{
    ListenAddress, MaxStartups, SERVER_KEY, SERVER_KEYS, ServerAuth, ServerTable,
    TournamentCreators, merge_server,
};
pub use settings::{BUILTIN_ENGINE, MAX_DEPTH, MAX_HASH_MB, NO_LIMIT, merge};
pub use threads::{AUTO_THREADS, Threads};
pub use time::{SAME_TIME, SideTime};
pub use values::{BookSource, ColorMode, ConfigName, EngineSide, Glyphs, TraceLevel, UnknownValue};
// The settings hold the search's and the notation's own enums (see `ConfigName`).
pub use xiangqi_core::notation::Notation;
pub use xiangqi_engine::search::Algorithm;

impl Settings {
    /// The settings as TOML that is itself a valid config file (`config show`).
    pub fn to_toml(&self) -> Result<String, toml::ser::Error> {
        toml::to_string(self)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn builtin_theme_names() -> Vec<String> {
        theme::ThemeSet::builtin().names()
    }

    #[test]
    fn the_sample_config_is_valid_and_states_the_defaults() {
        let file = ConfigFile::parse(
            SAMPLE_CONFIG,
            Path::new("sample.toml"),
            &builtin_theme_names(),
        )
        .unwrap();
        assert_eq!(file.default_profile, None);
        assert_eq!(
            file.resolve(None, &SettingsLayer::default()).unwrap(),
            Settings::default()
        );
        // Every key is written out, so the sample documents all of them.
        for key in SettingKey::ALL {
            assert!(
                SAMPLE_CONFIG.contains(&format!("\n{} = ", key.name())),
                "{}",
                key.name()
            );
        }
        assert_eq!(file.profile_names(), ["beginner", "full-strength", "study"]);
        let study = file
            .resolve(Some("study"), &SettingsLayer::default())
            .unwrap();
        assert_eq!((study.algorithm, study.depth), (Algorithm::Sss, Some(3)));
    }

    #[test]
    fn a_setting_added_at_the_end_of_the_sample_is_a_top_level_one() {
        // No [section] is open at the end of the file `config init` writes.
        // (Every setting is written out above; `profile` is the one left commented.)
        let text = format!("{SAMPLE_CONFIG}profile = \"beginner\"\n");
        let file =
            ConfigFile::parse(&text, Path::new("sample.toml"), &builtin_theme_names()).unwrap();
        assert_eq!(file.default_profile.as_deref(), Some("beginner"));
        // A setting written twice is refused where it stands, not taken as the server's.
        let twice = format!("{SAMPLE_CONFIG}level = 5\n");
        let errors = ConfigFile::parse(&twice, Path::new("sample.toml"), &builtin_theme_names())
            .unwrap_err()
            .to_string();
        assert!(errors.contains("level"), "{errors}");
        assert!(!errors.contains("server.level"), "{errors}");
    }

    #[test]
    fn the_samples_server_section_uncommented_is_valid() {
        let at = SAMPLE_CONFIG.find("\n# [server]\n").unwrap();
        let uncommented: Vec<&str> = SAMPLE_CONFIG[at..]
            .lines()
            .map(|line| match line.strip_prefix("# ") {
                Some(rest)
                    if rest == "[server]"
                        || rest.split_once(" = ").is_some_and(|(key, _)| {
                            key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                        }) =>
                {
                    rest
                }
                _ => line,
            })
            .collect();
        let text = uncommented.join("\n");
        let file =
            ConfigFile::parse(&text, Path::new("server.toml"), &builtin_theme_names()).unwrap();
        assert_eq!(
            file.server.listen,
            Some("127.0.0.1:2222".parse().unwrap()),
            "{text}"
        );
        assert_eq!(file.server.max_rooms, Some(200));
    }

    #[test]
    fn shown_settings_read_back_the_same() {
        let settings = Settings {
            depth: Some(7),
            movetime_ms: None,
            nodes: Some(123_456),
            algorithm: Algorithm::BStar,
            color: ColorMode::Ansi256,
            theme: "mono".into(),
            ..Settings::default()
        };
        let text = settings.to_toml().unwrap();
        assert!(text.contains("movetime_ms = \"none\"\n"), "{text}");
        assert!(text.contains("color = \"256\"\n"), "{text}");
        let file =
            ConfigFile::parse(&text, Path::new("shown.toml"), &builtin_theme_names()).unwrap();
        assert_eq!(
            file.resolve(None, &SettingsLayer::default()).unwrap(),
            settings
        );
    }
}
