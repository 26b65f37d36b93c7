//! The opening as a record's tags: `[ECCO "C45"]`, `[Opening "..."]` and, when the
//! code names one, `[Variation "..."]`, as master databases write them.

use xiangqi_core::notation::Script;
use xiangqi_core::record::GameRecord;

use super::classify;

/// Adds the ECCO code and the opening's name (simplified characters) to a record from
/// the standard start. A code the record already carries (a master database's, read
/// from its file) is kept: the table agrees with such tags most of the time, not
/// always, and the file's word is the one to keep.
pub fn tag_record(record: &mut GameRecord) {
    if record.tag("ECCO").is_some() {
        return;
    }
    let Some(opening) = classify(&record.start, &record.moves) else {
        return;
    };
    record.set_tag("ECCO", &opening.code.to_string());
    record.set_tag("Opening", opening.opening_name(Script::Simplified));
    if let Some(variation) = opening.variation(Script::Simplified) {
        record.set_tag("Variation", variation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::board::Position;
    use xiangqi_core::notation::parse_move;

    fn record(moves: &[&str]) -> GameRecord {
        let mut record = GameRecord::new(Position::startpos());
        let mut pos = Position::startpos();
        for text in moves {
            let mv = parse_move(&pos, text).unwrap();
            pos.make_move(mv);
            record.moves.push(mv);
        }
        record
    }

    #[test]
    fn a_classified_game_gets_its_code_and_name() {
        // The central cannon's chariot across the river against the screen horses.
        let mut game = record(&[
            "炮二平五",
            "马8进7",
            "马二进三",
            "车9平8",
            "车一平二",
            "卒7进1",
            "车二进六",
            "马2进3",
            "兵七进一",
            "炮8平9",
            "车二平三",
            "炮9退1",
        ]);
        tag_record(&mut game);
        let code = game.tag("ECCO").expect("classified");
        assert!(code.starts_with("C3") || code.starts_with("C4"), "{code}");
        assert!(game.tag("Opening").is_some_and(|name| !name.is_empty()));
    }

    #[test]
    fn a_file_code_is_kept_and_the_start_is_left_alone() {
        let mut game = record(&["炮二平五", "马8进7"]);
        game.set_tag("ECCO", "B00");
        tag_record(&mut game);
        assert_eq!(game.tag("ECCO"), Some("B00"));
        assert_eq!(game.tag("Opening"), None);
        let mut empty = record(&[]);
        tag_record(&mut empty);
        assert!(empty.tags.is_empty());
    }
}
