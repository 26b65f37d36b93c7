//! Text encoding of game record files: UTF-8, GB18030/GBK (mainland) or Big5 (Taiwan, Hong
//! Kong), detected from the bytes (§5).

use std::fmt;

use encoding_rs::{BIG5, Encoding, GB18030, UTF_8};
use thiserror::Error;

/// The encoding a record file was found to be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextEncoding {
    Utf8,
    Gb18030,
    Big5,
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Gb18030 => "GB18030",
            TextEncoding::Big5 => "Big5",
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the file is not valid UTF-8, GB18030 or Big5 text")]
pub struct DecodeError;

/// Characters of xiangqi notation in either script. Big5 bytes nearly always decode as
/// *some* GB18030 text too (their byte ranges overlap), so validity alone cannot choose;
/// the decoding that yields more notation characters is the right one.
const NOTATION_CHARS: &str = "车車马馬炮砲包兵卒帅帥将將仕士相象进進退平前后後中\
                              一二三四五六七八九１２３４５６７８９";

fn notation_score(text: &str) -> usize {
    text.chars().filter(|c| NOTATION_CHARS.contains(*c)).count()
}

/// Decodes a record file: UTF-8 if the bytes are valid UTF-8 (a byte order mark is
/// dropped), otherwise GB18030 or Big5, whichever decodes without error and reads more like
/// xiangqi notation (GB18030 on a tie).
pub fn decode(bytes: &[u8]) -> Result<(String, TextEncoding), DecodeError> {
    let strict = |encoding: &'static Encoding, bytes: &[u8]| -> Option<String> {
        encoding
            .decode_without_bom_handling_and_without_replacement(bytes)
            .map(|text| text.into_owned())
    };
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(text) = strict(UTF_8, bytes) {
        return Ok((text, TextEncoding::Utf8));
    }
    let gb = strict(GB18030, bytes).map(|t| (notation_score(&t), t, TextEncoding::Gb18030));
    let big5 = strict(BIG5, bytes).map(|t| (notation_score(&t), t, TextEncoding::Big5));
    match (gb, big5) {
        (Some(g), Some(b)) => {
            let (_, text, encoding) = if b.0 > g.0 { b } else { g };
            Ok((text, encoding))
        }
        (Some((_, text, encoding)), None) | (None, Some((_, text, encoding))) => {
            Ok((text, encoding))
        }
        (None, None) => Err(DecodeError),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_encoding_is_recognised() {
        let text = "1. 炮二平五 馬８進７\n2. 馬二進三 車９平８\n";
        for (encoding, expected) in [
            (UTF_8, TextEncoding::Utf8),
            (GB18030, TextEncoding::Gb18030),
            (BIG5, TextEncoding::Big5),
        ] {
            let (bytes, _, unmappable) = encoding.encode(text);
            assert!(!unmappable);
            assert_eq!(decode(&bytes), Ok((text.to_string(), expected)));
        }
    }

    #[test]
    fn bom_is_dropped_and_garbage_rejected() {
        assert_eq!(
            decode(b"\xEF\xBB\xBF[Game \"Chinese Chess\"]").unwrap().0,
            "[Game \"Chinese Chess\"]"
        );
        assert_eq!(decode(b"\xFF\xFF\xFF"), Err(DecodeError));
    }
}
