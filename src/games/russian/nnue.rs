//! Russian draughts' network: the draughts-64 piece inputs (one per square, own or enemy, man
//! or king, over the 32 dark squares from each side's view: 128 inputs,
//! [`crate::games::kit::draughts64::nnue`]) and its compiled-in network.

use super::Position;
use crate::games::kit::nnue::pieces::piece_features;

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
