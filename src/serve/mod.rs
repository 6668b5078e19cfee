//! `bashni serve`: play and analyse Bashni, Turkish draughts, Russian draughts and Lasca in
//! the browser, with two back ends for one page (`web/`).
//!
//! The core (this folder, which builds without the `native` feature) owns the rules: it
//! keeps each game, checks every move, decides when a game is over and gives the page the
//! legal moves and every position; each game is kept by its own rules ([`line`]). Its API
//! (web/CONTRACT.md) is a set of functions from a request to an answer ([`api`]); each game's
//! changes and its engine's output go to its event streams ([`events`]). The engine of each
//! game speaks engine-protocol.md ([`engine_worker`]), told its game with `UCI_Variant`.
//!
//! The two transports: natively (`native/`, with the `native` feature) an HTTP server with
//! Server-Sent Events and an engine child process per game; in the browser ([`browser`]) the
//! same core on the one thread of the page's Web Worker, its engines protocol sessions in the
//! same process, its events messages to the page (wasm/ builds it into `bashni.wasm`).
//!
//! Parts, from the bottom up: [`error`] (the one error type), [`json`], [`clocks`],
//! [`ending`], [`line`] (a game's moves by its own rules), [`variations`] (a new game's
//! variations, bounded), [`notes`] (a game's tags, comments and glyphs, bounded),
//! [`settings`] (a new game's request), [`events`] (event streams), [`tablebase`] (a
//! position by the endgame databases),
//! [`review_report`] (a game's review as the game keeps it), [`session`] (one game) with
//! [`engine_worker`] (its engine's jobs, and the back ends' trait), [`pdn_export`],
//! [`registry`] (the open games and their limits), [`review`] (reviews run), [`puzzles`]
//! (the shipped puzzles, for the page's puzzle mode), [`api`] (the routes); then the back ends, `native` and [`browser`]. The page's automation contract is in
//! `web/CONTRACT.md`.

pub mod analysis;
pub mod api;
pub mod browser;
pub mod clocks;
pub mod ending;
pub mod engine_worker;
pub mod error;
pub mod events;
pub mod json;
pub mod line;
#[cfg(feature = "native")]
pub mod native;
pub mod notes;
pub mod pdn_export;
pub mod puzzles;
pub mod registry;
pub mod review;
pub mod review_report;
pub mod session;
pub mod settings;
pub mod tablebase;
pub mod variations;

#[cfg(feature = "native")]
pub use native::{ServeArgs, run};

use crate::games::bashni::notation::START_FEN;
use crate::games::{Rules, Variant};
use crate::search::egdb::Databases;
use crate::search::skill::{LADDER, MAX_LEVEL};
use json::Value;
use registry::Limits;
use session::MAX_MULTIPV;

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
                ("title", Value::from(crate::game_text::game_name(v))),
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
