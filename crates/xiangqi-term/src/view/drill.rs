//! The drill's pane, in the move list's and the log's place: the lesson, each move
//! with its grade and the table's reply, plies used against the optimum, the result.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::text::{fit, pad};
use xiangqi_app::app::App;
use xiangqi_app::drill_link::DrillMode;
use xiangqi_app::train::drill::{HOLD_MOVES, Status, margin};
use xiangqi_core::board::Color;
use xiangqi_core::notation::format_move;

/// The status line's part: "drill KRK: your move".
pub fn status(mode: &DrillMode) -> String {
    let drill = &mode.drill;
    let state = match drill.status {
        Status::Playing if drill.student_to_move() => "your move",
        Status::Playing => "the table's move",
        other => other.text(),
    };
    format!("drill {}: {state}", mode.lesson.summary.material)
}

pub fn draw(app: &App, mode: &DrillMode, frame: &mut Frame, area: Rect) {
    let palette = &crate::style::Palette::new(&app.theme);
    let summary = &mode.lesson.summary;
    let drill = &mode.drill;
    let title = format!(" Endgame school: {} ", summary.material);
    let block = super::panes::pane_block(app, &title, false);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let ellipsis = app.glyphs().ellipsis();
    let side = if drill.student == Color::Red {
        "Red"
    } else {
        "Black"
    };
    let mut head = vec![format!(
        "{} ({:.0}% won) - you play {side}",
        summary.outlook().name(),
        summary.won_percent()
    )];
    match drill.optimum {
        Some(best) => {
            head.push(format!(
                "optimum: mate in {} ({best} plies)",
                best.div_ceil(2)
            ));
            head.push(format!("pass: mate within {} plies", best + margin(best)));
        }
        None => head.push(format!("pass: hold the draw for {HOLD_MOVES} moves")),
    }

    let notation = app.display_notation();
    let mut moves = Vec::new();
    let mut pos = drill.start.clone();
    if let Some(reply) = drill.opening_reply {
        moves.push(format!("    table {}", format_move(&pos, reply, notation)));
        pos.make_move(reply);
    }
    for (n, step) in drill.steps.iter().enumerate() {
        let played = format_move(&pos, step.mv, notation);
        pos.make_move(step.mv);
        let mut line = format!("{:>3}. {} {:<7}", n + 1, pad(&played, 8), step.grade.text());
        if let Some(reply) = step.reply {
            line.push_str(&format!(" {}", format_move(&pos, reply, notation)));
            pos.make_move(reply);
        }
        moves.push(line);
    }

    let mut foot = Vec::new();
    let used = drill.plies_used();
    foot.push(match drill.optimum {
        Some(best) => format!(
            "plies {used}/{best}, lost {}, take-backs {}",
            drill.lost(),
            drill.takebacks
        ),
        None => format!(
            "held {}/{HOLD_MOVES}, take-backs {}",
            drill.steps.len(),
            drill.takebacks
        ),
    });
    let result = match drill.status {
        Status::Playing if drill.student_to_move() => "your move".to_owned(),
        Status::Playing => "the table's move".to_owned(),
        Status::Passed => "PASSED - Ctrl-N next lesson".to_owned(),
        other => format!(
            "{} - Ctrl-Z back, Ctrl-K again",
            other.text().to_uppercase()
        ),
    };
    foot.push(result);

    // The newest moves when they do not all fit.
    let rows = usize::from(inner.height);
    let room = rows.saturating_sub(head.len() + foot.len() + 1);
    let skip = moves.len().saturating_sub(room);
    let mut lines: Vec<Line> = head
        .iter()
        .map(|t| Line::styled(fit(t, width, ellipsis), palette.pane))
        .collect();
    lines.push(Line::styled(
        fit("  #  you      grade   table", width, ellipsis),
        palette.pane.patch(palette.pane_title),
    ));
    lines.extend(
        moves[skip..]
            .iter()
            .map(|t| Line::styled(fit(t, width, ellipsis), palette.pane)),
    );
    while lines.len() + foot.len() < rows {
        lines.push(Line::raw(""));
    }
    for (i, t) in foot.iter().enumerate() {
        let style = if i + 1 == foot.len() && drill.status.over() && drill.status != Status::Passed
        {
            palette.status_alert
        } else if i + 1 == foot.len() {
            palette.pane.patch(palette.pane_highlight)
        } else {
            palette.pane
        };
        lines.push(Line::styled(fit(t, width, ellipsis), style));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
