//! `xiangqi-tui moves [--fen FEN] [--notation chinese|wxf|iccs]`: the legal moves, one per
//! line, in the chosen notation with ICCS beside (ICCS alone for `--notation iccs`).

use std::io::{self, Write};

use anyhow::{Context, Result};
use xiangqi_core::board::{Color, Kind, Move, Position};
use xiangqi_core::notation::{MoveWriter, Notation};

use crate::cli::{GlobalArgs, MovesArgs};

/// The order players list pieces in: 车 马 相 仕 帅 炮 兵.
fn kind_order(kind: Kind) -> u8 {
    match kind {
        Kind::Chariot => 0,
        Kind::Horse => 1,
        Kind::Elephant => 2,
        Kind::Advisor => 3,
        Kind::General => 4,
        Kind::Cannon => 5,
        Kind::Soldier => 6,
    }
}

pub fn run(args: &MovesArgs, global: &GlobalArgs) -> Result<()> {
    let notation: Notation = match &global.notation {
        Some(name) => name.parse()?,
        None => Notation::Chinese,
    };
    let fen = args.fen.as_deref().unwrap_or(Position::START_FEN);
    let pos = Position::from_fen(fen).context("bad FEN")?;
    let writer = MoveWriter::new(&pos);
    let side = pos.side_to_move();
    let mut lines: Vec<(Move, String)> = pos
        .legal_move_list()
        .into_iter()
        .map(|mv| (mv, writer.write(mv, notation)))
        .collect();
    // By piece, then by the mover's file number, front piece first, then by text.
    lines.sort_by_key(|(mv, text)| {
        let (x, y) = (i32::from(mv.from().x()), i32::from(mv.from().y()));
        let (file, front) = match side {
            Color::Red => (9 - x, -y),
            Color::Black => (x + 1, y),
        };
        let kind = kind_order(pos.piece_at(mv.from()).kind());
        (kind, file, front, text.clone())
    });
    let mut out = io::BufWriter::new(io::stdout().lock());
    let written: io::Result<()> = lines.iter().try_for_each(|(mv, text)| {
        if notation == Notation::Iccs {
            writeln!(out, "{mv}")
        } else {
            writeln!(out, "{text}\t{mv}")
        }
    });
    super::finish_output(written.and_then(|()| out.flush()))
}
