//! The move tree after the header: one record per node, in preorder, each saying whether
//! a first child (the next move) follows and whether a next sibling (an alternative to this
//! move) follows its subtree. The first record is a dummy root that holds the comment before
//! the first move. Version 10 records are 8 bytes (from, to, flags, reserved, comment
//! length) and a comment; version 11 and later drop the length unless flag 0x20 says there
//! is a comment, and scramble squares, lengths and bytes with the file's keys.

use crate::board::{Move, Position, Square};
use crate::record::{Annotation, Line};

use super::error::{XqfError, XqfErrorKind};
use super::header::{HEADER_LEN, decode_gbk};
use super::keys::{FIRST_SCRAMBLED, Keys};
use super::pieces::square;

pub use crate::record::MAX_NESTING;

/// Lines longer than this (in plies from the start) are refused: no game is that long, and
/// the position's move counters would overflow.
pub const MAX_PLIES: usize = 20_000;

/// What the flags byte says, version by version.
pub mod flags {
    /// Version 10: a next move follows (XQF.TXT writes 0xf0).
    pub const PLAIN_NEXT: u8 = 0xf0;
    /// Version 10: an alternative follows (as vschess reads it).
    pub const PLAIN_SIBLING: u8 = 0x0f;
    /// Version 11 and later.
    pub const NEXT: u8 = 0x80;
    pub const SIBLING: u8 = 0x40;
    pub const COMMENT: u8 = 0x20;
}

/// One record of the tree.
#[derive(Debug)]
pub struct Node {
    /// Where the record starts in the file.
    pub offset: usize,
    /// The move; the root's is meaningless.
    pub from: Square,
    pub to: Square,
    pub comment: Option<String>,
    pub first_child: Option<usize>,
    pub next_sibling: Option<usize>,
}

/// How the next record hangs in the tree.
enum Link {
    ChildOf(usize),
    SiblingOf(usize),
}

/// One record as stored, its flags read and its comment cut out; squares still raw.
struct Raw<'a> {
    from: u8,
    to: u8,
    has_next: bool,
    has_sibling: bool,
    comment: &'a [u8],
    /// The record's size in bytes, comment included.
    len: usize,
}

/// Reads record `record` at the start of `rest` (the unscrambled tree from there on).
fn raw<'a>(
    rest: &'a [u8],
    record: usize,
    plain: bool,
    keys: &Keys,
) -> Result<Raw<'a>, XqfErrorKind> {
    let truncated = |needed: usize| XqfErrorKind::TruncatedTree {
        record,
        needed,
        left: rest.len(),
    };
    let word = |at: usize| u32::from_le_bytes([rest[at], rest[at + 1], rest[at + 2], rest[at + 3]]);
    let fixed = if plain { 8 } else { 4 };
    if rest.len() < fixed {
        return Err(truncated(fixed));
    }
    let tag = rest[2];
    let (has_next, has_sibling, has_comment) = if plain {
        // Version 10 always stores a comment length, zero when there is none.
        (
            tag & flags::PLAIN_NEXT != 0,
            tag & flags::PLAIN_SIBLING != 0,
            true,
        )
    } else {
        let comment = tag & flags::COMMENT != 0;
        (tag & flags::NEXT != 0, tag & flags::SIBLING != 0, comment)
    };
    let head = if has_comment { 8 } else { 4 };
    if rest.len() < head {
        return Err(truncated(head));
    }
    let comment_len = if !has_comment {
        0
    } else if plain {
        word(4)
    } else {
        let stored = word(4);
        stored
            .checked_sub(keys.comment)
            .ok_or_else(|| XqfErrorKind::BadRecord {
                record,
                what: format!(
                    "comment length 0x{stored:08x} is below its key 0x{:04x}",
                    keys.comment
                ),
            })?
    };
    let comment_len = usize::try_from(comment_len).unwrap_or(usize::MAX);
    if comment_len > rest.len() - head {
        return Err(truncated(head.saturating_add(comment_len)));
    }
    Ok(Raw {
        from: rest[0],
        to: rest[1],
        has_next,
        has_sibling,
        comment: &rest[head..head + comment_len],
        len: head + comment_len,
    })
}

/// Reads the records of the tree in `file` (the whole file, header included); the tree
/// ends at the record that leaves no branch open, and bytes after it are ignored.
pub fn read_nodes(file: &[u8], version: u8, keys: &Keys) -> Result<Vec<Node>, XqfError> {
    let mut tree = file[HEADER_LEN..].to_vec();
    keys.unscramble(&mut tree);
    let plain = version < FIRST_SCRAMBLED;
    let mut nodes: Vec<Node> = Vec::new();
    // Nodes with both a child and a sibling: the sibling comes after the child's subtree.
    let mut pending: Vec<usize> = Vec::new();
    let mut link = None;
    let mut at = 0;
    loop {
        let index = nodes.len();
        let offset = HEADER_LEN + at;
        let record =
            raw(&tree[at..], index, plain, keys).map_err(|kind| XqfError::new(offset, kind))?;
        let off_board = |which: &str, byte: u8| {
            let what = format!("{which} square 0x{byte:02x} is off the board");
            XqfError::new(
                offset,
                XqfErrorKind::BadRecord {
                    record: index,
                    what,
                },
            )
        };
        // The root stands for the start position: its squares and sibling flag mean nothing.
        let (from, to, has_sibling) = if index == 0 {
            (Square::from_index(0), Square::from_index(0), false)
        } else {
            let from = record.from.wrapping_sub(24).wrapping_sub(keys.from);
            let to = record.to.wrapping_sub(32).wrapping_sub(keys.to);
            (
                square(from).ok_or_else(|| off_board("from", from))?,
                square(to).ok_or_else(|| off_board("to", to))?,
                record.has_sibling,
            )
        };
        match link {
            Some(Link::ChildOf(parent)) => nodes[parent].first_child = Some(index),
            Some(Link::SiblingOf(elder)) => nodes[elder].next_sibling = Some(index),
            None => {}
        }
        nodes.push(Node {
            offset,
            from,
            to,
            comment: (!record.comment.is_empty()).then(|| decode_gbk(record.comment)),
            first_child: None,
            next_sibling: None,
        });
        at += record.len;
        link = if record.has_next {
            if has_sibling {
                pending.push(index);
            }
            Some(Link::ChildOf(index))
        } else if has_sibling {
            Some(Link::SiblingOf(index))
        } else if let Some(elder) = pending.pop() {
            Some(Link::SiblingOf(elder))
        } else {
            return Ok(nodes);
        };
    }
}

/// The line that starts at node `first` in `pos`, its first move at ply `ply`. Every move's
/// later siblings become its variations, except the first move's when `own_siblings` is
/// false (they are the caller's, alternatives of the same move).
pub fn line(
    nodes: &[Node],
    first: usize,
    mut pos: Position,
    mut ply: usize,
    own_siblings: bool,
    depth: usize,
) -> Result<Line, XqfError> {
    let mut line = Line::default();
    let mut next = Some(first);
    while let Some(index) = next {
        let node = &nodes[index];
        let mv = Move::new(node.from, node.to);
        if ply > MAX_PLIES {
            return Err(XqfError::new(
                node.offset,
                XqfErrorKind::TooLong {
                    record: index,
                    max: MAX_PLIES,
                },
            ));
        }
        if !pos.is_legal(mv) {
            return Err(XqfError::new(
                node.offset,
                XqfErrorKind::IllegalMove {
                    record: index,
                    ply,
                    mv: mv.iccs(),
                },
            ));
        }
        let mut note = Annotation {
            comment: node.comment.clone(),
            ..Annotation::default()
        };
        let mut sibling = if index != first || own_siblings {
            node.next_sibling
        } else {
            None
        };
        while let Some(alternative) = sibling {
            if depth >= MAX_NESTING {
                return Err(XqfError::new(
                    nodes[alternative].offset,
                    XqfErrorKind::TooDeep {
                        record: alternative,
                        max: MAX_NESTING,
                    },
                ));
            }
            let variation = self::line(nodes, alternative, pos.clone(), ply, false, depth + 1)?;
            note.variations.push(variation);
            sibling = nodes[alternative].next_sibling;
        }
        line.moves.push(mv);
        line.notes.push(note);
        pos.make_move(mv);
        // Only legality is asked of `pos`: without its history, a variation's copy is cheap.
        pos.clear_history();
        ply += 1;
        next = node.first_child;
    }
    while line.notes.last().is_some_and(Annotation::is_empty) {
        line.notes.pop();
    }
    Ok(line)
}
