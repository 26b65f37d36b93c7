//! Where the program keeps its files, by platform convention (`directories`). Below every
//! other module, so the floors that keep files (tablebases) ask here rather than `config`.

use std::path::PathBuf;

use directories::ProjectDirs;

/// The platform directories of xiangqi-tui (on Linux `$XDG_CONFIG_HOME/xiangqi-tui`,
/// `$XDG_DATA_HOME/xiangqi-tui`, ...). `None` when no home directory is known.
/// Every part of the program (config, themes, autosave, tablebases) goes through this.
pub fn project_dirs() -> Option<ProjectDirs> {
    ProjectDirs::from("", "", "xiangqi-tui")
}

/// The platform data directory (autosave, tablebases, the server's rooms and host key).
/// `None` without a home directory.
pub fn data_dir() -> Option<PathBuf> {
    project_dirs().map(|dirs| dirs.data_dir().to_path_buf())
}
