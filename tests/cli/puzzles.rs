//! Mate puzzles: certification refuses bad candidates with the right reason, the
//! built-in set is re-proven (a sample here, all of it in an ignored test), and the
//! `puzzles` command prints and filters it.

use std::process::Command;

use xiangqi_core::board::{Move, Position};
use xiangqi_engine::engine::mate_oracle;
use xiangqi_engine::engine::mate_prover::MateProver;
use xiangqi_engine::puzzle::{self, MoveCheck, Rejection, Theme, certify, puzzle_id, verify};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn moves(line: &[&str]) -> Vec<Move> {
    line.iter()
        .map(|m| Move::parse_coords(m).unwrap())
        .collect()
}

/// The second cannon joins the e-file behind the first: the only mating move.
const CANNON_MATE: &str = "3aka3/9/4C4/9/9/C8/9/9/9/3K5 w - - 0 1";
/// Ra5-e5 mates at once.
const CHARIOT_MATE_IN_1: &str = "4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1";

#[test]
fn a_unique_mate_in_one_is_certified() {
    let mut prover = MateProver::new();
    let certified = certify(&pos(CANNON_MATE), 3, &mut prover).unwrap();
    assert_eq!(certified.mate_in, 1);
    assert_eq!(certified.solution, moves(&["a4e4"]));
    assert_eq!(certified.themes, vec![Theme::Cannon]);
    assert_eq!(
        verify(&pos(CANNON_MATE), 1, &certified.solution, &mut prover),
        Ok(certified)
    );
}

#[test]
fn two_mating_first_moves_are_refused_naming_the_other() {
    // The mates in 1 of tests/data/mates.tsv (from games) often have a second mating
    // move: the first such position is refused, naming both, each proven by the oracle.
    let mut prover = MateProver::new();
    let mut refused = 0;
    for start in mates_in(1) {
        let Err(rejection) = certify(&start, 1, &mut prover) else {
            continue;
        };
        let Rejection::SecondSolution {
            mate_in: 1,
            solution,
            other,
        } = rejection
        else {
            panic!("{start:?}: {rejection}");
        };
        assert!(solution.iccs() < other.iccs());
        for mv in [solution, other] {
            let mut after = start.clone();
            after.make_move(mv);
            assert!(mate_oracle::defender_lost_within(&mut after, 0));
        }
        assert_eq!(
            verify(&start, 1, &[solution], &mut prover),
            Err(rejection.clone())
        );
        refused += 1;
    }
    assert!(refused > 0);
}

#[test]
fn a_shorter_mate_than_claimed_is_refused() {
    let mut prover = MateProver::new();
    let line = moves(&["a5e5", "e9d9", "e5d5"]);
    assert_eq!(
        verify(&pos(CHARIOT_MATE_IN_1), 2, &line, &mut prover),
        Err(Rejection::ShorterMate {
            claimed: 2,
            shortest: 1
        })
    );
}

#[test]
fn no_mate_is_refused() {
    let mut prover = MateProver::new();
    assert_eq!(
        certify(&Position::startpos(), 2, &mut prover),
        Err(Rejection::NoMate { within: 2 })
    );
    assert_eq!(
        verify(&pos(CANNON_MATE), 1, &moves(&["a4a5"]), &mut prover),
        Err(Rejection::NotMating {
            ply: 0,
            played: moves(&["a4a5"])[0]
        })
    );
    assert_eq!(
        verify(&pos(CANNON_MATE), 2, &moves(&["a4e4"]), &mut prover).map_err(|e| e.reason()),
        Err("wrong-length")
    );
}

/// The mates in `n` of tests/data/mates.tsv.
fn mates_in(n: u32) -> Vec<Position> {
    include_str!("../../tests/data/mates.tsv")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once('\t'))
        .filter(|(_, moves)| moves.trim() == n.to_string())
        .map(|(fen, _)| pos(fen))
        .collect()
}

#[test]
fn a_defence_that_loses_sooner_is_refused() {
    // In the first mate in 3 that certifies and lets the defender blunder into a mate
    // in 1, a line through the blunder is refused at ply 1.
    let mut prover = MateProver::new();
    for start in mates_in(3) {
        let Ok(certified) = certify(&start, 3, &mut prover) else {
            continue;
        };
        assert_eq!(certified.solution.len(), 5);
        assert_eq!(
            verify(&start, 3, &certified.solution, &mut prover),
            Ok(certified.clone())
        );
        let mut after = start.clone();
        after.make_move(certified.solution[0]);
        let blunder = after.legal_move_list().into_iter().find(|&reply| {
            after.make_move(reply);
            let quick = prover.forced_win_within(&mut after, 1).unwrap();
            after.unmake_move(reply);
            quick
        });
        let Some(blunder) = blunder else { continue };
        let mut line = certified.solution.clone();
        line[1] = blunder;
        match verify(&start, 3, &line, &mut prover) {
            Err(Rejection::DefenceNotLongest {
                ply: 1,
                played,
                longer,
            }) => {
                assert_eq!(played, blunder);
                assert_ne!(longer, blunder);
                return;
            }
            other => panic!("{start:?}: {other:?}"),
        }
    }
    panic!("no mate in 3 with a blunder to try");
}

#[test]
fn a_solvers_moves_are_checked_against_the_prover() {
    let mut prover = MateProver::new();
    let start = mates_in(3)
        .into_iter()
        .find(|start| certify(start, 3, &mut prover).is_ok())
        .expect("a mate in 3 that certifies");
    let certified = certify(&start, 3, &mut prover).unwrap();
    let puzzle = puzzle::Puzzle::new(&start, certified, puzzle::Source::SelfPlay);
    let line = &puzzle.solution;
    let check = |pos: &Position, ply: usize, mv: Move, prover: &mut MateProver| {
        puzzle::check_move(&puzzle, pos, ply, mv, prover).unwrap()
    };
    assert_eq!(check(&start, 0, line[0], &mut prover), MoveCheck::Solution);
    let other = start
        .legal_move_list()
        .into_iter()
        .find(|&mv| mv != line[0])
        .unwrap();
    assert_eq!(check(&start, 0, other, &mut prover), MoveCheck::Wrong);
    let mut pos = start.clone();
    pos.make_move(line[0]);
    assert_eq!(
        puzzle::longest_defence(&mut pos, 2, &mut prover),
        Ok(Some(line[1]))
    );
    pos.make_move(line[1]);
    assert_eq!(check(&pos, 2, line[2], &mut prover), MoveCheck::Solution);
    // Every other legal move is judged by the prover: mating in 2 more, or wrong.
    for mv in pos
        .legal_move_list()
        .into_iter()
        .filter(|&mv| mv != line[2])
    {
        let mut after = pos.clone();
        after.make_move(mv);
        let mates = mate_oracle::defender_lost_within(&mut after, 1);
        let expected = if mates {
            MoveCheck::AlsoMates
        } else {
            MoveCheck::Wrong
        };
        assert_eq!(check(&pos, 2, mv, &mut prover), expected, "{mv}");
    }
}

/// Re-proves `puzzle` from its FEN: the stored line passes [`verify`], its themes and id
/// are the ones told from it.
fn reprove(puzzle: &puzzle::Puzzle, prover: &mut MateProver) {
    let start = puzzle.position();
    let verified = verify(&start, puzzle.mate_in, &puzzle.solution, prover)
        .unwrap_or_else(|e| panic!("{}: {e}", puzzle.id));
    assert_eq!(verified.themes, puzzle.themes, "{}", puzzle.id);
    assert_eq!(puzzle_id(&start), puzzle.id);
}

#[test]
fn the_builtin_set_reads_with_unique_ids() {
    let set = puzzle::builtin();
    let mut ids: Vec<&str> = set.iter().map(|p| p.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), set.len());
    assert!(
        set.iter()
            .all(|p| p.solution.len() == 2 * p.mate_in as usize - 1)
    );
    // The set of docs/puzzles.md: 1,281 puzzles, mates in 1 to 5.
    let by_mate: Vec<usize> = (1..=5)
        .map(|n| set.iter().filter(|p| p.mate_in == n).count())
        .collect();
    assert_eq!(by_mate, [195, 290, 317, 293, 186]);
    assert_eq!(set.len(), 1281);
    let self_play = set
        .iter()
        .filter(|p| p.source == puzzle::Source::SelfPlay)
        .count();
    assert_eq!(self_play, 177);
    // Master games carry their players and year.
    assert!(set.iter().any(|p| matches!(&p.source,
        puzzle::Source::Game { red, year: Some(1982), .. } if red.contains("胡榮華"))));
}

#[test]
fn a_sample_of_the_builtin_set_is_proven_again() {
    // Every 25th puzzle, and the mates in 1 to 2 only, so this stays quick.
    let mut prover = MateProver::new();
    let sample: Vec<_> = puzzle::builtin()
        .iter()
        .filter(|p| p.mate_in <= 2)
        .step_by(25)
        .collect();
    for puzzle in sample {
        reprove(puzzle, &mut prover);
    }
    let deeper = puzzle::builtin().iter().find(|p| p.mate_in == 3);
    if let Some(puzzle) = deeper {
        reprove(puzzle, &mut prover);
        let again = certify(&puzzle.position(), 3, &mut prover).unwrap();
        assert_eq!(again.solution, puzzle.solution, "certify is deterministic");
    }
}

#[test]
#[ignore = "re-proves every built-in puzzle: minutes"]
fn every_builtin_puzzle_is_proven_again() {
    let mut prover = MateProver::new();
    for puzzle in puzzle::builtin() {
        reprove(puzzle, &mut prover);
    }
}

fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(args)
        .env("XIANGQI_TUI_CONFIG", "")
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn the_command_prints_json_lines_filtered_by_mate_and_theme() {
    let (out, err, code) = run(&["puzzles", "--json", "--mate", "1", "--theme", "cannon"]);
    assert_eq!(code, 0, "{err}");
    let expected: Vec<&puzzle::Puzzle> = puzzle::builtin()
        .iter()
        .filter(|p| p.mate_in == 1 && p.has_theme(Theme::Cannon))
        .collect();
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), expected.len());
    for (json, puzzle) in lines.iter().zip(&expected) {
        assert_eq!(json["id"], puzzle.id.as_str());
        assert_eq!(json["fen"], puzzle.fen.as_str());
        assert_eq!(json["mate_in"], 1);
        assert_eq!(json["solution"][0], puzzle.solution[0].iccs().as_str());
        assert!(
            json["themes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t == "cannon")
        );
        assert!(json["source"]["kind"].is_string());
    }
    let (out, _, code) = run(&["puzzles", "--count", "2"]);
    assert_eq!(code, 0);
    assert_eq!(
        out.lines().filter(|l| l.contains("  mate in ")).count(),
        puzzle::builtin().len().min(2)
    );
    let (_, err, code) = run(&["puzzles", "--theme", "pin"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown puzzle theme 'pin'"), "{err}");
}

#[test]
fn mining_a_folder_certifies_its_exercise() {
    let dir = std::env::temp_dir().join(format!("xiangqi-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let output = dir.join("set.tsv");
    let (out, err, code) = run(&[
        "puzzles",
        "mine",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/puzzle_mine"),
        "-o",
        output.to_str().unwrap(),
        "--max-mate",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("certified 1 (new)"), "{out}");
    let (listed, err, code) = run(&["puzzles", "--json", "--file", output.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(listed.trim()).unwrap();
    assert_eq!(json["fen"], CANNON_MATE);
    assert_eq!(json["solution"], serde_json::json!(["a4e4"]));
    assert_eq!(
        json["source"],
        serde_json::json!({"kind": "exercise", "title": "double cannon"})
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// `puzzles play` opens the terminal UI: without the `tui` feature it says so instead.
#[cfg(feature = "tui")]
#[test]
fn puzzles_play_refuses_an_unknown_id_before_touching_the_terminal() {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-tui"))
        .args(["puzzles", "play", "zzzz0000"])
        .env(
            "XDG_DATA_HOME",
            std::env::temp_dir().join("xq-puzzles-play-data"),
        )
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("xq-puzzles-play-config"),
        )
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr.lines().next().unwrap_or_default(),
        "xiangqi-tui: no puzzle zzzz0000 in the built-in set (`xiangqi-tui puzzles` lists them)",
        "{stderr}"
    );
}
