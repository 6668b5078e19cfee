//! Command-line interface (clap): the protocol by default, and subcommands for people.

use crate::analyse::AnalyseArgs;
use crate::datagen::DatagenArgs;
use crate::games::bashni::perft::check_depth;
use crate::games::{Rules, Variant};
use crate::matchrun::{MatchArgs, OpeningsArgs};
use crate::protocol::options::{HASH, THREADS};
use crate::tune::TuneArgs;
use clap::{Parser, Subcommand};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// bashni: an engine for Bashni (Russian column checkers), Turkish draughts, Russian draughts
/// and Lasca.
///
/// With no subcommand (or `uci`) it speaks the engine protocol on stdin/stdout, as a GUI or
/// match runner expects (see engine-protocol.md). The rules it plays, the move and FEN
/// notation and the perft counts are in docs/rules.md (Bashni), docs/rules-turkish.md,
/// docs/rules-russian.md and docs/rules-lasca.md.
///
/// Examples:
///   bashni play --color black --level 8
///   bashni serve --open
///   bashni analyse startpos --depth 12
///   bashni perft 7 --divide
///   bashni bench
///   bashni match --engine cmd=./bashni --engine cmd=./bashni option.Hash=64 --games 100 --tc 10+0.1
#[derive(Parser, Debug)]
#[command(
    version,
    about,
    verbatim_doc_comment,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// With no subcommand: the protocol's settings (as `bashni uci` takes them).
    #[command(flatten)]
    protocol: ProtocolArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// How the protocol starts: with no subcommand, or `bashni uci`.
#[derive(clap::Args, Debug)]
struct ProtocolArgs {
    /// The game the session starts in: bashni, turkish, russian, brazilian or lasca (`UCI_Variant`'s
    /// default; `setoption name UCI_Variant` switches).
    #[arg(long, default_value_t = Variant::Bashni)]
    variant: Variant,
}

#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once per run
enum Command {
    /// Speak the engine protocol on stdin/stdout (the default).
    ///
    /// Commands and answers: engine-protocol.md.
    ///
    /// Examples:
    ///   printf 'uci\nposition startpos moves c3-d4\ngo depth 8\n' | bashni uci
    ///   bashni uci --variant turkish
    #[command(verbatim_doc_comment)]
    Uci(ProtocolArgs),
    /// Speak the Hub protocol (Scan's, as pydraughts and lidraughts-bot drive engines).
    ///
    /// Commands and answers: docs/hub.md. Russian, Brazilian and
    /// Turkish draughts only; the `variant` parameter switches.
    ///
    /// Examples:
    ///   printf 'hub\ninit\npos\nlevel depth=6\ngo think\n' | bashni hub
    ///   bashni hub --variant turkish
    #[command(verbatim_doc_comment)]
    Hub {
        /// The game the session starts in: russian, brazilian or turkish.
        #[arg(long, default_value_t = Variant::Russian)]
        variant: Variant,
    },
    Analyse(AnalyseArgs),
    Egdb(crate::egdb::command::EgdbArgs),
    /// Count move paths to a depth (proves the move generator).
    ///
    /// Reference counts from the start position: docs/rules.md, section 6 (Bashni),
    /// docs/rules-turkish.md, docs/rules-russian.md and docs/rules-lasca.md.
    ///
    /// Examples:
    ///   bashni perft 7 --divide
    ///   bashni perft 6 --variant turkish
    #[command(verbatim_doc_comment)]
    Perft {
        /// Depth in plies (at most 16; 22 in Lasca).
        depth: u32,
        /// The game: bashni, turkish, russian, brazilian or lasca.
        #[arg(long, default_value_t = Variant::Bashni)]
        variant: Variant,
        /// Position to start from, in the game's FEN (default: the initial position).
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
    /// With one thread the node count is a fingerprint of the search and the game's
    /// evaluation; each game (--variant) has its own positions.
    ///
    /// Examples:
    ///   bashni bench --depth 9
    ///   bashni bench --variant turkish
    #[command(verbatim_doc_comment)]
    Bench {
        /// Depth of every search (the protocol's `go depth` range).
        #[arg(long, default_value_t = crate::bench::DEFAULT_DEPTH,
            value_parser = clap::value_parser!(u32).range(1..=crate::protocol::command::MAX_GO_DEPTH as i64))]
        depth: u32,
        /// The game: bashni, turkish, russian, brazilian or lasca.
        #[arg(long, default_value_t = Variant::Bashni)]
        variant: Variant,
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
    Puzzles(crate::puzzles::PuzzlesArgs),
    Tune(TuneArgs),
    Train(crate::train::TrainArgs),
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    // `bashni match` also takes cutechess-cli's and fastchess's spellings (`-engine`, ...).
    let args = match crate::matchrun::compat::command_line(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let cli = Cli::parse_from(args);
    match cli.command {
        None => crate::protocol::run(cli.protocol.variant),
        Some(Command::Uci(args)) => crate::protocol::run(args.variant),
        Some(Command::Hub { variant }) => crate::hub::run(variant),
        Some(Command::Analyse(args)) => crate::analyse::run(args),
        Some(Command::Egdb(args)) => crate::egdb::command::run(args),
        Some(Command::Perft {
            depth,
            variant,
            fen,
            divide: show,
            threads,
        }) => {
            let args = PerftArgs {
                depth,
                fen: fen.as_deref(),
                show,
                threads,
            };
            // Each game gets its own monomorphised perft.
            crate::for_variant!(variant, G => run_perft::<G>(args))
        }
        Some(Command::Bench {
            depth,
            variant,
            threads,
            hash,
        }) => {
            let settings = crate::bench::BenchSettings {
                depth,
                threads: threads as usize,
                hash_mb: hash as usize,
            };
            match crate::for_variant!(variant, G => crate::bench::run::<G>(settings)) {
                Ok(_) => 0,
                Err(e) => {
                    eprintln!("error: --hash {hash}: {e}");
                    1
                }
            }
        }
        Some(Command::Match(args)) => crate::matchrun::run_match(args),
        Some(Command::MatchReport(args)) => crate::matchrun::shards::run_match_report(args),
        Some(Command::Openings(args)) => crate::matchrun::run_openings(args),
        Some(Command::Play(args)) => crate::play::run(args),
        Some(Command::Serve(args)) => crate::serve::run(args),
        Some(Command::Datagen(args)) => crate::datagen::run(args),
        Some(Command::Puzzles(args)) => crate::puzzles::run(args),
        Some(Command::Tune(args)) => crate::tune::run(args),
        Some(Command::Train(args)) => crate::train::run(args),
    }
}

/// What `bashni perft` was asked for.
struct PerftArgs<'a> {
    depth: u32,
    fen: Option<&'a str>,
    show: bool,
    threads: usize,
}

fn run_perft<R: Rules>(args: PerftArgs) -> i32 {
    let pos = match R::from_fen(args.fen.unwrap_or(R::START_FEN)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: bad FEN: {e}");
            return 2;
        }
    };
    if let Err(e) = check_depth(args.depth, R::MAX_PERFT_DEPTH) {
        eprintln!("error: {e}");
        return 2;
    }
    let never = AtomicBool::new(false);
    let start = Instant::now();
    let nodes = if args.show || args.threads > 1 {
        let divided = pos
            .divide_until(args.depth, args.threads, &never)
            .expect("the flag is never set");
        if args.show {
            divided.lines().for_each(|l| println!("{l}"));
        }
        divided.nodes
    } else {
        pos.perft(args.depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("nodes {nodes} time {ms} nps {nps}");
    0
}
