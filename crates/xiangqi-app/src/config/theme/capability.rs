//! How many colours the terminal shows: from the environment, or forced by `color`.

use crate::config::values::ColorMode;

/// What the terminal can show, from least to most.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ColorLevel {
    /// No colour: bold, reverse and the glyphs carry everything.
    None,
    Ansi16,
    Ansi256,
    TrueColor,
}

/// The environment values colour detection looks at, passed in so detection is a
/// pure function (and testable without touching the process environment).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColorEnv {
    pub no_color: Option<String>,
    pub colorterm: Option<String>,
    pub term: Option<String>,
}

impl ColorEnv {
    /// The values of `NO_COLOR`, `COLORTERM` and `TERM` in this process.
    pub fn from_process() -> ColorEnv {
        let read =
            |name: &str| std::env::var_os(name).map(|value| value.to_string_lossy().into_owned());
        ColorEnv {
            no_color: read("NO_COLOR"),
            colorterm: read("COLORTERM"),
            term: read("TERM"),
        }
    }
}

/// `TERM` values (as prefixes) of terminals that always show 24-bit colour. They
/// matter over SSH, which forwards `TERM` but not `COLORTERM`.
const TRUECOLOR_TERMS: &[&str] = &[
    "xterm-kitty",
    "xterm-ghostty",
    "alacritty",
    "wezterm",
    "foot",
    "contour",
];

impl ColorLevel {
    /// The level for the `color` setting: forced values win (also over `NO_COLOR`, as
    /// no-color.org asks of explicit settings), `auto` detects.
    pub fn for_mode(mode: ColorMode, env: &ColorEnv) -> ColorLevel {
        match mode {
            ColorMode::Auto => ColorLevel::detect(env),
            ColorMode::TrueColor => ColorLevel::TrueColor,
            ColorMode::Ansi256 => ColorLevel::Ansi256,
            ColorMode::Ansi16 => ColorLevel::Ansi16,
            ColorMode::Never => ColorLevel::None,
        }
    }

    /// Detect from the environment. `COLORTERM` can only raise the level to 24-bit:
    /// nothing requires it, since SSH drops it; `TERM=xterm-256color` alone gives 256.
    pub fn detect(env: &ColorEnv) -> ColorLevel {
        if env
            .no_color
            .as_deref()
            .is_some_and(|value| !value.is_empty())
        {
            return ColorLevel::None;
        }
        let term = env
            .term
            .as_deref()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if term == "dumb" {
            return ColorLevel::None;
        }
        let colorterm = env
            .colorterm
            .as_deref()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if colorterm == "truecolor" || colorterm == "24bit" {
            return ColorLevel::TrueColor;
        }
        if term.ends_with("-direct")
            || term.contains("truecolor")
            || term.contains("24bit")
            || TRUECOLOR_TERMS
                .iter()
                .any(|prefix| term.starts_with(prefix))
        {
            return ColorLevel::TrueColor;
        }
        if term.contains("256color") {
            return ColorLevel::Ansi256;
        }
        // Any other terminal (xterm, screen, linux, or no TERM at all) is assumed to
        // have the 16 standard colours, which nearly all do.
        ColorLevel::Ansi16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(no_color: Option<&str>, colorterm: Option<&str>, term: Option<&str>) -> ColorEnv {
        ColorEnv {
            no_color: no_color.map(str::to_owned),
            colorterm: colorterm.map(str::to_owned),
            term: term.map(str::to_owned),
        }
    }

    #[test]
    fn term_alone_is_enough_over_ssh() {
        let ssh = env(None, None, Some("xterm-256color"));
        assert_eq!(ColorLevel::detect(&ssh), ColorLevel::Ansi256);
        assert_eq!(
            ColorLevel::detect(&env(None, None, Some("tmux-256color"))),
            ColorLevel::Ansi256
        );
        assert_eq!(
            ColorLevel::detect(&env(None, None, Some("xterm-kitty"))),
            ColorLevel::TrueColor
        );
        assert_eq!(
            ColorLevel::detect(&env(None, None, Some("xterm-direct"))),
            ColorLevel::TrueColor
        );
        assert_eq!(
            ColorLevel::detect(&env(None, None, Some("xterm"))),
            ColorLevel::Ansi16
        );
        assert_eq!(
            ColorLevel::detect(&env(None, None, Some("linux"))),
            ColorLevel::Ansi16
        );
        assert_eq!(
            ColorLevel::detect(&env(None, None, None)),
            ColorLevel::Ansi16
        );
    }

    #[test]
    fn colorterm_raises_to_truecolor_only() {
        let local = env(None, Some("truecolor"), Some("xterm-256color"));
        assert_eq!(ColorLevel::detect(&local), ColorLevel::TrueColor);
        assert_eq!(
            ColorLevel::detect(&env(None, Some("24bit"), Some("xterm"))),
            ColorLevel::TrueColor
        );
        assert_eq!(
            ColorLevel::detect(&env(None, Some("yes"), Some("xterm"))),
            ColorLevel::Ansi16
        );
    }

    #[test]
    fn no_color_and_dumb_terminals_get_none() {
        let no_color = env(Some("1"), Some("truecolor"), Some("xterm-256color"));
        assert_eq!(ColorLevel::detect(&no_color), ColorLevel::None);
        assert_eq!(
            ColorLevel::detect(&env(None, None, Some("dumb"))),
            ColorLevel::None
        );
        // no-color.org: an empty NO_COLOR does not count.
        let empty = env(Some(""), None, Some("xterm-256color"));
        assert_eq!(ColorLevel::detect(&empty), ColorLevel::Ansi256);
    }

    #[test]
    fn the_color_setting_overrides_detection() {
        let no_color = env(Some("1"), None, Some("dumb"));
        assert_eq!(
            ColorLevel::for_mode(ColorMode::TrueColor, &no_color),
            ColorLevel::TrueColor
        );
        assert_eq!(
            ColorLevel::for_mode(ColorMode::Ansi256, &no_color),
            ColorLevel::Ansi256
        );
        assert_eq!(
            ColorLevel::for_mode(ColorMode::Ansi16, &no_color),
            ColorLevel::Ansi16
        );
        assert_eq!(
            ColorLevel::for_mode(ColorMode::Auto, &no_color),
            ColorLevel::None
        );
        let rich = env(None, Some("truecolor"), Some("xterm-256color"));
        assert_eq!(
            ColorLevel::for_mode(ColorMode::Never, &rich),
            ColorLevel::None
        );
        assert_eq!(
            ColorLevel::for_mode(ColorMode::Auto, &rich),
            ColorLevel::TrueColor
        );
    }
}
