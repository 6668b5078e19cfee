//! Brazilian draughts' network: the draughts-64 piece inputs, the same as Russian draughts'
//! (one per square, own or enemy, man or king, over the 32 dark squares from each side's
//! view: 128 inputs, [`crate::games::kit::draughts64::nnue`]), and its compiled-in network.

use super::Position;
use crate::games::kit::nnue::pieces::piece_features;

piece_features!(
    Position,
    "brazilian",
    32,
    include_bytes!("../../../nets/brazilian-nnue-1.nnue"),
    network_eighths = crate::games::kit::nnue::NETWORK_ALONE
);

#[cfg(test)]
crate::games::kit::nnue::pieces::piece_network_tests!(Position, least = 3_000);
