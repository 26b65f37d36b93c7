//! `/metrics`: the server's counts in Prometheus' text format (prometheus-client's
//! encoder), read from the hub at each scrape, on a small HTTP listener of its own. It
//! answers `GET /metrics` and nothing else; a request is read within a size and a time
//! bound, and a bad one gets a status line, never a panic. Silent connections cannot
//! starve a scrape: every connection is accepted at once, at most `MAX_OPEN` are held,
//! and past it the oldest one still waiting for its request (or lingering after its
//! answer) is dropped for the new one.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::gate::Gate;
use super::hub::Hub;
use super::log;

/// The longest request read (a scrape's is a few hundred bytes).
const MAX_REQUEST: usize = 8 * 1024;
/// Time a client has to send its request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);
/// Connections held at once.
const MAX_OPEN: usize = 64;
/// After answering, input still coming is read and dropped for this long, this much.
const LINGER: Duration = Duration::from_secs(1);
const LINGER_BYTES: usize = 256 * 1024;

/// The series, read from the hub when scraped.
struct ServerCollector {
    hub: Arc<Hub>,
    gate: Arc<Gate>,
}

impl std::fmt::Debug for ServerCollector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServerCollector")
    }
}

fn gauge(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: usize,
) -> Result<(), std::fmt::Error> {
    let gauge = ConstGauge::new(i64::try_from(value).unwrap_or(i64::MAX));
    gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)
}

fn counter(
    encoder: &mut DescriptorEncoder,
    name: &str,
    help: &str,
    value: u64,
) -> Result<(), std::fmt::Error> {
    let counter = ConstCounter::new(value);
    counter.encode(encoder.encode_descriptor(name, help, None, counter.metric_type())?)
}

impl Collector for ServerCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let hub = &self.hub;
        let stats = hub.stats.snapshot();
        let e = &mut encoder;
        gauge(
            e,
            "sessions_open",
            "Interactive sessions open.",
            hub.moderation.sessions.count(),
        )?;
        gauge(
            e,
            "connections_open",
            "SSH connections open, signed in or not.",
            self.gate.connection_count(),
        )?;
        gauge(
            e,
            "rooms_open",
            "Rooms open (finished ones until they expire).",
            hub.room_count(),
        )?;
        let jobs = hub.jobs.counts();
        gauge(
            e,
            "engine_queue_length",
            "Jobs (engine searches, reviews, the prover, the school) waiting for a thread.",
            jobs.waiting,
        )?;
        gauge(
            e,
            "jobs_running",
            "Jobs running on the pool's threads.",
            jobs.running,
        )?;
        counter(
            e,
            "jobs_refused",
            "Jobs refused at once: the queue was full.",
            jobs.refused,
        )?;
        counter(
            e,
            "jobs_cancelled",
            "Jobs cancelled: replaced, taken back, left, or their session ended.",
            jobs.cancelled,
        )?;
        counter(
            e,
            "games_finished",
            "Games that ended in rooms.",
            stats.games_finished,
        )?;
        counter(
            e,
            "moves",
            "Moves played in rooms, by people and engines.",
            stats.moves,
        )?;
        counter(
            e,
            "frames_drawn",
            "Frames rendered for sessions.",
            stats.frames,
        )?;
        counter(
            e,
            "frames_dropped",
            "Frames dropped for clients that read too slowly.",
            stats.frames_dropped,
        )?;
        counter(
            e,
            "input_dropped_bytes",
            "Input bytes dropped by the per-session rate limit.",
            stats.input_dropped,
        )?;
        counter(
            e,
            "store_writes",
            "Write transactions committed to the store.",
            hub.db.write_count(),
        )?;
        Ok(())
    }
}

/// The registry `/metrics` shows: every series under the `xiangqi` prefix.
fn registry(hub: Arc<Hub>, gate: Arc<Gate>) -> Registry {
    let mut registry = Registry::with_prefix("xiangqi");
    registry.register_collector(Box::new(ServerCollector { hub, gate }));
    registry
}

/// A connection held: whether it may be dropped for a newcomer (it waits for its
/// request, or lingers after its answer), and how to drop it.
struct Held {
    id: u64,
    idle: Arc<AtomicBool>,
    task: tokio::task::AbortHandle,
}

/// Answers scrapes on `listener` until the server stops.
pub async fn serve(listener: TcpListener, hub: Arc<Hub>, gate: Arc<Gate>) {
    let registry = Arc::new(registry(Arc::clone(&hub), gate));
    // Oldest first.
    let held: Arc<Mutex<VecDeque<Held>>> = Arc::default();
    let mut shutdown = hub.shutdown.subscribe();
    let mut next = 0u64;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = shutdown.changed() => return,
        };
        let (stream, addr) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                log(&format!("metrics: accept failed: {error}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let mut open = held.lock().unwrap_or_else(|p| p.into_inner());
        if open.len() >= MAX_OPEN {
            match open.iter().position(|h| h.idle.load(Ordering::Relaxed)) {
                Some(oldest) => {
                    if let Some(dropped) = open.remove(oldest) {
                        dropped.task.abort();
                    }
                }
                // Every one is being answered (a moment): the newcomer goes.
                None => continue,
            }
        }
        next += 1;
        let id = next;
        let idle = Arc::new(AtomicBool::new(true));
        let registry = Arc::clone(&registry);
        let (flag, list) = (Arc::clone(&idle), Arc::clone(&held));
        let task = tokio::spawn(async move {
            answer(stream, addr, &registry, &flag).await;
            list.lock()
                .unwrap_or_else(|p| p.into_inner())
                .retain(|h| h.id != id);
        });
        open.push_back(Held {
            id,
            idle,
            task: task.abort_handle(),
        });
    }
}

/// Reads one request and answers it; the connection then closes. `idle` is cleared
/// while the answer is made and written.
async fn answer(mut stream: TcpStream, addr: SocketAddr, registry: &Registry, idle: &AtomicBool) {
    let request = tokio::time::timeout(REQUEST_TIMEOUT, read_head(&mut stream)).await;
    idle.store(false, Ordering::Relaxed);
    let (status, body) = match request {
        Ok(Some(head)) => respond(&head, registry),
        Ok(None) => ("400 Bad Request", "bad request\n".to_owned()),
        Err(_) => ("408 Request Timeout", "request timeout\n".to_owned()),
    };
    let content_type = if status.starts_with("200") {
        "application/openmetrics-text; version=1.0.0; charset=utf-8"
    } else {
        "text/plain; charset=utf-8"
    };
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    if let Err(error) = stream.write_all(response.as_bytes()).await {
        tracing::debug!("metrics: cannot answer {addr}: {error}");
    }
    let _ = stream.shutdown().await;
    idle.store(true, Ordering::Relaxed);
    // What the client still sends (a head past the bound) is read and dropped, within
    // bounds, before closing: a close with unread input would reset the connection and
    // the client could lose the answer.
    let _ = tokio::time::timeout(LINGER, async {
        let mut buffer = [0u8; 4096];
        let mut left = LINGER_BYTES;
        while left > 0 {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(read) => left = left.saturating_sub(read),
            }
        }
    })
    .await;
}

/// The request's head (up to its blank line); `None` when it is too long or the
/// client closed first.
async fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::new();
    let mut buffer = [0u8; 1024];
    loop {
        let read = stream.read(&mut buffer).await.ok()?;
        if read == 0 {
            return None;
        }
        head.extend_from_slice(&buffer[..read]);
        if head.windows(4).any(|w| w == b"\r\n\r\n") || head.windows(2).any(|w| w == b"\n\n") {
            return Some(head);
        }
        if head.len() > MAX_REQUEST {
            return None;
        }
    }
}

/// The status and body for a request head.
fn respond(head: &[u8], registry: &Registry) -> (&'static str, String) {
    let text = String::from_utf8_lossy(head);
    let mut words = text.lines().next().unwrap_or("").split_whitespace();
    let (Some(method), Some(target), Some(version)) = (words.next(), words.next(), words.next())
    else {
        return ("400 Bad Request", "bad request\n".to_owned());
    };
    if !version.starts_with("HTTP/1.") {
        return ("400 Bad Request", "bad request\n".to_owned());
    }
    let path = target.split('?').next().unwrap_or(target);
    match (method, path) {
        ("GET", "/metrics") => {
            let mut body = String::new();
            match prometheus_client::encoding::text::encode(&mut body, registry) {
                Ok(()) => ("200 OK", body),
                Err(_) => (
                    "500 Internal Server Error",
                    "cannot encode the metrics\n".to_owned(),
                ),
            }
        }
        (_, "/metrics") => ("405 Method Not Allowed", "GET /metrics\n".to_owned()),
        _ => ("404 Not Found", "not found: GET /metrics\n".to_owned()),
    }
}
