//! `bashni serve`: play and analyse Bashni, Turkish draughts and Russian draughts in the
//! browser.
//!
//! A local web server for one page (HTML, CSS and JavaScript compiled in from `web/`). The
//! server owns the rules: it keeps each game, checks every move, decides when a game is over
//! and sends the page the legal moves and every position; each game is kept by its own rules
//! ([`line`]). The engine of each game is a `bashni` child process spoken to through
//! engine-protocol.md ([`engine_worker`]), told its game with `UCI_Variant`; its output
//! reaches the page as Server-Sent Events ([`sse`]).
//!
//! HTTP with `tiny_http`: synchronous, a handful of small crates, and enough for a local
//! one-page server (axum and tokio would add about 72 crates and 50 s to a clean build).
//!
//! Parts: [`http`] (routes), [`registry`] (the open games and their limits), [`session`]
//! (one game), [`line`] (its moves by its game's rules), [`settings`] (a new game's
//! request), [`clocks`], [`engine_worker`], [`sse`],
//! [`json`], [`pdn_export`], [`assets`]. The page's automation contract is in
//! `web/CONTRACT.md`.

pub mod assets;
pub mod clocks;
pub mod ending;
mod engine_worker;
pub mod http;
pub mod json;
pub mod line;
pub mod pdn_export;
pub mod registry;
pub mod session;
pub mod settings;
pub mod sse;

use crate::games::{Rules, Variant};
use crate::rules::notation::START_FEN;
use crate::search::skill::{LADDER, MAX_LEVEL};
use clap::Args;
use http::Shared;
use json::Value;
use registry::{Limits, REAP_EVERY, Registry};
use session::{Caps, MAX_MULTIPV};
use std::io::Write;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Instant;

/// Threads answering requests (event streams get threads of their own).
const HANDLERS: usize = 8;

/// Event streams allowed per game slot (a page has one; more tabs on one game are allowed).
const STREAMS_PER_GAME: usize = 4;

/// Play and analyse in the browser: a local web server for one page.
///
/// Open the printed address in a browser: play Bashni, Turkish draughts or Russian draughts
/// against the engine at a level from 0 to 20, see every tower, take back, ask for a hint,
/// analyse with several lines, set up positions from a FEN (or open /?fen=<FEN>, or
/// /?variant=turkish&fen=<FEN>), download and load PDN. Each tab has its own game and its
/// own engine process; a closed tab frees it within seconds.
///
/// Examples:
///   bashni serve                      # http://127.0.0.1:8080/
///   bashni serve --port 0 --open      # any free port, opened in the default browser
///   bashni serve --max-games 2 --max-think 10
///   bashni serve --host 0.0.0.0       # reachable from other machines (a warning is printed)
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
    /// The game the page starts with: bashni, turkish or russian (without it, the game the
    /// page played last, else Bashni; every game can still be picked in the new-game dialog
    /// or named in the address).
    #[arg(long)]
    pub variant: Option<Variant>,
}

/// What `GET /api/info` answers: the games (name, initial FEN, PDN `GameType`), the game the
/// page starts with, the levels with their Elo (measured in Bashni) and the server's limits.
pub fn info_json(limits: &Limits, page_variant: Option<Variant>) -> Value {
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

/// Runs the server until the process is stopped; returns the exit code.
pub fn run(args: ServeArgs) -> i32 {
    if !is_loopback(&args.host, args.port) {
        eprintln!(
            "warning: --host {}: the server is reachable from other machines; it has no \
             login, and anyone who reaches it can start engine processes (up to --max-games)",
            args.host
        );
    }
    let server = match tiny_http::Server::http((args.host.as_str(), args.port)) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("error: cannot listen on {}:{}: {e}", args.host, args.port);
            return 1;
        }
    };
    let Some(addr) = server.server_addr().to_ip() else {
        eprintln!("error: the server has no IP address");
        return 1;
    };
    let max_games = args.max_games as usize;
    let limits = Limits {
        max_games,
        caps: Caps {
            max_think_ms: args.max_think * 1000,
            max_analysis_ms: args.max_analysis * 1000,
        },
    };
    let shared = Arc::new(Shared {
        registry: Registry::new(limits),
        streams: AtomicUsize::new(0),
        max_streams: max_games * STREAMS_PER_GAME,
        page_variant: args.variant,
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
    let mut handlers = Vec::new();
    for _ in 0..HANDLERS {
        let (server, shared) = (server.clone(), shared.clone());
        let h = std::thread::Builder::new()
            .name("serve-http".into())
            .spawn(move || {
                while let Ok(req) = server.recv() {
                    http::handle(&shared, req);
                }
            });
        match h {
            Ok(h) => handlers.push(h),
            Err(e) => {
                eprintln!("error: cannot start a thread: {e}");
                return 1;
            }
        }
    }
    for h in handlers {
        let _ = h.join();
    }
    0
}
