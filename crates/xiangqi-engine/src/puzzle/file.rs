//! The puzzle set as text: one puzzle a line, tab-separated, `#` comments:
//!
//! `ID  FEN  N  SOLUTION  THEMES  SOURCE...` where SOLUTION is ICCS moves separated by
//! spaces, THEMES theme names separated by commas (`-` for none) and SOURCE one of
//! `game RED BLACK EVENT YEAR` (YEAR `-` when unknown), `exercise TITLE`, `self-play`.
//! Lines are read back as written; fields never hold tabs or line breaks.

use thiserror::Error;

use xiangqi_core::board::{Move, Position};

use super::{Puzzle, Source, Theme};

/// A line of a puzzle file that does not read, with its number.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("puzzle file, line {line}: {message}")]
pub struct PuzzleFileError {
    pub line: usize,
    pub message: String,
}

/// Reads a puzzle file (as [`write_puzzles`] writes it). The moves must be legal in
/// turn from the FEN; the mate is not proven again here.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, PuzzleFileError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.starts_with('#') && !line.trim().is_empty())
        .map(|(index, line)| {
            parse_line(line).map_err(|message| PuzzleFileError {
                line: index + 1,
                message,
            })
        })
        .collect()
}

fn parse_line(line: &str) -> Result<Puzzle, String> {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() < 6 {
        return Err(format!("{} fields, at least 6 wanted", fields.len()));
    }
    let fen = fields[1];
    let mut pos = Position::from_fen(fen).map_err(|e| format!("FEN: {e}"))?;
    let mate_in: u32 = fields[2]
        .parse()
        .map_err(|_| format!("'{}' is not a number of moves", fields[2]))?;
    let mut solution = Vec::new();
    for text in fields[3].split_whitespace() {
        let mv = Move::parse_coords(text).ok_or_else(|| format!("'{text}' is not a move"))?;
        if !pos.is_legal(mv) {
            return Err(format!("{mv} is not legal"));
        }
        pos.make_move(mv);
        solution.push(mv);
    }
    if mate_in == 0 || solution.len() != 2 * mate_in as usize - 1 {
        return Err(format!(
            "a mate in {mate_in} takes {} plies, not {}",
            (2 * mate_in as usize).saturating_sub(1),
            solution.len()
        ));
    }
    let themes = match fields[4] {
        "-" | "" => Vec::new(),
        list => list
            .split(',')
            .map(|name| name.parse::<Theme>().map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?,
    };
    let rest = &fields[6..];
    let source = match (fields[5], rest) {
        ("game", [red, black, event, year]) => Source::Game {
            red: (*red).to_owned(),
            black: (*black).to_owned(),
            event: (*event).to_owned(),
            year: match *year {
                "-" => None,
                y => Some(y.parse().map_err(|_| format!("'{y}' is not a year"))?),
            },
        },
        ("exercise", [title]) => Source::Exercise {
            title: (*title).to_owned(),
        },
        ("self-play", []) => Source::SelfPlay,
        (kind, _) => return Err(format!("source '{kind}' with {} fields", rest.len())),
    };
    Ok(Puzzle {
        id: fields[0].to_owned(),
        fen: fen.to_owned(),
        mate_in,
        solution,
        themes,
        source,
    })
}

/// Writes puzzles one a line, after `header` (each of its lines made a `#` comment).
pub fn write_puzzles(header: &str, puzzles: &[Puzzle]) -> String {
    let mut out = String::new();
    for line in header.lines() {
        out.push_str("# ");
        out.push_str(line);
        out.push('\n');
    }
    for puzzle in puzzles {
        let solution: Vec<String> = puzzle.solution.iter().map(|mv| mv.iccs()).collect();
        let themes: Vec<&str> = puzzle.themes.iter().map(|t| t.name()).collect();
        let source = match &puzzle.source {
            Source::Game {
                red,
                black,
                event,
                year,
            } => format!(
                "game\t{}\t{}\t{}\t{}",
                field(red),
                field(black),
                field(event),
                year.map_or("-".to_owned(), |y| y.to_string())
            ),
            Source::Exercise { title } => format!("exercise\t{}", field(title)),
            Source::SelfPlay => "self-play".to_owned(),
        };
        out.push_str(&format!(
            "{}\t{}\t{}\t{}\t{}\t{source}\n",
            puzzle.id,
            puzzle.fen,
            puzzle.mate_in,
            solution.join(" "),
            if themes.is_empty() {
                "-".to_owned()
            } else {
                themes.join(",")
            }
        ));
    }
    out
}

/// A text field without tabs or line breaks (they separate fields and lines).
fn field(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzles_read_back_as_written() {
        let puzzles = vec![
            Puzzle {
                id: "0123abcd".into(),
                fen: "3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1".into(),
                mate_in: 1,
                solution: vec![Move::parse_coords("a4e4").unwrap()],
                themes: vec![Theme::Cannon],
                source: Source::Game {
                    red: "許銀川".into(),
                    black: "呂\t欽".into(),
                    event: "五羊杯".into(),
                    year: Some(2005),
                },
            },
            Puzzle {
                id: "0123abce".into(),
                fen: "3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1".into(),
                mate_in: 1,
                solution: vec![Move::parse_coords("a4e4").unwrap()],
                themes: vec![],
                source: Source::Exercise {
                    title: "殺局1".into(),
                },
            },
        ];
        let text = write_puzzles("a header", &puzzles);
        let read = parse_puzzles(&text).unwrap();
        assert_eq!(read[1], puzzles[1]);
        let Source::Game { black, .. } = &read[0].source else {
            panic!("a game")
        };
        assert_eq!(black, "呂 欽");
    }

    #[test]
    fn bad_lines_are_named() {
        let line = "x\t3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1\t1\ta4b5\t-\tself-play\n";
        let error = parse_puzzles(&format!("# c\n{line}")).unwrap_err();
        assert_eq!(error.to_string(), "puzzle file, line 2: a4b5 is not legal");
        let line = "x\t3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1\t2\ta4e4\t-\tself-play";
        let error = parse_puzzles(line).unwrap_err();
        assert_eq!(
            error.to_string(),
            "puzzle file, line 1: a mate in 2 takes 3 plies, not 1"
        );
        let error = parse_puzzles("x\tnot a fen\t1\t-\t-\tself-play").unwrap_err();
        assert!(error.to_string().starts_with("puzzle file, line 1: FEN"));
    }
}
