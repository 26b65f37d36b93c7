//! Reading a `config.toml`: every key checked against its span, every error collected.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml::Spanned;
use toml::de::DeValue;

use super::document::{ErrorSink, raw_value};
use super::engines::{ENGINES_KEY, engine_table_names, read_engines};
use super::error::{ConfigError, ConfigErrors, ConfigProblem};
use super::keys::SettingKey;
use super::keys::Settings;
use super::keys::SettingsLayer;
use super::raw_value::RawValue;
use super::settings::{BUILTIN_ENGINE, merge};
use super::suggest::closest;

/// Top-level key naming the profile used when `--profile` is not given.
pub const PROFILE_KEY: &str = "profile";
/// Top-level table holding the `[profiles.NAME]` tables.
pub const PROFILES_KEY: &str = "profiles";

/// A parsed, validated config file (or the absence of one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigFile {
    /// Where it was read from; `None` when no file exists and the defaults apply.
    pub path: Option<PathBuf>,
    /// The top-level settings.
    pub settings: SettingsLayer,
    /// The top-level `profile = "NAME"`.
    pub default_profile: Option<String>,
    /// The `[profiles.NAME]` tables.
    pub profiles: BTreeMap<String, SettingsLayer>,
    /// The `[engines.NAME]` tables.
    pub engines: BTreeMap<String, xiangqi_engine::external::EngineSpec>,
    /// The `[server]` table (`xiangqi-tui serve`).
    pub server: super::server::ServerTable,
}

impl ConfigFile {
    /// Read and validate the file at `path`. `themes` are the theme names that exist.
    pub fn load(path: &Path, themes: &[String]) -> Result<ConfigFile, ConfigErrors> {
        let bytes = std::fs::read(path).map_err(|error| {
            let reason = error.to_string();
            ConfigError::in_file(path, ConfigProblem::Unreadable { reason })
        })?;
        let text = String::from_utf8(bytes).map_err(|error| {
            let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
            // The valid prefix locates the bad byte; it is UTF-8 by construction.
            let prefix = String::from_utf8_lossy(valid);
            let position = super::source::line_column(&prefix, prefix.len());
            let message = "the file is not valid UTF-8".to_owned();
            ConfigError::at(path, position, ConfigProblem::Syntax { message })
        })?;
        ConfigFile::parse(&text, path, themes)
    }

    /// Validate `text`, read from `path` (used in messages only).
    pub fn parse(text: &str, path: &Path, themes: &[String]) -> Result<ConfigFile, ConfigErrors> {
        let mut reader = Reader {
            sink: ErrorSink::new(text, path),
            themes,
            engine_names: Vec::new(),
        };
        let config = reader.document(path);
        reader.sink.finish().into_result(config)
    }

    /// The profile in force: `--profile` if given, else the file's `profile` key.
    pub fn chosen_profile<'a>(&'a self, flag: Option<&'a str>) -> Option<&'a str> {
        flag.or(self.default_profile.as_deref())
    }

    /// Profile names, sorted.
    pub fn profile_names(&self) -> Vec<String> {
        self.profiles.keys().cloned().collect()
    }

    /// The effective settings with `profile` (from `--profile`, or the TUI's profile
    /// switch; `None` for the file's default) and the command-line `flags` on top.
    pub fn resolve(
        &self,
        profile: Option<&str>,
        flags: &SettingsLayer,
    ) -> Result<Settings, ConfigError> {
        let chosen = match self.chosen_profile(profile) {
            None => None,
            Some(name) => Some(self.profiles.get(name).ok_or_else(|| {
                let names = self.profile_names();
                ConfigError::flag(
                    "--profile",
                    ConfigProblem::UnknownName {
                        key: PROFILE_KEY.to_owned(),
                        kind: "profile".to_owned(),
                        value: name.to_owned(),
                        suggestion: closest(name, names.iter().map(String::as_str))
                            .map(str::to_owned),
                        allowed: names.clone(),
                    },
                )
            })?),
        };
        Ok(merge(&self.settings, chosen, flags))
    }
}

/// Walks the parsed document, checking every key against its span.
struct Reader<'a> {
    sink: ErrorSink<'a>,
    themes: &'a [String],
    /// The `[engines.NAME]` names, read before the settings that name one.
    engine_names: Vec<String>,
}

impl Reader<'_> {
    fn document(&mut self, path: &Path) -> ConfigFile {
        let mut config = ConfigFile {
            path: Some(path.to_path_buf()),
            ..ConfigFile::default()
        };
        let Some(root) = self.sink.parse() else {
            return config;
        };
        let folder = path.parent().unwrap_or(Path::new("."));
        for (key, value) in &root {
            if key.get_ref().as_ref() == ENGINES_KEY {
                config.engines = read_engines(&mut self.sink, value, folder);
                self.engine_names = engine_table_names(value);
            }
        }
        let mut profile_key = None;
        for (key, value) in &root {
            match key.get_ref().as_ref() {
                PROFILE_KEY => profile_key = Some(value),
                PROFILES_KEY => config.profiles = self.profiles(value),
                ENGINES_KEY => {}
                super::server::SERVER_KEY => {
                    config.server = super::server::read(&mut self.sink, value)
                }
                name => match SettingKey::from_name(name) {
                    Some(setting) => self.setting(&mut config.settings, setting, name, value),
                    None => self.unknown_key(key, name, top_level_keys()),
                },
            }
        }
        if let Some(value) = profile_key {
            config.default_profile = self.default_profile(value, &config.profiles);
        }
        config
    }

    fn setting(
        &mut self,
        layer: &mut SettingsLayer,
        setting: SettingKey,
        shown_key: &str,
        value: &Spanned<DeValue<'_>>,
    ) {
        let raw = raw_value(value.get_ref());
        if setting == SettingKey::Engine
            && let RawValue::String(name) = raw
            && let Err(problem) = check_engine_name(shown_key, name, &self.engine_names)
        {
            self.sink.report(value.span(), problem);
            return;
        }
        if let Err(problem) = layer.set(setting, shown_key, raw, self.themes) {
            self.sink.report(value.span(), problem);
        }
    }

    fn unknown_key(
        &mut self,
        key: &Spanned<std::borrow::Cow<'_, str>>,
        shown: &str,
        allowed: Vec<String>,
    ) {
        let name = key.get_ref().as_ref();
        let problem = ConfigProblem::UnknownKey {
            key: shown.to_owned(),
            suggestion: closest(name, allowed.iter().map(String::as_str)).map(str::to_owned),
            allowed,
        };
        self.sink.report(key.span(), problem);
    }

    fn profiles(&mut self, value: &Spanned<DeValue<'_>>) -> BTreeMap<String, SettingsLayer> {
        let mut profiles = BTreeMap::new();
        let DeValue::Table(table) = value.get_ref() else {
            let problem = ConfigProblem::WrongType {
                key: PROFILES_KEY.to_owned(),
                expected: "a table of profiles ([profiles.NAME] sections)".to_owned(),
                found: raw_value(value.get_ref()).describe(),
            };
            self.sink.report(value.span(), problem);
            return profiles;
        };
        for (name, body) in table {
            let name = name.get_ref().as_ref();
            let shown = format!("{PROFILES_KEY}.{name}");
            let DeValue::Table(settings) = body.get_ref() else {
                let problem = ConfigProblem::WrongType {
                    key: shown,
                    expected: "a table of settings ([profiles.NAME] section)".to_owned(),
                    found: raw_value(body.get_ref()).describe(),
                };
                self.sink.report(body.span(), problem);
                continue;
            };
            let mut layer = SettingsLayer::default();
            for (key, value) in settings {
                let key_name = key.get_ref().as_ref();
                let shown_key = format!("{shown}.{key_name}");
                match SettingKey::from_name(key_name) {
                    Some(setting) => self.setting(&mut layer, setting, &shown_key, value),
                    None => self.unknown_key(key, &shown_key, setting_keys()),
                }
            }
            profiles.insert(name.to_owned(), layer);
        }
        profiles
    }

    fn default_profile(
        &mut self,
        value: &Spanned<DeValue<'_>>,
        profiles: &BTreeMap<String, SettingsLayer>,
    ) -> Option<String> {
        let names: Vec<String> = profiles.keys().cloned().collect();
        let problem = match value.get_ref() {
            DeValue::String(name) if profiles.contains_key(name.as_ref()) => {
                return Some(name.to_string());
            }
            DeValue::String(name) => ConfigProblem::UnknownName {
                key: PROFILE_KEY.to_owned(),
                kind: "profile".to_owned(),
                value: name.to_string(),
                suggestion: closest(name, names.iter().map(String::as_str)).map(str::to_owned),
                allowed: names,
            },
            other => ConfigProblem::WrongType {
                key: PROFILE_KEY.to_owned(),
                expected: "the name of a [profiles.NAME] table (a string)".to_owned(),
                found: raw_value(other).describe(),
            },
        };
        self.sink.report(value.span(), problem);
        None
    }
}

fn setting_keys() -> Vec<String> {
    SettingKey::ALL
        .iter()
        .map(|key| key.name().to_owned())
        .collect()
}

fn top_level_keys() -> Vec<String> {
    let mut keys = setting_keys();
    keys.extend([
        PROFILE_KEY.to_owned(),
        PROFILES_KEY.to_owned(),
        ENGINES_KEY.to_owned(),
        super::server::SERVER_KEY.to_owned(),
    ]);
    keys
}

/// `engine = NAME` must name the built-in engine or an `[engines.NAME]` table.
pub(super) fn check_engine_name(
    shown_key: &str,
    name: &str,
    engines: &[String],
) -> Result<(), ConfigProblem> {
    let name = name.trim();
    if name == BUILTIN_ENGINE || engines.iter().any(|known| known == name) {
        return Ok(());
    }
    let mut allowed = vec![BUILTIN_ENGINE.to_owned()];
    allowed.extend(engines.iter().cloned());
    Err(ConfigProblem::UnknownName {
        key: shown_key.to_owned(),
        kind: "engine".to_owned(),
        value: name.to_owned(),
        suggestion: closest(name, allowed.iter().map(String::as_str)).map(str::to_owned),
        allowed,
    })
}
