//! Small fields and bad input: clear answers, no panics.

use xiangqi_pairing::{
    Colour, Game, GameResult, PairingError, Player, Points, Tournament, pair_next_round,
};

fn field(n: usize, rounds: Vec<Vec<Game>>) -> Tournament {
    Tournament {
        name: "edge".into(),
        players: (0..n)
            .map(|i| Player {
                name: format!("P{i}"),
                rating: 2000 - i as u32,
            })
            .collect(),
        rounds,
        total_rounds: 5,
        first_colour: Colour::White,
    }
}

#[test]
fn a_lone_player_gets_the_bye_once() {
    let t = field(1, vec![]);
    let p = pair_next_round(&t, &[]).unwrap();
    assert_eq!((p.boards.len(), p.bye), (0, Some(0)));
    let t = field(1, vec![vec![Game::Bye { player: 0 }]]);
    assert_eq!(pair_next_round(&t, &[]), Err(PairingError::Impossible));
}

#[test]
fn two_players_who_met_cannot_meet_again_but_may_after_a_forfeit() {
    let played = vec![vec![Game::Played {
        white: 0,
        black: 1,
        result: GameResult::Draw,
    }]];
    assert_eq!(
        pair_next_round(&field(2, played), &[]),
        Err(PairingError::Impossible)
    );
    let forfeit = vec![vec![Game::Forfeit {
        white: 0,
        black: 1,
        winner: Some(Colour::White),
    }]];
    let p = pair_next_round(&field(2, forfeit), &[]).unwrap();
    assert_eq!(p.boards.len(), 1);
}

#[test]
fn nobody_present_pairs_nobody() {
    let p = pair_next_round(&field(3, vec![]), &[0, 1, 2]).unwrap();
    assert_eq!((p.boards.len(), p.bye), (0, None));
}

#[test]
fn absent_players_are_left_out() {
    let p = pair_next_round(&field(4, vec![]), &[1]).unwrap();
    // Three present: 0 and 2 (top half against bottom half of 0, 2, 3 is
    // 0 against 2), 3 the bye.
    assert_eq!(p.boards, [(0, 2)]);
    assert_eq!(p.bye, Some(3));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let t = field(
        2,
        vec![vec![Game::Played {
            white: 0,
            black: 5,
            result: GameResult::Draw,
        }]],
    );
    assert_eq!(
        pair_next_round(&t, &[]),
        Err(PairingError::Invalid("round 1: no player 6".into()))
    );
    let t = field(
        2,
        vec![vec![Game::Played {
            white: 1,
            black: 1,
            result: GameResult::Draw,
        }]],
    );
    assert!(matches!(
        pair_next_round(&t, &[]),
        Err(PairingError::Invalid(_))
    ));
    let t = field(
        2,
        vec![vec![
            Game::Bye { player: 0 },
            Game::Absent {
                player: 0,
                points: Points::ZERO,
            },
        ]],
    );
    assert_eq!(
        pair_next_round(&t, &[]),
        Err(PairingError::Invalid(
            "round 1: player 1 appears twice".into()
        ))
    );
    let t = field(
        2,
        vec![vec![Game::Absent {
            player: 0,
            points: Points(3),
        }]],
    );
    assert!(matches!(
        pair_next_round(&t, &[]),
        Err(PairingError::Invalid(_))
    ));
    assert!(matches!(
        pair_next_round(&field(2, vec![]), &[7]),
        Err(PairingError::Invalid(_))
    ));
}
