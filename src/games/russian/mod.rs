//! Russian draughts (docs/rules-russian.md): Bashni's board, start and moves without towers.
//! Jumped pieces stay on the board until the move ends (they block and may not be jumped
//! twice), a man crowned during a capture goes on as a king, a capturing king lands where it
//! can go on if it can, any capture sequence may be chosen, and sequences with the same start,
//! end and captured pieces are one move.
//!
//! Squares, bitboards, moves, move lists and move errors are Bashni's (`crate::rules`), used
//! as they are.

pub mod movegen;
pub mod notation;
pub mod position;

pub use notation::{FenError, START_FEN};
pub use position::Position;

use crate::games::{Rules, Variant};
use crate::rules::notation::MoveError;
use crate::rules::{Color, Move, MoveList};

impl Rules for Position {
    type Move = Move;
    type MoveList = MoveList;
    type FenError = FenError;
    type MoveError = MoveError;

    const VARIANT: Variant = Variant::Russian;
    const START_FEN: &'static str = START_FEN;

    fn startpos() -> Position {
        Position::startpos()
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.side()
    }

    #[inline]
    fn legal_moves(&self) -> MoveList {
        movegen::legal_moves(self)
    }

    #[inline]
    fn has_legal_move(&self) -> bool {
        movegen::has_legal_move(self)
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        movegen::count_legal_moves(self)
    }

    #[inline]
    fn play(&mut self, m: &Move) {
        Position::play(self, m);
    }

    #[inline]
    fn is_capture(m: &Move) -> bool {
        m.is_capture()
    }

    #[inline]
    fn hash(&self) -> u64 {
        Position::hash(self)
    }

    fn from_fen(text: &str) -> Result<Position, FenError> {
        notation::parse_fen(text)
    }

    fn to_fen(&self) -> String {
        notation::to_fen(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_from_the_start() {
        let p = Position::startpos();
        let expected = [1u64, 7, 49, 302, 1469, 7482, 37986, 190146];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(Rules::perft(&p, d as u32), n, "depth {d}");
        }
    }
}
