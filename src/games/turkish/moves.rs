//! Turkish moves, identified by their landing path.

use crate::games::kit::moves::MoveOf;
use crate::games::turkish::board::Square;

/// Most jumps one move can make: each takes one enemy piece, and a side has 16.
pub const MAX_JUMPS: usize = 16;

/// A move: origin, the squares it lands on in order, and (for a capture) the set of squares
/// whose pieces it takes.
///
/// Two captures are the same move exactly when their start and landing squares in order are
/// the same. Captured pieces leave the board at once, so between two consecutive landings
/// there is exactly one piece, and the path alone tells which were taken: `captured` is kept
/// only so that playing a move needs no search.
pub type Move = MoveOf<Square, MAX_JUMPS, u64>;

impl Move {
    /// A capture landing on `landings` in order and taking the pieces on `captured`.
    pub fn capture(from: Square, landings: &[Square], captured: u64) -> Move {
        debug_assert_eq!(landings.len(), captured.count_ones() as usize);
        Move::with_landings(from, landings, captured)
    }

    /// The squares whose pieces the move takes (0 for a quiet move).
    #[inline]
    pub fn captured(&self) -> u64 {
        *self.extra()
    }

    /// Number of pieces taken.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.captured().count_ones()
    }
}

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
