//! `xiangqi-tui config path|show|init|check`, and `load`, which every command uses to
//! get its settings (or a list of every configuration error).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, bail};
use xiangqi_app::config::{
    Config, ConfigErrors, ConfigLocation, Overrides, SAMPLE_CONFIG, SettingsLayer, user_themes_dir,
};

use crate::cli::{ConfigCommand, GlobalArgs};

/// The settings flags as the library's overrides (validated when loading).
pub fn overrides(global: &GlobalArgs) -> Overrides {
    Overrides {
        profile: global.profile.clone(),
        algorithm: global
            .algorithm
            .map(|algorithm| algorithm.as_str().to_owned()),
        depth: global.depth,
        movetime_ms: global.movetime,
        nodes: global.nodes,
        hash_mb: global.hash,
        threads: global.threads.clone(),
        trace: global.trace.clone(),
        theme: global.theme.clone(),
        ascii: global.ascii,
        color: global.color.clone(),
        notation: global.notation.clone(),
        level: global.level,
        multipv: global.multipv,
        time: global.time.clone(),
        engine: global.engine.clone(),
    }
}

/// Load the themes and the config file, check the flags, merge: the configuration
/// to run with, or an error listing every problem (the program must not start).
pub fn load(global: &GlobalArgs) -> anyhow::Result<Config> {
    let location = ConfigLocation::find(global.config_path().as_deref());
    let config =
        load_from(location, global).map_err(|errors| anyhow::anyhow!(describe_errors(&errors)))?;
    warn(&config);
    Ok(config)
}

/// Says on standard error what is wrong but unused (a broken theme file no one uses).
fn warn(config: &Config) {
    for warning in &config.warnings {
        eprintln!("warning: {warning} (the theme is not used: ignored)");
    }
}

fn load_from(
    location: Option<ConfigLocation>,
    global: &GlobalArgs,
) -> Result<Config, ConfigErrors> {
    Config::load(location, user_themes_dir().as_deref(), &overrides(global))
}

fn describe_errors(errors: &ConfigErrors) -> String {
    let count = match errors.len() {
        1 => "1 error".to_owned(),
        n => format!("{n} errors"),
    };
    format!("the configuration has {count}:\n{errors}")
}

pub fn run(command: &ConfigCommand, global: &GlobalArgs) -> anyhow::Result<()> {
    match command {
        ConfigCommand::Path => path(global),
        ConfigCommand::Show => show(global),
        ConfigCommand::Init { force } => init(global, *force),
        ConfigCommand::Check { file } => check(global, file.clone()),
    }
}

fn location(global: &GlobalArgs) -> anyhow::Result<ConfigLocation> {
    ConfigLocation::find(global.config_path().as_deref())
        .context("no config directory is known (HOME is not set); give a file with --config PATH")
}

fn path(global: &GlobalArgs) -> anyhow::Result<()> {
    let location = location(global)?;
    println!("{}", location.path.display());
    if !location.path.exists() {
        eprintln!(
            "(no file there yet: the built-in defaults apply; `xiangqi-tui config init` writes one)"
        );
    }
    Ok(())
}

fn show(global: &GlobalArgs) -> anyhow::Result<()> {
    let config = load(global)?;
    let toml = config
        .settings
        .to_toml()
        .context("cannot write the settings as TOML")?;
    let mut sources = vec!["built-in defaults".to_owned()];
    if let Some(path) = &config.file.path {
        sources.push(path.display().to_string());
    }
    if let Some(profile) = &config.profile {
        sources.push(format!("profile \"{profile}\""));
    }
    if config.flags != SettingsLayer::default() {
        sources.push("command-line flags".to_owned());
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "# Effective settings: {}", sources.join(" < "))?;
    write!(out, "{toml}")?;
    Ok(())
}

fn init(global: &GlobalArgs, force: bool) -> anyhow::Result<()> {
    let location = location(global)?;
    let path = &location.path;
    if path.exists() && !force {
        bail!(
            "{} already exists; use `config init --force` to overwrite it",
            path.display()
        );
    }
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    std::fs::write(path, SAMPLE_CONFIG)
        .with_context(|| format!("cannot write {}", path.display()))?;
    println!("wrote {}", path.display());
    Ok(())
}

fn check(global: &GlobalArgs, file: Option<PathBuf>) -> anyhow::Result<()> {
    let location = match file {
        Some(path) => ConfigLocation {
            path,
            explicit: true,
        },
        None => location(global)?,
    };
    let shown = location.path.display().to_string();
    let exists = location.path.exists();
    match load_from(Some(location), global) {
        // A check reports a broken theme file even if nothing uses it yet.
        Ok(config) if !config.warnings.is_empty() => {
            println!("{}", config.warnings);
            bail!(describe_errors_count(&config.warnings))
        }
        Ok(config) if exists => {
            let profiles = config.profile_names();
            if profiles.is_empty() {
                println!("{shown}: ok");
            } else {
                println!("{shown}: ok (profiles: {})", profiles.join(", "));
            }
            Ok(())
        }
        Ok(_) => {
            println!("{shown}: no file; the built-in defaults apply");
            Ok(())
        }
        Err(errors) => {
            println!("{errors}");
            bail!(describe_errors_count(&errors))
        }
    }
}

fn describe_errors_count(errors: &ConfigErrors) -> String {
    match errors.len() {
        1 => "1 configuration error".to_owned(),
        n => format!("{n} configuration errors"),
    }
}
