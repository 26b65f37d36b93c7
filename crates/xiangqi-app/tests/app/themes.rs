//! User themes next to the config file, and what the TUI gets to draw with.

use xiangqi_app::config::ColorMode;
use xiangqi_app::config::theme::{AnsiColor, Color, ColorEnv, ColorLevel, Rgb, ThemeSet};

#[test]
fn a_user_theme_replaces_a_built_in_one_and_new_ones_are_added() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("classic.toml"),
        "extends = \"classic\"\ngrid = \"#000080\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("night.toml"),
        "extends = \"dark\"\ndescription = \"night\"\nboard = { bg = \"black\" }\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a theme").unwrap();

    let (set, errors) = ThemeSet::load(Some(dir.path()));
    assert!(errors.is_empty(), "{errors}");
    assert_eq!(set.names(), ["classic", "dark", "light", "mono", "night"]);
    let classic = set.get("classic").unwrap();
    assert_eq!(classic.grid.fg, Some(Color::Rgb(Rgb::new(0, 0, 0x80))));
    let builtin = ThemeSet::builtin();
    assert_eq!(classic.board, builtin.get("classic").unwrap().board);
    let night = set.get("night").unwrap();
    assert_eq!(night.description, "night");
    assert_eq!(night.board.bg, Some(Color::Ansi(AnsiColor::Black)));
    assert_eq!(night.board.fg, None, "a table replaces the whole part");
    assert_eq!(night.grid, builtin.get("dark").unwrap().grid);
}

#[test]
fn broken_user_themes_are_reported_and_left_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), "grid = [1, 2]\n").unwrap();
    let (set, errors) = ThemeSet::load(Some(dir.path()));
    assert!(set.get("bad").is_none());
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let bad = dir.path().join("bad.toml").display().to_string();
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(
        lines[0].starts_with(&format!("{bad}: missing `text`, `board`")),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with(&format!("{bad}:1:8: `grid` must be a colour")),
        "{}",
        lines[1]
    );
}

#[test]
fn a_missing_themes_folder_just_means_the_built_in_themes() {
    let dir = tempfile::tempdir().unwrap();
    let (set, errors) = ThemeSet::load(Some(&dir.path().join("themes")));
    assert!(errors.is_empty());
    assert_eq!(set, ThemeSet::builtin());
}

#[test]
fn an_ssh_session_gets_256_colours_of_the_chosen_theme() {
    // Over SSH: TERM is forwarded, COLORTERM is not.
    let env = ColorEnv {
        term: Some("xterm-256color".to_owned()),
        ..ColorEnv::default()
    };
    let level = ColorLevel::for_mode(ColorMode::Auto, &env);
    assert_eq!(level, ColorLevel::Ansi256);
    let theme = ThemeSet::builtin().for_display("dark", level).unwrap();
    assert_eq!(theme.name, "dark");
    assert!(matches!(theme.board.bg, Some(Color::Indexed(16..=255))));
    // --color never (or NO_COLOR) draws with the monochrome theme.
    let plain = ThemeSet::builtin()
        .for_display("dark", ColorLevel::for_mode(ColorMode::Never, &env))
        .unwrap();
    assert_eq!(plain.name, "mono");
}
