//! `xiangqi-tui doctor [--json]`: what the program sees and what it would do, each line
//! ok, warn or problem, with the fix. Exit status 0 when nothing is a problem.

mod files;
mod platform;
mod terminal;

use std::io::{IsTerminal, Write};

use serde::Serialize;

use crate::cli::{DoctorArgs, GlobalArgs};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Warn,
    Problem,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Problem => "problem",
        }
    }
}

/// One thing looked at.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// What was looked at (`terminal size`, `config file`, `engine pikafish`).
    pub name: String,
    pub status: Status,
    /// What was seen and what the program does with it.
    pub detail: String,
    /// What to do about a warning or a problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    pub fn ok(name: impl Into<String>, detail: impl Into<String>) -> Check {
        Check {
            name: name.into(),
            status: Status::Ok,
            detail: detail.into(),
            fix: None,
        }
    }

    pub fn warn(
        name: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check {
            status: Status::Warn,
            fix: Some(fix.into()),
            ..Check::ok(name, detail)
        }
    }

    pub fn problem(
        name: impl Into<String>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check {
            status: Status::Problem,
            fix: Some(fix.into()),
            ..Check::ok(name, detail)
        }
    }
}

#[derive(Debug, Serialize)]
struct Report {
    version: String,
    features: Vec<&'static str>,
    checks: Vec<Check>,
    ok: usize,
    warnings: usize,
    problems: usize,
}

pub fn run(args: &DoctorArgs, global: &GlobalArgs) -> anyhow::Result<()> {
    let mut checks = Vec::new();
    let loaded = files::load_config(global);
    // The system, the terminal's looks (with the colour mode and glyphs of the config,
    // when it loads), then the files and the engines.
    checks.push(platform::check());
    terminal::checks(loaded.settings(), !args.json, &mut checks);
    files::checks(&loaded, &mut checks);
    let count = |status| checks.iter().filter(|c| c.status == status).count();
    let report = Report {
        version: format!(
            "{} ({})",
            env!("CARGO_PKG_VERSION"),
            crate::build_info::SOURCE
        ),
        features: crate::build_info::features(),
        ok: count(Status::Ok),
        warnings: count(Status::Warn),
        problems: count(Status::Problem),
        checks,
    };
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        serde_json::to_writer_pretty(&mut out, &report)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        write_text(&mut out, &report)
    };
    super::finish_output(written)?;
    match report.problems {
        0 => Ok(()),
        1 => anyhow::bail!("doctor found 1 problem"),
        n => anyhow::bail!("doctor found {n} problems"),
    }
}

fn write_text(out: &mut impl Write, report: &Report) -> std::io::Result<()> {
    let features = match report.features.as_slice() {
        [] => "no features".to_owned(),
        list => format!("features: {}", list.join(", ")),
    };
    writeln!(out, "xiangqi-tui {} ({features})", report.version)?;
    let width = report
        .checks
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(18);
    // On a terminal, details wrap under their column; into a pipe, a check is a line.
    let columns = std::io::stdout()
        .is_terminal()
        .then(terminal::tty_size)
        .flatten()
        .map(|(columns, _)| usize::from(columns));
    let indent = 7 + 1 + width + 2;
    let room = columns.map(|c| c.saturating_sub(indent).max(20));
    for check in &report.checks {
        let detail = wrap(&check.detail, room, indent);
        writeln!(
            out,
            "{:<7} {:<width$}  {detail}",
            check.status.label(),
            check.name,
        )?;
        if let Some(fix) = &check.fix {
            let fix = wrap(&format!("fix: {fix}"), room, indent);
            writeln!(out, "{:<indent$}{fix}", "")?;
        }
    }
    writeln!(
        out,
        "{} ok, {} warning{}, {} problem{}",
        report.ok,
        report.warnings,
        if report.warnings == 1 { "" } else { "s" },
        report.problems,
        if report.problems == 1 { "" } else { "s" },
    )
}

/// `text` broken at spaces into lines of at most `room` columns, the lines after the
/// first indented by `indent`; unchanged without a width.
fn wrap(text: &str, room: Option<usize>, indent: usize) -> String {
    match room {
        Some(room) => {
            xiangqi_core::text::wrap_keeping_words(text, room, 0).join(&format!("\n{:indent$}", ""))
        }
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn details_wrap_under_their_column() {
        assert_eq!(wrap("a bb ccc dddd", None, 4), "a bb ccc dddd");
        assert_eq!(wrap("a bb ccc dddd", Some(6), 2), "a bb\n  ccc\n  dddd");
        // A word longer than the room stays whole on its line.
        assert_eq!(wrap("abcdefgh ij", Some(4), 1), "abcdefgh\n ij");
    }
}
