//! Capture paths: a depth-first search over jumps, done in place.
//!
//! Each jump takes effect at once: the jumped commander goes under the moving tower and the
//! rest of the jumped tower stays, commanded by its next piece. The search does not copy the
//! board; it keeps how many pieces have been taken off each square (`taken`) and the current
//! occupied/enemy sets, and undoes a jump by restoring them. The moving tower's origin is
//! removed from the occupied set for the whole move.

use crate::bitboard::Bitboard;
use crate::moves::MAX_JUMPS;
use crate::position::Position;
use crate::square::{Direction, NUM_BITS, Square};
use crate::tower::Color;

/// Receives each complete capture path.
pub trait CaptureSink {
    /// One capture: origin, landings in order, and the square jumped before each landing.
    fn emit(&mut self, from: Square, landings: &[Square], jumped: &[Square]);
}

struct Search<'a, S: CaptureSink> {
    pos: &'a Position,
    us: Color,
    /// Squares of the far rank, where a man becomes a king.
    promotion: Bitboard,
    taken: [u8; NUM_BITS],
    from: Square,
    landings: [Square; MAX_JUMPS],
    jumped: [Square; MAX_JUMPS],
    len: usize,
    sink: &'a mut S,
}

impl<S: CaptureSink> Search<'_, S> {
    /// Takes the commander off `c`; returns the new occupied and enemy sets.
    #[inline(always)]
    fn take(&mut self, c: Square, occ: Bitboard, enemy: Bitboard) -> (Bitboard, Bitboard) {
        let tower = self.pos.tower(c);
        self.taken[c.index()] += 1;
        let next = self.taken[c.index()] as usize;
        let (mut occ, mut enemy) = (occ, enemy);
        if next >= tower.height() {
            occ.clear(c);
            enemy.clear(c);
        } else if tower.piece(next).color() == self.us {
            // A freed prisoner now commands the tower: it blocks, and cannot be jumped.
            enemy.clear(c);
        }
        (occ, enemy)
    }

    #[inline]
    fn emit(&mut self) {
        self.sink.emit(
            self.from,
            &self.landings[..self.len],
            &self.jumped[..self.len],
        );
    }

    /// Jumps of a man on `s`; `last` is the square jumped just before. Emits every path that
    /// ends here or further; returns whether any jump was possible from `s`.
    fn man(&mut self, s: Square, last: Option<Square>, occ: Bitboard, enemy: Bitboard) -> bool {
        let from = Bitboard::from_square(s);
        let targets = match last {
            Some(l) => enemy & !Bitboard::from_square(l),
            None => enemy,
        };
        let free = !occ;
        let mut any = false;
        for dir in Direction::ALL {
            // Whole-board shifts of a single bit: no per-square table lookups.
            let jumped = from.shift(dir) & targets;
            let landing = jumped.shift(dir) & free;
            if landing.is_empty() {
                continue;
            }
            let c = Square::from_bit_index(jumped.0.trailing_zeros() as u8);
            let land = Square::from_bit_index(landing.0.trailing_zeros() as u8);
            any = true;
            let (occ2, enemy2) = self.take(c, occ, enemy);
            self.landings[self.len] = land;
            self.jumped[self.len] = c;
            self.len += 1;
            let continued = if !(landing & self.promotion).is_empty() {
                self.king(land, Some(c), occ2, enemy2)
            } else if man_can_jump(landing, enemy2 & !jumped, !occ2) {
                self.man(land, Some(c), occ2, enemy2)
            } else {
                // Most chains end here: skip the call when no jump is possible.
                false
            };
            if !continued {
                self.emit();
            }
            self.len -= 1;
            self.taken[c.index()] -= 1;
        }
        any
    }

    /// Jumps of a king on `s` (see [`Search::man`]). Applies the landing rule: when some
    /// landing squares behind a jumped tower allow a further jump, only those are used.
    fn king(&mut self, s: Square, last: Option<Square>, occ: Bitboard, enemy: Bitboard) -> bool {
        let mut any = false;
        for dir in Direction::ALL {
            let mut next = s.step(dir);
            while let Some(x) = next {
                if occ.has(x) {
                    break;
                }
                next = x.step(dir);
            }
            let Some(c) = next else { continue };
            if !enemy.has(c) || Some(c) == last {
                continue;
            }
            let Some(first) = c.step(dir) else { continue };
            if occ.has(first) {
                continue;
            }
            any = true;
            let (occ2, enemy2) = self.take(c, occ, enemy);
            self.jumped[self.len] = c;
            self.len += 1;
            let mut continued = false;
            let mut land = Some(first);
            while let Some(x) = land {
                if occ2.has(x) {
                    break;
                }
                self.landings[self.len - 1] = x;
                continued |= self.king(x, Some(c), occ2, enemy2);
                land = x.step(dir);
            }
            if !continued {
                let mut land = Some(first);
                while let Some(x) = land {
                    if occ2.has(x) {
                        break;
                    }
                    self.landings[self.len - 1] = x;
                    self.emit();
                    land = x.step(dir);
                }
            }
            self.len -= 1;
            self.taken[c.index()] -= 1;
        }
        any
    }
}

/// Whether a man on the single square `from` can jump one of `targets` onto `free`.
#[inline(always)]
fn man_can_jump(from: Bitboard, targets: Bitboard, free: Bitboard) -> bool {
    let mut hits = Bitboard::EMPTY;
    for dir in Direction::ALL {
        hits |= (from.shift(dir) & targets).shift(dir) & free;
    }
    !hits.is_empty()
}

/// Emits every capture of the side to move into `sink` (nothing if there is none).
pub fn generate_captures<S: CaptureSink>(pos: &Position, sink: &mut S) {
    let us = pos.side();
    let enemy = pos.commanded_by(us.opponent());
    let occupied = pos.occupied();
    let mut search = Search {
        pos,
        us,
        promotion: Bitboard::rank(us.promotion_rank()),
        taken: [0; NUM_BITS],
        from: Square::default(),
        landings: [Square::default(); MAX_JUMPS],
        jumped: [Square::default(); MAX_JUMPS],
        len: 0,
        sink,
    };
    let kings = pos.kings() & pos.commanded_by(us);
    // Only men with an enemy next to them and an empty square behind it can start a capture.
    let empty = !occupied;
    let men = pos.commanded_by(us) & !kings;
    let mut starters = kings;
    for dir in Direction::ALL {
        let back = dir.reverse();
        starters |= men & (enemy & empty.shift(back)).shift(back);
    }
    for from in starters {
        search.from = from;
        let mut occ = occupied;
        occ.clear(from);
        if kings.has(from) {
            search.king(from, None, occ, enemy);
        } else {
            search.man(from, None, occ, enemy);
        }
    }
}
