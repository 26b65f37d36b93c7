//! The driver: owns the terminal (raw mode, alternate screen, mouse, paste), restores it
//! on every way out (return, panic, signal, lost terminal), runs the main loop, and
//! carries out the app's effects (engine, files, autosave).

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use xiangqi_app::config::Config;
use xiangqi_app::config::theme::ColorEnv;
use xiangqi_core::atomic_file::write_atomically;

use super::event::{self, CHANNEL_CAPACITY, Incoming};
use super::frames::{FRAME_INTERVAL, FrameDecision, FrameSchedule, Urgency};
use super::view::view;
use xiangqi_app::action::{Action, Command, Effect};
use xiangqi_app::app::App;
use xiangqi_app::records;
use xiangqi_app::update::update;
use xiangqi_engine::service::{EngineLink, default_searcher};

/// Messages handled at most between two frames, so a flood cannot starve the screen.
const MESSAGES_PER_FRAME: usize = 512;

/// What the launcher decides for the TUI.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Where the unfinished game is kept; `None`: no autosave (no data directory).
    pub autosave_path: Option<PathBuf>,
    /// Where the puzzle rating and history are kept; `None`: not kept.
    pub puzzle_path: Option<PathBuf>,
}

impl RunOptions {
    /// The autosave file in the platform data directory.
    pub fn default_autosave_path() -> Option<PathBuf> {
        xiangqi_core::paths::data_dir().map(|dir| dir.join("autosave.pgn"))
    }

    /// The puzzle file in the platform data directory.
    pub fn default_puzzle_path() -> Option<PathBuf> {
        xiangqi_app::train::LocalPuzzleStore::in_data_dir().map(|store| store.path().to_path_buf())
    }
}

/// Mouse reporting of button presses and the wheel only, in SGR form. crossterm's
/// `EnableMouseCapture` also asks for every movement, a flood of events over SSH that
/// the TUI has no use for. On Windows crossterm reads the console's own input records,
/// not escape sequences: there it is crossterm's mouse mode (the movements it reports
/// are dropped on arrival, and no SSH link carries them).
struct EnableClicks;

impl crossterm::Command for EnableClicks {
    fn write_ansi(&self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        out.write_str("\x1b[?1000h\x1b[?1006h")
    }

    #[cfg(windows)]
    fn execute_winapi(&self) -> io::Result<()> {
        crossterm::event::EnableMouseCapture.execute_winapi()
    }

    #[cfg(windows)]
    fn is_ansi_code_supported(&self) -> bool {
        false
    }
}

struct DisableClicks;

impl crossterm::Command for DisableClicks {
    fn write_ansi(&self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        out.write_str("\x1b[?1006l\x1b[?1000l")
    }

    #[cfg(windows)]
    fn execute_winapi(&self) -> io::Result<()> {
        crossterm::event::DisableMouseCapture.execute_winapi()
    }

    #[cfg(windows)]
    fn is_ansi_code_supported(&self) -> bool {
        false
    }
}

/// Puts the terminal back as it was. Safe to call more than once, from any thread, and
/// on a terminal that is gone (errors are ignored: there is nobody to tell).
fn restore_terminal() {
    let mut out = io::stdout();
    let _ = execute!(
        out,
        DisableBracketedPaste,
        DisableClicks,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// Restores the terminal when dropped, whatever the way out of `run`.
struct TerminalGuard;

impl TerminalGuard {
    fn enter() -> io::Result<TerminalGuard> {
        enable_raw_mode()?;
        let guard = TerminalGuard;
        execute!(
            io::stdout(),
            EnterAlternateScreen,
            EnableClicks,
            EnableBracketedPaste
        )?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// On a panic in any thread: restore the terminal, report, and end the process (the
/// game is on disk already: it is saved after every move).
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
        std::process::exit(101);
    }));
}

/// The unfinished game in the autosave file, if there is one worth resuming.
pub fn read_autosave(path: &Path) -> Result<Option<xiangqi_app::game::GameState>, String> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(format!("{}: {error}", path.display())),
    };
    let game =
        records::read_game_bytes(&bytes).map_err(|error| format!("{}: {error}", path.display()))?;
    let unfinished = game.ply() > 0 && game.position().outcome().is_none();
    Ok(unfinished.then_some(game))
}

/// Why the TUI ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// The player quit.
    Quit,
    /// SIGINT, SIGTERM or SIGHUP.
    Signal(i32),
    /// The terminal could not be read or written any more.
    TerminalLost(String),
}

/// Runs the TUI until the player quits, a signal arrives or the terminal is lost. The
/// unfinished game is saved on every way out.
pub fn run(config: Config, options: RunOptions) -> io::Result<Exit> {
    run_with(config, options, |_| {})
}

/// The same, with `setup` applied to the app before the first frame (`study` opens
/// its tree there).
pub fn run_with(
    config: Config,
    options: RunOptions,
    setup: impl FnOnce(&mut App),
) -> io::Result<Exit> {
    if !io::stdout().is_terminal() || !io::stdin().is_terminal() {
        return Err(io::Error::other(
            "it needs a terminal, and standard input or output is not one",
        ));
    }
    let searcher = default_searcher();
    let mut app = App::new(config, ColorEnv::from_process(), searcher.is_some());
    app.tablebases = xiangqi_engine::egtb::Tablebases::installed();
    app.engine.traces = searcher.as_ref().is_some_and(|searcher| searcher.traces());
    match xiangqi_app::book_link::load(&app.config) {
        Ok(book) => app.book = book,
        Err(error) => app.alert(format!("opening book not used: {error}")),
    }
    let found = match &options.autosave_path {
        Some(path) => read_autosave(path).unwrap_or_else(|message| {
            app.alert(format!("cannot resume: {message}"));
            None
        }),
        None => None,
    };

    let puzzle_store = options.puzzle_path.clone().map(|path| {
        let mut store = xiangqi_app::train::LocalPuzzleStore::new(path);
        load_puzzles(&mut app, &mut store);
        store
    });

    let (sender, receiver) = mpsc::sync_channel(CHANNEL_CAPACITY);
    install_panic_hook();
    let guard = TerminalGuard::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    event::spawn_input(sender.clone())?;
    event::spawn_signals(sender.clone(), restore_terminal)?;
    // Without a controlling terminal to watch, the read errors still end the program.
    let _ = event::spawn_hangup_watch(sender.clone());
    let compare_sender = sender.clone();
    let mut engine = match searcher {
        Some(searcher) => Some(EngineLink::spawn(searcher, event::engine_sink(sender))?),
        None => {
            drop(sender);
            None
        }
    };
    let size = terminal.size()?;
    app.size = (size.width, size.height);
    xiangqi_app::resume::start_with(&mut app, found, setup);

    let mut driver = Driver {
        compare: compare_sender,
        engine: engine.take(),
        autosave: options.autosave_path,
        puzzle_store,
    };
    // The engine moves first if it is its turn (after the resume question, if asked).
    let effects = xiangqi_app::flow::settle_at_start(&mut app);
    driver.perform(&mut app, effects, &mut terminal);
    let result = main_loop(&mut app, &mut driver, &mut terminal, &receiver);
    drop(terminal);
    drop(guard);
    // Stops the search; the worker thread ends with the process.
    drop(driver);
    result
}

struct Driver {
    /// Where the `:compare` thread reports.
    compare: mpsc::SyncSender<Incoming>,
    engine: Option<EngineLink>,
    autosave: Option<PathBuf>,
    puzzle_store: Option<xiangqi_app::train::LocalPuzzleStore>,
}

/// The player's puzzle data into the app; a damaged file is set aside (renamed, never
/// overwritten) and said so.
fn load_puzzles(app: &mut App, store: &mut xiangqi_app::train::LocalPuzzleStore) {
    use xiangqi_app::train::{PuzzleStore, PuzzleStoreError};
    match store.load() {
        Ok(profile) => app.trainer.profile = profile,
        Err(error @ PuzzleStoreError::Damaged { .. }) => match store.set_aside() {
            Ok(aside) => app.alert(format!(
                "{error}: moved to {}; puzzle history starts afresh",
                aside.display()
            )),
            Err(moved) => app.alert(format!("{error}; {moved}")),
        },
        Err(error) => app.alert(error.to_string()),
    }
}

type Screen = Terminal<CrosstermBackend<io::Stdout>>;

impl Driver {
    /// Carries out effects; file answers go back into `update` at once.
    fn perform(&mut self, app: &mut App, effects: Vec<Effect>, terminal: &mut Screen) {
        let mut queue = std::collections::VecDeque::from(effects);
        while let Some(effect) = queue.pop_front() {
            match effect {
                Effect::StartSearch(request) => {
                    if let Some(engine) = &mut self.engine {
                        engine.start(*request);
                    }
                }
                Effect::StopSearch(id) => {
                    if let Some(engine) = &mut self.engine {
                        engine.stop(id);
                    }
                }
                Effect::Step { id, command } => {
                    if let Some(engine) = &self.engine {
                        engine.step(id, command);
                    }
                }
                Effect::Autosave(text) => {
                    if let Some(path) = &self.autosave
                        && let Err(error) = write_atomically(path, &text)
                    {
                        app.alert(format!("cannot autosave to {}: {error}", path.display()));
                    }
                }
                Effect::RemoveAutosave => {
                    if let Some(path) = &self.autosave {
                        match std::fs::remove_file(path) {
                            Err(error) if error.kind() != io::ErrorKind::NotFound => {
                                app.alert(format!("cannot remove {}: {error}", path.display()))
                            }
                            _ => {}
                        }
                    }
                }
                Effect::ReadFile(path) => {
                    let result = std::fs::read(&path).map_err(|error| error.to_string());
                    queue.extend(update(app, Action::FileRead { path, result }));
                }
                Effect::WriteFile { path, contents } => {
                    let result =
                        write_atomically(&path, &contents).map_err(|error| error.to_string());
                    queue.extend(update(app, Action::FileWritten { path, result }));
                }
                Effect::ClearScreen => {
                    let _ = terminal.clear();
                }
                Effect::Quit => app.quitting = true,
                // Only a room's session asks a room.
                Effect::AskRoom { .. } => {}
                Effect::SaveTrace(save) => {
                    // The `:compare` channel carries any background report.
                    let sender = self.compare.clone();
                    let spawned =
                        std::thread::Builder::new()
                            .name("trace-save".into())
                            .spawn(move || {
                                xiangqi_app::trace_save::run(&save, &mut |update| {
                                    sender
                                        .send(Incoming::Action(Action::TraceSave(update)))
                                        .is_ok()
                                });
                            });
                    if let Err(error) = spawned {
                        let path = app
                            .study
                            .saving
                            .as_ref()
                            .map(|saving| saving.path.clone())
                            .unwrap_or_default();
                        let message = error.to_string();
                        let failed =
                            xiangqi_app::trace_save::TraceSaveUpdate::Failed { path, message };
                        queue.extend(update(app, Action::TraceSave(failed)));
                    }
                }
                Effect::Puzzle(request) => {
                    let sender = self.compare.clone();
                    let spawned = std::thread::Builder::new()
                        .name("puzzle prover".into())
                        .spawn(move || {
                            let answer = xiangqi_app::train::run(&request);
                            let _ = sender.send(Incoming::Action(Action::Puzzle(Box::new(answer))));
                        });
                    if let Err(error) = spawned {
                        app.alert(format!("cannot start the puzzle prover: {error}"));
                    }
                }
                Effect::RecordPuzzle(record) => {
                    use xiangqi_app::train::PuzzleStore;
                    if let Some(store) = &mut self.puzzle_store
                        && let Err(error) =
                            store.record(&record.attempt, record.player, record.puzzle)
                    {
                        app.alert(error.to_string());
                    }
                }
                Effect::Review(request) => {
                    // The `:compare` channel carries any background report.
                    let sender = self.compare.clone();
                    let tablebases = app.tablebases.clone();
                    let spawned =
                        std::thread::Builder::new()
                            .name("review".into())
                            .spawn(move || {
                                xiangqi_app::review_link::run(
                                    &request,
                                    tablebases,
                                    &mut |update| {
                                        sender
                                            .send(Incoming::Action(Action::Review(update)))
                                            .is_ok()
                                    },
                                );
                            });
                    if let Err(error) = spawned {
                        let failed = xiangqi_app::review_link::ReviewUpdate::Failed {
                            id: app.review.running.as_ref().map_or(0, |r| r.id),
                            message: error.to_string(),
                        };
                        queue.extend(update(app, Action::Review(failed)));
                    }
                }
                Effect::School(job) => {
                    // The `:compare` channel carries any background report.
                    let sender = self.compare.clone();
                    let spawned =
                        std::thread::Builder::new()
                            .name("school".into())
                            .spawn(move || {
                                let report = |update| {
                                    let _ = sender.send(Incoming::Action(Action::School(update)));
                                };
                                report(xiangqi_app::drill_link::run(&job, &report));
                            });
                    if let Err(error) = spawned {
                        app.school.running = None;
                        app.alert(format!("cannot start the school's thread: {error}"));
                    }
                }
                Effect::Compare(request) => {
                    let sender = self.compare.clone();
                    let spawned =
                        std::thread::Builder::new()
                            .name("compare".into())
                            .spawn(move || {
                                xiangqi_app::compare_view::run(&request, &mut |update| {
                                    sender
                                        .send(Incoming::Action(Action::Compare(update)))
                                        .is_ok()
                                });
                            });
                    if let Err(error) = spawned {
                        app.compare
                            .apply(xiangqi_app::compare_view::CompareUpdate::Failed(
                                error.to_string(),
                            ));
                    }
                }
            }
        }
    }
}

/// How often a running clock is looked at (display and flag fall).
const TICK_INTERVAL: Duration = Duration::from_millis(100);

fn main_loop(
    app: &mut App,
    driver: &mut Driver,
    terminal: &mut Screen,
    receiver: &Receiver<Incoming>,
) -> io::Result<Exit> {
    let mut frames = FrameSchedule::new(FRAME_INTERVAL);
    let mut next_tick = Instant::now() + TICK_INTERVAL;
    loop {
        if frames.decide(Instant::now()) == FrameDecision::DrawNow {
            if let Err(error) = terminal.draw(|frame| view(app, frame)) {
                // The terminal is gone: keep the game and leave.
                let effects = update(app, Action::Command(Command::Quit));
                driver.perform(app, effects, terminal);
                return Ok(Exit::TerminalLost(error.to_string()));
            }
            frames.drawn(Instant::now());
        }
        let frame_at = match frames.decide(Instant::now()) {
            FrameDecision::DrawAt(at) => Some(at),
            _ => None,
        };
        let ticking = app.clock_ticking();
        let tick_at = ticking.then_some(next_tick);
        let wake = match (frame_at, tick_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let first = match wake {
            Some(at) => match receiver.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(message) => message,
                Err(RecvTimeoutError::Timeout) => {
                    if ticking && Instant::now() >= next_tick {
                        next_tick = Instant::now() + TICK_INTERVAL;
                        Incoming::Action(Action::Tick)
                    } else {
                        continue;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(Exit::Quit),
            },
            None => match receiver.recv() {
                Ok(message) => message,
                Err(_) => return Ok(Exit::Quit),
            },
        };
        if !ticking {
            next_tick = Instant::now() + TICK_INTERVAL;
        }
        let mut message = Some(first);
        let mut handled = 0;
        while let Some(incoming) = message.take() {
            let urgency = Urgency::of(&incoming);
            let (action, exit) = match incoming {
                Incoming::Action(action) => (action, Exit::Quit),
                Incoming::Signal(signal) => (Action::Command(Command::Quit), Exit::Signal(signal)),
                Incoming::TerminalLost(why) => {
                    (Action::Command(Command::Quit), Exit::TerminalLost(why))
                }
            };
            let effects = update(app, action);
            driver.perform(app, effects, terminal);
            frames.changed(urgency);
            if app.quitting {
                return Ok(exit);
            }
            handled += 1;
            // Input is drawn before anything queued behind it is handled.
            if urgency == Urgency::Background && handled < MESSAGES_PER_FRAME {
                message = receiver.try_recv().ok();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_unfinished_game_is_offered_for_resuming() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("autosave.pgn");
        assert_eq!(read_autosave(&path).unwrap().map(|g| g.ply()), None);
        let mut game = xiangqi_app::game::GameState::new(xiangqi_core::board::Position::startpos());
        game.play(xiangqi_core::board::Move::parse_coords("h2e2").unwrap());
        write_atomically(&path, &records::autosave_text(&game)).unwrap();
        assert_eq!(read_autosave(&path).unwrap().map(|g| g.ply()), Some(1));
        std::fs::write(&path, "garbage").unwrap();
        assert!(read_autosave(&path).unwrap_err().contains("autosave.pgn"));
    }
}
