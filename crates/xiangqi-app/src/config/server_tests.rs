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

#[test]
fn max_startups_reads_start_rate_full_or_a_bare_cap() {
    assert_eq!(MaxStartups::parse("10:30:100"), Some(MaxStartups::DEFAULT));
    assert_eq!(
        MaxStartups::parse("20"),
        Some(MaxStartups {
            start: 20,
            rate: 100,
            full: 20
        })
    );
    for bad in [
        "",
        "10:30",
        "30:30:10",
        "10:0:100",
        "10:101:100",
        "a:b:c",
        "0",
    ] {
        assert_eq!(MaxStartups::parse(bad), None, "{bad}");
    }
    let text = "[server]\nmax_startups = \"5:50:20\"\nlogin_grace_s = 10\n";
    let file = ConfigFile::parse(text, Path::new("c.toml"), &[]).unwrap();
    assert_eq!(
        file.server.max_startups.map(|m| m.to_string()).as_deref(),
        Some("5:50:20")
    );
    assert_eq!(file.server.login_grace_s, Some(10));
    let bad = "[server]\nmax_startups = \"50:30:10\"\n";
    let errors = ConfigFile::parse(bad, Path::new("c.toml"), &[])
        .unwrap_err()
        .to_string();
    assert!(errors.contains("c.toml:2:16"), "{errors}");
}

#[test]
fn time_and_public_address_are_read() {
    let text = "[server]\ntime = \"5+3\"\npublic_address = \"xq.example.org:2222\"\n";
    let file = ConfigFile::parse(text, Path::new("c.toml"), &[]).unwrap();
    assert_eq!(file.server.time, Some(Some("5+3".parse().unwrap())));
    assert_eq!(
        file.server.public_address.as_deref(),
        Some("xq.example.org:2222")
    );
    let file = ConfigFile::parse("[server]\ntime = \"none\"\n", Path::new("c.toml"), &[]).unwrap();
    assert_eq!(file.server.time, Some(None));
    let errors = ConfigFile::parse("[server]\ntime = \"10\"\n", Path::new("c.toml"), &[])
        .unwrap_err()
        .to_string();
    assert!(errors.contains("server.time"), "{errors}");
    let flags = ServerTable {
        time: Some(None),
        ..ServerTable::default()
    };
    let file = ServerTable {
        time: Some(Some("5+3".parse().unwrap())),
        ..ServerTable::default()
    };
    assert_eq!(merge_server(&file, &flags).time, Some(None));
}

const ADMIN: &str = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";
const PLAYER: &str = "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU";

#[test]
fn moderation_and_operability_keys_are_read() {
    let text = format!(
        "[server]\nauth = \"allowlist\"\nadmins = [\"{ADMIN}\"]\nallow = [\"{PLAYER}\", \"{ADMIN}\"]\n\
         rooms_per_minute = 3\nmetrics = \"127.0.0.1:9464\"\n"
    );
    let file = ConfigFile::parse(&text, Path::new("c.toml"), &[]).unwrap();
    assert_eq!(file.server.auth, Some(ServerAuth::Allowlist));
    assert_eq!(file.server.admins, Some(vec![ADMIN.to_owned()]));
    assert_eq!(
        file.server.allow,
        Some(vec![PLAYER.to_owned(), ADMIN.to_owned()])
    );
    assert_eq!(file.server.rooms_per_minute, Some(3));
    assert_eq!(file.server.metrics, Some("127.0.0.1:9464".parse().unwrap()));
    let flags = ServerTable {
        metrics: Some("127.0.0.1:1".parse().unwrap()),
        ..ServerTable::default()
    };
    let merged = merge_server(&file.server, &flags);
    assert_eq!(merged.metrics, flags.metrics);
    assert_eq!(merged.admins, file.server.admins);
}

#[test]
fn bad_fingerprints_and_values_are_reported_at_their_line_and_column() {
    let text = format!(
        "[server]\nadmins = [\"{ADMIN}\", \"SHA256:short\", 7]\nallow = \"{PLAYER}\"\n\
         auth = \"open\"\nrooms_per_minute = 0\nmetrics = \"localhost\"\n"
    );
    let errors = ConfigFile::parse(&text, Path::new("c.toml"), &[])
        .unwrap_err()
        .to_string();
    let lines: Vec<&str> = errors.lines().collect();
    assert!(
        lines.iter().any(|l| l.starts_with("c.toml:2:65")
            && l.contains("`server.admins` = \"SHA256:short\" is not valid")
            && l.contains("ssh-keygen -lf")),
        "{errors}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("c.toml:2:81") && l.contains("found the integer 7 in it")),
        "{errors}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("c.toml:3:9")
            && l.contains("`server.allow` must be an array of key fingerprints")),
        "{errors}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("c.toml:4:8")
            && l.contains("\"open\" is not a known authentication mode")
            && l.contains("allowlist")),
        "{errors}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("c.toml:5:20")
            && l.contains("`server.rooms_per_minute` = 0 is out of range")),
        "{errors}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("c.toml:6:11") && l.contains("like \"127.0.0.1:9464\"")),
        "{errors}"
    );
}

#[test]
fn an_allowlist_without_keys_is_refused() {
    let text = "[server]\nlisten = \"127.0.0.1:2222\"\nauth = \"allowlist\"\n";
    let errors = ConfigFile::parse(text, Path::new("c.toml"), &[])
        .unwrap_err()
        .to_string();
    assert!(errors.contains("c.toml:3:8"), "{errors}");
    assert!(errors.contains("missing `server.allow`"), "{errors}");
    let listed = format!("[server]\nauth = \"allowlist\"\nadmins = [\"{ADMIN}\"]\n");
    assert!(ConfigFile::parse(&listed, Path::new("c.toml"), &[]).is_ok());
}

#[test]
fn listen_addresses_take_host_names_looked_up_at_start() {
    let named: ListenAddress = "localhost:2222".parse().unwrap();
    assert_eq!(named.to_string(), "localhost:2222");
    let address = named.resolve().unwrap();
    assert!(address.ip().is_loopback(), "{address}");
    assert_eq!(address.port(), 2222);
    let v6: ListenAddress = "[::1]:22".parse().unwrap();
    assert_eq!(v6.to_string(), "[::1]:22");
    assert_eq!(v6.resolve().unwrap(), "[::1]:22".parse().unwrap());
    assert_eq!(
        "localhost".parse::<ListenAddress>().unwrap_err(),
        "'localhost' has no port: write HOST:PORT, like 127.0.0.1:2222 or localhost:2222"
    );
    assert_eq!(
        "localhost:http".parse::<ListenAddress>().unwrap_err(),
        "bad port in 'localhost:http': a number from 0 to 65535"
    );
    assert!(
        "bad host!:22"
            .parse::<ListenAddress>()
            .unwrap_err()
            .starts_with("bad host in 'bad host!:22'")
    );
    let text = "[server]\nlisten = \"localhost:2200\"\n";
    let file = ConfigFile::parse(text, Path::new("c.toml"), &[]).unwrap();
    assert_eq!(file.server.listen, Some(named_port(2200)));
}

fn named_port(port: u16) -> ListenAddress {
    format!("localhost:{port}").parse().unwrap()
}

#[test]
fn tournament_keys_are_read_and_bad_values_reported_where_they_stand() {
    let text = "[server]\ntournaments = \"open\"\nmax_tournaments_per_creator = 2\n\
                max_tournament_players = 40\ntournament_no_show_s = 60\n";
    let file = ConfigFile::parse(text, Path::new("c.toml"), &[]).unwrap();
    assert_eq!(file.server.tournaments, Some(TournamentCreators::Open));
    assert_eq!(file.server.max_tournaments_per_creator, Some(2));
    assert_eq!(file.server.max_tournament_players, Some(40));
    assert_eq!(file.server.tournament_no_show_s, Some(60));
    let flags = ServerTable {
        tournaments: Some(TournamentCreators::Admins),
        ..ServerTable::default()
    };
    let merged = merge_server(&file.server, &flags);
    assert_eq!(merged.tournaments, Some(TournamentCreators::Admins));
    assert_eq!(merged.max_tournament_players, Some(40));
    let text = "[server]\ntournaments = \"opne\"\nmax_tournament_players = 1\n\
                tournament_no_show_s = 5\n";
    let errors = ConfigFile::parse(text, Path::new("c.toml"), &[])
        .unwrap_err()
        .to_string();
    let lines: Vec<&str> = errors.lines().collect();
    assert!(
        lines.iter().any(|l| l.starts_with("c.toml:2:15")
            && l.contains("\"opne\" is not a known tournament creators")
            && l.contains("open")),
        "{errors}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("c.toml:3:26")
            && l.contains("`server.max_tournament_players` = 1 is out of range")),
        "{errors}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("c.toml:4:24")
            && l.contains("`server.tournament_no_show_s` = 5 is out of range")),
        "{errors}"
    );
}
