//! `xiangqi-tui notation`: a batch converter for scripts. Each input line `FEN<TAB>MOVE`
//! (MOVE in any accepted notation) gives one output line `ICCS<TAB>CHINESE<TAB>WXF`, or
//! `error<TAB>message`; reading carries on after errors.

use std::io::{self, BufRead, Write};

use anyhow::Result;
use xiangqi_core::board::Position;
use xiangqi_core::notation::{MoveWriter, Notation, parse_move};

/// Converts one input line to its output line (without the newline).
fn convert(line: &str) -> String {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() {
        return "error\tempty line: expected FEN<TAB>MOVE".to_string();
    }
    let Some((fen, text)) = line.split_once('\t') else {
        return "error\tno tab: expected FEN<TAB>MOVE".to_string();
    };
    let pos = match Position::from_fen(fen.trim()) {
        Ok(pos) => pos,
        Err(e) => return format!("error\tbad FEN: {e}"),
    };
    match parse_move(&pos, text) {
        Ok(mv) => {
            let writer = MoveWriter::new(&pos);
            format!(
                "{}\t{}\t{}",
                writer.write(mv, Notation::Iccs),
                writer.write(mv, Notation::Chinese),
                writer.write(mv, Notation::Wxf)
            )
        }
        // The message quotes the input, which may hold tabs: keep the output two columns.
        Err(e) => format!("error\t{}", e.to_string().replace('\t', " ")),
    }
}

pub fn run() -> Result<()> {
    let mut input = io::stdin().lock();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut buf = Vec::new();
    let written = (|| -> io::Result<()> {
        loop {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                return out.flush();
            }
            let reply = match std::str::from_utf8(&buf) {
                Ok(line) => convert(line),
                Err(_) => "error\tthe line is not UTF-8 text".to_string(),
            };
            writeln!(out, "{reply}")?;
        }
    })();
    super::finish_output(written)
}

#[cfg(test)]
mod tests {
    use super::convert;

    #[test]
    fn lines_convert_or_explain() {
        let start = xiangqi_core::board::Position::START_FEN;
        assert_eq!(
            convert(&format!("{start}\tC2.5\r\n")),
            "h2e2\t炮二平五\tC2.5"
        );
        assert!(convert("").starts_with("error\tempty line"));
        assert!(convert(start).starts_with("error\tno tab"));
        assert!(convert("nonsense\th2e2").starts_with("error\tbad FEN"));
        let bad = convert(&format!("{start}\th2\tz9"));
        assert!(bad.starts_with("error\t"), "{bad}");
        assert_eq!(bad.matches('\t').count(), 1, "{bad}");
    }
}
