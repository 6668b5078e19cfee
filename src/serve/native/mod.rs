//! `bashni serve`'s native transport: the HTTP server (hyper on tokio) of the game API
//! ([`crate::serve::api`]) and the page's files, and the games' engines as child processes.
//!
//! HTTP with hyper on tokio: a server built for hostile networks, with header size and count
//! limits, timeouts, a connection cap and a task (not a thread) per connection; see
//! [`listener`] for every limit. A client that is slow, idle, malformed or greedy holds only
//! its own connection.
//!
//! Parts: [`guard`] (`Host` and `Origin`), [`http`] (the routes over HTTP), [`sse`] (event
//! streams), [`listener`] (connections), [`assets`] (the page's files, compiled in),
//! [`engine_process`] (a game's engine process and its worker thread, the back end of the
//! games' engines and reviews).

pub mod assets;
pub mod engine_process;
pub mod guard;
pub mod http;
pub mod listener;
pub mod sse;

use crate::games::Variant;
use crate::protocol::engine_args::EgdbArg;
use crate::search::egdb::Databases;
use crate::serve::api::Core;
use crate::serve::registry::{
    DEFAULT_MAX_ANALYSIS_S, DEFAULT_MAX_GAMES, DEFAULT_MAX_THINK_S, EngineTables, Limits,
    REAP_EVERY, Registry,
};
use crate::serve::review::Reviews;
use crate::serve::session::Caps;
use clap::Args;
use engine_process::Processes;
use guard::Guard;
use http::Shared;
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
    #[arg(long, default_value_t = DEFAULT_MAX_GAMES, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub max_games: u64,
    /// Longest engine move or hint, seconds (a longer time per move is refused).
    #[arg(long, default_value_t = DEFAULT_MAX_THINK_S, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub max_think: u64,
    /// Longest analysis of one position, seconds (then the analysis stops by itself).
    #[arg(long, default_value_t = DEFAULT_MAX_ANALYSIS_S, value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub max_analysis: u64,
    /// The game the page starts with: bashni, turkish, russian, brazilian or lasca (without it,
    /// the game the page played last, else Bashni; every game can still be picked in the
    /// new-game dialog or named in the address).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Another host name the server may be reached by (as the `Host` header names it; the
    /// address served, localhost and, with --host 0.0.0.0, any IP address are always
    /// accepted). Repeat for several.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// `--egdb DIR`: the engine of every Russian, Brazilian and Turkish game plays and analyses with
    /// them, and analysis shows a tablebase panel where they hold the position.
    #[command(flatten)]
    pub egdb: EgdbArg,
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
    engine_process::pin_program();
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
    let backend = Arc::new(Processes::default());
    let shared = Arc::new(Shared {
        core: Core {
            registry: Registry::new(limits, egdb_dir, backend.clone()),
            page_variant: args.variant,
            reviews: Arc::new(Reviews::new(backend)),
            egdb,
        },
        guard: Guard::new(addr, &args.host, &args.allow_host),
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
                reaper.core.registry.reap(Instant::now());
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
    shared.core.registry.close_all();
    let deadline = Instant::now() + SHUTDOWN_GRACE;
    while shared.core.registry.engines() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    0
}
