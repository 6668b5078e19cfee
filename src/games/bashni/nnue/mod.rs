//! Bashni's side of the network: its inputs ([`features`]: a kind of tower on a square) and
//! the network compiled in; the machinery (layers, accumulator, file format, the evaluator
//! in the search) is the toolkit's ([`crate::games::kit::nnue`]).

pub mod features;

use crate::games::bashni::position::Position;
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::color::Color;
use crate::games::kit::moves::{MAX_JUMPS, Move};
use crate::games::kit::nnue::towers::TowerDelta;
use crate::games::kit::nnue::{FeatureSet, NetShape, NetStack, Network};
use crate::games::kit::square::Square;
use features::index;
use std::sync::Arc;

/// Bashni's evaluator in the search.
pub type AccumulatorStack = NetStack<Position>;

pub use crate::games::kit::nnue::towers::KINDS;
/// Inputs per perspective: a kind of tower on a square.
pub const INPUTS: usize = 32 * KINDS;

crate::games::kit::nnue::embedded_network!(
    Position,
    include_bytes!("../../../../nets/bashni-nnue-5.nnue")
);

/// What a move changed on the board: each touched square with its tower before and after.
pub type Delta = TowerDelta<Square, { MAX_JUMPS + 2 }>;

impl FeatureSet for Position {
    const SHAPE: NetShape = NetShape {
        game: "bashni",
        inputs: INPUTS,
        kinds: KINDS,
        max_active: 24,
    };

    /// Five eighths of the network, three of the linear evaluation: the blend plays far better
    /// than the network alone (see [`blend`](crate::games::kit::nnue::blend)), and 5/8 beat the
    /// mean by +49.0 +/- 27.1 and +46.0 +/- 26.8 Elo at 10,000 nodes a move (600 games each;
    /// 6/8 scored -6.9 +/- 26.9).
    const NETWORK_EIGHTHS: i32 = 5;

    type Delta = Delta;

    fn embedded_network() -> Arc<Network> {
        Arc::clone(&EMBEDDED)
    }

    /// The touched squares (where the move started and ended, and the towers it jumped) whose
    /// towers changed.
    #[inline]
    fn record(delta: &mut Delta, before: &Position, after: &Position, m: &Move) {
        // A bitboard, so that a square jumped twice (Bashni allows it) is counted once.
        let mut touched = Bitboard::from_square(m.from()) | Bitboard::from_square(m.to());
        for &sq in m.jumped() {
            touched.set(sq);
        }
        delta.clear();
        for sq in touched {
            delta.note(sq, before.tower(sq), after.tower(sq));
        }
    }

    #[inline(always)]
    fn active_inputs(&self, persp: Color, mut f: impl FnMut(usize)) {
        for sq in self.occupied() {
            f(index(persp, sq, self.tower(sq)));
        }
    }

    #[inline(always)]
    fn changed_inputs(delta: &Delta, persp: Color, sub: impl FnMut(usize), add: impl FnMut(usize)) {
        delta.changed(persp, index, sub, add);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::games::kit::nnue::stack::checks::network_tests!(
        Position,
        games = 300,
        least = 10_000,
        bytes = EMBEDDED_BYTES
    );
}
