//! The fixture files in `tests/data/configs/`: valid ones load to the expected
//! settings, each invalid one gives its errors at the right line, column and key.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use xiangqi_app::config::theme::ThemeSet;
use xiangqi_app::config::{
    Algorithm, BookSource, ColorMode, ConfigFile, EngineSide, Glyphs, Notation, Origin, Settings,
    SettingsLayer, SideTime, Threads, TraceLevel,
};
use xiangqi_engine::external::Protocol;

fn fixture(name: &str) -> PathBuf {
    Path::new(crate::TOP).join("tests/data/configs").join(name)
}

fn themes() -> Vec<String> {
    ThemeSet::builtin().names()
}

fn load(name: &str) -> ConfigFile {
    ConfigFile::load(&fixture(name), &themes()).unwrap_or_else(|errors| panic!("{errors}"))
}

fn resolve(file: &ConfigFile, profile: Option<&str>) -> Settings {
    file.resolve(profile, &SettingsLayer::default()).unwrap()
}

#[test]
fn an_empty_file_gives_the_defaults() {
    let file = load("valid/empty.toml");
    assert_eq!(file.path, Some(fixture("valid/empty.toml")));
    assert_eq!(resolve(&file, None), Settings::default());
}

#[test]
fn every_key_can_be_set() {
    let file = load("valid/every_key.toml");
    let expected = Settings {
        algorithm: Algorithm::Mtdf,
        depth: Some(12),
        movetime_ms: Some(2500),
        nodes: Some(1_000_000),
        hash_mb: 128,
        threads: Threads::Auto,
        trace: TraceLevel::Nodes,
        step: true,
        engine_side: EngineSide::Red,
        theme: "dark".to_owned(),
        glyphs: Glyphs::Wide,
        notation: Notation::Wxf,
        color: ColorMode::Ansi256,
        book: BookSource::File("books/mine.xqb".to_owned()),
        book_variety: 75,
        level: 7,
        multipv: 5,
        time: Some("40/90+30".parse().unwrap()),
        time_red: SideTime::Untimed,
        time_black: SideTime::Control("5m/move".parse().unwrap()),
        engine: "other".to_owned(),
        explorer_nodes: 5000,
    };
    assert_eq!(resolve(&file, None), expected);
    let engine = &file.engines["other"];
    assert_eq!(engine.command, Path::new("./other-engine"));
    assert_eq!(engine.args, ["--uci", "-q"]);
    assert_eq!(engine.protocol, Protocol::Ucci);
    assert_eq!(
        engine.options,
        [("Hash", "64"), ("Name", "x"), ("Ponder", "false")]
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
    );
    assert_eq!(engine.dir, Some(fixture("valid/engines")));
    assert_eq!(
        engine.handshake_timeout,
        std::time::Duration::from_millis(500)
    );
}

#[test]
fn the_profile_key_picks_the_default_profile() {
    let file = load("valid/profiles.toml");
    assert_eq!(file.default_profile.as_deref(), Some("study"));
    assert_eq!(file.profile_names(), ["quick", "study"]);
    let study = Settings {
        algorithm: Algorithm::Sss,
        depth: Some(3),
        movetime_ms: None,
        trace: TraceLevel::Events,
        step: true,
        theme: "light".to_owned(),
        ..Settings::default()
    };
    assert_eq!(resolve(&file, None), study);
    let quick = Settings {
        depth: Some(8),
        movetime_ms: Some(200),
        glyphs: Glyphs::Ascii,
        theme: "light".to_owned(),
        ..Settings::default()
    };
    assert_eq!(resolve(&file, Some("quick")), quick);
}

#[test]
fn names_are_case_insensitive_and_limits_can_be_off() {
    let file = load("valid/case_and_limits.toml");
    let expected = Settings {
        algorithm: Algorithm::BStar,
        depth: None,
        movetime_ms: None,
        nodes: Some(5000),
        color: ColorMode::Never,
        ..Settings::default()
    };
    assert_eq!(resolve(&file, None), expected);
}

#[test]
fn an_unknown_profile_on_the_command_line_is_an_error() {
    let file = load("valid/profiles.toml");
    let error = file
        .resolve(Some("studdy"), &SettingsLayer::default())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "--profile: `profile` = \"studdy\" is not a known profile (did you mean `study`?); \
         allowed: quick, study"
    );
}

#[test]
fn the_example_profiles_are_valid_and_do_what_they_say() {
    let path = Path::new(crate::TOP).join("examples/profiles.toml");
    let file = ConfigFile::load(&path, &themes()).unwrap_or_else(|errors| panic!("{errors}"));
    let profile = |name: &str| resolve(&file, Some(name));

    let beginner = profile("beginner");
    assert_eq!(beginner.depth, Some(2));
    assert!(beginner.movetime_ms.is_some_and(|ms| ms <= 1000));

    let sss = profile("sss-study");
    assert_eq!(sss.algorithm, Algorithm::Sss);
    assert!(sss.step);
    assert_eq!(sss.trace, TraceLevel::Events);

    let bstar = profile("bstar-study");
    assert_eq!(bstar.algorithm, Algorithm::BStar);
    assert_eq!(bstar.trace, TraceLevel::Events);
    assert!(
        bstar.nodes.is_some(),
        "a B* study search must end on its own"
    );

    let full = profile("full-strength");
    assert_eq!(full.depth, None);
    assert!(full.movetime_ms.is_some_and(|ms| ms >= 5000));
    assert!(full.hash_mb > Settings::default().hash_mb);
    assert_eq!(full.threads, Threads::Auto);

    assert_eq!(profile("watch").engine_side, EngineSide::Both);
    assert_eq!(profile("two-players").engine_side, EngineSide::None);
    // Every profile that searches without a time limit has another limit.
    for name in file.profile_names() {
        let settings = profile(&name);
        let limited =
            settings.depth.is_some() || settings.movetime_ms.is_some() || settings.nodes.is_some();
        assert!(limited, "{name} would search forever");
    }
}

/// `(line, column, key, message)` for each error a fixture must give, in order.
type Expected = &'static [(usize, usize, Option<&'static str>, &'static str)];

const INVALID: &[(&str, Expected)] = &[
    (
        "time_and_engines.toml",
        &[
            (
                1,
                8,
                Some("time"),
                "`time` = \"10\" is not valid: the increment is missing (10+0 for none)",
            ),
            (
                2,
                12,
                Some("time_red"),
                "`time_red` = \"5/move\" is not valid: a time per move needs a unit, m or s \
                 (5m/move)",
            ),
            (
                3,
                10,
                Some("engine"),
                "`engine` = \"pikafsh\" is not a known engine (did you mean `pikafish`?); \
                 allowed: builtin, nothing, pikafish",
            ),
            (
                5,
                1,
                Some("engines.pikafish.command"),
                "missing `engines.pikafish.command`: an engine needs the program to run",
            ),
            (
                6,
                12,
                Some("engines.pikafish.protocol"),
                "`engines.pikafish.protocol` = \"usi\" is not a known protocol; allowed: uci, ucci",
            ),
            (
                7,
                20,
                Some("engines.pikafish.options.Hash"),
                "`engines.pikafish.options.Hash` must be a string, an integer or a boolean, \
                 found a float",
            ),
            (
                8,
                8,
                Some("engines.pikafish.args"),
                "`engines.pikafish.args` must be an array of strings, found the string \"fast\"",
            ),
            (
                9,
                24,
                Some("engines.pikafish.handshake_timeout_ms"),
                "`engines.pikafish.handshake_timeout_ms` = 0 is out of range: it must be from 1 to 600000",
            ),
            (
                10,
                1,
                Some("engines.pikafish.wait"),
                "unknown key `engines.pikafish.wait`; allowed keys: command, args, protocol, \
                 options, dir, handshake_timeout_ms",
            ),
            (
                12,
                1,
                Some("engines.nothing.command"),
                "missing `engines.nothing.command`: an engine needs the program to run",
            ),
        ],
    ),
    (
        "unknown_key.toml",
        &[(
            3,
            1,
            Some("depht"),
            "unknown key `depht` (did you mean `depth`?); allowed keys: algorithm, depth, \
             movetime_ms, nodes, hash_mb, threads, trace, step, engine_side, theme, glyphs, notation, \
             color, book, book_variety, level, multipv, time, time_red, time_black, engine, explorer_nodes, profile, profiles, engines, server",
        )],
    ),
    (
        "wrong_type.toml",
        &[(
            1,
            9,
            Some("depth"),
            "`depth` must be an integer from 1 to 64, or \"none\", found the string \"deep\"",
        )],
    ),
    (
        "depth_out_of_range.toml",
        &[(
            2,
            11,
            Some("depth"),
            "`depth` = 65 is out of range: it must be from 1 to 64",
        )],
    ),
    (
        "zero_movetime.toml",
        &[(
            1,
            15,
            Some("movetime_ms"),
            "`movetime_ms` = 0 is out of range: it must be 1 or more",
        )],
    ),
    (
        "negative_hash.toml",
        &[(
            1,
            11,
            Some("hash_mb"),
            "`hash_mb` = -1 is out of range: it must be from 1 to 65536",
        )],
    ),
    (
        "float_depth.toml",
        &[(
            1,
            9,
            Some("depth"),
            "`depth` must be an integer from 1 to 64, or \"none\", found a float",
        )],
    ),
    (
        "unknown_algorithm.toml",
        &[(
            2,
            13,
            Some("algorithm"),
            "`algorithm` = \"alphabeat\" is not a known algorithm (did you mean `alphabeta`?); \
             allowed: minimax, alphabeta, sss, mtsss, mtdf, bstar",
        )],
    ),
    (
        "unknown_theme.toml",
        &[(
            1,
            9,
            Some("theme"),
            "`theme` = \"solarized\" is not a known theme; allowed: classic, dark, light, mono",
        )],
    ),
    (
        "unknown_profile.toml",
        &[(
            1,
            11,
            Some("profile"),
            "`profile` = \"begginer\" is not a known profile (did you mean `beginner`?); \
             allowed: beginner",
        )],
    ),
    (
        "step_not_bool.toml",
        &[(
            1,
            8,
            Some("step"),
            "`step` must be true or false, found the string \"yes\"",
        )],
    ),
    (
        "color_as_number.toml",
        &[(
            1,
            9,
            Some("color"),
            "`color` must be a string, one of \"auto\", \"truecolor\", \"256\", \"16\", \
             \"never\", found the integer 256",
        )],
    ),
    (
        "profile_unknown_key.toml",
        &[(
            3,
            1,
            Some("profiles.quiet.colour"),
            "unknown key `profiles.quiet.colour` (did you mean `color`?); allowed keys: \
             algorithm, depth, movetime_ms, nodes, hash_mb, threads, trace, step, engine_side, theme, \
             glyphs, notation, color, book, book_variety, level, multipv, time, time_red, time_black, engine, explorer_nodes",
        )],
    ),
    (
        "profile_not_table.toml",
        &[(
            2,
            12,
            Some("profiles.beginner"),
            "`profiles.beginner` must be a table of settings ([profiles.NAME] section), \
             found the integer 2",
        )],
    ),
    (
        "invalid_toml.toml",
        &[(
            2,
            14,
            None,
            "invalid TOML: invalid basic string, expected `\"`",
        )],
    ),
    (
        "duplicate_key.toml",
        &[(2, 1, Some("depth"), "invalid TOML: `depth` is set twice")],
    ),
    (
        "not_utf8.toml",
        &[(2, 6, None, "invalid TOML: the file is not valid UTF-8")],
    ),
    (
        "many_errors.toml",
        &[
            (
                2,
                13,
                Some("algorithm"),
                "`algorithm` = \"negamax\" is not a known algorithm; allowed: minimax, \
                 alphabeta, sss, mtsss, mtdf, bstar",
            ),
            (
                3,
                9,
                Some("depth"),
                "`depth` = 0 is out of range: it must be from 1 to 64",
            ),
            (
                4,
                15,
                Some("movetime_ms"),
                "`movetime_ms` = -100 is out of range: it must be 1 or more",
            ),
            (
                5,
                9,
                Some("nodes"),
                "`nodes` must be a positive integer, or \"none\", found the string \"lots\"",
            ),
            (
                6,
                11,
                Some("hash_mb"),
                "`hash_mb` = 100000 is out of range: it must be from 1 to 65536",
            ),
            (
                7,
                9,
                Some("trace"),
                "`trace` = \"verbose\" is not a known trace level; allowed: off, summary, \
                 nodes, events",
            ),
            (
                8,
                15,
                Some("engine_side"),
                "`engine_side` = \"white\" is not a known engine side; allowed: red, black, \
                 both, none",
            ),
            (
                9,
                10,
                Some("glyphs"),
                "`glyphs` = \"emoji\" is not a known glyph set; allowed: cjk, ascii, wide",
            ),
            (
                10,
                12,
                Some("notation"),
                "`notation` = \"san\" is not a known notation; allowed: chinese, wxf, iccs",
            ),
            (
                11,
                1,
                Some("colour"),
                "unknown key `colour` (did you mean `color`?); allowed keys: algorithm, \
                 depth, movetime_ms, nodes, hash_mb, threads, trace, step, engine_side, theme, glyphs, \
                 notation, color, book, book_variety, level, multipv, time, time_red, time_black, engine, explorer_nodes, profile, profiles, engines, server",
            ),
            (
                12,
                11,
                Some("profile"),
                "`profile` must be the name of a [profiles.NAME] table (a string), found the \
                 integer 3",
            ),
            (
                15,
                1,
                Some("profiles.fast.movetime"),
                "unknown key `profiles.fast.movetime` (did you mean `movetime_ms`?); allowed \
                 keys: algorithm, depth, movetime_ms, nodes, hash_mb, threads, trace, step, \
                 engine_side, theme, glyphs, notation, color, book, book_variety, level, multipv, time, time_red, time_black, engine, explorer_nodes",
            ),
        ],
    ),
];

#[test]
fn each_invalid_fixture_reports_every_error_where_it_is() {
    for (name, expected) in INVALID {
        let path = fixture(&format!("invalid/{name}"));
        let errors = ConfigFile::load(&path, &themes()).expect_err(name);
        let found: Vec<_> = errors
            .iter()
            .map(|error| {
                let (line, column) = error.line_column().expect("errors point into the file");
                assert!(
                    matches!(&error.origin, Origin::Position { path: p, .. } if *p == path),
                    "{name}: {error}"
                );
                (line, column, error.key(), error.problem.to_string())
            })
            .collect();
        let expected: Vec<_> = expected
            .iter()
            .map(|(line, column, key, message)| (*line, *column, *key, (*message).to_owned()))
            .collect();
        assert_eq!(found, expected, "{name}");
        // The displayed form is FILE:LINE:COL: message.
        let first = errors.iter().next().unwrap().to_string();
        let (line, column, _, message) = &expected[0];
        assert_eq!(
            first,
            format!("{}:{line}:{column}: {message}", path.display())
        );
    }
}

#[test]
fn every_fixture_is_checked() {
    let listed = |dir: &str| -> BTreeSet<String> {
        std::fs::read_dir(fixture(dir))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    let covered: BTreeSet<String> = INVALID.iter().map(|(name, _)| (*name).to_owned()).collect();
    assert_eq!(listed("invalid"), covered);
    let valid: BTreeSet<String> = [
        "empty.toml",
        "every_key.toml",
        "profiles.toml",
        "case_and_limits.toml",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(listed("valid"), valid);
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let path = fixture("no_such_file.toml");
    let errors = ConfigFile::load(&path, &themes()).unwrap_err();
    let message = errors.to_string();
    assert!(
        message.starts_with(&format!("{}: cannot read the file: ", path.display())),
        "{message}"
    );
}

mod never_panics {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Any text gives settings or errors with positions, never a panic.
        #[test]
        fn on_any_text(text in "\\PC{0,200}") {
            let _ = ConfigFile::parse(&text, Path::new("any.toml"), &themes());
        }

        /// Small edits of a real config, which stay close to valid TOML.
        #[test]
        fn on_edited_configs(at in 0usize..2000, insert in "[\\[\\]=\"'.#\\n a-z0-9_-]{0,6}") {
            let sample = xiangqi_app::config::SAMPLE_CONFIG;
            let mut at = at % (sample.len() + 1);
            while !sample.is_char_boundary(at) {
                at -= 1;
            }
            let text = format!("{}{insert}{}", &sample[..at], &sample[at..]);
            if let Err(errors) = ConfigFile::parse(&text, Path::new("edited.toml"), &themes()) {
                for error in &errors {
                    let (line, column) = error.line_column().expect("file errors have positions");
                    prop_assert!(line >= 1 && column >= 1);
                    prop_assert!(line <= text.lines().count() + 1);
                }
            }
        }
    }
}
