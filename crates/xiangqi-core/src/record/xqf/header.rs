//! The 1024-byte XQF header: magic, version and keys, the piece array, side to move,
//! result, type and the length-prefixed GBK strings (XQFTOOLS/XQF.TXT in ElephantEye,
//! with the side-to-move byte as vschess reads it).

use encoding_rs::GB18030;

use crate::record::GameResult;

/// The header's size; the move tree starts right after it.
pub const HEADER_LEN: usize = 0x400;
/// Where the 32-byte piece array starts.
pub const PIECES_AT: usize = 0x10;
const WHO_PLAYS_AT: usize = 0x32;
const RESULT_AT: usize = 0x33;
const TYPE_AT: usize = 0x40;

/// The game types byte 0x40 names. Full games and openings start from the opening position.
pub const TYPE_FULL: u8 = 0;
pub const TYPE_MIDDLE: u8 = 2;

/// A text field: the tag it becomes, where its length byte is, and the room after it. The
/// title's room runs into the reserved block after it, as vschess writes long titles.
struct Field {
    tag: &'static str,
    at: usize,
    room: usize,
}

/// The header's strings, in the order their tags are listed. Event comes first: it is read
/// specially (the title stands in when it is empty).
const FIELDS: [Field; 11] = [
    Field {
        tag: "Event",
        at: 0xd0,
        room: 63,
    },
    Field {
        tag: "Title",
        at: 0x50,
        room: 127,
    },
    Field {
        tag: "Site",
        at: 0x120,
        room: 15,
    },
    Field {
        tag: "Date",
        at: 0x110,
        room: 15,
    },
    Field {
        tag: "Red",
        at: 0x130,
        room: 15,
    },
    Field {
        tag: "Black",
        at: 0x140,
        room: 15,
    },
    Field {
        tag: "TimeControl",
        at: 0x150,
        room: 63,
    },
    Field {
        tag: "RedTime",
        at: 0x190,
        room: 15,
    },
    Field {
        tag: "BlackTime",
        at: 0x1a0,
        room: 15,
    },
    Field {
        tag: "Annotator",
        at: 0x1d0,
        room: 15,
    },
    Field {
        tag: "Author",
        at: 0x1e0,
        room: 15,
    },
];

/// What the header says, its scrambled parts still raw.
#[derive(Debug, Clone)]
pub struct Header {
    /// Bytes 0..16: magic, version, key mask, key bytes.
    pub tag: [u8; 16],
    /// The piece array as stored (still offset and, from version 12, rotated).
    pub pieces: [u8; 32],
    /// 1 when Black moves first.
    pub black_to_move: bool,
    pub result: GameResult,
    /// 0 full game, 1 opening, 2 middle game, 3 endgame.
    pub kind: u8,
    /// Tags from the text fields, in `FIELDS` order, empty ones left out.
    pub tags: Vec<(String, String)>,
}

impl Header {
    pub fn version(&self) -> u8 {
        self.tag[2]
    }

    /// Reads a header from the file's first `HEADER_LEN` bytes.
    pub fn parse(bytes: &[u8; HEADER_LEN]) -> Header {
        let mut tag = [0u8; 16];
        tag.copy_from_slice(&bytes[..16]);
        let mut pieces = [0u8; 32];
        pieces.copy_from_slice(&bytes[PIECES_AT..PIECES_AT + 32]);
        let result = match bytes[RESULT_AT] {
            1 => GameResult::RedWins,
            2 => GameResult::BlackWins,
            3 => GameResult::Draw,
            _ => GameResult::Unknown,
        };
        let mut texts: Vec<(&str, String)> = FIELDS
            .iter()
            .map(|f| (f.tag, read_text(bytes, f)))
            .collect();
        // The title stands in for a missing event, and is not repeated when the same.
        if texts[0].1.is_empty() {
            texts[0].1 = std::mem::take(&mut texts[1].1);
        } else if texts[0].1 == texts[1].1 {
            texts[1].1.clear();
        }
        let tags = texts
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(t, v)| (t.to_string(), v))
            .collect();
        Header {
            tag,
            pieces,
            black_to_move: bytes[WHO_PLAYS_AT] == 1,
            result,
            kind: bytes[TYPE_AT],
            tags,
        }
    }

    /// Writes the header: `tag` and `pieces` already scrambled as the version wants.
    pub fn write(&self) -> Vec<u8> {
        let mut out = vec![0u8; HEADER_LEN];
        out[..16].copy_from_slice(&self.tag);
        out[PIECES_AT..PIECES_AT + 32].copy_from_slice(&self.pieces);
        out[WHO_PLAYS_AT] = u8::from(self.black_to_move);
        out[RESULT_AT] = match self.result {
            GameResult::Unknown => 0,
            GameResult::RedWins => 1,
            GameResult::BlackWins => 2,
            GameResult::Draw => 3,
        };
        out[TYPE_AT] = self.kind;
        let tag = |name: &str| {
            self.tags
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        for field in &FIELDS {
            // A title left out is the event's (so a reader that shows only the title sees it).
            let value = match field.tag {
                "Title" => tag("Title").or_else(|| tag("Event")),
                name => tag(name),
            };
            write_text(&mut out, field, value.unwrap_or(""));
        }
        out
    }
}

/// A field's text: GBK (read as GB18030, its superset), cut to the room it has, trailing
/// NULs and white space around it dropped. Bad bytes become U+FFFD: a name is not worth refusing a game.
fn read_text(bytes: &[u8], field: &Field) -> String {
    let len = usize::from(bytes[field.at]).min(field.room);
    let raw = &bytes[field.at + 1..field.at + 1 + len];
    let (text, _) = GB18030.decode_without_bom_handling(raw);
    text.trim_matches(|c: char| c == '\0' || c.is_whitespace())
        .to_string()
}

/// Writes `text` as GBK into `field`, cut after the last whole character that fits.
fn write_text(out: &mut [u8], field: &Field, text: &str) {
    // The title may run into the reserved block when read, but is written in its own 63.
    let fitted = fitting_prefix(text, field.room.min(63));
    out[field.at] = fitted.len() as u8;
    out[field.at + 1..field.at + 1 + fitted.len()].copy_from_slice(&fitted);
}

/// GBK (GB18030) bytes of `text`.
pub fn encode_gbk(text: &str) -> Vec<u8> {
    GB18030.encode(text).0.into_owned()
}

/// The GBK bytes of the longest run of whole leading characters of `text` within `room`.
fn fitting_prefix(text: &str, room: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4];
    for c in text.chars() {
        let bytes = encode_gbk(c.encode_utf8(&mut buf));
        if out.len() + bytes.len() > room {
            break;
        }
        out.extend_from_slice(&bytes);
    }
    out
}

/// GBK text of a comment: read as GB18030, line ends made `\n`.
pub fn decode_gbk(bytes: &[u8]) -> String {
    let (text, _) = GB18030.decode_without_bom_handling(bytes);
    text.replace("\r\n", "\n")
}
