//! `xiangqi-tui config ...` run as a program, with its home and config directories
//! in a temporary sandbox.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;
use xiangqi_app::config::theme::ThemeSet;
use xiangqi_app::config::{ConfigFile, SAMPLE_CONFIG, Settings, SettingsLayer};

/// A temporary home and XDG directories; the program must not write elsewhere.
struct Sandbox {
    root: TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        let root = tempfile::Builder::new()
            .prefix("xiangqi-tui-config-test")
            .tempdir()
            .unwrap();
        for dir in ["home", "config", "data", "cache", "state", "runtime"] {
            std::fs::create_dir(root.path().join(dir)).unwrap();
        }
        Sandbox { root }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.path().join(relative)
    }

    fn config_file(&self) -> PathBuf {
        self.path("config/xiangqi-tui/config.toml")
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, &[])
    }

    fn run_with(&self, args: &[&str], env: &[(&str, &Path)]) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"));
        command
            .args(args)
            .current_dir(self.root.path())
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("config"))
            .env("XDG_DATA_HOME", self.path("data"))
            .env("XDG_CACHE_HOME", self.path("cache"))
            .env("XDG_STATE_HOME", self.path("state"))
            .env("XDG_RUNTIME_DIR", self.path("runtime"))
            .env("RUST_BACKTRACE", "0")
            .env("RUST_LIB_BACKTRACE", "0")
            .env_remove("XIANGQI_TUI_CONFIG");
        for (name, value) in env {
            command.env(name, value);
        }
        command.output().unwrap()
    }

    /// Every file under the sandbox, relative to it.
    fn files(&self) -> Vec<String> {
        fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, root, out);
                } else {
                    let relative = path.strip_prefix(root).unwrap();
                    out.push(relative.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        let mut files = Vec::new();
        walk(self.root.path(), self.root.path(), &mut files);
        files.sort();
        files
    }
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[track_caller]
fn succeeded(output: &Output) -> String {
    assert!(
        output.status.success(),
        "failed: {}\n{}",
        stdout(output),
        stderr(output)
    );
    stdout(output)
}

#[track_caller]
fn failed(output: &Output) -> String {
    assert!(!output.status.success(), "succeeded: {}", stdout(output));
    stderr(output)
}

/// The settings a `config show` output stands for.
fn parse_shown(text: &str) -> Settings {
    let file = ConfigFile::parse(text, Path::new("shown.toml"), &ThemeSet::builtin().names())
        .unwrap_or_else(|errors| panic!("config show printed an invalid config:\n{errors}"));
    file.resolve(None, &SettingsLayer::default()).unwrap()
}

fn without_comments(text: &str) -> String {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn path_names_the_file_in_the_platform_config_dir() {
    let sandbox = Sandbox::new();
    let printed = succeeded(&sandbox.run(&["config", "path"]));
    assert_eq!(PathBuf::from(printed.trim()), sandbox.config_file());
}

#[test]
fn init_then_show_round_trips() {
    let sandbox = Sandbox::new();
    let printed = succeeded(&sandbox.run(&["config", "init"]));
    assert!(printed.contains(&sandbox.config_file().display().to_string()));
    assert_eq!(
        std::fs::read_to_string(sandbox.config_file()).unwrap(),
        SAMPLE_CONFIG
    );

    let shown = succeeded(&sandbox.run(&["config", "show"]));
    assert_eq!(parse_shown(&shown), Settings::default());

    // The shown text is itself a config that shows the same way.
    let copy = sandbox.path("home/shown.toml");
    std::fs::write(&copy, &shown).unwrap();
    let copy_arg = copy.to_str().unwrap();
    let shown_again = succeeded(&sandbox.run(&["--config", copy_arg, "config", "show"]));
    assert_eq!(without_comments(&shown_again), without_comments(&shown));

    // With a profile and flags too.
    let studied = succeeded(&sandbox.run(&["config", "show", "--profile", "study", "--hash", "8"]));
    std::fs::write(&copy, &studied).unwrap();
    let studied_again = succeeded(&sandbox.run(&["config", "show", "--config", copy_arg]));
    assert_eq!(without_comments(&studied_again), without_comments(&studied));
    assert_eq!(parse_shown(&studied).hash_mb, 8);
}

#[test]
fn global_flags_work_before_and_after_the_subcommand() {
    let sandbox = Sandbox::new();
    succeeded(&sandbox.run(&["config", "init"]));
    let before = succeeded(&sandbox.run(&[
        "--profile",
        "study",
        "--depth",
        "5",
        "--ascii",
        "config",
        "show",
    ]));
    let after = succeeded(&sandbox.run(&[
        "config",
        "show",
        "--profile",
        "study",
        "--depth",
        "5",
        "--ascii",
    ]));
    assert_eq!(before, after);
    let settings = parse_shown(&after);
    assert_eq!(settings.depth, Some(5));
    assert_eq!(settings.algorithm.as_str(), "sss");
    assert_eq!(settings.glyphs.as_str(), "ascii");
    assert!(settings.step);
    assert!(after.starts_with("# Effective settings: built-in defaults < "));
    assert!(
        after
            .lines()
            .next()
            .unwrap()
            .ends_with("< profile \"study\" < command-line flags")
    );
}

#[test]
fn init_never_overwrites_without_force() {
    let sandbox = Sandbox::new();
    succeeded(&sandbox.run(&["config", "init"]));
    std::fs::write(sandbox.config_file(), "depth = 3\n").unwrap();

    let message = failed(&sandbox.run(&["config", "init"]));
    assert!(message.contains("already exists"), "{message}");
    assert!(message.contains("--force"), "{message}");
    assert_eq!(
        std::fs::read_to_string(sandbox.config_file()).unwrap(),
        "depth = 3\n"
    );

    succeeded(&sandbox.run(&["config", "init", "--force"]));
    assert_eq!(
        std::fs::read_to_string(sandbox.config_file()).unwrap(),
        SAMPLE_CONFIG
    );
}

#[test]
fn the_program_touches_nothing_outside_its_config_dir() {
    let sandbox = Sandbox::new();
    for args in [
        &["config", "path"][..],
        &["config", "show"],
        &["config", "check"],
        &["config", "init"],
        &["config", "show", "--profile", "beginner"],
        &["config", "check"],
    ] {
        succeeded(&sandbox.run(args));
    }
    assert_eq!(sandbox.files(), ["config/xiangqi-tui/config.toml"]);
}

#[test]
fn the_environment_variable_and_the_flag_choose_the_file() {
    let sandbox = Sandbox::new();
    let from_env = sandbox.path("home/env.toml");
    let from_flag = sandbox.path("home/flag.toml");
    std::fs::write(&from_env, "depth = 7\n").unwrap();
    std::fs::write(&from_flag, "depth = 9\n").unwrap();
    let env = [("XIANGQI_TUI_CONFIG", from_env.as_path())];

    let shown = succeeded(&sandbox.run_with(&["config", "show"], &env));
    assert_eq!(parse_shown(&shown).depth, Some(7));
    let path = succeeded(&sandbox.run_with(&["config", "path"], &env));
    assert_eq!(PathBuf::from(path.trim()), from_env);

    let flag = from_flag.to_str().unwrap();
    let shown = succeeded(&sandbox.run_with(&["config", "show", "--config", flag], &env));
    assert_eq!(parse_shown(&shown).depth, Some(9));

    // A file asked for by name must exist.
    let missing = sandbox.path("home/missing.toml");
    let message = failed(&sandbox.run(&["--config", missing.to_str().unwrap(), "config", "show"]));
    assert!(
        message.contains(&format!("{}: cannot read the file", missing.display())),
        "{message}"
    );
}

#[test]
fn check_lists_every_error_with_its_position() {
    let sandbox = Sandbox::new();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/configs/invalid/many_errors.toml");
    let output = sandbox.run(&["config", "check", fixture.to_str().unwrap()]);
    let summary = failed(&output);
    assert!(summary.contains("12 configuration errors"), "{summary}");
    let report = stdout(&output);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 12, "{report}");
    let prefix = format!("{}:", fixture.display());
    assert!(
        lines.iter().all(|line| line.starts_with(&prefix)),
        "{report}"
    );
    assert!(lines[0].starts_with(&format!("{prefix}2:13: `algorithm`")));
    assert!(lines[11].starts_with(&format!(
        "{prefix}15:1: unknown key `profiles.fast.movetime`"
    )));

    let valid = fixture.with_file_name("../valid/profiles.toml");
    let output = sandbox.run(&["config", "check", valid.to_str().unwrap()]);
    assert!(succeeded(&output).contains(": ok (profiles: quick, study)"));
}

#[test]
fn a_broken_config_or_bad_flags_stop_the_program_with_every_error() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.config_file().parent().unwrap()).unwrap();
    std::fs::write(sandbox.config_file(), "depth = 0\nthem = \"dark\"\n").unwrap();
    let message = failed(&sandbox.run(&["config", "show", "--trace-level", "loud"]));
    let file = sandbox.config_file().display().to_string();
    assert!(
        message.contains("the configuration has 3 errors:"),
        "{message}"
    );
    assert!(
        message.contains(&format!("{file}:1:9: `depth` = 0 is out of range")),
        "{message}"
    );
    assert!(message.contains(&format!(
        "{file}:2:1: unknown key `them` (did you mean `theme`?)"
    )));
    assert!(
        message.contains("--trace-level: `trace` = \"loud\" is not a known trace level"),
        "{message}"
    );

    std::fs::write(sandbox.config_file(), "[profiles.nosh]\n").unwrap();
    let message = failed(&sandbox.run(&["config", "show", "--profile", "nosuch"]));
    assert!(
        message.contains(
            "--profile: `profile` = \"nosuch\" is not a known profile (did you mean `nosh`?)"
        ),
        "{message}"
    );
}

#[test]
fn user_themes_are_offered_and_checked() {
    let sandbox = Sandbox::new();
    let themes = sandbox.path("config/xiangqi-tui/themes");
    std::fs::create_dir_all(&themes).unwrap();
    std::fs::write(
        themes.join("solar.toml"),
        "extends = \"dark\"\ndescription = \"mine\"\ngrid = \"#b58900\"\n",
    )
    .unwrap();
    let shown = succeeded(&sandbox.run(&["config", "show", "--theme", "solar"]));
    assert_eq!(parse_shown_with_theme(&shown, "solar"), "solar");

    std::fs::write(
        themes.join("broken.toml"),
        "extends = \"dark\"\ngrid = \"#b5890\"\n",
    )
    .unwrap();
    let output = sandbox.run(&["config", "check"]);
    failed(&output);
    let report = stdout(&output);
    let broken = themes.join("broken.toml").display().to_string();
    assert_eq!(
        report.trim_end(),
        format!(
            "{broken}:2:8: `grid` = \"#b5890\" is not a known colour; allowed: #rrggbb, \
             a palette index from 0 to 255, default, black, red, green, yellow, blue, magenta, cyan, \
             white, bright_black, bright_red, bright_green, bright_yellow, bright_blue, \
             bright_magenta, bright_cyan, bright_white"
        )
    );
    // Unused, it does not stop the program: a warning says what is wrong.
    let output = sandbox.run(&["config", "show"]);
    succeeded(&output);
    let warning = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        warning.starts_with(&format!("warning: {broken}:2:8: `grid`")),
        "{warning}"
    );
    assert!(
        warning.contains("(the theme is not used: ignored)"),
        "{warning}"
    );
    // Used, it stops it, reported once, not again as an unknown theme name.
    let message = failed(&sandbox.run(&["config", "show", "--theme", "broken"]));
    assert!(
        message.contains("the configuration has 1 error:"),
        "{message}"
    );
}

/// The `theme` of a shown config that uses a user theme (unknown to the built-in set).
fn parse_shown_with_theme(text: &str, theme: &str) -> String {
    let mut names = ThemeSet::builtin().names();
    names.push(theme.to_owned());
    let file = ConfigFile::parse(text, Path::new("shown.toml"), &names).unwrap();
    file.resolve(None, &SettingsLayer::default()).unwrap().theme
}
