//! `xiangqi-tui serve`: the SSH game server, settings from the flags over the config's
//! `[server]` table (merged by `config::merge_server`) over the defaults.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, bail};
use xiangqi_app::config::{ServerAuth, ServerTable, TournamentCreators, merge_server};
use xiangqi_server::{self as server, ServerSettings};

use crate::cli::{GlobalArgs, ServeArgs};

pub const DEFAULT_LISTEN: &str = "127.0.0.1:2222";

pub fn run(args: &ServeArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let config = crate::commands::config::load(global)?;
    let flags = ServerTable {
        listen: args.listen.clone(),
        max_sessions: args.max_sessions,
        host_key: args.host_key.clone(),
        // `--time` (a global flag, read into the settings) sets the rooms' default
        // clock over `[server] time`.
        time: global.time.is_some().then_some(config.settings.time),
        metrics: args.metrics.clone(),
        ..ServerTable::default()
    };
    let table = merge_server(&config.file.server, &flags);
    let data_dir = match &args.data_dir {
        Some(dir) => dir.clone(),
        None => xiangqi_core::paths::data_dir()
            .context("no data directory on this system: give --data-dir")?,
    };
    let listen: SocketAddr = match &table.listen {
        Some(address) => address
            .resolve()
            .map_err(|e| anyhow::anyhow!("--listen: {e}"))?,
        None => DEFAULT_LISTEN.parse()?,
    };
    let settings_of = &config.settings;
    let mut settings = ServerSettings::new(listen, data_dir, config.clone());
    if let Some(n) = table.max_sessions {
        settings.max_sessions = n as usize;
    }
    if let Some(n) = table.max_per_address {
        settings.max_per_address = n as usize;
    }
    if let Some(seconds) = table.idle_timeout_s {
        settings.idle_timeout = Duration::from_secs(u64::from(seconds));
    }
    if let Some(path) = table.host_key {
        settings.host_key = path;
    }
    settings.publickey_only = table.auth == Some(ServerAuth::Publickey);
    if table.auth == Some(ServerAuth::Allowlist) {
        settings.allowlist = Some(table.allow.iter().flatten().cloned().collect());
    }
    settings.admins = table.admins.iter().flatten().cloned().collect();
    if let Some(n) = table.rooms_per_minute {
        settings.rooms_per_minute = n;
    }
    settings.metrics = match &table.metrics {
        Some(address) => Some(
            address
                .resolve()
                .map_err(|e| anyhow::anyhow!("--metrics: {e}"))?,
        ),
        None => None,
    };
    settings.tournaments_open = table.tournaments == Some(TournamentCreators::Open);
    if let Some(n) = table.max_tournaments_per_creator {
        settings.max_tournaments_per_creator = n as usize;
    }
    if let Some(n) = table.max_tournament_players {
        settings.max_tournament_players = n as usize;
    }
    if let Some(seconds) = table.tournament_no_show_s {
        settings.no_show = Duration::from_secs(u64::from(seconds));
    }
    if let Some(n) = table.engine_threads {
        settings.engine_threads = n as usize;
    }
    if let Some(mb) = table.engine_hash_mb {
        settings.engine_hash_mb = mb as usize;
    }
    if let Some(rate) = table.input_bytes_per_second {
        settings.input_bytes_per_second = rate;
    }
    if let Some(n) = table.max_rooms {
        settings.max_rooms = n as usize;
    }
    if let Some(minutes) = table.room_expiry_min {
        settings.room_expiry = Duration::from_secs(u64::from(minutes) * 60);
    }
    if let Some(n) = table.jobs_queue {
        settings.jobs_queue = n as usize;
    }
    if let Some(n) = table.rooms_per_identity {
        settings.rooms_per_identity = n as usize;
    }
    if let Some(minutes) = table.adjourn_after_min {
        settings.adjourn_after = Duration::from_secs(u64::from(minutes) * 60);
    }
    if let Some(days) = table.forfeit_after_days {
        settings.forfeit_after = Duration::from_secs(u64::from(days) * 24 * 60 * 60);
    }
    if let Some(n) = table.new_names_per_hour {
        settings.new_names_per_hour = n;
    }
    if let Some(n) = table.say_per_minute {
        settings.say_per_minute = n;
    }
    if let Some(seconds) = table.login_grace_s {
        settings.login_grace = Duration::from_secs(u64::from(seconds));
    }
    if let Some(seconds) = table.channel_grace_s {
        settings.channel_grace = Duration::from_secs(u64::from(seconds));
    }
    if let Some(limit) = table.max_startups {
        settings.max_startups = limit;
    }
    if let Some(n) = table.max_startups_per_address {
        settings.max_startups_per_address = n as usize;
    }
    if let Some(time) = table.time {
        settings.time = time;
    }
    settings.public_address = table.public_address;
    settings.engine_limits = server::search_limits(
        settings_of.depth,
        settings_of.nodes,
        settings_of.movetime_ms,
    );
    if let Some(fen) = &args.fen {
        settings.start = xiangqi_core::board::Position::from_fen(fen)
            .map_err(|error| anyhow::anyhow!("bad --fen: {error}"))?;
    }
    if settings.max_per_address > settings.max_sessions {
        settings.max_per_address = settings.max_sessions;
    }
    if settings.host_key.as_os_str().is_empty() {
        bail!("--host-key needs a path");
    }
    server::serve_until_signal(settings).map_err(|error| anyhow::anyhow!(error))
}
