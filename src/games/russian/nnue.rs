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
    include_bytes!("../../../nets/russian-nnue-1.nnue"),
    blend = false
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kit::nnue::pieces::check_inputs;
    use crate::games::kit::nnue::stack::checks;

    #[test]
    fn inputs_are_one_per_square_and_kind() {
        check_inputs::<Position>();
    }

    #[test]
    fn incremental_equals_recomputed_after_every_move_of_random_games() {
        checks::incremental_equals_recomputed::<Position>(100, 3_000);
    }

    #[test]
    fn a_position_and_its_colour_swapped_twin_evaluate_alike_for_the_side_to_move() {
        checks::colour_symmetric::<Position>();
    }

    #[test]
    fn the_embedded_network_parses_and_round_trips() {
        checks::embedded_round_trips::<Position>(EMBEDDED_BYTES);
    }
}
