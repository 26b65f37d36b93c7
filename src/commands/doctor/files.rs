//! The files the program reads and writes, and the engines it would start: the config
//! and its themes, the data directory, the saved game, tablebases, the book, external
//! engines, the server's host key.

use std::path::{Path, PathBuf};
use std::time::Instant;

use xiangqi_app::config::theme::ThemeSet;
use xiangqi_app::config::{
    BookSource, Config, ConfigErrors, ConfigLocation, Settings, user_themes_dir,
};
use xiangqi_engine::book::Book;
use xiangqi_engine::egtb::{Tablebases, file::EXTENSION};
use xiangqi_engine::external::ExternalEngine;

use super::Check;
use crate::cli::GlobalArgs;

/// The configuration as `play` would load it, and the theme files on their own.
pub struct Loaded {
    location: Option<ConfigLocation>,
    themes_dir: Option<PathBuf>,
    config: Result<Config, ConfigErrors>,
    themes: ThemeSet,
    theme_errors: ConfigErrors,
}

impl Loaded {
    pub fn settings(&self) -> Option<&Settings> {
        self.config.as_ref().ok().map(|config| &config.settings)
    }
}

pub fn load_config(global: &GlobalArgs) -> Loaded {
    let location = ConfigLocation::find(global.config_path().as_deref());
    let themes_dir = user_themes_dir();
    let config = Config::load(
        location.clone(),
        themes_dir.as_deref(),
        &crate::commands::config::overrides(global),
    );
    let (themes, theme_errors) = ThemeSet::load(themes_dir.as_deref());
    Loaded {
        location,
        themes_dir,
        config,
        themes,
        theme_errors,
    }
}

pub fn checks(loaded: &Loaded, checks: &mut Vec<Check>) {
    config_file(loaded, checks);
    themes(loaded, checks);
    let data_dir = xiangqi_core::paths::data_dir();
    checks.push(data_directory(data_dir.as_deref()));
    if let Some(dir) = &data_dir {
        checks.push(saved_game(&dir.join("autosave.pgn")));
    }
    checks.push(tablebases());
    match &loaded.config {
        Ok(config) => {
            checks.push(book(config));
            engines(config, checks);
        }
        Err(_) => checks.push(Check::warn(
            "book, engines",
            "not checked: they are named by the config, which does not load",
            "correct the config, then run doctor again",
        )),
    }
    if let Some(check) = host_key(loaded, data_dir.as_deref()) {
        checks.push(check);
    }
}

fn config_file(loaded: &Loaded, checks: &mut Vec<Check>) {
    let name = "config file";
    let Some(location) = &loaded.location else {
        checks.push(Check::warn(
            name,
            "no config directory is known (HOME is not set): the built-in defaults apply",
            "set HOME, or give a file with --config PATH",
        ));
        return;
    };
    let path = location.path.display();
    let errors = match &loaded.config {
        Ok(config) => {
            let detail = if config.file.path.is_some() {
                let profile = config
                    .profile
                    .as_deref()
                    .map(|p| format!(", profile \"{p}\""))
                    .unwrap_or_default();
                format!("{path} read{profile}")
            } else {
                format!("{path}: no file, the built-in defaults apply")
            };
            checks.push(Check::ok(name, detail));
            return;
        }
        Err(errors) => errors,
    };
    checks.push(Check::problem(
        name,
        format!(
            "{path}: {} error{}: the program will not start",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        ),
        "correct the lines below (`xiangqi-tui config check` lists them)",
    ));
    for error in errors {
        // Theme files' errors are listed with the themes.
        if !loaded
            .theme_errors
            .iter()
            .any(|e| e.to_string() == error.to_string())
        {
            checks.push(Check::problem(
                "config error",
                error.to_string(),
                "edit the file at that line",
            ));
        }
    }
}

fn themes(loaded: &Loaded, checks: &mut Vec<Check>) {
    let builtin = ThemeSet::builtin().names();
    let user: Vec<String> = loaded
        .themes
        .names()
        .into_iter()
        .filter(|name| !builtin.contains(name))
        .collect();
    let folder = match &loaded.themes_dir {
        Some(dir) => dir.display().to_string(),
        None => "no themes folder (HOME is not set)".to_owned(),
    };
    let user_list = match user.as_slice() {
        [] => "no user themes".to_owned(),
        names => format!("user: {}", names.join(", ")),
    };
    checks.push(Check::ok(
        "themes",
        format!(
            "built-in: {}; {user_list} (in {folder})",
            builtin.join(", ")
        ),
    ));
    let used_errors: Vec<String> = match &loaded.config {
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
        Ok(_) => Vec::new(),
    };
    for error in &loaded.theme_errors {
        let text = error.to_string();
        if used_errors.contains(&text) {
            checks.push(Check::problem(
                "broken theme",
                format!("{text} (the config uses it)"),
                "correct the theme file, or choose another theme",
            ));
        } else {
            checks.push(Check::warn(
                "broken theme",
                format!("{text} (not used: ignored)"),
                "correct or remove the theme file",
            ));
        }
    }
}

fn data_directory(dir: Option<&Path>) -> Check {
    let name = "data directory";
    let Some(dir) = dir else {
        return Check::problem(
            name,
            "none: no home directory is known, so no autosave and no tablebases",
            "set HOME",
        );
    };
    let shown = dir.display();
    if !dir.exists() {
        return Check::ok(
            name,
            format!("{shown} (not there yet: made when first needed)"),
        );
    }
    if !dir.is_dir() {
        return Check::problem(
            name,
            format!("{shown} is not a folder"),
            "move that file away",
        );
    }
    match writable(dir) {
        Ok(()) => Check::ok(name, format!("{shown} (writable)")),
        Err(error) => Check::problem(
            name,
            format!("{shown} is not writable ({error}): games and tables cannot be saved"),
            if cfg!(windows) {
                format!("give your user the right to write in {shown} (Properties, Security)")
            } else {
                format!("chmod u+w {shown}")
            },
        ),
    }
}

/// Whether a file can be made in `dir`, by making one and removing it: the answer of the
/// system itself on every platform (modes, access lists, a read-only disk).
fn writable(dir: &Path) -> std::io::Result<()> {
    let probe = dir.join(format!(".doctor-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)?;
    std::fs::remove_file(&probe)
}

fn saved_game(path: &Path) -> Check {
    let name = "saved game";
    let shown = path.display();
    if !path.exists() {
        return Check::ok(name, "none (an unfinished game is saved here on quitting)");
    }
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            return Check::problem(name, format!("{shown}: {error}"), format!("remove {shown}"));
        }
    };
    #[cfg(feature = "tui")]
    if let Err(why) = xiangqi_app::read_game(&text) {
        return Check::warn(
            name,
            format!("{shown} cannot be read back: {why}"),
            format!("remove {shown} (the game in it is lost)"),
        );
    }
    let _ = text;
    Check::ok(name, format!("{shown}: offered at the next start"))
}

fn tablebases() -> Check {
    let name = "tablebases";
    let Some(dir) = xiangqi_engine::egtb::default_dir() else {
        return Check::ok(name, "none (no data directory)");
    };
    let tables = Tablebases::open(&dir);
    if tables.is_empty() {
        return Check::ok(
            name,
            format!(
                "none in {} (optional: `xiangqi-tui egtb generate` makes them)",
                dir.display()
            ),
        );
    }
    let bytes: u64 = tables
        .materials()
        .iter()
        .filter_map(|m| std::fs::metadata(dir.join(format!("{m}.{EXTENSION}"))).ok())
        .map(|meta| meta.len())
        .sum();
    let names: Vec<String> = tables.materials().iter().map(ToString::to_string).collect();
    Check::ok(
        name,
        format!(
            "{} table{} ({}), {} in {} (each file is checked when first used)",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
            names.join(" "),
            human_size(bytes),
            dir.display()
        ),
    )
}

fn human_size(bytes: u64) -> String {
    const MB: f64 = 1024.0 * 1024.0;
    if bytes < 1024 * 1024 {
        format!("{:.1} kB", bytes as f64 / 1024.0)
    } else {
        format!("{:.1} MB", bytes as f64 / MB)
    }
}

fn book(config: &Config) -> Check {
    let name = "book";
    match &config.settings.book {
        BookSource::None => Check::ok(name, "off (book = \"none\"): the engine always searches"),
        BookSource::Builtin => match Book::builtin() {
            Ok(book) => Check::ok(name, format!("built-in, {} entries", book.len())),
            Err(error) => Check::problem(name, format!("built-in: {error}"), "report a bug"),
        },
        source @ BookSource::File(_) => {
            let config_dir = config
                .location
                .as_ref()
                .and_then(|l| l.path.parent().map(Path::to_path_buf));
            let Some(path) = source.file_path(config_dir.as_deref()) else {
                return Check::ok(name, source.as_str());
            };
            match Book::open(&path) {
                Ok(book) => Check::ok(name, format!("{}, {} entries", path.display(), book.len())),
                Err(error) => Check::problem(
                    name,
                    format!("{}: {error}", path.display()),
                    "set `book` to a book file (`xiangqi-tui book build` makes one), \
                     \"builtin\" or \"none\"",
                ),
            }
        }
    }
}

/// Starts each configured engine and times its handshake.
fn engines(config: &Config, checks: &mut Vec<Check>) {
    for name in config.engine_names() {
        let Some(spec) = config.engine_spec(&name) else {
            continue;
        };
        let label = format!("engine {name}");
        let started = Instant::now();
        checks.push(match ExternalEngine::start(spec) {
            Ok(engine) => Check::ok(
                label,
                format!(
                    "{} ({}): handshake in {} ms",
                    spec.command.display(),
                    engine.id_name.as_deref().unwrap_or("no name given"),
                    started.elapsed().as_millis()
                ),
            ),
            Err(error) => Check::problem(
                label,
                format!("{}: {error}", spec.command.display()),
                format!("correct command or args in [engines.{name}], or remove the table"),
            ),
        });
    }
}

/// The server's host key, when there is one: it must be readable by its owner alone.
fn host_key(loaded: &Loaded, data_dir: Option<&Path>) -> Option<Check> {
    let configured = loaded
        .config
        .as_ref()
        .ok()
        .and_then(|config| config.file.server.host_key.clone());
    let path = configured.or_else(|| data_dir.map(|dir| dir.join("ssh_host_ed25519_key")))?;
    let meta = std::fs::metadata(&path).ok()?;
    Some(key_privacy(&path, &meta))
}

#[cfg(unix)]
fn key_privacy(path: &Path, meta: &std::fs::Metadata) -> Check {
    use std::os::unix::fs::PermissionsExt;
    let mode = meta.permissions().mode() & 0o777;
    let shown = path.display();
    if mode & 0o077 == 0 {
        Check::ok("host key", format!("{shown} (mode {mode:o})"))
    } else {
        Check::problem(
            "host key",
            format!("{shown} has mode {mode:o}: others can read the server's private key"),
            format!("chmod 600 {shown}"),
        )
    }
}

/// Windows has no modes: the key is as private as the folder's access list, which in
/// the user's profile (the data directory) is the user's alone.
#[cfg(not(unix))]
fn key_privacy(path: &Path, _meta: &std::fs::Metadata) -> Check {
    Check::ok(
        "host key",
        format!(
            "{} (no file modes on this system: private if its folder is, as the data \
             directory in your profile is)",
            path.display()
        ),
    )
}
