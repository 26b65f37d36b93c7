//! The compare view: the table of the deepest depth done, the checks, progress, and
//! a chart of leaves (log scale) per depth per backend.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Clear, Dataset, GraphType, Paragraph};

use super::panes::pane_block;
use super::text::fit;
use xiangqi_app::app::App;
use xiangqi_engine::search::Algorithm;
use xiangqi_engine::study::table_header;

const SERIES_COLOURS: [Color; 6] = [
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
];

pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let view = &app.compare;
    frame.render_widget(Clear, area);
    let block = pane_block(app, " Compare (Esc closes) ", true);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let palette = &crate::style::Palette::new(&app.theme);
    let width = usize::from(inner.width);
    let ellipsis = app.glyphs().ellipsis();
    let (depth, table) = view.table();
    let progress = if let Some(error) = &view.error {
        format!("failed: {error}")
    } else if view.running {
        format!(
            "running: {} of {} searches done (depths 1-{})",
            view.rows.len(),
            view.total(),
            view.depth
        )
    } else {
        format!("done: depths 1-{}, table at depth {depth}", view.depth)
    };
    // A position's values are the evaluation's, centipawns (the status line shows pawns).
    let progress = format!("{progress}; centipawns from Red's view");
    let mut lines = vec![
        Line::styled(
            fit(&progress, width, ellipsis),
            palette.pane.patch(palette.pane_title),
        ),
        Line::styled(
            fit(&table_header(), width, ellipsis),
            palette.pane.patch(palette.log_detail),
        ),
    ];
    lines.extend(
        table
            .iter()
            .map(|line| Line::styled(fit(line, width, ellipsis), palette.pane)),
    );
    lines.extend(
        view.checks
            .iter()
            .map(|line| Line::styled(fit(line, width, ellipsis), palette.pane)),
    );
    let text_height = (lines.len() as u16).min(inner.height);
    let [text_area, chart_area] =
        Layout::vertical([Constraint::Length(text_height), Constraint::Min(0)]).areas(inner);
    frame.render_widget(Paragraph::new(lines), text_area);
    if chart_area.height < 6 {
        return;
    }
    // The legend is a row of its own above the chart: drawn inside, lines ran through
    // it (and a narrow chart hid it).
    let [legend_area, chart_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(chart_area);
    let mut legend = Vec::new();
    for (i, algorithm) in Algorithm::ALL.iter().enumerate() {
        let colour = Style::default().fg(SERIES_COLOURS[i % SERIES_COLOURS.len()]);
        legend.push(Span::styled("━━ ", palette.pane.patch(colour)));
        legend.push(Span::styled(format!("{algorithm} "), palette.pane));
    }
    frame.render_widget(Paragraph::new(Line::from(legend)), legend_area);
    let series: Vec<(Algorithm, Vec<(f64, f64)>)> = Algorithm::ALL
        .iter()
        .map(|&algorithm| {
            let points = view
                .series(algorithm)
                .into_iter()
                .map(|(depth, leaves)| (f64::from(depth), (leaves.max(1) as f64).log10()))
                .collect();
            (algorithm, points)
        })
        .collect();
    let top = series
        .iter()
        .flat_map(|(_, points)| points.iter().map(|&(_, y)| y))
        .fold(1.0_f64, f64::max)
        .ceil();
    let datasets: Vec<Dataset> = series
        .iter()
        .enumerate()
        .map(|(i, (algorithm, points))| {
            Dataset::default()
                .name(algorithm.as_str())
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::default().fg(SERIES_COLOURS[i % SERIES_COLOURS.len()]))
                .data(points)
        })
        .collect();
    let x_labels: Vec<String> = (1..=view.depth.max(1)).map(|d| d.to_string()).collect();
    let chart = Chart::new(datasets)
        .style(palette.pane)
        .legend_position(None)
        .x_axis(
            Axis::default()
                .title("depth")
                .bounds([1.0, f64::from(view.depth.max(2))])
                .labels(x_labels),
        )
        .y_axis(
            Axis::default()
                .title("leaves")
                .bounds([0.0, top])
                .labels(vec!["1".to_owned(), format!("1e{}", top as u32)]),
        );
    frame.render_widget(chart, chart_area);
}
