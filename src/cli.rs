//! Command-line interface (clap): the protocol by default, and subcommands for people.

use crate::analyse::AnalyseArgs;
use crate::datagen::DatagenArgs;
use crate::matchrun::{MatchArgs, OpeningsArgs};
use crate::protocol::options::{HASH, THREADS};
use crate::rules::notation::{START_FEN, parse_fen};
use crate::rules::perft::{check_depth, divide, perft};
use crate::tune::TuneArgs;
use clap::{Parser, Subcommand};
use std::time::Instant;

/// bashni: an engine for Bashni (Russian column checkers).
///
/// With no subcommand (or `uci`) it speaks the engine protocol on stdin/stdout, as a GUI or
/// match runner expects (see engine-protocol.md). The rules it plays, the move and FEN
/// notation and the perft counts are in docs/rules.md.
///
/// Examples:
///   bashni play --color black --level 8
///   bashni serve --open
///   bashni analyse startpos --depth 12
///   bashni perft 7 --divide
///   bashni bench
///   bashni match --engine cmd=./bashni --engine cmd=./bashni option.Hash=64 --games 100 --tc 10+0.1
#[derive(Parser, Debug)]
#[command(version, about, verbatim_doc_comment)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per run
enum Command {
    /// Speak the engine protocol on stdin/stdout (the default).
    ///
    /// Commands and answers: engine-protocol.md.
    ///
    /// Example: printf 'uci\nposition startpos moves c3-d4\ngo depth 8\n' | bashni uci
    #[command(verbatim_doc_comment)]
    Uci,
    Analyse(AnalyseArgs),
    /// Count move paths to a depth (proves the move generator).
    ///
    /// Reference counts from the start position: docs/rules.md, section 6.
    /// Example: bashni perft 7 --divide
    #[command(verbatim_doc_comment)]
    Perft {
        /// Depth in plies (at most 16).
        depth: u32,
        /// Position to start from (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
        /// Print one line per root move, `<move> <count>`, sorted by move text.
        #[arg(long)]
        divide: bool,
        /// Worker threads (root moves are shared out).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Search a fixed set of positions; the last line is `nodes <N> time <ms> nps <nps>`.
    ///
    /// With one thread the node count is a fingerprint of the search.
    /// Example: bashni bench --depth 9
    #[command(verbatim_doc_comment)]
    Bench {
        /// Depth of every search.
        #[arg(long, default_value_t = crate::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = THREADS.default, value_parser = THREADS.flag())]
        threads: u64,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = HASH.default, value_parser = HASH.flag())]
        hash: u64,
    },
    /// Play engine-vs-engine matches.
    Match(MatchArgs),
    /// Merge the result files of a sharded match into the whole match's report.
    MatchReport(crate::matchrun::shards::MatchReportArgs),
    /// Write a file of balanced random openings.
    Openings(OpeningsArgs),
    Play(crate::play::PlayArgs),
    Serve(crate::serve::ServeArgs),
    Datagen(DatagenArgs),
    Tune(TuneArgs),
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        None | Some(Command::Uci) => crate::protocol::run(),
        Some(Command::Analyse(args)) => crate::analyse::run(args),
        Some(Command::Perft {
            depth,
            fen,
            divide: show,
            threads,
        }) => run_perft(depth, fen.as_deref(), show, threads),
        Some(Command::Bench {
            depth,
            threads,
            hash,
        }) => match crate::bench::run(depth, threads as usize, hash as usize) {
            Ok(_) => 0,
            Err(e) => {
                eprintln!("error: --hash {hash}: {e}");
                1
            }
        },
        Some(Command::Match(args)) => crate::matchrun::run_match(args),
        Some(Command::MatchReport(args)) => crate::matchrun::shards::run_match_report(args),
        Some(Command::Openings(args)) => crate::matchrun::run_openings(args),
        Some(Command::Play(args)) => crate::play::run(args),
        Some(Command::Serve(args)) => crate::serve::run(args),
        Some(Command::Datagen(args)) => crate::datagen::run(args),
        Some(Command::Tune(args)) => crate::tune::run(args),
    }
}

fn run_perft(depth: u32, fen: Option<&str>, show: bool, threads: usize) -> i32 {
    let pos = match parse_fen(fen.unwrap_or(START_FEN)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return 2;
        }
    };
    if let Err(e) = check_depth(depth) {
        eprintln!("error: {e}");
        return 2;
    }
    let start = Instant::now();
    let nodes = if show || threads > 1 {
        let divided = divide(&pos, depth, threads);
        if show {
            divided.lines().for_each(|l| println!("{l}"));
        }
        divided.nodes
    } else {
        perft(&pos, depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("nodes {nodes} time {ms} nps {nps}");
    0
}
