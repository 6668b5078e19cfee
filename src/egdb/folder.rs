//! The default folder of the endgame databases (docs/egdb.md, "The default folder"): where
//! `bashni egdb build` writes when told no folder, and where the engine and the other front
//! ends look when told none.

use std::path::PathBuf;

/// The environment variable that names the default folder of the endgame databases instead
/// of [`default_dir`]'s own choice (empty: no default folder).
pub const EGDB_DIR_VAR: &str = "BASHNI_EGDB_DIR";

/// The folder the engine reads endgame databases from when told none, and `bashni egdb
/// build` writes to when told none: `$BASHNI_EGDB_DIR` if set, else `egdb` in the user's data
/// folder ([`crate::platform::data_dir`]: `~/.local/share/bashni/egdb` on Linux).
pub fn default_dir() -> Option<PathBuf> {
    match std::env::var_os(EGDB_DIR_VAR) {
        Some(dir) if dir.is_empty() => None,
        Some(dir) => Some(PathBuf::from(dir)),
        None => crate::platform::data_dir().map(|d| d.join("egdb")),
    }
}
