//! The system the program runs on, and what stands in where it lacks something the
//! program uses elsewhere: signals, the watch for a hung-up terminal, huge pages for the
//! engine's hash table, file modes for the server's host key.

use super::Check;

/// How the terminal UI and the server are stopped, and what else differs here.
#[cfg(target_os = "linux")]
const NOTES: &str = "SIGINT, SIGTERM and SIGHUP save and leave; a hung-up terminal is noticed \
                     at once; the engine's hash table asks for huge pages";

#[cfg(all(unix, not(target_os = "linux")))]
const NOTES: &str = "SIGINT, SIGTERM and SIGHUP save and leave; a hung-up terminal is noticed \
                     where the system can poll it, else by SIGHUP and the failed read; the \
                     engine's hash table uses ordinary pages (huge pages are Linux's)";

#[cfg(windows)]
const NOTES: &str = "no Unix signals: Ctrl-Break, closing the console window, logging off and \
                     shutting down save and leave (Ctrl-C is a key in the terminal UI; it stops \
                     `serve`); the server's host key is private through its folder's access \
                     list (no file modes); no open-file limit to raise; the engine's hash table \
                     uses ordinary pages";

#[cfg(not(any(unix, windows)))]
const NOTES: &str = "a system this program is not tested on";

pub fn check() -> Check {
    Check::ok(
        "system",
        format!(
            "{} {}: {NOTES}",
            std::env::consts::OS,
            std::env::consts::ARCH
        ),
    )
}
