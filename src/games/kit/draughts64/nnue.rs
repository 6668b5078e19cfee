//! A draughts-64 position as the network's inputs: one input per (square, own or enemy, man or
//! king) over the 32 dark squares from each side's view, 128 inputs
//! ([`crate::games::kit::nnue::pieces`]). Russian draughts' network reads them (its
//! `nnue.rs`); a Brazilian network would read the same.

use crate::games::kit::Color;
use crate::games::kit::draughts64::{Laws, Position};
use crate::games::kit::nnue::pieces::PieceBoard;
use crate::games::kit::square::{DENSE, VALID_MASK};

impl<L: Laws> PieceBoard for Position<L> {
    const SQUARES: usize = 32;
    const SQUARE_BITS: u64 = VALID_MASK;

    #[inline(always)]
    fn planes(&self) -> [u64; 3] {
        [
            self.pieces(Color::White).0,
            self.pieces(Color::Black).0,
            self.kings().0,
        ]
    }

    /// Four dark squares a rank from a1 (`kit::square::DENSE`): turned half round, `31 - it`.
    #[inline(always)]
    fn dense(bit: u32) -> usize {
        DENSE[bit as usize] as usize
    }
}
