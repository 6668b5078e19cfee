//! A draughts-64 position: Bashni's 32-square board and bitboards, one piece per square (no
//! towers), the side to move, the no-progress clock and the move number, with an
//! incrementally kept hash (Bashni's keys for a one-piece tower), of the game its [`Laws`]
//! name.

use crate::games::kit::Color;
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::draughts64::Laws;
use crate::games::kit::moves::Move;
use crate::games::kit::square::Square;
use crate::games::kit::tower::{Piece, Tower};
use crate::games::kit::turn::{Turn, turn_accessors};
use crate::games::kit::zobrist::tower_key;
use std::marker::PhantomData;

#[inline]
fn key(c: Color, king: bool, sq: Square) -> u64 {
    tower_key(sq, Tower::single(Piece::new(c, king)))
}

/// A position of the draughts-64 game `L`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position<L: Laws> {
    by_color: [Bitboard; 2],
    kings: Bitboard,
    turn: Turn,
    laws: PhantomData<L>,
}

impl<L: Laws> Position<L> {
    turn_accessors!();

    /// An empty board, White to move, clock 0, move 1.
    pub fn empty() -> Position<L> {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            kings: Bitboard::EMPTY,
            turn: Turn::START,
            laws: PhantomData,
        }
    }

    /// The initial position: 12 men each on ranks 1-3 (White) and 6-8 (Black), as in Bashni.
    pub fn startpos() -> Position<L> {
        let mut p = Position::empty();
        for sq in Square::all() {
            match sq.rank() {
                0..=2 => p.put(sq, Some(Piece::new(Color::White, false))),
                5..=7 => p.put(sq, Some(Piece::new(Color::Black, false))),
                _ => {}
            }
        }
        p
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        let king = self.kings.has(sq);
        if self.by_color[0].has(sq) {
            Some(Piece::new(Color::White, king))
        } else if self.by_color[1].has(sq) {
            Some(Piece::new(Color::Black, king))
        } else {
            None
        }
    }

    /// Puts a piece on `sq` (or clears it), keeping the hash exact.
    pub(crate) fn put(&mut self, sq: Square, piece: Option<Piece>) {
        if let Some(p) = self.piece(sq) {
            self.turn.toggle(key(p.color(), p.is_king(), sq));
        }
        self.by_color[0].clear(sq);
        self.by_color[1].clear(sq);
        self.kings.clear(sq);
        if let Some(p) = piece {
            self.by_color[p.color().index()].set(sq);
            if p.is_king() {
                self.kings.set(sq);
            }
            self.turn.toggle(key(p.color(), p.is_king(), sq));
        }
    }

    /// Pieces of `c`.
    #[inline]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Squares holding a king (either colour).
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The hash computed from scratch (equals [`Position::hash`] at all times).
    pub fn compute_hash(&self) -> u64 {
        let mut h = self.turn.side_key();
        for sq in Square::all() {
            if let Some(p) = self.piece(sq) {
                h ^= key(p.color(), p.is_king(), sq);
            }
        }
        h
    }

    /// Plays a legal move in place: the piece leaves its origin, every piece it jumped leaves
    /// the board (only now, at the end of the move), and it ends on the last landing, a king
    /// if it was one or if it is crowned ([`crowned`]).
    pub fn play(&mut self, m: &Move) {
        let us = self.side();
        let from = m.from();
        let to = m.to();
        let was_king = self.kings.has(from);
        let king = was_king || crowned::<L>(m, Bitboard::promotion(us));
        self.put(from, None);
        for &c in m.jumped() {
            self.put(c, None);
        }
        self.put(to, Some(Piece::new(us, king)));
        self.turn.end_move(m.is_capture() || !was_king);
    }
}

/// Whether a man making the move `m` ends it a king, `promotion` being its far rank: in a
/// game that crowns during a capture ([`Laws::CROWN_IN_CAPTURE`]) when any landing is there,
/// else when the move ends there.
#[inline]
pub fn crowned<L: Laws>(m: &Move, promotion: Bitboard) -> bool {
    if L::CROWN_IN_CAPTURE {
        m.landings().iter().any(|&s| promotion.has(s))
    } else {
        promotion.has(m.to())
    }
}
