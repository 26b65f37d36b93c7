//! The puzzle trainer's pane, in the column right of the board: the puzzle, its source,
//! the ratings, the moves played with their marks, the verdict and the rating change;
//! or the solution's proof tree, one defender's turn at a time.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::panes::pane_block;
use super::text::{fit, wrap};
use xiangqi_app::app::App;
use xiangqi_app::puzzle_mode::{ProofTreeView, PuzzleMode, side_name};
use xiangqi_app::train::Status;
use xiangqi_core::board::{Move, Position};
use xiangqi_core::notation::{Notation, format_move};

pub fn draw(app: &App, mode: &PuzzleMode, frame: &mut Frame, area: Rect) {
    let title = match &mode.tree {
        Some(_) => format!(" Proof tree {} ", mode.session.puzzle.id),
        None => format!(" Puzzle {} ", mode.session.puzzle.id),
    };
    let block = pane_block(app, &title, false);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = usize::from(inner.width);
    let rows = match &mode.tree {
        Some(tree) => tree_rows(app, mode, tree),
        None => puzzle_rows(app, mode),
    };
    let ellipsis = app.glyphs().ellipsis();
    let lines: Vec<Line> = rows
        .into_iter()
        .flat_map(|(text, style)| {
            wrap(&text, width, 2, ellipsis)
                .into_iter()
                .map(move |row| Line::from(Span::styled(fit(&row, width, ellipsis), style)))
        })
        .take(usize::from(inner.height))
        .collect();
    frame.render_widget(
        Paragraph::new(lines).style(crate::style::to_tui(&app.theme.pane)),
        inner,
    );
}

type Row = (String, Style);

fn puzzle_rows(app: &App, mode: &PuzzleMode) -> Vec<Row> {
    let palette = &crate::style::Palette::new(&app.theme);
    let plain = palette.pane;
    let detail = palette.pane.patch(palette.log_detail);
    let session = &mode.session;
    let puzzle = &session.puzzle;
    let notation = app.display_notation();
    let mut rows: Vec<Row> = vec![
        (
            format!(
                "{} to move, mate in {}",
                side_name(mode.solver()),
                puzzle.mate_in
            ),
            plain.patch(palette.pane_title),
        ),
        (puzzle.source.describe(), detail),
    ];
    // The themes say what to look for: hidden until solved, unless asked for.
    if !puzzle.themes.is_empty() {
        let text = if mode.themes_shown() {
            let themes: Vec<&str> = puzzle.themes.iter().map(|t| t.name()).collect();
            format!("themes: {}", themes.join(", "))
        } else {
            "themes: hidden until solved (Ctrl-T shows them)".to_owned()
        };
        rows.push((text, detail));
    }
    let profile = &app.trainer.profile;
    rows.push((
        format!(
            "you {}  puzzle {}",
            profile.rating.label(),
            profile.puzzle_rating(puzzle).label()
        ),
        plain,
    ));
    rows.push((String::new(), plain));
    for text in move_rows(&session.start, &session.moves_marked(), notation) {
        rows.push((text, plain));
    }
    let state = match session.status {
        Status::YourMove if session.hint.is_some() => "your move (the hint marks the piece)",
        Status::YourMove => "your move",
        Status::Waiting => "the prover is thinking...",
        Status::Solved => "",
        Status::Refuted => "",
    };
    if !state.is_empty() {
        rows.push((state.to_owned(), detail));
    }
    if let Some(verdict) = session.describe(notation) {
        let style = match session.status {
            Status::Refuted => plain.patch(palette.input_error),
            _ => plain.patch(palette.pane_highlight),
        };
        rows.push((verdict, style));
    }
    if let Some(change) = mode.change {
        let text = if change.rated {
            let delta = change.player_after - change.player_before;
            format!(
                "rating {:.0} -> {:.0} ({delta:+.0}); puzzle {:.0}",
                change.player_before, change.player_after, change.puzzle_after
            )
        } else {
            "not rated: tried before".to_owned()
        };
        rows.push((text, plain));
    }
    rows.push((String::new(), plain));
    let behind = if app.lobby_behind { "lobby" } else { "game" };
    rows.push((
        format!(
            "Ctrl-H hint  Ctrl-Z retry  Ctrl-N next  Ctrl-V proof tree  Ctrl-X back to the {behind}"
        ),
        detail,
    ));
    rows
}

/// The moves, a solver's move and the reply on one line: `1. 车二进九!  象7退9`.
fn move_rows(start: &Position, moves: &[(Move, &'static str)], notation: Notation) -> Vec<String> {
    let mut pos = start.clone();
    let mut rows = Vec::new();
    for (index, pair) in moves.chunks(2).enumerate() {
        let mut text = format!("{}.", index + 1);
        for &(mv, sign) in pair {
            text.push_str(&format!(" {}{sign}", format_move(&pos, mv, notation)));
            pos.make_move(mv);
        }
        rows.push(text);
    }
    rows
}

fn tree_rows(app: &App, mode: &PuzzleMode, tree: &ProofTreeView) -> Vec<Row> {
    let palette = &crate::style::Palette::new(&app.theme);
    let plain = palette.pane;
    let detail = palette.pane.patch(palette.log_detail);
    let notation = app.display_notation();
    let session = &mode.session;
    // The line to this level: the first move, then each reply chosen and its answer.
    let mut pos = session.start.clone();
    let first = session.puzzle.solution[0];
    let mut line = vec![format!("{}!", format_move(&pos, first, notation))];
    pos.make_move(first);
    for level in &tree.levels[..tree.levels.len() - 1] {
        let Some(chosen) = level
            .node
            .as_ref()
            .and_then(|n| n.replies.get(level.selected))
        else {
            break;
        };
        line.push(format_move(&pos, chosen.reply, notation));
        pos.make_move(chosen.reply);
        if let Some(answer) = chosen.answer {
            line.push(format_move(&pos, answer, notation));
            pos.make_move(answer);
        }
    }
    let level = tree.level();
    let defender = side_name(mode.solver().opponent());
    let mut rows: Vec<Row> = vec![
        (line.join(" "), plain.patch(palette.pane_title)),
        (
            format!(
                "{defender} to move; mated in {} at most. Its replies:",
                level.moves_left
            ),
            detail,
        ),
    ];
    match &level.node {
        None if level.failed => rows.push((
            "the prover ran out of its budget here".to_owned(),
            plain.patch(palette.input_error),
        )),
        None => rows.push(("the prover is working...".to_owned(), detail)),
        Some(node) => {
            for (index, reply) in node.replies.iter().enumerate() {
                let mut after = level.position.clone();
                let text = format_move(&after, reply.reply, notation);
                after.make_move(reply.reply);
                let lasts = match (reply.mated_in, reply.answer) {
                    (Some(k), Some(answer)) => {
                        format!("mated in {k}: {}", format_move(&after, answer, notation))
                    }
                    (Some(k), None) => format!("mated in {k}"),
                    (None, _) => "escapes".to_owned(),
                };
                let selected = index == level.selected;
                let mark = if selected { ">" } else { " " };
                let style = if selected {
                    plain.patch(palette.pane_highlight)
                } else {
                    plain
                };
                rows.push((format!("{mark} {text}  {lasts}"), style));
            }
        }
    }
    rows.push((String::new(), plain));
    rows.push((
        "Up Down pick  Right in  Left out  Ctrl-V close".to_owned(),
        detail,
    ));
    rows
}
