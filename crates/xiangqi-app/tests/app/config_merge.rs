//! The precedence, field by field: built-in defaults < config file < chosen profile
//! < command-line flags.

use std::path::Path;

use xiangqi_app::config::theme::ThemeSet;
use xiangqi_app::config::{
    Algorithm, ColorMode, ConfigFile, EngineSide, Glyphs, Notation, Overrides, RawValue,
    SettingKey, Settings, SettingsLayer, TraceLevel, merge,
};

fn themes() -> Vec<String> {
    ThemeSet::builtin().names()
}

/// Three values per key, all different from each other and from the default.
fn three_values(key: SettingKey) -> [RawValue<'static>; 3] {
    use RawValue::{Boolean, Integer, String as Str};
    match key {
        SettingKey::Algorithm => [Str("minimax"), Str("sss"), Str("bstar")],
        SettingKey::Depth => [Integer(10), Integer(4), Integer(2)],
        SettingKey::MovetimeMs => [Integer(5000), Str("none"), Integer(250)],
        SettingKey::Nodes => [Integer(100), Integer(200), Integer(300)],
        SettingKey::HashMb => [Integer(32), Integer(128), Integer(16)],
        SettingKey::Threads => [Integer(2), Str("auto"), Integer(8)],
        SettingKey::Trace => [Str("off"), Str("events"), Str("nodes")],
        // A boolean has one non-default value; the layers alternate it.
        SettingKey::Step => [Boolean(true), Boolean(false), Boolean(true)],
        SettingKey::EngineSide => [Str("red"), Str("both"), Str("none")],
        SettingKey::Theme => [Str("dark"), Str("light"), Str("mono")],
        SettingKey::Glyphs => [Str("wide"), Str("ascii"), Str("wide")],
        SettingKey::Notation => [Str("wxf"), Str("iccs"), Str("wxf")],
        SettingKey::Color => [Str("16"), Str("never"), Str("truecolor")],
        SettingKey::Book => [Str("none"), Str("my.book"), Str("other.book")],
        SettingKey::BookVariety => [Integer(0), Integer(100), Integer(55)],
        SettingKey::Level => [Integer(5), Integer(12), Integer(1)],
        SettingKey::Multipv => [Integer(2), Integer(4), Integer(10)],
        SettingKey::Time => [Str("10+5"), Str("none"), Str("40/90+30")],
        SettingKey::TimeRed => [Str("1+0"), Str("none"), Str("5m/move")],
        SettingKey::TimeBlack => [Str("none"), Str("3+2"), Str("same")],
        // The file reader checks the names against [engines]; a layer takes any.
        SettingKey::Engine => [Str("one"), Str("two"), Str("builtin")],
        SettingKey::ExplorerNodes => [Integer(1), Integer(5000), Integer(10_000_000)],
    }
}

/// A setting's value as `config show` prints it, to compare any key generically.
fn shown(settings: &Settings, key: SettingKey) -> toml::Value {
    let table: toml::Table = toml::from_str(&settings.to_toml().unwrap()).unwrap();
    table[key.name()].clone()
}

fn value_of(raw: RawValue<'_>) -> toml::Value {
    match raw {
        RawValue::String(text) => toml::Value::String(text.to_owned()),
        RawValue::Integer(number) => toml::Value::Integer(number),
        RawValue::Boolean(flag) => toml::Value::Boolean(flag),
        RawValue::Other(_) => unreachable!("the table above uses no other types"),
    }
}

fn layer(key: SettingKey, value: RawValue<'_>) -> SettingsLayer {
    let mut layer = SettingsLayer::default();
    layer.set(key, key.name(), value, &themes()).unwrap();
    layer
}

#[test]
fn each_field_takes_the_highest_layer_that_sets_it() {
    let empty = SettingsLayer::default();
    for &key in SettingKey::ALL {
        let [in_file, in_profile, in_flags] = three_values(key);
        let (file, profile, flags) = (
            layer(key, in_file),
            layer(key, in_profile),
            layer(key, in_flags),
        );
        let default = shown(&Settings::default(), key);
        let name = key.name();

        assert_eq!(shown(&merge(&empty, None, &empty), key), default, "{name}");
        assert_eq!(
            shown(&merge(&file, None, &empty), key),
            value_of(in_file),
            "{name}: file over defaults"
        );
        assert_eq!(
            shown(&merge(&file, Some(&profile), &empty), key),
            value_of(in_profile),
            "{name}: profile over file"
        );
        assert_eq!(
            shown(&merge(&file, Some(&profile), &flags), key),
            value_of(in_flags),
            "{name}: flags over profile"
        );
        assert_eq!(
            shown(&merge(&empty, Some(&profile), &empty), key),
            value_of(in_profile),
            "{name}: profile over defaults"
        );
        assert_eq!(
            shown(&merge(&file, Some(&empty), &flags), key),
            value_of(in_flags),
            "{name}: flags over file"
        );
        assert_eq!(
            shown(&merge(&file, Some(&empty), &empty), key),
            value_of(in_file),
            "{name}: a profile without the key keeps the file's"
        );
    }
}

#[test]
fn a_file_a_profile_and_flags_together() {
    let text = r#"
        profile = "study"
        algorithm = "minimax"
        depth = 10
        movetime_ms = 5000
        nodes = 100000
        hash_mb = 32
        trace = "off"
        step = true
        engine_side = "red"
        theme = "dark"
        glyphs = "wide"
        notation = "wxf"

        [profiles.study]
        algorithm = "sss"
        depth = 4
        trace = "events"
        engine_side = "both"
        theme = "light"
        notation = "iccs"

        [profiles.fast]
        movetime_ms = 100
    "#;
    let file = ConfigFile::parse(text, Path::new("config.toml"), &themes()).unwrap();
    let flags = Overrides {
        depth: Some(2),
        theme: Some("mono".to_owned()),
        ascii: true,
        ..Overrides::default()
    }
    .to_layer(&themes())
    .unwrap();
    let settings = file.resolve(None, &flags).unwrap();
    let expected = Settings {
        algorithm: Algorithm::Sss,     // profile over file
        depth: Some(2),                // flag over profile over file
        movetime_ms: Some(5000),       // file
        nodes: Some(100_000),          // file
        hash_mb: 32,                   // file
        trace: TraceLevel::Events,     // profile
        step: true,                    // file
        engine_side: EngineSide::Both, // profile
        theme: "mono".to_owned(),      // flag over profile over file
        glyphs: Glyphs::Ascii,         // flag over file
        notation: Notation::Iccs,      // profile
        color: ColorMode::Auto,        // default
        level: 20,                     // default
        multipv: 3,                    // default
        ..Settings::default()
    };
    assert_eq!(settings, expected);

    // --profile (or the TUI's profile switch) wins over the file's `profile` key.
    let settings = file.resolve(Some("fast"), &flags).unwrap();
    assert_eq!(settings.algorithm, Algorithm::Minimax);
    assert_eq!(settings.trace, TraceLevel::Off);
    assert_eq!(settings.movetime_ms, Some(100));
    assert_eq!(settings.depth, Some(2));
}
