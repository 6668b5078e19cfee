//! The Turkish position: men and kings of each side as 64-square sets, the side to move, the
//! no-progress clock and the move number, with an incrementally kept hash.

use crate::games::kit::Color;
use crate::games::kit::turn::{Turn, turn_accessors};
use crate::games::turkish::board::{Square, promotion_mask, rank_mask};
use crate::games::turkish::moves::Move;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// One key per (piece kind, square); kind = colour index + 2 for a king.
const KEYS: [[u64; 64]; 4] = {
    let mut k = [[0u64; 64]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut sq = 0;
        while sq < 64 {
            k[kind][sq] = splitmix(0x7475_726b_0000 + (kind * 64 + sq) as u64);
            sq += 1;
        }
        kind += 1;
    }
    k
};

#[inline]
fn key(c: Color, king: bool, sq: Square) -> u64 {
    KEYS[c.index() + 2 * king as usize][sq.index()]
}

/// A Turkish draughts position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    by_color: [u64; 2],
    kings: u64,
    turn: Turn,
}

impl Position {
    turn_accessors!();

    /// An empty board, White to move, clock 0, move 1.
    pub fn empty() -> Position {
        Position {
            by_color: [0; 2],
            kings: 0,
            turn: Turn::START,
        }
    }

    /// The initial position: White's men on ranks 2 and 3, Black's on ranks 6 and 7.
    pub fn startpos() -> Position {
        let mut p = Position::empty();
        for sq in Square::all() {
            let bit = sq.bit();
            if bit & (rank_mask(1) | rank_mask(2)) != 0 {
                p.put(sq, Some((Color::White, false)));
            } else if bit & (rank_mask(5) | rank_mask(6)) != 0 {
                p.put(sq, Some((Color::Black, false)));
            }
        }
        p
    }

    /// What stands on `sq`: a colour and whether it is a king.
    #[inline]
    pub fn piece(&self, sq: Square) -> Option<(Color, bool)> {
        let bit = sq.bit();
        let king = self.kings & bit != 0;
        if self.by_color[0] & bit != 0 {
            Some((Color::White, king))
        } else if self.by_color[1] & bit != 0 {
            Some((Color::Black, king))
        } else {
            None
        }
    }

    /// Puts a piece on `sq` (or clears it), keeping the hash exact.
    pub(crate) fn put(&mut self, sq: Square, piece: Option<(Color, bool)>) {
        if let Some((c, k)) = self.piece(sq) {
            self.turn.toggle(key(c, k, sq));
        }
        let bit = sq.bit();
        self.by_color[0] &= !bit;
        self.by_color[1] &= !bit;
        self.kings &= !bit;
        if let Some((c, k)) = piece {
            self.by_color[c.index()] |= bit;
            if k {
                self.kings |= bit;
            }
            self.turn.toggle(key(c, k, sq));
        }
    }

    /// Pieces of `c`.
    #[inline]
    pub fn pieces(&self, c: Color) -> u64 {
        self.by_color[c.index()]
    }

    /// Squares holding a king (either colour).
    #[inline]
    pub fn kings(&self) -> u64 {
        self.kings
    }

    /// Occupied squares.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// The hash computed from scratch (equals [`Position::hash`] at all times).
    pub fn compute_hash(&self) -> u64 {
        let mut h = self.turn.side_key();
        for sq in Square::all() {
            if let Some((c, k)) = self.piece(sq) {
                h ^= key(c, k, sq);
            }
        }
        h
    }

    /// Plays a legal move in place: the piece leaves its origin, the captured pieces leave
    /// the board, and the piece ends on the last landing, a king if it was one or if any of
    /// its landings was on its far rank (a man crowned during a capture stays crowned).
    pub fn play(&mut self, m: &Move) {
        let us = self.side();
        let them = us.opponent();
        let from = m.from();
        let to = m.to();
        let was_king = self.kings & from.bit() != 0;
        let landed_far = m
            .landings()
            .iter()
            .any(|s| s.bit() & promotion_mask(us) != 0);
        let king = was_king || landed_far;
        self.turn.toggle(key(us, was_king, from));
        self.by_color[us.index()] &= !from.bit();
        self.kings &= !from.bit();
        let captured = m.captured();
        for sq in super::board::squares(captured) {
            self.turn.toggle(key(them, self.kings & sq.bit() != 0, sq));
        }
        self.by_color[them.index()] &= !captured;
        self.kings &= !captured;
        self.by_color[us.index()] |= to.bit();
        if king {
            self.kings |= to.bit();
        }
        self.turn.toggle(key(us, king, to));
        self.turn.end_move(m.is_capture() || !was_king);
    }
}
