//! `bashni puzzles`: tactics puzzles mined from the engine's own games (datagen files, match
//! PDNs) by lichess' method adapted to draughts (docs/puzzles.md).
//!
//! The input's games are read whole ([`source`]), each position the opponent just moved into
//! is a candidate ([`candidates`]), and each candidate goes through the miner's searches
//! ([`mine`]: a screen, the two best lines ([`lines`]) judged by the gap and the floor
//! ([`judge`]), a deeper check, the solution line); a puzzle gets its themes ([`themes`]) and
//! a starting rating ([`rating`]). A position that occurred earlier in the input (by hash) is
//! mined only there, and a candidate's answer depends on its position alone, so the output is
//! the same whatever `--threads`, and `--shard i/n` mines a contiguous part of the games whose
//! outputs, concatenated in order, are the whole run's (only part 1 writes the header).

pub mod candidates;
pub mod check;
pub mod judge;
pub mod lines;
pub mod mine;
mod pool;
pub mod rating;
mod reverify;
pub mod source;
pub mod themes;

use crate::games::{Game, Variant};
use crate::record::puzzle::{HEADER, Puzzle};
use crate::search::Engine;
use crate::shard::{Shard, ShardArg};
use mine::{Settings, Stop};
use source::SourceGame;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `bashni puzzles`.
#[derive(clap::Args, Debug)]
#[command(
    about = "Mine tactics puzzles from the engine's games (datagen files or PDNs)",
    long_about = "Mine tactics puzzles from games: datagen files (bashni datagen) or PDN files \
        (bashni match --pdn), by lichess' method adapted to draughts (docs/puzzles.md): a \
        position the opponent just moved into where one move wins decisively and every other \
        move does not (the gap in winning chances, --gap), checked by a deeper two-line \
        search, the line kept while the solver's moves stay unique. Writes lichess' puzzle CSV \
        (PuzzleId,FEN,Moves,Rating,Themes,Source) to --out. Every search is a fixed number of \
        nodes or depth on one thread: the output depends only on the input, the settings and \
        --seed, not on --threads or the machine's load, and the --shard parts, concatenated \
        in order, are the whole run (part 1 alone writes the header).",
    after_help = "Examples:\n  \
        bashni puzzles --from games.pdn --out puzzles.csv\n  \
        bashni puzzles --variant turkish --from turkish.txt --out turkish.csv --limit 500\n  \
        bashni puzzles --from data.txt a.txt --shard 3/8 --out part3.csv\n  \
        bashni puzzles --from data.txt --shard auto --out part$SLURM_ARRAY_TASK_ID.csv   # in sbatch --array=1-8"
)]
pub struct PuzzlesArgs {
    /// The game: bashni, turkish, russian, brazilian or lasca.
    #[arg(long, default_value_t = Variant::Bashni)]
    pub variant: Variant,
    /// The files to mine, in order: datagen files or PDN files.
    #[arg(long, num_args = 1.., required_unless_present = "reverify", value_name = "FILE")]
    pub from: Vec<PathBuf>,
    /// Instead of mining: put every puzzle of this puzzle file through the final check again
    /// (--check-nodes) and write those that pass, whole and in order, to --out.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["from", "shard", "limit"])]
    pub reverify: Option<PathBuf>,
    /// The puzzle file to write (replaced whole when the run ends).
    #[arg(long)]
    pub out: PathBuf,
    /// Stop after this many puzzles (a shard after this many of its own: the merged parts
    /// cut to N are the whole run's first N).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Mine only part i of n (1 <= i <= n) of the input's games, e.g. 2/8; `auto` takes the
    /// part from a Slurm job array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX, with --shards).
    #[arg(long, default_value = "1/1")]
    pub shard: ShardArg,
    /// With `--shard auto` under a Kubernetes Indexed Job: the number of parts.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub shards: Option<u64>,
    /// Seed of the puzzles' names (PuzzleId).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Nodes of the screening search of every candidate (0: none).
    #[arg(long, default_value_t = 3_000)]
    pub screen_nodes: u64,
    /// Nodes of the miner's two-line search (MultiPV 2).
    #[arg(long, default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Nodes of the deeper two-line search that checks each solver move (at least --nodes).
    #[arg(long, default_value_t = 150_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub verify_nodes: u64,
    /// Nodes of the final check's search of each legal move on its own, for every solver
    /// move (what the suite's independent checker searches).
    #[arg(long, default_value_t = 40_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub check_nodes: u64,
    /// The gap in winning chances (lichess' curve, 0 to 2) by which a solver move must beat
    /// every other move.
    #[arg(long, default_value_t = judge::DEFAULT_GAP, value_parser = parse_gap)]
    pub gap: f64,
    /// Most solver moves of a solution.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=31))]
    pub max_moves: u64,
    /// Candidates mined at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table of each thread, MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
}

/// `--gap`: a number from 0 to 2 (exclusive of neither), not NaN.
fn parse_gap(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(g) if (0.0..=2.0).contains(&g) => Ok(g),
        _ => Err(format!(
            "'{text}' is not a gap in winning chances from 0 to 2"
        )),
    }
}

impl PuzzlesArgs {
    fn settings(&self) -> Settings {
        Settings {
            screen_nodes: self.screen_nodes,
            nodes: self.nodes,
            verify_nodes: self.verify_nodes.max(self.nodes),
            check_nodes: self.check_nodes,
            gap: self.gap,
            max_solver_moves: self.max_moves as usize,
            seed: self.seed,
        }
    }
}

/// Runs `bashni puzzles`; returns the exit code.
pub fn run(args: PuzzlesArgs) -> i32 {
    let done = match &args.reverify {
        Some(file) => crate::for_variant!(args.variant, G => reverify::run::<G>(&args, file)),
        None => crate::for_variant!(args.variant, G => mine_run::<G>(&args)),
    };
    match done {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// One game to mine: its label and which of its candidates are first seen there.
pub struct Job {
    /// The game.
    pub game: SourceGame,
    /// For each of its candidates, in order: whether its position occurs here first.
    pub first: Vec<bool>,
}

/// Reads the candidates of every game up to the end of `range` and marks, for the games in
/// it, the candidates whose position (by hash) occurs there for the first time in the input.
/// A game that does not read is named on standard error and left out.
fn jobs<G: Game>(games: Vec<SourceGame>, range: std::ops::Range<u64>) -> Vec<Job> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (i, game) in games.into_iter().enumerate().take(range.end as usize) {
        let cands = match candidates::candidates::<G>(&game) {
            Ok(c) => c,
            Err(e) => {
                if range.contains(&(i as u64)) {
                    eprintln!("{} game {}: {e}; game skipped", game.file, game.number);
                }
                continue;
            }
        };
        let first: Vec<bool> = cands.iter().map(|c| seen.insert(c.after.hash())).collect();
        if range.contains(&(i as u64)) {
            out.push(Job { game, first });
        }
    }
    out
}

/// Refuses an `--out` whose folder does not exist, before any mining.
pub(crate) fn check_out(out: &std::path::Path) -> Result<(), String> {
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(format!(
            "--out {}: no folder {}",
            out.display(),
            dir.display()
        ))
    }
}

/// What the run found, for its summary.
#[derive(Default)]
struct Tally {
    games: u64,
    candidates: u64,
    stops: [u64; Stop::ALL.len()],
    puzzles: u64,
}

fn mine_run<G: Game>(args: &PuzzlesArgs) -> Result<(), String> {
    let start = Instant::now();
    let shard: Shard = args.shard.resolve(args.shards).map_err(|e| e.to_string())?;
    check_out(&args.out)?;
    let games = source::read_games(&args.from, G::VARIANT)?;
    let range = shard.range(games.len() as u64);
    let jobs = jobs::<G>(games, range);
    let settings = args.settings();
    let mut engines = Vec::new();
    for _ in 0..args.threads {
        let mut e = Engine::new();
        e.set_hash_mb(args.hash as usize)
            .map_err(|err| format!("--hash {}: {err}", args.hash))?;
        engines.push(e);
    }
    let mut text = String::new();
    if shard.index() == 1 {
        text.push_str(HEADER);
        text.push('\n');
    }
    let mut tally = Tally::default();
    let limit = args.limit.unwrap_or(u64::MAX);
    let terminal = std::io::stderr().is_terminal();
    let total = jobs.len();
    pool::mine_in_order::<G>(&jobs, &settings, engines, |done, results| {
        tally.games += 1;
        for r in results {
            tally.candidates += 1;
            match r {
                Ok(p) if tally.puzzles < limit => {
                    text.push_str(&Puzzle::to_line(&p));
                    text.push('\n');
                    tally.puzzles += 1;
                }
                Ok(_) => {}
                Err(stop) => tally.stops[stop as usize] += 1,
            }
        }
        if terminal {
            eprint!("\rgames {done}/{total}  puzzles {}   ", tally.puzzles);
        }
        tally.puzzles < limit
    })?;
    if terminal {
        eprintln!();
    }
    crate::files::replace(&args.out, text.as_bytes())
        .map_err(|e| format!("cannot write '{}': {e}", args.out.display()))?;
    let stops: Vec<String> = Stop::ALL
        .iter()
        .map(|s| format!("{} {}", s.name(), tally.stops[*s as usize]))
        .collect();
    eprintln!(
        "puzzles: {} puzzles from {} games ({} candidates; stopped at {}) in {:.1} s -> {}",
        tally.puzzles,
        tally.games,
        tally.candidates,
        stops.join(", "),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}
