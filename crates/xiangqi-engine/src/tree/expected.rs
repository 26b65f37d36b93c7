//! `.expected` files (§2.2): `key: value` lines, in order.

/// A malformed `.expected` line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ExpectedError {
    pub line: usize,
    pub message: String,
}

/// The keys and values of an `.expected` file, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expected {
    entries: Vec<(String, String)>,
}

impl Expected {
    /// Reads `key: value` lines; blank lines are skipped.
    pub fn parse(text: &str) -> Result<Expected, ExpectedError> {
        let mut entries: Vec<(String, String)> = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line_number = number + 1;
            if line.trim().is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(ExpectedError {
                    line: line_number,
                    message: format!("expected 'key: value', found '{line}'"),
                });
            };
            let key = key.trim();
            if key.is_empty() {
                return Err(ExpectedError {
                    line: line_number,
                    message: "empty key".to_string(),
                });
            }
            if entries.iter().any(|(existing, _)| existing == key) {
                return Err(ExpectedError {
                    line: line_number,
                    message: format!("duplicate key '{key}'"),
                });
            }
            entries.push((key.to_string(), value.trim().to_string()));
        }
        Ok(Expected { entries })
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(existing, _)| existing == key)
            .map(|(_, value)| value.as_str())
    }

    /// Every `(key, value)` pair, in file order.
    pub fn entries(&self) -> &[(String, String)] {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_keys_in_order() {
        let expected = Expected::parse("value: 3\nbest move: B\n\nsss leaves: 1.1 2.1\n").unwrap();
        assert_eq!(expected.get("best move"), Some("B"));
        assert_eq!(expected.get("sss leaves"), Some("1.1 2.1"));
        assert_eq!(expected.entries().len(), 3);
        assert_eq!(expected.entries()[0].0, "value");
    }

    #[test]
    fn rejects_malformed_lines() {
        let error = Expected::parse("value: 3\nnonsense\n").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 2: expected 'key: value', found 'nonsense'"
        );
        assert!(Expected::parse("a: 1\na: 2").is_err());
    }
}
