//! Writing a file so that a crash never leaves half of it: the autosave, saved games and
//! the server's rooms are all written this way.

use std::io::{self, Write};
use std::path::Path;

/// Writes `contents` to `path` atomically: a temporary file in the same folder, then a
/// rename, so a crash never leaves half a file.
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
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
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
}
