//! The network's inputs: one per occupied square and perspective.
//!
//! A perspective is a colour. From White's perspective the board is as it stands; from
//! Black's it is turned half round (square `a1` becomes `h8`), and "own" means Black's, so a
//! position and its colour-swapped twin give the same inputs to the side to move.

use super::INPUTS;
use crate::games::bashni::position::Position;
use crate::games::kit::color::Color;
use crate::games::kit::nnue::towers::{KINDS, kind};
use crate::games::kit::square::{DENSE, DENSE_FLIPPED, Square};
use crate::games::kit::tower::Tower;

/// The input of the non-empty `tower` on `sq` from `persp`'s view: the square's [`KINDS`]
/// inputs, then the tower's [`kind`] among them.
#[inline]
pub fn index(persp: Color, sq: Square, tower: Tower) -> usize {
    let dense = match persp {
        Color::White => DENSE[sq.index()],
        Color::Black => DENSE_FLIPPED[sq.index()],
    };
    let i = dense as usize * KINDS + kind(persp, tower);
    debug_assert!(i < INPUTS);
    i
}

/// The active inputs of `pos` from `persp`'s view, one per occupied square, in square order.
pub fn active(pos: &Position, persp: Color) -> impl Iterator<Item = usize> + '_ {
    pos.occupied()
        .map(move |sq| index(persp, sq, pos.tower(sq)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bashni::notation::parse_fen;
    use crate::games::kit::tower::Piece;

    #[test]
    fn every_square_has_its_own_dense_index() {
        let mut seen = [false; 32];
        for sq in Square::all() {
            let d = DENSE[sq.index()] as usize;
            assert!(!seen[d]);
            seen[d] = true;
            let f = DENSE_FLIPPED[sq.index()] as usize;
            assert_eq!(f, 31 - d, "turning the board half round reverses the order");
        }
    }

    #[test]
    fn a_tower_on_a_square_is_its_kind_among_the_square_s_inputs() {
        let w = Piece::new(Color::White, false);
        let b = Piece::new(Color::Black, false);
        let t = Tower::from_pieces(&[w, b, b, w, b, b, b]).unwrap();
        let sq = Square::parse("c3").unwrap();
        // White's view: own man commands, 1 own and 5 (capped 3) enemy below.
        let d = DENSE[sq.index()] as usize;
        let (own_man, enemy_man) = (0, 2);
        assert_eq!(
            index(Color::White, sq, t),
            d * KINDS + (own_man * 4 + 1) * 4 + 3
        );
        // Black's view: enemy man commands, 3 (capped) own, 1 enemy below.
        let d = DENSE_FLIPPED[sq.index()] as usize;
        assert_eq!(
            index(Color::Black, sq, t),
            d * KINDS + (enemy_man * 4 + 3) * 4 + 1
        );
    }

    #[test]
    fn one_input_per_tower() {
        let pos = parse_fen("8/8/8/8/3(bw)4/8/8/w7 w").unwrap();
        assert_eq!(active(&pos, Color::White).count(), 2);
        assert_eq!(Position::startpos().occupied().count(), 24);
        assert_eq!(active(&Position::startpos(), Color::Black).count(), 24);
    }
}
