//! Bashni's side of the network: its inputs ([`features`]) and its evaluator in the search
//! ([`AccumulatorStack`]); the machinery (layers, accumulator, file format) is the toolkit's
//! ([`crate::games::kit::nnue`]).

pub mod features;
mod stack;

pub use stack::AccumulatorStack;

use crate::games::bashni::position::Position;
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::color::Color;
use crate::games::kit::moves::{MAX_JUMPS, Move};
use crate::games::kit::nnue::FeatureSet;
use crate::games::kit::square::Square;
use crate::games::kit::tower::Tower;
use arrayvec::ArrayVec;
use features::index;

/// What a move changed on the board: each touched square with its tower before and after.
#[derive(Clone, Default, Debug)]
pub struct Delta {
    changes: ArrayVec<(Square, Tower, Tower), { MAX_JUMPS + 2 }>,
}

impl Delta {
    /// The changes `m` made, `before` becoming `after`.
    #[inline]
    pub fn of_move(before: &Position, after: &Position, m: &Move) -> Delta {
        let mut delta = Delta::default();
        delta.record(before, after, m);
        delta
    }

    /// Makes this the changes `m` made, `before` becoming `after`, in place: the search
    /// keeps one per ply, and building a new one would copy its whole capacity each move.
    #[inline]
    pub fn record(&mut self, before: &Position, after: &Position, m: &Move) {
        // A bitboard, so that a square jumped twice (Bashni allows it) is counted once.
        let mut touched = Bitboard::from_square(m.from()) | Bitboard::from_square(m.to());
        for &sq in m.jumped() {
            touched.set(sq);
        }
        self.changes.clear();
        for sq in touched {
            let (old, new) = (before.tower(sq), after.tower(sq));
            if old != new {
                self.changes.push((sq, old, new));
            }
        }
    }
}

impl FeatureSet for Position {
    type Delta = Delta;

    #[inline(always)]
    fn active_inputs(&self, persp: Color, mut f: impl FnMut(usize)) {
        for sq in self.occupied() {
            f(index(persp, sq, self.tower(sq)));
        }
    }

    #[inline(always)]
    fn changed_inputs(
        delta: &Delta,
        persp: Color,
        mut sub: impl FnMut(usize),
        mut add: impl FnMut(usize),
    ) {
        for &(sq, old, new) in &delta.changes {
            if !old.is_empty() {
                sub(index(persp, sq, old));
            }
            if !new.is_empty() {
                add(index(persp, sq, new));
            }
        }
    }
}
