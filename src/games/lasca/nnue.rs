//! Lasca's network: one input per (square, kind of column) over the 25 squares from each
//! side's view, Black's view the board turned half round. A column's kind is the kit's
//! tower kind ([`crate::games::kit::nnue::towers`]): its commander (own or enemy, soldier or
//! officer) and the own and enemy prisoners under it (0, 1, 2, 3 or more of each), as in
//! Bashni's network.

use super::board::{NUM_SQUARES, Square, squares};
use super::moves::{MAX_JUMPS, Move};
use super::position::Position;
use crate::games::kit::color::Color;
use crate::games::kit::nnue::towers::{KINDS, TowerDelta, kind};
use crate::games::kit::nnue::{FeatureSet, NetShape, Network};
use crate::games::kit::tower::Tower;
use std::sync::Arc;

/// Inputs per perspective: a kind of column on a square.
pub const INPUTS: usize = NUM_SQUARES * KINDS;

crate::games::kit::nnue::embedded_network!(
    Position,
    include_bytes!("../../../nets/lasca-nnue-3.nnue")
);

/// What a move changed: its start and landing squares and the columns it jumped, each with
/// its column before and after.
pub type Delta = TowerDelta<Square, { MAX_JUMPS + 2 }>;

/// The input of the non-empty `column` on `sq` from `persp`'s view. Squares are numbered
/// rank by rank from a1 (0..25), so the board turned half round is `24 - index`.
#[inline]
pub fn index(persp: Color, sq: Square, column: Tower) -> usize {
    let square = match persp {
        Color::White => sq.index(),
        Color::Black => NUM_SQUARES - 1 - sq.index(),
    };
    square * KINDS + kind(persp, column)
}

impl FeatureSet for Position {
    const SHAPE: NetShape = NetShape {
        game: "lasca",
        inputs: INPUTS,
        kinds: KINDS,
        // A position holds at most this many pieces, so at most as many columns.
        max_active: super::notation::MAX_PIECES,
    };

    const NETWORK_EIGHTHS: i32 = 6;

    type Delta = Delta;

    fn embedded_network() -> Arc<Network> {
        Arc::clone(&EMBEDDED)
    }

    #[inline]
    fn record(delta: &mut Delta, before: &Position, after: &Position, m: &Move) {
        // A set, so that the start square a capture lands on again is noted once.
        let touched = m.from().bit() | m.to().bit() | m.jumped();
        delta.clear();
        for sq in squares(touched) {
            delta.note(sq, before.column(sq), after.column(sq));
        }
    }

    #[inline(always)]
    fn active_inputs(&self, persp: Color, mut f: impl FnMut(usize)) {
        for sq in squares(self.occupied()) {
            f(index(persp, sq, self.column(sq)));
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

    #[test]
    fn every_square_and_kind_has_its_own_input_and_turning_reverses_squares() {
        let mut seen = vec![false; INPUTS];
        let man = Tower::single(crate::games::kit::tower::Piece::new(Color::White, false));
        for sq in Square::all() {
            let w = index(Color::White, sq, man);
            let b = index(Color::Black, sq, man);
            assert_eq!(w / KINDS + b / KINDS, NUM_SQUARES - 1, "{sq}");
            assert!(!seen[w]);
            seen[w] = true;
        }
        let start = Position::startpos();
        let mut n = 0;
        start.active_inputs(Color::White, |i| {
            assert!(i < INPUTS);
            n += 1;
        });
        assert_eq!(n, 22);
    }

    crate::games::kit::nnue::stack::checks::network_tests!(
        Position,
        games = 200,
        least = 5_000,
        bytes = EMBEDDED_BYTES
    );
}
