//! The `[server]` table: settings of `xiangqi-tui serve`. Every key is optional (the
//! command's defaults apply) and checked where it stands, like the other keys.

use std::path::PathBuf;

use toml::Spanned;
use toml::de::DeValue;

use super::document::{ErrorSink, raw_value};
use super::error::ConfigProblem;
pub use super::listen_address::ListenAddress;
use super::raw_value::RawValue;
use super::suggest::closest;
use crate::game::is_key_fingerprint;

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
    /// Only the keys of `allow` (and the admins'); no guests.
    Allowlist,
}

impl ServerAuth {
    pub const NAMES: [&str; 3] = ["any", "publickey", "allowlist"];
}

/// The `[server]` table as written; `None`: not set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerTable {
    pub listen: Option<ListenAddress>,
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
    /// Jobs waiting for the pool (`max_engine_queue`, its older name, sets it too).
    pub jobs_queue: Option<u32>,
    pub login_grace_s: Option<u32>,
    pub channel_grace_s: Option<u32>,
    pub max_startups: Option<MaxStartups>,
    pub max_startups_per_address: Option<u32>,
    /// The time control of new rooms: `Some(None)` is `"none"`.
    pub time: Option<Option<xiangqi_core::clock::TimeControl>>,
    /// `HOST[:PORT]` people type to reach the server, for the `ssh` lines it shows.
    pub public_address: Option<String>,
    /// Key fingerprints (`SHA256:…`) that may moderate: kick, ban, close rooms.
    pub admins: Option<Vec<String>>,
    /// The keys that may sign in when `auth` is `allowlist`.
    pub allow: Option<Vec<String>>,
    /// Rooms one identity (a key, or a guest's address) may open per minute.
    pub rooms_per_minute: Option<u32>,
    /// Rooms with a game on one identity may have open at once.
    pub rooms_per_identity: Option<u32>,
    /// Minutes both players may be away before their game is adjourned.
    pub adjourn_after_min: Option<u32>,
    /// Days an adjourned game waits before it is scored.
    pub forfeit_after_days: Option<u32>,
    /// New names one address may pin per hour.
    pub new_names_per_hour: Option<u32>,
    /// Chat lines one identity may say per minute.
    pub say_per_minute: Option<u32>,
    /// Where Prometheus reads `/metrics` (none: no metrics).
    pub metrics: Option<ListenAddress>,
    /// Who may create tournaments.
    pub tournaments: Option<TournamentCreators>,
    /// Tournaments not finished yet one player (not an admin) may organise.
    pub max_tournaments_per_creator: Option<u32>,
    /// Players one tournament may have.
    pub max_tournament_players: Option<u32>,
    /// Seconds a tournament player has for a first move before losing by forfeit.
    pub tournament_no_show_s: Option<u32>,
}

/// Who may create tournaments (`[server] tournaments`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TournamentCreators {
    /// Only the admins.
    #[default]
    Admins,
    /// Every player with a key.
    Open,
}

impl TournamentCreators {
    pub const NAMES: [&str; 2] = ["admins", "open"];
}

/// OpenSSH's MaxStartups, `start:rate:full` (or a bare `full`): connections that have
/// not signed in. Below `start` all are accepted; from `start` on each new one is
/// dropped with a chance rising linearly from `rate` % to 100 % at `full`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxStartups {
    pub start: u32,
    pub rate: u32,
    pub full: u32,
}

impl MaxStartups {
    pub const DEFAULT: MaxStartups = MaxStartups {
        start: 10,
        rate: 30,
        full: 100,
    };

    /// Reads `start:rate:full` or `full`; `None` when malformed or inconsistent.
    pub fn parse(text: &str) -> Option<MaxStartups> {
        let numbers: Vec<u32> = text
            .split(':')
            .map(|part| part.trim().parse().ok())
            .collect::<Option<_>>()?;
        let limit = match numbers[..] {
            [full] => MaxStartups {
                start: full,
                rate: 100,
                full,
            },
            [start, rate, full] => MaxStartups { start, rate, full },
            _ => return None,
        };
        let valid = (1..=100).contains(&limit.rate)
            && (1..=100_000).contains(&limit.full)
            && limit.start <= limit.full;
        valid.then_some(limit)
    }
}

impl std::fmt::Display for MaxStartups {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.start, self.rate, self.full)
    }
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
    "jobs_queue",
    "max_engine_queue",
    "login_grace_s",
    "channel_grace_s",
    "max_startups",
    "max_startups_per_address",
    "time",
    "public_address",
    "admins",
    "allow",
    "rooms_per_minute",
    "rooms_per_identity",
    "adjourn_after_min",
    "forfeit_after_days",
    "new_names_per_hour",
    "say_per_minute",
    "metrics",
    "tournaments",
    "max_tournaments_per_creator",
    "max_tournament_players",
    "tournament_no_show_s",
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

fn address(key: &str, raw: RawValue<'_>, example: &str) -> Result<ListenAddress, ConfigProblem> {
    let expected = format!("an address and port like \"{example}\" (a host name too)");
    let value = text(key, raw, &expected)?;
    value.parse().map_err(|_| ConfigProblem::WrongType {
        key: key.to_owned(),
        expected,
        found: raw.describe(),
    })
}

const FINGERPRINTS_EXPECTED: &str = "an array of key fingerprints like [\"SHA256:…\"]";

/// An array of key fingerprints (`admins`, `allow`), each bad one reported where it
/// stands; `None` when the value is not an array.
fn fingerprints(
    sink: &mut ErrorSink<'_>,
    key: &str,
    value: &Spanned<DeValue<'_>>,
) -> Option<Vec<String>> {
    let DeValue::Array(items) = value.get_ref() else {
        sink.report(
            value.span(),
            ConfigProblem::WrongType {
                key: key.to_owned(),
                expected: FINGERPRINTS_EXPECTED.to_owned(),
                found: raw_value(value.get_ref()).describe(),
            },
        );
        return None;
    };
    let mut keys = Vec::new();
    for item in items {
        match item.get_ref() {
            DeValue::String(text) if is_key_fingerprint(text) => keys.push(text.to_string()),
            DeValue::String(text) => sink.report(
                item.span(),
                ConfigProblem::Invalid {
                    key: key.to_owned(),
                    value: text.to_string(),
                    reason: "a key fingerprint is SHA256: and 43 base64 characters, as \
                             `ssh-keygen -lf KEY.pub` prints it"
                        .to_owned(),
                },
            ),
            other => sink.report(
                item.span(),
                ConfigProblem::WrongType {
                    key: key.to_owned(),
                    expected: FINGERPRINTS_EXPECTED.to_owned(),
                    found: format!("{} in it", raw_value(other).describe()),
                },
            ),
        }
    }
    Some(keys)
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
            "listen" => self.listen = Some(address(&key, raw, "127.0.0.1:2222")?),
            "metrics" => self.metrics = Some(address(&key, raw, "127.0.0.1:9464")?),
            "rooms_per_minute" => self.rooms_per_minute = Some(number(&key, raw, 1, 10_000)?),
            "tournaments" => {
                let value = text(&key, raw, "\"admins\" or \"open\"")?;
                self.tournaments = Some(match value {
                    "admins" => TournamentCreators::Admins,
                    "open" => TournamentCreators::Open,
                    other => {
                        let allowed: Vec<String> = TournamentCreators::NAMES
                            .iter()
                            .map(|name| (*name).to_owned())
                            .collect();
                        return Err(ConfigProblem::UnknownName {
                            key,
                            kind: "tournament creators".to_owned(),
                            value: other.to_owned(),
                            suggestion: closest(other, allowed.iter().map(String::as_str))
                                .map(str::to_owned),
                            allowed,
                        });
                    }
                });
            }
            "max_tournaments_per_creator" => {
                self.max_tournaments_per_creator = Some(number(&key, raw, 1, 1000)?)
            }
            "max_tournament_players" => {
                self.max_tournament_players = Some(number(&key, raw, 2, 2000)?)
            }
            "tournament_no_show_s" => {
                self.tournament_no_show_s = Some(number(&key, raw, 10, 3600)?)
            }
            "rooms_per_identity" => self.rooms_per_identity = Some(number(&key, raw, 1, 10_000)?),
            "adjourn_after_min" => self.adjourn_after_min = Some(number(&key, raw, 1, 10_080)?),
            "forfeit_after_days" => self.forfeit_after_days = Some(number(&key, raw, 1, 365)?),
            "new_names_per_hour" => self.new_names_per_hour = Some(number(&key, raw, 1, 10_000)?),
            "say_per_minute" => self.say_per_minute = Some(number(&key, raw, 1, 10_000)?),
            "admins" | "allow" => {
                return Err(ConfigProblem::WrongType {
                    key,
                    expected: FINGERPRINTS_EXPECTED.to_owned(),
                    found: raw.describe(),
                });
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
                let value = text(&key, raw, "\"any\", \"publickey\" or \"allowlist\"")?;
                self.auth = Some(match value {
                    "any" => ServerAuth::Any,
                    "publickey" => ServerAuth::Publickey,
                    "allowlist" => ServerAuth::Allowlist,
                    other => {
                        let allowed: Vec<String> = ServerAuth::NAMES
                            .iter()
                            .map(|name| (*name).to_owned())
                            .collect();
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
            // `max_engine_queue` bounded the engine rooms' queue before every job had one.
            "jobs_queue" | "max_engine_queue" => {
                self.jobs_queue = Some(number(&key, raw, 1, 10_000)?)
            }
            "login_grace_s" => self.login_grace_s = Some(number(&key, raw, 1, 3600)?),
            "channel_grace_s" => self.channel_grace_s = Some(number(&key, raw, 1, 3600)?),
            "max_startups" => {
                let expected =
                    "\"start:rate:full\" like \"10:30:100\" (start <= full, rate 1..=100)";
                let value = text(&key, raw, expected)?;
                let limit = MaxStartups::parse(value).ok_or_else(|| ConfigProblem::WrongType {
                    key: key.clone(),
                    expected: expected.to_owned(),
                    found: raw.describe(),
                })?;
                self.max_startups = Some(limit);
            }
            "max_startups_per_address" => {
                self.max_startups_per_address = Some(number(&key, raw, 1, 10_000)?)
            }
            "time" => {
                let expected = || ConfigProblem::WrongType {
                    key: key.clone(),
                    expected: "a time control like \"10+5\" or \"none\"".to_owned(),
                    found: raw.describe(),
                };
                self.time = Some(super::time::time_value(&key, raw, expected)?);
            }
            "public_address" => {
                let expected = "a host and port like \"xq.example.org:2222\"";
                let value = text(&key, raw, expected)?;
                if value.trim().is_empty() || value.contains(char::is_whitespace) {
                    return Err(ConfigProblem::WrongType {
                        key,
                        expected: expected.to_owned(),
                        found: raw.describe(),
                    });
                }
                self.public_address = Some(value.to_owned());
            }
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
        listen: flags.listen.clone().or_else(|| file.listen.clone()),
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
        jobs_queue: flags.jobs_queue.or(file.jobs_queue),
        login_grace_s: flags.login_grace_s.or(file.login_grace_s),
        channel_grace_s: flags.channel_grace_s.or(file.channel_grace_s),
        max_startups: flags.max_startups.or(file.max_startups),
        max_startups_per_address: flags
            .max_startups_per_address
            .or(file.max_startups_per_address),
        time: flags.time.or(file.time),
        public_address: flags
            .public_address
            .clone()
            .or_else(|| file.public_address.clone()),
        admins: flags.admins.clone().or_else(|| file.admins.clone()),
        allow: flags.allow.clone().or_else(|| file.allow.clone()),
        rooms_per_minute: flags.rooms_per_minute.or(file.rooms_per_minute),
        rooms_per_identity: flags.rooms_per_identity.or(file.rooms_per_identity),
        adjourn_after_min: flags.adjourn_after_min.or(file.adjourn_after_min),
        forfeit_after_days: flags.forfeit_after_days.or(file.forfeit_after_days),
        new_names_per_hour: flags.new_names_per_hour.or(file.new_names_per_hour),
        say_per_minute: flags.say_per_minute.or(file.say_per_minute),
        metrics: flags.metrics.clone().or_else(|| file.metrics.clone()),
        tournaments: flags.tournaments.or(file.tournaments),
        max_tournaments_per_creator: flags
            .max_tournaments_per_creator
            .or(file.max_tournaments_per_creator),
        max_tournament_players: flags.max_tournament_players.or(file.max_tournament_players),
        tournament_no_show_s: flags.tournament_no_show_s.or(file.tournament_no_show_s),
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
    let mut auth_span = value.span();
    for (key, entry) in entries {
        let name = key.get_ref().as_ref();
        if name == "auth" {
            auth_span = entry.span();
        }
        if name == "admins" || name == "allow" {
            let keys = fingerprints(sink, &format!("{SERVER_KEY}.{name}"), entry);
            match name {
                "admins" => table.admins = keys,
                _ => table.allow = keys,
            }
            continue;
        }
        if let Err(problem) = table.set(name, raw_value(entry.get_ref())) {
            let span = if matches!(problem, ConfigProblem::UnknownKey { .. }) {
                key.span()
            } else {
                entry.span()
            };
            sink.report(span, problem);
        }
    }
    let nobody_listed = table.allow.as_ref().is_none_or(Vec::is_empty)
        && table.admins.as_ref().is_none_or(Vec::is_empty);
    if table.auth == Some(ServerAuth::Allowlist) && nobody_listed {
        sink.report(
            auth_span,
            ConfigProblem::MissingKeys {
                keys: vec![format!("{SERVER_KEY}.allow")],
                reason: "auth = \"allowlist\" lets in only the keys listed there (and the \
                         admins'): nobody could sign in"
                    .to_owned(),
            },
        );
    }
    table
}

#[cfg(test)]
#[path = "server_tests.rs"]
mod tests;
