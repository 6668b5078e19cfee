//! `bashni datagen`: self-play games written as training positions for `bashni tune`.
//!
//! Every game is a pure function of the run's settings and its index (see [`game`]), so the
//! output is the same whatever the number of threads, and a run split into `--shard i/n`
//! pieces gives, concatenated in shard order, exactly the output of the whole run.

pub mod format;
pub mod game;
pub mod resume;

use crate::games::{Game, Variant};
use crate::search::egdb::Databases;
use crate::search::pool::run_in_order;
use crate::search::{Engine, SearchLimits};
use crate::shard::ShardArg;
use game::{GameSettings, play_game};
use std::fs::OpenOptions;
use std::io::{IsTerminal, Seek, SeekFrom};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `bashni datagen`.
#[derive(clap::Args, Debug)]
#[command(
    about = "Play self-play games and write their quiet positions as training data",
    long_about = "Play self-play games from random balanced openings, each move searched to a \
        fixed node count or depth, and append one line per quiet position to --out: \
        '<FEN> | <score> | <result>' (score in the evaluation's internal units and result from White's view), and a \
        '# game <n> <result> <plies> <game>' line after each game, naming its game (--variant): \
        data of another game is neither appended to nor resumed, and `tune` and `train` \
        refuse it. The output depends only on the \
        settings and --seed, not on --threads; --shard i/n plays the i-th of n equal parts \
        (--shard auto: the part of a Slurm job array or Kubernetes Indexed Job task).",
    after_help = "Examples:\n  \
        bashni datagen --games 1000 --nodes 5000 --threads 2 --out data.txt\n  \
        bashni datagen --variant turkish --games 1000 --nodes 2000 --opening-plies 8 --out turkish.txt\n  \
        bashni datagen --games 100000 --depth 6 --shard 3/8 --out part3.txt\n  \
        bashni datagen --games 100000 --shard auto --out part$SLURM_ARRAY_TASK_ID.txt   # in sbatch --array=1-8\n  \
        bashni datagen --games 1000 --nodes 5000 --out data.txt --resume   # after a stop\n  \
        bashni egdb build --variant russian --pieces 3 --out egdb && bashni datagen --variant russian --games 1000 --egdb egdb --out russian.txt"
)]
pub struct DatagenArgs {
    /// The game: bashni, turkish, russian, brazilian or lasca.
    #[arg(long, default_value_t = Variant::Bashni)]
    pub variant: Variant,
    /// Number of games of the whole run (all shards together).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Search every move to this many nodes (the default, 5000, when no --depth is given).
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,
    /// Search every move to this depth instead of a node count.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::protocol::command::MAX_GO_DEPTH as i64))]
    pub depth: Option<u32>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only part i of n (1 <= i <= n) of the run's games, e.g. 2/8; `auto` takes the part
    /// from a Slurm job array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX, with --shards).
    #[arg(long, default_value = "1/1")]
    pub shard: ShardArg,
    /// With `--shard auto` under a Kubernetes Indexed Job: the number of parts (the Job's
    /// completions); under Slurm, checked against the array's size.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: Option<u64>,
    /// Random plies after the opening (a random one of the game's built-in book, or the
    /// initial position with --no-book or for a game without a book) before the engine plays.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub opening_plies: u32,
    /// Start from the initial position instead of the game's built-in book's openings.
    #[arg(long)]
    pub no_book: bool,
    /// Engine plies after the opening that are played but not written.
    #[arg(long, default_value_t = 4)]
    pub skip_plies: u32,
    /// A game this long (plies after the opening) is stopped and scored a draw.
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_plies: u32,
    /// Transposition table per game being played, MiB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// Chance, in percent, that an engine ply is replaced by a random legal move (the searched
    /// position is still written with the search's score): lopsided positions that pure
    /// self-play never reaches, such as a weak opponent's.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub random_moves: u32,
    /// The file to append to.
    #[arg(long)]
    pub out: PathBuf,
    /// Continue a stopped run: skip the games that --out already ends (same settings and
    /// seed), after removing a partly written game at its end. Only what can be nothing else
    /// is removed: a file with no complete game, whose end is not one game's datagen data
    /// (other lines, two results, more positions than --max-plies allows) or that holds data
    /// of another game is refused and left as it is.
    #[arg(long)]
    pub resume: bool,
    /// Endgame databases (`bashni egdb build`) in this folder: every search probes them, so
    /// that a position a few captures from them is scored with their exact values, and a
    /// game ends with their result once a search proves it. Only where told: the default
    /// folder is not read, so that the output depends only on what the command says.
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
}

/// Default node count per move.
pub const DEFAULT_NODES: u64 = 5000;
/// Depth of the search that keeps a random opening only when it is balanced: shallower than a
/// match's filter, since every game draws its own opening.
pub const OPENING_FILTER_DEPTH: u32 = 4;
/// Largest score (centi-men, either side) of a kept opening: wider than a match's, for variety.
pub const OPENING_MAX_SCORE: i32 = 80;

impl DatagenArgs {
    fn settings<G: Game>(&self) -> GameSettings<G::Move> {
        let limits = match self.depth {
            Some(d) => SearchLimits {
                depth: Some(d),
                ..Default::default()
            },
            None => SearchLimits {
                nodes: Some(self.nodes.unwrap_or(DEFAULT_NODES).max(1)),
                ..Default::default()
            },
        };
        GameSettings {
            seed: self.seed,
            book: std::sync::Arc::new(if self.no_book {
                Vec::new()
            } else {
                crate::record::openings::book::<G>()
            }),
            opening_plies: self.opening_plies,
            filter_depth: OPENING_FILTER_DEPTH,
            max_opening_score: OPENING_MAX_SCORE,
            skip_plies: self.skip_plies,
            limits,
            max_plies: self.max_plies,
            random_move_percent: self.random_moves,
        }
    }
}

/// Runs `bashni datagen`; returns the exit code.
pub fn run(args: DatagenArgs) -> i32 {
    match crate::for_variant!(args.variant, G => generate::<G>(&args)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// Counts for the progress line.
struct Progress {
    start: Instant,
    total: u64,
    games: u64,
    positions: u64,
    terminal: bool,
}

impl Progress {
    fn show(&self) {
        if !self.terminal {
            return;
        }
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let rate = self.positions as f64 / secs;
        let eta = if self.games == 0 {
            0.0
        } else {
            secs * (self.total - self.games) as f64 / self.games as f64
        };
        eprint!(
            "\rgames {}/{}  positions {}  {:.0} positions/s  ETA {}m{:02}s   ",
            self.games,
            self.total,
            self.positions,
            rate,
            eta as u64 / 60,
            eta as u64 % 60
        );
    }
}

/// The databases of `--egdb`, if given; an error when the folder does not read or holds no
/// table of the game played (a run that would silently use none).
fn open_egdb(args: &DatagenArgs) -> Result<Option<Databases>, String> {
    let Some(dir) = &args.egdb else {
        return Ok(None);
    };
    let dbs = Databases::open(dir).map_err(|e| format!("--egdb: {e}"))?;
    if let Some(why) = dbs.unused_by(args.variant) {
        return Err(format!("--egdb: {why}"));
    }
    eprintln!("--egdb: {}", dbs.summary());
    Ok(Some(dbs))
}

fn generate<G: Game>(args: &DatagenArgs) -> Result<(), String> {
    let settings = args.settings::<G>();
    let dbs = open_egdb(args)?;
    let shard = args.shard.resolve(args.shards).map_err(|e| e.to_string())?;
    let range = shard.range(args.games);
    let first = if args.resume {
        resume::resume_point::<G>(&args.out, &range, settings.max_samples())
            .map_err(|e| e.to_string())?
    } else {
        resume::check_appending::<G>(&args.out).map_err(|e| e.to_string())?;
        range.start
    };
    let name = args.out.display();
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("cannot open '{name}': {e}"))?;
    out.seek(SeekFrom::End(0))
        .map_err(|e| format!("cannot open '{name}': {e}"))?;
    let mut engines = Vec::new();
    for _ in 0..args.threads {
        let mut e = Engine::new();
        e.set_hash_mb(args.hash as usize)
            .map_err(|err| format!("--hash {}: {err}", args.hash))?;
        e.set_egdb(dbs.clone());
        engines.push(e);
    }
    let mut progress = Progress {
        start: Instant::now(),
        total: range.end - first,
        games: 0,
        positions: 0,
        terminal: std::io::stderr().is_terminal(),
    };
    // One engine per thread, the records written in the games' order: the output is the same
    // whatever the number of threads. The first failed write stops the run.
    let play = |index, engine: &mut Engine| play_game::<G>(&settings, index, engine);
    run_in_order(first..range.end, engines, play, |_, record| {
        let mut text = String::new();
        for line in &record.lines {
            text.push_str(line);
            text.push('\n');
        }
        // A game whole or not at all: after a failed write the file still ends with a whole
        // game, and --resume goes on from there.
        crate::files::append(&mut out, text.as_bytes())
            .map_err(|e| format!("cannot write '{name}': {e}"))?;
        progress.positions += record.positions as u64;
        progress.games += 1;
        progress.show();
        Ok(true)
    })?;
    if progress.terminal {
        eprintln!();
    }
    eprintln!(
        "datagen: {} games, {} positions in {:.1} s -> {name}",
        progress.games,
        progress.positions,
        progress.start.elapsed().as_secs_f64()
    );
    Ok(())
}
