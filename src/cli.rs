//! Command-line interface (clap).

use crate::notation::{START_FEN, parse_fen};
use crate::perft::{divide, perft};
use clap::{Parser, Subcommand};
use std::time::Instant;

/// bashni: an engine for Bashni (Russian column checkers).
///
/// With no subcommand it speaks the engine protocol on stdin/stdout (see engine-protocol.md).
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count move paths to a depth (proves the move generator).
    ///
    /// Example: bashni perft 7 --divide
    Perft {
        /// Depth in plies.
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
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    match cli.command {
        None => {
            eprintln!("protocol mode not built yet");
            1
        }
        Some(Command::Perft {
            depth,
            fen,
            divide: show,
            threads,
        }) => run_perft(depth, fen.as_deref(), show, threads),
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
    let start = Instant::now();
    let nodes = if show || threads > 1 {
        let mut lines: Vec<(String, u64)> = divide(&pos, depth, threads)
            .into_iter()
            .map(|(m, n)| (m.to_string(), n))
            .collect();
        lines.sort();
        if show {
            for (m, n) in &lines {
                println!("{m} {n}");
            }
        }
        if depth == 0 { 1 } else { lines.iter().map(|l| l.1).sum() }
    } else {
        perft(&pos, depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("nodes {nodes} time {ms} nps {nps}");
    0
}
