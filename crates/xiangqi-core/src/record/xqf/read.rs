//! Reading an XQF file into a [`GameRecord`].

use crate::board::{Color, Position, Square};
use crate::record::GameRecord;

use super::error::{XqfError, XqfErrorKind};
use super::header::{HEADER_LEN, Header, PIECES_AT, TYPE_MIDDLE};
use super::keys::Keys;
use super::pieces::{position, read_board};
use super::tree::{line, read_nodes};

/// The magic bytes every XQF file starts with.
pub const MAGIC: &[u8; 2] = b"XQ";

/// True if `bytes` start like an XQF file.
pub fn is_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads an XQF file of any version: its tags, start position, main line, comments and
/// variations. Every move must be legal.
pub fn read_xqf(bytes: &[u8]) -> Result<GameRecord, XqfError> {
    if !is_xqf(bytes) {
        let found = match bytes.len() {
            0 => "none: the file is empty".to_string(),
            _ => bytes
                .iter()
                .take(2)
                .map(|b| format!("{b:02X}"))
                .collect::<Vec<_>>()
                .join(" "),
        };
        return Err(XqfError::new(0, XqfErrorKind::NotXqf { found }));
    }
    let Some(head) = bytes.first_chunk::<HEADER_LEN>() else {
        return Err(XqfError::new(
            bytes.len(),
            XqfErrorKind::TruncatedHeader { len: bytes.len() },
        ));
    };
    let header = Header::parse(head);
    let version = header.version();
    let keys = Keys::from_tag(&header.tag);
    let nodes = read_nodes(bytes, version, &keys)?;
    let first_from = nodes[0].first_child.map(|i| nodes[i].from);
    let start = match start_position(&header, &keys, first_from) {
        Ok(start) => start,
        // Full games and openings start from the opening position; ElephantEye does not
        // even read their piece array, so a broken one there is not worth refusing.
        Err(_) if header.kind < TYPE_MIDDLE => Position::startpos(),
        Err(e) => return Err(e),
    };
    let mut record = GameRecord::new(start.clone());
    record.tags = header.tags;
    record.result = header.result;
    record.comment = nodes[0].comment.clone();
    if let Some(first) = nodes[0].first_child {
        let main = line(&nodes, first, start, 1, true, 0)?;
        record.moves = main.moves;
        record.notes = main.notes;
    }
    Ok(record)
}

/// The position the piece array describes. The side to move is the header's, unless the
/// first move (from `first_from`) is the other side's piece: older writers leave the byte
/// 0, and XiangQi Wizard follows the move.
fn start_position(
    header: &Header,
    keys: &Keys,
    first_from: Option<Square>,
) -> Result<Position, XqfError> {
    let bad = |offset: usize, why: String| XqfError::new(offset, XqfErrorKind::BadPieces(why));
    let board = read_board(&header.pieces, header.version(), keys)
        .map_err(|(slot, why)| bad(PIECES_AT + slot, why))?;
    let mover = first_from.map(|from| board[from.index()]);
    let side = match mover {
        Some(piece) if piece.is_some() => piece.color(),
        _ if header.black_to_move => Color::Black,
        _ => Color::Red,
    };
    position(&board, side).map_err(|e| bad(PIECES_AT, e.to_string()))
}
