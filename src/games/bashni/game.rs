//! A Bashni game: the start position, the moves played, and the end-of-game rules (no legal
//! move, threefold repetition, the 30-ply rule), as every game's [`Record`] has them.

use crate::games::bashni::position::Position;
use crate::games::kit::record::{Record, RecordError};

pub use crate::games::kit::record::Outcome;

/// A Bashni game from some start position.
pub type Game = Record<Position>;

/// Why a FEN and a list of moves do not make a Bashni game.
pub type GameError = RecordError<Position>;
