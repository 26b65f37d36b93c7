//! Colours as themes write them, and their degradation to what a terminal can show.
//! Independent of any terminal library: the TUI maps these onto ratatui's colours.

use std::fmt;

use super::capability::ColorLevel;

/// A 24-bit colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

impl Rgb {
    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Rgb { r, g, b }
    }

    /// Parse `#rrggbb`.
    pub fn from_hex(text: &str) -> Option<Rgb> {
        let digits = text.strip_prefix('#')?;
        if digits.len() != 6 || !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            return None;
        }
        let channel = |at: usize| u8::from_str_radix(&digits[at..at + 2], 16).ok();
        Some(Rgb::new(channel(0)?, channel(2)?, channel(4)?))
    }

    /// Squared distance in the OKLab colour space, where equal distances look
    /// about equally different; unlike plain RGB distance it keeps hues, so a
    /// salmon highlight becomes red rather than grey.
    fn distance(self, other: Rgb) -> f32 {
        let (a, b) = (self.oklab(), other.oklab());
        (0..3).map(|i| (a[i] - b[i]).powi(2)).sum()
    }

    /// OKLab coordinates (Björn Ottosson's matrices).
    fn oklab(self) -> [f32; 3] {
        let linear = |channel: u8| {
            let c = f32::from(channel) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (linear(self.r), linear(self.g), linear(self.b));
        let l = (0.412_221_46 * r + 0.536_332_55 * g + 0.051_445_995 * b).cbrt();
        let m = (0.211_903_5 * r + 0.680_699_5 * g + 0.107_396_96 * b).cbrt();
        let s = (0.088_302_46 * r + 0.281_718_85 * g + 0.629_978_7 * b).cbrt();
        [
            0.210_454_26 * l + 0.793_617_8 * m - 0.004_072_047 * s,
            1.977_998_5 * l - 2.428_592_2 * m + 0.450_593_7 * s,
            0.025_904_037 * l + 0.782_771_77 * m - 0.808_675_77 * s,
        ]
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

/// The 16 standard terminal colours, in palette order (index 0..=15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnsiColor {
    Black,
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    White,
    BrightBlack,
    BrightRed,
    BrightGreen,
    BrightYellow,
    BrightBlue,
    BrightMagenta,
    BrightCyan,
    BrightWhite,
}

impl AnsiColor {
    pub const ALL: [AnsiColor; 16] = [
        AnsiColor::Black,
        AnsiColor::Red,
        AnsiColor::Green,
        AnsiColor::Yellow,
        AnsiColor::Blue,
        AnsiColor::Magenta,
        AnsiColor::Cyan,
        AnsiColor::White,
        AnsiColor::BrightBlack,
        AnsiColor::BrightRed,
        AnsiColor::BrightGreen,
        AnsiColor::BrightYellow,
        AnsiColor::BrightBlue,
        AnsiColor::BrightMagenta,
        AnsiColor::BrightCyan,
        AnsiColor::BrightWhite,
    ];

    /// Palette index, 0..=15.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The name themes use (`bright_red`).
    pub const fn name(self) -> &'static str {
        match self {
            AnsiColor::Black => "black",
            AnsiColor::Red => "red",
            AnsiColor::Green => "green",
            AnsiColor::Yellow => "yellow",
            AnsiColor::Blue => "blue",
            AnsiColor::Magenta => "magenta",
            AnsiColor::Cyan => "cyan",
            AnsiColor::White => "white",
            AnsiColor::BrightBlack => "bright_black",
            AnsiColor::BrightRed => "bright_red",
            AnsiColor::BrightGreen => "bright_green",
            AnsiColor::BrightYellow => "bright_yellow",
            AnsiColor::BrightBlue => "bright_blue",
            AnsiColor::BrightMagenta => "bright_magenta",
            AnsiColor::BrightCyan => "bright_cyan",
            AnsiColor::BrightWhite => "bright_white",
        }
    }

    /// xterm's default palette, the usual reference when choosing the nearest colour;
    /// terminals differ, but they keep the same hues.
    pub const fn rgb(self) -> Rgb {
        const PALETTE: [Rgb; 16] = [
            Rgb::new(0, 0, 0),
            Rgb::new(205, 0, 0),
            Rgb::new(0, 205, 0),
            Rgb::new(205, 205, 0),
            Rgb::new(0, 0, 238),
            Rgb::new(205, 0, 205),
            Rgb::new(0, 205, 205),
            Rgb::new(229, 229, 229),
            Rgb::new(127, 127, 127),
            Rgb::new(255, 0, 0),
            Rgb::new(0, 255, 0),
            Rgb::new(255, 255, 0),
            Rgb::new(92, 92, 255),
            Rgb::new(255, 0, 255),
            Rgb::new(0, 255, 255),
            Rgb::new(255, 255, 255),
        ];
        PALETTE[self as usize]
    }

    fn nearest(rgb: Rgb) -> AnsiColor {
        AnsiColor::ALL
            .into_iter()
            .min_by(|a, b| a.rgb().distance(rgb).total_cmp(&b.rgb().distance(rgb)))
            .unwrap_or(AnsiColor::White)
    }
}

/// A colour in a theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// The terminal's own foreground or background.
    Default,
    /// One of the 16 standard colours (shown by every colour terminal).
    Ansi(AnsiColor),
    /// An xterm 256-colour palette index (16..=255; 0..=15 are `Ansi`).
    Indexed(u8),
    Rgb(Rgb),
}

/// The six channel levels of the xterm 256-colour cube (indices 16..=231).
const CUBE_LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];

impl Color {
    /// Every colour name a theme may use, for messages.
    pub fn names() -> Vec<&'static str> {
        let mut names = vec!["default"];
        names.extend(AnsiColor::ALL.iter().map(|ansi| ansi.name()));
        names
    }

    /// Parse `#rrggbb`, `default`, or a standard colour name (`red`, `bright_black`;
    /// `grey`/`gray` mean `bright_black`). Case-insensitive.
    pub fn parse(text: &str) -> Option<Color> {
        let text = text.trim();
        if text.starts_with('#') {
            return Rgb::from_hex(text).map(Color::Rgb);
        }
        let name = text.to_ascii_lowercase().replace(['-', ' '], "_");
        match name.as_str() {
            "default" | "reset" => Some(Color::Default),
            "gray" | "grey" => Some(Color::Ansi(AnsiColor::BrightBlack)),
            _ => AnsiColor::ALL
                .into_iter()
                .find(|ansi| ansi.name() == name)
                .map(Color::Ansi),
        }
    }

    /// A palette index 0..=255: the first 16 are the standard colours.
    pub fn from_index(index: u8) -> Color {
        match AnsiColor::ALL.get(usize::from(index)) {
            Some(ansi) => Color::Ansi(*ansi),
            None => Color::Indexed(index),
        }
    }

    /// The closest colour the terminal can show at `level`; `None` when it shows no
    /// colour at all (the terminal's default is used).
    pub fn degrade(self, level: ColorLevel) -> Option<Color> {
        match (self, level) {
            (_, ColorLevel::None) => None,
            (Color::Default | Color::Ansi(_), _) => Some(self),
            (Color::Rgb(_), ColorLevel::TrueColor) => Some(self),
            (Color::Indexed(_), ColorLevel::TrueColor | ColorLevel::Ansi256) => Some(self),
            (Color::Rgb(rgb), ColorLevel::Ansi256) => Some(Color::Indexed(nearest_256(rgb))),
            (Color::Rgb(rgb), ColorLevel::Ansi16) => Some(Color::Ansi(AnsiColor::nearest(rgb))),
            (Color::Indexed(index), ColorLevel::Ansi16) => {
                Some(Color::Ansi(AnsiColor::nearest(palette_rgb(index))))
            }
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Color::Default => f.write_str("default"),
            Color::Ansi(ansi) => f.write_str(ansi.name()),
            Color::Indexed(index) => write!(f, "{index}"),
            Color::Rgb(rgb) => write!(f, "{rgb}"),
        }
    }
}

/// The RGB value of an xterm palette index.
pub fn palette_rgb(index: u8) -> Rgb {
    match index {
        0..=15 => AnsiColor::ALL[usize::from(index)].rgb(),
        16..=231 => {
            let cube = index - 16;
            let level = |step: u8| CUBE_LEVELS[usize::from(step)];
            Rgb::new(level(cube / 36), level(cube / 6 % 6), level(cube % 6))
        }
        232..=255 => {
            let gray = 8 + 10 * (index - 232);
            Rgb::new(gray, gray, gray)
        }
    }
}

/// The nearest colour of the 6x6x6 cube or the 24-step grey ramp. The 16 standard
/// colours are left out on purpose: their RGB values differ between terminals.
fn nearest_256(rgb: Rgb) -> u8 {
    let nearest_level = |channel: u8| {
        (0..CUBE_LEVELS.len())
            .min_by_key(|&step| CUBE_LEVELS[step].abs_diff(channel))
            .unwrap_or(0) as u8
    };
    let cube = 16 + 36 * nearest_level(rgb.r) + 6 * nearest_level(rgb.g) + nearest_level(rgb.b);
    let mean = (u16::from(rgb.r) + u16::from(rgb.g) + u16::from(rgb.b)) / 3;
    let gray_step = (mean.saturating_sub(3) / 10).min(23) as u8;
    let gray = 232 + gray_step;
    if palette_rgb(gray).distance(rgb) < palette_rgb(cube).distance(rgb) {
        gray
    } else {
        cube
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hex_names_and_rejects_junk() {
        assert_eq!(
            Color::parse("#e8C88a"),
            Some(Color::Rgb(Rgb::new(0xe8, 0xc8, 0x8a)))
        );
        assert_eq!(
            Color::parse("Bright_Red"),
            Some(Color::Ansi(AnsiColor::BrightRed))
        );
        assert_eq!(
            Color::parse("grey"),
            Some(Color::Ansi(AnsiColor::BrightBlack))
        );
        assert_eq!(Color::parse("default"), Some(Color::Default));
        for junk in ["#e8c88", "#e8c88az", "e8c88a", "reddish", "#ｅ8c88a", ""] {
            assert_eq!(Color::parse(junk), None, "{junk}");
        }
        assert_eq!(Color::from_index(9), Color::Ansi(AnsiColor::BrightRed));
        assert_eq!(Color::from_index(236), Color::Indexed(236));
    }

    #[test]
    fn palette_matches_xterm() {
        assert_eq!(palette_rgb(16), Rgb::new(0, 0, 0));
        assert_eq!(palette_rgb(196), Rgb::new(255, 0, 0));
        assert_eq!(palette_rgb(231), Rgb::new(255, 255, 255));
        assert_eq!(palette_rgb(232), Rgb::new(8, 8, 8));
        assert_eq!(palette_rgb(255), Rgb::new(238, 238, 238));
    }

    #[test]
    fn truecolor_degrades_to_256_then_16_then_nothing() {
        let red = Color::Rgb(Rgb::new(0xc0, 0x10, 0x10));
        let salmon = Color::Rgb(Rgb::new(0xf0, 0x60, 0x60));
        assert_eq!(
            salmon.degrade(ColorLevel::Ansi16),
            Some(Color::Ansi(AnsiColor::BrightRed))
        );
        let tan = Color::Rgb(Rgb::new(0xe3, 0xc0, 0x7a));
        assert_eq!(
            tan.degrade(ColorLevel::Ansi16),
            Some(Color::Ansi(AnsiColor::Yellow))
        );
        assert_eq!(red.degrade(ColorLevel::TrueColor), Some(red));
        assert_eq!(red.degrade(ColorLevel::Ansi256), Some(Color::Indexed(124)));
        assert_eq!(
            red.degrade(ColorLevel::Ansi16),
            Some(Color::Ansi(AnsiColor::Red))
        );
        assert_eq!(red.degrade(ColorLevel::None), None);
    }

    #[test]
    fn greys_use_the_grey_ramp_and_exact_cube_colours_stay_exact() {
        let gray = Color::Rgb(Rgb::new(0x30, 0x30, 0x30));
        assert_eq!(gray.degrade(ColorLevel::Ansi256), Some(Color::Indexed(236)));
        for index in [16u8, 67, 124, 208, 231, 240] {
            let exact = Color::Rgb(palette_rgb(index));
            assert_eq!(
                exact.degrade(ColorLevel::Ansi256),
                Some(Color::Indexed(index))
            );
        }
        let white = Color::Rgb(Rgb::new(0xff, 0xff, 0xff));
        assert_eq!(
            white.degrade(ColorLevel::Ansi16),
            Some(Color::Ansi(AnsiColor::BrightWhite))
        );
    }

    #[test]
    fn indexed_and_standard_colours_degrade_sensibly() {
        assert_eq!(
            Color::Indexed(196).degrade(ColorLevel::Ansi16),
            Some(Color::Ansi(AnsiColor::BrightRed))
        );
        assert_eq!(
            Color::Indexed(22).degrade(ColorLevel::Ansi256),
            Some(Color::Indexed(22))
        );
        let blue = Color::Ansi(AnsiColor::Blue);
        assert_eq!(blue.degrade(ColorLevel::Ansi16), Some(blue));
        assert_eq!(blue.degrade(ColorLevel::None), None);
        assert_eq!(
            Color::Default.degrade(ColorLevel::Ansi16),
            Some(Color::Default)
        );
    }
}
