//! `--version`, `completions SHELL` and `man`: their shape, run as a user runs them.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output");
    out
}

fn stdout(args: &[&str]) -> String {
    String::from_utf8(run(args).stdout).unwrap()
}

fn is_version(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// `commit 0123abcdef, 2026-11-25`, or a build from elsewhere said so.
fn is_source(line: &str) -> bool {
    if line == "not built from a git checkout" {
        return true;
    }
    let Some(rest) = line.strip_prefix("commit ") else {
        return false;
    };
    let Some((hash, after)) = rest.split_once(", ") else {
        return false;
    };
    let hash_ok = hash.len() >= 7 && hash.bytes().all(|b| b.is_ascii_hexdigit());
    let date_ok = after.len() == 10
        && after.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    hash_ok && (date_ok || after == "from the crate package (not a git checkout)")
}

#[test]
fn the_long_version_names_the_commit_its_date_and_the_features() {
    let text = stdout(&["--version"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    let version = lines[0]
        .strip_prefix("xiangqi-tui ")
        .expect("the name first");
    assert!(is_version(version), "{text}");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert!(is_source(lines[1]), "{text}");
    let mut features = Vec::new();
    if cfg!(feature = "tui") {
        features.push("tui");
    }
    if cfg!(feature = "server") {
        features.push("server");
    }
    let expected = if features.is_empty() {
        "features: none (the engine subcommands only)".to_owned()
    } else {
        format!("features: {}", features.join(", "))
    };
    assert_eq!(lines[2], expected, "{text}");
    assert!(
        lines[3].starts_with("built for ") && lines[3].contains("rustc "),
        "{text}"
    );
}

#[test]
fn the_short_version_is_one_line() {
    let text = stdout(&["-V"]);
    assert_eq!(text.lines().count(), 1, "{text}");
    let rest = text.trim_end().strip_prefix("xiangqi-tui ").unwrap();
    let (version, source) = rest.split_once(" (").unwrap();
    assert!(is_version(version), "{text}");
    assert!(is_source(source.strip_suffix(')').unwrap()), "{text}");
}

/// The subcommands `--help` lists (its "Commands:" section), but clap's own `help`.
fn subcommands() -> Vec<String> {
    let help = stdout(&["--help"]);
    let section = help.split("Commands:").nth(1).expect("a Commands section");
    section
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Nested subcommands, by their parent.
const NESTED: &[&str] = &[
    "path", "show", "init", "check", "build", "generate", "probe",
];

#[test]
fn the_help_lists_the_new_commands() {
    let names = subcommands();
    for name in [
        "play",
        "perft",
        "analyze",
        "serve",
        "doctor",
        "completions",
        "man",
    ] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
}

#[test]
fn completions_for_every_shell_mention_every_subcommand() {
    let names = subcommands();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&["completions", shell]);
        assert!(script.len() > 1000, "{shell}: {} bytes", script.len());
        for name in names
            .iter()
            .map(String::as_str)
            .chain(NESTED.iter().copied())
        {
            assert!(script.contains(name), "{shell} completion lacks {name}");
        }
        // Global flags are completed too.
        // (fish spells a long option `-l log`.)
        assert!(script.contains("log"), "{shell}: --log");
        assert!(script.contains("config"), "{shell}: --config");
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn the_man_page_has_every_section_and_every_subcommand() {
    let page = stdout(&["man"]);
    assert!(page.contains("\n.TH xiangqi-tui 1 "), "{}", &page[..200]);
    for section in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "COMMANDS",
        "KEYS",
        "ENVIRONMENT",
        "FILES",
        "VERSION",
    ] {
        assert!(page.contains(&format!(".SH {section}\n")), "{section}");
    }
    for name in subcommands() {
        assert!(
            page.contains(&format!(".SS \"xiangqi-tui {name}")),
            "no section for {name}"
        );
    }
    for nested in ["config check", "book build", "egtb probe"] {
        assert!(
            page.contains(&format!(".SS \"xiangqi-tui {nested}")),
            "{nested}"
        );
    }
    // Options of a subcommand are on its section, not only the globals.
    assert!(page.contains("\\-\\-max\\-sessions") || page.contains("--max-sessions"));
    // The keys are the keymap's, the server lobby's included.
    for section in xiangqi_app::keymap::KEYMAP {
        // roff quotes a title only when it has spaces.
        let quoted = format!(".SS \"{}\"\n", section.title);
        let bare = format!(".SS {}\n", section.title);
        assert!(
            page.contains(&quoted) || page.contains(&bare),
            "{}",
            section.title
        );
    }
    assert!(page.contains("Lobby (the SSH server"), "the lobby's keys");
    // The terminal UI's keys and `:` commands, each from the keymap (roff writes a
    // hyphen as `\-`).
    assert!(page.contains(".SH KEYS\n"));
    let roff = |text: &str| text.replace('-', "\\-");
    for (_, binding) in xiangqi_app::keymap::bindings() {
        assert!(
            page.contains(&format!("\\fB{}\\fR\n", roff(binding.keys))),
            "no key {}",
            binding.keys
        );
    }
    for spec in xiangqi_app::commands::COMMANDS {
        assert!(
            page.contains(&format!("\\fB{}\\fR\n", roff(spec.usage))),
            "no command {}",
            spec.usage
        );
    }
}

#[test]
fn the_man_page_renders_where_man_is_installed() {
    let have_man = Command::new("man")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_man {
        eprintln!(
            "man is not installed: the page's sections were checked above, not its rendering"
        );
        return;
    }
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path().join("xiangqi-tui.1");
    std::fs::write(&path, run(&["man"]).stdout).unwrap();
    let out = Command::new("man")
        .arg("-l")
        .arg(&path)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .env("MANWIDTH", "80")
        .env("LANG", "C.UTF-8")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("COMMANDS"), "{text}");
    assert!(text.contains("xiangqi-tui doctor"), "{text}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("warning"), "groff warnings: {stderr}");
}
