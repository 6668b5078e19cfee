//! The arguments of `bashni match` and `bashni openings` (clap), and the help text that shows
//! them at work. cutechess-cli's and fastchess's spellings are turned into these by the
//! `compat` module before clap reads them.

use crate::games::Variant;
use crate::protocol::options::THREADS;
use crate::record::openings::{DEFAULT_FILTER_DEPTH, DEFAULT_MAX_SCORE};
use crate::shard::ShardArg;
use std::path::PathBuf;

/// Order in which the openings of a file are used.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningsOrder {
    /// As in the file.
    Sequential,
    /// Shuffled with the seed.
    Random,
}

/// How an openings file is written.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningsFormat {
    /// PDN for a file named `*.pdn` or `*.pgn`, else lines.
    Auto,
    /// One FEN or one move list a line (cutechess-cli's and fastchess's `format=epd`).
    Lines,
    /// PDN games: each game's FEN tag and moves (`format=pgn`).
    Pdn,
}

/// The tokens of each `--engine` occurrence, kept apart (clap's derive cannot group the
/// values of an option by occurrence without an unstable feature).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineTokens(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineTokens {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = m
            .get_occurrences::<String>("engine")
            .map(|o| o.map(|g| g.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineTokens(groups))
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = EngineTokens::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for EngineTokens {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .value_parser(clap::value_parser!(String))
                .value_name("KEY=VALUE")
                .required(true)
                .help(
                    "An engine, as key=value tokens: cmd=<path> [name=<n>] [arg=<a>]... [dir=<d>] \
                     [option.<Name>=<v>]... [tc=..|movetime=..|depth=..|nodes=..]. Give it twice.",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        EngineTokens::augment_args(cmd)
    }
}

const MATCH_EXAMPLES: &str = "Examples:
  bashni match --engine cmd=./bashni name=new --engine cmd=./old name=old \\
    --each tc=10+0.1 --rounds 500 --concurrency 4 --random-openings 8 \\
    --pdn games.pdn --sprt elo0=0 elo1=5
  bashni match --engine cmd=./bashni --engine cmd=./bashni option.LMR=false \\
    --nodes 20000 --games 400 --openings openings.txt --recover
  bashni match --variant turkish --engine cmd=./bashni --engine cmd=./old \\
    --each tc=10+0.1 --rounds 200
  bashni match -engine cmd=./bashni name=new -engine cmd=./old name=old \\
    -each tc=40/60+0.6 option.Hash=32 -games 2 -rounds 200 -repeat -concurrency 4 \\
    -openings file=openings.txt format=epd order=random -pgnout games.pdn \\
    -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05

cutechess-cli's and fastchess's spellings work as well: -engine and -each (their keys, and
st=SECONDS, plies=N, args=\"..\", tc=inf, timemargin=MS in -each), -games, -rounds,
-concurrency, -openings file= format=epd|pgn order= plies= start=, -pgnout FILE or
file=FILE (written as PDN), -sprt, -draw, -resign, -maxmoves, -recover, -repeat, -srand,
-event, -site, -variant. -games G -rounds R plays G x R games, -rounds R alone R pairs,
-games G alone G games. What bashni cannot honour (-noswap, -ratinginterval, -repeat 3,
ponder, -pgnout min, ...) is refused with the reason.

The results are from the first engine's view. Ctrl-C or SIGTERM (e.g. from `timeout`)
stops the match: games under way are abandoned, the score so far is reported and --result
written; a second one ends it at once. Exit code: 0 played out (or SPRT decided), 1 stopped
by an engine failure without --recover or by a signal, 2 bad arguments or an engine that
does not start.";

/// Arguments of `bashni match`.
///
/// Example:
///   bashni match --engine cmd=./bashni name=new --engine cmd=./old name=old \
///     --each tc=10+0.1 option.Hash=32 --rounds 500 --concurrency 4 \
///     --random-openings 8 --pdn games.pdn --sprt elo0=0 elo1=5
#[derive(clap::Args, Debug)]
#[command(after_help = MATCH_EXAMPLES)]
pub struct MatchArgs {
    /// The `--engine` groups.
    #[command(flatten)]
    pub engine: EngineTokens,
    /// The game: bashni, turkish, russian, brazilian or lasca. For any but bashni both engines must declare
    /// the option UCI_Variant with that value, and are set to it.
    #[arg(long, default_value_t = Variant::Bashni)]
    pub variant: Variant,
    /// Settings for both engines (the same keys; an engine's own tokens win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Games to play (default 2; with --sprt and no --rounds, until SPRT decides).
    #[arg(long, conflicts_with = "rounds")]
    pub games: Option<u64>,
    /// Game pairs to play (each opening twice, colours swapped).
    #[arg(long)]
    pub rounds: Option<u64>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Clock for both engines: [moves/]seconds[+increment], like 10+0.1 or 40/60.
    #[arg(long)]
    pub tc: Option<String>,
    /// Fixed time per move, ms.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Fixed search depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::protocol::command::MAX_GO_DEPTH as i64))]
    pub depth: Option<u32>,
    /// Fixed node count.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Openings file: one FEN or one move list from the initial position a line, in the
    /// game's notation, or PDN games (see --openings-format) (default: the game's built-in
    /// book of balanced openings, `openings/balanced.txt`, `turkish.txt`, `russian.txt`, `lasca.txt`).
    #[arg(long, conflicts_with = "random_openings")]
    pub openings: Option<PathBuf>,
    /// Every game from the initial position instead of the built-in book.
    #[arg(long, conflicts_with_all = ["openings", "random_openings"])]
    pub initial: bool,
    /// Order of the openings file.
    #[arg(long, value_enum, default_value_t = OpeningsOrder::Sequential)]
    pub openings_order: OpeningsOrder,
    /// How the openings file is written.
    #[arg(long, value_enum, default_value_t = OpeningsFormat::Auto, requires = "openings")]
    pub openings_format: OpeningsFormat,
    /// Keep at most this many moves of each opening of the file.
    #[arg(long, value_name = "PLIES", requires = "openings")]
    pub openings_plies: Option<usize>,
    /// Start at this opening of the file (1: its first), and go on from there in order.
    #[arg(long, value_name = "N", requires = "openings",
        value_parser = clap::value_parser!(u64).range(1..))]
    pub openings_start: Option<u64>,
    /// Random openings of this many plies, drawn from the seed, kept when balanced.
    #[arg(long, value_name = "PLIES")]
    pub random_openings: Option<u32>,
    /// Depth of the search that checks random openings.
    #[arg(long, default_value_t = DEFAULT_FILTER_DEPTH, value_parser = clap::value_parser!(u32).range(1..=crate::protocol::command::MAX_GO_DEPTH as i64))]
    pub filter_depth: u32,
    /// Largest score (centi-men) of a random opening.
    #[arg(long, default_value_t = DEFAULT_MAX_SCORE)]
    pub max_score: i32,
    /// Write the games to this PDN file (appended).
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Stop when SPRT decides: elo0=<e0> elo1=<e1> [alpha=0.05] [beta=0.05].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Seed of the random openings and the openings order (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Draw a game after this many plies, opening included (0: no limit).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Adjudicate a draw: movenumber=<n> movecount=<c> score=<cp> (both engines' last c
    /// scores within cp of zero, from full move n on).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,
    /// Adjudicate a loss: movecount=<c> score=<cp> [twosided=true] (an engine's last c
    /// scores at least cp below zero; two-sided: its opponent agrees).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,
    /// Restart an engine that crashed or stopped answering and go on.
    #[arg(long)]
    pub recover: bool,
    /// How many ms an engine may exceed its clock or move time before it forfeits.
    #[arg(long, default_value_t = 5)]
    pub timemargin: u64,
    /// Seconds an engine without a clock may think before it is stalled.
    #[arg(long, default_value_t = 30.0)]
    pub stall_timeout: f64,
    /// PDN Event tag.
    #[arg(long, default_value = "bashni match")]
    pub event: String,
    /// PDN Site tag.
    #[arg(long, default_value = "?")]
    pub site: String,
    /// No line per finished game.
    #[arg(long)]
    pub quiet: bool,
    /// Play only part i of n of a fixed-length match (its i-th contiguous range of game pairs,
    /// exactly the games the whole match plays there); `auto` takes the part from a Slurm job
    /// array or a Kubernetes Indexed Job (with --shards). Needs --games or --rounds and --seed.
    #[arg(long, default_value = "1/1")]
    pub shard: ShardArg,
    /// With `--shard auto` under a Kubernetes Indexed Job: the number of parts; under Slurm,
    /// checked against the array's size.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: Option<u64>,
    /// Write the result as JSON (counts, pentanomial, terminations, faults) for
    /// `bashni match-report`, which merges the parts of a sharded match.
    #[arg(long)]
    pub result: Option<PathBuf>,
}

/// Arguments of `bashni openings`.
///
/// Example: bashni openings --plies 8 --count 1000 --seed 1 --out openings.txt
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Examples:\n  bashni openings --plies 8 --count 1000 --seed 1 --out openings.txt\n  \
        bashni openings --variant turkish --plies 6 --count 500 --seed 1 --threads 2"
)]
pub struct OpeningsArgs {
    /// The game: bashni, turkish, russian, brazilian or lasca.
    #[arg(long, default_value_t = Variant::Bashni)]
    pub variant: Variant,
    /// Random plies from the initial position.
    #[arg(long)]
    pub plies: u32,
    /// Openings to write.
    #[arg(long)]
    pub count: usize,
    /// Seed (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Depth of the balance check.
    #[arg(long, default_value_t = DEFAULT_FILTER_DEPTH, value_parser = clap::value_parser!(u32).range(1..=crate::protocol::command::MAX_GO_DEPTH as i64))]
    pub depth: u32,
    /// Largest score (centi-men) kept.
    #[arg(long, default_value_t = DEFAULT_MAX_SCORE)]
    pub max_score: i32,
    /// Threads checking candidates (the output does not depend on it).
    #[arg(long, default_value_t = 1, value_parser = THREADS.flag())]
    pub threads: u64,
}
