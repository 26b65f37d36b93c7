//! The `[server]` table: settings of `xiangqi-tui serve`. Every key is optional (the
//! command's defaults apply) and checked where it stands, like the other keys.

use std::net::SocketAddr;
use std::path::PathBuf;

use toml::Spanned;
use toml::de::DeValue;

use super::document::{ErrorSink, raw_value};
use super::error::ConfigProblem;
use super::raw_value::RawValue;
use super::suggest::closest;

/// The table's name in the file.
pub const SERVER_KEY: &str = "server";

/// Who may connect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServerAuth {
    /// Clients with a public key, and guests without one.
    #[default]
    Any,
    /// Only clients with a public key.
    Publickey,
}

/// The `[server]` table as written; `None`: not set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerTable {
    pub listen: Option<SocketAddr>,
    pub max_sessions: Option<u32>,
    pub max_per_address: Option<u32>,
    pub idle_timeout_s: Option<u32>,
    pub host_key: Option<PathBuf>,
    pub auth: Option<ServerAuth>,
    pub engine_threads: Option<u32>,
    pub engine_hash_mb: Option<u32>,
    pub input_bytes_per_second: Option<u32>,
    pub max_rooms: Option<u32>,
    pub room_expiry_min: Option<u32>,
    pub max_engine_queue: Option<u32>,
}

/// The keys, in the order the sample shows them.
pub const SERVER_KEYS: &[&str] = &[
    "listen",
    "max_sessions",
    "max_per_address",
    "idle_timeout_s",
    "host_key",
    "auth",
    "engine_threads",
    "engine_hash_mb",
    "input_bytes_per_second",
    "max_rooms",
    "room_expiry_min",
    "max_engine_queue",
];

fn number(key: &str, raw: RawValue<'_>, min: u32, max: u32) -> Result<u32, ConfigProblem> {
    let RawValue::Integer(value) = raw else {
        return Err(ConfigProblem::WrongType {
            key: key.to_owned(),
            expected: format!("an integer {}", super::error::range_text(min, max)),
            found: raw.describe(),
        });
    };
    u32::try_from(value)
        .ok()
        .filter(|value| (min..=max).contains(value))
        .ok_or_else(|| ConfigProblem::OutOfRange {
            key: key.to_owned(),
            value: value.to_string(),
            allowed: super::error::range_text(min, max),
        })
}

fn text<'a>(key: &str, raw: RawValue<'a>, expected: &str) -> Result<&'a str, ConfigProblem> {
    match raw {
        RawValue::String(text) => Ok(text),
        other => Err(ConfigProblem::WrongType {
            key: key.to_owned(),
            expected: expected.to_owned(),
            found: other.describe(),
        }),
    }
}

impl ServerTable {
    /// Sets `name` (shown as `server.NAME`) from `raw`.
    pub fn set(&mut self, name: &str, raw: RawValue<'_>) -> Result<(), ConfigProblem> {
        let key = format!("{SERVER_KEY}.{name}");
        match name {
            "listen" => {
                let value = text(&key, raw, "an address and port like \"127.0.0.1:2222\"")?;
                let address = value.parse().map_err(|_| ConfigProblem::WrongType {
                    key: key.clone(),
                    expected: "an address and port like \"127.0.0.1:2222\"".to_owned(),
                    found: raw.describe(),
                })?;
                self.listen = Some(address);
            }
            "max_sessions" => self.max_sessions = Some(number(&key, raw, 1, 10_000)?),
            "max_per_address" => self.max_per_address = Some(number(&key, raw, 1, 10_000)?),
            "idle_timeout_s" => self.idle_timeout_s = Some(number(&key, raw, 10, 86_400)?),
            "host_key" => {
                let value = text(&key, raw, "a file path")?;
                if value.is_empty() {
                    return Err(ConfigProblem::WrongType {
                        key,
                        expected: "a file path".to_owned(),
                        found: "an empty string".to_owned(),
                    });
                }
                self.host_key = Some(PathBuf::from(value));
            }
            "auth" => {
                let value = text(&key, raw, "\"any\" or \"publickey\"")?;
                self.auth = Some(match value {
                    "any" => ServerAuth::Any,
                    "publickey" => ServerAuth::Publickey,
                    other => {
                        let allowed = vec!["any".to_owned(), "publickey".to_owned()];
                        return Err(ConfigProblem::UnknownName {
                            key,
                            kind: "authentication mode".to_owned(),
                            value: other.to_owned(),
                            suggestion: closest(other, allowed.iter().map(String::as_str))
                                .map(str::to_owned),
                            allowed,
                        });
                    }
                });
            }
            "engine_threads" => self.engine_threads = Some(number(&key, raw, 1, 1024)?),
            "engine_hash_mb" => self.engine_hash_mb = Some(number(&key, raw, 1, 65_536)?),
            "input_bytes_per_second" => {
                self.input_bytes_per_second = Some(number(&key, raw, 64, 1_048_576)?)
            }
            "max_rooms" => self.max_rooms = Some(number(&key, raw, 1, 100_000)?),
            "room_expiry_min" => self.room_expiry_min = Some(number(&key, raw, 1, 10_080)?),
            "max_engine_queue" => self.max_engine_queue = Some(number(&key, raw, 1, 10_000)?),
            _ => {
                let allowed: Vec<String> = SERVER_KEYS.iter().map(|k| (*k).to_owned()).collect();
                return Err(ConfigProblem::UnknownKey {
                    key,
                    suggestion: closest(name, SERVER_KEYS.iter().copied()).map(str::to_owned),
                    allowed,
                });
            }
        }
        Ok(())
    }
}

/// The one place the `[server]` precedence is decided: `serve`'s flags over the config
/// file's table. What neither sets keeps the server's default.
pub fn merge_server(file: &ServerTable, flags: &ServerTable) -> ServerTable {
    ServerTable {
        listen: flags.listen.or(file.listen),
        max_sessions: flags.max_sessions.or(file.max_sessions),
        max_per_address: flags.max_per_address.or(file.max_per_address),
        idle_timeout_s: flags.idle_timeout_s.or(file.idle_timeout_s),
        host_key: flags.host_key.clone().or_else(|| file.host_key.clone()),
        auth: flags.auth.or(file.auth),
        engine_threads: flags.engine_threads.or(file.engine_threads),
        engine_hash_mb: flags.engine_hash_mb.or(file.engine_hash_mb),
        input_bytes_per_second: flags.input_bytes_per_second.or(file.input_bytes_per_second),
        max_rooms: flags.max_rooms.or(file.max_rooms),
        room_expiry_min: flags.room_expiry_min.or(file.room_expiry_min),
        max_engine_queue: flags.max_engine_queue.or(file.max_engine_queue),
    }
}

/// Reads the `[server]` table, reporting each bad key at its place.
pub(super) fn read(sink: &mut ErrorSink<'_>, value: &Spanned<DeValue<'_>>) -> ServerTable {
    let mut table = ServerTable::default();
    let DeValue::Table(entries) = value.get_ref() else {
        sink.report(
            value.span(),
            ConfigProblem::WrongType {
                key: SERVER_KEY.to_owned(),
                expected: "a table ([server] section)".to_owned(),
                found: raw_value(value.get_ref()).describe(),
            },
        );
        return table;
    };
    for (key, entry) in entries {
        let name = key.get_ref().as_ref();
        if let Err(problem) = table.set(name, raw_value(entry.get_ref())) {
            let span = if matches!(problem, ConfigProblem::UnknownKey { .. }) {
                key.span()
            } else {
                entry.span()
            };
            sink.report(span, problem);
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::ConfigFile;

    use super::*;

    #[test]
    fn flags_win_over_the_file_key_by_key() {
        let file = ServerTable {
            listen: Some("0.0.0.0:2200".parse().unwrap()),
            max_sessions: Some(50),
            auth: Some(ServerAuth::Publickey),
            ..ServerTable::default()
        };
        let flags = ServerTable {
            max_sessions: Some(7),
            host_key: Some(PathBuf::from("key")),
            ..ServerTable::default()
        };
        let merged = merge_server(&file, &flags);
        assert_eq!(merged.listen, file.listen);
        assert_eq!(merged.max_sessions, Some(7));
        assert_eq!(merged.host_key, Some(PathBuf::from("key")));
        assert_eq!(merged.auth, Some(ServerAuth::Publickey));
        assert_eq!(merged.idle_timeout_s, None);
        assert_eq!(merge_server(&ServerTable::default(), &file), file);
    }

    #[test]
    fn a_valid_table_is_read_and_bad_keys_are_reported_where_they_stand() {
        let text = "[server]\nlisten = \"0.0.0.0:2200\"\nmax_sessions = 50\nauth = \"publickey\"\n";
        let file = ConfigFile::parse(text, Path::new("c.toml"), &[]).unwrap();
        assert_eq!(file.server.listen, Some("0.0.0.0:2200".parse().unwrap()));
        assert_eq!(file.server.max_sessions, Some(50));
        assert_eq!(file.server.auth, Some(ServerAuth::Publickey));
        let bad = "[server]\nlisten = \"nowhere\"\nmax_sessions = 0\nauth = \"pubkey\"\nport = 1\n";
        let errors = ConfigFile::parse(bad, Path::new("c.toml"), &[])
            .unwrap_err()
            .to_string();
        assert!(errors.contains("c.toml:2:10"), "{errors}");
        assert!(
            errors.contains("`server.max_sessions` = 0 is out of range"),
            "{errors}"
        );
        assert!(errors.contains("c.toml:4:8"), "{errors}");
        assert!(errors.contains("did you mean `publickey`"), "{errors}");
        assert!(errors.contains("unknown key `server.port`"), "{errors}");
    }
}
