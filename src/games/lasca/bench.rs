//! The positions `bashni bench --variant lasca` searches: its fingerprint.

use crate::games::lasca::notation::START_FEN;

/// Lasca's bench positions: the start, and positions from every phase of games.
pub const POSITIONS: &[&str] = &[START_FEN];
