//! Writing a file so that a crash never leaves half of it: the autosave, saved games and
//! the server's rooms are all written this way.

use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers the temporary files of this process, so two threads writing the same file
/// never write into one temporary (each renames its own whole file into place).
static NEXT_TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// Writes `contents` to `path` atomically: a temporary file of its own in the same
/// folder, then a rename, so a crash never leaves half a file and two writers at once
/// leave one whole file or the other.
pub fn write_atomically(path: &Path, contents: &str) -> io::Result<()> {
    write_atomically_with(path, &mut |file| file.write_all(contents.as_bytes()))
}

/// The same, the contents written by `write` (a long file streamed, a trace).
pub fn write_atomically_with<T>(
    path: &Path,
    write: &mut dyn FnMut(&mut std::fs::File) -> io::Result<T>,
) -> io::Result<T> {
    let folder = path.parent().filter(|dir| !dir.as_os_str().is_empty());
    if let Some(folder) = folder {
        std::fs::create_dir_all(folder)?;
    }
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game".to_owned());
    let number = NEXT_TEMPORARY.fetch_add(1, Ordering::Relaxed);
    let temporary = path.with_file_name(format!(".{name}.{}.{number}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temporary)?;
        let value = write(&mut file)?;
        file.sync_all()?;
        std::fs::rename(&temporary, path)?;
        Ok(value)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_replace_the_file_and_leave_no_temporary() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("nested").join("autosave.pgn");
        write_atomically(&path, "one").unwrap();
        write_atomically(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(names, ["autosave.pgn"]);
    }

    #[test]
    fn writers_at_once_each_leave_a_whole_file() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("table.bin");
        let writers: Vec<_> = (0..8u8)
            .map(|n| {
                let path = path.clone();
                std::thread::spawn(move || {
                    let contents = vec![n; 64 * 1024];
                    write_atomically_with(&path, &mut |file| file.write_all(&contents))
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap().unwrap();
        }
        let written = std::fs::read(&path).unwrap();
        assert_eq!(written.len(), 64 * 1024);
        assert!(written.iter().all(|&byte| byte == written[0]));
        assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 1);
    }
}
