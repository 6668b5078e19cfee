//! The 64-square board of Turkish draughts: squares (bit index = rank * 8 + file, so `a1` is
//! bit 0 and `h8` bit 63), the four orthogonal directions, and sets of squares as plain `u64`.

use crate::games::kit::Color;
use crate::games::kit::square::bit_indices;

/// Squares of file a (shifting west from it leaves the board).
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Squares of file h (shifting east from it leaves the board).
pub const FILE_H: u64 = FILE_A << 7;

/// Squares of rank `r` (0 = rank 1).
pub const fn rank_mask(r: u8) -> u64 {
    0xff << (8 * r as u32)
}

/// The far rank of `c`, where its men are crowned.
#[inline]
pub const fn promotion_mask(c: Color) -> u64 {
    rank_mask(c.promotion_rank())
}

/// One of the 64 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// The square of bit index `i` (0..64).
    #[inline]
    pub const fn from_index(i: u8) -> Square {
        debug_assert!(i < 64);
        Square(i & 63)
    }

    /// File, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Rank, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The neighbour in `dir`, if on the board.
    #[inline]
    pub const fn step(self, dir: Dir) -> Option<Square> {
        let (df, dr) = dir.delta();
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 {
            return None;
        }
        Square::from_coords(f as u8, r as u8)
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

crate::games::kit::square::impl_square!(Square, u64, "a square of the board");

/// An orthogonal direction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    /// Towards rank 8.
    North,
    /// Towards file h.
    East,
    /// Towards rank 1.
    South,
    /// Towards file a.
    West,
}

impl Dir {
    /// All four, in the order moves are generated.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// `(file, rank)` change of one step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }

    /// The opposite direction (a 180-degree turn).
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// The directions a man of `c` moves and captures in: forward and sideways.
    pub const fn man_dirs(c: Color) -> [Dir; 3] {
        match c {
            Color::White => [Dir::North, Dir::East, Dir::West],
            Color::Black => [Dir::South, Dir::East, Dir::West],
        }
    }

    /// Every square of `set` moved one step this way; squares that leave the board vanish.
    #[inline]
    pub const fn shift(self, set: u64) -> u64 {
        match self {
            Dir::North => set << 8,
            Dir::South => set >> 8,
            Dir::East => (set & !FILE_H) << 1,
            Dir::West => (set & !FILE_A) >> 1,
        }
    }
}

/// Iterates the squares of a set, lowest bit first.
#[inline]
pub fn squares(set: u64) -> impl Iterator<Item = Square> {
    bit_indices(set).map(Square)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_steps_agree_with_shifts() {
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h8").unwrap().index(), 63);
        assert_eq!(Square::parse("D3").unwrap().to_string(), "d3");
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            for d in Dir::ALL {
                let expect = sq.step(d).map_or(0, |s| s.bit());
                assert_eq!(d.shift(sq.bit()), expect, "{sq} {d:?}");
                if let Some(s) = sq.step(d) {
                    assert_eq!(s.step(d.reverse()), Some(sq));
                }
            }
        }
        assert_eq!(squares(FILE_H | rank_mask(0)).count(), 15);
        assert_eq!(promotion_mask(Color::White), rank_mask(7));
    }
}
