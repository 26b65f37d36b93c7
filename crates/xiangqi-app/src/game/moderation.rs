//! The server host's moderation commands as data: `kick NAME`, `ban TARGET [REASON]`,
//! `unban TARGET`, `close ROOM`, typed in a room (`:kick bob`), in the lobby or given as
//! the SSH command. Who may run them and what they do is the server's.

use super::lobby::valid_room_name;

/// Which moderation command (a room's `:` command line knows the verb before its
/// argument is read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModerationVerb {
    Kick,
    Ban,
    Unban,
    Close,
}

impl ModerationVerb {
    pub const ALL: [ModerationVerb; 4] = [
        ModerationVerb::Kick,
        ModerationVerb::Ban,
        ModerationVerb::Unban,
        ModerationVerb::Close,
    ];

    /// The word typed.
    pub const fn name(self) -> &'static str {
        match self {
            ModerationVerb::Kick => "kick",
            ModerationVerb::Ban => "ban",
            ModerationVerb::Unban => "unban",
            ModerationVerb::Close => "close",
        }
    }

    pub fn usage(self) -> &'static str {
        match self {
            ModerationVerb::Kick => "kick NAME",
            ModerationVerb::Ban => "ban NAME|KEY|ADDRESS [REASON]",
            ModerationVerb::Unban => "unban NAME|KEY|ADDRESS",
            ModerationVerb::Close => "close ROOM",
        }
    }
}

/// A moderation command with its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Moderation {
    /// Ends every session of the user called so.
    Kick(String),
    /// Bans a name, a key fingerprint or an address (the server tells them apart); the
    /// reason may be empty.
    Ban {
        target: String,
        reason: String,
    },
    Unban(String),
    /// Ends a room; its players are told.
    Close(String),
}

impl Moderation {
    /// `verb` with the text typed after it; the error is the usage line.
    pub fn parse(verb: ModerationVerb, argument: &str) -> Result<Moderation, String> {
        let argument = argument.trim();
        let (first, rest) = match argument.split_once(char::is_whitespace) {
            Some((first, rest)) => (first, rest.trim()),
            None => (argument, ""),
        };
        let usage = || Err(format!("usage: {}", verb.usage()));
        if first.is_empty() {
            return usage();
        }
        match verb {
            ModerationVerb::Ban => Ok(Moderation::Ban {
                target: first.to_owned(),
                reason: rest.chars().filter(|c| !c.is_control()).take(200).collect(),
            }),
            _ if !rest.is_empty() => usage(),
            ModerationVerb::Kick => Ok(Moderation::Kick(first.to_owned())),
            ModerationVerb::Unban => Ok(Moderation::Unban(first.to_owned())),
            ModerationVerb::Close if valid_room_name(first) => {
                Ok(Moderation::Close(first.to_owned()))
            }
            ModerationVerb::Close => Err(format!(
                "bad room name '{}': 1-16 ASCII letters, digits or '-'",
                first.chars().take(20).collect::<String>()
            )),
        }
    }

    /// A whole line (`kick bob`, `:ban 203.0.113.9 spam`) when its first word is a
    /// moderation verb: `None` for any other line.
    pub fn parse_line(line: &str) -> Option<Result<Moderation, String>> {
        let line = line.trim();
        let line = line.strip_prefix(':').unwrap_or(line);
        let (word, argument) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let verb = ModerationVerb::ALL
            .into_iter()
            .find(|verb| verb.name() == word)?;
        Some(Moderation::parse(verb, argument))
    }

    pub fn verb(&self) -> ModerationVerb {
        match self {
            Moderation::Kick(_) => ModerationVerb::Kick,
            Moderation::Ban { .. } => ModerationVerb::Ban,
            Moderation::Unban(_) => ModerationVerb::Unban,
            Moderation::Close(_) => ModerationVerb::Close,
        }
    }
}

/// Whether `text` is an SSH key's SHA256 fingerprint as OpenSSH prints it:
/// `SHA256:` and 43 characters of unpadded base64.
pub fn is_key_fingerprint(text: &str) -> bool {
    text.strip_prefix("SHA256:").is_some_and(|digest| {
        digest.len() == 43
            && digest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";

    #[test]
    fn commands_are_read_with_their_arguments() {
        assert_eq!(
            Moderation::parse_line("kick bob"),
            Some(Ok(Moderation::Kick("bob".into())))
        );
        assert_eq!(
            Moderation::parse_line(":ban 203.0.113.9  spamming the chat "),
            Some(Ok(Moderation::Ban {
                target: "203.0.113.9".into(),
                reason: "spamming the chat".into()
            }))
        );
        assert_eq!(
            Moderation::parse(ModerationVerb::Ban, KEY),
            Ok(Moderation::Ban {
                target: KEY.into(),
                reason: String::new()
            })
        );
        assert_eq!(
            Moderation::parse_line("unban bob"),
            Some(Ok(Moderation::Unban("bob".into())))
        );
        assert_eq!(
            Moderation::parse_line("close r7"),
            Some(Ok(Moderation::Close("r7".into())))
        );
        assert_eq!(Moderation::parse_line("new human r1"), None);
        assert_eq!(Moderation::parse_line("kicks bob"), None);
    }

    #[test]
    fn a_bad_argument_is_one_line_of_usage() {
        assert_eq!(
            Moderation::parse(ModerationVerb::Kick, " "),
            Err("usage: kick NAME".into())
        );
        assert_eq!(
            Moderation::parse_line("unban a b"),
            Some(Err("usage: unban NAME|KEY|ADDRESS".into()))
        );
        assert_eq!(
            Moderation::parse_line("close ../etc"),
            Some(Err(
                "bad room name '../etc': 1-16 ASCII letters, digits or '-'".into()
            ))
        );
    }

    #[test]
    fn fingerprints_are_sha256_as_openssh_prints_them() {
        assert!(is_key_fingerprint(KEY));
        assert!(!is_key_fingerprint("SHA256:short"));
        assert!(!is_key_fingerprint(&KEY.replace("SHA256", "MD5")));
        assert!(!is_key_fingerprint(&format!("{KEY}=")));
        assert!(!is_key_fingerprint(&KEY.replace('u', "-")));
    }
}
