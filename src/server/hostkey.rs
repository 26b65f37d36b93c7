//! The server's ed25519 host key: made on first start, kept with mode 0600, reused on
//! every start so clients never see a changed-key warning.

use std::io::{Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

use russh::keys::ssh_key::LineEnding;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{HashAlg, PrivateKey};

/// Reads the key at `path`, or makes one there. Errors name the file.
pub fn load_or_create(path: &Path) -> Result<PrivateKey, String> {
    let shown = path.display();
    if path.exists() {
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
        return russh::keys::load_secret_key(path, None)
            .map_err(|error| format!("{shown}: {error}"));
    }
    let mut seed = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut random| random.read_exact(&mut seed))
        .map_err(|error| format!("cannot read /dev/urandom: {error}"))?;
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
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
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
        let first = load_or_create(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let second = load_or_create(&path).unwrap();
        assert_eq!(fingerprint(&first), fingerprint(&second));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(load_or_create(&path).unwrap_err().contains("chmod 600"));
    }
}
