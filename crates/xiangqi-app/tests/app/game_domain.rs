//! The game domain without any UI: undo and replay, takeback agreement, draw offers and
//! the engine's draw rule, resignation, flag fall and the result. Each rule is played
//! for the local game (one keyboard, or a person against the engine) and for a room
//! (two people apart, or a person against the room's engine): the same `GameState`
//! methods decide both.

use std::time::Duration;

use xiangqi_app::game::{
    DrawAnswer, DrawReply, GameState, Pending, Players, RuleError, SearchView, TakebackReply,
    ended_text,
};
use xiangqi_core::board::rules::{DrawReason, Outcome, WinReason};
use xiangqi_core::board::{Color, Move, Position};
use xiangqi_core::clock::{GameClock, TimeControl};
use xiangqi_core::record::GameResult;

fn mv(text: &str) -> Move {
    Move::parse_coords(text).unwrap()
}

fn game(moves: &[&str]) -> GameState {
    let moves: Vec<Move> = moves.iter().map(|text| mv(text)).collect();
    GameState::with_moves(Position::startpos(), &moves).unwrap()
}

fn moves(game: &GameState) -> Vec<String> {
    game.moves().map(|mv| mv.iccs()).collect()
}

fn searched(depth: u32, centipawns: Option<i32>) -> Option<SearchView> {
    Some(SearchView { depth, centipawns })
}

/// Generals and advisors only: neither side can mate.
const BARE: &str = "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1";

#[test]
fn undo_at_one_keyboard_goes_one_ply_and_replay_plays_it_again() {
    for players in [Players::OneKeyboard, Players::EngineBoth] {
        let mut game = game(&["h2e2", "h9g7", "h0g2"]);
        let side = game.position().side_to_move();
        assert_eq!(
            game.ask_takeback(side, players),
            Ok(TakebackReply::TookBack(1))
        );
        assert_eq!(moves(&game), ["h2e2", "h9g7"]);
        assert_eq!(game.replay(players), Ok(1));
        assert_eq!(moves(&game), ["h2e2", "h9g7", "h0g2"]);
        assert_eq!(game.replay(players), Err(RuleError::NothingToReplay));
    }
    let mut empty = game(&[]);
    assert_eq!(
        empty.ask_takeback(Color::Red, Players::OneKeyboard),
        Err(RuleError::NothingToTakeBack)
    );
}

#[test]
fn against_the_engine_a_takeback_undoes_the_reply_too_at_home_and_in_a_room() {
    // The engine plays Black, at home as in an engine room.
    let players = Players::Engine(Color::Black);
    // The person (Red) is to move: their move and the engine's reply go.
    let mut game = game(&["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(
        game.ask_takeback(Color::Red, players),
        Ok(TakebackReply::TookBack(2))
    );
    assert_eq!(moves(&game), ["h2e2", "h9g7"]);
    // Replay brings back both, so the person is to move again.
    assert_eq!(game.replay(players), Ok(2));
    assert_eq!(moves(&game), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    // The engine is to move (thinking): the person's move alone goes.
    game.play(mv("b0c2"));
    assert_eq!(
        game.ask_takeback(Color::Red, players),
        Ok(TakebackReply::TookBack(1))
    );
    assert_eq!(game.position().side_to_move(), Color::Red);

    // The engine plays Red and has moved: the person has no move to take back.
    let mut game = self::game(&["h2e2"]);
    assert_eq!(
        game.ask_takeback(Color::Black, Players::Engine(Color::Red)),
        Err(RuleError::NothingToTakeBack)
    );
    assert_eq!(moves(&game), ["h2e2"]);
}

#[test]
fn two_people_apart_take_back_only_by_agreement_and_a_move_declines() {
    let players = Players::TwoPeople;
    let mut game = game(&["h2e2"]);
    assert_eq!(
        game.ask_takeback(Color::Red, players),
        Ok(TakebackReply::Asked)
    );
    assert_eq!(game.pending().takeback, Some(Color::Red));
    assert_eq!(moves(&game), ["h2e2"]);
    assert_eq!(
        game.ask_takeback(Color::Red, players),
        Err(RuleError::TakebackAskedAlready)
    );
    assert_eq!(
        game.ask_takeback(Color::Black, players),
        Ok(TakebackReply::TookBack(1))
    );
    assert!(moves(&game).is_empty());
    assert_eq!(game.pending(), Pending::default());

    // Black to move asks; Black's move answers the request: declined.
    let mut game = self::game(&["h2e2", "h9g7", "b0c2"]);
    game.ask_takeback(Color::Red, players).unwrap();
    game.play_for(Color::Black, mv("b9c7")).unwrap();
    assert_eq!(game.pending().takeback, None);
    assert_eq!(moves(&game), ["h2e2", "h9g7", "b0c2", "b9c7"]);
}

#[test]
fn a_move_is_played_only_by_the_side_to_move_while_the_game_is_on() {
    let mut game = game(&[]);
    assert_eq!(
        game.play_for(Color::Black, mv("h9g7")),
        Err(RuleError::NotYourMove)
    );
    assert_eq!(
        game.play_for(Color::Red, mv("a0a5")),
        Err(RuleError::Illegal(mv("a0a5")))
    );
    assert_eq!(
        RuleError::Illegal(mv("a0a5")).to_string(),
        "a0a5 is not legal here"
    );
    game.play_for(Color::Red, mv("h2e2")).unwrap();
    game.resign(Color::Black, Players::TwoPeople).unwrap();
    assert_eq!(
        game.play_for(Color::Black, mv("h9g7")),
        Err(RuleError::GameOver)
    );
}

#[test]
fn the_engine_answers_a_draw_offer_by_one_rule_at_home_and_in_a_room() {
    let players = Players::Engine(Color::Black);
    let offer = |view: Option<SearchView>| {
        let mut game = game(&["h2e2", "h9g7"]);
        let reply = game.offer_draw(Color::Red, players, view);
        (reply, game.outcome())
    };
    // A level score, deep enough: accepted, the game is drawn.
    assert_eq!(
        offer(searched(8, Some(-30))),
        (
            Ok(DrawReply::Accepted(DrawAnswer::AcceptLevel)),
            Some(Outcome::Draw(DrawReason::Agreement))
        )
    );
    // An advantage, a mate, a shallow search or none: declined, play goes on.
    for (view, answer) in [
        (searched(12, Some(31)), DrawAnswer::DeclineScore),
        (searched(12, None), DrawAnswer::DeclineScore),
        (searched(7, Some(0)), DrawAnswer::DeclineTooShallow),
        (None, DrawAnswer::DeclineNoSearch),
    ] {
        assert_eq!(offer(view), (Ok(DrawReply::Declined(answer)), None));
    }
    // Without mating material on either side it accepts whatever its search says.
    let mut bare = GameState::new(Position::from_fen(BARE).unwrap());
    assert_eq!(
        bare.offer_draw(Color::Red, players, searched(20, Some(500))),
        Ok(DrawReply::Accepted(DrawAnswer::AcceptNoMatingMaterial))
    );
    assert_eq!(bare.to_record().result, GameResult::Draw);
}

#[test]
fn people_agree_to_a_draw_at_once_at_one_keyboard_and_by_both_offering_apart() {
    let mut home = game(&["h2e2"]);
    assert_eq!(
        home.offer_draw(Color::Black, Players::OneKeyboard, None),
        Ok(DrawReply::Agreed)
    );
    assert_eq!(home.outcome(), Some(Outcome::Draw(DrawReason::Agreement)));

    let players = Players::TwoPeople;
    let mut room = game(&["h2e2"]);
    assert_eq!(
        room.offer_draw(Color::Black, players, None),
        Ok(DrawReply::Offered)
    );
    assert_eq!(room.pending().draw_offer, Some(Color::Black));
    assert_eq!(
        room.offer_draw(Color::Black, players, None),
        Err(RuleError::DrawOfferedAlready)
    );
    // A move declines the offer; a new one is needed.
    room.play_for(Color::Black, mv("h9g7")).unwrap();
    assert_eq!(room.pending().draw_offer, None);
    room.offer_draw(Color::Black, players, None).unwrap();
    assert_eq!(
        room.offer_draw(Color::Red, players, None),
        Ok(DrawReply::Agreed)
    );
    assert_eq!(room.outcome(), Some(Outcome::Draw(DrawReason::Agreement)));
    assert_eq!(room.pending(), Pending::default());
    assert_eq!(ended_text(&room).as_deref(), Some("draw agreed (1/2-1/2)"));
    assert_eq!(
        room.offer_draw(Color::Red, players, None),
        Err(RuleError::GameOver)
    );

    // The engine against itself: nobody to offer a draw to.
    let mut watched = game(&["h2e2"]);
    assert_eq!(
        watched.offer_draw(Color::Black, Players::EngineBoth, None),
        Err(RuleError::NoPerson)
    );
}

#[test]
fn resigning_ends_the_game_and_the_result_stands() {
    for players in [
        Players::OneKeyboard,
        Players::TwoPeople,
        Players::Engine(Color::Black),
    ] {
        let mut game = game(&["h2e2", "h9g7"]);
        let side = players.speaker(game.position().side_to_move());
        assert_eq!(side, Color::Red);
        assert_eq!(
            game.resign(side, players),
            Ok(Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Resignation
            })
        );
        assert_eq!(game.resign(side, players), Err(RuleError::GameOver));
        // No takeback or replay past a result given.
        assert_eq!(game.ask_takeback(side, players), Err(RuleError::GameOver));
        game.undo();
        assert_eq!(game.replay(players), Err(RuleError::NothingToReplay));
        assert!(game.ended_off_board());
        assert_eq!(ended_text(&game).as_deref(), Some("Red resigned (0-1)"));
        let record = game.to_record();
        assert_eq!(record.result, GameResult::BlackWins);
        assert_eq!(record.tag("Termination"), Some("resignation"));
    }
    let mut game = game(&[]);
    assert_eq!(
        game.may_resign(Players::EngineBoth),
        Err(RuleError::NoPerson)
    );
    assert_eq!(
        game.resign(Color::Red, Players::EngineBoth),
        Err(RuleError::NoPerson)
    );
    assert_eq!(game.outcome(), None);
}

fn seconds(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[test]
fn a_flag_falls_on_the_clock_or_on_a_late_move() {
    let control: TimeControl = "1+0".parse().unwrap();
    let mut clock = GameClock::new(Some(control), Some(control));
    let mut game = game(&[]);
    // The first move is free; then Black's clock runs.
    game.play_on_clock(mv("h2e2"), &mut clock, seconds(30))
        .unwrap();
    assert_eq!(clock.running(), Some(Color::Black));
    assert_eq!(game.check_flag(&mut clock, seconds(89)), None);
    let flagged = Outcome::flag_fall(Color::Black);
    assert_eq!(game.check_flag(&mut clock, seconds(90)), Some(flagged));
    assert_eq!(game.outcome(), Some(flagged));
    assert_eq!(game.check_flag(&mut clock, seconds(91)), None, "once");
    assert_eq!(
        ended_text(&game).as_deref(),
        Some("Black's flag fell (1-0)")
    );
    assert_eq!(game.to_record().tag("Termination"), Some("time forfeit"));

    // A move made after the flag fell does not count.
    let mut clock = GameClock::new(Some(control), Some(control));
    let mut game = self::game(&[]);
    game.play_on_clock(mv("h2e2"), &mut clock, seconds(0))
        .unwrap();
    assert_eq!(
        game.play_on_clock(mv("h9g7"), &mut clock, seconds(61)),
        Err(flagged)
    );
    assert_eq!(moves(&game), ["h2e2"]);
    assert_eq!(game.outcome(), Some(flagged));
}

#[test]
fn after_a_takeback_the_side_to_move_has_the_running_clock() {
    let control: TimeControl = "1+0".parse().unwrap();
    let mut clock = GameClock::new(Some(control), Some(control));
    let mut game = game(&[]);
    game.play_on_clock(mv("h2e2"), &mut clock, seconds(0))
        .unwrap();
    game.play_on_clock(mv("h9g7"), &mut clock, seconds(10))
        .unwrap();
    assert_eq!(clock.running(), Some(Color::Red));
    game.ask_takeback(Color::Red, Players::OneKeyboard).unwrap();
    game.follow_clock(&mut clock, seconds(12));
    assert_eq!(clock.running(), Some(Color::Black));
    assert_eq!(
        clock.remaining(Color::Black, seconds(12)),
        Some(seconds(50))
    );
    // Untimed clocks stay stopped.
    let mut untimed = GameClock::new(None, None);
    game.follow_clock(&mut untimed, seconds(12));
    assert_eq!(untimed.running(), None);
}

#[test]
fn a_result_on_the_board_is_the_game_result_and_not_one_given() {
    // Red mates: 1. a5e5# with the chariots.
    let start = Position::from_fen("4k4/9/9/9/R8/9/9/9/5R3/3K5 w - - 0 1").unwrap();
    let mut game = GameState::new(start);
    game.play_for(Color::Red, mv("a5e5")).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Color::Red,
            reason: WinReason::Checkmate
        })
    );
    assert!(!game.ended_off_board());
    assert_eq!(ended_text(&game), None);
    assert_eq!(game.to_record().result, GameResult::RedWins);
    assert_eq!(
        game.offer_draw(Color::Black, Players::TwoPeople, None),
        Err(RuleError::GameOver)
    );
    // A mate on the board can be taken back (a result given cannot).
    assert_eq!(
        game.ask_takeback(Color::Black, Players::OneKeyboard),
        Ok(TakebackReply::TookBack(1))
    );
    assert_eq!(game.outcome(), None);
    assert_eq!(game.to_record().result, GameResult::Unknown);
}
