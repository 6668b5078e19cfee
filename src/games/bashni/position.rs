//! The position: who commands each square (bitboards), the towers themselves, side to move,
//! the capture clock and the move number, with an incrementally kept hash.

use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::color::Color;
use crate::games::kit::moves::{MAX_JUMPS, Move};
use crate::games::kit::square::{NUM_BITS, Square};
use crate::games::kit::tower::{Piece, Tower};
use crate::games::kit::turn::{Turn, turn_accessors};
use crate::games::kit::zobrist::tower_key;

/// Plies without a capture after which the game is drawn.
pub const CLOCK_LIMIT: u16 = 30;

/// What [`Position::undo_scratch`] restores: the bitboards and the towers a move touched.
#[derive(Default)]
pub(crate) struct ScratchUndo {
    by_color: [Bitboard; 2],
    kings: Bitboard,
    from: Tower,
    to: Tower,
    jumped: [Tower; MAX_JUMPS],
}

/// A Bashni position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    by_color: [Bitboard; 2],
    kings: Bitboard,
    towers: [Tower; NUM_BITS],
    turn: Turn,
}

impl Position {
    turn_accessors!();

    /// An empty board, White to move, clock 0, move 1 (build other positions with
    /// [`crate::games::bashni::setup::Setup`]).
    pub(crate) fn empty() -> Position {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            kings: Bitboard::EMPTY,
            towers: [Tower::EMPTY; NUM_BITS],
            turn: Turn::START,
        }
    }

    /// The initial position.
    pub fn startpos() -> Position {
        let mut p = Position::empty();
        for sq in Square::all() {
            let piece = match sq.rank() {
                0..=2 => Piece::new(Color::White, false),
                5..=7 => Piece::new(Color::Black, false),
                _ => continue,
            };
            p.set_tower(sq, Tower::single(piece));
        }
        p
    }

    /// Puts `tower` on `sq` (replacing what was there), keeping bitboards and hash exact.
    pub(crate) fn set_tower(&mut self, sq: Square, tower: Tower) {
        self.turn.toggle(tower_key(sq, self.towers[sq.index()]));
        self.towers[sq.index()] = tower;
        self.turn.toggle(tower_key(sq, tower));
        self.refresh_square(sq);
    }

    #[inline]
    fn refresh_square(&mut self, sq: Square) {
        let t = self.towers[sq.index()];
        self.by_color[0].clear(sq);
        self.by_color[1].clear(sq);
        self.kings.clear(sq);
        if !t.is_empty() {
            self.by_color[t.top().color().index()].set(sq);
            if t.top().is_king() {
                self.kings.set(sq);
            }
        }
    }

    /// The tower on `sq` (`Tower::EMPTY` if none).
    #[inline]
    pub fn tower(&self, sq: Square) -> Tower {
        self.towers[sq.index()]
    }

    /// The tower on the square of bit index `i` (a real square's index).
    #[inline]
    pub(crate) fn tower_at_index(&self, i: usize) -> Tower {
        self.towers[i]
    }

    /// The hash computed from scratch (equals [`Position::hash`] at all times).
    pub fn compute_hash(&self) -> u64 {
        let mut h = self.turn.side_key();
        for sq in Square::all() {
            h ^= tower_key(sq, self.towers[sq.index()]);
        }
        h
    }

    /// Squares commanded by `c`.
    #[inline]
    pub fn commanded_by(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// Squares whose commander is a king.
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Empty squares.
    #[inline]
    pub fn empty_squares(&self) -> Bitboard {
        !self.occupied()
    }

    /// Total pieces of `c` on the board, commanders and prisoners.
    pub fn piece_count(&self, c: Color) -> usize {
        self.occupied()
            .map(|sq| self.towers[sq.index()].count(c))
            .sum()
    }

    /// Whether the 30-ply rule has been reached.
    pub fn clock_draw(&self) -> bool {
        self.clock() >= CLOCK_LIMIT
    }

    /// Plays a legal move in place. The move must come from this position's generator (or
    /// have been validated against it).
    pub fn play(&mut self, m: &Move) {
        let mut touched = Bitboard::from_square(m.from()) | Bitboard::from_square(m.to());
        for &c in m.jumped() {
            touched.set(c);
        }
        for sq in touched {
            self.turn.toggle(tower_key(sq, self.towers[sq.index()]));
        }
        self.move_towers(m, |_, _| {});
        for sq in touched {
            self.turn.toggle(tower_key(sq, self.towers[sq.index()]));
        }
        self.turn.end_move(m.is_capture());
    }

    /// The position after `m`.
    pub fn played(&self, m: &Move) -> Position {
        let mut p = self.clone();
        p.play(m);
        p
    }

    /// Plays `m` in place WITHOUT updating the hash, clock or move number (perft only: move
    /// counts depend on neither), saving in `undo` what [`Position::undo_scratch`] needs
    /// (one `undo` serves every move of a node, so it is filled, not returned).
    #[inline]
    pub(crate) fn play_scratch(&mut self, m: &Move, undo: &mut ScratchUndo) {
        undo.by_color = self.by_color;
        undo.kings = self.kings;
        undo.from = self.towers[m.from().index()];
        undo.to = self.towers[m.to().index()];
        self.move_towers(m, |i, t| undo.jumped[i] = t);
        self.turn.flip_side_only();
    }

    /// The one place where a move changes the board (both [`Position::play`] and
    /// [`Position::play_scratch`] come here): the moving tower leaves its square; at each
    /// jump it puts the jumped tower's commander under itself (the rest of that tower stays,
    /// commanded by its next piece) and its commander is crowned on a far-rank landing; it
    /// ends on the last square. Bitboards stay exact; the side to move, hash, clock and
    /// move number are the caller's. `jumped_was(i, t)` hears the tower `t` on
    /// the `i`-th jumped square before its jump.
    #[inline(always)]
    fn move_towers(&mut self, m: &Move, mut jumped_was: impl FnMut(usize, Tower)) {
        let from = m.from();
        let to = m.to();
        let us = self.side();
        let them = us.opponent();
        let promo = Bitboard::promotion(us);
        let mut moving = self.towers[from.index()];
        self.towers[from.index()] = Tower::EMPTY;
        self.by_color[us.index()].clear(from);
        self.kings.clear(from);
        for (i, (&c, &land)) in m.jumped().iter().zip(m.landings()).enumerate() {
            let jumped = self.towers[c.index()];
            jumped_was(i, jumped);
            moving = moving.with_bottom(jumped.top());
            let rest = jumped.without_top();
            self.towers[c.index()] = rest;
            self.by_color[them.index()].clear(c);
            self.kings.clear(c);
            if !rest.is_empty() {
                self.by_color[rest.top().color().index()].set(c);
                if rest.top().is_king() {
                    self.kings.set(c);
                }
            }
            if promo.has(land) {
                moving = moving.with_top_crowned();
            }
        }
        // A quiet move's only landing is `to`; for a capture this repeats the last landing.
        if promo.has(to) {
            moving = moving.with_top_crowned();
        }
        self.towers[to.index()] = moving;
        self.by_color[us.index()].set(to);
        if moving.top().is_king() {
            self.kings.set(to);
        }
    }

    /// Takes back the [`Position::play_scratch`] of `m`.
    #[inline]
    pub(crate) fn undo_scratch(&mut self, m: &Move, undo: &ScratchUndo) {
        self.by_color = undo.by_color;
        self.kings = undo.kings;
        // Reverse order: a tower jumped twice was saved again after the first jump, and the
        // first save (the tower before the move) must be the one that stays.
        for (&c, &t) in m.jumped().iter().zip(&undo.jumped).rev() {
            self.towers[c.index()] = t;
        }
        self.towers[m.to().index()] = undo.to;
        self.towers[m.from().index()] = undo.from;
        self.turn.flip_side_only();
    }
}
