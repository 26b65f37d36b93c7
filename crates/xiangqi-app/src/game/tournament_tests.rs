//! Tests of the tournament commands, the standings table and its JSON.

use super::*;

fn parse(line: &str) -> Result<TournamentCommand, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    parse_tournament(&words)
}

#[test]
fn tournament_commands_parse_exactly() {
    assert_eq!(
        parse("new club swiss 5 10+5"),
        Ok(TournamentCommand::New(NewTournament {
            name: "club".into(),
            format: TournamentFormat::Swiss { rounds: 5 },
            control: "10+5".parse().unwrap(),
            rated: true,
        }))
    );
    assert_eq!(
        parse("new blitz arena 30 3+2 unrated"),
        Ok(TournamentCommand::New(NewTournament {
            name: "blitz".into(),
            format: TournamentFormat::Arena { minutes: 30 },
            control: "3+2".parse().unwrap(),
            rated: false,
        }))
    );
    assert_eq!(
        parse("join club"),
        Ok(TournamentCommand::Join("club".into()))
    );
    assert_eq!(
        parse("leave club"),
        Ok(TournamentCommand::Leave("club".into()))
    );
    assert_eq!(
        parse("start club"),
        Ok(TournamentCommand::Start("club".into()))
    );
    assert_eq!(
        parse("pause club 60"),
        Ok(TournamentCommand::Pause {
            name: "club".into(),
            seconds: 60
        })
    );
    assert_eq!(
        parse("say club good   luck all"),
        Ok(TournamentCommand::Say {
            name: "club".into(),
            text: "good luck all".into()
        })
    );
    assert_eq!(parse("club"), Ok(TournamentCommand::Show("club".into())));
    assert_eq!(parse("club pgn"), Ok(TournamentCommand::Pgn("club".into())));
}

#[test]
fn bad_tournament_commands_say_what_is_wrong() {
    let error = |line: &str| parse(line).unwrap_err();
    assert_eq!(
        error("new club swiss 0 10+5"),
        "bad number of rounds '0': a whole number from 1 to 30"
    );
    assert_eq!(
        error("new club arena x 10+5"),
        "bad number of minutes 'x': a whole number from 1 to 1440"
    );
    assert_eq!(
        error("new club knockout 3 10+5"),
        "bad tournament kind 'knockout': swiss or arena"
    );
    assert_eq!(
        error("new club swiss 3 none"),
        "a tournament needs a clock: 10+5, 3+2, 5m/move…"
    );
    assert!(
        error("new club swiss 3 10").contains("the increment is missing"),
        "{}",
        error("new club swiss 3 10")
    );
    assert!(error("new club swiss 3 10+5 maybe").starts_with("usage: tournament new"));
    assert!(error("join thirteen-chars").starts_with("bad tournament name 'thirteen-chars'"));
    assert!(error("join a_b").starts_with("bad tournament name"));
    assert!(error("new join swiss 3 10+5").starts_with("bad tournament name 'join'"));
    assert!(error("join").starts_with("usage: "));
    assert!(error("pgn").starts_with("usage: "));
    assert!(error("say club").starts_with("usage: "));
    assert_eq!(
        error("pause club 4000"),
        "bad pause '4000': a whole number from 0 to 3600"
    );
    assert_eq!(parse_standings(&["club"]), Ok(("club".into(), false)));
    assert_eq!(
        parse_standings(&["club", "--json"]),
        Ok(("club".into(), true))
    );
    assert_eq!(
        parse_standings(&["club", "--xml"]),
        Err("usage: standings NAME [--json]".into())
    );
}

fn swiss_row(rank: usize, name: &str, score: f64, bh: f64) -> StandingRow {
    StandingRow {
        rank,
        name: name.into(),
        score,
        games: 3,
        tiebreaks: vec![
            ("buchholz", bh),
            ("buchholz_cut1", bh - 1.0),
            ("sonneborn_berger", score * 1.25),
            ("direct_encounter", 0.0),
        ],
        on_fire: false,
        withdrawn: false,
    }
}

#[test]
fn the_standings_table_fits_80_columns_and_its_json_has_the_fields_asked_for() {
    let mut rows = vec![
        swiss_row(1, "ann", 2.5, 4.5),
        swiss_row(2, "象棋大师象棋大师象棋", 2.0, 5.0),
    ];
    rows[1].withdrawn = true;
    let lines = standings_lines(&rows);
    assert_eq!(
        lines,
        [
            "  #  NAME               PTS  GAMES    BH  BH-1     SB   DE",
            "  1  ann                2.5      3   4.5   3.5  3.125    0",
            "  2  象棋大师~ (out)      2      3     5     4    2.5    0",
        ]
    );
    assert!(lines.iter().all(|line| line.width() <= 80));
    assert_eq!(
        standings_json(&rows[..1]),
        r#"[{"rank":1,"name":"ann","score":2.5,"games":3,"tiebreaks":{"buchholz":4.5,"buchholz_cut1":3.5,"sonneborn_berger":3.125,"direct_encounter":0}}]"#
    );
    let arena = StandingRow {
        rank: 1,
        name: "bob".into(),
        score: 8.0,
        games: 3,
        tiebreaks: vec![("performance", 2000.0)],
        on_fire: true,
        withdrawn: false,
    };
    assert_eq!(
        standings_lines(&[arena]),
        [
            "  #  NAME               PTS  GAMES  PERF",
            "  1  bob *                8      3  2000",
        ]
    );
}

#[test]
fn a_tournament_line_fits_80_columns_under_its_headings() {
    let summary = TournamentSummary {
        name: "twelve-chars".into(),
        format: TournamentFormat::Swiss { rounds: 11 },
        control: "10+5".parse().unwrap(),
        rated: false,
        state: "round 10 of 11".into(),
        players: 128,
        creator: "a-long-creator-name".into(),
    };
    assert_eq!(
        tournament_headings(),
        "TOURNAMENT   FORMAT                  CLOCK    STATE          PLAYERS BY"
    );
    let line = tournament_line(&summary);
    assert_eq!(
        line,
        "twelve-chars swiss 11 rounds unrated 10+5     round 10 of 11     128 a-long-cr~"
    );
    assert!(line.width() <= 80, "{}", line.width());
}
