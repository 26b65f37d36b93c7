//! What the config reader and the theme reader share: parsing a TOML document with
//! spans, and collecting errors that point into it.

use std::ops::Range;
use std::path::Path;

use toml::de::{DeTable, DeValue};

use super::error::{ConfigError, ConfigErrors, ConfigProblem};
use super::raw_value::RawValue;
use super::source::span_start;

/// Errors found in one file, kept with their byte offsets so the report comes out
/// in file order whatever order the checks ran in.
pub(super) struct ErrorSink<'a> {
    text: &'a str,
    path: &'a Path,
    errors: Vec<(usize, ConfigError)>,
}

impl<'a> ErrorSink<'a> {
    pub fn new(text: &'a str, path: &'a Path) -> Self {
        ErrorSink {
            text,
            path,
            errors: Vec::new(),
        }
    }

    /// A problem at `span`, reported at its start.
    pub fn report(&mut self, span: Range<usize>, problem: ConfigProblem) {
        let position = span_start(self.text, &span);
        let error = ConfigError::at(self.path, position, problem);
        self.errors.push((span.start, error));
    }

    /// A problem with the file as a whole, listed first.
    pub fn report_file(&mut self, problem: ConfigProblem) {
        self.errors
            .push((0, ConfigError::in_file(self.path, problem)));
    }

    /// Parse the document. On a syntax error, report every one and return `None`:
    /// the recovered table is a guess, and checking it would add errors that vanish
    /// once the syntax is fixed.
    pub fn parse(&mut self) -> Option<DeTable<'a>> {
        let (root, syntax_errors) = DeTable::parse_recoverable(self.text);
        if syntax_errors.is_empty() {
            return Some(root.into_inner());
        }
        for error in syntax_errors {
            let problem = syntax_problem(self.text, &error);
            self.report(error.span().unwrap_or(0..0), problem);
        }
        None
    }

    pub fn finish(mut self) -> ConfigErrors {
        self.errors.sort_by_key(|(offset, _)| *offset);
        ConfigErrors(self.errors.into_iter().map(|(_, error)| error).collect())
    }
}

/// A TOML syntax error as a problem. toml reports a repeated key without naming
/// it; the span does, so that one gets its own message with the key.
fn syntax_problem(text: &str, error: &toml::de::Error) -> ConfigProblem {
    let message = error.message().trim().replace('\n', "; ");
    let spanned = error.span().and_then(|span| text.get(span));
    match spanned {
        Some(key) if message == "duplicate key" && !key.is_empty() => ConfigProblem::DuplicateKey {
            key: key.trim_matches(['"', '\'']).to_owned(),
        },
        _ => ConfigProblem::Syntax { message },
    }
}

/// A parsed value in the shape the settings' validation takes.
pub(super) fn raw_value<'a>(value: &'a DeValue<'_>) -> RawValue<'a> {
    match value {
        DeValue::String(text) => RawValue::String(text),
        DeValue::Integer(integer) => i64::from_str_radix(integer.as_str(), integer.radix()).map_or(
            RawValue::Other("an integer too large for 64 bits"),
            RawValue::Integer,
        ),
        DeValue::Float(_) => RawValue::Other("a float"),
        DeValue::Boolean(flag) => RawValue::Boolean(*flag),
        DeValue::Datetime(_) => RawValue::Other("a date-time"),
        DeValue::Array(_) => RawValue::Other("an array"),
        DeValue::Table(_) => RawValue::Other("a table"),
    }
}
