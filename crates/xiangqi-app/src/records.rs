//! Game files the TUI reads and writes, through the record module: the autosave and
//! saved games are PGN; loading takes a FEN, a PGN file (UTF-8, GBK or Big5) or an XQF
//! file (its main line).

use crate::game::GameState;
use xiangqi_core::board::Position;
use xiangqi_core::record::xqf::is_xqf;
use xiangqi_core::record::{GameRecord, decode};

/// The unfinished game as the autosave file holds it: PGN in Chinese notation.
pub fn autosave_text(game: &GameState) -> String {
    game.to_record()
        .to_pgn(xiangqi_core::notation::Notation::Chinese)
}

/// The game as PGN with moves in the chosen notation, its opening tagged.
pub fn pgn_text(game: &GameState, notation: xiangqi_core::notation::Notation) -> String {
    let mut record = game.to_record();
    xiangqi_engine::opening::tag_record(&mut record);
    record.to_pgn(notation)
}

/// Reads a game: a FEN on its own, or a PGN game. The message says what is wrong and
/// where (line:column).
pub fn read_game(text: &str) -> Result<GameState, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("empty: neither a FEN nor a PGN game".to_owned());
    }
    if !trimmed.contains('\n')
        && !trimmed.starts_with('[')
        && let Ok(position) = Position::from_fen(trimmed)
    {
        return Ok(GameState::new(position));
    }
    let record = GameRecord::from_pgn(text).map_err(|error| error.to_string())?;
    game_of(&record)
}

fn game_of(record: &GameRecord) -> Result<GameState, String> {
    GameState::from_record(record).map_err(|illegal| {
        format!(
            "move {} ({}) is illegal",
            illegal.index + 1,
            illegal.mv.iccs()
        )
    })
}

/// Reads a game file's bytes: XQF (known by its magic), else text in UTF-8, GBK/GB18030 or
/// Big5.
pub fn read_game_bytes(bytes: &[u8]) -> Result<GameState, String> {
    if is_xqf(bytes) {
        let record = GameRecord::from_bytes(bytes).map_err(|error| error.to_string())?;
        return game_of(&record);
    }
    let (text, _) = decode(bytes).map_err(|error| error.to_string())?;
    read_game(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::board::Move;
    use xiangqi_core::notation::Notation;

    fn game(moves: &[&str]) -> GameState {
        let moves: Vec<Move> = moves
            .iter()
            .map(|text| Move::parse_coords(text).unwrap())
            .collect();
        GameState::with_moves(Position::startpos(), &moves).unwrap()
    }

    fn iccs(game: &GameState) -> Vec<String> {
        game.moves().map(Move::iccs).collect()
    }

    #[test]
    fn autosave_and_pgn_read_back() {
        let original = game(&["h2e2", "h9g7", "h0g2"]);
        let autosave = autosave_text(&original);
        assert!(
            autosave.contains("1. 炮二平五 马8进7\n2. 马二进三\n*"),
            "{autosave}"
        );
        assert_eq!(
            iccs(&read_game(&autosave).unwrap()),
            ["h2e2", "h9g7", "h0g2"]
        );
        let wxf = pgn_text(&original, Notation::Wxf);
        assert!(wxf.contains("[Format \"WXF\"]"), "{wxf}");
        assert_eq!(iccs(&read_game(&wxf).unwrap()), ["h2e2", "h9g7", "h0g2"]);
    }

    #[test]
    fn a_game_from_a_fen_keeps_its_start() {
        let fen = "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1";
        let start = read_game(fen).unwrap();
        assert_eq!(start.start().to_fen(), fen);
        let mut played = start.clone();
        played.play(Move::parse_coords("e9e8").unwrap());
        let pgn = pgn_text(&played, Notation::Iccs);
        assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
        let back = read_game(&pgn).unwrap();
        assert_eq!(back.start().to_fen(), fen);
        assert_eq!(iccs(&back), ["e9e8"]);
    }

    #[test]
    fn errors_say_where() {
        let error = read_game("[Event \"x\"]\n\n1. h2e2 h2e2\n").unwrap_err();
        assert!(error.starts_with("line 3:9: move 2"), "{error}");
        assert!(read_game("").is_err());
        assert!(read_game_bytes(&[0xff, 0xfe, 0x00, 0x80]).is_err());
    }

    #[test]
    fn xqf_files_load_by_their_magic() {
        let original = game(&["h2e2", "h9g7", "h0g2"]);
        let bytes = xiangqi_core::record::write_xqf(&original.to_record(), 12);
        assert_eq!(
            iccs(&read_game_bytes(&bytes).unwrap()),
            ["h2e2", "h9g7", "h0g2"]
        );
        let error = read_game_bytes(&bytes[..0x402]).unwrap_err();
        assert_eq!(
            error,
            "offset 0x0400: truncated move tree: move record 0 needs 4 bytes, 2 are left"
        );
    }
}
