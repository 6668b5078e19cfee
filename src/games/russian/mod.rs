//! Russian draughts (docs/rules-russian.md): Bashni's board, start and moves without towers.
//! Jumped pieces stay on the board until the move ends (they block and may not be jumped
//! twice), a man crowned during a capture goes on as a king, a capturing king lands where it
//! can go on if it can, any capture sequence may be chosen, and sequences with the same start,
//! end and captured pieces are one move.
//!
//! Squares, bitboards, moves, move lists and move errors are Bashni's (`crate::games::bashni`), used
//! as they are.

pub mod bench;
pub mod eval;
pub mod movegen;
pub mod nnue;
pub mod notation;
pub mod position;

pub use notation::{FenError, START_FEN};
pub use position::Position;

use crate::games::kit::Color;
use crate::games::kit::game::{clock_rule, impl_game};
use crate::games::kit::moves::{Move, MoveList};
use crate::games::kit::nnue::NetStack;
use crate::games::kit::square::{NUM_BITS, Square};
use crate::games::kit::tower::Tower;

/// Plies in which both sides only moved kings without capturing after which the game is
/// drawn: 15 moves of each side (the Russian federation's rule).
pub const CLOCK_LIMIT: u16 = 30;

impl_game! {
    Position: Russian, Move, MoveList, squares = NUM_BITS;
    rules {
        fn to_pdn_fen(&self) -> String {
            crate::games::kit::std_fen::write(self)
        }
    }
    game {
        type Evaluator = NetStack<Position>;

        /// 326: the median depth-8 score of the start with one of Black's 12 men removed (docs/rules-russian.md;
        /// measured with network 3, and again with network 4: 100.5 centi-men).
        const MAN: i32 = 326;

        const BOOK: Option<&'static str> = Some(include_str!("../../../openings/russian.txt"));

        clock_rule!(CLOCK_LIMIT, "15-move-king-rule");

        #[inline]
        fn generate_captures(&self, list: &mut MoveList) -> bool {
            movegen::generate_captures(self, list, true)
        }

        #[inline]
        fn commanders(&self, c: Color) -> u32 {
            self.pieces(c).count()
        }

        fn tower_at(&self, file: u8, rank: u8) -> Option<Tower> {
            let sq = Square::from_coords(file, rank)?;
            Some(self.piece(sq).map_or(Tower::EMPTY, Tower::single))
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
        let expected = [1u64, 7, 49, 302, 1469, 7482, 37986, 190146];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(Rules::perft(&p, d as u32), n, "depth {d}");
        }
    }
}
