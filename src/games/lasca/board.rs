//! Lasca's board: the 25 playable squares of a 7x7 board (file + rank even, 0-based, so the
//! four corners are playable), numbered rank by rank from a1 (`a1 c1 e1 g1` are 0-3, `b2 d2
//! f2` 4-6, ... `a7 c7 e7 g7` 21-24), and sets of them as `u32` bitboards.
//!
//! With this numbering a square's index is `(7 * rank + file) / 2`, so a diagonal step is a
//! fixed change of index: +4 north-east, +3 north-west, -3 south-east, -4 south-west, and
//! a set of squares moves one step with one shift and one edge mask.

use crate::games::kit::Color;
use crate::games::kit::square::bit_indices;

/// Number of playable squares.
pub const NUM_SQUARES: usize = 25;
/// Every playable square.
pub const ALL: u32 = (1 << NUM_SQUARES) - 1;
/// Squares of file a.
pub const FILE_A: u32 = 1 | 1 << 7 | 1 << 14 | 1 << 21;
/// Squares of file g.
pub const FILE_G: u32 = 1 << 3 | 1 << 10 | 1 << 17 | 1 << 24;
/// Squares of rank 1.
pub const RANK_1: u32 = 0xf;
/// Squares of rank 7.
pub const RANK_7: u32 = 0xf << 21;
/// The edge squares (files a and g, ranks 1 and 7): a column there can never be jumped.
pub const EDGE: u32 = FILE_A | FILE_G | RANK_1 | RANK_7;

/// The far rank of `c`, where its soldiers become officers.
#[inline]
pub const fn promotion_mask(c: Color) -> u32 {
    match c {
        Color::White => RANK_7,
        Color::Black => RANK_1,
    }
}

/// One of the 25 playable squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if it is a playable square.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 7 && rank < 7 && (file + rank).is_multiple_of(2) {
            Some(Square((7 * rank + file) / 2))
        } else {
            None
        }
    }

    /// The square of index `i` (0..25).
    #[inline]
    pub const fn from_index(i: u8) -> Square {
        debug_assert!((i as usize) < NUM_SQUARES);
        Square(i)
    }

    /// Rank, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        2 * self.0 / 7
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        2 * self.0 - 7 * self.rank()
    }

    /// The neighbour in `dir`, if on the board.
    #[inline]
    pub const fn step(self, dir: Dir) -> Option<Square> {
        if dir.shift(self.bit()) == 0 {
            return None;
        }
        Some(Square((self.0 as i8 + dir.offset()) as u8))
    }

    /// All 25 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }
}

crate::games::kit::square::impl_square!(Square, u32, "a playable square of the 7x7 board");

/// A diagonal direction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    /// Towards file g and rank 7.
    NorthEast,
    /// Towards file a and rank 7.
    NorthWest,
    /// Towards file g and rank 1.
    SouthEast,
    /// Towards file a and rank 1.
    SouthWest,
}

impl Dir {
    /// All four.
    pub const ALL: [Dir; 4] = [
        Dir::NorthEast,
        Dir::NorthWest,
        Dir::SouthEast,
        Dir::SouthWest,
    ];

    /// The two directions a soldier of `c` moves and captures in.
    #[inline]
    pub const fn forward(c: Color) -> [Dir; 2] {
        match c {
            Color::White => [Dir::NorthEast, Dir::NorthWest],
            Color::Black => [Dir::SouthEast, Dir::SouthWest],
        }
    }

    /// The change of square index of one step.
    #[inline]
    pub const fn offset(self) -> i8 {
        match self {
            Dir::NorthEast => 4,
            Dir::NorthWest => 3,
            Dir::SouthEast => -3,
            Dir::SouthWest => -4,
        }
    }

    /// The opposite direction.
    #[inline]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::NorthEast => Dir::SouthWest,
            Dir::NorthWest => Dir::SouthEast,
            Dir::SouthEast => Dir::NorthWest,
            Dir::SouthWest => Dir::NorthEast,
        }
    }

    /// Every square of `set` moved one step this way; squares that leave the board vanish.
    #[inline]
    pub const fn shift(self, set: u32) -> u32 {
        match self {
            Dir::NorthEast => ((set & !FILE_G) << 4) & ALL,
            Dir::NorthWest => ((set & !FILE_A) << 3) & ALL,
            Dir::SouthEast => (set & !FILE_G) >> 3,
            Dir::SouthWest => (set & !FILE_A) >> 4,
        }
    }
}

/// Iterates the squares of a set, lowest index first.
#[inline]
pub fn squares(set: u32) -> impl Iterator<Item = Square> {
    bit_indices(set.into()).map(Square)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_five_squares_and_their_steps() {
        let names: Vec<String> = Square::all().map(|s| s.to_string()).collect();
        assert_eq!(names[..8].join(" "), "a1 c1 e1 g1 b2 d2 f2 a3");
        assert_eq!(names[24], "g7");
        assert_eq!(Square::parse("b1"), None);
        assert_eq!(Square::parse("h8"), None);
        assert_eq!(Square::parse("D4").unwrap().to_string(), "d4");
        for sq in Square::all() {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), Some(sq));
            for d in Dir::ALL {
                let (df, dr) = match d {
                    Dir::NorthEast => (1, 1),
                    Dir::NorthWest => (-1, 1),
                    Dir::SouthEast => (1, -1),
                    Dir::SouthWest => (-1, -1),
                };
                let f = sq.file() as i8 + df;
                let r = sq.rank() as i8 + dr;
                let want = if (0..7).contains(&f) && (0..7).contains(&r) {
                    Square::from_coords(f as u8, r as u8)
                } else {
                    None
                };
                assert_eq!(sq.step(d), want, "{sq} {d:?}");
                assert_eq!(d.shift(sq.bit()), want.map_or(0, |s| s.bit()));
            }
        }
        assert_eq!(EDGE.count_ones(), 12);
        assert_eq!(promotion_mask(Color::White).count_ones(), 4);
    }
}
