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
use crate::games::lasca::position::Position;

/// No square.
const NONE: u8 = u8::MAX;

/// Per square and direction (in [`Dir::ALL`] order): the square jumped and the landing
/// square of a jump that way, or [`NONE`] twice when the board ends first.
const JUMPS: [[(u8, u8); 4]; NUM_SQUARES] = {
    let mut t = [[(NONE, NONE); 4]; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut d = 0;
        while d < 4 {
            let dir = Dir::ALL[d];
            let over = dir.shift(1 << sq);
            let land = dir.shift(over);
            if land != 0 {
                t[sq][d] = (over.trailing_zeros() as u8, land.trailing_zeros() as u8);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Direction indices a soldier of each colour jumps in, and an officer.
const SOLDIER_DIRS: [[usize; 2]; 2] = [[0, 1], [2, 3]];
const OFFICER_DIRS: [usize; 4] = [0, 1, 2, 3];

/// What one capture walk reads.
struct Walk<'a> {
    /// Squares commanded by the opponent.
    enemy: u32,
    /// Empty squares, the start square included.
    empty: u32,
    /// Directions the moving column jumps in.
    dirs: &'a [usize],
    /// Squares where the walk stops (a soldier's far rank; none for an officer).
    stop: u32,
}

impl Walk<'_> {
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
        for &d in self.dirs {
            let (over, land) = JUMPS[sq][d];
            if over == NONE || self.enemy & !jumped & 1 << over == 0 || self.empty & 1 << land == 0
            {
                continue;
            }
            any = true;
            path[depth] = Square::from_index(land);
            if self.stop & 1 << land != 0 {
                emit(&path[..=depth]);
            } else {
                self.paths(land as usize, jumped | 1 << over, path, depth + 1, emit);
            }
        }
        if !any && depth > 0 {
            emit(&path[..depth]);
        }
    }

    /// The number of complete landing paths from `sq` ([`Walk::paths`] without the paths).
    fn count(&self, sq: usize, jumped: u32, depth: usize) -> u64 {
        let mut n = 0;
        for &d in self.dirs {
            let (over, land) = JUMPS[sq][d];
            if over == NONE || self.enemy & !jumped & 1 << over == 0 || self.empty & 1 << land == 0
            {
                continue;
            }
            n += if self.stop & 1 << land != 0 {
                1
            } else {
                self.count(land as usize, jumped | 1 << over, depth + 1)
            };
        }
        if n == 0 && depth > 0 { 1 } else { n }
    }
}

/// The walk of the column on `from` of the side to move.
#[inline]
fn walk(pos: &Position, from: Square) -> Walk<'static> {
    let us = pos.side();
    let officer = pos.officers() & from.bit() != 0;
    Walk {
        enemy: pos.pieces(us.opponent()),
        empty: !pos.occupied() | from.bit(),
        dirs: if officer {
            &OFFICER_DIRS
        } else {
            &SOLDIER_DIRS[us.index()]
        },
        stop: if officer { 0 } else { promotion_mask(us) },
    }
}

/// The squares from which the side to move can jump at once.
#[inline]
fn capturers(pos: &Position) -> u32 {
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
    capturers(pos) != 0
}

/// Pushes every capture of the side to move; whether there was any.
pub fn generate_captures(pos: &Position, list: &mut MoveList<Move>) -> bool {
    let from_set = capturers(pos);
    let mut path = [Square::default(); MAX_JUMPS];
    for from in squares(from_set) {
        walk(pos, from).paths(from.index(), 0, &mut path, 0, &mut |landings| {
            list.push(Move::capture(from, landings))
        });
    }
    from_set != 0
}

/// The number of captures of the side to move.
#[inline]
pub fn count_captures(pos: &Position) -> u64 {
    squares(capturers(pos))
        .map(|from| walk(pos, from).count(from.index(), 0, 0))
        .sum()
}

/// Per direction, the squares a step that way can go to: (origins, targets) sets of the
/// side to move, soldiers forward and officers every way.
#[inline]
fn step_targets(pos: &Position, d: Dir) -> u32 {
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
    for d in Dir::ALL {
        for to in squares(step_targets(pos, d)) {
            let from = Square::from_index((to.index() as i8 - d.offset()) as u8);
            list.push(Move::quiet(from, to));
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
    if can_capture(pos) {
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
    can_capture(pos) || Dir::ALL.iter().any(|&d| step_targets(pos, d) != 0)
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
                    .and_then(|o| o.step(*d).map(|l| (o.index() as u8, l.index() as u8)));
                assert_eq!(want.unwrap_or((NONE, NONE)), JUMPS[sq.index()][i]);
            }
        }
    }
}
