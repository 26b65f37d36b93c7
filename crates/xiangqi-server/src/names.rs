//! Who is called what: the display names of connected users. A name is checked in
//! full (never cut to fit) and a name a connected user holds cannot be taken by
//! anyone else while they are connected; the same key may hold its name in several
//! sessions.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use xiangqi_app::game::ResumeCode;

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 16;

/// The display name for the SSH user name `user` (in its one spelling, see
/// `name_rules`), or why it cannot be one.
pub fn display_name(user: &str) -> Result<String, String> {
    if user.is_empty() {
        return Ok("guest".to_owned());
    }
    let user = &super::name_rules::normalized(user)?;
    if user.chars().count() > MAX_NAME_CHARS {
        return Err(format!(
            "the name is too long ({MAX_NAME_CHARS} characters at most): connect as ssh NAME@host"
        ));
    }
    if user.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(
            "the name has spaces or control characters: connect as ssh NAME@host".to_owned(),
        );
    }
    Ok(user.to_owned())
}

/// A fresh resume code from the system's random source (no file to open: it works
/// when the server is out of file descriptors too).
pub fn new_resume_code() -> Result<ResumeCode, String> {
    let mut bytes = [0u8; 8];
    xiangqi_core::rng::os_random(&mut bytes)?;
    Ok(ResumeCode::from_random(bytes))
}

/// The identity of the guest seats a resume code takes.
pub fn guest_identity(code: &ResumeCode) -> String {
    format!("guest:{}", code.as_str())
}

/// The names in use, by their skeleton (look-alikes are one name): skeleton ->
/// (the name as held, identity, sessions).
#[derive(Debug, Default)]
pub struct Names {
    held: Mutex<HashMap<String, (String, String, usize)>>,
}

/// A name held by a session; dropping it frees the name (with its last session).
#[derive(Debug)]
pub struct NameClaim {
    names: Arc<Names>,
    /// The name's skeleton.
    name: String,
}

impl Names {
    /// Holds `name` for `identity`, unless another identity holds it (or a name that
    /// looks like it) now.
    pub fn claim(self: &Arc<Self>, name: &str, identity: &str) -> Result<NameClaim, String> {
        let skeleton = super::name_rules::skeleton(name);
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let entry = held
            .entry(skeleton.clone())
            .or_insert_with(|| (name.to_owned(), identity.to_owned(), 0));
        if entry.1 != identity {
            return Err(if entry.0 == name {
                format!("the name {name} is in use: connect with another name (ssh OTHER@host)")
            } else {
                format!(
                    "the name {name} looks like {}, in use by another user: connect with \
                     another name (ssh OTHER@host)",
                    entry.0
                )
            });
        }
        entry.2 += 1;
        Ok(NameClaim {
            names: Arc::clone(self),
            name: skeleton,
        })
    }
}

impl Drop for NameClaim {
    fn drop(&mut self) {
        let mut held = self.names.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = held.get_mut(&self.name) {
            entry.2 -= 1;
            if entry.2 == 0 {
                held.remove(&self.name);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_in_full() {
        assert_eq!(display_name("ann").as_deref(), Ok("ann"));
        assert_eq!(display_name("").as_deref(), Ok("guest"));
        assert_eq!(display_name("象棋大师").as_deref(), Ok("象棋大师"));
        assert!(display_name("abcdefghijklmnop").is_ok());
        assert!(
            display_name("abcdefghijklmnopq")
                .unwrap_err()
                .contains("too long")
        );
        assert!(display_name("a\u{1b}]2;x").is_err());
        assert!(
            display_name("legit\u{200b}")
                .unwrap_err()
                .contains("invisible")
        );
        assert_eq!(display_name("ｂｏｂ").as_deref(), Ok("bob"));
        assert!(display_name("a b").is_err());
    }

    #[test]
    fn a_held_name_is_refused_to_others_until_its_last_session_ends() {
        let names = Arc::new(Names::default());
        let first = names.claim("ann", "key-a").unwrap();
        let second = names.claim("ann", "key-a").unwrap();
        assert!(
            names
                .claim("ann", "guest:X")
                .unwrap_err()
                .contains("in use")
        );
        assert!(names.claim("bob", "guest:X").is_ok());
        // A look-alike (a Cyrillic а) is the same name.
        assert_eq!(
            names.claim("\u{430}nn", "guest:Y").unwrap_err(),
            "the name \u{430}nn looks like ann, in use by another user: connect with another \
             name (ssh OTHER@host)"
        );
        drop(first);
        assert!(names.claim("ann", "guest:X").is_err());
        drop(second);
        assert!(names.claim("ann", "guest:X").is_ok());
    }
}
