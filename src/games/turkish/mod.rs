//! Turkish draughts (docs/rules-turkish.md): 64 squares, men moving and capturing forward and
//! sideways, flying kings along ranks and files, the longest capture compulsory, captured
//! pieces removed as they are jumped, no 180-degree turn between two jumps, and a man crowned
//! during a capture going on as a king.

pub mod board;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;

pub use moves::Move;
pub use notation::{FenError, MoveError, START_FEN};
pub use position::Position;

use crate::games::{MoveList, Rules, Variant};
use crate::rules::Color;

impl Rules for Position {
    type Move = Move;
    type MoveList = MoveList<Move>;
    type FenError = FenError;
    type MoveError = MoveError;

    const VARIANT: Variant = Variant::Turkish;
    const START_FEN: &'static str = START_FEN;

    fn startpos() -> Position {
        Position::startpos()
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.side()
    }

    #[inline]
    fn legal_moves(&self) -> MoveList<Move> {
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
        let expected = [1u64, 8, 64, 708, 7538, 85090];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(Rules::perft(&p, d as u32), n, "depth {d}");
        }
    }
}
