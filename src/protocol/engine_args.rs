//! The engine's resources as the front ends for people take them on the command line
//! (`bashni analyse`, `bashni play`): `--threads` and `--hash`, with the ranges of the
//! protocol's `Threads` and `Hash` options ([`super::options`]), and `--egdb` (also `bashni
//! serve`'s; without it, the default folder's tables). It sits here, below the
//! front ends, so that they share it without importing each other.

use super::options::{HASH, THREADS};
use crate::games::Variant;
use crate::search::Engine;
use crate::search::egdb::Databases;
use std::path::PathBuf;

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

    /// [`EngineArgs::engine`] with the databases of `egdb` for `variant` (its errors and
    /// notes as [`EgdbArg::open`] gives them): what `bashni analyse` and `play` search with.
    pub fn engine_with(&self, egdb: &EgdbArg, variant: Variant) -> Result<Engine, String> {
        let mut engine = self.engine()?;
        if let Some(dbs) = egdb.open(Some(variant))? {
            engine.set_egdb(Some(dbs));
        }
        Ok(engine)
    }
}

/// `--egdb DIR`: the endgame databases a front end for people gives its engine (`bashni
/// analyse`, `play`, `serve`), one definition for all of them.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EgdbArg {
    /// Endgame databases (`bashni egdb build`, docs/egdb.md) in this folder: the engine
    /// plays and values the Russian, Brazilian and Turkish positions they hold exactly
    /// (Bashni and Lasca have none). Without it, those of the default folder if there are any
    /// ($BASHNI_EGDB_DIR, else ~/.local/share/bashni/egdb on Linux: docs/egdb.md).
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
}

impl EgdbArg {
    /// The databases in the folder given, for games of `variant` (`None`: any game, as the
    /// page plays them all); the error (`--egdb: DIR...: why`) when a table is damaged, is
    /// not a regular file or the folder does not read. How many tables were read is said on
    /// stderr, and a warning when none of them serves the game (no table at all, for any
    /// game). Without `--egdb`, the default folder's tables if it has any (a table there
    /// that does not read is a warning, and none is used).
    pub fn open(&self, variant: Option<Variant>) -> Result<Option<Databases>, String> {
        let Some(dir) = self.egdb.as_deref() else {
            return Ok(match Databases::open_default() {
                Ok(Some(dbs)) => {
                    eprintln!("egdb: {} (the default folder)", dbs.summary());
                    Some(dbs)
                }
                Ok(None) => None,
                Err(e) => {
                    eprintln!("warning: egdb: {e}; no tables used");
                    None
                }
            });
        };
        let dbs = Databases::open(dir).map_err(|e| format!("--egdb: {e}"))?;
        if dbs.tables() == 0 {
            eprintln!("warning: --egdb: {}", dbs.summary());
        } else {
            eprintln!("--egdb: {}", dbs.summary());
            if let Some(why) = variant.and_then(|v| dbs.unused_by(v)) {
                eprintln!("warning: --egdb: {why}");
            }
        }
        Ok(Some(dbs))
    }
}
