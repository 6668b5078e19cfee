//! Turkish draughts' network: one input per (square, own or enemy, man or king) over the 64
//! squares from each side's view, 256 inputs ([`crate::games::kit::nnue::pieces`]).

use super::Position;
use crate::games::kit::nnue::pieces::{PieceBoard, piece_features};

impl PieceBoard for Position {
    const SQUARES: usize = 64;
    const SQUARE_BITS: u64 = u64::MAX;

    #[inline(always)]
    fn planes(&self) -> [u64; 3] {
        use crate::games::kit::Color;
        [
            self.pieces(Color::White),
            self.pieces(Color::Black),
            self.kings(),
        ]
    }

    /// Bit `rank * 8 + file`: turned half round it is `63 - bit`.
    #[inline(always)]
    fn dense(bit: u32) -> usize {
        bit as usize
    }
}

piece_features!(
    Position,
    "turkish",
    64,
    include_bytes!("../../../nets/turkish-nnue-1.nnue"),
    network_eighths = 4
);

#[cfg(test)]
crate::games::kit::nnue::pieces::piece_network_tests!(Position, least = 5_000);
