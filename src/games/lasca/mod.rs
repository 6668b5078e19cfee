//! Lasca, Emanuel Lasker's column draughts (docs/rules-lasca.md): 25 squares of a 7x7
//! board, soldiers stepping and jumping one square diagonally forward, officers one square
//! any diagonal way, captures compulsory with a free choice between them and continued while
//! the column can jump again, no column jumped twice in one move, only the commander of a
//! jumped column taken (to the bottom of the capturing column), and a soldier's promotion
//! ending the move. A side with no legal move loses; Lasca has no draw rule, and the
//! engine's draw policy (threefold repetition, [`CLOCK_LIMIT`] plies without a capture) is
//! an adjudication, not a rule.

pub mod bench;
pub mod board;
pub mod eval;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod position;

pub use moves::Move;
pub use notation::{FenError, MoveError, START_FEN};
pub use position::Position;

use crate::games::kit::Color;
use crate::games::kit::game::{clock_rule, impl_game};
use crate::games::kit::movelist::MoveList;
use crate::games::kit::nnue::NetStack;
use crate::games::kit::tower::Tower;
use std::sync::atomic::AtomicBool;

/// Plies without a capture after which the engine adjudicates a draw: 50 moves of each
/// side. Lasca has no draw rule; this is the engine's policy for matches and play, like the
/// threefold repetition it also applies.
pub const CLOCK_LIMIT: u16 = 100;

impl_game! {
    Position: Lasca, Move, MoveList<Move>, squares = board::NUM_SQUARES;
    rules {
        const MAX_PERFT_DEPTH: u32 = perft::MAX_PERFT_DEPTH;

        fn perft_until(&self, depth: u32, stop: &AtomicBool) -> Option<u64> {
            perft::perft_until(self, depth, stop)
        }
    }
    game {
        type Evaluator = NetStack<Position>;

        /// 208: the median depth-8 score of the start with one of Black's 11 soldiers removed,
        /// with network 3 blended 6/8 (docs/rules-lasca.md, "Scores").
        const MAN: i32 = 208;

        const BOOK: Option<&'static str> = Some(include_str!("../../../openings/lasca.txt"));

        clock_rule!(CLOCK_LIMIT, "100-ply-rule");

        /// 25, as before: 15 was not played in Lasca.
        const MOVES_TO_GO: u32 = 25;

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
            Some(self.column(sq))
        }
    }
}
