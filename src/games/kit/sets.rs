//! Set-wise questions about the pieces of one side on the 32 dark squares, a whole board
//! at a time: the forward directions of men, whether any piece can jump, how many quiet
//! moves there are. Bashni and Russian draughts share them.

use crate::games::kit::bitboard::Bitboard;
use crate::games::kit::color::Color;
use crate::games::kit::moves::{Move, MoveList};
use crate::games::kit::square::Direction;

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
pub fn ray_with_blocker(from: Bitboard, dir: Direction, empty: Bitboard) -> Bitboard {
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

/// Appends every quiet move of `c`'s pieces `ours` (its `kings` among them, the rest men) over
/// the `empty` squares to `list`: men's steps forward, kings' slides.
#[inline]
pub fn generate_quiets(
    c: Color,
    ours: Bitboard,
    kings: Bitboard,
    empty: Bitboard,
    list: &mut MoveList,
) {
    let men = ours & !kings;
    for dir in forward(c) {
        for to in men.shift(dir) & empty {
            if let Some(from) = to.step(dir.reverse()) {
                list.push(Move::quiet(from, to));
            }
        }
    }
    for from in ours & kings {
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
