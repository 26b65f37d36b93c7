//! Where the driver's input comes from: the terminal (keys, mouse, paste, resize),
//! signals (SIGINT, SIGTERM, SIGHUP; on Windows the console's events), a watch for the
//! terminal hanging up, and the engine. Each source is a thread sending `Incoming` into
//! one bounded channel.

use std::sync::mpsc::SyncSender;
use std::thread;

use crossterm::event::{self, Event, KeyEventKind};
use xiangqi_app::key::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use xiangqi_app::action::Action;
use xiangqi_engine::service::{EngineEvent, EventSink};

/// Messages the main loop handles, from every source.
#[derive(Debug)]
pub enum Incoming {
    Action(Action),
    /// SIGINT, SIGTERM or SIGHUP (on Windows, the console's events as these: see
    /// `spawn_signals`): save and leave.
    Signal(i32),
    /// The terminal cannot be read any more (an SSH link dropped): save and leave.
    TerminalLost(String),
}

/// Capacity of the channel; a full channel makes a flooding source (a traced search)
/// wait rather than grow memory without bound.
pub const CHANNEL_CAPACITY: usize = 1024;

fn convert(event: Event) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => {
            let key = app_key(key)?;
            tracing::trace!(target: xiangqi_app::KEYS_LOG_TARGET, ?key, "key");
            Some(Action::Key(key))
        }
        // Only clicks and the wheel mean anything; moves and drags would only cost redraws.
        Event::Mouse(mouse) => app_mouse(mouse).map(Action::Mouse),
        Event::Paste(text) => {
            tracing::trace!(target: xiangqi_app::KEYS_LOG_TARGET, %text, "paste");
            Some(Action::Paste(text))
        }
        Event::Resize(width, height) => Some(Action::Resize(width, height)),
        _ => None,
    }
}

/// crossterm's key as the app's; `None` for keys the app has no use for (media keys,
/// a modifier alone, caps lock).
fn app_key(key: event::KeyEvent) -> Option<KeyEvent> {
    use event::KeyCode as Code;
    let code = match key.code {
        Code::Backspace => KeyCode::Backspace,
        Code::Enter => KeyCode::Enter,
        Code::Left => KeyCode::Left,
        Code::Right => KeyCode::Right,
        Code::Up => KeyCode::Up,
        Code::Down => KeyCode::Down,
        Code::Home => KeyCode::Home,
        Code::End => KeyCode::End,
        Code::PageUp => KeyCode::PageUp,
        Code::PageDown => KeyCode::PageDown,
        Code::Tab => KeyCode::Tab,
        Code::BackTab => KeyCode::BackTab,
        Code::Delete => KeyCode::Delete,
        Code::Insert => KeyCode::Insert,
        Code::F(n) => KeyCode::F(n),
        Code::Char(c) => KeyCode::Char(c),
        Code::Esc => KeyCode::Esc,
        _ => return None,
    };
    Some(KeyEvent::new(code, app_modifiers(key.modifiers)))
}

fn app_modifiers(modifiers: event::KeyModifiers) -> KeyModifiers {
    let mut out = KeyModifiers::NONE;
    for (theirs, ours) in [
        (event::KeyModifiers::SHIFT, KeyModifiers::SHIFT),
        (event::KeyModifiers::CONTROL, KeyModifiers::CONTROL),
        (event::KeyModifiers::ALT, KeyModifiers::ALT),
    ] {
        if modifiers.contains(theirs) {
            out |= ours;
        }
    }
    out
}

/// A click or a turn of the wheel as the app's; moves and drags would only cost redraws.
fn app_mouse(mouse: event::MouseEvent) -> Option<MouseEvent> {
    let button = |button| match button {
        event::MouseButton::Left => MouseButton::Left,
        event::MouseButton::Right => MouseButton::Right,
        event::MouseButton::Middle => MouseButton::Middle,
    };
    let kind = match mouse.kind {
        event::MouseEventKind::Down(pressed) => MouseEventKind::Down(button(pressed)),
        event::MouseEventKind::ScrollUp => MouseEventKind::ScrollUp,
        event::MouseEventKind::ScrollDown => MouseEventKind::ScrollDown,
        _ => return None,
    };
    Some(MouseEvent {
        kind,
        column: mouse.column,
        row: mouse.row,
        modifiers: app_modifiers(mouse.modifiers),
    })
}

/// Reads terminal events until reading fails or the main loop is gone.
pub fn spawn_input(sender: SyncSender<Incoming>) -> std::io::Result<()> {
    thread::Builder::new().name("input".into()).spawn(move || {
        loop {
            match event::read() {
                Ok(event) => {
                    let Some(action) = convert(event) else {
                        continue;
                    };
                    if sender.send(Incoming::Action(action)).is_err() {
                        return;
                    }
                }
                Err(error) => {
                    let _ = sender.send(Incoming::TerminalLost(error.to_string()));
                    return;
                }
            }
        }
    })?;
    Ok(())
}

/// Forwards SIGINT, SIGTERM and SIGHUP. A second signal while the first is being
/// handled ends the process at once (after restoring the terminal), so a stuck
/// shutdown can always be cut short.
#[cfg(unix)]
pub fn spawn_signals(sender: SyncSender<Incoming>, restore: fn()) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if !forward_signal(&sender, signal, restore) {
                    return;
                }
            }
        })?;
    Ok(())
}

/// Windows has no signals but the console's events, the same requests under other
/// names: Ctrl-Break (Ctrl-C is a key in raw mode, as on Unix) comes as SIGINT; the
/// console window closing (or the SSH session of a Windows OpenSSH server ending), the
/// user logging off and the system shutting down come as SIGHUP. The handler waits
/// while the main loop saves and leaves: Windows ends the process when it returns (or
/// after 5 seconds for a closing console).
#[cfg(windows)]
pub fn spawn_signals(sender: SyncSender<Incoming>, restore: fn()) -> std::io::Result<()> {
    console_events::install(sender, restore)
}

/// Passes `signal` on; the second one restores the terminal and ends the process. False
/// when the main loop is gone.
fn forward_signal(sender: &SyncSender<Incoming>, signal: i32, restore: fn()) -> bool {
    use std::sync::atomic::{AtomicBool, Ordering};
    static SEEN: AtomicBool = AtomicBool::new(false);
    if SEEN.swap(true, Ordering::SeqCst) {
        restore();
        std::process::exit(128 + signal);
    }
    sender.send(Incoming::Signal(signal)).is_ok()
}

#[cfg(windows)]
mod console_events {
    use std::sync::mpsc::SyncSender;
    use std::sync::{Mutex, OnceLock};
    use std::time::Duration;

    use windows_sys::Win32::System::Console::{
        CTRL_BREAK_EVENT, CTRL_C_EVENT, CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT,
        SetConsoleCtrlHandler,
    };
    use windows_sys::core::BOOL;

    use super::Incoming;

    /// Where the handler, on a thread of the system's, sends.
    struct Target {
        sender: Mutex<SyncSender<Incoming>>,
        restore: fn(),
    }

    static TARGET: OnceLock<Target> = OnceLock::new();

    pub fn install(sender: SyncSender<Incoming>, restore: fn()) -> std::io::Result<()> {
        let target = Target {
            sender: Mutex::new(sender),
            restore,
        };
        if TARGET.set(target).is_err() {
            return Ok(());
        }
        // SAFETY: `handler` is a function with the signature the system calls.
        if unsafe { SetConsoleCtrlHandler(Some(handler), 1) } == 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }

    unsafe extern "system" fn handler(event: u32) -> BOOL {
        const SIGINT: i32 = 2;
        const SIGHUP: i32 = 1;
        let signal = match event {
            CTRL_C_EVENT | CTRL_BREAK_EVENT => SIGINT,
            CTRL_CLOSE_EVENT | CTRL_LOGOFF_EVENT | CTRL_SHUTDOWN_EVENT => SIGHUP,
            _ => return 0,
        };
        let Some(target) = TARGET.get() else {
            return 0;
        };
        let sender = target
            .sender
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if super::forward_signal(&sender, signal, target.restore) && signal == SIGHUP {
            // The process ends when this returns: give the main loop the time to save and
            // leave (it exits the process itself, ending this wait).
            std::thread::sleep(Duration::from_secs(4));
        }
        1
    }

    #[cfg(test)]
    mod tests {
        use std::sync::mpsc;

        use super::*;

        #[test]
        fn ctrl_break_comes_as_sigint_and_other_events_are_left_to_the_system() {
            let (sender, received) = mpsc::sync_channel(4);
            install(sender, || {}).unwrap();
            // The system's other events (an unknown number here) go to the next handler.
            // SAFETY: the handler is an ordinary function; the system would call it the same.
            assert_eq!(unsafe { handler(99) }, 0);
            assert!(received.try_recv().is_err());
            // Ctrl-Break is handled (the process is not ended) and asks the TUI to leave.
            assert_eq!(unsafe { handler(CTRL_BREAK_EVENT) }, 1);
            match received.try_recv() {
                Ok(Incoming::Signal(signal)) => assert_eq!(signal, 2),
                other => panic!("{other:?}"),
            }
        }
    }
}

/// Watches the controlling terminal (standard input, which the TUI requires to be one)
/// for a hang-up. crossterm's reader can spin on a terminal that reads end-of-file
/// forever, so this does not depend on it: it sleeps in `poll` asking for no events,
/// which wakes only on a hang-up or an error.
#[cfg(unix)]
pub fn spawn_hangup_watch(sender: SyncSender<Incoming>) -> std::io::Result<()> {
    use std::os::fd::AsFd;
    let tty = std::io::stdin().as_fd().try_clone_to_owned()?;
    watch_for_hangup(tty.into(), sender)
}

/// On Windows a console that goes away sends its close event (see `spawn_signals`):
/// nothing to watch.
#[cfg(not(unix))]
pub fn spawn_hangup_watch(_sender: SyncSender<Incoming>) -> std::io::Result<()> {
    Ok(())
}

/// Sends `TerminalLost` once `tty` hangs up; sleeps until then.
#[cfg(unix)]
fn watch_for_hangup(tty: std::fs::File, sender: SyncSender<Incoming>) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    thread::Builder::new()
        .name("hangup-watch".into())
        .spawn(move || {
            let mut watched = libc::pollfd {
                fd: tty.as_raw_fd(),
                events: 0,
                revents: 0,
            };
            loop {
                // SAFETY: one valid pollfd, owned by this frame, for the duration of the call.
                let ready = unsafe { libc::poll(&mut watched, 1, -1) };
                if ready < 0 {
                    if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                        continue;
                    }
                    return;
                }
                // The descriptor is this thread's own, so it is never invalid: POLLNVAL
                // says the system cannot poll this device (macOS's poll and some
                // terminals): no watch, and the read errors and SIGHUP still end the TUI.
                if watched.revents & libc::POLLNVAL != 0 {
                    tracing::debug!("the terminal cannot be polled: no hang-up watch");
                    return;
                }
                if watched.revents & (libc::POLLHUP | libc::POLLERR) != 0 {
                    let _ = sender.send(Incoming::TerminalLost("the terminal hung up".into()));
                    return;
                }
            }
        })?;
    Ok(())
}

/// An engine sink that feeds the main loop.
pub fn engine_sink(sender: SyncSender<Incoming>) -> EventSink {
    Box::new(move |event: EngineEvent| sender.send(Incoming::Action(Action::Engine(event))).is_ok())
}

#[cfg(all(test, unix))]
mod tests {
    use std::fs::File;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::sync::mpsc;

    use super::*;

    #[test]
    fn a_terminal_whose_other_end_closes_is_reported_lost() {
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes two new descriptors into the two integers.
        let opened = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                // Linux takes the last two as const, macOS as mut: mut serves both.
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(opened, 0, "{}", std::io::Error::last_os_error());
        // SAFETY: both descriptors were just opened and are owned here alone.
        let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), File::from_raw_fd(slave)) };
        let (sender, received) = mpsc::sync_channel(1);
        watch_for_hangup(slave, sender).unwrap();
        // Closing the terminal's other end is what an SSH disconnect does to it.
        drop(master);
        match received.recv().unwrap() {
            Incoming::TerminalLost(why) => assert_eq!(why, "the terminal hung up"),
            other => panic!("{other:?}"),
        }
    }
}
