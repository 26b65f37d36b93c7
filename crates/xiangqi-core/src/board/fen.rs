//! Xiangqi FEN: reading with validation that rejects impossible positions, and writing the
//! standard form (notation.md §4).

use thiserror::Error;

use super::position::Position;
use super::tables::legal_points;
use super::types::{Color, Kind, Piece, Square};

/// Why a FEN string is not a xiangqi position. Each message says what and where.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("column {column}: unexpected character '{found}' in the board field")]
    BadCharacter { column: usize, found: char },
    #[error("column {column}: rank {rank} (field {field}) has {points} points, expected 9")]
    RankLength {
        column: usize,
        field: usize,
        rank: usize,
        points: usize,
    },
    #[error("the board field has {0} ranks, expected 10")]
    RankCount(usize),
    #[error("column {column}: side to move must be 'w', 'r' or 'b', found '{found}'")]
    BadSide { column: usize, found: String },
    #[error("column {column}: {field} must be a number, found '{found}'")]
    BadNumber {
        column: usize,
        field: &'static str,
        found: String,
    },
    #[error("column {column}: unexpected trailing field '{found}'")]
    TrailingField { column: usize, found: String },
    #[error("{0} has no general")]
    MissingGeneral(&'static str),
    #[error("{color} has {count} {kind}s, at most {max} allowed")]
    TooMany {
        color: &'static str,
        kind: &'static str,
        count: usize,
        max: usize,
    },
    #[error("{color} {kind} on {square} cannot stand there: {why}")]
    BadPlacement {
        color: &'static str,
        kind: &'static str,
        square: String,
        why: &'static str,
    },
    #[error("the generals face each other on file {0} with nothing between them")]
    GeneralsFacing(char),
    #[error("{0}, who just moved, is in check")]
    MoverInCheck(&'static str),
}

impl Position {
    /// Reads a xiangqi FEN. Accepts `w`/`r`/`b` for the side, `E`/`H`/`G` as aliases, and
    /// FENs that stop after the side field; rejects anything that cannot be a position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields = split_fields(fen);
        let Some(&(board_col, board)) = fields.first() else {
            return Err(FenError::Empty);
        };
        let mut pos = Position::empty();
        parse_board(&mut pos, board, board_col)?;

        if let Some(&(col, side)) = fields.get(1) {
            pos.side = match side {
                "w" | "r" | "W" | "R" => Color::Red,
                "b" | "B" => Color::Black,
                _ => {
                    return Err(FenError::BadSide {
                        column: col,
                        found: side.to_string(),
                    });
                }
            };
        }
        // Castling and en passant fields are always '-' in xiangqi; accept anything there.
        if let Some(&(col, clock)) = fields.get(4) {
            pos.halfmove_clock = parse_number(col, "the half-move clock", clock)?;
        }
        if let Some(&(col, number)) = fields.get(5) {
            pos.fullmove = parse_number(col, "the move number", number)?.max(1);
        }
        if let Some(&(col, extra)) = fields.get(6) {
            return Err(FenError::TrailingField {
                column: col,
                found: extra.to_string(),
            });
        }
        if pos.side == Color::Black {
            pos.key ^= super::zobrist::SIDE_KEY;
        }
        validate(&pos)?;
        pos.in_check = pos.is_attacked(pos.general(pos.side), pos.side.opponent());
        Ok(pos)
    }

    /// Writes the standard FEN: letters `KABNRCP`, side `w`/`b`, all six fields.
    pub fn to_fen(&self) -> String {
        let side = if self.side == Color::Red { 'w' } else { 'b' };
        format!(
            "{} {side} - - {} {}",
            placement(&self.board),
            self.halfmove_clock,
            self.fullmove
        )
    }
}

/// FEN's first field for a board indexed by `Square::index`: ranks 9 to 0, `/` between.
pub fn placement(board: &[Piece; 90]) -> String {
    let mut out = String::with_capacity(90);
    for y in (0..10).rev() {
        let mut empty = 0;
        for x in 0..9 {
            let p = board[Square::new(x, y).index()];
            if p.is_none() {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push(char::from(b'0' + empty));
                    empty = 0;
                }
                out.push(p.fen_char());
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if y > 0 {
            out.push('/');
        }
    }
    out
}

/// Splits on whitespace, remembering each field's 1-based character column.
fn split_fields(fen: &str) -> Vec<(usize, &str)> {
    let mut fields = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (column, byte offset)
    for (index, (byte, c)) in fen.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((column, b0)) = start.take() {
                fields.push((column, &fen[b0..byte]));
            }
        } else if start.is_none() {
            start = Some((index + 1, byte));
        }
    }
    if let Some((column, b0)) = start {
        fields.push((column, &fen[b0..]));
    }
    fields
}

fn parse_number(column: usize, field: &'static str, text: &str) -> Result<u16, FenError> {
    text.parse::<u16>().map_err(|_| FenError::BadNumber {
        column,
        field,
        found: text.to_string(),
    })
}

fn parse_board(pos: &mut Position, board: &str, first_column: usize) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    let mut column = first_column;
    for (field, text) in ranks.iter().enumerate() {
        let mut x = 0usize;
        let rank = 9usize.saturating_sub(field);
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                x += d as usize;
            } else if let Some(p) = Piece::from_fen_char(c) {
                if x < 9 && field < 10 {
                    pos.put(Square::new(x as u8, rank as u8), p);
                }
                x += 1;
            } else {
                return Err(FenError::BadCharacter { column, found: c });
            }
            column += 1;
        }
        if x != 9 {
            return Err(FenError::RankLength {
                column,
                field: field + 1,
                rank,
                points: x,
            });
        }
        column += 1; // the '/'
    }
    if ranks.len() != 10 {
        return Err(FenError::RankCount(ranks.len()));
    }
    Ok(())
}

fn validate(pos: &Position) -> Result<(), FenError> {
    for color in Color::BOTH {
        let cname = color.name();
        if pos.pieces(color, Kind::General) == 0 {
            return Err(FenError::MissingGeneral(cname));
        }
        for kind in Kind::ALL {
            let bb = pos.pieces(color, kind);
            let count = bb.count_ones() as usize;
            if count > kind.max_count() {
                return Err(FenError::TooMany {
                    color: cname,
                    kind: kind.name(),
                    count,
                    max: kind.max_count(),
                });
            }
            let outside = bb & !legal_points(kind, color);
            if outside != 0 {
                let s = Square::from_index(outside.trailing_zeros() as usize);
                let why = match kind {
                    Kind::General => "outside its palace",
                    Kind::Advisor if !s.in_palace(color) => "outside its palace",
                    Kind::Advisor => "not one of the five advisor points",
                    Kind::Elephant if !s.on_own_side(color) => "across the river",
                    Kind::Elephant => "not one of the seven elephant points",
                    _ => "behind its starting rank",
                };
                return Err(FenError::BadPlacement {
                    color: cname,
                    kind: kind.name(),
                    square: s.iccs(),
                    why,
                });
            }
        }
    }
    if pos.generals_face() {
        return Err(FenError::GeneralsFacing(
            (b'a' + pos.general(Color::Red).x()) as char,
        ));
    }
    if pos.opponent_in_check() {
        return Err(FenError::MoverInCheck(pos.side.opponent().name()));
    }
    Ok(())
}
