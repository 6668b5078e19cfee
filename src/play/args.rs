//! The command line of `bashni play`.

use super::input;
use super::level::Level;
use crate::games::Variant;
use crate::protocol::command::MAX_GO_TIME_MS;
use crate::protocol::engine_args::{EgdbArg, EngineArgs};
use crate::record::time_control::TimeControl;

/// Which side the person takes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// White (moves first).
    White,
    /// Black.
    Black,
    /// Either, drawn at random.
    Random,
}

/// Arguments of `bashni play`.
#[derive(clap::Args, Debug)]
#[command(
    about = "Play a game against the engine in the terminal",
    long_about = "Play a game against the engine in the terminal: Bashni, Turkish draughts, \
        Russian draughts or Lasca (--variant). Type moves as c3 d4, c3-d4, c3:e5:g7 (Turkish: d3-d4, \
        d3:d5:f5), or the first and last square of a capture (c3 g7); type help for the \
        commands (moves, hint, analyse, undo, redo, resign, draw, new, swap, level, time, \
        flip, board, fen, save, load, quit). Colour on a terminal; plain text when output is \
        piped or NO_COLOR is set.",
    after_help = "Examples:\n  \
        bashni play\n  \
        bashni play --color black --level 8\n  \
        bashni play --tc 5:00+2\n  \
        bashni play --fen \"8/8/8/6B1/1b1b4/6b1/8/W7 w\" --movetime 300\n  \
        bashni play --variant turkish --level 5\n  \
        bashni play --variant russian --color black\n  \
        bashni play --variant lasca --level 10\n  \
        bashni play --puzzles --theme freeingPrisoners"
)]
pub struct PlayArgs {
    /// The game: bashni, turkish, russian, brazilian or lasca.
    #[arg(long, default_value_t = Variant::Bashni)]
    pub variant: Variant,
    /// Playing level from 0 (weakest) to 20 (full strength); docs/measurements.md gives the
    /// Elo of each (measured in Bashni; every game plays the same levels).
    #[arg(long, value_name = "N", default_value_t = Level::FULL)]
    pub level: Level,
    /// A clock for both sides: [moves/]seconds or m:ss, plus an increment (5:00+2, 300+2).
    #[arg(long, value_name = "TC", value_parser = input::parse_clock, conflicts_with = "movetime")]
    pub tc: Option<TimeControl>,
    /// Without a clock: the engine thinks this many milliseconds a move (default 1000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_GO_TIME_MS))]
    pub movetime: Option<u64>,
    /// The side you play.
    #[arg(long, value_enum, default_value_t = ColorChoice::White)]
    pub color: ColorChoice,
    /// Start from this position (in the game's FEN) instead of the initial one.
    #[arg(long)]
    pub fen: Option<String>,
    /// The engine's threads and hash size.
    #[command(flatten)]
    pub engine: EngineArgs,
    /// `--egdb DIR`: the engine converts the won endings the databases hold within the
    /// no-progress rule, and `hint` and `analyse` use them too.
    #[command(flatten)]
    pub egdb: EgdbArg,
    /// Turn the board around: your side is at the bottom otherwise (Black's when you
    /// play Black), also after `load` gives you the other side.
    #[arg(long)]
    pub flip: bool,
    /// Seed of the random choices of the levels below 20 (default: a new one each run), so
    /// that a game against a weaker level can be replayed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Tactics puzzles instead of a game: the game's shipped puzzles (docs/puzzles.md), one
    /// after another; type the solver's moves.
    #[arg(long)]
    pub puzzles: bool,
    /// With --puzzles: only the puzzles of this theme (docs/puzzles.md names them).
    #[arg(long, requires = "puzzles", value_name = "THEME")]
    pub theme: Option<String>,
    /// With --puzzles: the puzzles of this file (bashni puzzles --out) instead.
    #[arg(long, requires = "puzzles", value_name = "FILE")]
    pub puzzle_file: Option<std::path::PathBuf>,
}
