//! Everything read at start-up, validated together: themes, the config file, the flags.

use std::path::Path;

use super::error::{ConfigError, ConfigErrors, Origin};
use super::file::ConfigFile;
use super::keys::{Overrides, Settings, SettingsLayer};
use super::paths::ConfigLocation;
use super::theme::{ThemeSet, theme_name};

/// The configuration in force: the sources and the effective settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// The config file in force (`None`: no home directory and no `--config`).
    pub location: Option<ConfigLocation>,
    /// The parsed file; empty when there is none.
    pub file: ConfigFile,
    /// Built-in and user themes.
    pub themes: ThemeSet,
    /// The validated command-line settings.
    pub flags: SettingsLayer,
    /// The profile in force (`--profile`, else the file's `profile` key).
    pub profile: Option<String>,
    /// The result of the merge.
    pub settings: Settings,
    /// Problems that do not stop the program: broken theme files that neither the
    /// file, a profile nor a flag uses.
    pub warnings: ConfigErrors,
}

impl Config {
    /// Read the themes in `themes_dir`, the file at `location`, check the
    /// `overrides`, and merge. Every error in any of them is returned at once.
    ///
    /// A missing file is fine at the platform default location (the built-in
    /// defaults apply) but an error when it was asked for (`location.explicit`).
    pub fn load(
        location: Option<ConfigLocation>,
        themes_dir: Option<&Path>,
        overrides: &Overrides,
    ) -> Result<Config, ConfigErrors> {
        let (themes, theme_errors) = ThemeSet::load(themes_dir);
        let theme_names = known_theme_names(&themes, &theme_errors);
        let mut errors = ConfigErrors::default();
        let file = match &location {
            Some(location) if location.explicit || location.path.exists() => {
                ConfigFile::load(&location.path, &theme_names).unwrap_or_else(|file_errors| {
                    errors.extend(file_errors);
                    ConfigFile::default()
                })
            }
            _ => ConfigFile::default(),
        };
        let flags = overrides
            .to_layer(&theme_names)
            .unwrap_or_else(|flag_errors| {
                errors.extend(flag_errors);
                SettingsLayer::default()
            });
        if let Some(name) = &overrides.engine {
            let names: Vec<String> = file.engines.keys().cloned().collect();
            if let Err(problem) = super::file::check_engine_name("engine", name, &names) {
                errors.push(ConfigError::flag("--engine", problem));
            }
        }
        // A broken theme file stops the program only when something uses it.
        let used: Vec<&str> = std::iter::once(&file.settings)
            .chain(file.profiles.values())
            .chain(std::iter::once(&flags))
            .filter_map(|layer| layer.theme.as_deref())
            .collect();
        let mut warnings = ConfigErrors::default();
        for error in theme_errors {
            if theme_file_of(&error).is_some_and(|name| !used.contains(&name.as_str())) {
                warnings.push(error);
            } else {
                errors.push(error);
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let profile = file
            .chosen_profile(overrides.profile.as_deref())
            .map(str::to_owned);
        let settings = file.resolve(profile.as_deref(), &flags)?;
        Ok(Config {
            location,
            file,
            themes,
            flags,
            profile,
            settings,
            warnings,
        })
    }

    /// Switch to another profile (`None`: no profile) while running; the flags still
    /// win. On error nothing changes.
    pub fn switch_profile(&mut self, profile: Option<&str>) -> Result<(), ConfigError> {
        let settings = match profile {
            Some(name) => self.file.resolve(Some(name), &self.flags)?,
            None => super::settings::merge(&self.file.settings, None, &self.flags),
        };
        self.settings = settings;
        self.profile = profile.map(str::to_owned);
        Ok(())
    }

    /// The external engine `name` names (`None`: the built-in one, or no such table).
    pub fn engine_spec(&self, name: &str) -> Option<&xiangqi_engine::external::EngineSpec> {
        self.file.engines.get(name)
    }

    /// The external engines' names, sorted.
    pub fn engine_names(&self) -> Vec<String> {
        self.file.engines.keys().cloned().collect()
    }

    /// The profiles the file defines, sorted.
    pub fn profile_names(&self) -> Vec<String> {
        self.file.profile_names()
    }
}

/// The theme a theme error is about (`None`: the themes folder itself).
fn theme_file_of(error: &ConfigError) -> Option<String> {
    let path = match &error.origin {
        Origin::Position { path, .. } | Origin::File(path) => path,
        Origin::Flag(_) => return None,
    };
    path.extension()
        .is_some_and(|ext| ext == "toml")
        .then(|| theme_name(path))
}

/// Theme names a config may use: the loaded themes plus user theme files that
/// failed to load, so a broken theme file is reported once, not again as an
/// unknown name wherever it is used.
fn known_theme_names(themes: &ThemeSet, theme_errors: &ConfigErrors) -> Vec<String> {
    let mut names = themes.names();
    names.extend(theme_errors.into_iter().filter_map(theme_file_of));
    names.sort();
    names.dedup();
    names
}
