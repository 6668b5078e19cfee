//! What every game's position keeps beside its board: the side to move, the no-progress clock,
//! the move number and the Zobrist hash, with the bookkeeping of a move's end in one place.

use super::color::Color;
use super::zobrist::SIDE_KEY;

/// The side to move, the no-progress clock (plies since the last move that made progress; each
/// game's rule says which moves do), the move number (from 1, up after Black's move) and the
/// hash of the board's keys and [`SIDE_KEY`] when Black is to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Turn {
    side: Color,
    clock: u16,
    fullmove: u16,
    hash: u64,
}

impl Turn {
    /// White to move, clock 0, move 1, an empty board's hash.
    pub const START: Turn = Turn {
        side: Color::White,
        clock: 0,
        fullmove: 1,
        hash: 0,
    };

    /// Side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    /// The no-progress clock.
    #[inline]
    pub fn clock(&self) -> u16 {
        self.clock
    }

    /// Move number.
    #[inline]
    pub fn fullmove(&self) -> u16 {
        self.fullmove
    }

    /// The hash kept.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The side to move's part of a hash computed from scratch.
    #[inline]
    pub fn side_key(&self) -> u64 {
        if self.side == Color::Black {
            SIDE_KEY
        } else {
            0
        }
    }

    /// Adds or removes a board key (XOR).
    #[inline]
    pub fn toggle(&mut self, key: u64) {
        self.hash ^= key;
    }

    /// Sets the side to move, its key with it.
    pub fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.hash ^= SIDE_KEY;
            self.side = side;
        }
    }

    /// Sets the no-progress clock.
    pub fn set_clock(&mut self, clock: u16) {
        self.clock = clock;
    }

    /// Sets the move number.
    pub fn set_fullmove(&mut self, n: u16) {
        self.fullmove = n;
    }

    /// The end of a move of the side to move: the clock back to 0 if it made `progress`,
    /// else one more; the move number up after Black's move; the other side to move.
    #[inline]
    pub fn end_move(&mut self, progress: bool) {
        self.clock = if progress {
            0
        } else {
            self.clock.saturating_add(1)
        };
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opponent();
        self.hash ^= SIDE_KEY;
    }

    /// The other side to move, nothing else kept (a perft's scratch moves: counts depend on
    /// neither hash, clock nor move number).
    #[inline]
    pub fn flip_side_only(&mut self) {
        self.side = self.side.opponent();
    }
}

/// The accessors and crate-internal setters of a position whose [`Turn`] is its `turn`
/// field, written once for every game: `side`, `clock`, `fullmove`, `hash`, `set_side`,
/// `set_clock`, `set_fullmove`. `turn_accessors!(side also in FIELD)` is for a position that
/// keeps a copy of the side in `FIELD.side` too (Lasca's move-generation sets, read without
/// the rest of the position): `set_side` then sets both.
macro_rules! turn_accessors {
    () => {
        $crate::games::kit::turn::turn_accessors!(@common);

        /// Sets the side to move.
        pub(crate) fn set_side(&mut self, side: $crate::games::kit::Color) {
            self.turn.set_side(side);
        }
    };
    (side also in $field:ident) => {
        $crate::games::kit::turn::turn_accessors!(@common);

        /// Sets the side to move, in the turn and in its copy.
        pub(crate) fn set_side(&mut self, side: $crate::games::kit::Color) {
            self.turn.set_side(side);
            self.$field.side = side;
        }
    };
    (@common) => {
        /// Side to move.
        #[inline]
        pub fn side(&self) -> $crate::games::kit::Color {
            self.turn.side()
        }

        /// The no-progress clock: plies since the last move that made progress (the game's
        /// rule says which).
        #[inline]
        pub fn clock(&self) -> u16 {
            self.turn.clock()
        }

        /// Move number (starts at 1, grows after Black moves).
        #[inline]
        pub fn fullmove(&self) -> u16 {
            self.turn.fullmove()
        }

        /// Hash of the board and the side to move, kept move by move.
        #[inline]
        pub fn hash(&self) -> u64 {
            self.turn.hash()
        }

        /// Sets the no-progress clock.
        pub(crate) fn set_clock(&mut self, clock: u16) {
            self.turn.set_clock(clock);
        }

        /// Sets the move number.
        pub(crate) fn set_fullmove(&mut self, n: u16) {
            self.turn.set_fullmove(n);
        }
    };
}
pub(crate) use turn_accessors;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_ends_with_the_other_side_its_key_and_the_counters() {
        let mut t = Turn::START;
        t.toggle(5);
        t.end_move(false);
        assert_eq!((t.side(), t.clock(), t.fullmove()), (Color::Black, 1, 1));
        assert_eq!(t.hash(), 5 ^ SIDE_KEY);
        assert_eq!(t.side_key(), SIDE_KEY);
        t.end_move(true);
        assert_eq!((t.side(), t.clock(), t.fullmove()), (Color::White, 0, 2));
        assert_eq!(t.hash(), 5);
        t.set_side(Color::Black);
        t.set_side(Color::Black);
        assert_eq!(t.hash(), 5 ^ SIDE_KEY);
        t.flip_side_only();
        assert_eq!((t.side(), t.hash()), (Color::White, 5 ^ SIDE_KEY));
        t.set_clock(u16::MAX);
        t.end_move(false);
        assert_eq!(t.clock(), u16::MAX);
    }
}
