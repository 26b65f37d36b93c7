//! The server's ed25519 host key: made on first start, kept with mode 0600 (on Windows,
//! which has no modes, private through the data folder's access list: a user's profile
//! folders are that user's alone), reused on every start so clients never see a
//! changed-key warning. Its public half is kept
//! beside it (`KEY.pub`) as a record: a key that goes missing is replaced with a loud
//! warning naming the old and the new fingerprints, not silently.

use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use xiangqi_core::atomic_file::write_atomically;

use russh::keys::ssh_key::LineEnding;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{HashAlg, PrivateKey};

/// The record of the key at `path`: `path` with `.pub` added.
pub fn record_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".pub");
    path.with_file_name(name)
}

/// The fingerprint the record beside `path` names, if there is a readable one.
fn recorded_fingerprint(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(record_path(path)).ok()?;
    let key = russh::keys::PublicKey::from_openssh(text.trim()).ok()?;
    Some(key.fingerprint(HashAlg::Sha256).to_string())
}

/// Writes the record of `key` beside `path` when it is missing or names another key.
fn write_record(path: &Path, key: &PrivateKey) -> Result<(), String> {
    if recorded_fingerprint(path).as_deref() == Some(fingerprint(key).as_str()) {
        return Ok(());
    }
    let record = record_path(path);
    let text = key
        .public_key()
        .to_openssh()
        .map_err(|error| format!("{}: {error}", record.display()))?;
    write_atomically(&record, &format!("{text}\n"))
        .map_err(|error| format!("{}: {error}", record.display()))
}

/// Reads the key at `path`, or makes one there; with warnings to log: it differs from
/// the key recorded beside it (every returning client will be warned), or the record
/// cannot be written. Errors name the file.
pub fn load_or_create(path: &Path) -> Result<(PrivateKey, Vec<String>), String> {
    let shown = path.display();
    let recorded = recorded_fingerprint(path);
    let existed = path.exists();
    let key = if existed { load(path)? } else { create(path)? };
    let now = fingerprint(&key);
    let mut warnings: Vec<String> = recorded
        .filter(|old| *old != now)
        .map(|old| {
            let how = if existed {
                "is not the one recorded beside it"
            } else {
                "was missing: made a new one"
            };
            format!(
                "WARNING: the host key {shown} {how} ({now}); the old one was {old}: \
             every returning client will see REMOTE HOST IDENTIFICATION HAS CHANGED"
            )
        })
        .into_iter()
        .collect();
    // Not fatal: the key itself is fine (a read-only data directory, say).
    if let Err(error) = write_record(path, &key) {
        warnings.push(format!("cannot keep the host key's record: {error}"));
    }
    Ok((key, warnings))
}

fn load(path: &Path) -> Result<PrivateKey, String> {
    let shown = path.display();
    #[cfg(unix)]
    {
        let mode = std::fs::metadata(path)
            .map_err(|error| format!("{shown}: {error}"))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            return Err(format!(
                "{shown}: the host key is readable by others (mode {:o}); chmod 600 it",
                mode & 0o777
            ));
        }
    }
    russh::keys::load_secret_key(path, None).map_err(|error| format!("{shown}: {error}"))
}

fn create(path: &Path) -> Result<PrivateKey, String> {
    let shown = path.display();
    let mut seed = [0u8; 32];
    xiangqi_core::rng::os_random(&mut seed)
        .map_err(|error| format!("{shown}: cannot make a key: {error}"))?;
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&seed));
    let text = key
        .to_openssh(LineEnding::LF)
        .map_err(|error| format!("{shown}: {error}"))?;
    if let Some(folder) = path
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty())
    {
        std::fs::create_dir_all(folder)
            .map_err(|error| format!("{}: {error}", folder.display()))?;
    }
    // Created with 0600 from the start: never readable by others, not even briefly.
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    options.mode(0o600);
    let mut file = options
        .open(path)
        .map_err(|error| format!("{shown}: {error}"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|error| format!("{shown}: {error}"))?;
    Ok(key)
}

/// The key's SHA256 fingerprint as OpenSSH prints it.
pub fn fingerprint(key: &PrivateKey) -> String {
    key.public_key().fingerprint(HashAlg::Sha256).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_made_once_with_mode_0600_and_reused() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("keys").join("host_ed25519");
        let (first, warnings) = load_or_create(&path).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        #[cfg(unix)]
        {
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let record = std::fs::read_to_string(folder.path().join("keys/host_ed25519.pub"));
        assert!(record.unwrap().starts_with("ssh-ed25519 "));
        let (second, warnings) = load_or_create(&path).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(fingerprint(&first), fingerprint(&second));
        #[cfg(unix)]
        {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert!(load_or_create(&path).unwrap_err().contains("chmod 600"));
        }
    }

    #[test]
    fn a_deleted_key_is_replaced_with_a_warning_naming_both_fingerprints() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("ssh_host_ed25519_key");
        let (old, _) = load_or_create(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let (new, warnings) = load_or_create(&path).unwrap();
        let [warning] = &warnings[..] else {
            panic!("{warnings:?}");
        };
        assert!(warning.starts_with("WARNING: the host key "), "{warning}");
        assert!(warning.contains("was missing: made a new one"), "{warning}");
        assert!(warning.contains(&fingerprint(&old)), "{warning}");
        assert!(warning.contains(&fingerprint(&new)), "{warning}");
        assert!(warning.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"));
        // The record now names the new key: the next start is quiet.
        assert!(load_or_create(&path).unwrap().1.is_empty());
    }

    #[test]
    fn a_key_without_a_record_gets_one_quietly() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("key");
        let (key, _) = load_or_create(&path).unwrap();
        std::fs::remove_file(record_path(&path)).unwrap();
        assert!(load_or_create(&path).unwrap().1.is_empty());
        assert_eq!(recorded_fingerprint(&path), Some(fingerprint(&key)));
    }
}
