//! The arbiter's view: a repetition ruling as a player reads it (the result, the rule
//! and what each move of the cycle did), the `:ruling` command that shows it, and the
//! status line's warning before a move repeats a cycle the mover would lose by. All of
//! it is read from the game each time (`Position::ruling`, `repetition_warnings`): the
//! one arbiter decides, nothing here remembers a verdict.

use xiangqi_core::board::{Color, MoveKind, Ruling};
use xiangqi_core::notation::{Notation, format_move};

use super::app::App;
use super::game::GameState;
use super::popup::Popup;

/// One move of the cycle as the popup lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleRow {
    /// "13." before Red's move, "13..." before Black's.
    pub number: String,
    pub side: Color,
    /// The move in the notation shown.
    pub text: String,
    pub kind: MoveKind,
    /// The general checked or the pieces chased: "chariot d7"; `None` when idle.
    pub target: Option<String>,
}

impl CycleRow {
    /// What the move did, in words: "chase  chariot d7", "idle".
    pub fn did(&self) -> String {
        let kind = match self.kind {
            MoveKind::Check => "check",
            MoveKind::Chase => "chase",
            MoveKind::Idle => "idle",
        };
        match &self.target {
            Some(target) => format!("{kind:<5}  {target}"),
            None => kind.to_owned(),
        }
    }
}

/// A ruling with its cycle written out for the player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulingView {
    pub ruling: Ruling,
    pub rows: Vec<CycleRow>,
    /// Read before the third occurrence (`:ruling` in a game that goes on): what the
    /// arbiter would rule if the cycle were repeated once more.
    pub pending: bool,
}

impl RulingView {
    /// `ruling` on `game` (whose moves end with the ruling's cycle), the moves written in
    /// `notation`.
    pub fn new(game: &GameState, ruling: Ruling, notation: Notation, pending: bool) -> RulingView {
        let start = game.start();
        // Plies are counted from the start position; Black's first move there is ply 1.
        let offset = usize::from(start.side_to_move() == Color::Black);
        let first = ruling.ply.saturating_sub(ruling.cycle.len());
        let rows = ruling
            .cycle
            .iter()
            .enumerate()
            .map(|(i, cycle_move)| {
                let index = first + i;
                let number = usize::from(start.fullmove_number().max(1)) + (index + offset) / 2;
                let number = match cycle_move.side {
                    Color::Red => format!("{number}."),
                    Color::Black => format!("{number}..."),
                };
                // The game's own text of the move, if the game is the one ruled on.
                let text = game
                    .played()
                    .get(index)
                    .filter(|played| played.mv == cycle_move.mv)
                    .map_or_else(|| cycle_move.mv.iccs(), |p| p.text(notation).to_owned());
                CycleRow {
                    number,
                    side: cycle_move.side,
                    text,
                    kind: cycle_move.kind,
                    target: cycle_move.target_text(),
                }
            })
            .collect();
        RulingView {
            ruling,
            rows,
            pending,
        }
    }

    /// The result in a line: "Black wins by perpetual chase by the opponent (0-1)".
    pub fn headline(&self) -> String {
        let result = result_text(&self.ruling);
        if self.pending {
            format!("if the cycle is repeated once more: {result}")
        } else {
            result
        }
    }

    /// The rule with its number: "rule 18: a chariot may not chase ...".
    pub fn rule_line(&self) -> String {
        self.ruling.rule.to_string()
    }

    /// The line above the cycle's moves.
    pub fn cycle_title(&self) -> String {
        let who = match self.ruling.offender {
            Some(side) => format!(", {} breaking the rule", side.name()),
            None => String::new(),
        };
        format!("The repeated cycle{who}:")
    }

    /// The cycle's moves, one line each: number, side, move, what it did.
    pub fn row_lines(&self) -> Vec<String> {
        let number = self.rows.iter().map(|r| r.number.len()).max().unwrap_or(0);
        let text = self
            .rows
            .iter()
            .map(|r| unicode_width::UnicodeWidthStr::width(r.text.as_str()))
            .max()
            .unwrap_or(0);
        self.rows
            .iter()
            .map(|row| {
                let pad = text - unicode_width::UnicodeWidthStr::width(row.text.as_str());
                format!(
                    "{:<number$}  {:<5}  {}{}  {}",
                    row.number,
                    row.side.name(),
                    row.text,
                    " ".repeat(pad),
                    row.did()
                )
            })
            .collect()
    }
}

/// A ruling's result in a line, naming the rule: "Black wins by perpetual chase by the
/// opponent (0-1, rule 18)".
pub fn result_text(ruling: &Ruling) -> String {
    format!(
        "{} ({}, {})",
        ruling.outcome.describe(),
        ruling.result(),
        ruling.rule.label()
    )
}

/// How the game ended, in a line: the ruling's with its rule, else the outcome's
/// ("Red wins by checkmate (1-0)"); `None` while the game goes on.
pub fn game_result_text(game: &GameState) -> Option<String> {
    if let Some(ruling) = game.ruling() {
        return Some(result_text(&ruling));
    }
    let outcome = game.outcome()?;
    Some(format!("{} ({})", outcome.describe(), outcome.pgn_result()))
}

/// The arbiter's popup for the game that ended by a ruling, if it did.
pub fn ended_view(app: &App) -> Option<Box<RulingView>> {
    let ruling = app.game.ruling()?;
    Some(Box::new(RulingView::new(
        &app.game,
        ruling,
        app.display_notation(),
        false,
    )))
}

/// `:ruling`: the popup with the ruling that ended the game, or, while the position
/// has repeated once, what the arbiter reads in the cycle so far.
pub fn show(app: &mut App) -> Result<(), String> {
    if let Some(view) = ended_view(app) {
        app.popups.push(Popup::Ruling(view));
        return Ok(());
    }
    if let Some(outcome) = app.game.outcome() {
        return Err(format!(
            "no repetition ruling: the game ended by {}",
            outcome.how()
        ));
    }
    let ruling = app.game.position().pending_ruling().ok_or(
        "no repetition to rule on: the position has not occurred twice since the last capture",
    )?;
    let view = RulingView::new(&app.game, ruling, app.display_notation(), true);
    app.popups.push(Popup::Ruling(Box::new(view)));
    Ok(())
}

/// The status line's warning to the side to move, when a move it may play repeats a
/// cycle it would lose by: the full text and a short one. Not while the engine is to
/// move, nor once the game is over.
pub fn warning(app: &App) -> Option<(String, String)> {
    let position = app.game.position();
    if app.game_over() || app.engine_plays(position.side_to_move()) {
        return None;
    }
    let warnings = position.repetition_warnings();
    let (mv, warning) = warnings.first()?;
    let notation = app.display_notation();
    let text = format_move(position, *mv, notation);
    let more = match warnings.len() - 1 {
        0 => String::new(),
        n => format!(" ({n} more moves too)"),
    };
    Some((
        format!("{}{more}", warning.said_of(&text)),
        format!("{}{more}", warning.brief(&text)),
    ))
}
