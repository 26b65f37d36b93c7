//! The `[engines.NAME]` tables: external engines the player can pick as the opponent
//! (`engine = "NAME"`). Every key is checked against its span like the settings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use toml::Spanned;
use toml::de::DeValue;

use super::document::{ErrorSink, raw_value};
use super::error::ConfigProblem;
use super::raw_value::RawValue;
use super::suggest::closest;
use xiangqi_engine::external::{EngineSpec, Protocol};

/// Top-level table holding the `[engines.NAME]` tables.
pub const ENGINES_KEY: &str = "engines";
/// Keys an engine table may hold.
const ENGINE_KEYS: &[&str] = &[
    "command",
    "args",
    "protocol",
    "options",
    "dir",
    "handshake_timeout_ms",
];
/// Longest handshake timeout a table may ask for (10 minutes).
const MAX_HANDSHAKE_MS: i64 = 600_000;

/// The names of the `[engines.NAME]` tables, broken ones included (so a setting naming
/// one is not reported as well).
pub(super) fn engine_table_names(value: &Spanned<DeValue<'_>>) -> Vec<String> {
    match value.get_ref() {
        DeValue::Table(table) => table
            .keys()
            .map(|name| name.get_ref().to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// Reads the `engines` table; `folder` is the config file's, which relative `dir`
/// paths start from.
pub(super) fn read_engines(
    sink: &mut ErrorSink<'_>,
    value: &Spanned<DeValue<'_>>,
    folder: &Path,
) -> BTreeMap<String, EngineSpec> {
    let mut engines = BTreeMap::new();
    let DeValue::Table(table) = value.get_ref() else {
        sink.report(
            value.span(),
            ConfigProblem::WrongType {
                key: ENGINES_KEY.to_owned(),
                expected: "a table of engines ([engines.NAME] sections)".to_owned(),
                found: raw_value(value.get_ref()).describe(),
            },
        );
        return engines;
    };
    for (name, body) in table {
        let name = name.get_ref().as_ref();
        let shown = format!("{ENGINES_KEY}.{name}");
        if name == super::settings::BUILTIN_ENGINE {
            sink.report(
                body.span(),
                ConfigProblem::Invalid {
                    key: shown,
                    value: name.to_owned(),
                    reason: "the name is taken by the in-process engine".to_owned(),
                },
            );
            continue;
        }
        if let Some(spec) = read_engine(sink, &shown, body, folder) {
            engines.insert(name.to_owned(), spec);
        }
    }
    engines
}

fn read_engine(
    sink: &mut ErrorSink<'_>,
    shown: &str,
    body: &Spanned<DeValue<'_>>,
    folder: &Path,
) -> Option<EngineSpec> {
    let DeValue::Table(table) = body.get_ref() else {
        sink.report(
            body.span(),
            ConfigProblem::WrongType {
                key: shown.to_owned(),
                expected: "a table ([engines.NAME] section)".to_owned(),
                found: raw_value(body.get_ref()).describe(),
            },
        );
        return None;
    };
    let mut spec = EngineSpec::new(PathBuf::new(), Vec::new(), Protocol::Uci);
    let mut command = None;
    for (key, value) in table {
        let key_name = key.get_ref().as_ref();
        let shown_key = format!("{shown}.{key_name}");
        let raw = raw_value(value.get_ref());
        let wrong = |expected: &str| ConfigProblem::WrongType {
            key: shown_key.clone(),
            expected: expected.to_owned(),
            found: raw.describe(),
        };
        let problem = match (key_name, raw) {
            ("command", RawValue::String(text)) if !text.trim().is_empty() => {
                command = Some(PathBuf::from(text));
                None
            }
            ("command", _) => Some(wrong("the program to run (a non-empty string)")),
            ("dir", RawValue::String(text)) if !text.is_empty() => {
                spec.dir = Some(folder.join(text));
                None
            }
            ("dir", _) => Some(wrong("a folder path (a string)")),
            ("protocol", RawValue::String(text)) => match text.parse::<Protocol>() {
                Ok(protocol) => {
                    spec.protocol = protocol;
                    None
                }
                Err(()) => Some(ConfigProblem::UnknownName {
                    key: shown_key.clone(),
                    kind: "protocol".to_owned(),
                    value: text.to_owned(),
                    suggestion: closest(text, Protocol::NAMES.iter().copied()).map(str::to_owned),
                    allowed: Protocol::NAMES
                        .iter()
                        .map(|name| (*name).to_owned())
                        .collect(),
                }),
            },
            ("protocol", _) => Some(wrong("a string, one of \"uci\", \"ucci\"")),
            ("handshake_timeout_ms", RawValue::Integer(ms))
                if (1..=MAX_HANDSHAKE_MS).contains(&ms) =>
            {
                spec.handshake_timeout = Duration::from_millis(ms as u64);
                None
            }
            ("handshake_timeout_ms", RawValue::Integer(ms)) => Some(ConfigProblem::OutOfRange {
                key: shown_key.clone(),
                value: ms.to_string(),
                allowed: super::error::range_text(1, MAX_HANDSHAKE_MS),
            }),
            ("handshake_timeout_ms", _) => Some(wrong("an integer (milliseconds)")),
            ("args", _) => match value.get_ref() {
                DeValue::Array(items) => {
                    let mut args = Vec::new();
                    for item in items {
                        match item.get_ref() {
                            DeValue::String(text) => args.push(text.to_string()),
                            other => {
                                sink.report(
                                    item.span(),
                                    ConfigProblem::WrongType {
                                        key: shown_key.clone(),
                                        expected: "an array of strings".to_owned(),
                                        found: format!("{} in it", raw_value(other).describe()),
                                    },
                                );
                            }
                        }
                    }
                    spec.args = args;
                    None
                }
                _ => Some(wrong("an array of strings")),
            },
            ("options", _) => match value.get_ref() {
                DeValue::Table(options) => {
                    for (option, option_value) in options {
                        let text = match raw_value(option_value.get_ref()) {
                            RawValue::String(text) => text.to_owned(),
                            RawValue::Integer(number) => number.to_string(),
                            RawValue::Boolean(flag) => flag.to_string(),
                            other => {
                                sink.report(
                                    option_value.span(),
                                    ConfigProblem::WrongType {
                                        key: format!("{shown_key}.{}", option.get_ref()),
                                        expected: "a string, an integer or a boolean".to_owned(),
                                        found: other.describe(),
                                    },
                                );
                                continue;
                            }
                        };
                        spec.options.push((option.get_ref().to_string(), text));
                    }
                    None
                }
                _ => Some(wrong("a table of engine options ({ Hash = 64 })")),
            },
            _ => Some(ConfigProblem::UnknownKey {
                key: shown_key.clone(),
                suggestion: closest(key_name, ENGINE_KEYS.iter().copied()).map(str::to_owned),
                allowed: ENGINE_KEYS.iter().map(|key| (*key).to_owned()).collect(),
            }),
        };
        if let Some(problem) = problem {
            let span = if matches!(problem, ConfigProblem::UnknownKey { .. }) {
                key.span()
            } else {
                value.span()
            };
            sink.report(span, problem);
        }
    }
    match command {
        // Kept even with errors in other keys, so `engine = "NAME"` is not reported too.
        Some(command) => {
            spec.command = command;
            Some(spec)
        }
        None => {
            sink.report(
                body.span(),
                ConfigProblem::MissingKeys {
                    keys: vec![format!("{shown}.command")],
                    reason: "an engine needs the program to run".to_owned(),
                },
            );
            None
        }
    }
}
