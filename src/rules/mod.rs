//! The rules core: the board, towers, positions, legal moves and notation.
//!
//! Everything here follows the project's rules document, `docs/rules.md`. Nothing in this
//! folder knows about search, evaluation or any front end.

pub mod bitboard;
pub(crate) mod captures;
pub mod color;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod setup;
pub mod square;
pub mod tower;
pub(crate) mod zobrist;

pub use color::Color;
pub use moves::{Move, MoveList};
pub use position::Position;
pub use setup::{Setup, SetupError};
pub use square::Square;
pub use tower::{Piece, Tower};
