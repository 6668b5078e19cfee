//! Turkish draughts (docs/rules-turkish.md): 64 squares, men moving and capturing forward and
//! sideways, flying kings along ranks and files, the longest capture compulsory, captured
//! pieces removed as they are jumped, no 180-degree turn between two jumps, and a man crowned
//! during a capture going on as a king.

pub mod bench;
pub mod board;
pub mod eval;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod position;

pub use moves::Move;
pub use notation::{FenError, MoveError, START_FEN};
pub use position::Position;

use crate::games::kit::Color;
use crate::games::kit::game::{clock_rule, impl_game};
use crate::games::kit::movelist::MoveList;
use crate::games::kit::nnue::NetStack;
use crate::games::kit::tower::{Piece, Tower};

/// Plies without a capture or a man's move after which the game is drawn: 25 moves of each
/// side (as FMJD's 25-move rule for kings in international draughts; the seed is silent).
pub const CLOCK_LIMIT: u16 = 50;

impl_game! {
    Position: Turkish, Move, MoveList<Move>, squares = 64;
    rules {
        fn to_pdn_fen(&self) -> String {
            crate::games::kit::std_fen::write(self)
        }
    }
    game {
        type Evaluator = NetStack<Position>;

        /// 51: the median depth-8 score of the start with one of Black's 16 men removed (docs/rules-turkish.md).
        const MAN: i32 = 51;

        const BOOK: Option<&'static str> = Some(include_str!("../../../openings/turkish.txt"));

        clock_rule!(CLOCK_LIMIT, "50-ply-rule");

        /// 25: 15 lost 45.4 ± 38.4 Elo at 1+0.01 (longer games, whose endings need the
        /// time; docs/measurements.md, "Time management").
        const MOVES_TO_GO: u32 = 25;

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
        fn commanders(&self, c: Color) -> u32 {
            self.pieces(c).count_ones()
        }

        fn tower_at(&self, file: u8, rank: u8) -> Option<Tower> {
            let sq = board::Square::from_coords(file, rank)?;
            Some(
                self.piece(sq)
                    .map_or(Tower::EMPTY, |(c, king)| Tower::single(Piece::new(c, king))),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::rules::Rules;

    #[test]
    fn perft_from_the_start() {
        let p = Position::startpos();
        let expected = [1u64, 8, 64, 708, 7538, 85090];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(Rules::perft(&p, d as u32), n, "depth {d}");
        }
    }
}
