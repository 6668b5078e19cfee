//! Turkish moves, identified by their landing path.

use crate::games::turkish::board::Square;
use std::fmt;

/// Most jumps one move can make: each takes one enemy piece, and a side has 16.
pub const MAX_JUMPS: usize = 16;

/// A move: origin, the squares it lands on in order, and (for a capture) the set of squares
/// whose pieces it takes.
///
/// Two captures are the same move exactly when their start and landing squares in order are
/// the same. Captured pieces leave the board at once, so between two consecutive landings
/// there is exactly one piece, and the path alone tells which were taken: `captured` is kept
/// only so that playing a move needs no search.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move {
    from: Square,
    len: u8,
    capture: bool,
    landings: [Square; MAX_JUMPS],
    captured: u64,
}

impl Move {
    /// A quiet move: a man's step or a king's slide.
    pub fn quiet(from: Square, to: Square) -> Move {
        let mut m = Move {
            from,
            len: 1,
            ..Move::default()
        };
        m.landings[0] = to;
        m
    }

    /// A capture landing on `landings` in order and taking the pieces on `captured`.
    pub fn capture(from: Square, landings: &[Square], captured: u64) -> Move {
        debug_assert!(!landings.is_empty() && landings.len() <= MAX_JUMPS);
        debug_assert_eq!(landings.len(), captured.count_ones() as usize);
        let mut m = Move {
            from,
            len: landings.len() as u8,
            capture: true,
            captured,
            ..Move::default()
        };
        m.landings[..landings.len()].copy_from_slice(landings);
        m
    }

    /// The square the move starts from.
    #[inline]
    pub fn from(&self) -> Square {
        self.from
    }

    /// The square the move ends on.
    #[inline]
    pub fn to(&self) -> Square {
        self.landings[self.len as usize - 1]
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.capture
    }

    /// A 32-bit digest of the landing path (the transposition table's move key). Never 0.
    pub fn key(&self) -> u32 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ self.capture as u64;
        for sq in self.path() {
            h = (h ^ sq.index() as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        let k = (h ^ (h >> 32)) as u32;
        k.max(1)
    }

    /// Landing squares in order (origin excluded).
    #[inline]
    pub fn landings(&self) -> &[Square] {
        &self.landings[..self.len as usize]
    }

    /// The squares whose pieces the move takes (0 for a quiet move).
    #[inline]
    pub fn captured(&self) -> u64 {
        self.captured
    }

    /// Number of pieces taken.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// The full path, origin first.
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        std::iter::once(self.from).chain(self.landings().iter().copied())
    }
}

impl fmt::Display for Move {
    /// `d3-d4` for a quiet move, `d3:d5:f5` for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { ':' } else { '-' };
        write!(f, "{}", self.from)?;
        for sq in self.landings() {
            write!(f, "{sep}{sq}")?;
        }
        Ok(())
    }
}

crate::games::kit::path::impl_path_move!(Move, Square);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(Move::quiet(sq("d3"), sq("d4")).to_string(), "d3-d4");
        let c = Move::capture(
            sq("d3"),
            &[sq("d5"), sq("f5")],
            sq("d4").bit() | sq("e5").bit(),
        );
        assert_eq!(c.to_string(), "d3:d5:f5");
        assert_eq!(
            (c.capture_count(), c.to(), c.is_capture()),
            (2, sq("f5"), true)
        );
    }
}
