//! A set of squares as one `u64` in the ghost layout (see [`crate::games::kit::square`]).

use crate::games::kit::color::Color;
use crate::games::kit::square::{Direction, Square, VALID_MASK};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of dark squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 squares.
    pub const ALL: Bitboard = Bitboard(VALID_MASK);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(sq.bit())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Every square moved one step in `dir`; squares that leave the board vanish.
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        let s = dir.shift();
        let v = if s > 0 { self.0 << s } else { self.0 >> -s };
        Bitboard(v & VALID_MASK)
    }

    /// Squares of rank `rank` (0-based).
    pub const fn rank(rank: u8) -> Bitboard {
        let mut b = 0;
        let mut f = 0;
        while f < 8 {
            if let Some(sq) = Square::from_coords(f, rank) {
                b |= sq.bit();
            }
            f += 1;
        }
        Bitboard(b)
    }

    /// The far rank of `us`, where its men become kings (computed at compile time).
    #[inline(always)]
    pub const fn promotion(us: Color) -> Bitboard {
        const WHITE: Bitboard = Bitboard::rank(Color::White.promotion_rank());
        const BLACK: Bitboard = Bitboard::rank(Color::Black.promotion_rank());
        match us {
            Color::White => WHITE,
            Color::Black => BLACK,
        }
    }

    /// Adds `sq`.
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= sq.bit();
    }

    /// Removes `sq`.
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !sq.bit();
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::from_index(i)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & VALID_MASK)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_matches_step() {
        for sq in Square::all() {
            for dir in Direction::ALL {
                let shifted = Bitboard::from_square(sq).shift(dir);
                match sq.step(dir) {
                    Some(to) => assert_eq!(shifted, Bitboard::from_square(to)),
                    None => assert!(shifted.is_empty()),
                }
            }
        }
        assert_eq!(Bitboard::ALL.count(), 32);
        assert_eq!(Bitboard::rank(0).count(), 4);
    }
}
