//! The terminal as the program sees it: size, TERM, colours, the locale, and whether the
//! Chinese pieces are drawn two columns wide.

use std::io::IsTerminal;

use xiangqi_app::config::theme::{ColorEnv, ColorLevel};
use xiangqi_app::config::{ColorMode, Glyphs, Settings};

use super::Check;

/// The piece the width probe prints.
const PROBE: &str = "帥";

/// `settings`: the config's, `None` when it does not load (the defaults then).
/// `probe`: the width query may write to the terminal (not with `--json`).
pub fn checks(settings: Option<&Settings>, probe: bool, checks: &mut Vec<Check>) {
    let defaults = Settings::default();
    let settings = settings.unwrap_or(&defaults);
    checks.push(size());
    let env = ColorEnv::from_process();
    checks.push(term(env.term.as_deref()));
    checks.push(match env.colorterm.as_deref() {
        Some(value) if !value.is_empty() => Check::ok("COLORTERM", value),
        _ => Check::ok(
            "COLORTERM",
            "not set (24-bit colour is then judged from TERM alone)",
        ),
    });
    checks.push(colours(settings.color, &env));
    checks.push(locale(settings.glyphs));
    checks.push(cjk_width(settings.glyphs, probe));
}

/// The size of the controlling terminal (through /dev/tty on Unix, the console on
/// Windows, so piping the report still measures it).
#[cfg(feature = "tui")]
fn size() -> Check {
    use xiangqi_app::{MIN_HEIGHT, MIN_WIDTH};
    let name = "terminal size";
    let Some((width, height)) = tty_size() else {
        return Check::warn(
            name,
            "no terminal (no controlling terminal or console, or it has no size)",
            "run doctor in the terminal you play in",
        );
    };
    if width < MIN_WIDTH || height < MIN_HEIGHT {
        return Check::warn(
            name,
            format!(
                "{width}x{height}: smaller than {MIN_WIDTH}x{MIN_HEIGHT}, the terminal UI asks \
                 for a bigger window"
            ),
            format!("enlarge the window to at least {MIN_WIDTH}x{MIN_HEIGHT}"),
        );
    }
    Check::ok(
        name,
        format!("{width}x{height} (at least {MIN_WIDTH}x{MIN_HEIGHT} needed)"),
    )
}

/// The size matters to the terminal UI alone; a build without it does not ask.
#[cfg(not(feature = "tui"))]
fn size() -> Check {
    Check::ok(
        "terminal size",
        "not measured: the terminal UI is not in this build",
    )
}

/// The terminal's columns and rows, as crossterm sees them for the terminal UI.
#[cfg(feature = "tui")]
pub fn tty_size() -> Option<(u16, u16)> {
    // On Unix crossterm's `size` falls back to `tput`, which answers 80x24 with no
    // terminal at all; `window_size` asks the terminal alone. Windows has `size` only
    // (the console's buffer).
    #[cfg(unix)]
    let size = crossterm::terminal::window_size().map(|size| (size.columns, size.rows));
    #[cfg(not(unix))]
    let size = crossterm::terminal::size();
    size.ok().filter(|&(width, height)| width > 0 && height > 0)
}

/// Without the terminal UI the report is not wrapped to a width.
#[cfg(not(feature = "tui"))]
pub fn tty_size() -> Option<(u16, u16)> {
    None
}

fn term(term: Option<&str>) -> Check {
    match term.map(str::trim) {
        None | Some("") => Check::warn(
            "TERM",
            "not set: the terminal UI assumes an ANSI terminal with 16 colours",
            "set TERM to your terminal's type, e.g. export TERM=xterm-256color",
        ),
        Some("dumb") => Check::warn(
            "TERM",
            "dumb: no colours, and a dumb terminal cannot move the cursor the terminal UI \
             needs",
            "play in a terminal emulator (TERM=xterm-256color or the like)",
        ),
        Some(value) => Check::ok("TERM", value),
    }
}

fn colours(mode: ColorMode, env: &ColorEnv) -> Check {
    let level = ColorLevel::for_mode(mode, env);
    let depth = match level {
        ColorLevel::None => "no colour (bold, reverse and the glyphs carry the board)",
        ColorLevel::Ansi16 => "16 colours",
        ColorLevel::Ansi256 => "256 colours",
        ColorLevel::TrueColor => "24-bit colour",
    };
    let why = if mode == ColorMode::Auto {
        "color = auto: detected from NO_COLOR, COLORTERM and TERM".to_owned()
    } else {
        format!("color = {} forces it", mode.as_str())
    };
    let no_color = env.no_color.as_deref().filter(|value| !value.is_empty());
    let note = match (no_color, mode) {
        (Some(_), ColorMode::Auto) => "; NO_COLOR is set",
        (Some(_), _) => "; NO_COLOR is set but the forced mode wins",
        (None, _) => "; NO_COLOR is not set",
    };
    Check::ok("colours", format!("{depth} ({why}{note})"))
}

/// The locale's character set, from `LC_ALL`, else `LC_CTYPE`, else `LANG`.
fn locale(glyphs: Glyphs) -> Check {
    let found = ["LC_ALL", "LC_CTYPE", "LANG"].into_iter().find_map(|name| {
        std::env::var(name)
            .ok()
            .filter(|value| !value.is_empty())
            .map(|value| (name, value))
    });
    let utf8 = |value: &str| {
        let value = value.to_ascii_lowercase();
        value.contains("utf-8") || value.contains("utf8")
    };
    let fix = "use a UTF-8 locale (export LANG=C.UTF-8), or ASCII pieces: --ascii";
    match found {
        Some((name, value)) if utf8(&value) => Check::ok("locale", format!("{name}={value}")),
        _ if glyphs == Glyphs::Ascii => Check::ok(
            "locale",
            "not UTF-8, but the pieces are ASCII letters (glyphs = \"ascii\")",
        ),
        Some((name, value)) => Check::warn(
            "locale",
            format!("{name}={value} is not UTF-8: the Chinese pieces may not show"),
            fix,
        ),
        None => Check::warn(
            "locale",
            "LC_ALL, LC_CTYPE and LANG are not set (the C locale): the Chinese pieces may \
             not show",
            fix,
        ),
    }
}

/// How wide the terminal draws a Chinese piece: print one and ask where the cursor went.
fn cjk_width(glyphs: Glyphs, probe: bool) -> Check {
    let name = "CJK width";
    if glyphs == Glyphs::Ascii {
        return Check::ok(name, "not needed: the pieces are ASCII letters");
    }
    if !probe {
        return Check::ok(name, "not measured with --json (run doctor without it)");
    }
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Check::ok(
            name,
            "not measured: standard input or output is not a terminal",
        );
    }
    match measure() {
        Err(why) => Check::ok(
            name,
            format!("not measured: the terminal did not answer the cursor query ({why})"),
        ),
        Ok(2) => Check::ok(
            name,
            format!("{PROBE} is drawn two columns wide, as the board needs"),
        ),
        Ok(width) => Check::warn(
            name,
            format!("{PROBE} is drawn {width} column(s) wide: the board will not line up"),
            "use a terminal and font that draw CJK characters double wide, or --ascii",
        ),
    }
}

#[cfg(feature = "tui")]
fn measure() -> Result<u16, String> {
    use crossterm::style::Print;
    use crossterm::terminal::{self, Clear, ClearType};
    use crossterm::{cursor, execute};
    terminal::enable_raw_mode().map_err(|error| error.to_string())?;
    let measured = (|| {
        let mut out = std::io::stdout();
        execute!(out, Print("\r"))?;
        let (before, _) = cursor::position()?;
        execute!(out, Print(PROBE))?;
        let (after, _) = cursor::position()?;
        execute!(out, Print("\r"), Clear(ClearType::CurrentLine))?;
        Ok::<u16, std::io::Error>(after.saturating_sub(before))
    })();
    let _ = terminal::disable_raw_mode();
    measured.map_err(|error| error.to_string())
}

#[cfg(not(feature = "tui"))]
fn measure() -> Result<u16, String> {
    Err("this build has no terminal UI to ask with".to_owned())
}
