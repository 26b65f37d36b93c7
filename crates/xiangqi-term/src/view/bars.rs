//! The input line and the status line.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::text::{fit, tail, wrap};
use crate::style::Palette;
use xiangqi_app::app::{App, AppMode, Focus};
use xiangqi_app::config::{EngineSide, Glyphs};
use xiangqi_app::engine_events::count;

const PROMPT: &str = "move> ";

/// The input line's layout at `width`: the typed text shown (its end when long),
/// the part of the error after it, and the rest of the error, which wraps to the
/// status line.
struct InputRow<'a> {
    shown: &'a str,
    error: Option<(String, String)>,
}

/// An error shorter than this on the input line goes whole to the status line.
const ERROR_MIN_ROOM: usize = 12;

fn input_row(app: &App, width: usize) -> InputRow<'_> {
    let room = width.saturating_sub(PROMPT.len() + 1);
    let text = app.input.text();
    // A long line shows its end, and leaves room for its error.
    let error_room = app
        .input
        .error()
        .map_or(0, |error| (error.width() + 2).min(room / 2));
    let shown = tail(text, room - error_room);
    let error = app.input.error().map(|error| {
        let left = room.saturating_sub(shown.width() + 2);
        if error.width() <= left {
            (error.to_owned(), String::new())
        } else if left < ERROR_MIN_ROOM {
            (String::new(), error.to_owned())
        } else {
            let first = wrap(error, left, 0, "").swap_remove(0);
            let rest = error[first.len()..].trim_start().to_owned();
            (first, rest)
        }
    });
    InputRow { shown, error }
}

/// A notice too long for the status line, while nothing is typed: its first part,
/// drawn over the empty input line, and the rest, on the status line (both go at the
/// next key, as the notice does).
fn notice_rows(app: &App, width: usize) -> Option<(String, String)> {
    let notice = app.notice.as_ref()?;
    let room = width.saturating_sub(2);
    if notice.text.width() <= room || !app.input.is_empty() || app.input.error().is_some() {
        return None;
    }
    let first = wrap(&notice.text, room, 0, "").swap_remove(0);
    let rest = notice.text[first.len()..].trim_start().to_owned();
    Some((first, rest))
}

/// The style of the notice.
fn notice_style(app: &App) -> Style {
    match &app.notice {
        Some(notice) if notice.alert => crate::style::to_tui(&app.theme.status_alert),
        _ => crate::style::to_tui(&app.theme.status),
    }
}

pub fn input(app: &App, frame: &mut Frame, area: Rect) {
    let palette = &crate::style::Palette::new(&app.theme);
    if let Some((first, _)) = notice_rows(app, usize::from(area.width)) {
        let line = Line::styled(format!(" {first}"), notice_style(app));
        frame.render_widget(Paragraph::new(line).style(palette.status), area);
        return;
    }
    let focused = app.focus == Focus::Input && app.popups.is_empty();
    let prompt_style = if focused {
        palette.input.patch(palette.pane_title)
    } else {
        palette.input.patch(palette.log_detail)
    };
    let width = usize::from(area.width);
    let room = width.saturating_sub(PROMPT.len() + 1);
    let text = app.input.text();
    let row = input_row(app, width);
    let shown = row.shown;
    let mut spans = vec![
        Span::styled(PROMPT, prompt_style),
        Span::styled(shown.to_owned(), palette.input),
    ];
    let ellipsis = app.glyphs().ellipsis();
    if let Some((first, _)) = &row.error {
        spans.push(Span::styled("  ", palette.input));
        spans.push(Span::styled(first.clone(), palette.input_error));
    } else if text.is_empty() && focused {
        let hint = if let AppMode::Study(_) = app.mode {
            ":trace save PATH, :help; Tab to the log or the explorer | F1 help"
        } else if app.config.settings.glyphs == Glyphs::Ascii {
            "type a move (C2.5, h2e2) and Enter | F1 help"
        } else {
            "type a move (炮二平五, C2.5, h2e2) and Enter | F1 help"
        };
        spans.push(Span::styled(
            fit(hint, room, ellipsis),
            palette.input.patch(palette.log_detail),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)).style(palette.input), area);
    if focused {
        // The terminal's cursor sits where the next character goes.
        let before: String = app.input.text().chars().take(app.input.cursor()).collect();
        let hidden = text.width() - shown.width();
        let column = PROMPT.len() + before.width().saturating_sub(hidden);
        let column = u16::try_from(column).unwrap_or(u16::MAX);
        if column < area.width {
            frame.set_cursor_position(Position::new(area.x + column, area.y));
        }
    }
}

/// A part of the status line: its rank (0 matters most), its text, and a shorter
/// text to use when the line is short of room.
struct Part {
    rank: u8,
    text: String,
    short: Option<String>,
}

impl Part {
    fn new(rank: u8, text: String) -> Part {
        Part {
            rank,
            text,
            short: None,
        }
    }

    fn or_short(mut self, short: String) -> Part {
        self.short = Some(short);
        self
    }
}

/// The trainer's line: the puzzle, where the attempt stands, the way back.
fn puzzle_parts(mode: &xiangqi_app::puzzle_mode::PuzzleMode, leave: &str) -> Vec<Part> {
    use xiangqi_app::train::Status;
    let session = &mode.session;
    let state = match session.status {
        _ if mode.tree.is_some() => "proof tree: arrows walk it, Ctrl-V closes",
        Status::YourMove => "your move",
        Status::Waiting => "the prover is thinking",
        Status::Solved => "solved: Ctrl-N next",
        Status::Refuted => "refuted: Ctrl-Z retry, Ctrl-N next",
    };
    vec![
        Part::new(1, format!("puzzle {}", session.puzzle.id)),
        Part::new(0, state.to_owned()),
        Part::new(2, leave.to_owned()),
    ]
}

/// Who plays, in a few words (a room's status line in its parts).
fn mode_parts(app: &App) -> Vec<Part> {
    if let AppMode::Room(room) = &app.mode {
        // The room's line reads "room NAME | you: Red | A vs B | 2 watching | ended or
        // pending"; what is pending or ended matters most, the room's name and the
        // watchers least.
        return room
            .split(" | ")
            .enumerate()
            .map(|(index, part)| {
                let rank = if index == 0 {
                    4
                } else if part.starts_with("you: ") || part == "watching" || part.contains(" vs ") {
                    3
                } else if part.ends_with(" watching") {
                    5
                } else {
                    1
                };
                Part::new(rank, part.to_owned())
            })
            .collect();
    }
    // An external engine is named; the in-process one by its algorithm.
    let algorithm = match app.config.settings.engine.as_str() {
        xiangqi_app::config::BUILTIN_ENGINE => app.config.settings.algorithm.to_string(),
        name => name.to_owned(),
    };
    let part = match app.engine_side() {
        EngineSide::Black => {
            Part::new(3, format!("you: Red vs {algorithm}")).or_short("you: Red".to_owned())
        }
        EngineSide::Red => {
            Part::new(3, format!("you: Black vs {algorithm}")).or_short("you: Black".to_owned())
        }
        EngineSide::Both => Part::new(3, format!("{algorithm} vs {algorithm}"))
            .or_short("engine vs engine".to_owned()),
        EngineSide::None => Part::new(3, "two players".to_owned()),
    };
    vec![part]
}

fn engine_part(app: &App) -> Option<Part> {
    if let Some(thinking) = &app.engine.thinking {
        let mut text = "thinking".to_owned();
        let mut short = text.clone();
        if let Some(info) = &thinking.info {
            let score = info.verdict().shown(thinking.side).labelled();
            short.push_str(&format!(" d{} {score}", info.depth));
            text.push_str(&format!(
                " d{} {score} {}n {}n/s",
                info.depth,
                count(info.nodes),
                count(info.nps)
            ));
        }
        if app.log.step.is_some_and(|step| step.waiting()) {
            text.push_str(" [step]");
            short.push_str(" [step]");
        }
        return Some(Part::new(2, text).or_short(short));
    }
    if app.engine.paused && app.engine_side() != EngineSide::None {
        return Some(Part::new(2, "engine waits (Ctrl-G)".to_owned()));
    }
    app.last_search().map(|last| {
        let info = &last.info;
        let score = info.verdict().shown(last.side).labelled();
        let short = format!("last: {score}");
        Part::new(
            2,
            format!("last: d{} {score} {}n", info.depth, count(info.nodes)),
        )
        .or_short(short)
    })
}

/// The state's parts, and whether it needs attention.
fn state_parts(app: &App) -> (Vec<Part>, bool) {
    if let xiangqi_app::app::AppMode::Drill(mode) = &app.mode {
        let mut parts = vec![Part::new(0, super::drill::status(mode))];
        if let Some(hint) = &app.hint {
            parts.push(Part::new(1, format!("the table's best: {}", hint.text)));
        }
        parts.push(Part::new(2, app.leave_training_hint().to_owned()));
        return (parts, false);
    }
    if let AppMode::Puzzle(mode) = &app.mode {
        return (puzzle_parts(mode, app.leave_training_hint()), false);
    }
    let position = app.position();
    let mut parts = Vec::new();
    let mut alert = false;
    match xiangqi_app::ruling_view::game_result_text(&app.game) {
        Some(result) => {
            parts.push(Part::new(0, result));
            alert = true;
        }
        None => {
            let side = position.side_to_move().name();
            // While browsing the state is the game's, not the position shown's.
            let game = if app.browse.is_some() { "game: " } else { "" };
            if position.in_check() {
                parts.push(Part::new(0, format!("{game}{side} to move, CHECK")));
                alert = true;
            } else {
                parts.push(Part::new(0, format!("{game}{side} to move")));
            }
            // Before a move repeats a cycle the side to move would lose by.
            if let Some((full, short)) = xiangqi_app::ruling_view::warning(app) {
                parts.push(Part::new(0, full).or_short(short));
                alert = true;
            }
            if let Some(probe) = app.tablebases.as_ref().and_then(|tb| tb.probe(position)) {
                parts.push(Part::new(4, format!("tablebase: {}", probe.describe())));
            }
        }
    }
    if let Some(browse) = &app.browse {
        parts.insert(
            0,
            Part::new(0, format!("ply {}/{} shown", browse.ply, app.game.ply())),
        );
    }
    if let Some(hint) = &app.hint {
        parts.push(Part::new(1, format!("hint: {}", hint.text)));
    }
    parts.extend(mode_parts(app));
    parts.extend(engine_part(app));
    if app.config.settings.step {
        parts.push(Part::new(2, "step".to_owned()));
    }
    if let Some(saving) = &app.study.saving {
        parts.push(Part::new(1, saving.describe()));
    }
    if let Some(reviewing) = app.review.describe() {
        parts.push(Part::new(1, reviewing));
    }
    (parts, alert)
}

/// The parts joined in `room` columns: the least important ones shorten first, then
/// give way, until the line fits (the first, the state itself, always stays).
fn join_to_fit(mut parts: Vec<Part>, room: usize) -> String {
    let join = |parts: &[Part]| {
        parts
            .iter()
            .map(|part| part.text.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let mut ranks: Vec<u8> = parts.iter().map(|part| part.rank).collect();
    ranks.sort_unstable_by(|a, b| b.cmp(a));
    ranks.dedup();
    for &rank in &ranks {
        if join(&parts).width() <= room {
            break;
        }
        for part in parts.iter_mut().filter(|part| part.rank == rank) {
            if let Some(short) = part.short.take() {
                part.text = short;
            }
        }
    }
    for &rank in ranks.iter().filter(|&&rank| rank > 0) {
        if join(&parts).width() <= room {
            break;
        }
        // The latest part of the rank goes first.
        while join(&parts).width() > room {
            let Some(at) = parts.iter().rposition(|part| part.rank == rank) else {
                break;
            };
            parts.remove(at);
        }
    }
    join(&parts)
}

pub fn status(app: &App, frame: &mut Frame, area: Rect) {
    let palette = &crate::style::Palette::new(&app.theme);
    let width = usize::from(area.width);
    let ellipsis = app.glyphs().ellipsis();
    // An input error too long for the input line goes on here.
    if let Some((_, rest)) = input_row(app, width)
        .error
        .filter(|(_, rest)| !rest.is_empty())
    {
        let line = Line::styled(
            fit(&format!(" {rest}"), width, ellipsis),
            palette.status_alert,
        );
        frame.render_widget(Paragraph::new(line).style(palette.status), area);
        return;
    }
    // A long notice goes on from the input line.
    if let Some((_, rest)) = notice_rows(app, width) {
        let line = Line::styled(fit(&format!(" {rest}"), width, ellipsis), notice_style(app));
        frame.render_widget(Paragraph::new(line).style(palette.status), area);
        return;
    }
    let right = " F1 help ";
    let (mut parts, alert) = match &app.notice {
        Some(notice) => (vec![Part::new(0, notice.text.clone())], notice.alert),
        None => state_parts(app),
    };
    let joined = |parts: &[Part]| {
        parts
            .iter()
            .map(|part| part.text.as_str())
            .collect::<Vec<_>>()
            .join(" | ")
    };
    // The opening (also on the move list's title) comes only where it leaves room for
    // the help hint, in full or as its code.
    if app.notice.is_none()
        && !matches!(app.mode, xiangqi_app::app::AppMode::Drill(_))
        && let Some(opening) = super::opening::shown_opening(app)
    {
        let room = width.saturating_sub(joined(&parts).width() + 4 + right.len());
        let full = super::opening::label(app, opening);
        let code = opening.code.to_string();
        if let Some(text) = [full, code].into_iter().find(|text| text.width() <= room) {
            parts.push(Part::new(5, text));
        }
    }
    // The help hint gives way first, then the state's parts by rank.
    let full = joined(&parts);
    let right = if full.width() + 1 + right.len() <= width {
        right
    } else {
        ""
    };
    let left_room = width.saturating_sub(right.len());
    let left = fit(
        &format!(" {}", join_to_fit(parts, left_room.saturating_sub(1))),
        left_room,
        ellipsis,
    );
    let line = status_row(palette, left, alert, fit(right, width, ellipsis), width);
    frame.render_widget(Paragraph::new(line).style(palette.status), area);
}

/// A status row `width` wide: `left` (in the alert style when `alert`), then `right`
/// against the right edge.
pub fn status_row(
    palette: &Palette,
    left: String,
    alert: bool,
    right: String,
    width: usize,
) -> Line<'static> {
    let gap = width.saturating_sub(left.width() + right.width());
    let style = if alert {
        palette.status_alert
    } else {
        palette.status
    };
    Line::from(vec![
        Span::styled(left, style),
        Span::styled(" ".repeat(gap), palette.status),
        Span::styled(right, palette.status),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts() -> Vec<Part> {
        vec![
            Part::new(0, "Red to move".into()),
            Part::new(4, "room kitchen".into()),
            Part::new(3, "you: Red vs alphabeta".into()).or_short("you: Red".into()),
            Part::new(2, "thinking d5 -0.31 183.2kn 1.20Mn/s".into())
                .or_short("thinking d5 -0.31".into()),
            Part::new(1, "Black offers a draw".into()),
        ]
    }

    #[test]
    fn the_status_line_shortens_then_drops_its_least_parts_first() {
        let full = "Red to move | room kitchen | you: Red vs alphabeta | \
                    thinking d5 -0.31 183.2kn 1.20Mn/s | Black offers a draw";
        assert_eq!(join_to_fit(parts(), 200), full);
        assert_eq!(
            join_to_fit(parts(), 90),
            "Red to move | room kitchen | you: Red | thinking d5 -0.31 | Black offers a draw"
        );
        assert_eq!(
            join_to_fit(parts(), 70),
            "Red to move | you: Red | thinking d5 -0.31 | Black offers a draw"
        );
        assert_eq!(
            join_to_fit(parts(), 40),
            "Red to move | Black offers a draw"
        );
        // The state itself stays, cut by the caller if need be.
        assert_eq!(join_to_fit(parts(), 5), "Red to move");
    }
}
