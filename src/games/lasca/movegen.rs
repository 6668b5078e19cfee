//! Lasca's move generation: captures (compulsory, any sequence may be chosen, continued while
//! the column can jump again, no square jumped twice, stopped by a soldier's promotion) and,
//! when there is none, steps.
//!
//! A capture never needs the board changed while it is walked: only the moving column's
//! start square empties (it may be passed or landed on again), a jumped square can be
//! neither landed on (landings are an even number of steps from the start, jumped squares an
//! odd number) nor jumped again, and prisoners go under the commander, so the column moves
//! the same way to the end. The walk therefore reads three fixed sets: the squares the enemy
//! commands, the empty squares, and the squares jumped so far.

use crate::games::kit::movelist::MoveList;
use crate::games::lasca::board::{Dir, NUM_SQUARES, Square, promotion_mask, squares};
use crate::games::lasca::moves::{MAX_JUMPS, Move};
use crate::games::lasca::position::{Position, Sets};

/// Per square (index below 32, so that a masked index needs no bounds check) and direction
/// (in [`Dir::ALL`] order): the bit of the square a jump that way passes over and the bit of
/// the square it lands on, both 0 when the board ends first.
const JUMPS: [[(u32, u32); 4]; 32] = {
    let mut t = [[(0, 0); 4]; 32];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut d = 0;
        while d < 4 {
            let dir = Dir::ALL[d];
            let over = dir.shift(1 << sq);
            let land = dir.shift(over);
            if land != 0 {
                t[sq][d] = (over, land);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// The directions (bits in [`Dir::ALL`] order) a soldier of each colour jumps in, and an
/// officer.
const SOLDIER_DIRS: [u8; 2] = [0b0011, 0b1100];
const OFFICER_DIRS: u8 = 0b1111;

/// What one capture walk reads.
struct Walk {
    /// Squares commanded by the opponent.
    enemy: u32,
    /// Empty squares, the start square included.
    empty: u32,
    /// Directions the moving column jumps in (bits in [`Dir::ALL`] order).
    dirs: u8,
    /// Squares where the walk stops (a soldier's far rank; none for an officer).
    stop: u32,
}

impl Walk {
    /// The jumps from `sq` when the squares `jumped` have been jumped: per direction, the
    /// bits of the square passed over and of the landing square (0, 0 for none).
    #[inline(always)]
    fn jumps(&self, sq: usize, jumped: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..4).filter_map(move |d| {
            let (over, land) = JUMPS[sq & 31][d];
            let open = self.dirs & 1 << d != 0
                && self.enemy & !jumped & over != 0
                && self.empty & land != 0;
            open.then_some((over, land))
        })
    }

    /// Calls `emit` with every complete landing path from `sq` (the landings so far are
    /// `path[..depth]`, the squares jumped so far `jumped`).
    fn paths(
        &self,
        sq: usize,
        jumped: u32,
        path: &mut [Square; MAX_JUMPS],
        depth: usize,
        emit: &mut impl FnMut(&[Square]),
    ) {
        let mut any = false;
        for (over, land) in self.jumps(sq, jumped) {
            any = true;
            let at = land.trailing_zeros() as usize;
            path[depth] = Square::from_index(at as u8);
            if self.stop & land != 0 {
                emit(&path[..=depth]);
            } else {
                self.paths(at, jumped | over, path, depth + 1, emit);
            }
        }
        if !any && depth > 0 {
            emit(&path[..depth]);
        }
    }

    /// The number of complete landing paths from `sq` ([`Walk::paths`] without the paths);
    /// 0 when there is no jump from it.
    fn count(&self, sq: usize, jumped: u32) -> u64 {
        let mut n = 0;
        for (over, land) in self.jumps(sq, jumped) {
            n += if self.stop & land != 0 {
                1
            } else {
                let at = land.trailing_zeros() as usize;
                self.count(at, jumped | over).max(1)
            };
        }
        n
    }
}

/// The walk of the column on `from` of the side to move.
#[inline]
fn walk(pos: &Sets, from: Square) -> Walk {
    let us = pos.side();
    let officer = pos.officers() & from.bit() != 0;
    Walk {
        enemy: pos.pieces(us.opponent()),
        empty: !pos.occupied() | from.bit(),
        dirs: if officer {
            OFFICER_DIRS
        } else {
            SOLDIER_DIRS[us.index()]
        },
        stop: if officer { 0 } else { promotion_mask(us) },
    }
}

/// The squares from which the side to move can jump at once.
#[inline]
fn capturers(pos: &Sets) -> u32 {
    let us = pos.side();
    let ours = pos.pieces(us);
    let enemy = pos.pieces(us.opponent());
    let empty = !pos.occupied() & crate::games::lasca::board::ALL;
    let officers = ours & pos.officers();
    let soldiers = ours & !pos.officers();
    let mut from = 0;
    for d in Dir::ALL {
        let back = d.reverse();
        // Squares from which a jump `d` lands on an empty square over an enemy.
        let hits = back.shift(back.shift(empty) & enemy);
        let movers = if Dir::forward(us).contains(&d) {
            soldiers | officers
        } else {
            officers
        };
        from |= hits & movers;
    }
    from
}

/// Whether the side to move has a capture.
#[inline]
pub fn can_capture(pos: &Position) -> bool {
    capturers(pos.sets()) != 0
}

/// Pushes every capture of the side to move; whether there was any.
pub fn generate_captures(pos: &Position, list: &mut MoveList<Move>) -> bool {
    for_each_capture(pos, |m| list.push(m))
}

/// Calls `f` with every capture of the side to move; whether there was any.
#[inline]
pub fn for_each_capture(pos: &Position, mut f: impl FnMut(Move)) -> bool {
    let pos = pos.sets();
    let from_set = capturers(pos);
    let mut path = [Square::default(); MAX_JUMPS];
    for from in squares(from_set) {
        walk(pos, from).paths(from.index(), 0, &mut path, 0, &mut |landings| {
            f(Move::capture(from, landings))
        });
    }
    from_set != 0
}

/// Calls `f` with every legal move: the captures if there is any, else the steps.
#[inline]
pub fn for_each_move(pos: &Position, mut f: impl FnMut(Move)) {
    if !for_each_capture(pos, &mut f) {
        for_each_quiet(pos, f);
    }
}

/// The number of captures of the side to move.
#[inline]
fn count_captures(pos: &Sets) -> u64 {
    squares(capturers(pos))
        .map(|from| walk(pos, from).count(from.index(), 0))
        .sum()
}

/// Per direction, the squares a step that way can go to: (origins, targets) sets of the
/// side to move, soldiers forward and officers every way.
#[inline]
fn step_targets(pos: &Sets, d: Dir) -> u32 {
    let us = pos.side();
    let ours = pos.pieces(us);
    let movers = if Dir::forward(us).contains(&d) {
        ours
    } else {
        ours & pos.officers()
    };
    d.shift(movers) & !pos.occupied()
}

/// Pushes every step of the side to move (call only when it has no capture).
pub fn generate_quiets(pos: &Position, list: &mut MoveList<Move>) {
    for_each_quiet(pos, |m| list.push(m));
}

/// Calls `f` with every step of the side to move.
#[inline]
fn for_each_quiet(pos: &Position, mut f: impl FnMut(Move)) {
    let pos = pos.sets();
    for d in Dir::ALL {
        for to in squares(step_targets(pos, d)) {
            let from = Square::from_index((to.index() as i8 - d.offset()) as u8);
            f(Move::quiet(from, to));
        }
    }
}

/// Every legal move: the captures if there is any, else the steps.
pub fn legal_moves(pos: &Position) -> MoveList<Move> {
    let mut list = MoveList::new();
    if !generate_captures(pos, &mut list) {
        generate_quiets(pos, &mut list);
    }
    list
}

/// The number of legal moves, without building them.
#[inline]
pub fn count_legal_moves(pos: &Position) -> u64 {
    count_moves(pos.sets())
}

/// The number of legal moves of the position whose [`Sets`] are `pos`.
#[inline]
pub fn count_moves(pos: &Sets) -> u64 {
    if capturers(pos) != 0 {
        return count_captures(pos);
    }
    Dir::ALL
        .iter()
        .map(|&d| step_targets(pos, d).count_ones() as u64)
        .sum()
}

/// Whether the side to move has a legal move.
#[inline]
pub fn has_legal_move(pos: &Position) -> bool {
    let pos = pos.sets();
    capturers(pos) != 0 || Dir::ALL.iter().any(|&d| step_targets(pos, d) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jump_table_matches_steps() {
        for sq in Square::all() {
            for (i, d) in Dir::ALL.iter().enumerate() {
                let want = sq
                    .step(*d)
                    .and_then(|o| o.step(*d).map(|l| (o.bit(), l.bit())));
                assert_eq!(want.unwrap_or((0, 0)), JUMPS[sq.index()][i]);
            }
        }
    }
}
