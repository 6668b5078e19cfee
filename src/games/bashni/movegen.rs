//! Legal move generation.
//!
//! Captures are compulsory, so generation first asks, with whole-board shifts, whether any
//! tower of the side to move can capture at all; only then does it search capture paths
//! piece by piece (see [`crate::games::bashni::captures`]). Otherwise it generates steps and king slides.

use crate::games::bashni::captures::{CaptureSink, count_capture_paths, generate_captures};
use crate::games::bashni::position::Position;
use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::color::Color;
use crate::games::kit::moves::{Move, MoveList};
use crate::games::kit::square::{Direction, Square};

/// Forward directions of `c`'s men.
#[inline]
pub const fn forward(c: Color) -> [Direction; 2] {
    match c {
        Color::White => [Direction::NorthEast, Direction::NorthWest],
        Color::Black => [Direction::SouthWest, Direction::SouthEast],
    }
}

/// Squares reached from `from` sliding in `dir`, up to and including the first blocker.
#[inline]
fn ray_with_blocker(from: Bitboard, dir: Direction, empty: Bitboard) -> Bitboard {
    let mut x = from.shift(dir);
    let mut reach = x;
    while !x.is_empty() {
        x = (x & empty).shift(dir);
        reach |= x;
    }
    reach
}

/// Whether `men` or `kings` (of one side) can jump any of `enemy`, given the `empty` squares.
/// Men capture in all four directions, so the side does not matter.
#[inline]
pub fn can_capture_sets(men: Bitboard, kings: Bitboard, enemy: Bitboard, empty: Bitboard) -> bool {
    // Men: all four directions at once, branch-free.
    let mut hits = Bitboard::EMPTY;
    for dir in Direction::ALL {
        hits |= (men.shift(dir) & enemy).shift(dir) & empty;
    }
    if !hits.is_empty() {
        return true;
    }
    if kings.is_empty() {
        return false;
    }
    Direction::ALL.iter().any(|&dir| {
        let reach = ray_with_blocker(kings, dir, empty);
        !((reach & enemy).shift(dir) & empty).is_empty()
    })
}

/// Number of quiet moves of `c`'s `men` and `kings` over the `empty` squares.
#[inline]
pub fn count_quiets_sets(c: Color, men: Bitboard, kings: Bitboard, empty: Bitboard) -> u64 {
    let [d1, d2] = forward(c);
    let mut n = (men.shift(d1) & empty).count() as u64 + (men.shift(d2) & empty).count() as u64;
    if !kings.is_empty() {
        for dir in Direction::ALL {
            // Slide all kings together one step at a time; each step is one move per king
            // still moving, because kings never share a ray square in one direction.
            let mut x = kings.shift(dir) & empty;
            while !x.is_empty() {
                n += x.count() as u64;
                x = x.shift(dir) & empty;
            }
        }
    }
    n
}

/// Whether the side to move has at least one capture (set-wise test, no per-piece work).
#[inline]
pub fn can_capture(pos: &Position) -> bool {
    let us = pos.side();
    let ours = pos.commanded_by(us);
    can_capture_sets(
        ours & !pos.kings(),
        ours & pos.kings(),
        pos.commanded_by(us.opponent()),
        pos.empty_squares(),
    )
}

impl CaptureSink for MoveList {
    #[inline]
    fn emit(&mut self, from: Square, landings: &[Square], jumped: &[Square]) {
        self.push(Move::capture(from, landings, jumped));
    }
}

/// Appends every quiet move (steps and king slides) to `list`, ignoring compulsory capture.
pub fn generate_quiets(pos: &Position, list: &mut MoveList) {
    let us = pos.side();
    let ours = pos.commanded_by(us);
    let empty = pos.empty_squares();
    let men = ours & !pos.kings();
    for dir in forward(us) {
        for to in men.shift(dir) & empty {
            if let Some(from) = to.step(dir.reverse()) {
                list.push(Move::quiet(from, to));
            }
        }
    }
    for from in ours & pos.kings() {
        for dir in Direction::ALL {
            let mut next = from.step(dir);
            while let Some(to) = next {
                if !empty.has(to) {
                    break;
                }
                list.push(Move::quiet(from, to));
                next = to.step(dir);
            }
        }
    }
}

/// Appends every capture to `list`; returns whether there was any.
pub fn generate_capture_moves(pos: &Position, list: &mut MoveList) -> bool {
    if !can_capture(pos) {
        return false;
    }
    let before = list.len();
    generate_captures(pos, list);
    list.len() > before
}

/// All legal moves of the position (captures if any, else quiet moves).
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    if !generate_capture_moves(pos, &mut list) {
        generate_quiets(pos, &mut list);
    }
    list
}

/// Number of legal moves, counted without building the list (quiet moves by popcount).
pub fn count_legal_moves(pos: &Position) -> u64 {
    let captures = count_capture_paths(pos);
    if captures > 0 {
        return captures;
    }
    let us = pos.side();
    let ours = pos.commanded_by(us);
    count_quiets_sets(
        us,
        ours & !pos.kings(),
        ours & pos.kings(),
        pos.empty_squares(),
    )
}

/// Whether the side to move has any legal move.
pub fn has_legal_move(pos: &Position) -> bool {
    if can_capture(pos) {
        return true;
    }
    let us = pos.side();
    let ours = pos.commanded_by(us);
    let empty = pos.empty_squares();
    let men = ours & !pos.kings();
    let kings = ours & pos.kings();
    for dir in forward(us) {
        if !(men.shift(dir) & empty).is_empty() {
            return true;
        }
    }
    Direction::ALL
        .iter()
        .any(|&d| !(kings.shift(d) & empty).is_empty())
}
