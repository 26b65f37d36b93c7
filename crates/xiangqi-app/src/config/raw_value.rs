//! A value as the user wrote it, before a key's setter validates it.

/// A value as written in a config file or on the command line, before validation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RawValue<'a> {
    String(&'a str),
    Integer(i64),
    Boolean(bool),
    /// Any other TOML type, described for the error message ("a float", "an array").
    Other(&'static str),
}

impl RawValue<'_> {
    /// The value as an error message quotes it: `the string "fast"`, `a float`.
    pub fn describe(&self) -> String {
        match self {
            RawValue::String(text) => format!("the string \"{text}\""),
            RawValue::Integer(number) => format!("the integer {number}"),
            RawValue::Boolean(flag) => format!("the boolean {flag}"),
            RawValue::Other(description) => (*description).to_owned(),
        }
    }
}
