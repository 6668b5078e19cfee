//! bashni: an engine for Bashni (Russian column checkers).
//!
//! The rules it plays are in `RULES.md` of the project; the protocol in `engine-protocol.md`.

pub mod analyse;
pub mod bench;
pub mod bitboard;
pub mod captures;
pub mod cli;
pub mod eval;
pub mod game;
pub mod matchrun;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod search;
pub mod square;
pub mod tower;
pub mod zobrist;
