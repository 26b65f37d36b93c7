//! Where the driver's input comes from: the terminal (keys, mouse, paste, resize),
//! signals (SIGINT, SIGTERM, SIGHUP), a watch for the terminal hanging up, and the engine.
//! Each source is a thread sending `Incoming` into one bounded channel.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::sync::mpsc::SyncSender;
use std::thread;

use crossterm::event::{self, Event, KeyEventKind};
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use xiangqi_app::key::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

use xiangqi_app::action::Action;
use xiangqi_engine::service::{EngineEvent, EventSink};

/// Messages the main loop handles, from every source.
#[derive(Debug)]
pub enum Incoming {
    Action(Action),
    /// SIGINT, SIGTERM or SIGHUP: save and leave.
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
pub fn spawn_signals(sender: SyncSender<Incoming>, restore: fn()) -> std::io::Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut seen = false;
            for signal in signals.forever() {
                if seen {
                    restore();
                    std::process::exit(128 + signal);
                }
                seen = true;
                if sender.send(Incoming::Signal(signal)).is_err() {
                    return;
                }
            }
        })?;
    Ok(())
}

/// Watches the controlling terminal for a hang-up. crossterm's reader can spin on a
/// terminal that reads end-of-file forever, so this does not depend on it: it sleeps in
/// `poll` asking for no events, which wakes only on a hang-up or an error.
pub fn spawn_hangup_watch(sender: SyncSender<Incoming>) -> std::io::Result<()> {
    watch_for_hangup(File::open("/dev/tty")?, sender)
}

/// Sends `TerminalLost` once `tty` hangs up; sleeps until then.
fn watch_for_hangup(tty: File, sender: SyncSender<Incoming>) -> std::io::Result<()> {
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
                if watched.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
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

#[cfg(test)]
mod tests {
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
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
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
