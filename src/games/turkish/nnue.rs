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
    blend = true
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
        checks::incremental_equals_recomputed::<Position>(100, 5_000);
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
