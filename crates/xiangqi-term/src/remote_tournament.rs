//! A tournament's screen in the lobby: what it is and where it stands, the standings,
//! the boards of the round (Up/Down and Enter watch one, or play one's own) and its
//! chat (`say TEXT`). One column, so that 80x24 shows it whole for a club's field; a
//! larger field's standings end with how many more there are.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use xiangqi_app::game::{BoardRow, TournamentView, board_line, standings_lines};

use super::style::Palette;

/// Chat lines shown when everything else fits too (more when there is room).
const CHAT_AT_LEAST: usize = 2;

/// How many rows each part gets in `height` rows: (standings, boards, chat), each with
/// its heading. Everything fits when it can; else the chat shrinks to its last lines,
/// then the boards to a window around the chosen one, then the standings to the top.
fn rows_for(view: &TournamentView, height: usize) -> (usize, usize, usize) {
    let standings = 1 + view.standings.len();
    let boards = if view.boards.is_empty() {
        0
    } else {
        1 + view.boards.len()
    };
    let chat_all = if view.chat.is_empty() {
        0
    } else {
        1 + view.chat.len()
    };
    if standings + boards + chat_all <= height {
        return (standings, boards, chat_all);
    }
    let chat = chat_all.min(1 + CHAT_AT_LEAST);
    let room = height.saturating_sub(chat);
    if standings + boards <= room {
        // The chat takes what is left.
        return (standings, boards, height - standings - boards);
    }
    let boards = boards.min(room.saturating_sub(standings).max(4)).min(room);
    let standings = room - boards;
    (standings, boards, chat)
}

/// `text` cut to `width` columns.
fn cut(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    for c in text.chars() {
        if out.width() + unicode_width::UnicodeWidthChar::width(c).unwrap_or(0) + 1 > width {
            break;
        }
        out.push(c);
    }
    out.push('~');
    out
}

/// Draws `view` in `area` (the inside of the lobby's pane); `selected` is the board
/// chosen.
pub fn draw(
    view: &TournamentView,
    selected: usize,
    palette: &Palette,
    area: Rect,
    frame: &mut Frame,
) {
    let width = usize::from(area.width);
    let mut lines: Vec<Line> = vec![
        Line::from(Span::styled(cut(&view.about, width), palette.log_detail)),
        Line::from(Span::styled(cut(&view.state, width), palette.pane)),
    ];
    if let Some(you) = &view.you {
        lines.push(Line::from(Span::styled(
            cut(you, width),
            palette.pane_highlight,
        )));
    }
    let height = usize::from(area.height).saturating_sub(lines.len());
    let (standings_rows, board_rows, chat_rows) = rows_for(view, height);
    let table = standings_lines(&view.standings);
    for (index, line) in table.iter().enumerate().take(standings_rows) {
        let more = view.standings.len() + 1 - index;
        let last = index + 1 == standings_rows && more > 1;
        let (text, style) = if index == 0 {
            (line.clone(), palette.pane_title)
        } else if last {
            (
                format!("  ... {more} more: standings {}", view.name),
                palette.log_detail,
            )
        } else {
            (line.clone(), palette.pane)
        };
        lines.push(Line::from(Span::styled(cut(&text, width), style)));
    }
    if board_rows > 0 {
        let heading = BoardRow {
            room: None,
            label: "#".to_owned(),
            red: "RED".to_owned(),
            black: "BLACK".to_owned(),
            state: "STATE".to_owned(),
            mine: false,
        };
        lines.push(Line::from(Span::styled(
            cut(&board_line(&heading), width),
            palette.pane_title,
        )));
        let shown = board_rows - 1;
        // A window of the boards that holds the chosen one.
        let first = selected
            .saturating_sub(shown.saturating_sub(1))
            .min(view.boards.len().saturating_sub(shown));
        for (index, board) in view.boards.iter().enumerate().skip(first).take(shown) {
            let style = if index == selected {
                palette.pane_highlight
            } else {
                palette.pane
            };
            lines.push(Line::from(Span::styled(
                cut(&board_line(board), width),
                style,
            )));
        }
    }
    if chat_rows > 0 {
        lines.push(Line::from(Span::styled(
            cut("chat (say TEXT)", width),
            palette.pane_title,
        )));
        let shown = chat_rows - 1;
        let skip = view.chat.len().saturating_sub(shown);
        for line in view.chat.iter().skip(skip) {
            lines.push(Line::from(Span::styled(
                cut(line, width),
                palette.log_detail,
            )));
        }
    }
    frame.render_widget(Paragraph::new(lines).style(palette.pane), area);
}
