//! Command-line interface (clap derive). Parsing only: `main.rs` dispatches.

use std::path::PathBuf;

use clap::builder::{EnumValueParser, PossibleValue, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use xiangqi_engine::search::Algorithm;

#[path = "cli_book.rs"]
mod book;
pub use book::{BookBuildArgs, BookCommand, BookEccoArgs, BookGenerateArgs, BookShowArgs};

#[derive(Debug, Parser)]
#[command(
    name = "xiangqi-tui",
    version = crate::build_info::short_version(),
    long_version = crate::build_info::long_version(),
    about = "Play and study xiangqi (Chinese chess) in the terminal"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub global: GlobalArgs,
}

/// Flags accepted before or after any subcommand. The settings flags override
/// the config file and the chosen profile.
#[derive(Debug, Clone, Default, Args)]
pub struct GlobalArgs {
    /// Config file to use instead of the one in the platform config directory
    /// [env: XIANGQI_TUI_CONFIG].
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Named profile from the config file.
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// Search algorithm.
    #[arg(long, global = true, value_name = "NAME", ignore_case = true, value_parser = algorithm())]
    pub algorithm: Option<Algorithm>,
    /// Search depth in plies.
    #[arg(long, global = true, value_name = "N")]
    pub depth: Option<u32>,
    /// Time per move in milliseconds.
    #[arg(long, global = true, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Node limit per search.
    #[arg(long, global = true, value_name = "N")]
    pub nodes: Option<u64>,
    /// Transposition table size in MB.
    #[arg(long, global = true, value_name = "MB")]
    pub hash: Option<u32>,
    /// Search threads of the engine: a number, or auto (every core but one).
    #[arg(long, global = true, value_name = "N")]
    pub threads: Option<String>,
    /// Search log detail: off, summary, nodes, events.
    #[arg(
        id = "trace_level",
        long = "trace-level",
        global = true,
        value_name = "LEVEL"
    )]
    pub trace: Option<String>,
    /// Theme name.
    #[arg(long, global = true, value_name = "NAME")]
    pub theme: Option<String>,
    /// ASCII glyphs (WXF letters) for terminals without CJK fonts.
    #[arg(long, global = true)]
    pub ascii: bool,
    /// Colour support: auto, truecolor, 256, 16, never.
    #[arg(long, global = true, value_name = "MODE")]
    pub color: Option<String>,
    /// Move notation shown: chinese, wxf, iccs.
    #[arg(long, global = true, value_name = "NAME")]
    pub notation: Option<String>,
    /// Engine strength level, 1 (weakest) to 20 (full strength).
    #[arg(long, global = true, value_name = "N")]
    pub level: Option<u8>,
    /// Engine lines to show: analysis board and `analyze`, 1 to 10.
    #[arg(long, global = true, value_name = "N")]
    pub multipv: Option<u8>,
    /// Time control for both sides: 10+5, 40/90+30, 5m/move, none.
    #[arg(long, global = true, value_name = "CONTROL")]
    pub time: Option<String>,
    /// The opponent: builtin, or an [engines.NAME] table of the config.
    #[arg(long, global = true, value_name = "NAME")]
    pub engine: Option<String>,
    /// Write a log to FILE (detail: RUST_LOG, `info` by default; keys typed only when
    /// RUST_LOG names `xiangqi_tui::keys`).
    #[arg(long, global = true, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

impl GlobalArgs {
    /// The config file named by `--config`, else by a non-empty `XIANGQI_TUI_CONFIG`.
    pub fn config_path(&self) -> Option<PathBuf> {
        self.config.clone().or_else(|| {
            std::env::var_os("XIANGQI_TUI_CONFIG")
                .filter(|value| !value.is_empty())
                .map(PathBuf::from)
        })
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the terminal UI (the default when no subcommand is given).
    Play,
    /// Count leaf nodes of the legal move tree.
    Perft(PerftArgs),
    /// List the legal moves of a position.
    Moves(MovesArgs),
    /// Convert `FEN<TAB>MOVE` lines on standard input to `ICCS<TAB>CHINESE<TAB>WXF`.
    Notation,
    /// Replay a game record (PGN or XQF) and print the final position.
    Replay(ReplayArgs),
    /// Review a game with the engine: inaccuracies, mistakes, blunders, better moves,
    /// accuracy; `-o` writes it as annotated PGN.
    Review(ReviewArgs),
    /// Search a textbook game tree (`.tree` file).
    Tree(TreeArgs),
    /// Analyse a position with the engine.
    Analyze(AnalyzeArgs),
    /// Search a fixed set of positions and report nodes per second.
    Bench(BenchArgs),
    /// Run as a UCI (and UCCI) engine on standard input/output.
    Uci,
    /// Inspect or create the configuration file.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Run every search backend on one position or tree and check the classic results.
    Compare(CompareArgs),
    /// Open the TUI on a textbook tree, with the search-tree explorer.
    Study(StudyArgs),
    /// Build, show or generate an opening book.
    #[command(subcommand)]
    Book(BookCommand),
    /// Endgame tablebases: generate them, look positions up.
    #[command(subcommand)]
    Egtb(EgtbCommand),
    /// Host games over SSH: rooms for two players, spectators, the engine.
    Serve(ServeArgs),
    /// Check what the program sees (terminal, locale, config, files, engines) and say
    /// what to fix.
    Doctor(DoctorArgs),
    /// Mate puzzles with a proven unique solution: print the built-in set (filtered by
    /// `--mate`, and by `--theme`, which names a puzzle theme here), or `mine` a new set.
    Puzzles(PuzzlesArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the manual page (roff), every subcommand on one page.
    Man,
}

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    pub command: Option<PuzzlesCommand>,
    /// Print JSON: one object a line.
    #[arg(long)]
    pub json: bool,
    /// Print at most N puzzles.
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,
    /// Only mates in N moves.
    #[arg(long, value_name = "N")]
    pub mate: Option<u32>,
    /// Read the puzzles of FILE (as `puzzles mine` writes) instead of the built-in set.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum PuzzlesCommand {
    /// Certify mate puzzles from game records (exercises and decisive games) and write
    /// them to a file; `--depth`/`--nodes` bound the engine's first look at each
    /// position, `--threads` runs several positions at once.
    Mine(MineArgs),
    /// Open the terminal UI on a puzzle (ID, else one picked near your puzzle rating);
    /// the game in progress waits behind it.
    Play(PuzzlePlayArgs),
}

#[derive(Debug, Args)]
pub struct PuzzlePlayArgs {
    /// The puzzle's id (eight hex digits, as `puzzles` prints).
    #[arg(value_name = "ID")]
    pub id: Option<String>,
}

#[derive(Debug, Args)]
pub struct MineArgs {
    /// Game records (PGN: UTF-8, GBK or Big5; XQF), or folders searched for them.
    #[arg(required_unless_present = "self_play", value_name = "PATH")]
    pub inputs: Vec<PathBuf>,
    /// Also mine N games of the engine against itself (book openings chosen at random,
    /// then a fixed node count a move, one side given a quarter of the other's).
    #[arg(long, value_name = "N")]
    pub self_play: Option<u64>,
    /// Seed of the self-play games' book choices (same seed, same games).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The puzzle file to write.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Longest mate to certify, in moves.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub max_mate: u32,
    /// How many last plies of a decisive game give candidates.
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub last_plies: usize,
    /// Skip the first N distinct records (to mine in slices).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub skip: usize,
    /// Read at most N distinct records (after the skipped ones).
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
    /// Keep the puzzles already in the output file and add the new ones.
    #[arg(long)]
    pub add: bool,
    /// Nodes the prover may spend on one question before it gives the position up.
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    pub budget: u64,
}

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub struct ServeArgs {
    /// Address (or host name) and port to listen on [default: 127.0.0.1:2222, or the
    /// config's server.listen].
    #[arg(long, value_name = "HOST:PORT")]
    pub listen: Option<xiangqi_app::config::ListenAddress>,
    /// Most sessions at once.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_sessions: Option<u32>,
    /// The ed25519 host key (made there on first start) [default: in the data directory].
    #[arg(long, value_name = "PATH")]
    pub host_key: Option<PathBuf>,
    /// Where rooms (and by default the host key) are kept [default: the platform data
    /// directory].
    #[arg(long, value_name = "PATH")]
    pub data_dir: Option<PathBuf>,
    /// Start position of new rooms (xiangqi FEN).
    #[arg(long, hide = true)]
    pub fen: Option<String>,
    /// Serve Prometheus metrics on http://ADDR:PORT/metrics [default: the config's
    /// server.metrics, else none].
    #[arg(long, value_name = "HOST:PORT")]
    pub metrics: Option<xiangqi_app::config::ListenAddress>,
    /// How standard error shows connection and game events: plain lines, or one JSON
    /// object a line with their fields (addr, user, key, room, event).
    #[arg(long, value_enum, default_value_t = LogFormat::Plain)]
    pub log_format: LogFormat,
}

/// `serve --log-format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Plain,
    Json,
}

#[derive(Debug, Subcommand)]
pub enum EgtbCommand {
    /// Solve endings by retrograde analysis and write their tables (resumable).
    Generate {
        /// Endings such as KRKAABB (stronger side first); the default set when none.
        materials: Vec<String>,
        /// Folder of the tables; `egtb` in the data directory by default.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Look a position up: win, draw or loss, plies to mate, the best move.
    Probe {
        /// Position (xiangqi FEN).
        #[arg(long)]
        fen: String,
        /// Also list every legal move with its value.
        #[arg(long)]
        all: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Folder of the tables; `egtb` in the data directory by default.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// The endgame school: with MATERIAL, drill it in the TUI against the tables' perfect
    /// play (its table generated first if small); without, list the lessons.
    Drill(DrillArgs),
}

#[derive(Debug, Args)]
pub struct DrillArgs {
    /// The ending to drill (KRK, KPK, ...); without it the lessons are listed.
    pub material: Option<String>,
    /// Folder of the tables; `egtb` in the data directory by default.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Start from a position won in N moves (a seeded random one) instead of the longest.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=126))]
    pub moves: Option<u32>,
    /// The seed that picks the position of `--moves` (and of a drawn ending).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The lessons list as JSON, one object a line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Position (xiangqi FEN); the start position by default.
    #[arg(long, conflicts_with = "tree")]
    pub fen: Option<String>,
    /// Textbook tree (`.tree` file) instead of a position.
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// Backends, comma-separated; all six by default.
    #[arg(long, value_name = "A,B,...", value_delimiter = ',', ignore_case = true, value_parser = algorithm())]
    pub algorithms: Vec<Algorithm>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
#[cfg_attr(not(feature = "tui"), allow(dead_code))]
pub struct StudyArgs {
    /// `.tree` file.
    pub file: PathBuf,
}

/// `--trace-format` and `--trace-out`, shared by `analyze` and `tree`.
#[derive(Debug, Clone, Args)]
pub struct TraceExportArgs {
    /// Trace format: text (the log lines), jsonl (one event per line), dot (Graphviz).
    #[arg(long, value_name = "FORMAT", default_value = "text")]
    pub trace_format: String,
    /// Write the trace to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub trace_out: Option<PathBuf>,
    /// SSS*'s OPEN list in full after each step (by default jsonl writes its change,
    /// and analyze's text lines its first entries and its length).
    #[arg(long)]
    pub trace_snapshots: bool,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Position to start from (xiangqi FEN); the start position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// List every root move (ICCS) with its count.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MovesArgs {
    /// Position (xiangqi FEN); the start position by default.
    #[arg(long)]
    pub fen: Option<String>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// PGN file (UTF-8, GBK or Big5) or XQF file (any version).
    pub file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `review GAME`, searching each position to `--depth` (10 by default) or for
/// `--movetime`, `--threads` positions at once.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The game record (PGN: UTF-8, GBK or Big5).
    pub file: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write the game annotated (evals, ?! ? ??, better lines) as PGN to this file.
    #[arg(short = 'o', long = "output", value_name = "OUT.pgn")]
    pub output: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct TreeArgs {
    /// `.tree` file.
    pub file: PathBuf,
    /// Print the trace lines of the chosen algorithm, and nothing else.
    #[arg(long)]
    pub trace: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub export: TraceExportArgs,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Position (xiangqi FEN); the start position by default.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play from the position first (any notation).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print the textbook backend's trace lines (alphabeta: the textbook alpha-beta),
    /// nodes named by move path; depth 2 unless a limit is given.
    #[arg(long)]
    pub trace: bool,
    #[command(flatten)]
    pub export: TraceExportArgs,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print where the config file is.
    Path,
    /// Print the effective settings as TOML.
    Show,
    /// Write a commented sample config file.
    Init {
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
    },
    /// Validate a config file and list every error.
    Check {
        /// File to check; the active config file by default.
        file: Option<PathBuf>,
    },
}

/// The search backends as clap's possible values: the engine's `Algorithm` by the
/// names the config uses (the engine crate knows nothing of clap).
#[derive(Debug, Clone, Copy)]
struct AlgorithmName(Algorithm);

impl ValueEnum for AlgorithmName {
    fn value_variants<'a>() -> &'a [Self] {
        const NAMES: [AlgorithmName; Algorithm::ALL.len()] = {
            let mut names = [AlgorithmName(Algorithm::ALL[0]); Algorithm::ALL.len()];
            let mut index = 1;
            while index < names.len() {
                names[index] = AlgorithmName(Algorithm::ALL[index]);
                index += 1;
            }
            names
        };
        &NAMES
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.as_str()))
    }
}

/// `--algorithm` and `--algorithms`: one of `Algorithm::ALL`, listed in the help, the
/// completions and the errors.
fn algorithm() -> impl TypedValueParser<Value = Algorithm> {
    EnumValueParser::<AlgorithmName>::new().map(|name| name.0)
}

/// A command line clap refused for a value not among a flag's choices, as one line like
/// every other input error: `--algorithm: unknown value 'x': valid values are ...`. `None`
/// for the rest (`--help`, `--version`, usage errors), which clap says itself.
pub fn one_line_error(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if error.kind() != ErrorKind::InvalidValue {
        return None;
    }
    let Some(ContextValue::String(arg)) = error.get(ContextKind::InvalidArg) else {
        return None;
    };
    let Some(ContextValue::String(value)) = error.get(ContextKind::InvalidValue) else {
        return None;
    };
    let Some(ContextValue::Strings(valid)) = error.get(ContextKind::ValidValue) else {
        return None;
    };
    // `--algorithm <NAME>`: the flag without its value's name.
    let flag = arg.split(' ').next().unwrap_or(arg);
    Some(format!(
        "{flag}: unknown value '{value}': valid values are {}",
        valid.join(", ")
    ))
}
