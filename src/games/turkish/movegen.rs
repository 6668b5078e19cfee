//! Turkish legal moves (docs/rules-turkish.md, section 2).
//!
//! Capturing is compulsory and the sequences that take the most pieces must be chosen, so
//! generation first asks, with whole-board shifts, whether any piece can capture at all; only
//! then does it walk capture paths piece by piece, keeping only the longest. Captured pieces
//! leave the board at once (they never block), a jump may not reverse the direction of the jump
//! before it, and a man landing on its far rank goes on as a king.

use crate::games::kit::Color;
use crate::games::kit::movelist::MoveList;
use crate::games::turkish::board::{Dir, Square, promotion_mask, squares};
use crate::games::turkish::moves::{MAX_JUMPS, Move};
use crate::games::turkish::position::Position;

/// Men of `us` (in `men`) that can start a capture: an enemy next to them, forward or
/// sideways, with an empty square right behind it.
#[inline]
fn men_that_capture(us: Color, men: u64, enemy: u64, empty: u64) -> u64 {
    let mut from = 0;
    for d in Dir::man_dirs(us) {
        let back = d.reverse();
        from |= back.shift(back.shift(empty) & enemy);
    }
    from & men
}

/// Kings of `kings` that can start a capture: along some line, past empty squares, an enemy
/// with an empty square right behind it.
#[inline]
fn kings_that_capture(kings: u64, enemy: u64, empty: u64) -> u64 {
    let mut from = 0;
    for d in Dir::ALL {
        let back = d.reverse();
        // Squares from which one step in `d` is a jumpable enemy, then slide them back over
        // empty squares: every square that reaches such an enemy along `d`.
        let mut x = back.shift(back.shift(empty) & enemy);
        let mut reach = x;
        while x != 0 {
            x = back.shift(x & empty);
            reach |= x;
        }
        from |= reach;
    }
    from & kings
}

/// The capture walk: a depth-first search over jumps, keeping only the longest sequences.
struct Walk<'a> {
    us: Color,
    /// The far rank of `us`.
    promotion: u64,
    from: Square,
    landings: [Square; MAX_JUMPS],
    len: usize,
    /// Pieces taken by the longest sequence found so far (0: none yet).
    best: usize,
    out: &'a mut MoveList<Move>,
}

impl Walk<'_> {
    /// Goes on from `at` (a king when `king`) after a jump in direction `last` (none at the
    /// start). `occ` and `enemy` no longer hold the origin nor the pieces taken so far (they
    /// are `captured`).
    fn walk(
        &mut self,
        at: Square,
        king: bool,
        last: Option<Dir>,
        occ: u64,
        enemy: u64,
        captured: u64,
    ) {
        let mut jumped = false;
        let man_dirs = Dir::man_dirs(self.us);
        let dirs: &[Dir] = if king { &Dir::ALL } else { &man_dirs };
        for &d in dirs {
            if last == Some(d.reverse()) {
                continue; // no 180-degree turn between two jumps
            }
            let mut next = at.step(d);
            if king {
                while let Some(s) = next {
                    if occ & s.bit() != 0 {
                        break;
                    }
                    next = s.step(d);
                }
            }
            let Some(victim) = next else { continue };
            if enemy & victim.bit() == 0 {
                continue;
            }
            let occ = occ & !victim.bit();
            let enemy = enemy & !victim.bit();
            let captured = captured | victim.bit();
            let mut land = victim.step(d);
            while let Some(l) = land {
                if occ & l.bit() != 0 {
                    break;
                }
                jumped = true;
                self.landings[self.len] = l;
                self.len += 1;
                let crowned = king || l.bit() & self.promotion != 0;
                self.walk(l, crowned, Some(d), occ, enemy, captured);
                self.len -= 1;
                if !king {
                    break;
                }
                land = l.step(d);
            }
        }
        if !jumped && self.len > 0 {
            self.emit(captured);
        }
    }

    /// Records the sequence on the path if it takes at least as many pieces as the best so far
    /// (dropping every shorter one found before).
    fn emit(&mut self, captured: u64) {
        if self.len < self.best {
            return;
        }
        if self.len > self.best {
            self.out.clear();
            self.best = self.len;
        }
        self.out.push(Move::capture(
            self.from,
            &self.landings[..self.len],
            captured,
        ));
    }
}

/// Appends every legal capture (only the longest sequences) to the empty `list`; returns
/// whether there was any.
pub fn generate_captures(pos: &Position, list: &mut MoveList<Move>) -> bool {
    let us = pos.side();
    let ours = pos.pieces(us);
    let enemy = pos.pieces(us.opponent());
    let occ = pos.occupied();
    let empty = !occ;
    let kings = ours & pos.kings();
    let starters =
        men_that_capture(us, ours & !kings, enemy, empty) | kings_that_capture(kings, enemy, empty);
    if starters == 0 {
        return false;
    }
    let mut walk = Walk {
        us,
        promotion: promotion_mask(us),
        from: Square::default(),
        landings: [Square::default(); MAX_JUMPS],
        len: 0,
        best: 0,
        out: list,
    };
    for from in squares(starters) {
        walk.from = from;
        walk.walk(
            from,
            kings & from.bit() != 0,
            None,
            occ & !from.bit(),
            enemy,
            0,
        );
    }
    walk.best > 0
}

/// Whether the side to move has a capture.
pub fn can_capture(pos: &Position) -> bool {
    let us = pos.side();
    let ours = pos.pieces(us);
    let enemy = pos.pieces(us.opponent());
    let empty = !pos.occupied();
    let kings = ours & pos.kings();
    men_that_capture(us, ours & !kings, enemy, empty) | kings_that_capture(kings, enemy, empty) != 0
}

/// Appends every quiet move (men's steps, kings' slides), ignoring compulsory capture.
pub fn generate_quiets(pos: &Position, list: &mut MoveList<Move>) {
    let us = pos.side();
    let ours = pos.pieces(us);
    let empty = !pos.occupied();
    let men = ours & !pos.kings();
    for d in Dir::man_dirs(us) {
        for to in squares(d.shift(men) & empty) {
            if let Some(from) = to.step(d.reverse()) {
                list.push(Move::quiet(from, to));
            }
        }
    }
    for from in squares(ours & pos.kings()) {
        for d in Dir::ALL {
            let mut next = from.step(d);
            while let Some(to) = next {
                if empty & to.bit() == 0 {
                    break;
                }
                list.push(Move::quiet(from, to));
                next = to.step(d);
            }
        }
    }
}

/// Number of quiet moves, counted by whole-board shifts.
fn count_quiets(pos: &Position) -> u64 {
    let us = pos.side();
    let ours = pos.pieces(us);
    let empty = !pos.occupied();
    let men = ours & !pos.kings();
    let mut n = 0;
    for d in Dir::man_dirs(us) {
        n += (d.shift(men) & empty).count_ones() as u64;
    }
    for d in Dir::ALL {
        // All kings slide together; each step is one move per king still sliding.
        let mut x = d.shift(ours & pos.kings()) & empty;
        while x != 0 {
            n += x.count_ones() as u64;
            x = d.shift(x) & empty;
        }
    }
    n
}

/// Every legal move: the longest captures if there is a capture, else the quiet moves.
pub fn legal_moves(pos: &Position) -> MoveList<Move> {
    let mut list = MoveList::new();
    if !generate_captures(pos, &mut list) {
        generate_quiets(pos, &mut list);
    }
    list
}

/// Number of legal moves (quiet moves counted without building them).
pub fn count_legal_moves(pos: &Position) -> u64 {
    if can_capture(pos) {
        let mut list = MoveList::new();
        generate_captures(pos, &mut list);
        list.len() as u64
    } else {
        count_quiets(pos)
    }
}

/// Whether the side to move has a legal move.
pub fn has_legal_move(pos: &Position) -> bool {
    can_capture(pos) || count_quiets(pos) > 0
}
