//! Configuration errors: what is wrong, and where (`FILE:LINE:COL`, a file, or a flag).

use std::fmt;
use std::path::{Path, PathBuf};

/// Where a configuration problem was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A position in a file; line and column are 1-based, columns count characters.
    Position {
        path: PathBuf,
        line: usize,
        column: usize,
    },
    /// A whole file (it could not be read, or it lacks something).
    File(PathBuf),
    /// A command-line flag such as `--depth`.
    Flag(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Position { path, line, column } => {
                write!(f, "{}:{line}:{column}", path.display())
            }
            Origin::File(path) => write!(f, "{}", path.display()),
            Origin::Flag(flag) => f.write_str(flag),
        }
    }
}

/// What is wrong. Each message names the key and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigProblem {
    #[error("invalid TOML: {message}")]
    Syntax { message: String },
    #[error("invalid TOML: `{key}` is set twice")]
    DuplicateKey { key: String },
    #[error("cannot read the file: {reason}")]
    Unreadable { reason: String },
    #[error("unknown key `{key}`{}; allowed keys: {}", did_you_mean(.suggestion), .allowed.join(", "))]
    UnknownKey {
        key: String,
        suggestion: Option<String>,
        allowed: Vec<String>,
    },
    #[error("`{key}` must be {expected}, found {found}")]
    WrongType {
        key: String,
        expected: String,
        found: String,
    },
    #[error("`{key}` = {value} is out of range: it must be {allowed}")]
    OutOfRange {
        key: String,
        value: String,
        allowed: String,
    },
    #[error("`{key}` = \"{value}\" is not a known {kind}{}; allowed: {}", did_you_mean(.suggestion), list_or_none(.allowed))]
    UnknownName {
        key: String,
        kind: String,
        value: String,
        suggestion: Option<String>,
        allowed: Vec<String>,
    },
    #[error("`{key}` = \"{value}\" is not valid: {reason}")]
    Invalid {
        key: String,
        value: String,
        reason: String,
    },
    #[error("missing {}: {reason}", .keys.iter().map(|key| format!("`{key}`")).collect::<Vec<_>>().join(", "))]
    MissingKeys { keys: Vec<String>, reason: String },
}

impl ConfigProblem {
    /// The key the problem is about (dotted for nested tables), if any.
    pub fn key(&self) -> Option<&str> {
        match self {
            ConfigProblem::Syntax { .. } | ConfigProblem::Unreadable { .. } => None,
            ConfigProblem::UnknownKey { key, .. }
            | ConfigProblem::WrongType { key, .. }
            | ConfigProblem::OutOfRange { key, .. }
            | ConfigProblem::UnknownName { key, .. }
            | ConfigProblem::Invalid { key, .. }
            | ConfigProblem::DuplicateKey { key } => Some(key),
            ConfigProblem::MissingKeys { keys, .. } => keys.first().map(String::as_str),
        }
    }
}

/// An allowed range as the error messages say it ("from 1 to 64"), not as Rust writes it.
pub fn range_text(min: impl std::fmt::Display, max: impl std::fmt::Display) -> String {
    format!("from {min} to {max}")
}

fn did_you_mean(suggestion: &Option<String>) -> String {
    match suggestion {
        Some(word) => format!(" (did you mean `{word}`?)"),
        None => String::new(),
    }
}

fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none are defined".to_owned()
    } else {
        items.join(", ")
    }
}

/// One configuration error, displayed as `ORIGIN: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}: {problem}")]
pub struct ConfigError {
    pub origin: Origin,
    /// Boxed: errors travel in `Result`s and the problem is the bulky part.
    pub problem: Box<ConfigProblem>,
}

impl ConfigError {
    pub fn new(origin: Origin, problem: ConfigProblem) -> Self {
        let problem = Box::new(problem);
        ConfigError { origin, problem }
    }

    pub fn at(path: &Path, (line, column): (usize, usize), problem: ConfigProblem) -> Self {
        let origin = Origin::Position {
            path: path.to_path_buf(),
            line,
            column,
        };
        ConfigError::new(origin, problem)
    }

    pub fn in_file(path: &Path, problem: ConfigProblem) -> Self {
        ConfigError::new(Origin::File(path.to_path_buf()), problem)
    }

    pub fn flag(flag: &str, problem: ConfigProblem) -> Self {
        ConfigError::new(Origin::Flag(flag.to_owned()), problem)
    }

    /// The key the error is about, if any.
    pub fn key(&self) -> Option<&str> {
        self.problem.key()
    }

    /// `(line, column)` when the error points into a file.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        match self.origin {
            Origin::Position { line, column, .. } => Some((line, column)),
            _ => None,
        }
    }
}

/// Every error found, in file order; displayed one per line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl ConfigErrors {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, ConfigError> {
        self.0.iter()
    }

    pub fn push(&mut self, error: ConfigError) {
        self.0.push(error);
    }

    pub fn extend(&mut self, other: ConfigErrors) {
        self.0.extend(other.0);
    }

    /// `Ok(value)` when nothing was collected.
    pub fn into_result<T>(self, value: T) -> Result<T, ConfigErrors> {
        if self.is_empty() {
            Ok(value)
        } else {
            Err(self)
        }
    }
}

impl From<ConfigError> for ConfigErrors {
    fn from(error: ConfigError) -> Self {
        ConfigErrors(vec![error])
    }
}

impl IntoIterator for ConfigErrors {
    type Item = ConfigError;
    type IntoIter = std::vec::IntoIter<ConfigError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a ConfigErrors {
    type Item = &'a ConfigError;
    type IntoIter = std::slice::Iter<'a, ConfigError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, error) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_file_line_column_then_message() {
        let error = ConfigError::at(
            Path::new("/tmp/config.toml"),
            (3, 9),
            ConfigProblem::OutOfRange {
                key: "depth".into(),
                value: "0".into(),
                allowed: "from 1 to 64".into(),
            },
        );
        assert_eq!(
            error.to_string(),
            "/tmp/config.toml:3:9: `depth` = 0 is out of range: it must be from 1 to 64"
        );
        assert_eq!(error.key(), Some("depth"));
        assert_eq!(error.line_column(), Some((3, 9)));
    }

    #[test]
    fn unknown_key_suggests_and_lists() {
        let error = ConfigError::flag(
            "--profile",
            ConfigProblem::UnknownName {
                key: "profile".into(),
                kind: "profile".into(),
                value: "begginer".into(),
                suggestion: Some("beginner".into()),
                allowed: vec!["beginner".into(), "sss-study".into()],
            },
        );
        assert_eq!(
            error.to_string(),
            "--profile: `profile` = \"begginer\" is not a known profile (did you mean `beginner`?); \
             allowed: beginner, sss-study"
        );
    }
}
