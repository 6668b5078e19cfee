//! The network's inputs: one per occupied square and perspective.
//!
//! A perspective is a colour. From White's perspective the board is as it stands; from
//! Black's it is turned half round (square `a1` becomes `h8`), and "own" means Black's, so a
//! position and its colour-swapped twin give the same inputs to the side to move.

use super::{INPUTS, KINDS};
use crate::games::bashni::position::Position;
use crate::games::kit::color::Color;
use crate::games::kit::square::{DENSE, DENSE_FLIPPED, Square};
use crate::games::kit::tower::Tower;

/// Bits of a tower's packed pieces that hold colours (bit 0 of each 2-bit piece, 24 pieces).
const COLOUR_BITS: u64 = 0x5555_5555_5555;

/// The input of the non-empty `tower` on `sq` from `persp`'s view: the square's [`KINDS`]
/// inputs, then the tower's kind among them: its commander (own or enemy, man or king) and
/// the own and enemy pieces below (0, 1, 2, 3 or more).
#[inline]
pub fn index(persp: Color, sq: Square, tower: Tower) -> usize {
    let black = black_below(tower);
    let white = tower.height() as u32 - 1 - black;
    let (dense, own_below, enemy_below) = match persp {
        Color::White => (DENSE[sq.index()], white, black),
        Color::Black => (DENSE_FLIPPED[sq.index()], black, white),
    };
    let top = tower.top();
    let commander = ((top.color() != persp) as usize) << 1 | top.is_king() as usize;
    let kind = (commander * 4 + own_below.min(3) as usize) * 4 + enemy_below.min(3) as usize;
    let i = dense as usize * KINDS + kind;
    debug_assert!(i < INPUTS);
    i
}

/// Black pieces under the commander.
#[inline]
fn black_below(tower: Tower) -> u32 {
    ((tower.raw() >> 2) & COLOUR_BITS & ((1u64 << (2 * (tower.height() - 1))) - 1)).count_ones()
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
    fn counts_below_are_by_colour_and_capped_at_three() {
        let w = Piece::new(Color::White, false);
        let b = Piece::new(Color::Black, false);
        let t = Tower::from_pieces(&[w, b, b, w, b, b, b]).unwrap();
        assert_eq!(black_below(t), 5);
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
