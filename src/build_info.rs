//! What this build is: version, git commit and date (from `build.rs`), enabled features.

/// Where the build came from: `commit 0123abcd, 2026-11-25`, or that it was not
/// built from a git checkout.
pub const SOURCE: &str = env!("XIANGQI_TUI_BUILD_SOURCE");

/// The Cargo features compiled in.
pub fn features() -> Vec<&'static str> {
    let mut features = Vec::new();
    if cfg!(feature = "tui") {
        features.push("tui");
    }
    if cfg!(feature = "server") {
        features.push("server");
    }
    features
}

/// `-V`: `0.1.0 (commit 0123abcd, 2026-11-25)`.
pub fn short_version() -> &'static str {
    leak(format!("{} ({SOURCE})", env!("CARGO_PKG_VERSION")))
}

/// `--version`: the version, then the source, the features and the toolchain, a line each.
pub fn long_version() -> &'static str {
    leak(long_text())
}

fn long_text() -> String {
    let features = features();
    let features = if features.is_empty() {
        "none (the engine subcommands only)".to_owned()
    } else {
        features.join(", ")
    };
    format!(
        "{}\n{SOURCE}\nfeatures: {features}\nbuilt for {} ({} profile) with {}",
        env!("CARGO_PKG_VERSION"),
        env!("XIANGQI_TUI_TARGET"),
        env!("XIANGQI_TUI_PROFILE"),
        env!("XIANGQI_TUI_RUSTC"),
    )
}

/// clap wants `&'static str`; these are made once per run.
fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}
