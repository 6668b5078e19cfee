//! Turkish draughts (docs/rules-turkish.md): 64 squares, men moving and capturing forward and
//! sideways, flying kings along ranks and files, the longest capture compulsory, captured
//! pieces removed as they are jumped, no 180-degree turn between two jumps, and a man crowned
//! during a capture going on as a king.

pub mod board;
pub mod eval;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;

pub use moves::Move;
pub use notation::{FenError, MoveError, START_FEN};
pub use position::Position;

use crate::games::kit::Color;
use crate::games::kit::game::{Game, Linear};
use crate::games::kit::movelist::MoveList;
use crate::games::kit::rules::Rules;
use crate::games::kit::tower::{Piece, Tower};
use crate::games::kit::variant::Variant;

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

    fn to_pdn_fen(&self) -> String {
        crate::games::std_fen::write(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move(self, text)
    }
}

/// Plies without a capture or a man's move after which the game is drawn: 25 moves of each
/// side (as FMJD's 25-move rule for kings in international draughts; the seed is silent).
pub const CLOCK_LIMIT: u16 = 50;

impl Game for Position {
    type Evaluator = Linear;

    /// 46: the median depth-8 score of the start with one of Black's 16 men removed (docs/rules-turkish.md).
    const MAN: i32 = 46;

    const CLOCK_RULE: &'static str = "50-ply-rule";

    #[inline]
    fn clock(&self) -> u16 {
        Position::clock(self)
    }

    #[inline]
    fn clock_draw(&self) -> bool {
        Position::clock(self) >= CLOCK_LIMIT
    }

    /// One king against one man: the king's side wins (the seed: "ha solo una dama e il
    /// suo avversario una pedina").
    #[inline]
    fn decided(&self) -> Option<Color> {
        if self.occupied().count_ones() != 2 {
            return None;
        }
        let white = self.pieces(Color::White);
        let black = self.pieces(Color::Black);
        if white.count_ones() != 1 || black.count_ones() != 1 {
            return None;
        }
        match (white & self.kings() != 0, black & self.kings() != 0) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }

    #[inline]
    fn generate_captures(&self, list: &mut MoveList<Move>) -> bool {
        movegen::generate_captures(self, list)
    }

    #[inline]
    fn generate_quiets(&self, list: &mut MoveList<Move>) {
        movegen::generate_quiets(self, list)
    }

    #[inline]
    fn can_capture(&self) -> bool {
        movegen::can_capture(self)
    }

    #[inline]
    fn commanders(&self, c: Color) -> u32 {
        self.pieces(c).count_ones()
    }

    #[inline]
    fn move_key(m: &Move) -> u32 {
        m.key()
    }

    const HISTORY_SLOTS: usize = 2 * 64 * 64;

    #[inline]
    fn history_slot(&self, m: &Move) -> usize {
        (self.side().index() * 64 + m.from().index()) * 64 + m.to().index()
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
        let sq = board::Square::from_coords(file, rank)?;
        Some(
            self.piece(sq)
                .map_or(Tower::EMPTY, |(c, king)| Tower::single(Piece::new(c, king))),
        )
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
        let expected = [1u64, 8, 64, 708, 7538, 85090];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(Rules::perft(&p, d as u32), n, "depth {d}");
        }
    }
}
