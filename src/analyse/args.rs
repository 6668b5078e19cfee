//! The command line of `bashni analyse`, shared by its two paths: a position's analysis
//! ([`super`]) and a game's review (`--pdn`, [`super::review`]). Both read game `--game N`
//! (the first by default) of a PDN file.

use crate::games::Variant;
use crate::protocol::command::{MAX_GO_DEPTH, MAX_GO_TIME_MS};
use crate::protocol::engine_args::{EgdbArg, EngineArgs};
use crate::protocol::options::MULTIPV;

/// Depth searched when no limit is given (about a second on one core from the start).
pub const DEFAULT_DEPTH: u32 = 14;

/// The game of a PDN file read when `--game` is not given: the first.
pub const FIRST_GAME: usize = 1;

/// Arguments of `bashni analyse`.
#[derive(clap::Args, Debug)]
#[command(
    about = "Analyse a position: the board, one line per depth, then the best move",
    long_about = "Analyse a position: prints the board (every tower top first), one line per \
        completed depth (depth, score for the side to move in men such as +1.25 or as 'win in \
        4 moves' of its own, nodes, nodes per second, time, principal variation), then the \
        best move. When the search stops during a depth, the line it settled on is shown last, \
        marked 'final'. Without a limit it searches to depth 14. Of a PDN file holding \
        several games, both a POSITION file and --pdn read the first, or game N with --game N.",
    after_help = "Examples:\n  \
        bashni analyse\n  \
        bashni analyse startpos --moves c3-d4 f6-e5 --depth 16\n  \
        bashni analyse \"8/8/8/6B1/1b1b4/6b1/8/W7 w\" --movetime 2000\n  \
        bashni analyse 8/8/8/6B1/1b1b4/6b1/8/W7 w --multipv 2 --infinite   # stop with Enter\n  \
        bashni analyse --variant turkish --moves d3-d4 e6-e5 --depth 12\n  \
        bashni analyse --pdn games.pdn --game 2 --depth 10 --out reviewed.pdn   # a game review"
)]
pub struct AnalyseArgs {
    /// The game: bashni, turkish, russian, brazilian or lasca (its FEN and move notation are read).
    #[arg(long, default_value_t = Variant::Bashni)]
    pub variant: Variant,
    /// `startpos` (the default), a FEN (the game's own, or for Russian and Turkish draughts
    /// the standard `W:Wa1,...:B...`), or a file holding PDN games (the position at the end
    /// of its first game, or of game --game N) or a FEN; a FEN may be quoted or given as
    /// separate words.
    #[arg(value_name = "POSITION", num_args = 0..)]
    pub position: Vec<String>,
    /// Moves to play from the position before analysing, like c3-d4 f6-e5.
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    pub moves: Vec<String>,
    /// Search to this depth in plies (default 14 when no limit is given).
    #[arg(long, conflicts_with_all = ["movetime", "infinite"],
        value_parser = clap::value_parser!(u32).range(1..=MAX_GO_DEPTH as i64))]
    pub depth: Option<u32>,
    /// Think for this many milliseconds.
    #[arg(long, value_name = "MS", conflicts_with = "infinite",
        value_parser = clap::value_parser!(u64).range(1..=MAX_GO_TIME_MS))]
    pub movetime: Option<u64>,
    /// Search until Enter is pressed (or standard input ends).
    #[arg(long)]
    pub infinite: bool,
    /// Show the best K lines.
    #[arg(long, value_name = "K", default_value_t = MULTIPV.default, value_parser = MULTIPV.flag())]
    pub multipv: u64,
    /// Review a PDN game instead (the file's first game, or game --game N): every position
    /// searched (to depth 8 unless --depth or --movetime is given), one line per move with
    /// its score, the best move and a mark (?! inaccuracy, ? mistake, ?? blunder; `book`
    /// for a move from the opening book, commented {book} as `bashni match` writes it,
    /// which is never marked nor counted), and a summary per side.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<String>,
    /// Which game of a PDN file to read, from 1 (default: the first), for a POSITION file
    /// and for --pdn alike.
    #[arg(long, value_name = "N", value_parser = game_number)]
    pub game: Option<usize>,
    /// With --pdn: write the reviewed game as PDN, scores as comments and marks after moves.
    #[arg(long, value_name = "FILE", requires = "pdn")]
    pub out: Option<String>,
    /// `--egdb DIR`: a position the databases hold gets one line with its value first.
    #[command(flatten)]
    pub egdb: EgdbArg,
    /// Threads and hash size.
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl AnalyseArgs {
    /// The game of a PDN file to read, from 1: `--game N`, or the first.
    pub fn game_number(&self) -> usize {
        self.game.unwrap_or(FIRST_GAME)
    }
}

/// `--game N`: a number from 1.
fn game_number(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("the games of a file are numbered from 1".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}
