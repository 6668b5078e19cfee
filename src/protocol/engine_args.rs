//! The engine's resources as the front ends for people take them on the command line
//! (`bashni analyse`, `bashni play`): `--threads` and `--hash`, with the ranges of the
//! protocol's `Threads` and `Hash` options ([`super::options`]). It sits here, below the
//! front ends, so that they share it without importing each other.

use super::options::{HASH, THREADS};
use crate::search::Engine;

/// `--threads` and `--hash`.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = THREADS.default, value_parser = THREADS.flag())]
    pub threads: u64,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = HASH.default, value_parser = HASH.flag())]
    pub hash: u64,
}

impl EngineArgs {
    /// An engine with these resources; the error (`--hash N: why`) when the table cannot
    /// be had.
    pub fn engine(&self) -> Result<Engine, String> {
        let mut engine = Engine::new();
        engine
            .set_hash_mb(self.hash as usize)
            .map_err(|e| format!("--hash {}: {e}", self.hash))?;
        engine.set_threads(self.threads as usize);
        Ok(engine)
    }
}
