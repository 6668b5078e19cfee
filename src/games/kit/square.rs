//! Squares of the 32 dark squares, in the "ghost square" layout used by the bitboards.
//!
//! Bit layout (35 bits, ghosts at 8, 17, 26): ranks 2m and 2m+1 share a block of nine bits,
//! so that the four diagonal neighbours of every square are a fixed shift away
//! (north-east = +4, north-west = +5, south-west = -4, south-east = -5). A shift that leaves
//! the board lands on a ghost bit or beyond bit 34 and is masked off.

use std::fmt;

/// Number of bit positions the board uses (32 squares and 3 ghosts).
pub const NUM_BITS: usize = 35;

/// One of the 32 dark squares, stored as its bit index in the ghost layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Square(u8);

/// A diagonal direction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Towards rank 8 and file h.
    NorthEast,
    /// Towards rank 8 and file a.
    NorthWest,
    /// Towards rank 1 and file a.
    SouthWest,
    /// Towards rank 1 and file h.
    SouthEast,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// Bit shift of this direction in the ghost layout (positive = left shift).
    pub const fn shift(self) -> i32 {
        match self {
            Direction::NorthEast => 4,
            Direction::NorthWest => 5,
            Direction::SouthWest => -4,
            Direction::SouthEast => -5,
        }
    }

    /// The opposite direction.
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::NorthEast => Direction::SouthWest,
            Direction::NorthWest => Direction::SouthEast,
            Direction::SouthWest => Direction::NorthEast,
            Direction::SouthEast => Direction::NorthWest,
        }
    }
}

/// Bit mask of the 32 real squares.
pub const VALID_MASK: u64 = ((1u64 << NUM_BITS) - 1) & !(1 << 8) & !(1 << 17) & !(1 << 26);

const fn index_of(file: u8, rank: u8) -> u8 {
    let m = rank / 2;
    if rank.is_multiple_of(2) {
        9 * m + (6 - file) / 2
    } else {
        9 * m + 4 + (7 - file) / 2
    }
}

const fn build_coords() -> [(u8, u8); NUM_BITS] {
    let mut out = [(255u8, 255u8); NUM_BITS];
    let mut rank = 0;
    while rank < 8 {
        let mut file = rank % 2;
        while file < 8 {
            out[index_of(file, rank) as usize] = (file, rank);
            file += 2;
        }
        rank += 1;
    }
    out
}

const COORDS: [(u8, u8); NUM_BITS] = build_coords();

impl Square {
    /// The dark square at `file` (0 = a) and `rank` (0 = rank 1), or `None` for a light or
    /// off-board square.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file >= 8 || rank >= 8 || !(file + rank).is_multiple_of(2) {
            None
        } else {
            Some(Square(index_of(file, rank)))
        }
    }

    /// The square with this bit index, if it is a real square.
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < NUM_BITS && VALID_MASK & (1 << index) != 0 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square of a bit index taken from a board bitboard (so known to be a real square;
    /// checked in debug builds only).
    #[inline]
    pub const fn from_bit_index(index: u8) -> Square {
        debug_assert!(Square::from_index(index).is_some());
        Square(index)
    }

    /// File, 0 = a.
    pub const fn file(self) -> u8 {
        COORDS[self.0 as usize].0
    }

    /// Rank, 0 = rank 1.
    pub const fn rank(self) -> u8 {
        COORDS[self.0 as usize].1
    }

    /// The diagonal neighbour in `dir`, if on the board.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Square> {
        let i = self.0 as i32 + dir.shift();
        if i < 0 || i >= NUM_BITS as i32 {
            return None;
        }
        Square::from_index(i as u8)
    }

    /// All 32 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_BITS as u8).filter_map(Square::from_index)
    }

    /// The direction from `self` to `other` if they lie on one diagonal.
    pub fn direction_to(self, other: Square) -> Option<Direction> {
        let df = other.file() as i32 - self.file() as i32;
        let dr = other.rank() as i32 - self.rank() as i32;
        if df == 0 || df.abs() != dr.abs() {
            return None;
        }
        Some(match (df > 0, dr > 0) {
            (true, true) => Direction::NorthEast,
            (false, true) => Direction::NorthWest,
            (false, false) => Direction::SouthWest,
            (true, false) => Direction::SouthEast,
        })
    }
}

impl_square!(Square, u64, "a dark square");

/// A square's file (0 = a) and rank (0 = rank 1) on any game's board, and its name (`c3`):
/// every game names its squares this way, whichever of them it plays on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Coords(pub u8, pub u8);

impl Coords {
    /// The coordinates a two-character name such as `c3` or `C3` gives (file letter in either
    /// case), whether or not the game plays on that square; `None` for any other text. The
    /// letters and digits are not bounded: each game's `from_coords` refuses what is off
    /// its board.
    pub fn parse(text: &str) -> Option<Coords> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        Some(Coords(file, rank))
    }
}

impl fmt::Display for Coords {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.0) as char, (b'1' + self.1) as char)
    }
}

/// A square of any game's board, as the toolkit's moves need it: a name to print and an index
/// to hash.
pub trait BoardSquare: Copy + Default + Eq + fmt::Display {
    /// The square's index on its board.
    fn index(self) -> usize;
}

/// What every game's square type `$sq` (a bit index in a `u8`, with its own `from_coords`,
/// `file` and `rank`) does the same way: its index and bit in its sets (`$set`), its name,
/// written (`Display`) and read (`parse`, for `$which`, the squares the game plays on), and
/// [`BoardSquare`].
macro_rules! impl_square {
    ($sq:ty, $set:ty, $which:literal) => {
        impl $sq {
            /// Its bit index in the game's sets of squares.
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// Its set of one square.
            #[inline]
            pub const fn bit(self) -> $set {
                1 << self.0
            }

            #[doc = concat!("Parses a square name such as `c3` (file letter in either case); `None` if it is not ", $which, ".")]
            pub fn parse(text: &str) -> Option<$sq> {
                let $crate::games::kit::square::Coords(file, rank) =
                    $crate::games::kit::square::Coords::parse(text)?;
                <$sq>::from_coords(file, rank)
            }
        }

        impl std::fmt::Display for $sq {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&$crate::games::kit::square::Coords(self.file(), self.rank()), f)
            }
        }

        impl $crate::games::kit::square::BoardSquare for $sq {
            #[inline]
            fn index(self) -> usize {
                <$sq>::index(self)
            }
        }
    };
}
pub(crate) use impl_square;

/// The bit indices of a set of squares, lowest first: every game's walk over its sets.
#[inline]
pub fn bit_indices(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let i = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(i)
    })
}

/// Dense index (0..32) of each square seen from White, by bit index; 255 for a ghost bit.
pub const DENSE: [u8; NUM_BITS] = dense_indices(false);
/// The same seen from Black (the board turned half round).
pub const DENSE_FLIPPED: [u8; NUM_BITS] = dense_indices(true);

const fn dense_indices(flipped: bool) -> [u8; NUM_BITS] {
    let mut out = [255u8; NUM_BITS];
    let mut i = 0;
    while i < NUM_BITS {
        if let Some(sq) = Square::from_index(i as u8) {
            let (mut file, mut rank) = (sq.file(), sq.rank());
            if flipped {
                file = 7 - file;
                rank = 7 - rank;
            }
            // Four dark squares per rank.
            out[i] = rank * 4 + file / 2;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips() {
        assert_eq!(Square::all().count(), 32);
        for sq in Square::all() {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), Some(sq));
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 3);
        assert_eq!(Square::parse("g1").unwrap().index(), 0);
        assert_eq!(Square::parse("b8").unwrap().index(), 34);
        assert_eq!(Square::parse("b1"), None);
        assert_eq!(Square::parse("i1"), None);
    }

    #[test]
    fn steps_follow_diagonals() {
        for sq in Square::all() {
            for dir in Direction::ALL {
                let (df, dr) = match dir {
                    Direction::NorthEast => (1, 1),
                    Direction::NorthWest => (-1, 1),
                    Direction::SouthWest => (-1, -1),
                    Direction::SouthEast => (1, -1),
                };
                let f = sq.file() as i32 + df;
                let r = sq.rank() as i32 + dr;
                let expect = if (0..8).contains(&f) && (0..8).contains(&r) {
                    Square::from_coords(f as u8, r as u8)
                } else {
                    None
                };
                assert_eq!(sq.step(dir), expect, "{sq} {dir:?}");
                if let Some(to) = expect {
                    assert_eq!(sq.direction_to(to), Some(dir));
                }
            }
        }
    }
}
