//! Where the program keeps its files, by platform convention (`directories`).

use std::path::{Path, PathBuf};

use directories::ProjectDirs;

/// The config file's name inside the config directory.
pub const CONFIG_FILE_NAME: &str = "config.toml";
/// The folder of user themes inside the config directory.
pub const THEMES_DIR_NAME: &str = "themes";

/// The platform directories of xiangqi-tui (on Linux `$XDG_CONFIG_HOME/xiangqi-tui`,
/// `$XDG_DATA_HOME/xiangqi-tui`, ...). `None` when no home directory is known.
/// Every part of the program (config, themes, autosave) should go through this.
pub fn project_dirs() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", "xiangqi-tui")
}

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
