//! Russian draughts (docs/rules-russian.md): Bashni's board, start and moves without towers.
//! Jumped pieces stay on the board until the move ends (they block and may not be jumped
//! twice), a man crowned during a capture goes on as a king, a capturing king lands where it
//! can go on if it can, any capture sequence may be chosen, and sequences with the same start,
//! end and captured pieces are one move.
//!
//! Squares, bitboards, moves, move lists and move errors are Bashni's (`crate::games::bashni`), used
//! as they are.

pub mod eval;
pub mod movegen;
pub mod notation;
pub mod position;

pub use notation::{FenError, START_FEN};
pub use position::Position;

use crate::games::kit::Color;
use crate::games::kit::game::{Game, Linear};
use crate::games::kit::moves::{Move, MoveList};
use crate::games::kit::path::MoveError;
use crate::games::kit::rules::Rules;
use crate::games::kit::square::{NUM_BITS, Square};
use crate::games::kit::tower::Tower;
use crate::games::kit::variant::Variant;

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

    fn to_pdn_fen(&self) -> String {
        crate::games::std_fen::write(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}

/// Plies in which both sides only moved kings without capturing after which the game is
/// drawn: 15 moves of each side (the Russian federation's rule).
pub const CLOCK_LIMIT: u16 = 30;

impl Game for Position {
    type Evaluator = Linear;

    /// 570: the median depth-8 score of the start with one of Black's 12 men removed (docs/rules-russian.md).
    const MAN: i32 = 570;

    const CLOCK_RULE: &'static str = "15-move-king-rule";

    #[inline]
    fn clock(&self) -> u16 {
        Position::clock(self)
    }

    #[inline]
    fn clock_draw(&self) -> bool {
        Position::clock(self) >= CLOCK_LIMIT
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList) -> bool {
        movegen::generate_captures(self, list, true)
    }

    #[inline]
    fn generate_quiets(&self, list: &mut MoveList) {
        movegen::generate_quiets(self, list)
    }

    #[inline]
    fn can_capture(&self) -> bool {
        movegen::can_capture(self)
    }

    #[inline]
    fn commanders(&self, c: Color) -> u32 {
        self.pieces(c).count()
    }

    #[inline]
    fn move_key(m: &Move) -> u32 {
        m.key()
    }

    const HISTORY_SLOTS: usize = 2 * NUM_BITS * NUM_BITS;

    #[inline]
    fn history_slot(&self, m: &Move) -> usize {
        (self.side().index() * NUM_BITS + m.from().index()) * NUM_BITS + m.to().index()
    }

    #[inline]
    fn capture_gain(&self, m: &Move) -> i32 {
        eval::capture_gain(self, m)
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn fullmove(&self) -> u16 {
        Position::fullmove(self)
    }

    fn tower_at(&self, file: u8, rank: u8) -> Option<Tower> {
        let sq = Square::from_coords(file, rank)?;
        Some(self.piece(sq).map_or(Tower::EMPTY, Tower::single))
    }

    fn move_squares(m: &Move) -> Vec<(u8, u8)> {
        m.path().map(|sq| (sq.file(), sq.rank())).collect()
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
