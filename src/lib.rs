//! bashni: an engine for Bashni (Russian column checkers).
//!
//! The rules it plays are in `docs/rules.md`; the protocol in `engine-protocol.md`.
//!
//! Layers, bottom up: [`games`] (a folder per game, Bashni, Turkish and Russian draughts, each
//! with its rules, notation and evaluation, on a shared toolkit, [`games::kit`], that holds the
//! traits every game implements), [`search`] (the engine, generic over those traits), then what front ends share: [`record`] (game records, PDN, openings, time controls) and
//! [`client`] (an engine child process driven over the protocol); then the front ends:
//! [`protocol`] (stdin/stdout for GUIs), [`analyse`], [`bench`],
//! [`matchrun`] (engine-vs-engine matches), [`play`] (a person against the engine),
//! [`serve`] (the same in the browser) and [`cli`], which ties them together. [`files`] is how
//! any of them reads and writes the user's files: bounded reads, and files replaced whole or
//! not at all.

pub mod analyse;
pub mod bench;
pub mod cli;
pub mod client;
pub mod closed_pipe;
pub mod datagen;
pub mod display;
pub mod files;
pub mod games;
pub mod hub;
pub mod matchrun;
pub mod play;
pub mod protocol;
pub mod record;
pub mod review;
pub mod search;
pub mod serve;
pub mod shard;
pub mod train;
pub mod tune;
