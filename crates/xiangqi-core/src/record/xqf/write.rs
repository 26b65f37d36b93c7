//! Writing a [`GameRecord`] as XQF: plain (version 10) or scrambled (11 and later) with
//! keys drawn from a seed, comments and variations included. NAGs and the comment before
//! a variation's first move have no place in the format and are left out.

use crate::board::Position;
use crate::record::{Annotation, GameRecord, Line};
use crate::rng::SplitMix64;

use super::header::{Header, TYPE_FULL, TYPE_MIDDLE, encode_gbk};
use super::keys::{FIRST_SCRAMBLED, Keys};
use super::pieces::{byte, write_board};
use super::read::MAGIC;
use super::tree::flags;

/// The seed `write_xqf` draws its keys from.
const DEFAULT_SEED: u64 = 0x5851_0a0b_0c0d_0e0f;

/// The record as an XQF file of `version` (10 plain; 11, 12, 18 ... scrambled), keys drawn
/// from a fixed seed.
pub fn write_xqf(record: &GameRecord, version: u8) -> Vec<u8> {
    write_xqf_seeded(record, version, DEFAULT_SEED)
}

/// As [`write_xqf`], the keys of a scrambled version drawn from `seed`: two seeds give
/// different bytes for the same game.
pub fn write_xqf_seeded(record: &GameRecord, version: u8, seed: u64) -> Vec<u8> {
    let tag = tag_bytes(version, seed);
    let keys = Keys::from_tag(&tag);
    let header = Header {
        tag,
        pieces: write_board(&record.start, version, &keys),
        black_to_move: record.start.side_to_move() == crate::board::Color::Black,
        result: record.result,
        kind: if same_board(&record.start, &Position::startpos()) {
            TYPE_FULL
        } else {
            TYPE_MIDDLE
        },
        tags: record.tags.clone(),
    };
    let mut out = header.write();
    let mut tree = Vec::new();
    let writer = TreeWriter {
        plain: version < FIRST_SCRAMBLED,
        keys: &keys,
    };
    let root = Step {
        bytes: [24u8.wrapping_add(keys.from), 32u8.wrapping_add(keys.to)],
        next: !record.moves.is_empty(),
        sibling: false,
        comment: record.comment.as_deref(),
    };
    writer.record(&mut tree, root, true);
    let main = LineRef {
        moves: &record.moves,
        notes: &record.notes,
    };
    writer.line(&mut tree, main, None);
    keys.scramble(&mut tree);
    out.extend_from_slice(&tree);
    out
}

/// Bytes 0..16: magic and version; for scrambled versions a key mask, four or-bytes and
/// four keys, the keys non-zero and summing to 0 (mod 256) as XQStudio draws them.
fn tag_bytes(version: u8, seed: u64) -> [u8; 16] {
    let mut tag = [0u8; 16];
    tag[..2].copy_from_slice(MAGIC);
    tag[2] = version;
    if version >= FIRST_SCRAMBLED {
        let mut rng = SplitMix64::new(seed);
        let mut draw = |low: usize, span: usize| (low + rng.below(span)) as u8;
        tag[3] = draw(0, 256);
        for byte in &mut tag[8..12] {
            *byte = draw(0, 256);
        }
        let (kp, kf, kt) = (draw(1, 255), draw(1, 255), draw(1, 255));
        tag[12] = 0u8.wrapping_sub(kp).wrapping_sub(kf).wrapping_sub(kt);
        tag[13..].copy_from_slice(&[kp, kf, kt]);
    }
    tag
}

fn same_board(a: &Position, b: &Position) -> bool {
    a.to_fen().split(' ').next() == b.to_fen().split(' ').next()
}

/// A line's moves and notes, the main line's or a variation's.
#[derive(Clone, Copy)]
struct LineRef<'a> {
    moves: &'a [crate::board::Move],
    notes: &'a [Annotation],
}

impl<'a> From<&'a Line> for LineRef<'a> {
    fn from(line: &'a Line) -> LineRef<'a> {
        LineRef {
            moves: &line.moves,
            notes: &line.notes,
        }
    }
}

/// One record to write.
struct Step<'a> {
    /// The from and to bytes, keys and their 24 and 32 added.
    bytes: [u8; 2],
    next: bool,
    sibling: bool,
    comment: Option<&'a str>,
}

struct TreeWriter<'a> {
    plain: bool,
    keys: &'a Keys,
}

/// The alternatives to a move, flattened: a variation's own first-move alternatives are
/// alternatives to the same move, so they follow it as siblings.
fn alternatives(variations: &[Line]) -> Vec<&Line> {
    let mut out = Vec::new();
    for variation in variations {
        out.push(variation);
        if let Some(first) = variation.notes.first() {
            out.extend(alternatives(&first.variations));
        }
    }
    out
}

impl TreeWriter<'_> {
    fn record(&self, out: &mut Vec<u8>, step: Step, root: bool) {
        let comment = step.comment.filter(|c| !c.is_empty()).map(encode_gbk);
        let len = comment.as_ref().map_or(0, Vec::len) as u32;
        let (next, sibling, flag_comment) = if self.plain {
            (flags::PLAIN_NEXT, flags::PLAIN_SIBLING, 0)
        } else {
            (flags::NEXT, flags::SIBLING, flags::COMMENT)
        };
        let mut tag = 0;
        if step.next {
            tag |= next;
        }
        if step.sibling {
            tag |= sibling;
        }
        if comment.is_some() {
            tag |= flag_comment;
        }
        // XQF.TXT's root has 0xff in its reserved byte.
        let reserved = if root && self.plain { 0xff } else { 0 };
        out.extend_from_slice(&[step.bytes[0], step.bytes[1], tag, reserved]);
        if self.plain {
            out.extend_from_slice(&len.to_le_bytes());
        } else if comment.is_some() {
            out.extend_from_slice(&len.wrapping_add(self.keys.comment).to_le_bytes());
        }
        if let Some(bytes) = comment {
            out.extend_from_slice(&bytes);
        }
    }

    /// Writes `line` in preorder: its moves one after another, then the alternatives of
    /// each move from the last back to the first (a move's siblings follow its subtree).
    /// `first_sibling` is set for a variation: whether another alternative follows it; its
    /// first move's own alternatives were flattened into the caller's list.
    fn line(&self, out: &mut Vec<u8>, line: LineRef, first_sibling: Option<bool>) {
        let mut later: Vec<Vec<&Line>> = Vec::with_capacity(line.moves.len());
        for (i, mv) in line.moves.iter().enumerate() {
            let note = line.notes.get(i);
            let alternatives = match (i, first_sibling) {
                (0, Some(_)) => Vec::new(),
                _ => note.map_or_else(Vec::new, |n| alternatives(&n.variations)),
            };
            let sibling = match (i, first_sibling) {
                (0, Some(sibling)) => sibling,
                _ => !alternatives.is_empty(),
            };
            let step = Step {
                bytes: [
                    byte(mv.from())
                        .wrapping_add(24)
                        .wrapping_add(self.keys.from),
                    byte(mv.to()).wrapping_add(32).wrapping_add(self.keys.to),
                ],
                next: i + 1 < line.moves.len(),
                sibling,
                comment: note.and_then(|n| n.comment.as_deref()),
            };
            self.record(out, step, false);
            later.push(alternatives);
        }
        for alternatives in later.iter().rev() {
            for (k, variation) in alternatives.iter().enumerate() {
                let more = k + 1 < alternatives.len();
                self.line(out, LineRef::from(*variation), Some(more));
            }
        }
    }
}
