//! Accepting connections: the open-file limit and a reserve descriptor so the server
//! can always accept, refuse politely and close; the gate's verdict; and each
//! connection's life with its deadlines (sign in within `login_grace`, start a session
//! within `channel_grace`) and the shutdown.

use std::fs::File;
use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use russh::server::run_stream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use super::gate::{Admission, Gate, Stage};
use super::handler;
use super::hub::Hub;
use super::log;

/// Raises the soft limit on open files to the hard limit; says what it did.
#[cfg(unix)]
pub fn raise_open_file_limit() -> String {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return format!(
            "open files: cannot read the limit: {}",
            io::Error::last_os_error()
        );
    }
    let soft = limit.rlim_cur;
    if soft >= limit.rlim_max {
        return format!("open files: at most {soft}");
    }
    let raised = libc::rlimit {
        rlim_cur: limit.rlim_max,
        rlim_max: limit.rlim_max,
    };
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } != 0 {
        return format!(
            "open files: at most {soft} (cannot raise to {}: {})",
            limit.rlim_max,
            io::Error::last_os_error()
        );
    }
    format!(
        "open files: at most {} (raised from {soft})",
        limit.rlim_max
    )
}

/// Windows has no per-process limit on open files to raise: sockets and handles are
/// bounded by memory alone.
#[cfg(not(unix))]
pub fn raise_open_file_limit() -> String {
    "open files: no per-process limit on this system".to_owned()
}

/// Tells a refused client why in one plain line (as sshd does) and closes, without
/// waiting: the line fits in a fresh socket's buffer.
fn refuse(stream: TcpStream, why: &str) {
    let Ok(mut stream) = stream.into_std() else {
        return;
    };
    let _ = stream.write_all(format!("xiangqi-tui: {why}\r\n").as_bytes());
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // Unread input makes the close a reset, which can destroy the line before the
    // client reads it: take what has already come (bounded: a client that keeps
    // sending must not hold up the accept loop).
    let mut sink = [0u8; 1024];
    for _ in 0..16 {
        if !matches!(stream.read(&mut sink), Ok(n) if n > 0) {
            break;
        }
    }
}

#[cfg(unix)]
fn out_of_descriptors(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}

/// Winsock's WSAEMFILE (10024): no socket left.
#[cfg(not(unix))]
fn out_of_descriptors(error: &io::Error) -> bool {
    error.raw_os_error() == Some(10024)
}

/// A descriptor held back for the moment the server runs out.
fn reserve() -> Option<File> {
    File::open(if cfg!(windows) { "NUL" } else { "/dev/null" }).ok()
}

/// Counts events to log at most once a second.
struct Throttle {
    last: Option<Instant>,
    count: u64,
}

impl Throttle {
    /// Counts one at `now`; the count to report when a second has passed since the
    /// last report.
    fn count(&mut self, now: Instant) -> Option<u64> {
        self.count += 1;
        let due = self
            .last
            .is_none_or(|last| now.duration_since(last) >= Duration::from_secs(1));
        due.then(|| {
            self.last = Some(now);
            std::mem::take(&mut self.count)
        })
    }
}

pub async fn accept_loop(
    listener: TcpListener,
    config: Arc<russh::server::Config>,
    hub: Arc<Hub>,
    gate: Arc<Gate>,
) {
    let mut spare = reserve();
    let mut exhausted = Throttle {
        last: None,
        count: 0,
    };
    loop {
        let (socket, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) if out_of_descriptors(&error) => {
                // Free the reserve for one accept, refuse that client, take it back.
                let refused = spare.take().is_some()
                    && match tokio::time::timeout(Duration::from_millis(100), listener.accept())
                        .await
                    {
                        Ok(Ok((socket, _))) => {
                            refuse(socket, "the server is busy: try again later");
                            true
                        }
                        _ => false,
                    };
                spare = reserve();
                if let Some(count) = exhausted.count(Instant::now()) {
                    log(&format!(
                        "out of file descriptors ({error}) {count} times since the last report: \
                         refusing new connections"
                    ));
                }
                if !refused || spare.is_none() {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                continue;
            }
            Err(error) => {
                log(&format!("accept failed: {error}"));
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let admission = match gate.admit(addr.ip()) {
            Ok(admission) => admission,
            Err(why) => {
                log(&format!("{addr} refused: {why}"));
                refuse(socket, &why.to_string());
                continue;
            }
        };
        let _ = socket.set_nodelay(true);
        log(&format!("{addr} connected"));
        tokio::spawn(connection(
            socket,
            addr,
            Arc::clone(&config),
            Arc::clone(&hub),
            admission,
        ));
    }
}

/// One connection from accept to close. The SSH side runs in russh's task; this one
/// enforces the deadlines and the shutdown, and holds the connection's place.
async fn connection(
    socket: TcpStream,
    addr: SocketAddr,
    config: Arc<russh::server::Config>,
    hub: Arc<Hub>,
    admission: Arc<Admission>,
) {
    let settings = &hub.settings;
    let (login_grace, channel_grace) = (settings.login_grace, settings.channel_grace);
    let mut shutdown = hub.shutdown.subscribe();
    let mut stage = admission.stage();
    let switch = Arc::new(KillSwitch::default());
    let stream = Killable {
        inner: socket,
        switch: Arc::clone(&switch),
    };
    let handler = handler::Client::new(Arc::clone(&hub), Some(addr), Arc::clone(&admission));
    // The client's banner is part of the login: russh waits for it inside run_stream.
    let mut deadline = tokio::time::Instant::now() + login_grace;
    let greeted = tokio::select! {
        greeted = tokio::time::timeout_at(deadline, run_stream(config, stream, handler)) => greeted,
        _ = shutdown.changed() => {
            log(&format!("{addr} closed: server stopping"));
            return;
        }
    };
    let running = match greeted {
        Ok(Ok(running)) => running,
        Ok(Err(error)) => {
            log(&format!("{addr} failed: {error}"));
            return;
        }
        Err(_) => {
            log(&format!("{addr} closed: no sign-in within {login_grace:?}"));
            return;
        }
    };
    let handle = running.handle();
    tokio::pin!(running);
    let reason = loop {
        let current = *stage.borrow_and_update();
        tokio::select! {
            result = &mut running => {
                match result {
                    Err(error) => log(&format!("{addr} closed: {error}")),
                    Ok(()) => log(&format!("{addr} closed")),
                }
                return;
            }
            changed = stage.changed() => {
                if changed.is_ok() && *stage.borrow() == Stage::SignedIn {
                    deadline = tokio::time::Instant::now() + channel_grace;
                }
            }
            () = tokio::time::sleep_until(deadline), if current != Stage::Started => {
                break if current == Stage::Login {
                    format!("no sign-in within {login_grace:?}")
                } else {
                    format!("no session within {channel_grace:?}")
                };
            }
            _ = shutdown.changed() => {
                // Let the session say goodbye first.
                tokio::time::sleep(Duration::from_millis(300)).await;
                break "server stopping".to_owned();
            }
        }
    };
    log(&format!("{addr} closed: {reason}"));
    let polite = Duration::from_secs(2);
    let _ = tokio::time::timeout(
        polite,
        handle.disconnect(russh::Disconnect::ByApplication, reason, String::new()),
    )
    .await;
    // A client that does not read may hold russh's task up: then cut the socket.
    if tokio::time::timeout(polite, &mut running).await.is_err() {
        switch.kill();
        let _ = tokio::time::timeout(polite, &mut running).await;
    }
}

/// Makes a stream fail from the outside, so a connection's task ends even when its
/// client stops reading.
#[derive(Default)]
struct KillSwitch {
    killed: AtomicBool,
    /// The read and write sides' wakers.
    wakers: Mutex<[Option<Waker>; 2]>,
}

impl KillSwitch {
    fn kill(&self) {
        self.killed.store(true, Ordering::Release);
        let wakers = std::mem::take(&mut *self.wakers.lock().unwrap_or_else(|p| p.into_inner()));
        wakers.into_iter().flatten().for_each(Waker::wake);
    }

    /// An error once killed; else remembers `cx` to be woken by `kill`.
    fn check(&self, side: usize, cx: &Context<'_>) -> io::Result<()> {
        if !self.killed.load(Ordering::Acquire) {
            let mut wakers = self.wakers.lock().unwrap_or_else(|p| p.into_inner());
            if !wakers[side]
                .as_ref()
                .is_some_and(|w| w.will_wake(cx.waker()))
            {
                wakers[side] = Some(cx.waker().clone());
            }
            drop(wakers);
            // Killed between the load and the store: the waker may be missed.
            if !self.killed.load(Ordering::Acquire) {
                return Ok(());
            }
        }
        Err(io::Error::new(
            io::ErrorKind::ConnectionAborted,
            "closed by the server",
        ))
    }
}

struct Killable {
    inner: TcpStream,
    switch: Arc<KillSwitch>,
}

impl AsyncRead for Killable {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.switch.check(0, cx)?;
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Killable {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.switch.check(1, cx)?;
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.switch.check(1, cx)?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_logged_at_most_once_a_second_with_its_count() {
        let start = Instant::now();
        let mut throttle = Throttle {
            last: None,
            count: 0,
        };
        assert_eq!(throttle.count(start), Some(1));
        for tenth in 1..10 {
            assert_eq!(
                throttle.count(start + Duration::from_millis(100 * tenth)),
                None
            );
        }
        assert_eq!(throttle.count(start + Duration::from_secs(1)), Some(10));
        assert_eq!(throttle.count(start + Duration::from_millis(1500)), None);
    }
}
