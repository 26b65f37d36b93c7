//! `doctor --json` run as a user runs it, on a home directory made for the test: a clean
//! one, one with a broken config and theme, one with external engines.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

/// `doctor ARGS` with HOME and the XDG folders in `home`, a plain UTF-8 environment.
fn doctor(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .arg("doctor")
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("LANG", "C.UTF-8")
        .env("TERM", "xterm-256color")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .env_remove("NO_COLOR")
        .env_remove("COLORTERM")
        .env_remove("XIANGQI_TUI_CONFIG")
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

fn report(home: &Path) -> (Value, Option<i32>) {
    let out = doctor(home, &["--json"]);
    let json: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", String::from_utf8_lossy(&out.stdout)));
    (json, out.status.code())
}

fn checks<'a>(report: &'a Value, name: &str) -> Vec<&'a Value> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|check| check["name"] == name)
        .collect()
}

fn check<'a>(report: &'a Value, name: &str) -> &'a Value {
    match checks(report, name).as_slice() {
        [one] => one,
        other => panic!("{} checks named {name}: {report:#}", other.len()),
    }
}

fn config_dir(home: &Path) -> std::path::PathBuf {
    let dir = home.join("config").join("xiangqi-tui");
    std::fs::create_dir_all(dir.join("themes")).unwrap();
    dir
}

#[test]
fn a_clean_home_has_no_problem() {
    let home = tempfile::tempdir().unwrap();
    let (report, code) = report(home.path());
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(report["problems"], 0, "{report:#}");
    assert!(
        report["version"]
            .as_str()
            .unwrap()
            .starts_with(env!("CARGO_PKG_VERSION"))
    );
    assert!(report["features"].is_array());
    let system = check(&report, "system")["detail"].as_str().unwrap();
    let os = format!("{} {}: ", std::env::consts::OS, std::env::consts::ARCH);
    assert!(system.starts_with(&os), "{system}");
    let all = report["checks"].as_array().unwrap();
    let counted = |status: &str| all.iter().filter(|c| c["status"] == status).count();
    assert_eq!(report["ok"], counted("ok"));
    assert_eq!(report["warnings"], counted("warn"));
    for check in all {
        assert!(
            check["name"].is_string() && check["detail"].is_string(),
            "{check}"
        );
        let status = check["status"].as_str().unwrap();
        assert!(["ok", "warn", "problem"].contains(&status), "{check}");
        // A warning or a problem says what to do; an ok line has nothing to fix.
        assert_eq!(check.get("fix").is_some(), status != "ok", "{check}");
    }
    let config = check(&report, "config file");
    assert_eq!(config["status"], "ok");
    assert!(
        config["detail"]
            .as_str()
            .unwrap()
            .contains("built-in defaults"),
        "{config}"
    );
    assert_eq!(check(&report, "locale")["status"], "ok");
    assert_eq!(check(&report, "TERM")["detail"], "xterm-256color");
    assert!(
        check(&report, "colours")["detail"]
            .as_str()
            .unwrap()
            .starts_with("256 colours")
    );
    // The probe writes to the terminal: never with --json.
    assert!(
        check(&report, "CJK width")["detail"]
            .as_str()
            .unwrap()
            .contains("--json")
    );
    let data = check(&report, "data directory");
    assert!(
        data["detail"].as_str().unwrap().contains("not there yet"),
        "{data}"
    );
    assert_eq!(check(&report, "saved game")["status"], "ok");
    assert!(
        check(&report, "tablebases")["detail"]
            .as_str()
            .unwrap()
            .starts_with("none")
    );
    assert!(
        check(&report, "book")["detail"]
            .as_str()
            .unwrap()
            .starts_with("built-in")
    );
    assert!(checks(&report, "broken theme").is_empty());
    assert!(checks(&report, "host key").is_empty(), "no key, no line");
}

#[test]
fn a_broken_config_and_an_unused_broken_theme() {
    let home = tempfile::tempdir().unwrap();
    let dir = config_dir(home.path());
    std::fs::write(dir.join("config.toml"), "depth = 0\ncolour = \"auto\"\n").unwrap();
    std::fs::write(dir.join("themes").join("broken.toml"), "[board\n").unwrap();
    let (report, code) = report(home.path());
    assert_eq!(code, Some(1), "{report:#}");
    let config = check(&report, "config file");
    assert_eq!(config["status"], "problem", "{config}");
    assert!(
        config["detail"].as_str().unwrap().contains("2 errors"),
        "{config}"
    );
    let errors = checks(&report, "config error");
    assert_eq!(errors.len(), 2, "{report:#}");
    assert!(
        errors[0]["detail"]
            .as_str()
            .unwrap()
            .contains("config.toml:1:"),
        "{report:#}"
    );
    assert!(errors.iter().all(|e| e["status"] == "problem"));
    let theme = check(&report, "broken theme");
    assert_eq!(theme["status"], "warn", "{theme}");
    assert!(
        theme["detail"].as_str().unwrap().contains("broken.toml"),
        "{theme}"
    );
    assert_eq!(report["problems"], 3, "{report:#}");
    // The terminal's lines still come, with the defaults.
    assert_eq!(check(&report, "locale")["status"], "ok");

    // The text report says the same, a status first on each line.
    let out = doctor(home.path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with("problem config file")),
        "{text}"
    );
    assert!(
        text.lines().any(|l| l.starts_with("warn    broken theme")),
        "{text}"
    );
    assert!(
        text.lines().last().unwrap().ends_with("3 problems"),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("doctor found 3 problems"));
}

#[test]
fn a_broken_theme_the_config_uses_is_a_problem() {
    let home = tempfile::tempdir().unwrap();
    let dir = config_dir(home.path());
    std::fs::write(dir.join("config.toml"), "theme = \"broken\"\n").unwrap();
    std::fs::write(dir.join("themes").join("broken.toml"), "[board\n").unwrap();
    let (report, code) = report(home.path());
    assert_eq!(code, Some(1), "{report:#}");
    assert_eq!(check(&report, "config file")["status"], "problem");
    let theme = check(&report, "broken theme");
    assert_eq!(theme["status"], "problem", "{theme}");
    assert!(
        theme["detail"]
            .as_str()
            .unwrap()
            .contains("the config uses it"),
        "{theme}"
    );
}

#[test]
fn engines_are_started_and_a_loose_host_key_is_a_problem() {
    let home = tempfile::tempdir().unwrap();
    let dir = config_dir(home.path());
    let config = format!(
        "[engines.itself]\ncommand = {:?}\nargs = [\"uci\"]\n\n\
         [engines.missing]\ncommand = \"/nonexistent/engine\"\n",
        env!("CARGO_BIN_EXE_xiangqi-tui")
    );
    std::fs::write(dir.join("config.toml"), config).unwrap();
    let data = home.path().join("data").join("xiangqi-tui");
    std::fs::create_dir_all(&data).unwrap();
    let key = data.join("ssh_host_ed25519_key");
    std::fs::write(&key, "not really a key\n").unwrap();
    #[cfg(unix)]
    set_mode(&key, 0o644);
    let (report, code) = report(home.path());
    assert_eq!(code, Some(1), "{report:#}");
    let itself = check(&report, "engine itself");
    assert_eq!(itself["status"], "ok", "{itself}");
    assert!(
        itself["detail"].as_str().unwrap().contains("handshake in"),
        "{itself}"
    );
    let missing = check(&report, "engine missing");
    assert_eq!(missing["status"], "problem", "{missing}");
    assert!(
        missing["fix"]
            .as_str()
            .unwrap()
            .contains("[engines.missing]")
    );
    let host_key = check(&report, "host key");
    if cfg!(unix) {
        assert_eq!(host_key["status"], "problem", "{host_key}");
        assert!(host_key["fix"].as_str().unwrap().starts_with("chmod 600"));
        assert_eq!(report["problems"], 2, "{report:#}");
    } else {
        // No file modes: the folder's access list keeps it.
        assert_eq!(host_key["status"], "ok", "{host_key}");
        assert_eq!(report["problems"], 1, "{report:#}");
    }

    #[cfg(unix)]
    set_mode(&key, 0o600);
    let (report, _) = self::report(home.path());
    assert_eq!(check(&report, "host key")["status"], "ok");
    assert_eq!(check(&report, "data directory")["status"], "ok");
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn without_utf8_or_with_a_dumb_terminal_doctor_warns_but_passes() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["doctor", "--json"])
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("LANG", "C")
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .env_remove("XIANGQI_TUI_CONFIG")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(check(&report, "locale")["status"], "warn");
    assert_eq!(check(&report, "TERM")["status"], "warn");
    assert!(
        check(&report, "colours")["detail"]
            .as_str()
            .unwrap()
            .starts_with("no colour")
    );
}
