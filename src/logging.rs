//! Logs through `tracing`: `--log FILE` (detail from `RUST_LOG`, `info` by default) for
//! every command; `serve` always logs its connection events to standard error too, as
//! the `xiangqi-tui serve: ...` lines it has always printed, or with `--log-format json`
//! as JSON lines with the events' fields (addr, user, key, room, event). Keys typed are
//! left out unless `RUST_LOG` names their target ([`KEYS_TARGET`]): a log must not
//! record what a user typed unasked.

use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::path::Path;
use std::sync::Mutex;

use anyhow::Context;
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::{Context as LayerContext, Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

use crate::cli::{Command, LogFormat};

use xiangqi_app::KEYS_LOG_TARGET as KEYS_TARGET;
/// What `serve` writes to standard error without `--log` or `RUST_LOG`.
const SERVE_DEFAULT: &str = "warn,xiangqi_server=info";

/// Installs the log for this run, if it has one.
pub fn init(file: Option<&Path>, command: &Command) -> anyhow::Result<()> {
    let rust_log = std::env::var("RUST_LOG")
        .ok()
        .filter(|value| !value.trim().is_empty());
    let serve = matches!(command, Command::Serve(_));
    // The terminal UI owns the screen: without a file it logs nowhere.
    let tui = matches!(command, Command::Play | Command::Study(_));
    let file_layer = match file {
        Some(path) => {
            let log = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("--log {}", path.display()))?;
            Some(
                tracing_subscriber::fmt::layer()
                    .with_ansi(false)
                    .with_thread_names(true)
                    .with_writer(Mutex::new(log))
                    .with_filter(filter(rust_log.as_deref().unwrap_or("info"))?),
            )
        }
        None => None,
    };
    let serve_format = match command {
        Command::Serve(args) => Some(args.log_format),
        _ => None,
    };
    let serve_filter = || filter(rust_log.as_deref().unwrap_or(SERVE_DEFAULT));
    let serve_layer = match serve_format {
        Some(LogFormat::Plain) => Some(ServeStderr.with_filter(serve_filter()?)),
        _ => None,
    };
    // One object a line, the event's fields at its top level beside `message`.
    let json_layer = match serve_format {
        Some(LogFormat::Json) => Some(
            tracing_subscriber::fmt::layer()
                .json()
                .flatten_event(true)
                .with_current_span(false)
                .with_span_list(false)
                .with_writer(std::io::stderr)
                .with_filter(serve_filter()?),
        ),
        _ => None,
    };
    // RUST_LOG alone sends other commands' logs to standard error (not the TUI's).
    let stderr_layer = match &rust_log {
        Some(spec) if file.is_none() && !serve && !tui => Some(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(filter(spec)?),
        ),
        _ => None,
    };
    if file_layer.is_some()
        || serve_layer.is_some()
        || json_layer.is_some()
        || stderr_layer.is_some()
    {
        tracing_subscriber::registry()
            .with(file_layer)
            .with(serve_layer)
            .with(json_layer)
            .with(stderr_layer)
            .try_init()
            .ok();
    }
    Ok(())
}

/// `spec` as a filter, with the keys target off unless `spec` names it.
fn filter(spec: &str) -> anyhow::Result<EnvFilter> {
    let filter = EnvFilter::try_new(spec)
        .map_err(|error| crate::commands::usage(format!("RUST_LOG: {error} (in \"{spec}\")")))?;
    Ok(if spec.contains(KEYS_TARGET) {
        filter
    } else {
        filter.add_directive(format!("{KEYS_TARGET}=off").parse()?)
    })
}

/// `serve`'s standard error: an info event of the server is the line it always was,
/// `xiangqi-tui serve: MESSAGE` (its message says what its fields hold: they are for
/// the JSON lines and the log file); other events name their level and target.
struct ServeStderr;

impl<S: Subscriber> Layer<S> for ServeStderr {
    fn on_event(&self, event: &Event<'_>, _context: LayerContext<'_, S>) {
        let metadata = event.metadata();
        let server_info =
            *metadata.level() == Level::INFO && metadata.target().starts_with("xiangqi_server");
        let mut text = Message {
            text: String::new(),
            fields: !server_info,
        };
        event.record(&mut text);
        let line = if server_info {
            format!("xiangqi-tui serve: {}", text.text)
        } else {
            format!(
                "xiangqi-tui serve: {} {}: {}",
                metadata.level(),
                metadata.target(),
                text.text
            )
        };
        eprintln!("{line}");
    }
}

/// An event's message followed (when `fields`) by its other fields as `name=value`.
struct Message {
    text: String,
    fields: bool,
}

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let rest = std::mem::take(&mut self.text);
            let _ = write!(self.text, "{value:?}{rest}");
        } else if self.fields {
            let _ = write!(self.text, " {}={value:?}", field.name());
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.text.insert_str(0, value);
        } else if self.fields {
            let _ = write!(self.text, " {}={value}", field.name());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_off_unless_named() {
        for spec in ["info", "trace", "xiangqi_tui=trace"] {
            let shown = filter(spec).unwrap().to_string();
            assert!(shown.contains("xiangqi_tui::keys=off"), "{spec}: {shown}");
        }
        let asked = filter("info,xiangqi_tui::keys=trace").unwrap().to_string();
        assert!(!asked.contains("keys=off"), "{asked}");
        assert!(filter("xiangqi_tui=loud").is_err());
    }
}
