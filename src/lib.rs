//! bashni: an engine for Bashni (Russian column checkers), Turkish draughts, Russian draughts
//! and Lasca.
//!
//! The rules it plays are in `docs/rules*.md`; the protocol in `engine-protocol.md`; the user
//! guide in `docs/`.
//!
//! Layers, bottom up (tests/architecture checks them: no import goes up a layer, nor from one
//! front end into another but the few it lists): [`platform`] (the clock and seeds, which
//! WebAssembly gets from its page); [`files`] (how any of them reads and writes
//! the user's files: bounded reads, and files replaced whole or not at all); [`games`] (a
//! folder per game, Bashni, Turkish and Russian draughts and Lasca, each with its rules,
//! notation and evaluation, on a shared toolkit, [`games::kit`], that holds the traits every
//! game implements); [`search`] (the engine, generic over those traits); what the front ends
//! share of games and searches: [`display`], [`game_text`] (what they say differently per
//! game), [`record`] (game records, PDN, openings, time controls) and [`review`] (a game's
//! moves judged); [`protocol`] (stdin/stdout for GUIs, and
//! the options and engine flags the front ends take from it); [`hub`] (the Hub protocol);
//! [`client`] (an engine child process driven over the protocol); then the front ends:
//! [`analyse`], [`bench`](mod@bench), [`matchrun`] (engine-vs-engine matches), [`play`]
//! (a person against the engine), [`serve`] (the same in the browser), [`datagen`], [`tune`]
//! and [`train`]; and [`cli`], which ties them together.
//!
//! The front ends (from [`client`] up) and the command line need an operating system: they
//! come with the default feature `native`. Without it the engine core (games, search,
//! protocol and Hub sessions, records) builds for `wasm32-unknown-unknown` (wasm/), and with
//! it what the browser needs of the rest: [`client`]'s reading of an engine's answers and
//! [`serve`]'s core (its games and their API as functions, `serve::browser` its back end on
//! one thread with in-process engines), without their processes and HTTP.

#[cfg(feature = "native")]
pub mod analyse;
#[cfg(feature = "native")]
pub mod bench;
#[cfg(feature = "native")]
pub mod cli;
pub mod client;
pub mod closed_pipe;
#[cfg(feature = "native")]
pub mod datagen;
pub mod display;
pub mod egdb;
pub mod files;
pub mod game_text;
pub mod games;
pub mod hub;
#[cfg(feature = "native")]
pub mod matchrun;
pub mod platform;
#[cfg(feature = "native")]
pub mod play;
pub mod protocol;
#[cfg(feature = "native")]
pub mod puzzles;
pub mod record;
pub mod review;
pub mod search;
pub mod serve;
#[cfg(feature = "native")]
pub mod shard;
#[cfg(feature = "native")]
pub mod train;
#[cfg(feature = "native")]
pub mod tune;
