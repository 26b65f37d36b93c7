//! Reading protocol lines with a length cap, without trusting the input: a line longer
//! than the cap is skipped to its end without being stored, and bytes that are not UTF-8
//! are reported rather than decoded.

use std::io::{self, BufRead, BufReader, Read};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line ending.
    Text(String),
    /// A line longer than the cap (its length in bytes).
    TooLong(usize),
    NotUtf8,
}

pub struct LineReader<R: Read> {
    reader: BufReader<R>,
    cap: usize,
}

impl<R: Read> LineReader<R> {
    pub fn new(input: R, cap: usize) -> Self {
        LineReader {
            reader: BufReader::new(input),
            cap,
        }
    }

    /// The next line, or `None` at the end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut bytes = Vec::new();
        let mut length = 0usize;
        let mut seen_any = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !seen_any {
                    return Ok(None);
                }
                break;
            }
            seen_any = true;
            let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            length += part.len();
            if length <= self.cap {
                bytes.extend_from_slice(part);
            }
            let used = done.unwrap_or(part.len());
            self.reader.consume(used);
            if done.is_some() {
                break;
            }
        }
        if length > self.cap {
            return Ok(Some(Line::TooLong(length)));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        Ok(Some(match String::from_utf8(bytes) {
            Ok(text) => Line::Text(text),
            Err(_) => Line::NotUtf8,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines_and_flags_bad_ones() {
        let mut input = b"uci\r\nisready\n".to_vec();
        input.extend_from_slice(&[0xff, 0xfe, b'\n']);
        input.extend(std::iter::repeat_n(b'x', 100));
        input.extend_from_slice(b"\nlast");
        let mut reader = LineReader::new(&input[..], 50);
        assert_eq!(reader.next_line().unwrap(), Some(Line::Text("uci".into())));
        assert_eq!(
            reader.next_line().unwrap(),
            Some(Line::Text("isready".into()))
        );
        assert_eq!(reader.next_line().unwrap(), Some(Line::NotUtf8));
        assert_eq!(reader.next_line().unwrap(), Some(Line::TooLong(100)));
        assert_eq!(reader.next_line().unwrap(), Some(Line::Text("last".into())));
        assert_eq!(reader.next_line().unwrap(), None);
    }
}
