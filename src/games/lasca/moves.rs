//! Lasca moves, identified by their path: the start square and every landing square.

use crate::games::kit::moves::MoveOf;
use crate::games::lasca::board::Square;

/// Most jumps one move can make: each jumps a different square, and only the 13 squares off
/// the edge can be jumped.
pub const MAX_JUMPS: usize = 13;

/// A move: its start square and its landing squares in order, with the set of the squares it
/// jumps.
///
/// A capture jumps the square halfway between each two consecutive squares of its path, so
/// the path alone says which columns lose their commander and in what order; `jumped` (the
/// set of those squares) is kept for quick questions. Two moves are the same exactly when
/// their paths are the same.
pub type Move = MoveOf<Square, MAX_JUMPS, u32>;

impl Move {
    /// A capture from `from` landing on `landings` in order (1 to [`MAX_JUMPS`] squares, each
    /// two diagonal steps from the one before).
    #[inline]
    pub fn capture(from: Square, landings: &[Square]) -> Move {
        let mut jumped = 0;
        let mut prev = from;
        for &l in landings {
            jumped |= 1 << ((prev.index() + l.index()) / 2);
            prev = l;
        }
        Move::with_landings(from, landings, jumped)
    }

    /// The jumped squares in the order they are jumped (none for a step).
    pub fn jumps(&self) -> impl Iterator<Item = Square> + '_ {
        let capture = self.is_capture();
        self.path()
            .zip(self.landings().iter())
            .filter(move |_| capture)
            .map(|(a, b)| Square::from_index(((a.index() + b.index()) / 2) as u8))
    }

    /// The set of jumped squares (0 for a step).
    #[inline]
    pub fn jumped(&self) -> u32 {
        *self.extra()
    }

    /// Number of commanders taken.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.jumped().count_ones()
    }
}

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
