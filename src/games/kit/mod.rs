//! The toolkit every game is built on, and the traits through which the engine knows them.
//!
//! Nothing here knows any one game: [`rules`] and [`game`] are the traits a game implements,
//! [`variant`] names the games; the rest is what the games share: [`color`], the 32 dark
//! squares of an 8x8 board ([`square`], [`bitboard`]), square-path moves ([`moves`]), towers
//! of pieces ([`tower`], Bashni's columns and every other game's single pieces), Zobrist keys
//! ([`zobrist`]), move text as a path of squares ([`path`]), the fields after a FEN's board ([`fen`]), set-wise move questions
//! ([`sets`]) and evaluation masks ([`masks`]) and terms ([`terms`]) of the dark squares, move lists ([`movelist`]), perft ([`perft`]), game records ([`record`]), the
//! linear-evaluation machinery ([`linear`]) and the network machinery ([`nnue`]); and the
//! whole of what the draughts-64 games (Russian and Brazilian draughts) share, generic over
//! the few laws in which they differ ([`draughts64`]).

pub mod bitboard;
pub mod color;
pub mod draughts64;
pub mod fen;
pub mod game;
pub mod linear;
pub mod masks;
pub mod movelist;
pub mod moves;
pub mod nnue;
pub mod path;
pub mod perft;
pub mod record;
pub mod rules;
pub mod sets;
pub mod square;
pub mod std_fen;
pub mod terms;
pub mod tower;
pub mod turn;
pub mod variant;
pub mod weights;
pub mod zobrist;

pub use color::Color;
pub use tower::{Piece, Tower};
