//! A client of the engine protocol (engine-protocol.md): one engine program started as a child
//! process and driven over its stdin/stdout, as `bashni match` and `bashni serve` use it.

pub mod engine;
pub mod spec;
