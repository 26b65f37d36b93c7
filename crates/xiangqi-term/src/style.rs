//! The theme's colours and attributes as ratatui styles. The only place the config's
//! terminal-free `Style` meets ratatui.

use ratatui::style::{Color as TuiColor, Modifier, Style as TuiStyle};

use xiangqi_app::config::theme::{Color, Style, Theme};

/// One theme part as a ratatui style.
pub fn to_tui(style: &Style) -> TuiStyle {
    let mut out = TuiStyle::default();
    if let Some(fg) = style.fg {
        out = out.fg(color(fg));
    }
    if let Some(bg) = style.bg {
        out = out.bg(color(bg));
    }
    let flags = [
        (style.bold, Modifier::BOLD),
        (style.dim, Modifier::DIM),
        (style.italic, Modifier::ITALIC),
        (style.underline, Modifier::UNDERLINED),
        (style.reverse, Modifier::REVERSED),
    ];
    for (on, modifier) in flags {
        if on {
            out = out.add_modifier(modifier);
        }
    }
    out
}

fn color(color: Color) -> TuiColor {
    match color {
        Color::Default => TuiColor::Reset,
        Color::Ansi(ansi) => TuiColor::Indexed(ansi.index()),
        Color::Indexed(index) => TuiColor::Indexed(index),
        Color::Rgb(rgb) => TuiColor::Rgb(rgb.r, rgb.g, rgb.b),
    }
}

/// Every part of a theme as ratatui styles, converted once per theme change rather
/// than on every frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Palette {
    pub name: String,
    pub text: TuiStyle,
    pub board: TuiStyle,
    pub grid: TuiStyle,
    pub river: TuiStyle,
    pub coordinates: TuiStyle,
    pub red_piece: TuiStyle,
    pub black_piece: TuiStyle,
    pub last_move: TuiStyle,
    pub check: TuiStyle,
    pub cursor: TuiStyle,
    pub selection: TuiStyle,
    pub legal_target: TuiStyle,
    pub pane: TuiStyle,
    pub pane_border: TuiStyle,
    pub pane_border_focused: TuiStyle,
    pub pane_title: TuiStyle,
    pub pane_highlight: TuiStyle,
    pub log_detail: TuiStyle,
    pub input: TuiStyle,
    pub input_error: TuiStyle,
    pub status: TuiStyle,
    pub status_alert: TuiStyle,
    pub popup: TuiStyle,
}

impl Palette {
    pub fn new(theme: &Theme) -> Palette {
        Palette {
            name: theme.name.clone(),
            text: to_tui(&theme.text),
            board: to_tui(&theme.board),
            grid: to_tui(&theme.grid),
            river: to_tui(&theme.river),
            coordinates: to_tui(&theme.coordinates),
            red_piece: to_tui(&theme.red_piece),
            black_piece: to_tui(&theme.black_piece),
            last_move: to_tui(&theme.last_move),
            check: to_tui(&theme.check),
            cursor: to_tui(&theme.cursor),
            selection: to_tui(&theme.selection),
            legal_target: to_tui(&theme.legal_target),
            pane: to_tui(&theme.pane),
            pane_border: to_tui(&theme.pane_border),
            pane_border_focused: to_tui(&theme.pane_border_focused),
            pane_title: to_tui(&theme.pane_title),
            pane_highlight: to_tui(&theme.pane_highlight),
            log_detail: to_tui(&theme.log_detail),
            input: to_tui(&theme.input),
            input_error: to_tui(&theme.input_error),
            status: to_tui(&theme.status),
            status_alert: to_tui(&theme.status_alert),
            popup: to_tui(&theme.popup),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_app::config::theme::{AnsiColor, Rgb};

    #[test]
    fn colours_and_attributes_map_one_to_one() {
        let style = Style {
            fg: Some(Color::Ansi(AnsiColor::BrightRed)),
            bg: Some(Color::Rgb(Rgb::new(1, 2, 3))),
            bold: true,
            reverse: true,
            ..Style::default()
        };
        let tui = to_tui(&style);
        assert_eq!(tui.fg, Some(TuiColor::Indexed(9)));
        assert_eq!(tui.bg, Some(TuiColor::Rgb(1, 2, 3)));
        assert_eq!(tui.add_modifier, Modifier::BOLD | Modifier::REVERSED);
        let default = to_tui(&Style {
            fg: Some(Color::Default),
            bg: Some(Color::Indexed(200)),
            ..Style::default()
        });
        assert_eq!(default.fg, Some(TuiColor::Reset));
        assert_eq!(default.bg, Some(TuiColor::Indexed(200)));
        assert_eq!(to_tui(&Style::default()), TuiStyle::default());
    }
}
