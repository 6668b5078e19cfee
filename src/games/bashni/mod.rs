//! Bashni (Russian column checkers): its position, move generation, notation and FEN, setup,
//! perft, evaluation ([`eval`]) and network features ([`nnue`]), and its impls of the
//! [`Rules`](crate::games::kit::rules::Rules) and [`Game`](crate::games::Game) traits (`impls.rs`).
//!
//! Everything here follows the project's rules document, `docs/rules.md`. Nothing in this
//! folder knows about the search or any front end.

pub mod bench;
pub(crate) mod captures;
pub mod eval;
pub mod game;
mod impls;
pub mod movegen;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod position;
pub mod setup;

pub use crate::games::kit::moves::{Move, MoveList};
pub use crate::games::kit::square::Square;
pub use crate::games::kit::{Color, Piece, Tower};
pub use position::Position;
pub use setup::{Setup, SetupError};
