//! `bashni serve`: play and analyse Bashni, Turkish draughts, Russian draughts and Lasca in
//! the browser.
//!
//! A local web server for one page (HTML, CSS and JavaScript compiled in from `web/`). The
//! server owns the rules: it keeps each game, checks every move, decides when a game is over
//! and sends the page the legal moves and every position; each game is kept by its own rules
//! ([`line`]). The engine of each game is a `bashni` child process spoken to through
//! engine-protocol.md ([`engine_worker`]), told its game with `UCI_Variant`; its output
//! reaches the page as Server-Sent Events ([`sse`]).
//!
//! HTTP with hyper on tokio: a server built for hostile networks, with header size and count
//! limits, timeouts, a connection cap and a task (not a thread) per connection; see
//! [`listener`] for every limit. A client that is slow, idle, malformed or greedy holds only
//! its own connection.
//!
//! Parts, from the bottom up: [`error`] (the one error type), [`json`], [`clocks`],
//! [`ending`], [`line`] (a game's moves by its own rules), [`variations`] (a new game's
//! variations, bounded), [`notes`] (a game's tags, comments and glyphs, bounded),
//! [`settings`] (a new game's request), [`sse`] (event streams), [`tablebase`] (a
//! position by the endgame databases),
//! [`review_report`] (a game's review as the game keeps it), [`session`] (one game) with
//! [`engine_worker`] (its engine process), [`pdn_export`], [`registry`] (the open games and
//! their limits), [`review`] (reviews run), then the
//! HTTP layer: [`guard`] (`Host` and `Origin`), [`http`] (routes), [`listener`]
//! (connections), [`assets`]. The page's automation contract is in `web/CONTRACT.md`.

pub mod analysis;
pub mod assets;
pub mod clocks;
pub mod ending;
mod engine_worker;
pub mod error;
pub mod guard;
pub mod http;
pub mod json;
pub mod line;
pub mod listener;
pub mod notes;
pub mod pdn_export;
pub mod registry;
pub mod review;
pub mod review_report;
pub mod session;
pub mod settings;
pub mod sse;
pub mod tablebase;
pub mod variations;

use crate::games::bashni::notation::START_FEN;
use crate::games::{Rules, Variant};
use crate::protocol::engine_args::EgdbArg;
use crate::search::egdb::Databases;
use crate::search::skill::{LADDER, MAX_LEVEL};
use clap::Args;
use guard::Guard;
use http::Shared;
use json::Value;
use registry::{EngineTables, Limits, REAP_EVERY, Registry};
use session::{Caps, MAX_MULTIPV};
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a stopping server waits for its engines to quit.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// Play and analyse in the browser: a local web server for one page.
///
/// Open the printed address in a browser: play Bashni, Turkish draughts, Russian draughts
/// or Lasca against the engine at a level from 0 to 20, see every tower, take back, ask for
/// a hint, analyse with several lines, set up positions from a FEN (or open /?fen=<FEN>, or
/// /?variant=turkish&fen=<FEN>), download and load PDN. Every game has its own address
/// (/<id>) and engine process; every tab on it follows it live, and a game no tab shows is
/// closed within seconds.
///
/// Examples:
///   bashni serve                      # http://127.0.0.1:8080/
///   bashni serve --port 0 --open      # any free port, opened in the default browser
///   bashni serve --max-games 2 --max-think 10
///   bashni serve --host 0.0.0.0       # reachable from other machines (a warning is printed)
///
/// Limits: request heads within 10 s and 16 KiB (64 headers), bodies within 10 s and
/// 256 KiB, writes taken within 10 s, at most as many connections as file descriptors allow
/// (up to 10,000); requests must name this server in `Host` (see --allow-host), and a
/// browser's `Origin` must be the page's own.
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ServeArgs {
    /// Address to listen on. Anything but a loopback address exposes the server to the
    /// network: a warning is printed.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port; 0 picks a free one (the address is printed either way).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the default browser (xdg-open); failing is only a warning.
    #[arg(long)]
    pub open: bool,
    /// Most games at once, each with its own engine process; more are refused (503).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub max_games: u64,
    /// Longest engine move or hint, seconds (a longer time per move is refused).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub max_think: u64,
    /// Longest analysis of one position, seconds (then the analysis stops by itself).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub max_analysis: u64,
    /// The game the page starts with: bashni, turkish, russian, brazilian or lasca (without it, the game the
    /// page played last, else Bashni; every game can still be picked in the new-game dialog
    /// or named in the address).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Another host name the server may be reached by (as the `Host` header names it; the
    /// address served, localhost and, with --host 0.0.0.0, any IP address are always
    /// accepted). Repeat for several.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// `--egdb DIR`: the engine of every Russian and Turkish game plays and analyses with
    /// them, and analysis shows a tablebase panel where they hold the position.
    #[command(flatten)]
    pub egdb: EgdbArg,
}

/// What `GET /api/info` answers: the games (name, initial FEN, PDN `GameType`), the game the
/// page starts with, the levels with their Elo (measured in Bashni), the server's limits, its
/// endgame databases (`egdb`: `{"tables": n}`, null without) and the drawing tables that name
/// openings (`ballots`: `[{"variant", "table", "ballots"}]`).
pub fn info_json(
    limits: &Limits,
    page_variant: Option<Variant>,
    egdb: Option<&Databases>,
) -> Value {
    let variants: Vec<Value> = Variant::ALL
        .iter()
        .map(|&v| {
            let start = crate::for_variant!(v, G => G::START_FEN);
            json::object([
                ("name", Value::from(v.name())),
                ("title", Value::from(crate::play::game_text::game_name(v))),
                ("start_fen", Value::from(start)),
                ("pdn_game_type", Value::from(v.pdn_game_type())),
            ])
        })
        .collect();
    let levels: Vec<Value> = (0..=MAX_LEVEL)
        .map(|l| {
            json::object([
                ("level", Value::from(l)),
                ("elo", Value::from(LADDER[l as usize])),
            ])
        })
        .collect();
    json::object([
        ("version", Value::from(env!("CARGO_PKG_VERSION"))),
        ("start_fen", Value::from(START_FEN)),
        ("variants", Value::Array(variants)),
        (
            "default_variant",
            page_variant.map_or(Value::Null, |v| Value::from(v.name())),
        ),
        ("levels", Value::Array(levels)),
        ("default_level", Value::from(settings::DEFAULT_LEVEL)),
        (
            "default_movetime_ms",
            Value::from(settings::DEFAULT_MOVETIME_MS.min(limits.caps.max_think_ms)),
        ),
        ("max_games", Value::from(limits.max_games)),
        ("max_think_ms", Value::from(limits.caps.max_think_ms)),
        ("max_analysis_ms", Value::from(limits.caps.max_analysis_ms)),
        ("max_multipv", Value::from(MAX_MULTIPV)),
        (
            "egdb",
            egdb.map_or(Value::Null, |d| {
                json::object([("tables", Value::from(d.tables()))])
            }),
        ),
        (
            "ballots",
            Value::Array(
                crate::record::ballots::counts()
                    .into_iter()
                    .map(|(v, table, n)| {
                        json::object([
                            ("variant", Value::from(v.name())),
                            ("table", Value::from(table)),
                            ("ballots", Value::from(n)),
                        ])
                    })
                    .collect(),
            ),
        ),
    ])
}

fn is_loopback(host: &str, port: u16) -> bool {
    match (host, port).to_socket_addrs() {
        Ok(addrs) => {
            let addrs: Vec<SocketAddr> = addrs.collect();
            !addrs.is_empty() && addrs.iter().all(|a| a.ip().is_loopback())
        }
        Err(_) => false,
    }
}

fn open_browser(url: &str) {
    let tried = std::process::Command::new("xdg-open")
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = tried {
        eprintln!("warning: --open: cannot run xdg-open ({e}); open {url} by hand");
    }
}

/// Smallest block the allocator maps on its own (and unmaps when freed), bytes.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 1 << 20;

/// Makes every large block (a review's transposition table, 16 MiB) memory of its own that
/// goes back to the system when freed. By default glibc raises this threshold to the size of
/// the first such block freed, then serves the next from an arena's heap and keeps it there
/// when freed: the server held some 33 MB more after its first reviews (measured), for as
/// long as it ran.
fn map_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of glibc's allocator (under its own lock); it
    // touches no memory of ours, and a fixed threshold is one glibc supports at any time.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
    }
}

/// The databases `--egdb` names, and for the engines their folder made absolute with the
/// games it has tables for.
fn open_egdb(arg: &EgdbArg) -> Result<(Option<Databases>, Option<EngineTables>), String> {
    let (Some(dbs), Some(dir)) = (arg.open(None)?, &arg.egdb) else {
        return Ok((None, None));
    };
    let dir = std::fs::canonicalize(dir).map_err(|e| format!("--egdb: {}: {e}", dir.display()))?;
    let games = Variant::ALL
        .iter()
        .copied()
        .filter(|&v| crate::for_variant!(v, G => dbs.of::<G>().is_some()))
        .collect();
    Ok((Some(dbs), Some(EngineTables { dir, games })))
}

/// Runs the server until the process is stopped (Ctrl-C or SIGTERM end every game first);
/// returns the exit code.
pub fn run(args: ServeArgs) -> i32 {
    // Before anything can replace the binary: the games' engines start from this file.
    engine_worker::pin_program();
    map_large_blocks();
    if !is_loopback(&args.host, args.port) {
        eprintln!(
            "warning: --host {}: the server is reachable from other machines; it has no \
             login, and anyone who reaches it can start engine processes (up to --max-games)",
            args.host
        );
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(64)
        .thread_name("serve")
        .enable_all()
        .build();
    match runtime {
        Ok(rt) => rt.block_on(serve(args)),
        Err(e) => {
            eprintln!("error: cannot start the server's threads: {e}");
            1
        }
    }
}

async fn serve(args: ServeArgs) -> i32 {
    let listener = match tokio::net::TcpListener::bind((args.host.as_str(), args.port)).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: cannot listen on {}:{}: {e}", args.host, args.port);
            return 1;
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: the server has no address: {e}");
            return 1;
        }
    };
    let max_games = args.max_games as usize;
    let limits = Limits {
        max_games,
        caps: Caps {
            max_think_ms: args.max_think * 1000,
            max_analysis_ms: args.max_analysis * 1000,
        },
    };
    let (egdb, egdb_dir) = match open_egdb(&args.egdb) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let shared = Arc::new(Shared {
        registry: Registry::new(limits, egdb_dir),
        guard: Guard::new(addr, &args.host, &args.allow_host),
        page_variant: args.variant,
        reviews: Arc::default(),
        egdb,
    });
    let url = format!("http://{addr}/");
    println!("bashni serve: listening on {url} (Ctrl-C stops it)");
    let _ = std::io::stdout().flush();
    if args.open {
        open_browser(&url);
    }
    let reaper = shared.clone();
    let started = std::thread::Builder::new()
        .name("serve-reaper".into())
        .spawn(move || {
            loop {
                std::thread::sleep(REAP_EVERY);
                reaper.registry.reap(Instant::now());
            }
        });
    if let Err(e) = started {
        eprintln!("error: cannot start a thread: {e}");
        return 1;
    }
    let max_conns = listener::max_connections(max_games);
    tokio::select! {
        _ = listener::accept_loop(listener, shared.clone(), max_conns) => {}
        _ = crate::matchrun::signals::stop_signal() => {}
    }
    // Stopping: every game ends and its engine quits.
    shared.registry.close_all();
    let deadline = Instant::now() + SHUTDOWN_GRACE;
    while shared.registry.engines() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    0
}
