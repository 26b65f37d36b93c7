//! The score graph: the engine's score of each position of the game, from Red's view,
//! in pawns, clipped to ±10; after `:review`, its marked moves as points (a dot for an
//! inaccuracy, a block for a mistake or blunder).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::Span;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Wrap};

use super::panes::pane_block;
use xiangqi_app::analysis::{GRAPH_CLIP, graph_points};
use xiangqi_app::app::App;
use xiangqi_app::review_link::standing;
use xiangqi_engine::review::MoveClass;

pub fn graph(app: &App, frame: &mut Frame, area: Rect) {
    let palette = &crate::style::Palette::new(&app.theme);
    let points: Vec<(f64, f64)> = graph_points(app)
        .into_iter()
        .map(|(ply, cp)| (ply as f64, f64::from(cp) / 100.0))
        .collect();
    // The title shortens to fit a narrow graph: the score stays.
    let score = points
        .last()
        .map(|&(_, pawns)| format!("{pawns:+.2} "))
        .unwrap_or_default();
    let room = usize::from(area.width.saturating_sub(2));
    let title = [" Score (Red) ", " Red ", " "]
        .into_iter()
        .map(|name| format!("{name}{score}"))
        .find(|title| title.len() <= room)
        .unwrap_or_default();
    let block = pane_block(app, &title, false);
    if points.len() < 2 {
        let hint = "The engine's scores of the game show here.";
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let hint = Paragraph::new(hint)
            .style(palette.pane.patch(palette.log_detail))
            .wrap(Wrap { trim: true });
        frame.render_widget(hint, inner);
        return;
    }
    let last_ply = app.game.ply().max(10) as f64;
    // The scale follows the largest score, in whole pawns, up to the clip.
    let largest = points
        .iter()
        .map(|&(_, pawns)| pawns.abs())
        .fold(0.0, f64::max);
    let clip = largest.ceil().clamp(1.0, f64::from(GRAPH_CLIP) / 100.0);
    let zero = [(0.0, 0.0), (last_ply, 0.0)];
    // The marked moves, at the score after them.
    let marked = |wanted: &[MoveClass]| -> Vec<(f64, f64)> {
        standing(app)
            .iter()
            .filter(|m| wanted.contains(&m.class))
            .map(|m| {
                let pawns = f64::from(m.after.clipped(GRAPH_CLIP)) / 100.0;
                (m.ply as f64, pawns.clamp(-clip, clip))
            })
            .collect()
    };
    let inaccuracies = marked(&[MoveClass::Inaccuracy]);
    let errors = marked(&[MoveClass::Mistake, MoveClass::Blunder]);
    let mark_style = palette.pane.patch(palette.input_error);
    let mut datasets = vec![
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Line)
            .style(palette.pane.patch(palette.log_detail))
            .data(&zero),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(palette.pane.patch(palette.pane_highlight))
            .data(&points),
    ];
    for (marker, data) in [(Marker::Dot, &inaccuracies), (Marker::Block, &errors)] {
        if !data.is_empty() {
            datasets.push(
                Dataset::default()
                    .marker(marker)
                    .graph_type(GraphType::Scatter)
                    .style(mark_style)
                    .data(data),
            );
        }
    }
    let label = |text: String| Span::styled(text, palette.pane.patch(palette.log_detail));
    let chart = Chart::new(datasets)
        .block(block)
        .style(palette.pane)
        .x_axis(Axis::default().bounds([0.0, last_ply]))
        .y_axis(Axis::default().bounds([-clip, clip]).labels([
            label(format!("{:+}", -clip)),
            label("0".into()),
            label(format!("{clip:+}")),
        ]));
    frame.render_widget(chart, area);
}
