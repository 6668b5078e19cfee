//! Russian draughts' network: one input per (square, own or enemy, man or king) over the 32
//! dark squares from each side's view, 128 inputs ([`crate::games::kit::nnue::pieces`]).

use super::Position;
use crate::games::kit::nnue::pieces::{PieceBoard, piece_features};
use crate::games::kit::square::{DENSE, VALID_MASK};

impl PieceBoard for Position {
    const SQUARES: usize = 32;
    const SQUARE_BITS: u64 = VALID_MASK;

    #[inline(always)]
    fn planes(&self) -> [u64; 3] {
        use crate::games::kit::Color;
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

piece_features!(
    Position,
    "russian",
    32,
    include_bytes!("../../../nets/russian-nnue-4.nnue"),
    network_eighths = crate::games::kit::nnue::NETWORK_ALONE
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::nnue::pieces::check_inputs;

    #[test]
    fn inputs_are_one_per_square_and_kind() {
        check_inputs::<Position>();
    }

    crate::games::kit::nnue::stack::checks::network_tests!(
        Position,
        games = 100,
        least = 3_000,
        bytes = EMBEDDED_BYTES
    );
}
