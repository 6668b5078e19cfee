//! Lasca moves, identified by their path: the start square and every landing square.

use crate::games::lasca::board::Square;
use std::fmt;

/// Most jumps one move can make: each jumps a different square, and only the 13 squares off
/// the edge can be jumped.
pub const MAX_JUMPS: usize = 13;

/// A move: its start square and its landing squares in order.
///
/// A capture jumps the square halfway between each two consecutive squares of its path, so
/// the path alone says which columns lose their commander and in what order; `jumped` (the
/// set of those squares) is kept for quick questions. Two moves are the same exactly when
/// their paths are the same.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move {
    from: Square,
    len: u8,
    capture: bool,
    landings: [Square; MAX_JUMPS],
    jumped: u32,
}

impl Move {
    /// A step to a neighbouring square.
    #[inline]
    pub fn quiet(from: Square, to: Square) -> Move {
        let mut m = Move {
            from,
            len: 1,
            ..Move::default()
        };
        m.landings[0] = to;
        m
    }

    /// A capture from `from` landing on `landings` in order (1 to [`MAX_JUMPS`] squares, each
    /// two diagonal steps from the one before).
    #[inline]
    pub fn capture(from: Square, landings: &[Square]) -> Move {
        debug_assert!(!landings.is_empty() && landings.len() <= MAX_JUMPS);
        let mut m = Move {
            from,
            len: landings.len() as u8,
            capture: true,
            ..Move::default()
        };
        m.landings[..landings.len()].copy_from_slice(landings);
        let mut prev = from;
        for &l in landings {
            m.jumped |= 1 << ((prev.index() + l.index()) / 2);
            prev = l;
        }
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

    /// Landing squares in order (the start excluded).
    #[inline]
    pub fn landings(&self) -> &[Square] {
        &self.landings[..self.len as usize]
    }

    /// The jumped squares in the order they are jumped (none for a step).
    pub fn jumps(&self) -> impl Iterator<Item = Square> + '_ {
        let capture = self.capture;
        self.path()
            .zip(self.landings().iter())
            .filter(move |_| capture)
            .map(|(a, b)| Square::from_index(((a.index() + b.index()) / 2) as u8))
    }

    /// The set of jumped squares (0 for a step).
    #[inline]
    pub fn jumped(&self) -> u32 {
        self.jumped
    }

    /// Number of commanders taken.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.jumped.count_ones()
    }

    /// The full path, start first.
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        std::iter::once(self.from).chain(self.landings().iter().copied())
    }

    /// A 32-bit digest of the path (the transposition table's move key). Never 0.
    pub fn key(&self) -> u32 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ self.capture as u64;
        for sq in self.path() {
            h = (h ^ sq.index() as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        ((h ^ (h >> 32)) as u32).max(1)
    }
}

impl fmt::Display for Move {
    /// `a3-b4` for a step, `c3:e5:c7` for a capture (the project's `:`; `x` is read too).
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
    fn paths_and_jumped_squares() {
        let sq = |s| Square::parse(s).unwrap();
        assert_eq!(Move::quiet(sq("a3"), sq("b4")).to_string(), "a3-b4");
        let c = Move::capture(sq("c3"), &[sq("e5"), sq("c7")]);
        assert_eq!(c.to_string(), "c3:e5:c7");
        let jumps: Vec<String> = c.jumps().map(|s| s.to_string()).collect();
        assert_eq!(jumps, ["d4", "d6"]);
        assert_eq!(c.jumped(), sq("d4").bit() | sq("d6").bit());
        assert_eq!(
            (c.capture_count(), c.to(), c.is_capture()),
            (2, sq("c7"), true)
        );
        assert_eq!(Move::quiet(sq("a3"), sq("b4")).jumps().count(), 0);
        assert_ne!(c.key(), Move::capture(sq("c3"), &[sq("e5")]).key());
    }
}
