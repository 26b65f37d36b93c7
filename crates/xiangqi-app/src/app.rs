//! The app's state (the model of Model/Update/View). `update` changes it, `view` draws it.

use std::sync::Arc;
use std::time::Duration;

use crate::config::theme::{ColorEnv, ColorLevel, Theme, ThemeSet};
use crate::config::{Config, EngineSide, Glyphs, TraceLevel};
use crate::game::GameState;
use xiangqi_core::board::{Color, Position, Square};
use xiangqi_core::clock::{GameClock, MonotonicTime, TimeSource};
use xiangqi_core::notation::Notation;
use xiangqi_engine::engine::SearchInfo;
use xiangqi_engine::service::SearchId;

use super::analysis::{Analysis, Purpose};
use super::glyphs::GlyphSet;
use super::hint::Hint;
use super::input::InputLine;
use super::keymap::Place;
use super::popup::Popup;
use super::search_log::SearchLog;

/// Which pane takes the keys when no popup is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Input,
    Board,
    Log,
}

impl Focus {
    pub fn next(self) -> Focus {
        match self {
            Focus::Input => Focus::Board,
            Focus::Board => Focus::Log,
            Focus::Log => Focus::Input,
        }
    }

    pub fn previous(self) -> Focus {
        match self {
            Focus::Input => Focus::Log,
            Focus::Board => Focus::Input,
            Focus::Log => Focus::Board,
        }
    }
}

/// What the app is doing. These exclude each other; the panes shown (the explorer,
/// the `:compare` view) and the engine being held (`EngineState::paused`) are apart
/// from it, as any of them goes with any mode.
#[derive(Debug, Clone, Default)]
pub enum AppMode {
    /// Playing the game, against the engine or two people at one keyboard.
    #[default]
    Play,
    /// The analysis board: the engine analyses the position shown, never plays, and
    /// people move both sides.
    Analysis,
    /// A textbook tree replayed one line at a time (`xiangqi-tui study FILE.tree`).
    Study(Box<super::explorer::TreeReplay>),
    /// A shared room on a server: its status line and the viewer's part in it.
    Room(RoomMode),
    /// The puzzle trainer (`:puzzle`); the game waits in `App::game` as it was.
    Puzzle(Box<super::puzzle_mode::PuzzleMode>),
    /// The endgame school's drill (`:drill`); the game waits, untouched.
    Drill(Box<super::drill_link::DrillMode>),
}

/// A shared room as one session sees it (the server keeps the room itself).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoomMode {
    /// The status line: "room NAME | you: Red | A vs B | 2 watching | what is pending".
    pub status: String,
    /// The viewer's side; `None` for a spectator (and in an archived game).
    pub seat: Option<Color>,
    /// The server counts the viewer among its admins: their commands are offered.
    pub admin: bool,
}

/// Browsing: an earlier position of the game is shown; the game itself is whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Browse {
    /// The plies played before the position shown (less than the game's).
    pub ply: usize,
    pub position: Position,
}

/// A search in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thinking {
    pub id: SearchId,
    /// The side it searches for.
    pub side: Color,
    /// The latest finished iteration.
    pub info: Option<SearchInfo>,
    /// Play the move it reports (false once stopped with "stop thinking" or undo).
    pub play_result: bool,
    /// What the search is for: the game, the analysis board, or a hint.
    pub purpose: Purpose,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineState {
    /// Whether this build has an engine at all.
    pub available: bool,
    /// The engine plays elsewhere (a server room's): its search is shown in the log,
    /// but it is not driven from here.
    pub remote: bool,
    /// Whether its searches report trace events (and so can step); an engine that does
    /// not reports one summary line per iteration only.
    pub traces: bool,
    pub thinking: Option<Thinking>,
    /// Stopped by the player: the engine sides wait until "engine moves now".
    pub paused: bool,
    pub next_id: SearchId,
    /// The last finished search of the game (`App::last_search` reads it).
    pub last: Option<LastSearch>,
}

/// A finished search of the game, for the status line and the engine's answer to a draw
/// offer. It speaks of the position it searched: once the game is taken back before
/// it, it says nothing (`App::last_search`), so nothing shows a search undone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastSearch {
    /// Its final iteration.
    pub info: SearchInfo,
    /// The side it searched for (its scores are that side's).
    pub side: Color,
    /// The game's plies when it was searched, and the position's key.
    ply: usize,
    key: u64,
}

impl LastSearch {
    /// `info`, searched for `side` in `game`'s position now.
    pub fn new(info: SearchInfo, side: Color, game: &GameState) -> LastSearch {
        LastSearch {
            info,
            side,
            ply: game.ply(),
            key: game.position().key(),
        }
    }
}

/// A one-line message on the status line until the next key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub alert: bool,
}

/// The whole state of the TUI.
#[derive(Debug, Clone)]
pub struct App {
    pub config: Config,
    /// The environment colour detection reads (kept to redo it on a profile switch).
    pub color_env: ColorEnv,
    pub color_level: ColorLevel,
    /// The theme in use, as the terminal can show it (`color_level`).
    pub theme: Theme,
    pub game: GameState,
    /// Black at the bottom.
    pub flipped: bool,
    pub focus: Focus,
    /// Focus to return to when a stepping search that took it ends.
    pub focus_before_step: Option<Focus>,
    /// A stepping search ended and gave the focus back: until another key, the log's
    /// step keys are not typed on an empty input line (they were meant for the log).
    pub focus_back_from_step: bool,
    pub input: InputLine,
    pub cursor: Square,
    /// The cursor was moved from the input line, so it is drawn there too.
    pub cursor_shown: bool,
    pub selected: Option<Square>,
    pub log: SearchLog,
    pub popups: Vec<Popup>,
    pub engine: EngineState,
    pub notice: Option<Notice>,
    /// The terminal size in columns and rows.
    pub size: (u16, u16),
    /// Set once quitting: the driver leaves after carrying out the effects.
    pub quitting: bool,
    /// The search-tree explorer and the trace it shows.
    pub study: super::explorer::StudyState,
    /// The `:compare` view.
    pub compare: super::compare_view::CompareView,
    /// `:review`: the one running and the last one finished.
    pub review: super::review_link::ReviewState,
    /// The opening book the engine plays from; the driver loads it at start.
    pub book: Option<std::sync::Arc<xiangqi_engine::book::Book>>,
    /// Endgame tables for the status line's verdict; none unless the driver loads them.
    pub tablebases: Option<std::sync::Arc<xiangqi_engine::egtb::Tablebases>>,
    /// The analysis board and the scores of the game's positions (the score graph).
    pub analysis: Analysis,
    /// The hint shown, until the position changes.
    pub hint: Option<Hint>,
    /// `:drill`: the lessons or a lesson being read (or generated) on a thread.
    pub school: super::drill_link::School,
    /// Both sides' clocks (untimed when no time control is set).
    pub clock: GameClock,
    /// Where the clocks read the time (a hand-moved one in tests).
    pub time: Arc<dyn TimeSource>,
    pub mode: AppMode,
    /// What the last update's settle step saw (`flow::settle`).
    pub settled: super::flow::Settled,
    /// An earlier position shown while browsing the game (per viewer in a room).
    pub browse: Option<Browse>,
    /// The player's puzzle rating and history (the driver loads them).
    pub trainer: super::puzzle_mode::Trainer,
    /// A server session: leaving the puzzle trainer or the school goes back to the
    /// lobby, as no game of one's own waits behind them there.
    pub lobby_behind: bool,
}

impl App {
    /// A new game with `config`'s settings; `engine_available` says whether the build
    /// has an engine. No I/O: the driver brings a saved game back with
    /// `resume::start_with`.
    pub fn new(config: Config, color_env: ColorEnv, engine_available: bool) -> App {
        let color_level = ColorLevel::for_mode(config.settings.color, &color_env);
        let theme = theme_for(&config.themes, &config.settings.theme, color_level);
        let mut app = App {
            config,
            color_env,
            color_level,
            theme,
            game: GameState::new(Position::startpos()),
            flipped: false,
            focus: Focus::Input,
            focus_before_step: None,
            focus_back_from_step: false,
            input: InputLine::default(),
            cursor: Square::new(4, 3),
            cursor_shown: false,
            selected: None,
            log: SearchLog::default(),
            popups: Vec::new(),
            engine: EngineState {
                available: engine_available,
                remote: false,
                traces: engine_available,
                thinking: None,
                paused: false,
                next_id: 1,
                last: None,
            },
            notice: None,
            size: (80, 24),
            quitting: false,
            study: Default::default(),
            compare: Default::default(),
            review: Default::default(),
            school: Default::default(),
            book: None,
            tablebases: None,
            analysis: Analysis::default(),
            hint: None,
            clock: GameClock::new(None, None),
            time: Arc::new(MonotonicTime::default()),
            mode: AppMode::Play,
            settled: Default::default(),
            browse: None,
            trainer: Default::default(),
            lobby_behind: false,
        };
        app.reset_clock();
        app.orient();
        app.settled = super::flow::Settled::new(&app);
        app
    }

    pub fn glyphs(&self) -> GlyphSet {
        GlyphSet::new(self.config.settings.glyphs)
    }

    /// The notation moves are shown in: the chosen one, except that Chinese characters
    /// become WXF with the ASCII glyphs (chosen for terminals without CJK fonts).
    pub fn display_notation(&self) -> Notation {
        let settings = &self.config.settings;
        match (settings.glyphs, settings.notation) {
            (Glyphs::Ascii, Notation::Chinese) => Notation::Wxf,
            (_, notation) => notation,
        }
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The position on the board: the game's, an earlier one while browsing, or the
    /// puzzle's in the trainer.
    pub fn shown_position(&self) -> &Position {
        if let AppMode::Puzzle(puzzle) = &self.mode {
            return puzzle.shown();
        }
        if let AppMode::Drill(mode) = &self.mode {
            return &mode.drill.position;
        }
        self.browse
            .as_ref()
            .map_or(self.game.position(), |browse| &browse.position)
    }

    /// The plies played before the position shown.
    pub fn shown_ply(&self) -> usize {
        self.browse
            .as_ref()
            .map_or(self.game.ply(), |browse| browse.ply)
    }

    /// Whether the game has moves and no result: throwing it away asks first.
    pub fn game_unfinished(&self) -> bool {
        self.game.ply() > 0 && !self.game_over()
    }

    /// The sides the engine plays in this build (none without an engine).
    pub fn engine_side(&self) -> EngineSide {
        if self.engine.available {
            self.config.settings.engine_side
        } else {
            EngineSide::None
        }
    }

    pub fn engine_plays(&self, color: Color) -> bool {
        // On the analysis board the engine only analyses; people move both sides. In
        // the puzzle trainer and a drill the game waits.
        if self.analysing() || matches!(self.mode, AppMode::Puzzle(_) | AppMode::Drill(_)) {
            return false;
        }
        match self.engine_side() {
            EngineSide::Both => true,
            EngineSide::None => false,
            EngineSide::Red => color == Color::Red,
            EngineSide::Black => color == Color::Black,
        }
    }

    /// Where the app runs, for the keymap and the `:` commands.
    pub fn place(&self) -> Place {
        match self.mode {
            AppMode::Play => Place::Game,
            AppMode::Analysis => Place::Analysis,
            AppMode::Study(_) => Place::Study,
            AppMode::Room(_) => Place::Room,
            AppMode::Puzzle(_) => Place::Puzzle,
            AppMode::Drill(_) => Place::Drill,
        }
    }

    /// Whether the analysis board is on.
    pub fn analysing(&self) -> bool {
        matches!(self.mode, AppMode::Analysis)
    }

    /// Whether the game has ended (mate, stalemate, repetition, no-capture rule,
    /// resignation, flag fall, agreed draw).
    pub fn game_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// The time now, as the clocks read it.
    pub fn now(&self) -> Duration {
        self.time.now()
    }

    /// New clocks with the settings' time controls, not running, and the game's
    /// `TimeControl` tag to match.
    pub fn reset_clock(&mut self) {
        let settings = &self.config.settings;
        let (red, black) = (
            settings.time_control(Color::Red),
            settings.time_control(Color::Black),
        );
        self.clock = GameClock::new(red, black);
        // A game resumed with its own controls keeps its tags (and where its clocks
        // started); other controls start with this ply.
        if self.game.setup().controls != Some([red, black]) {
            self.game.write_controls(red, black);
        }
    }

    /// Whether a person may move now: no search runs, the game goes on, and the side to
    /// move is a person's (or the engine was stopped).
    pub fn people_may_move(&self) -> bool {
        self.engine
            .thinking
            .as_ref()
            .is_none_or(|thinking| thinking.purpose != Purpose::Play)
            && !self.game_over()
            && (self.engine.paused || !self.engine_plays(self.position().side_to_move()))
    }

    /// Puts the side of the person playing at the bottom (Red when both or neither play).
    pub fn orient(&mut self) {
        let flipped = self.engine_side() == EngineSide::Red;
        // A game resumed or started behind the puzzle trainer turns when it comes back.
        if let AppMode::Puzzle(puzzle) = &mut self.mode {
            puzzle.kept.flipped = flipped;
            return;
        }
        self.flipped = flipped;
        self.orient_cursor();
    }

    /// The board cursor on the bottom side's palace row.
    pub fn orient_cursor(&mut self) {
        self.cursor = if self.flipped {
            Square::new(4, 6)
        } else {
            Square::new(4, 3)
        };
    }

    /// Recomputes what derives from the settings (colours, theme) after they changed.
    pub fn refresh_style(&mut self) {
        let settings = &self.config.settings;
        self.color_level = ColorLevel::for_mode(settings.color, &self.color_env);
        self.theme = theme_for(&self.config.themes, &settings.theme, self.color_level);
    }

    /// The trace level a search is started with: step mode needs the events, and an
    /// engine without tracing gives summaries at most.
    pub fn search_trace_level(&self) -> TraceLevel {
        let settings = &self.config.settings;
        let traces = self.engine_traces();
        match settings.trace {
            TraceLevel::Nodes | TraceLevel::Events if !traces => TraceLevel::Summary,
            TraceLevel::Off | TraceLevel::Summary if settings.step && traces => TraceLevel::Events,
            level => level,
        }
    }

    /// Whether searches start held in step mode.
    pub fn search_steps(&self) -> bool {
        self.config.settings.step && self.engine_traces()
    }

    /// The last finished search, while the game still holds the position it searched.
    pub fn last_search(&self) -> Option<&LastSearch> {
        self.engine.last.as_ref().filter(|last| {
            self.game.ply() >= last.ply && self.game.position_at(last.ply).key() == last.key
        })
    }

    /// Whether the engine playing now reports trace events: only the in-process one.
    pub fn engine_traces(&self) -> bool {
        self.engine.traces && super::engine_choice::builtin_chosen(self)
    }

    /// Whether a clock runs, so the driver sends ticks.
    pub fn clock_ticking(&self) -> bool {
        // An untimed side's clock "runs" too, but has nothing to show or to flag.
        self.clock
            .running()
            .is_some_and(|side| self.clock.control(side).is_some())
            && !self.game_over()
    }

    pub fn notify(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice {
            text: text.into(),
            alert: false,
        });
    }

    /// What the status line says Ctrl-X does in the trainer and the school.
    pub fn leave_training_hint(&self) -> &'static str {
        if self.lobby_behind {
            "Ctrl-X: the lobby"
        } else {
            "the game waits: Ctrl-X"
        }
    }

    pub fn alert(&mut self, text: impl Into<String>) {
        self.notice = Some(Notice {
            text: text.into(),
            alert: true,
        });
    }
}

/// The theme named `name` as the terminal can show it; the monochrome theme without
/// colour, and the first theme if the name is unknown (the config validated it).
fn theme_for(themes: &ThemeSet, name: &str, level: ColorLevel) -> Theme {
    themes
        .for_display(name, level)
        .or_else(|| {
            let first = themes.names().into_iter().next()?;
            themes.for_display(&first, level)
        })
        .unwrap_or_else(|| {
            // ThemeSet always holds the built-in themes; this is the last resort.
            ThemeSet::builtin()
                .for_display(crate::config::theme::MONOCHROME_THEME, ColorLevel::None)
                .expect("the built-in monochrome theme exists")
        })
}
