//! Where the config file and the user themes are, by platform convention (`xiangqi_core::paths`).

use std::path::{Path, PathBuf};

use xiangqi_core::paths::project_dirs;

/// The config file's name inside the config directory.
pub const CONFIG_FILE_NAME: &str = "config.toml";
/// The folder of user themes inside the config directory.
pub const THEMES_DIR_NAME: &str = "themes";

/// The folder user themes are read from, `None` without a home directory.
pub fn user_themes_dir() -> Option<PathBuf> {
    project_dirs().map(|dirs| dirs.config_dir().join(THEMES_DIR_NAME))
}

/// Which config file is in force and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigLocation {
    pub path: PathBuf,
    /// Given by `--config` or `XIANGQI_TUI_CONFIG`: it must then exist. The
    /// platform default may be absent, and the built-in defaults apply.
    pub explicit: bool,
}

impl ConfigLocation {
    /// `explicit` (from `--config`/`XIANGQI_TUI_CONFIG`) if given, else the platform
    /// default; `None` when neither is known (no home directory).
    pub fn find(explicit: Option<&Path>) -> Option<ConfigLocation> {
        match explicit {
            Some(path) => Some(ConfigLocation {
                path: path.to_path_buf(),
                explicit: true,
            }),
            None => project_dirs().map(|dirs| ConfigLocation {
                path: dirs.config_dir().join(CONFIG_FILE_NAME),
                explicit: false,
            }),
        }
    }
}
