//! Build facts for `--version`: the git commit and its date, or a note that this build
//! is not from a git checkout (from a crate package: the commit cargo recorded in it).

use std::path::Path;
use std::process::Command;

fn main() {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let dir = Path::new(&manifest_dir);
    let git = from_git(dir);
    let date = git
        .as_ref()
        .map(|(_, date)| date.clone())
        .unwrap_or_default();
    println!("cargo:rustc-env=XIANGQI_TUI_BUILD_DATE={date}");
    let source = match git {
        Some((commit, date)) => format!("commit {commit}, {date}"),
        None => match from_package(dir) {
            Some(commit) => format!("commit {commit}, from the crate package (not a git checkout)"),
            None => "not built from a git checkout".to_owned(),
        },
    };
    println!("cargo:rustc-env=XIANGQI_TUI_BUILD_SOURCE={source}");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let rustc_version = run(Command::new(rustc).arg("--version")).unwrap_or_default();
    println!("cargo:rustc-env=XIANGQI_TUI_RUSTC={rustc_version}");
    println!(
        "cargo:rustc-env=XIANGQI_TUI_TARGET={}",
        std::env::var("TARGET").unwrap_or_default()
    );
    println!(
        "cargo:rustc-env=XIANGQI_TUI_PROFILE={}",
        std::env::var("PROFILE").unwrap_or_default()
    );
    println!("cargo:rerun-if-changed=build.rs");
}

/// The commit checked out and its date, when the package itself is the top of a git
/// work tree (not a folder that merely lies inside another repository).
fn from_git(dir: &Path) -> Option<(String, String)> {
    let git = |args: &[&str]| run(Command::new("git").arg("-C").arg(dir).args(args));
    let top = git(&["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(&top).ok()? != std::fs::canonicalize(dir).ok()? {
        return None;
    }
    // Rebuild when HEAD moves: HEAD itself, the branch it names, the packed refs.
    for path in ["HEAD", "packed-refs"] {
        if let Some(file) = git(&["rev-parse", "--git-path", path]) {
            watch(&dir.join(file));
        }
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(file) = git(&["rev-parse", "--git-path", &branch])
    {
        watch(&dir.join(file));
    }
    let commit = git(&["rev-parse", "--short=10", "HEAD"])?;
    let date = git(&["log", "-1", "--format=%cs", "HEAD"])?;
    Some((commit, date))
}

/// Rebuild when `path` changes (a missing file is not watched: cargo would rerun always).
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The commit `cargo package` recorded in `.cargo_vcs_info.json`, if any.
fn from_package(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(".cargo_vcs_info.json")).ok()?;
    let start = text.find("\"sha1\"")?;
    let rest = &text[start + 6..];
    let rest = &rest[rest.find('"')? + 1..];
    let sha = &rest[..rest.find('"')?];
    Some(sha.chars().take(10).collect())
}

/// The trimmed standard output of a command that succeeded with some output.
fn run(command: &mut Command) -> Option<String> {
    let output = command.output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_owned())
}
