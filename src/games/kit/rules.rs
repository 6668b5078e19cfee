//! The rules trait every game implements: legal moves, playing them, FEN and move text, and
//! perft. Code that serves every game is generic over `R: Rules` and so monomorphised per game.

use super::color::Color;
use super::perft::{Divide, divide_until, perft_until};
use super::variant::Variant;
use std::fmt;
use std::hash::Hash;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::AtomicBool;

/// A move list the search can fill and reorder in place.
pub trait MoveBuf<M>: Deref<Target = [M]> + DerefMut + Default + Send {
    /// Appends a move.
    fn push(&mut self, m: M);
}

/// A game's rules, implemented by its position type.
///
/// Everything is "by the move rules": legal moves, playing them, and the end of the game when
/// the side to move has no legal move (no piece left, or every piece blocked). Draw rules
/// (repetition, no-progress clocks) and adjudications are not part of this trait.
pub trait Rules: Clone + fmt::Debug + Send + Sync + Sized + 'static {
    /// A move; its `Display` is the move text the game's notation writes.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync;
    /// The legal moves of one position.
    type MoveList: MoveBuf<Self::Move>;
    /// Why a FEN was refused.
    type FenError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;
    /// Why a move text was refused.
    type MoveError: std::error::Error + Clone + PartialEq + Send + Sync + 'static;

    /// Which game this is.
    const VARIANT: Variant;
    /// The FEN of the initial position.
    const START_FEN: &'static str;

    /// The initial position.
    fn startpos() -> Self;

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// Every legal move (captures if any is compulsory, else quiet moves), each once.
    fn legal_moves(&self) -> Self::MoveList;

    /// Whether the side to move has a legal move.
    fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// Number of legal moves (perft's last ply; a game may count without building a list).
    fn count_legal_moves(&self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// Plays a legal move (one from [`Rules::legal_moves`] of this position) in place.
    fn play(&mut self, m: &Self::Move);

    /// The position after a legal move.
    fn played(&self, m: &Self::Move) -> Self {
        let mut p = self.clone();
        Rules::play(&mut p, m);
        p
    }

    /// Whether a move captures.
    fn is_capture(m: &Self::Move) -> bool;

    /// The deepest perft `bashni perft` accepts in this game: deeper would run for days.
    const MAX_PERFT_DEPTH: u32 = super::perft::MAX_PERFT_DEPTH;

    /// The position's hash (pieces and side to move), kept incrementally by [`Rules::play`].
    fn hash(&self) -> u64;

    /// Reads a FEN in the game's own format.
    fn from_fen(text: &str) -> Result<Self, Self::FenError>;

    /// Writes the position's FEN (always with every field).
    fn to_fen(&self) -> String;

    /// The FEN a PDN `[FEN]` tag gives for this position: the game's own FEN, or for the
    /// games that have one the standard draughts FEN ([`crate::games::kit::std_fen`]: `W:Wa1,c1:Bb8`).
    fn to_pdn_fen(&self) -> String {
        self.to_fen()
    }

    /// Reads a move text and checks it against the legal moves.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// The winner if the game is over by the move rules: the side to move has no legal move
    /// and loses.
    fn winner(&self) -> Option<Color> {
        (!self.has_legal_move()).then(|| self.side_to_move().opponent())
    }

    /// Perft that gives up once `stop` is set: `None` if stopped. A position without a legal
    /// move counts 0 at depth 1 or more.
    fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
        perft_until(self, depth, stop)
    }

    /// Number of move sequences of length `depth` (runs to the end).
    fn perft(&self, depth: u32) -> u64 {
        let never = AtomicBool::new(false);
        Rules::perft_until(self, depth, &never).expect("the flag is never set")
    }

    /// Per-root-move perft on `threads` threads, or `None` if stopped.
    fn divide_until(
        &self,
        depth: u32,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<Divide<Self::Move>> {
        divide_until(self, depth, threads, stop)
    }
}
