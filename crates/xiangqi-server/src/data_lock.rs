//! One server per data directory: `serve` holds an OS lock on `DATA/serve.lock` while it
//! runs, and a second one on the same directory is refused at start with the path and
//! the holder's process id (two servers would share the store and the rooms, each
//! believing its own copy). The lock is the OS's (`File::try_lock`: flock on Unix,
//! LockFileEx on Windows), so it ends with the process however it ends, `kill -9` too.
//!
//! The holder's id is written beside the lock (`serve.pid`), not in the locked file:
//! Windows' lock keeps other processes from reading the file it covers.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::Write;
use std::path::{Path, PathBuf};

const LOCK_FILE: &str = "serve.lock";
const PID_FILE: &str = "serve.pid";

/// The data directory held; dropping it lets another server start there.
#[derive(Debug)]
pub struct DataDirLock {
    /// Held open: the lock lasts as long as the handle.
    _file: File,
    pid_path: PathBuf,
}

impl DataDirLock {
    /// Takes the lock of `dir` (created if missing), or says who holds it.
    pub fn acquire(dir: &Path) -> Result<DataDirLock, String> {
        std::fs::create_dir_all(dir)
            .map_err(|error| format!("{}: cannot create it ({error})", dir.display()))?;
        let path = dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|error| format!("{}: cannot open it ({error})", path.display()))?;
        let pid_path = dir.join(PID_FILE);
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(&pid_path)
                    .ok()
                    .and_then(|text| text.trim().parse::<u32>().ok())
                    .map_or_else(
                        || "another process".to_owned(),
                        |pid| format!("process {pid}"),
                    );
                return Err(format!(
                    "{}: the data directory is in use by another `xiangqi-tui serve` \
                     ({holder}); stop it first, or give this one another --data-dir",
                    path.display()
                ));
            }
            Err(TryLockError::Error(error)) => {
                return Err(format!("{}: cannot lock it ({error})", path.display()));
            }
        }
        let mut pid = File::create(&pid_path)
            .map_err(|error| format!("{}: cannot write it ({error})", pid_path.display()))?;
        writeln!(pid, "{}", std::process::id())
            .map_err(|error| format!("{}: cannot write it ({error})", pid_path.display()))?;
        Ok(DataDirLock {
            _file: file,
            pid_path,
        })
    }
}

impl Drop for DataDirLock {
    fn drop(&mut self) {
        // The lock itself goes with the handle; the id would only mislead.
        let _ = std::fs::remove_file(&self.pid_path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holder_and_free_again_once_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let held = DataDirLock::acquire(dir.path()).unwrap();
        let refused = DataDirLock::acquire(dir.path()).unwrap_err();
        let path = dir.path().join("serve.lock");
        assert_eq!(
            refused,
            format!(
                "{}: the data directory is in use by another `xiangqi-tui serve` (process {}); \
                 stop it first, or give this one another --data-dir",
                path.display(),
                std::process::id()
            )
        );
        drop(held);
        assert!(!dir.path().join("serve.pid").exists());
        DataDirLock::acquire(dir.path()).unwrap();
    }
}
